package scorer

import (
	"charm.land/glamour/v2"
)

// Text renders report.md for a terminal with glamour (DESIGN: `--format
// text`). style is a glamour standard style name ("dark", "light",
// "notty", "ascii"); width is the word-wrap width in cells. The per-task
// median R bars are part of the Markdown, so the terminal view shows them.
func (r *Report) Text(style string, width int) (string, error) {
	tr, err := glamour.NewTermRenderer(glamour.WithStandardStyle(style), glamour.WithWordWrap(width))
	if err != nil {
		return "", err
	}
	return tr.Render(string(r.Markdown(false)))
}
