package export

import (
	"encoding/csv"
	"strings"
	"testing"
)

// TestCSVCellsNeverRunAsFormulas: in CSV a cell that a spreadsheet would
// read as a formula (first character =, +, -, @, tab or carriage return)
// gets a leading single quote; plain numbers and other text are left as
// they are; JSONL carries every value unchanged. SYNTHETIC values.
func TestCSVCellsNeverRunAsFormulas(t *testing.T) {
	t.Parallel()
	cases := []struct{ in, csv string }{
		{`=HYPERLINK("http://synthetic.invalid/x","click")`, `'=HYPERLINK("http://synthetic.invalid/x","click")`},
		{"+1+1", "'+1+1"},
		{"-2+3", "'-2+3"},
		{"@SUM(A1:A2)", "'@SUM(A1:A2)"},
		{"\t=1", "'\t=1"},
		{"\r=1", "'\r=1"},
		{"-12", "-12"},
		{"-0.5", "-0.5"},
		{"+3", "+3"},
		{"-", "'-"},
		{"-.5", "'-.5"},
		{"13/10", "13/10"},
		{"a = b", "a = b"},
	}
	if CSVCell("") != "" {
		t.Error("CSVCell changed an empty cell")
	}
	tb := &Table{Columns: []string{"note"}}
	for _, c := range cases {
		if got := CSVCell(c.in); got != c.csv {
			t.Errorf("CSVCell(%q) = %q, want %q", c.in, got, c.csv)
		}
		// Built without row.set so that tab and CR reach the writer.
		tb.Rows = append(tb.Rows, []Cell{{Value: c.in}})
	}
	var b strings.Builder
	if err := tb.WriteCSV(&b); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(strings.NewReader(b.String())).ReadAll()
	if err != nil || len(recs) != len(cases)+1 {
		t.Fatalf("%v, %d records", err, len(recs))
	}
	for i, c := range cases {
		if recs[i+1][0] != c.csv {
			t.Errorf("CSV cell %d = %q, want %q", i, recs[i+1][0], c.csv)
		}
	}
	var j strings.Builder
	if err := tb.WriteJSONL(&j); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(j.String(), `{"note":"=HYPERLINK(\"http://synthetic.invalid/x\",\"click\")"}`) || strings.Contains(j.String(), `"'`) {
		t.Errorf("JSONL changed a value:\n%s", j.String())
	}
}
