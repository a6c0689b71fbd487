package scorer

import (
	"bytes"
	"fmt"
	"math/big"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// table is one table of a report: the line above it saying what one row
// is and the unit of its values, the column headings, and the rows.
type table struct {
	unit string
	head []string
	rows [][]string
	// keys is the number of leading columns that name a row; they title
	// the row's block in the narrow layout (at least 1).
	keys int
	// plainKeys shows the key cells without their headings in the narrow
	// layout (and the one value cell of a two-column table without its
	// heading): "**host** — linux" rather than "**what host** — identity:
	// linux".
	plainKeys bool
}

// row appends one row; cells are Markdown text already escaped for a
// table (mdEscape).
func (t *table) row(cells ...string) { t.rows = append(t.rows, cells) }

// tableRule is the cells of a table's layout beyond its contents: one
// space either side of every cell and one separator between cells, as the
// text renderer draws a table.
func tableWidth(widths []int) int {
	w := len(widths) - 1
	for _, c := range widths {
		w += c + 2
	}
	return w
}

// cellWidth is the cells a table cell takes when rendered: its display
// width, Markdown escapes of "|" counted as one cell.
func cellWidth(s string) int { return ansi.StringWidth(strings.ReplaceAll(s, `\|`, "|")) }

// write renders t into b. For report.md (width 0) it is a Markdown table
// under its unit line. For a terminal of width cells it is the same table
// when every cell fits whole on one line within width; otherwise each row
// becomes one paragraph: its key cells in bold, then "heading: value" for
// every other cell, word-wrapped, so no heading is cut and no cell is
// broken into a column a few characters wide.
func (t *table) write(b *bytes.Buffer, width int) {
	if t.unit != "" {
		fmt.Fprintf(b, "%s\n\n", t.unit)
	}
	widths := make([]int, len(t.head))
	for i, h := range t.head {
		widths[i] = cellWidth(h)
	}
	for _, r := range t.rows {
		for i, c := range r {
			widths[i] = max(widths[i], cellWidth(c))
		}
	}
	if width == 0 || tableWidth(widths) <= width {
		fmt.Fprintf(b, "| %s |\n|%s\n", strings.Join(t.head, " | "), strings.Repeat("---|", len(t.head)))
		for _, r := range t.rows {
			fmt.Fprintf(b, "| %s |\n", strings.Join(r, " | "))
		}
		b.WriteString("\n")
		return
	}
	keys := max(t.keys, 1)
	for _, r := range t.rows {
		var title, rest []string
		for i, c := range r {
			switch {
			case i < keys && c != "" && t.plainKeys:
				title = append(title, unescape(c))
			case i < keys && c != "":
				title = append(title, t.head[i]+" "+unescape(c))
			case i >= keys && t.plainKeys && len(r) == keys+1:
				rest = append(rest, unescape(c))
			case i >= keys:
				rest = append(rest, t.head[i]+": "+unescape(c))
			}
		}
		// An underscore inside bold text (claim_critical) is escaped, or
		// the renderer reads it as emphasis.
		fmt.Fprintf(b, "**%s** — %s\n\n", strings.ReplaceAll(strings.Join(title, " · "), "_", `\_`), strings.Join(rest, "; "))
	}
}

// unescape undoes mdEscape's "|" escape, which only a table needs.
func unescape(s string) string { return strings.ReplaceAll(s, `\|`, "|") }

// duration renders an exact time for a reader, rounded with its units:
// "850ms" below a second, "12.3s" below a minute, "2m03s" below an hour,
// "1h02m03s" beyond, "unknown" when unmeasured. report.json keeps the
// exact nanoseconds.
func duration(n Nanos) string {
	if !n.Known {
		return "unknown"
	}
	r := n.Rat()
	ms := new(big.Rat).Quo(r, big.NewRat(1_000_000, 1))
	f, _ := ms.Float64() // milliseconds
	neg := ""
	if f < 0 {
		neg, f = "-", -f
	}
	switch {
	case f < 1000:
		return fmt.Sprintf("%s%.0fms", neg, f)
	case f < 59_950:
		return fmt.Sprintf("%s%.1fs", neg, f/1000)
	}
	s := int64(f/1000 + 0.5)
	if s < 3600 {
		return fmt.Sprintf("%s%dm%02ds", neg, s/60, s%60)
	}
	return fmt.Sprintf("%s%dh%02dm%02ds", neg, s/3600, s%3600/60, s%60)
}
