package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestScoreTextFitsWidth scores the demo campaign as text at 80 and 120
// columns: no line is wider than the terminal, every table heading of
// report.md appears whole, and every word of every table cell appears
// whole (a cell broken into a narrow column, one character per line,
// would split its words).
func TestScoreTextFitsWidth(t *testing.T) {
	t.Parallel()
	d := t.TempDir()
	if code, out, errOut := runCapture(t, "demo", "--out", d); code != 0 {
		t.Fatalf("demo exit %d\n%s%s", code, out, errOut)
	}
	md, err := os.ReadFile(filepath.Join(d, "report", "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	var heads, words []string
	lines := strings.Split(string(md), "\n")
	for i, l := range lines {
		if !strings.HasPrefix(l, "|") || strings.HasPrefix(l, "|---") {
			continue
		}
		cells := strings.Split(strings.Trim(strings.ReplaceAll(l, `\|`, "\x00"), "| "), " | ")
		for _, c := range cells {
			c = strings.ReplaceAll(strings.ReplaceAll(c, "\x00", "|"), "`", "")
			if i+1 < len(lines) && strings.HasPrefix(lines[i+1], "|---") {
				heads = append(heads, strings.ReplaceAll(c, `\\`, `\`))
				continue
			}
			words = append(words, strings.Fields(c)...)
		}
	}
	if len(heads) < 40 || len(words) < 1000 {
		t.Fatalf("report.md has %d table headings and %d cell words; the test needs the demo's tables", len(heads), len(words))
	}
	for _, width := range []string{"80", "120"} {
		code, out, errOut := runCapture(t, "score", filepath.Join(d, "campaign"), "--ratings", filepath.Join(d, "ratings"), "--allowed-signers", filepath.Join(filepath.Join(d, "ratings"), "allowed_signers"), "--width", width)
		if code != 1 { // the demo's gates fail by design
			t.Fatalf("score exit %d\n%s", code, errOut)
		}
		w := map[string]int{"80": 80, "120": 120}[width]
		for i, l := range strings.Split(out, "\n") {
			if n := ansi.StringWidth(l); n > w {
				t.Errorf("width %s: line %d is %d columns: %q", width, i+1, n, l)
			}
		}
		// Words wrapped onto the next line are still whole: compare with
		// the whitespace collapsed.
		flat := " " + strings.Join(strings.Fields(strings.NewReplacer("|", " ", "**", "").Replace(out)), " ") + " "
		for _, h := range heads {
			if h == "what" || h == "identity" {
				continue // the two-column identity tables drop their headings when narrow: "host — ..."
			}
			if !strings.Contains(flat, " "+h+" ") && !strings.Contains(flat, " "+h+":") {
				t.Errorf("width %s: the table heading %q is not whole in the text", width, h)
			}
		}
		missing := 0
		for _, wd := range words {
			if ansi.StringWidth(wd) > w {
				continue // a word wider than the terminal cannot be whole on a line
			}
			if !strings.Contains(flat, " "+wd) && !strings.Contains(flat, "("+wd) {
				if missing++; missing <= 10 {
					t.Errorf("width %s: the cell word %q is not whole in the text", width, wd)
				}
			}
		}
	}
}
