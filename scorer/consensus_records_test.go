package scorer

import (
	"testing"

	"verdict/adjudication"
)

// TestAdjudicatedGradesWithdrawnDefect: a withdrawn oracle-defect flag
// keeps its withdrawn value ""; every other final value and note is kept.
func TestAdjudicatedGradesWithdrawnDefect(t *testing.T) {
	rs := []adjudication.Resolution{
		{Field: adjudication.Field{Item: "i1", Kind: adjudication.KindOracleDefect, Target: "task"}, Final: adjudication.ValueWithdrawn},
		{Field: adjudication.Field{Item: "i1", Kind: adjudication.KindOracleDefect, Target: "task"}, Final: adjudication.ValueDefective, Note: "SYNTHETIC reason"},
		{Field: adjudication.Field{Item: "i2", Kind: "claim", Target: "C1"}, Final: "supported", Note: "n"},
	}
	got := AdjudicatedGrades(rs)
	want := []SheetGrade{
		{Field: adjudication.Field{Item: "i1", Kind: adjudication.KindOracleDefect, Target: "task"}, Value: adjudication.ValueWithdrawn},
		{Field: adjudication.Field{Item: "i1", Kind: adjudication.KindOracleDefect, Target: "task"}, Value: adjudication.ValueDefective, Note: "SYNTHETIC reason"},
		{Field: adjudication.Field{Item: "i2", Kind: "claim", Target: "C1"}, Value: "supported", Note: "n"},
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
