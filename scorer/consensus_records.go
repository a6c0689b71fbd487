package scorer

import "verdict/adjudication"

// SheetGradesOf returns the grades of a signed rating sheet
// (adjudication.Sheet.Grades) as Consensus input, in the same order and
// with the same values and notes.
func SheetGradesOf(gs []adjudication.Grade) []SheetGrade {
	out := make([]SheetGrade, len(gs))
	for i, g := range gs {
		out[i] = SheetGrade{Field: FieldKey{Item: g.Item, Kind: GradeKind(g.Kind), Target: g.Target}, Value: g.Value, Note: g.Note}
	}
	return out
}

// AdjudicatedGrades returns the resolutions of a signed adjudication
// (adjudication.Adjudication.Resolutions) as Consensus input, in the same
// order: each final value with its note, except that an oracle-defect flag
// the adjudicator withdrew (adjudication.ValueWithdrawn) settles as
// ValueNotDefective (EVALUATOR-CONTROLS C22).
func AdjudicatedGrades(rs []adjudication.Resolution) []SheetGrade {
	var out []SheetGrade
	for _, r := range rs {
		v := r.Final
		if r.Field.Kind == adjudication.KindOracleDefect && v == adjudication.ValueWithdrawn {
			v = ValueNotDefective
		}
		out = append(out, SheetGrade{Field: FieldKey{Item: r.Field.Item, Kind: GradeKind(r.Field.Kind), Target: r.Field.Target}, Value: v, Note: r.Note})
	}
	return out
}
