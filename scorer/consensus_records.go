package scorer

import "verdict/adjudication"

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
