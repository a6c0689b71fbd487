package scorer

import "testing"

// TestFractionKeepsDenominators: counts keep their real denominators in
// every rendering (CONTRACT: counts with denominators); values derived
// from one denominator keep a real common one; mixed denominators reduce.
func TestFractionKeepsDenominators(t *testing.T) {
	cases := []struct {
		name string
		got  Fraction
		want string
	}{
		{"R 5 of 5", Frac(5, 5), "5/5"},
		{"R 4 of 6", Frac(4, 6), "4/6"},
		{"odd median keeps the count", *MedianFraction([]Fraction{Frac(5, 5), Frac(4, 5), Frac(5, 5)}), "5/5"},
		{"even median over 2d", *MedianFraction([]Fraction{Frac(4, 5), Frac(5, 5)}), "9/10"},
		{"even median, mixed dens, reduced", *MedianFraction([]Fraction{Frac(2, 4), Frac(5, 6)}), "2/3"},
		{"mean over n·d", *MeanFraction([]Fraction{Frac(5, 5), Frac(5, 5), Frac(4, 5)}), "14/15"},
		{"mean, mixed dens, reduced", *MeanFraction([]Fraction{Frac(3, 5), Frac(2, 3)}), "19/30"},
		{"difference over d", sub(Frac(5, 5), Frac(4, 5)), "1/5"},
		{"integer minus fraction", sub(Frac(0, 1), Frac(2, 10)), "-2/10"},
		{"fraction minus integer", sub(Frac(8, 10), Frac(1, 1)), "-2/10"},
		{"difference, mixed dens, reduced", sub(Frac(5, 6), Frac(1, 2)), "1/3"},
	}
	for _, c := range cases {
		if s := c.got.String(); s != c.want {
			t.Errorf("%s: %s, want %s", c.name, s, c.want)
		}
	}
	if Frac(5, 5).Cmp(Frac(1, 1)) != 0 || Frac(8, 10).Decimal() != "0.800" {
		t.Error("exact comparison or decimal changed by keeping denominators")
	}
}
