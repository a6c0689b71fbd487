package adjudication

import (
	"reflect"
	"testing"
)

// TestAgreementConfusion: each kind's row carries the two raters' values
// side by side (rater 1 down, rater 2 across), a field graded on one
// sheet only under not_graded; the pooled row has none (its values mix
// kinds).
func TestAgreementConfusion(t *testing.T) {
	g := func(item string, k Kind, target, v string) Grade {
		return Grade{Field: Field{Item: item, Kind: k, Target: target}, Value: v}
	}
	a := []Grade{g("i1", KindObligation, "O1", ValueAddressed), g("i1", KindObligation, "O2", ValueAddressed),
		g("i2", KindObligation, "O1", ValueNotAddressed), g("i2", KindObligation, "O2", ValueAddressed)}
	b := []Grade{g("i1", KindObligation, "O1", ValueAddressed), g("i1", KindObligation, "O2", ValueNotAddressed),
		g("i2", KindObligation, "O1", ValueNotAddressed)}
	ag := AgreementOf(a, b, nil)
	if ag.All.Confusion != nil {
		t.Error("the pooled row has a confusion matrix")
	}
	var ob AgreementRow
	for _, r := range ag.ByKind {
		if r.Group == string(KindObligation) {
			ob = r
		}
		if r.Confusion == nil {
			t.Errorf("kind %s has no confusion matrix", r.Group)
		}
	}
	want := &Confusion{Values: []string{ValueAddressed, ValueNotAddressed, NotGraded},
		Counts: [][]int64{{1, 1, 1}, {0, 1, 0}, {0, 0, 0}}}
	if !reflect.DeepEqual(ob.Confusion, want) {
		t.Fatalf("obligation confusion %+v, want %+v", ob.Confusion, want)
	}
	if ag.OracleDefect.Confusion == nil || len(ag.OracleDefect.Confusion.Values) != 1 || ag.OracleDefect.Confusion.Values[0] != NotFlagged {
		t.Errorf("oracle-defect confusion %+v", ag.OracleDefect.Confusion)
	}
}
