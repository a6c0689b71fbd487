package scorer

import (
	"fmt"
	"math/big"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"verdict/verr"
)

// ReasonRatioUndefined: a ratio's denominator is not positive (CONTRACT §4
// "Ratios have a positive draft/session denominator").
const ReasonRatioUndefined verr.Reason = "ratio-undefined"

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

// RatioOf returns num/den exactly, two amounts of one unit (cost B / cost
// A, time B / time A: CONTRACT §4 ratios); unknown with the first unknown
// side's reason, undefined (ReasonRatioUndefined) when den is not positive.
func RatioOf[U Unit](num, den Exact[U]) Ratio {
	if !num.Known {
		return Ratio{Why: num.Why}
	}
	if !den.Known {
		return Ratio{Why: den.Why}
	}
	d := den.Rat()
	if d.Sign() <= 0 {
		return Ratio{Why: ReasonRatioUndefined}
	}
	out := Ratio{Known: true}
	out.r.Quo(num.Rat(), d)
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

// RatString is the exact ratio in lowest terms ("10873/10000", "1").
func (r Ratio) RatString() string { return r.r.RatString() }

// Decimal is the ratio rounded to six decimals for reading ("1.087300");
// comparisons use the exact value.
func (r Ratio) Decimal() string { return r.r.FloatString(6) }

// String renders the ratio with six rounded decimals for reading (the
// comparison itself is exact), or "unknown (reason)".
func (r Ratio) String() string {
	if !r.Known {
		return "unknown (" + string(r.Why) + ")"
	}
	return r.Decimal()
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

// MarshalJSONTo writes {"known":true,"exact":"num/den","decimal":"1.087300"}
// or {"known":false,"why":...}.
func (r Ratio) MarshalJSONTo(enc *jsontext.Encoder) error {
	if !r.Known {
		return writeUnknown(enc, r.Why)
	}
	return writeExact(enc, r.RatString(), r.Decimal())
}

// MarshalJSON is MarshalJSONTo's value, compact.
func (r Ratio) MarshalJSON() ([]byte, error) { return jsonv2.Marshal(r) }
