package adjudication

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
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

// TestCompareFieldsAsDefined: CompareFields equals its definition (item ID,
// then kind by its index in Kinds, then target by the prefix before its
// first digit, the number that follows, and the whole text) written out
// plainly, on every pair of fields drawn from IDs, kinds (known and not)
// and targets with numbers, leading zeros, no digits, non-ASCII, digits in
// the middle and numbers too long for an int.
func TestCompareFieldsAsDefined(t *testing.T) {
	split := func(s string) (string, int) {
		i := strings.IndexFunc(s, func(r rune) bool { return r >= '0' && r <= '9' })
		if i < 0 {
			return s, 0
		}
		n, err := strconv.Atoi(s[i:])
		if err != nil {
			return s, 0
		}
		return s[:i], n
	}
	ref := func(a, b Field) int {
		if c := strings.Compare(a.Item, b.Item); c != 0 {
			return c
		}
		if c := cmp.Compare(slices.Index(Kinds, a.Kind), slices.Index(Kinds, b.Kind)); c != 0 {
			return c
		}
		pa, na := split(a.Target)
		pb, nb := split(b.Target)
		if c := strings.Compare(pa, pb); c != 0 {
			return c
		}
		if c := cmp.Compare(na, nb); c != 0 {
			return c
		}
		return strings.Compare(a.Target, b.Target)
	}
	kinds := append(slices.Clone(Kinds[:3]), "aa-unknown", "zz-unknown")
	targets := []string{"", "O1", "O2", "O10", "O02", "C3", "K128", "é1", "Ö", "O1a", "A1B2", "O99999999999999999999", "O-1", "X"}
	var fs []Field
	for _, item := range []string{"item-1", "item-2"} {
		for _, k := range kinds {
			for _, tg := range targets {
				fs = append(fs, Field{Item: item, Kind: k, Target: tg})
			}
		}
	}
	for _, a := range fs {
		for _, b := range fs {
			if got, want := CompareFields(a, b), ref(a, b); got != want {
				t.Fatalf("CompareFields(%v, %v) = %d, its definition %d", a, b, got, want)
			}
		}
	}
}
