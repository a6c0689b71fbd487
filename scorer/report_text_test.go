package scorer

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
)

// wholeDocumentText renders the report's Markdown as one document with the
// configuration of WriteText and the plain styles' clean-up done on the
// whole string: what WriteText's section-by-section output must equal.
func wholeDocumentText(t *testing.T, r *Report, style string, width int) string {
	t.Helper()
	tr, plain, err := textRenderer(style, width)
	if err != nil {
		t.Fatal(err)
	}
	out, err := tr.Render(string(joinHyphens(r.markdown(false, width-textMargin(style)))))
	if err != nil {
		t.Fatal(err)
	}
	out = strings.ReplaceAll(out, string(nbHyphen), "-")
	if plain {
		lines := strings.Split(out, "\n")
		for i, l := range lines {
			lines[i] = strings.TrimRight(l, " ")
		}
		out = strings.TrimRight(strings.Join(lines, "\n"), "\n") + "\n"
	}
	return strings.TrimLeft(out, "\n")
}

var ansiEscape = regexp.MustCompile("\x1b\\[[0-9;]*m")

// visible drops escape codes and the padding spaces at the ends of lines.
func visible(s string) string {
	lines := strings.Split(ansiEscape.ReplaceAllString(s, ""), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n")
}

// TestWriteTextSectionsEqualWholeDocument: rendering section by section
// gives the plain styles' bytes of rendering the whole document, and the
// same visible text in the colour styles.
func TestWriteTextSectionsEqualWholeDocument(t *testing.T) {
	r := goldenReport(t)
	if n := len(markdownSections(r.Markdown(false))); n < 5 {
		t.Fatalf("the report splits into %d sections; the test needs several", n)
	}
	for _, style := range []string{"notty", "ascii", "dark", "light"} {
		for _, width := range []int{60, 100} {
			var buf bytes.Buffer
			if err := r.WriteText(&buf, style, width); err != nil {
				t.Fatal(err)
			}
			got, want := buf.String(), wholeDocumentText(t, r, style, width)
			// No identifier is broken at a hyphen (reason codes stay greppable).
			for _, l := range strings.Split(visible(got), "\n") {
				if l := strings.TrimRight(l, " │|"); len(l) > 1 && l[len(l)-1] == '-' && strings.ContainsAny(l[len(l)-2:len(l)-1], "abcdefghijklmnopqrstuvwxyz0123456789") && !strings.ContainsAny(l, "│|") {
					t.Errorf("%s width %d: a line ends in a word and a hyphen: %q", style, width, l)
				}
			}
			if style == "dark" || style == "light" {
				got, want = visible(got), visible(want)
			}
			if got != want {
				gl, wl := strings.Split(got, "\n"), strings.Split(want, "\n")
				for i := range min(len(gl), len(wl)) {
					if gl[i] != wl[i] {
						t.Errorf("%s width %d: line %d is %q, whole document %q", style, width, i+1, gl[i], wl[i])
						break
					}
				}
				t.Errorf("%s width %d: %d lines, whole document %d", style, width, len(gl), len(wl))
			}
		}
	}
}

// TestMarkdownSections: sections start at "## " headings outside fenced
// code and concatenate back to the document.
func TestMarkdownSections(t *testing.T) {
	md := "# T\n\nintro\n## A\ntext\n```\n## not a heading\n```\n## B\n\n### b1\nend"
	secs := markdownSections([]byte(md))
	var got []string
	for _, s := range secs {
		got = append(got, string(s))
	}
	want := []string{"# T\n\nintro\n", "## A\ntext\n```\n## not a heading\n```\n", "## B\n\n### b1\nend"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("sections %q, want %q", got, want)
	}
	if len(markdownSections(nil)) != 0 {
		t.Fatal("empty document has sections")
	}
}
