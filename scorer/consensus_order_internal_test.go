package scorer

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"verdict/adjudication"
)

// TestIndexGradesIsStableOrder: the field order indexGrades gives a record
// not already in it is the stable sort's: equal fields keep their input
// order (the earliest repeated grade decides a duplicate refusal), for
// grades in adjudication's canonical order (item IDs by bytes, kinds by
// vocabulary) and shuffled, with repeated fields.
func TestIndexGradesIsStableOrder(t *testing.T) {
	var gs []SheetGrade
	for _, item := range []string{"item-10", "item-9", "item-100"} {
		for _, kind := range []adjudication.Kind{adjudication.KindObligation, adjudication.KindClaim, adjudication.KindCitation} {
			for _, target := range []string{"O10", "O2", "C1", "K3"} {
				gs = append(gs, SheetGrade{Field: adjudication.Field{Item: item, Kind: kind, Target: target}})
			}
		}
	}
	gs = append(gs, gs[3], gs[7], gs[3])
	for i := range gs {
		gs[i].Value = fmt.Sprint(i)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range 20 {
		if round > 0 {
			rng.Shuffle(len(gs), func(i, j int) { gs[i], gs[j] = gs[j], gs[i] })
		}
		keys := make([]fieldSortKey, len(gs))
		want := make([]int32, len(gs))
		for i := range gs {
			keys[i], want[i] = keyOf(gs[i].Field), int32(i)
		}
		slices.SortStableFunc(want, func(i, j int32) int { return keys[i].compare(&keys[j]) })
		// indexGrades refuses the repeated fields; its order is read
		// without them being checked.
		got := indexGradesOrder(gs, keys)
		if !slices.Equal(got, want) {
			t.Fatalf("round %d: order %v, stable sort %v", round, got, want)
		}
	}
}
