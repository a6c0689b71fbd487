package scorer

import (
	"testing"

	"verdict/adjudication"
)

// TestAdjudicatedGradesWithdrawnDefect: a withdrawn oracle-defect flag
// settles as not defective; every other final value and note is kept.
func TestAdjudicatedGradesWithdrawnDefect(t *testing.T) {
	rs := []adjudication.Resolution{
		{Field: adjudication.Field{Item: "i1", Kind: adjudication.KindOracleDefect, Target: "task"}, Final: adjudication.ValueWithdrawn},
		{Field: adjudication.Field{Item: "i1", Kind: adjudication.KindOracleDefect, Target: "task"}, Final: adjudication.ValueDefective, Note: "SYNTHETIC reason"},
		{Field: adjudication.Field{Item: "i2", Kind: "claim", Target: "C1"}, Final: "supported", Note: "n"},
	}
	got := AdjudicatedGrades(rs)
	want := []SheetGrade{
		{Field: FieldKey{Item: "i1", Kind: GradeKind(adjudication.KindOracleDefect), Target: "task"}, Value: ValueNotDefective},
		{Field: FieldKey{Item: "i1", Kind: GradeKind(adjudication.KindOracleDefect), Target: "task"}, Value: adjudication.ValueDefective, Note: "SYNTHETIC reason"},
		{Field: FieldKey{Item: "i2", Kind: "claim", Target: "C1"}, Value: "supported", Note: "n"},
	}
	if len(got) != len(want) {
		t.Fatalf("%d grades, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("grade %d = %+v, want %+v", i, got[i], want[i])
		}
	}
}
