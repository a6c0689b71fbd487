package export

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"io"
	"strconv"

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
}

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

func (r *row) int(col string, n int64) { r.set(col, strconv.FormatInt(n, 10)) }

func (r *row) bool(col string, b bool) { r.set(col, strconv.FormatBool(b)) }

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
// is an empty cell).
func (t *Table) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(t.Columns); err != nil {
		return err
	}
	rec := make([]string, len(t.Columns))
	for _, r := range t.Rows {
		for i, c := range r {
			rec[i] = c.Value
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// WriteJSONL writes one JSON object per row, members in column order,
// every value a string or null.
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
			if c.Null {
				b.WriteString("null")
			} else {
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
