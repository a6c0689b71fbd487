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

// TestScoreWidthBounded runs the real binary: --width above maxTextWidth
// (or below minTextWidth) is a usage error (exit 2) naming the bound, and
// nothing is scored; $COLUMNS above the bound, below the minimum or not a
// number is ignored and the report is laid out for 80 columns, byte for
// byte the --width 80 report, while a $COLUMNS within the bounds is used.
func TestScoreWidthBounded(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := buildVerdict(t)
	d := filepath.Join(t.TempDir(), "d")
	if p := runBin(bin, nil, "demo", "--out", d); p.code != 0 {
		t.Fatalf("demo: exit %d\n%s", p.code, p.out)
	}
	score := []string{"score", filepath.Join(d, "campaign"), "--ratings", filepath.Join(d, "ratings"), "--allowed-signers", filepath.Join(d, "ratings", "allowed_signers")}
	for _, w := range []string{"1001", "100000000000", "39"} {
		p := runBin(bin, []string{"COLUMNS=80"}, append(score, "--width", w)...)
		if p.code != 2 || p.stdout != "" || !strings.Contains(p.out, "--width "+w) ||
			!strings.Contains(p.out, "at most 1000 columns") && !strings.Contains(p.out, "at least 40 columns") {
			t.Errorf("--width %s: exit %d, want 2 naming the bound\n%.400s", w, p.code, p.out)
		}
	}
	at := func(env []string, args ...string) string {
		t.Helper()
		p := runBin(bin, env, append(score, args...)...)
		if p.code != 1 { // the demo's gates fail by design
			t.Fatalf("score %v %v: exit %d\n%.400s", env, args, p.code, p.out)
		}
		return p.stdout
	}
	w80, w120 := at(nil, "--width", "80"), at(nil, "--width", "120")
	if w80 == w120 {
		t.Fatal("the report is the same at 80 and 120 columns; the test cannot tell widths apart")
	}
	for _, cols := range []string{"1001", "100000000", "99999999999999999999999", "39", "0", "-5", "wide"} {
		if got := at([]string{"COLUMNS=" + cols}); got != w80 {
			t.Errorf("COLUMNS=%s: the report is not the 80-column one", cols)
		}
	}
	if got := at([]string{"COLUMNS=120"}); got != w120 {
		t.Error("COLUMNS=120: the report is not the 120-column one")
	}
	max1000 := at(nil, "--width", "1000")
	for i, l := range strings.Split(max1000, "\n") {
		if n := ansi.StringWidth(l); n > 1000 {
			t.Fatalf("--width 1000: line %d is %d columns", i+1, n)
		}
	}
}
