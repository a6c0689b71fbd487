package adjudication

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestJoinGrades: the join pairs equal fields, gives the zero Grade to the
// side that lacks a field, and takes the last of a field graded twice, as
// the per-field Values maps it replaces did.
func TestJoinGrades(t *testing.T) {
	g := func(item, target, v string) Grade {
		return Grade{Field: Field{Item: item, Kind: Kinds[0], Target: target}, Value: v}
	}
	a := []Grade{g("I2", "O1", "a1"), g("I1", "O1", "a0"), g("I1", "O2", "old"), g("I1", "O2", "new")}
	b := []Grade{g("I3", "O1", "b3"), g("I1", "O1", "b0"), g("I2", "O1", "b1")}
	var got []string
	JoinGrades(a, b, func(f Field, x, y Grade) {
		got = append(got, fmt.Sprintf("%s/%s=%s|%s", f.Item, f.Target, x.Value, y.Value))
	})
	want := []string{"I1/O1=a0|b0", "I1/O2=new|", "I2/O1=a1|b1", "I3/O1=|b3"}
	if !slices.Equal(got, want) {
		t.Fatalf("join = %q, want %q", got, want)
	}
	va, vb := (&Sheet{Grades: a}).Values(), (&Sheet{Grades: b}).Values()
	n := 0
	JoinGrades(a, b, func(f Field, x, y Grade) {
		n++
		if va[f] != x || vb[f] != y {
			t.Errorf("%v: join %v/%v, maps %v/%v", f, x, y, va[f], vb[f])
		}
	})
	if n != 4 {
		t.Fatalf("%d fields joined, want 4", n)
	}
}

// TestJoinGradesCanonicalOrder: the join gives fields in canonical field
// order (CompareFields: O2 before O10, kinds in Kinds order), the same for
// sides already in that order (not sorted again) and for shuffled sides,
// and keeps two kinds outside Kinds apart.
func TestJoinGradesCanonicalOrder(t *testing.T) {
	var a []Grade
	for _, item := range []string{"I1", "I2"} {
		for _, k := range []Kind{Kinds[0], Kinds[1]} {
			for _, target := range []string{"O2", "O10"} {
				a = append(a, Grade{Field: Field{Item: item, Kind: k, Target: target}, Value: item + string(k) + target})
			}
		}
	}
	a = append(a, Grade{Field: Field{Item: "I3", Kind: "zz-unknown", Target: "O1"}, Value: "u1"},
		Grade{Field: Field{Item: "I3", Kind: "aa-unknown", Target: "O1"}, Value: "u2"})
	sorted := slices.Clone(a)
	slices.SortStableFunc(sorted, func(x, y Grade) int { return CompareFields(x.Field, y.Field) })
	join := func(x, y []Grade) []string {
		var got []string
		JoinGrades(x, y, func(f Field, ga, gb Grade) { got = append(got, f.String()+"="+ga.Value+"|"+gb.Value) })
		return got
	}
	want := join(sorted, sorted)
	if len(want) != len(a) {
		t.Fatalf("%d fields joined, want %d: %q", len(want), len(a), want)
	}
	if !strings.HasPrefix(want[0], "I1/"+string(Kinds[0])+"/O2=") || !strings.HasPrefix(want[1], "I1/"+string(Kinds[0])+"/O10=") {
		t.Fatalf("first fields %q, want I1's first kind's O2 then O10", want[:2])
	}
	shuffled := slices.Clone(a)
	slices.Reverse(shuffled)
	if got := join(shuffled, sorted); !slices.Equal(got, want) {
		t.Fatalf("shuffled side: %q, want %q", got, want)
	}
	var order []Field
	JoinGrades(sorted, nil, func(f Field, _, _ Grade) { order = append(order, f) })
	if !slices.IsSortedFunc(order, CompareFields) {
		t.Fatalf("join order is not canonical: %v", order)
	}
}
