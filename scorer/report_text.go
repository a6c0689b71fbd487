package scorer

import (
	"strings"

	"charm.land/glamour/v2"
	"charm.land/glamour/v2/styles"
)

// Text renders report.md for a terminal with glamour (DESIGN: `--format
// text`). style is a glamour standard style name ("dark", "light",
// "notty", "ascii"); width is the word-wrap width in cells. The per-task
// median R bars are part of the Markdown, so the terminal view shows them.
//
// The first line of the output is the SYNTHETIC notice (no leading blank
// line) in every style. "notty" and "ascii" give plain text for a pipe or
// a file: no escape codes, no left margin and no padding spaces at the
// ends of lines. An unknown style name is an error from glamour.
func (r *Report) Text(style string, width int) (string, error) {
	base, ok := styles.DefaultStyles[style]
	if !ok {
		// Let glamour name the unknown style in its error.
		if _, err := glamour.NewTermRenderer(glamour.WithStandardStyle(style)); err != nil {
			return "", err
		}
		base = &styles.DarkStyleConfig
	}
	cfg := *base // a copy: the standard styles are shared package variables
	cfg.Document.BlockPrefix = ""
	plain := style == styles.NoTTYStyle || style == styles.AsciiStyle
	if plain {
		zero := uint(0)
		cfg.Document.Margin = &zero
	}
	tr, err := glamour.NewTermRenderer(glamour.WithStyles(cfg), glamour.WithWordWrap(width))
	if err != nil {
		return "", err
	}
	out, err := tr.Render(string(r.Markdown(false)))
	if err != nil {
		return "", err
	}
	if plain {
		lines := strings.Split(out, "\n")
		for i, l := range lines {
			lines[i] = strings.TrimRight(l, " ")
		}
		out = strings.TrimRight(strings.Join(lines, "\n"), "\n") + "\n"
	}
	return strings.TrimLeft(out, "\n"), nil
}
