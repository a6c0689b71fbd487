package visible_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"verdict/internal/visible"
)

// TestWriterPlainAndSplitRunes: the plain writer renders controls, C1,
// bidi overrides and invalid bytes in notation, keeps line feeds, tabs
// and every other character, and joins a rune split across writes.
func TestWriterPlainAndSplitRunes(t *testing.T) {
	in := "a\x1b]52;c;x\x07\tb\n\u202e\u009bé\xff"
	want := "a⟨U+001B⟩]52;c;x⟨U+0007⟩\tb\n⟨U+202E⟩⟨U+009B⟩é⟨0xFF⟩"
	for split := range len(in) + 1 {
		var b bytes.Buffer
		w := visible.NewWriter(&b, visible.Plain)
		w.Write([]byte(in[:split]))
		w.Write([]byte(in[split:]))
		w.Flush()
		if b.String() != want {
			t.Fatalf("split at %d: %q, want %q", split, b.String(), want)
		}
	}
}

// TestWriterJSONKeepsValue: in JSON mode the escapes keep the document
// valid and its value equal, with no raw control character left.
func TestWriterJSONKeepsValue(t *testing.T) {
	val := "cat\x1b]52;c;aGk=\x07\u202eevil\u009b2J\U000e0001"
	doc, _ := json.Marshal(map[string]string{"campaign_id": val})
	var b bytes.Buffer
	w := visible.NewWriter(&b, visible.JSON)
	w.Write(doc)
	w.Flush()
	var got map[string]string
	if err := json.Unmarshal(b.Bytes(), &got); err != nil || got["campaign_id"] != val {
		t.Fatalf("%s: %v %q", b.Bytes(), err, got["campaign_id"])
	}
	for _, r := range b.String() {
		if visible.NeedsNotation(r) {
			t.Fatalf("raw %U in %s", r, b.Bytes())
		}
	}
}
