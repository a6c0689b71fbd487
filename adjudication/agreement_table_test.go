package adjudication

import (
	"math/rand/v2"
	"testing"
)

// TestPairTableMatchesStatistics checks that the pair-table statistics are
// exactly those of the list functions, on random grades with missing
// values, one-category runs and tiny sets.
func TestPairTableMatchesStatistics(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	cats := []string{"", "addressed", "not_addressed", "wrong", "supported"}
	for trial := range 400 {
		n := r.IntN(40)
		k := 1 + r.IntN(len(cats)-1)
		var a, b []string
		var units [][]string
		tab := PairTable{}
		for range n {
			x, y := cats[r.IntN(k+1)], cats[r.IntN(k+1)]
			if trial%5 == 0 {
				y = x // perfect agreement and no-variation cases
			}
			a, b = append(a, x), append(b, y)
			units = append(units, []string{x, y})
			tab.Add(x, y)
		}
		p, kp, al := tab.Statistics()
		if want := PercentAgreement(a, b); p != want {
			t.Fatalf("trial %d: percent %+v, want %+v", trial, p, want)
		}
		if want := CohensKappa(a, b); kp != want {
			t.Fatalf("trial %d: kappa %+v, want %+v", trial, kp, want)
		}
		if want := KrippendorffAlphaNominal(units); al != want {
			t.Fatalf("trial %d: alpha %+v, want %+v", trial, al, want)
		}
	}
}
