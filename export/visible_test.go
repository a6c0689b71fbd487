package export

import (
	"strings"
	"testing"
)

// TestCellsRenderControlsVisibly: every text cell is rendered as the
// screens render it (visible.Text), in CSV and JSONL alike: no raw ESC,
// BEL, C1 control or bidi override reaches the output.
func TestCellsRenderControlsVisibly(t *testing.T) {
	tb := &Table{Columns: []string{"note"}}
	r := tb.newRow()
	r.set("note", "look \x1b]0;pwned\x07\u009b31m \u202eevil")
	r.done()
	for name, write := range map[string]func(*strings.Builder) error{
		"csv":   func(b *strings.Builder) error { return tb.WriteCSV(b) },
		"jsonl": func(b *strings.Builder) error { return tb.WriteJSONL(b) },
	} {
		var b strings.Builder
		if err := write(&b); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		if strings.ContainsAny(out, "\x1b\x07\u009b\u202e") || !strings.Contains(out, "⟨U+001B⟩]0;pwned⟨U+0007⟩⟨U+009B⟩31m ⟨U+202E⟩evil") {
			t.Fatalf("%s: %q", name, out)
		}
	}
}
