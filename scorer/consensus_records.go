package scorer

import "verdict/adjudication"

// SheetGradesOf returns the grades of a signed rating sheet
// (adjudication.Sheet.Grades) as Consensus input, in the same order and
// with the same values and notes.
func SheetGradesOf(gs []adjudication.Grade) []SheetGrade {
	out := make([]SheetGrade, len(gs))
	for i, g := range gs {
		out[i] = SheetGrade{Field: g.Field, Value: g.Value, Note: g.Note}
	}
	return out
}

// AdjudicatedGrades returns the resolutions of a signed adjudication
// (adjudication.Adjudication.Resolutions) as Consensus input, in the same
// order: each final value with its note; an oracle-defect flag the
// adjudicator withdrew keeps adjudication.ValueWithdrawn (""), which
// Consensus settles as no defect (EVALUATOR-CONTROLS C22).
func AdjudicatedGrades(rs []adjudication.Resolution) []SheetGrade {
	var out []SheetGrade
	for _, r := range rs {
		out = append(out, SheetGrade{Field: r.Field, Value: r.Final, Note: r.Note})
	}
	return out
}
