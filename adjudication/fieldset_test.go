package adjudication_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"verdict/adjudication"
	"verdict/blinding"
	"verdict/verr"
)

// referenceSheetFields is CheckSheetFields stated plainly, with one set
// entry per field (the form FieldSet had before it was made compact): the
// compact FieldSet must refuse exactly as it does.
func referenceSheetFields(file string, s *adjudication.Sheet, b *blinding.Bundle) error {
	items, required, obligations := map[string]bool{}, map[adjudication.Field]bool{}, map[[2]string]bool{}
	for i := range b.Items {
		it := &b.Items[i]
		items[it.ID] = true
		for _, f := range adjudication.RequiredFields(it) {
			required[f] = true
		}
		for _, o := range it.Obligations {
			obligations[[2]string{it.ID, o.ID}] = true
		}
	}
	graded := 0
	for i, g := range s.Grades {
		ptr := fmt.Sprintf("/grades/%d", i)
		switch {
		case !items[g.Item]:
			return verr.Newf(adjudication.ReasonUnknownItem, file, ptr, "CONTRACT §4 semantic grades (GRADES vocabulary)", "%s: item %q is not in the sheet's bundle", g.Field, g.Item)
		case g.Kind == adjudication.KindOracleDefect:
			if !obligations[[2]string{g.Item, g.Target}] {
				return verr.Newf(adjudication.ReasonUnknownField, file, ptr, "EVALUATOR-CONTROLS C22", "%s: the item has no truth obligation %q", g.Field, g.Target)
			}
		case !required[g.Field]:
			return verr.Newf(adjudication.ReasonUnknownField, file, ptr, "CONTRACT §4 semantic grades (GRADES vocabulary)", "%s is not a field of this item in the sheet's bundle", g.Field)
		default:
			graded++
		}
	}
	if missing := len(required) - graded; missing > 0 {
		have := map[adjudication.Field]bool{}
		for _, g := range s.Grades {
			have[g.Field] = true
		}
		var first adjudication.Field
		found := false
		for f := range required {
			if !have[f] && (!found || adjudication.CompareFields(f, first) < 0) {
				first, found = f, true
			}
		}
		return verr.Newf(adjudication.ReasonSheetIncomplete, file, "/grades", "DESIGN Roles: a rater grades every final answer, then freezes and signs",
			"%d required field(s) of bundle %s have no grade, first %s; a frozen sheet grades every field of its bundle", missing, s.BundleDigest, first)
	}
	return nil
}

// TestFieldSetRefusesAsReference: on the synthetic bundle, complete
// sheets and sheets with fields left out, grades for unknown items and
// fields, and oracle-defect flags on present and absent obligations (all
// in canonical order, as ParseSheet admits them), CheckSheetFields gives
// byte for byte the refusal (reason, file, pointer, rule, detail) of the
// plain one-entry-per-field check, or accepts exactly when it does.
func TestFieldSetRefusesAsReference(t *testing.T) {
	b := testBundles(t).Bundles[0]
	fs := adjudication.NewFieldSet(b)
	all := adjudication.BundleFields(b)
	slices.SortFunc(all, adjudication.CompareFields)
	rng := rand.New(rand.NewPCG(7, 41))
	seen := map[verr.Reason]int{}
	for n := range 400 {
		var gs []adjudication.Grade
		for _, f := range all {
			if n == 0 || rng.IntN(200) != 0 {
				gs = append(gs, adjudication.Grade{Field: f, Value: adjudication.AllowedValues(f.Kind)[0]})
			}
		}
		switch n % 5 {
		case 1:
			g := gs[rng.IntN(len(gs))]
			g.Item = fmt.Sprintf("item-%016x", rng.Uint64())
			gs = append(gs, g)
		case 2:
			g := gs[rng.IntN(len(gs))]
			g.Target = "Z" + fmt.Sprint(rng.IntN(9))
			gs = append(gs, g)
		case 3:
			g := gs[rng.IntN(len(gs))]
			g.Kind, g.Value, g.Note = adjudication.KindOracleDefect, adjudication.ValueDefective, "SYNTHETIC note"
			if rng.IntN(2) == 0 {
				g.Target = "O99"
			}
			gs = append(gs, g)
		}
		slices.SortStableFunc(gs, func(a, b adjudication.Grade) int { return adjudication.CompareFields(a.Field, b.Field) })
		s := &adjudication.Sheet{BundleDigest: "SYNTHETIC-digest", Grades: gs}
		got, want := adjudication.CheckSheetFields("sheet.json", s, fs), referenceSheetFields("sheet.json", s, b)
		if fmt.Sprintf("%#v", got) != fmt.Sprintf("%#v", want) {
			t.Fatalf("case %d: got %#v\nwant %#v", n, got, want)
		}
		if e, ok := got.(*verr.Error); ok {
			seen[e.Reason]++
		}
		if n == 0 && got != nil {
			t.Fatalf("the complete sheet is refused: %v", got)
		}
	}
	for _, r := range []verr.Reason{adjudication.ReasonUnknownItem, adjudication.ReasonUnknownField, adjudication.ReasonSheetIncomplete} {
		if seen[r] == 0 {
			t.Errorf("no case refused %s (refusals seen: %v)", r, seen)
		}
	}
	t.Logf("refusals: %v", seen)
}
