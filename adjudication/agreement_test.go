package adjudication

import (
	"math"
	"testing"
)

func near(t *testing.T, name string, s Statistic, want float64, tol float64, n int) {
	t.Helper()
	if !s.Defined || s.Reason != "" {
		t.Fatalf("%s undefined: %+v", name, s)
	}
	if math.Abs(s.Value-want) > tol {
		t.Errorf("%s = %.6f, want %.6f (±%g)", name, s.Value, want, tol)
	}
	if s.N != n {
		t.Errorf("%s N = %d, want %d", name, s.N, n)
	}
}

func undefined(t *testing.T, name string, s Statistic, reason string) {
	t.Helper()
	if s.Defined || s.Reason != reason || s.Value != 0 || math.IsNaN(s.Value) {
		t.Errorf("%s = %+v, want undefined with reason %q", name, s, reason)
	}
}

// Published value: Cohen's kappa = 0.40 for 50 items graded 20 yes/yes,
// 5 yes/no, 10 no/yes and 15 no/no (p_o = 0.70, p_e = 0.50).
func TestCohensKappaPublishedExample(t *testing.T) {
	var a, b []string
	add := func(x, y string, k int) {
		for range k {
			a = append(a, x)
			b = append(b, y)
		}
	}
	add("yes", "yes", 20)
	add("yes", "no", 5)
	add("no", "yes", 10)
	add("no", "no", 15)
	near(t, "kappa", CohensKappa(a, b), 0.40, 1e-12, 50)
	near(t, "percent", PercentAgreement(a, b), 0.70, 1e-12, 50)
}

// Published value: Krippendorff (2011), "Computing Krippendorff's
// Alpha-Reliability", example C: 4 coders, 12 units, missing values;
// nominal alpha = 0.743 over n = 40 pairable values. Rows are units,
// columns coders A–D; "" is a missing value. The unit with a single value
// (unit 12) is not pairable.
func TestKrippendorffAlphaPublishedExampleC(t *testing.T) {
	units := [][]string{
		{"1", "1", "", "1"},
		{"2", "2", "3", "2"},
		{"3", "3", "3", "3"},
		{"3", "3", "3", "3"},
		{"2", "2", "2", "2"},
		{"1", "2", "3", "4"},
		{"4", "4", "4", "4"},
		{"1", "1", "2", "1"},
		{"2", "2", "2", "2"},
		{"", "5", "5", "5"},
		{"", "", "1", "1"},
		{"", "3", "", ""},
	}
	near(t, "alpha", KrippendorffAlphaNominal(units), 0.743, 0.0005, 40)
}

// Hand-checked: pairs (yes,yes), (no,yes), (yes,yes); the item missing on
// one side and the item missing on the other are dropped: 2/3 over n = 3.
func TestPercentAgreementHandChecked(t *testing.T) {
	a := []string{"yes", "no", "yes", "", "yes"}
	b := []string{"yes", "yes", "yes", "no", ""}
	near(t, "percent", PercentAgreement(a, b), 2.0/3.0, 1e-12, 3)
}

// Hand-checked two-coder example: units (a,a), (b,b), (a,b).
// Kappa: agree 2 of 3; rater 1 a:2 b:1, rater 2 a:1 b:2;
// (3·2 − (2·1 + 1·2)) / (9 − 4) = 2/5.
// Alpha: o_aa = o_bb = 2, o_ab = o_ba = 1, n_a = n_b = 3, n = 6;
// 1 − 5·2 / (3·3 + 3·3) = 4/9.
func TestSmallHandChecked(t *testing.T) {
	a := []string{"a", "b", "a"}
	b := []string{"a", "b", "b"}
	near(t, "kappa", CohensKappa(a, b), 0.4, 1e-12, 3)
	near(t, "alpha", KrippendorffAlphaNominal([][]string{{"a", "a"}, {"b", "b"}, {"a", "b"}}), 4.0/9.0, 1e-12, 6)
}

func TestPerfectAgreement(t *testing.T) {
	a := []string{"x", "y", "z", "x"}
	near(t, "kappa", CohensKappa(a, a), 1, 0, 4)
	near(t, "alpha", KrippendorffAlphaNominal([][]string{{"x", "x"}, {"y", "y", ""}, {"z", "z", "z"}}), 1, 0, 7)
}

func TestDegenerateCasesAreUndefined(t *testing.T) {
	same := []string{"yes", "yes", "yes"}
	undefined(t, "kappa no variation", CohensKappa(same, same), ReasonNoVariation)
	undefined(t, "alpha no variation", KrippendorffAlphaNominal([][]string{{"yes", "yes"}, {"yes", "yes", "yes"}}), ReasonNoVariation)
	// Percent agreement has no chance correction: total agreement is 1.
	near(t, "percent no variation", PercentAgreement(same, same), 1, 0, 3)

	one := []string{"yes", ""}
	other := []string{"no", "no"}
	undefined(t, "percent one pair", PercentAgreement(one, other), ReasonTooFewPairs)
	undefined(t, "kappa one pair", CohensKappa(one, other), ReasonTooFewPairs)
	undefined(t, "percent no pairs", PercentAgreement(nil, nil), ReasonTooFewPairs)
	undefined(t, "kappa unequal", CohensKappa([]string{"a", "b"}, []string{"a"}), ReasonUnequalLengths)
	undefined(t, "percent unequal", PercentAgreement([]string{"a", "b"}, []string{"a"}), ReasonUnequalLengths)

	undefined(t, "alpha no units", KrippendorffAlphaNominal(nil), ReasonTooFewPairable)
	undefined(t, "alpha single values", KrippendorffAlphaNominal([][]string{{"a", ""}, {"", "b"}, {"c"}}), ReasonTooFewPairable)
}

// Disagreement worse than chance gives a negative, defined statistic.
func TestSystematicDisagreementIsNegative(t *testing.T) {
	a := []string{"a", "b", "a", "b"}
	b := []string{"b", "a", "b", "a"}
	k := CohensKappa(a, b)
	near(t, "kappa", k, -1, 1e-12, 4)
	al := KrippendorffAlphaNominal([][]string{{"a", "b"}, {"b", "a"}, {"a", "b"}, {"b", "a"}})
	if !al.Defined || al.Value >= 0 {
		t.Fatalf("alpha = %+v, want negative", al)
	}
}
