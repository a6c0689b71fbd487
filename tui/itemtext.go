package tui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"verdict/blinding"
	"verdict/tui/styles"
)

// ItemText returns item it of a bundle as plain text, lines of at most
// width cells (at least 40): its ID, the task and the final answer laid
// out as the rating screen lays them out (claims, implementation plan,
// verification plan, uncertainties, exclusions, citations, each element
// with its ID), then every evidence item of the packet with its path and
// numbered lines. It is what a rater or adjudicator working from files
// (`verdict grade BUNDLE --answers`) reads beside the grades template; it
// carries no styles and no colour, and control characters of the answer
// or the excerpts are shown as notation, never sent.
func ItemText(it *blinding.Item, width int) string {
	width = max(width, 40)
	var b strings.Builder
	fmt.Fprintf(&b, "Item %s\n\n", it.ID)
	for _, l := range layoutAnswer(styles.New(true), it, width).lines {
		b.WriteString(strings.TrimRight(ansi.Strip(l), " "))
		b.WriteByte('\n')
	}
	if len(it.Evidence) > 0 {
		fmt.Fprintf(&b, "\nEvidence  %d\n", len(it.Evidence))
	}
	for _, e := range it.Evidence {
		fmt.Fprintf(&b, "  %s  %s:%d-%d\n", e.ID, e.Path, e.StartLine, e.EndLine)
		lines := excerptLines(e.Excerpt)
		numW := len(fmt.Sprint(e.StartLine + len(lines)))
		textW := max(width-numW-7, 10)
		for i, l := range lines {
			for k, part := range strings.Split(ansi.Wrap(visibleText(l), textW, ""), "\n") {
				num := fmt.Sprintf("%*d", numW, e.StartLine+i)
				if k > 0 {
					num = strings.Repeat(" ", numW)
				}
				b.WriteString(strings.TrimRight("    "+num+" │ "+part, " "))
				b.WriteByte('\n')
			}
		}
	}
	return b.String()
}
