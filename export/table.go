package export

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"io"
	"strconv"
	"strings"

	"verdict/internal/visible"
)

// Table is one export: fixed columns and rows of cells.
type Table struct {
	Columns []string
	Rows    [][]Cell
	// Synthetic is true when the table was made from a synthetic campaign
	// (the command says so on stderr: CSV has no place for a notice).
	Synthetic bool
}

// Cell is one value; Null marks an unknown or undefined value (an empty
// CSV cell, JSON null), never 0.
type Cell struct {
	Value string
	Null  bool
	// Kind is the cell's JSON type in JSONL: a string (the zero value), a
	// number (a plain decimal) or a boolean. CSV writes every kind as text.
	Kind CellKind
}

// CellKind is a cell's JSON type.
type CellKind uint8

// The JSON types of a cell.
const (
	KindString CellKind = iota
	KindNumber
	KindBool
)

// row builds one row by column name; columns not set are null.
type row struct {
	t    *Table
	vals map[string]Cell
}

func (t *Table) newRow() *row { return &row{t: t, vals: map[string]Cell{}} }

// set sets col to v as the screens show it (visible.Text): a note or any
// other text read from a signed record never reaches a terminal or a
// spreadsheet with raw control or format characters.
func (r *row) set(col, v string) { r.vals[col] = Cell{Value: visible.Text(v)} }

func (r *row) null(col string) { r.vals[col] = Cell{Null: true} }

func (r *row) int(col string, n int64) {
	r.vals[col] = Cell{Value: strconv.FormatInt(n, 10), Kind: KindNumber}
}

func (r *row) bool(col string, b bool) {
	r.vals[col] = Cell{Value: strconv.FormatBool(b), Kind: KindBool}
}

// num sets col to the decimal v as a JSON number; a value that is not a
// plain JSON number (an exact ratio "3/4", a word) stays a string.
func (r *row) num(col, v string) {
	if jsonNumber(v) {
		r.vals[col] = Cell{Value: v, Kind: KindNumber}
		return
	}
	r.set(col, v)
}

// jsonNumber reports whether v is written as a JSON number as it is: an
// optional minus, digits without a leading zero, an optional fraction.
func jsonNumber(v string) bool {
	if v == "" || v[0] == '+' || !isDecimal(v) {
		return false
	}
	whole, _, _ := strings.Cut(strings.TrimPrefix(v, "-"), ".")
	return whole == "0" || whole[0] != '0'
}

// unknown leaves the columns null and writes why into col+"_unknown".
func (r *row) unknown(col, why string, cols ...string) {
	for _, c := range cols {
		r.null(c)
	}
	r.set(col+"_unknown", why)
}

func (r *row) done() {
	out := make([]Cell, len(r.t.Columns))
	for i, c := range r.t.Columns {
		v, ok := r.vals[c]
		if !ok {
			v = Cell{Null: true}
		}
		out[i] = v
	}
	r.t.Rows = append(r.t.Rows, out)
}

// WriteCSV writes the header and every row (encoding/csv; an unknown value
// is an empty cell). Every cell is written through CSVCell, so that a
// spreadsheet shows text, never runs it as a formula.
func (t *Table) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(t.Columns); err != nil {
		return err
	}
	rec := make([]string, len(t.Columns))
	for _, r := range t.Rows {
		for i, c := range r {
			rec[i] = CSVCell(c.Value)
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// CSVCell is v as a CSV cell that a spreadsheet shows as text: a value
// that begins with "=", "+", "-", "@", a tab or a carriage return (which
// spreadsheets read as the start of a formula) gets a leading single
// quote, which they take as "this cell is text" and do not show. A plain
// decimal number ("-12", "-0.5", "+3") is left as it is, so that it is
// still read as a number; no formula has that form. JSONL is not changed
// (WriteJSONL writes the value itself).
func CSVCell(v string) string {
	if v == "" || !strings.ContainsRune("=+-@\t\r", rune(v[0])) || isDecimal(v) {
		return v
	}
	return "'" + v
}

// isDecimal reports whether v is an optional sign, digits and an
// optional fraction ("-12", "+0.5").
func isDecimal(v string) bool {
	if v[0] == '-' || v[0] == '+' {
		v = v[1:]
	}
	whole, frac, dot := strings.Cut(v, ".")
	digits := func(s string) bool {
		for _, r := range s {
			if r < '0' || r > '9' {
				return false
			}
		}
		return s != ""
	}
	return digits(whole) && (!dot || digits(frac))
}

// WriteJSONL writes one JSON object per row, members in column order,
// every value of its JSON type: a number as a number (counts, exact
// fraction numerators and denominators, decimals, tokens, pico-USD), a
// boolean as true or false, text as a string, unknown as null.
func (t *Table) WriteJSONL(w io.Writer) error {
	var b bytes.Buffer
	for _, r := range t.Rows {
		b.Reset()
		b.WriteByte('{')
		for i, c := range r {
			if i > 0 {
				b.WriteByte(',')
			}
			k, _ := json.Marshal(t.Columns[i])
			b.Write(k)
			b.WriteByte(':')
			switch {
			case c.Null:
				b.WriteString("null")
			case c.Kind == KindNumber || c.Kind == KindBool:
				b.WriteString(c.Value)
			default:
				v, err := json.Marshal(c.Value)
				if err != nil {
					return err
				}
				b.Write(v)
			}
		}
		b.WriteString("}\n")
		if _, err := w.Write(b.Bytes()); err != nil {
			return err
		}
	}
	return nil
}
