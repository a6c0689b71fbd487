package tui

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"verdict/adjudication"
	"verdict/blinding"
	"verdict/campaign"
)

// codebook is the built-in codebook the screens show (adjudication.Codebook,
// its one home; verdict help grade and grade --template print the same).
var codebook = adjudication.Codebook

// valueName is a value as the screens write it ("not addressed").
func valueName(v string) string { return strings.ReplaceAll(v, "_", " ") }

// choiceLines renders the choices of kind k in w cells, one value per
// row with its definition beside it ("[1] supported   the packet's
// evidence says it …"), wrapped under the definition, never cut. The
// chosen value (if any) is rendered with sel; vals are the values offered
// (nil: the kind's allowed values).
func choiceLines(k adjudication.Kind, vals []string, chosen string, sel func(string) string, w int) []string {
	if vals == nil {
		vals = adjudication.AllowedValues(k)
	}
	width := 0
	for _, v := range vals {
		width = max(width, len(valueName(v)))
	}
	var out []string
	for i, v := range vals {
		name := "[" + strconv.Itoa(i+1) + "] " + valueName(v)
		lead := 2 + len(name) + width - len(valueName(v)) + 2
		if v == chosen {
			name = sel(name)
		}
		def, _ := adjudication.Definition(k, v)
		head := "  " + name + strings.Repeat(" ", lead-2-len("["+strconv.Itoa(i+1)+"] "+valueName(v)))
		if w-lead < 24 {
			// Too narrow for a column: the definition goes under the value.
			out = append(out, head)
			lead = 6
			head = strings.Repeat(" ", lead)
		}
		if def == "" {
			out = append(out, head)
			continue
		}
		parts := strings.Split(ansi.Wrap(def, max(w-lead, 10), ""), "\n")
		out = append(out, head+parts[0])
		for _, p := range parts[1:] {
			out = append(out, strings.Repeat(" ", lead)+p)
		}
	}
	return out
}

// codebookText is the built-in codebook of a bundle of design d as the g
// panel shows it (adjudication.CodebookTextFor: a system comparison's adds
// truthful unknown to obligation and uncertainty).
func codebookText(d campaign.Design) []string { return adjudication.CodebookTextFor(d) }

// guidelinesPanel is the title and text of the g panel: the guidelines
// the campaign bound (blinding.Bundle.Guidelines) when the bundle carries
// them, then the built-in codebook; without guidelines the codebook only.
func guidelinesPanel(b *blinding.Bundle) (string, func() []string) {
	if b == nil {
		return "Codebook", func() []string { return codebookText("") }
	}
	if b.Guidelines == "" {
		return "Codebook", func() []string { return codebookText(b.Design) }
	}
	g := visibleText(strings.TrimRight(b.Guidelines, "\n"))
	return "Guidelines of this campaign (bound in its manifest), then the built-in codebook", func() []string {
		return append(append(strings.Split(g, "\n"), "", strings.Repeat("─", 20)), codebookText(b.Design)...)
	}
}
