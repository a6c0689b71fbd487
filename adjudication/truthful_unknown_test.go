package adjudication_test

import (
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"verdict/adjudication"
	"verdict/blinding"
	"verdict/campaign"
	"verdict/fixtures"
	"verdict/internal/synth"
	"verdict/verr"
)

// systemBundle is the first bundle of the SYNTHETIC system comparison.
func systemBundle(t testing.TB) *blinding.Bundle {
	t.Helper()
	fsys, err := fixtures.GenerateSystemComparison(fixtures.SystemOptions{})
	if err != nil {
		t.Fatal(err)
	}
	c, err := campaign.LoadSystemComparison(fsys)
	if err != nil {
		t.Fatal(err)
	}
	res, err := blinding.BuildSource(blinding.SystemSource(c), blinding.Options{Key: synth.Key, Raters: []string{"ann", "bob"}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Bundles[0].Design != campaign.DesignSystemComparison {
		t.Fatalf("a system comparison's bundle has design %q", res.Bundles[0].Design)
	}
	return res.Bundles[0]
}

// firstField returns the first required field of kind k in b.
func firstField(t testing.TB, b *blinding.Bundle, k adjudication.Kind) adjudication.Field {
	t.Helper()
	for _, f := range adjudication.BundleFields(b) {
		if f.Kind == k {
			return f
		}
	}
	t.Fatalf("no %s field", k)
	return adjudication.Field{}
}

func isOutsideUSet(err error) bool {
	var e *verr.Error
	return errors.As(err, &e) && e.Reason == adjudication.ReasonTruthfulUnknownOutsideObligations
}

// A fixed-evidence bundle's values and codebook are those of every kind's
// vocabulary, unchanged; a system comparison's obligation and uncertainty
// fields (its repository-answerable obligations and its U set) add
// truthful_unknown last, each with a definition.
func TestFieldValuesByDesign(t *testing.T) {
	for _, k := range adjudication.Kinds {
		if got := adjudication.FieldValues(campaign.DesignFixedEvidence, k); !slices.Equal(got, adjudication.AllowedValues(k)) {
			t.Errorf("fixed %s: %v", k, got)
		}
		want := adjudication.AllowedValues(k)
		if k == adjudication.KindUncertainty || k == adjudication.KindObligation {
			want = append(want, adjudication.ValueTruthfulUnknown)
		}
		if got := adjudication.FieldValues(campaign.DesignSystemComparison, k); !slices.Equal(got, want) {
			t.Errorf("system %s: %v, want %v", k, got, want)
		}
	}
	for _, k := range []adjudication.Kind{adjudication.KindUncertainty, adjudication.KindObligation} {
		if short, full := adjudication.Definition(k, adjudication.ValueTruthfulUnknown); short == "" || !strings.Contains(full, "CONTRACT §6") {
			t.Errorf("%s definition %q / %q", k, short, full)
		}
	}
	fixed, sys := strings.Join(adjudication.CodebookText(), "\n"), strings.Join(adjudication.CodebookTextFor(campaign.DesignSystemComparison), "\n")
	if strings.Contains(fixed, "truthful unknown") || !strings.Contains(sys, "4 truthful unknown  says truthfully") || !strings.Contains(sys, "3 truthful unknown  says truthfully") {
		t.Errorf("fixed codebook names truthful unknown: %t; system codebook lacks it: %t", strings.Contains(fixed, "truthful unknown"), !strings.Contains(sys, "truthful unknown"))
	}
}

// CheckGrade and the journal accept truthful_unknown on a system
// comparison's obligations only (its U-set and repository-answerable
// fields): a claim field and every field of a fixed-evidence bundle
// refuse it with truthful-unknown-outside-obligations, and nothing is
// written.
func TestCheckGradeTruthfulUnknown(t *testing.T) {
	sys := systemBundle(t)
	u := firstField(t, sys, adjudication.KindUncertainty)
	tu := func(f adjudication.Field) adjudication.Grade {
		return adjudication.Grade{Field: f, Value: adjudication.ValueTruthfulUnknown}
	}
	ob := firstField(t, sys, adjudication.KindObligation)
	for _, f := range []adjudication.Field{u, ob} {
		if err := adjudication.CheckGrade(sys, tu(f)); err != nil {
			t.Errorf("%s field: %v", f.Kind, err)
		}
	}
	for _, k := range []adjudication.Kind{adjudication.KindClaim, adjudication.KindCompleteness} {
		if err := adjudication.CheckGrade(sys, tu(firstField(t, sys, k))); !isOutsideUSet(err) {
			t.Errorf("system %s field: %v", k, err)
		}
	}
	fixed := testBundles(t).Bundles[0]
	fu := firstField(t, fixed, adjudication.KindUncertainty)
	if err := adjudication.CheckGrade(fixed, tu(fu)); !isOutsideUSet(err) {
		t.Errorf("fixed-evidence uncertainty field: %v", err)
	}

	dir := t.TempDir()
	j, err := adjudication.Open(filepath.Join(dir, "sys.jsonl"), sys, adjudication.WithClock(fixedClock()))
	if err != nil {
		t.Fatal(err)
	}
	if err := j.Append(tu(u)); err != nil {
		t.Errorf("journal on a system bundle: %v", err)
	}
	if err := j.Append(tu(ob)); err != nil {
		t.Errorf("journal, repository-answerable obligation: %v", err)
	}
	if err := j.Append(tu(firstField(t, sys, adjudication.KindClaim))); !isOutsideUSet(err) {
		t.Errorf("journal, claim: %v", err)
	}
	if g := j.State().Grades; len(g) != 2 {
		t.Errorf("journal holds %d grades, want the two obligations' only", len(g))
	}
	j.Close()
	jf, err := adjudication.Open(filepath.Join(dir, "fixed.jsonl"), fixed, adjudication.WithClock(fixedClock()))
	if err != nil {
		t.Fatal(err)
	}
	defer jf.Close()
	if err := jf.Append(tu(fu)); !isOutsideUSet(err) {
		t.Errorf("journal on a fixed-evidence bundle: %v", err)
	}
}

// The vocabulary check (sheets, consensus) knows truthful_unknown as an
// obligation and uncertainty value only; a sheet checked against a
// fixed-evidence bundle refuses it on an uncertainty field.
func TestSheetTruthfulUnknown(t *testing.T) {
	f := adjudication.Field{Item: "item-1", Kind: adjudication.KindUncertainty, Target: "O3"}
	if err := adjudication.CheckGradeValue(f, adjudication.ValueTruthfulUnknown); err != nil {
		t.Errorf("uncertainty: %v", err)
	}
	f.Kind = adjudication.KindObligation
	if err := adjudication.CheckGradeValue(f, adjudication.ValueTruthfulUnknown); err != nil {
		t.Errorf("obligation: %v", err)
	}
	f.Kind = adjudication.KindClaim
	if err := adjudication.CheckGradeValue(f, adjudication.ValueTruthfulUnknown); !isOutsideUSet(err) {
		t.Errorf("claim: %v", err)
	}
	fixed := testBundles(t).Bundles[0]
	fu := firstField(t, fixed, adjudication.KindUncertainty)
	sh := &adjudication.Sheet{Grades: []adjudication.Grade{{Field: fu, Value: adjudication.ValueTruthfulUnknown}}}
	err := adjudication.CheckSheetFields("sheet-ann.json", sh, adjudication.NewFieldSet(fixed))
	var e *verr.Error
	if !isOutsideUSet(err) || !errors.As(err, &e) || e.File != "sheet-ann.json" || e.Pointer != "/grades/0" {
		t.Errorf("fixed sheet: %v", err)
	}
	sys := systemBundle(t)
	sh = &adjudication.Sheet{Grades: []adjudication.Grade{{Field: firstField(t, sys, adjudication.KindUncertainty), Value: adjudication.ValueTruthfulUnknown}}}
	if err := adjudication.CheckSheetFields("sheet-ann.json", sh, adjudication.NewFieldSet(sys)); isOutsideUSet(err) || !errors.Is(err, adjudication.ReasonSheetIncomplete) {
		t.Errorf("system sheet: %v, want only incomplete", err)
	}
}

// An adjudicator settles an obligation or uncertainty field on
// truthful_unknown only where a rater chose it (that rater's sheet passed its bundle's check):
// chosen by neither, it is refused even with a note.
func TestCheckResolutionTruthfulUnknown(t *testing.T) {
	f := adjudication.Field{Item: "item-1", Kind: adjudication.KindUncertainty, Target: "O3"}
	d := adjudication.Disagreement{Field: f, Values: [2]string{adjudication.ValueCredited, adjudication.ValueTruthfulUnknown}}
	if err := adjudication.CheckResolution(d, adjudication.ValueTruthfulUnknown, ""); err != nil {
		t.Errorf("a rater's value: %v", err)
	}
	if err := adjudication.CheckResolution(d, adjudication.ValueCredited, ""); err != nil {
		t.Errorf("the other rater's value: %v", err)
	}
	d.Values = [2]string{adjudication.ValueCredited, adjudication.ValueNotCredited}
	if err := adjudication.CheckResolution(d, adjudication.ValueTruthfulUnknown, "the repository cannot settle it"); !isOutsideUSet(err) {
		t.Errorf("chosen by neither rater: %v", err)
	}
	d = adjudication.Disagreement{Field: adjudication.Field{Item: "item-1", Kind: adjudication.KindObligation, Target: "O1"},
		Values: [2]string{adjudication.ValueAddressed, adjudication.ValueNotAddressed}}
	if err := adjudication.CheckResolution(d, adjudication.ValueTruthfulUnknown, "note"); !isOutsideUSet(err) {
		t.Errorf("obligation chosen by neither rater: %v", err)
	}
	d.Values[1] = adjudication.ValueTruthfulUnknown
	if err := adjudication.CheckResolution(d, adjudication.ValueTruthfulUnknown, ""); err != nil {
		t.Errorf("obligation, a rater's value: %v", err)
	}
}
