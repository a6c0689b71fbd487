package adjudication

import (
	"fmt"
	"slices"
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
