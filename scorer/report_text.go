package scorer

import (
	"bufio"
	"bytes"
	"io"
	"strings"

	"charm.land/glamour/v2"
	"charm.land/glamour/v2/styles"
)

// Text renders report.md for a terminal with glamour (DESIGN: `--format
// text`) and returns it whole; it is WriteText into a string.
func (r *Report) Text(style string, width int) (string, error) {
	var sb strings.Builder
	if err := r.WriteText(&sb, style, width); err != nil {
		return "", err
	}
	return sb.String(), nil
}

// WriteText renders report.md for a terminal with glamour (DESIGN:
// `--format text`) and writes it to w. style is a glamour standard style
// name ("dark", "light", "notty", "ascii"); width is the word-wrap width in
// cells. The per-task median R bars are part of the Markdown, so the
// terminal view shows them.
//
// The first line of the output is the SYNTHETIC notice (no leading blank
// line) in every style. "notty" and "ascii" give plain text for a pipe or
// a file: no escape codes, no left margin and no padding spaces at the
// ends of lines, and exactly one newline at the end. An unknown style name
// is an error from glamour, and nothing is written.
//
// The Markdown is rendered one "## " section at a time and each section is
// written as soon as it is rendered, so the renderer never holds the whole
// report (a 10,000-session report is megabytes of tables). Sections are
// separate blocks in the document, so the text is the same as rendering the
// document at once, up to the padding of the blank lines between blocks
// (which the plain styles remove anyway).
//
// Every table is laid out for the width: as a table when it fits, else as
// one block per row (table.write), so the text fits a terminal of width
// cells.
func (r *Report) WriteText(w io.Writer, style string, width int) error {
	return writeMarkdownText(w, r.markdown(false, width-textMargin(style)), style, width)
}

// textMargin is the left and right margin, in cells, the text view of
// style puts around the document (0 for the plain styles).
func textMargin(style string) int {
	if style == styles.NoTTYStyle || style == styles.AsciiStyle {
		return 0
	}
	if s, ok := styles.DefaultStyles[style]; ok && s.Document.Margin != nil {
		return 2 * int(*s.Document.Margin)
	}
	return 0
}

// writeMarkdownText renders a report's Markdown md for a terminal, one
// section at a time, as WriteText describes (either design's report).
func writeMarkdownText(w io.Writer, md []byte, style string, width int) error {
	tr, plain, err := textRenderer(style, width)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	tw := &textWriter{w: bw, plain: plain, start: true}
	// The word wrap breaks lines after a hyphen, which would split reason
	// codes such as eligible-tasks across lines (and out of grep's reach):
	// hyphens are rendered as non-breaking hyphens and restored after.
	keep := !bytes.ContainsRune(md, nbHyphen)
	if keep {
		md = joinHyphens(md)
	}
	for _, sec := range markdownSections(md) {
		out, err := tr.RenderBytes(sec)
		if err != nil {
			return err
		}
		if keep {
			out = bytes.ReplaceAll(out, []byte(string(nbHyphen)), []byte("-"))
		}
		tw.write(out)
	}
	tw.end()
	return bw.Flush()
}

// nbHyphen (U+2011 NON-BREAKING HYPHEN, one cell wide like "-") stands in
// for "-" while the text view is word-wrapped.
const nbHyphen = '\u2011'

// joinHyphens replaces each hyphen between two ASCII letters or digits (a
// hyphen inside a word or code) and each minus sign before a digit
// ("-0.200") with nbHyphen; never Markdown syntax such as "- " or "|---|".
func joinHyphens(md []byte) []byte {
	word := func(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' }
	out := make([]byte, 0, len(md)+len(md)/16)
	for i, c := range md {
		digit := i+1 < len(md) && md[i+1] >= '0' && md[i+1] <= '9'
		if c == '-' && i+1 < len(md) && (i > 0 && word(md[i-1]) && word(md[i+1]) || digit && i > 0 && md[i-1] != '\n') {
			out = append(out, string(nbHyphen)...)
			continue
		}
		out = append(out, c)
	}
	return out
}

// textRenderer returns the glamour renderer of the text view in style
// (a standard style name) wrapping at width cells, and whether the style is
// plain ("notty", "ascii": no margin, padding removed by the caller). The
// document's block prefix is dropped so that the SYNTHETIC notice is the
// first line. An unknown style is glamour's error.
func textRenderer(style string, width int) (tr *glamour.TermRenderer, plain bool, err error) {
	base, ok := styles.DefaultStyles[style]
	if !ok {
		// Let glamour name the unknown style in its error.
		if _, err := glamour.NewTermRenderer(glamour.WithStandardStyle(style)); err != nil {
			return nil, false, err
		}
		base = &styles.DarkStyleConfig
	}
	cfg := *base // a copy: the standard styles are shared package variables
	cfg.Document.BlockPrefix = ""
	plain = style == styles.NoTTYStyle || style == styles.AsciiStyle
	if plain {
		zero := uint(0)
		cfg.Document.Margin = &zero
	}
	tr, err = glamour.NewTermRenderer(glamour.WithStyles(cfg), glamour.WithWordWrap(width))
	return tr, plain, err
}

// markdownSections splits md before every line that starts a "## "
// heading outside a fenced code block; the sections concatenated are md.
func markdownSections(md []byte) [][]byte {
	var out [][]byte
	start, fenced := 0, false
	for off := 0; off < len(md); {
		end := bytes.IndexByte(md[off:], '\n')
		if end < 0 {
			end = len(md)
		} else {
			end += off + 1
		}
		line := md[off:end]
		if bytes.HasPrefix(line, []byte("```")) {
			fenced = !fenced
		} else if !fenced && off > start && bytes.HasPrefix(line, []byte("## ")) {
			out = append(out, md[start:off])
			start = off
		}
		off = end
	}
	if start < len(md) {
		out = append(out, md[start:])
	}
	return out
}

// textWriter joins rendered sections as one rendered document: newlines
// before the first text are dropped; in the plain styles trailing spaces
// of every line are dropped and the newlines at the very end become one.
type textWriter struct {
	w     *bufio.Writer
	plain bool
	start bool // no text written yet
	// held counts the newlines seen after the last text in the plain
	// styles; they are written only when more text follows.
	held int
}

func (t *textWriter) write(b []byte) {
	if !t.plain {
		if t.start {
			if b = bytes.TrimLeft(b, "\n"); len(b) == 0 {
				return
			}
			t.start = false
		}
		t.w.Write(b)
		return
	}
	for len(b) > 0 {
		line, rest, nl := bytes.Cut(b, []byte{'\n'})
		if line = bytes.TrimRight(line, " "); len(line) > 0 {
			if t.start {
				t.held, t.start = 0, false // no blank lines before the first text
			}
			for ; t.held > 0; t.held-- {
				t.w.WriteByte('\n')
			}
			t.w.Write(line)
		}
		if nl {
			t.held++
		}
		b = rest
	}
}

// end finishes the document: one newline after the last text in the plain
// styles.
func (t *textWriter) end() {
	if t.plain && !t.start {
		t.w.WriteByte('\n')
	}
}
