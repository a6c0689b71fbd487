package scorer

import (
	"fmt"
	"math/big"
	"slices"
	"verdict/verr"
)

// ReasonRatioUndefined: a ratio's denominator is not positive (CONTRACT §4
// "Ratios have a positive draft/session denominator").
const ReasonRatioUndefined verr.Reason = "ratio-undefined"

// Exact is an exact non-negative rational quantity in a stated unit
// (pico-USD or nanoseconds), used for task medians over repetitions, which
// may be half-units when the repetition count is even. Unknown values are
// explicit and never zero.
type Exact struct {
	// Known is false when any input of the quantity was unknown.
	Known bool
	// Why is the reason code of an unknown quantity.
	Why verr.Reason
	r   big.Rat
}

// Rat returns a copy of the exact value (0 when unknown).
func (e Exact) Rat() *big.Rat { return new(big.Rat).Set(&e.r) }

// MarshalJSON writes {"known":true,"exact":"num/den","decimal":"..."} or
// {"known":false,"why":...}.
func (e Exact) MarshalJSON() ([]byte, error) {
	if !e.Known {
		return fmt.Appendf(nil, `{"known":false,"why":%q}`, string(e.Why)), nil
	}
	return fmt.Appendf(nil, `{"known":true,"exact":%q,"decimal":%q}`, e.r.RatString(), exactDecimal(&e.r, 0)), nil
}

// MoneyString renders an Exact holding pico-USD as exact USD, or "unknown".
func (e Exact) MoneyString() string {
	if !e.Known {
		return "unknown"
	}
	return exactDecimal(new(big.Rat).Quo(&e.r, new(big.Rat).SetInt64(PicoPerUSD)), 2)
}

// SecondsString renders an Exact holding nanoseconds as exact seconds.
func (e Exact) SecondsString() string {
	if !e.Known {
		return "unknown"
	}
	return exactDecimal(new(big.Rat).Quo(&e.r, new(big.Rat).SetInt64(1_000_000_000)), 0) + "s"
}

// add returns e+o, unknown when either is unknown.
func (e Exact) add(o Exact) Exact {
	if !e.Known {
		return e
	}
	if !o.Known {
		return o
	}
	out := Exact{Known: true}
	out.r.Add(&e.r, &o.r)
	return out
}

// exactInt returns a known Exact of n.
func exactInt(n int64) Exact {
	e := Exact{Known: true}
	e.r.SetInt64(n)
	return e
}

// Median returns the exact median of known integer values: the middle value
// for an odd count, the mean of the two middle values for an even count
// (CONTRACT §4 task median over repetitions). It is unknown when any value
// is unknown or there are no values.
func Median(values []int64, known []bool, whys []verr.Reason) Exact {
	if len(values) == 0 {
		return Exact{Why: ReasonRatioUndefined}
	}
	for i, k := range known {
		if !k {
			return Exact{Why: whys[i]}
		}
	}
	v := slices.Clone(values)
	slices.Sort(v)
	n := len(v)
	if n%2 == 1 {
		return exactInt(v[n/2])
	}
	e := Exact{Known: true}
	e.r.SetFrac64(v[n/2-1]+v[n/2], 2)
	return e
}

// Ratio is an exact rational B/A, or unknown (an input unknown) or
// undefined (a non-positive denominator). It is compared with its bound
// exactly, so 1.10 passes a ≤ 1.10 bound and anything above fails.
type Ratio struct {
	// Known is true when both sides were known and the denominator positive.
	Known bool
	// Why is the reason code when not Known.
	Why verr.Reason
	r   big.Rat
}

// RatioOf returns num/den exactly.
func RatioOf(num, den Exact) Ratio {
	if !num.Known {
		return Ratio{Why: num.Why}
	}
	if !den.Known {
		return Ratio{Why: den.Why}
	}
	if den.r.Sign() <= 0 {
		return Ratio{Why: ReasonRatioUndefined}
	}
	out := Ratio{Known: true}
	out.r.Quo(&num.r, &den.r)
	return out
}

// Rat returns a copy of the exact ratio (0 when not Known).
func (r Ratio) Rat() *big.Rat { return new(big.Rat).Set(&r.r) }

// AtMost reports whether the ratio is known and ≤ num/den exactly.
func (r Ratio) AtMost(num, den int64) bool {
	return r.Known && r.r.Cmp(big.NewRat(num, den)) <= 0
}

// Increase returns true when the ratio is known and above 1.
func (r Ratio) Increase() bool { return r.Known && r.r.Cmp(big.NewRat(1, 1)) > 0 }

// String renders the ratio with six rounded decimals for reading (the
// comparison itself is exact), or "unknown (reason)".
func (r Ratio) String() string {
	if !r.Known {
		return "unknown (" + string(r.Why) + ")"
	}
	return r.r.FloatString(6)
}

// Label returns "increased <what> by P%" for a ratio above 1.00, with the
// magnitude (ratio − 1) as a percentage rounded to two decimals, or "" when
// the ratio is at most 1 or unknown (CONTRACT §4).
func (r Ratio) Label(what string) string {
	if !r.Increase() {
		return ""
	}
	pct := new(big.Rat).Sub(&r.r, big.NewRat(1, 1))
	pct.Mul(pct, big.NewRat(100, 1))
	return fmt.Sprintf("increased %s by %s%%", what, pct.FloatString(2))
}

// MarshalJSON writes {"known":true,"exact":"num/den","decimal":"1.087300"}
// or {"known":false,"why":...}.
func (r Ratio) MarshalJSON() ([]byte, error) {
	if !r.Known {
		return fmt.Appendf(nil, `{"known":false,"why":%q}`, string(r.Why)), nil
	}
	return fmt.Appendf(nil, `{"known":true,"exact":%q,"decimal":%q}`, r.r.RatString(), r.r.FloatString(6)), nil
}

// moneyExact converts Money to Exact pico-USD.
func moneyExact(m Money) Exact {
	if !m.Known {
		return Exact{Why: m.Why}
	}
	return exactInt(m.PicoUSD)
}

// nanosExact converts Nanos to Exact nanoseconds.
func nanosExact(d Nanos) Exact {
	if !d.Known {
		return Exact{Why: d.Why}
	}
	return exactInt(d.NS)
}
