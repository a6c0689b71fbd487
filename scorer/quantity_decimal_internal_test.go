package scorer

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// The integer rendering of whole amounts is the exact rational rendering,
// for every unit's scale and fraction digits, at the edges of int64 and
// for random amounts.
func TestWholeDecimalIsExactDecimal(t *testing.T) {
	nums := []int64{0, 1, -1, 5, 9, 10, 99, 100, 1_000_000_000, 1_500_000_000, 50_000_000_000, 407_952_000_000,
		30 * PicoPerUSD, -30 * PicoPerUSD, math.MaxInt64, math.MinInt64, math.MinInt64 + 1}
	rng := rand.New(rand.NewPCG(7, 11))
	for range 20000 {
		n := rng.Int64N(1 << rng.IntN(63))
		if rng.IntN(2) == 0 {
			n = -n
		}
		nums = append(nums, n, n/1000*1000)
	}
	for _, spec := range []UnitSpec{PicoUSD{}.Spec(), Token{}.Spec(), Nanosecond{}.Spec(), {Scale: 100, MinFrac: 5}} {
		digits, ok := powerOfTen(spec.Scale)
		if !ok {
			t.Fatalf("scale %d is not a power of ten", spec.Scale)
		}
		for _, n := range nums {
			want := exactDecimal(new(big.Rat).SetFrac(big.NewInt(n), big.NewInt(spec.Scale)), spec.MinFrac)
			if got := wholeDecimal(n, digits, spec.MinFrac); got != want {
				t.Fatalf("%d at scale %d, %d fraction digits: %q, exact rendering %q", n, spec.Scale, spec.MinFrac, got, want)
			}
		}
	}
	if _, ok := powerOfTen(250); ok {
		t.Fatal("250 taken for a power of ten")
	}
}
