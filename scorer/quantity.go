package scorer

import (
	"errors"
	"math/big"
	"slices"
	"strconv"
	"strings"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"verdict/verr"
)

// UnitSpec says how a value of one unit is written. Every exact quantity
// is counted in whole base units (pico-USD, tokens, nanoseconds); a task
// median over an even number of repetitions may be half a base unit.
type UnitSpec struct {
	// Base names the value in base units as a JSON member and an export
	// column suffix ("pico_usd"). "" writes the known value as a bare JSON
	// integer and as the export column itself (tokens, nanoseconds).
	Base string
	// Text names the rendered value as a JSON member and an export column
	// suffix ("usd"); used only with Base. An unknown value writes
	// "unknown" in it.
	Text string
	// Scale is the number of base units in one rendered unit: 10^12
	// pico-USD per US dollar, 10^9 nanoseconds per second, 1 token.
	Scale int64
	// MinFrac is the least number of fraction digits rendered; no other
	// trailing zero is written ("30.00", "0.0407952", "12.5s").
	MinFrac int
	// Group writes comma thousands separators ("3,000,000").
	Group bool
	// Suffix follows the rendered number ("s").
	Suffix string
}

// Unit is the type parameter of Exact: a zero-size type whose Spec says
// how values of that unit are written. The units are PicoUSD, Token and
// Nanosecond.
type Unit interface {
	Spec() UnitSpec
}

// SpecOf returns the UnitSpec of U.
func SpecOf[U Unit]() UnitSpec {
	var u U
	return u.Spec()
}

// PicoUSD is the unit of Money: 10^-12 US dollar, so that a price-card
// rate (micro-USD per million tokens) times a token count is a whole
// number of units (CONTRACT §5). Rendered as exact USD with at least two
// decimals; JSON {"known":true,"pico_usd":N,"usd":"0.0407952"}.
type PicoUSD struct{}

// Spec returns pico_usd and usd members, 10^12 per USD, at least two
// decimals.
func (PicoUSD) Spec() UnitSpec {
	return UnitSpec{Base: "pico_usd", Text: "usd", Scale: PicoPerUSD, MinFrac: 2}
}

// Token is the unit of Tokens: one metered token (CONTRACT §5). Rendered
// with comma grouping; JSON a bare integer.
type Token struct{}

// Spec returns a bare integer rendered with thousands separators.
func (Token) Spec() UnitSpec { return UnitSpec{Scale: 1, Group: true} }

// Nanosecond is the unit of Nanos: one nanosecond of a monotonic reading
// (CONTRACT §5 time from monotonic clocks). Rendered as exact seconds
// ("12.5s"); JSON a bare integer of nanoseconds.
type Nanosecond struct{}

// Spec returns a bare integer of nanoseconds rendered in seconds with an
// "s".
func (Nanosecond) Spec() UnitSpec { return UnitSpec{Scale: 1_000_000_000, Suffix: "s"} }

// Exact is an exact amount of unit U or an explicit unknown: the one
// exact-quantity type of the scorer (CONTRACT §4–§5 "unknown, never
// zero"). An unknown amount renders as "unknown", any sum containing it is
// unknown with the first reason, and it fails every gate and ceiling that
// reads it. The zero value is unknown with no reason; make values with Of
// and Unknown.
type Exact[U Unit] struct {
	// Known is false when the amount was not measured.
	Known bool
	// Why is the reason code of an unknown amount ("" when Known).
	Why verr.Reason
	// num/den is the amount in base units in lowest terms; den is 0 for a
	// whole number (so that equal amounts compare equal with ==).
	num, den int64
}

// Money is an exact amount in pico-USD (10^-12 USD) or an explicit
// unknown (CONTRACT §5 reference pricing and actual charges).
type Money = Exact[PicoUSD]

// Tokens is an exact token count or an explicit unknown (CONTRACT §5
// metering).
type Tokens = Exact[Token]

// Nanos is an exact duration in nanoseconds from monotonic readings, or an
// explicit unknown (CONTRACT §5).
type Nanos = Exact[Nanosecond]

// Of returns a known amount of v base units of U.
func Of[U Unit](v int64) Exact[U] { return Exact[U]{Known: true, num: v} }

// Unknown returns an unknown amount of U with its reason.
func Unknown[U Unit](why verr.Reason) Exact[U] { return Exact[U]{Why: why} }

// MicroUSD returns a known amount of n micro-USD (10^-6 USD; receipt
// charges).
func MicroUSD(n int64) Money { return Of[PicoUSD](n * PicoPerMicroUSD) }

// exactFrac returns a known num/den base units in lowest terms (den > 0).
func exactFrac[U Unit](num, den int64) Exact[U] {
	if g := gcd(num, den); g > 1 {
		num, den = num/g, den/g
	}
	if den == 1 {
		den = 0
	}
	return Exact[U]{Known: true, num: num, den: den}
}

func gcd(a, b int64) int64 {
	if a < 0 {
		a = -a
	}
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// denom is the denominator of the amount (1 for a whole number).
func (e Exact[U]) denom() int64 { return max(e.den, 1) }

// Add returns e+o; unknown when either is unknown (the first reason wins).
func (e Exact[U]) Add(o Exact[U]) Exact[U] {
	if !e.Known {
		return e
	}
	if !o.Known {
		return o
	}
	if e.den == 0 && o.den == 0 {
		return Of[U](e.num + o.num)
	}
	return exactFrac[U](e.num*o.denom()+o.num*e.denom(), e.denom()*o.denom())
}

// Int returns the amount in whole base units, and false when it is unknown
// or not a whole number of base units.
func (e Exact[U]) Int() (int64, bool) { return e.num, e.Known && e.den == 0 }

// Or returns the amount in whole base units, or fallback when it is
// unknown (or not a whole number of base units): a ceiling holds the worst
// case for what was not measured (CONTRACT §5).
func (e Exact[U]) Or(fallback int64) int64 {
	if v, ok := e.Int(); ok {
		return v
	}
	return fallback
}

// Rat returns the amount in base units as a new *big.Rat (0 when unknown).
func (e Exact[U]) Rat() *big.Rat { return big.NewRat(e.num, e.denom()) }

// Cmp compares two known amounts exactly: -1, 0 or +1.
func (e Exact[U]) Cmp(o Exact[U]) int {
	if e.den == 0 && o.den == 0 {
		return cmpInt(e.num, o.num)
	}
	return e.Rat().Cmp(o.Rat())
}

func cmpInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// String renders the exact amount in U's rendered unit ("0.0407952",
// "30.00", "3,000,000", "12.5s"), or "unknown".
func (e Exact[U]) String() string {
	if !e.Known {
		return "unknown"
	}
	s := SpecOf[U]()
	var t string
	if digits, ok := powerOfTen(s.Scale); ok && e.den == 0 {
		t = wholeDecimal(e.num, digits, s.MinFrac)
	} else {
		den := new(big.Int).Mul(big.NewInt(e.denom()), big.NewInt(s.Scale))
		t = exactDecimal(new(big.Rat).SetFrac(big.NewInt(e.num), den), s.MinFrac)
	}
	if s.Group {
		t = groupDecimal(t)
	}
	return t + s.Suffix
}

// Columns names the flat parts of a quantity called x (export columns):
// x_<Base> and x_<Text> for a unit with a Base name, else x itself.
func (s UnitSpec) Columns(x string) []string {
	if s.Base == "" {
		return []string{x}
	}
	return []string{x + "_" + s.Base, x + "_" + s.Text}
}

// Parts returns the values of the columns Columns names for a known whole
// amount: the integer in base units, then the rendered text when the unit
// has a Base name.
func (e Exact[U]) Parts() []string {
	v := strconv.FormatInt(e.num, 10)
	if SpecOf[U]().Base == "" {
		return []string{v}
	}
	return []string{v, e.String()}
}

// errNotWhole refuses to write a fractional amount in a whole-unit form.
var errNotWhole = errors.New("scorer: an amount that is not a whole number of base units is written as Fractional")

// MarshalJSONTo writes a known amount in U's form: a bare integer, or
// {"known":true,"<base>":N,"<text>":"…"}; an unknown one as
// {"known":false,"why":…} ({"known":false,"<text>":"unknown","why":…}
// when U has a Base name). An amount that is not whole is an error: it
// belongs in a Fractional.
func (e Exact[U]) MarshalJSONTo(enc *jsontext.Encoder) error {
	s := SpecOf[U]()
	switch {
	case !e.Known && s.Base == "":
		return writeUnknown(enc, e.Why)
	case !e.Known:
		return writeTokens(enc, jsontext.BeginObject, jsontext.String("known"), jsontext.False,
			jsontext.String(s.Text), jsontext.String("unknown"), jsontext.String("why"), jsontext.String(string(e.Why)), jsontext.EndObject)
	case e.den != 0:
		return errNotWhole
	case s.Base == "":
		return enc.WriteToken(jsontext.Int(e.num))
	}
	return writeTokens(enc, jsontext.BeginObject, jsontext.String("known"), jsontext.True,
		jsontext.String(s.Base), jsontext.Int(e.num), jsontext.String(s.Text), jsontext.String(e.String()), jsontext.EndObject)
}

// MarshalJSON is MarshalJSONTo's value, compact.
func (e Exact[U]) MarshalJSON() ([]byte, error) { return jsonv2.Marshal(e) }

// writeTokens writes toks to enc in order and returns the first error.
func writeTokens(enc *jsontext.Encoder, toks ...jsontext.Token) error {
	for _, t := range toks {
		if err := enc.WriteToken(t); err != nil {
			return err
		}
	}
	return nil
}

// Fractional is an Exact amount that may be a fraction of its base unit:
// a task median over an even number of repetitions and the sums of such
// medians (CONTRACT §4). It differs from Exact only in its JSON form, an
// exact fraction of base units:
// {"known":true,"exact":"num/den","decimal":"…"} or {"known":false,"why":…}.
type Fractional[U Unit] struct{ Exact[U] }

// MarshalJSONTo writes the exact fraction and its exact decimal in base
// units.
func (f Fractional[U]) MarshalJSONTo(enc *jsontext.Encoder) error {
	if !f.Known {
		return writeUnknown(enc, f.Why)
	}
	r := f.Rat()
	return writeExact(enc, r.RatString(), exactDecimal(r, 0))
}

// MarshalJSON is MarshalJSONTo's value, compact.
func (f Fractional[U]) MarshalJSON() ([]byte, error) { return jsonv2.Marshal(f) }

// writeUnknown writes {"known":false,"why":why}, the form of an unknown
// fraction or ratio.
func writeUnknown(enc *jsontext.Encoder, why verr.Reason) error {
	return writeTokens(enc, jsontext.BeginObject, jsontext.String("known"), jsontext.False,
		jsontext.String("why"), jsontext.String(string(why)), jsontext.EndObject)
}

// writeExact writes {"known":true,"exact":exact,"decimal":decimal}, the
// form of a known fraction or ratio.
func writeExact(enc *jsontext.Encoder, exact, decimal string) error {
	return writeTokens(enc, jsontext.BeginObject, jsontext.String("known"), jsontext.True,
		jsontext.String("exact"), jsontext.String(exact), jsontext.String("decimal"), jsontext.String(decimal), jsontext.EndObject)
}

// Median returns the exact median of qs: the middle amount for an odd
// count, the mean of the two middle amounts for an even count (CONTRACT §4
// task median over repetitions). It is unknown with the first unknown's
// reason when any amount is unknown, and unknown with ReasonRatioUndefined
// when qs is empty.
func Median[U Unit](qs []Exact[U]) Exact[U] {
	if len(qs) == 0 {
		return Unknown[U](ReasonRatioUndefined)
	}
	for _, q := range qs {
		if !q.Known {
			return q
		}
	}
	s := slices.Clone(qs)
	slices.SortFunc(s, Exact[U].Cmp)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	sum := s[n/2-1].Add(s[n/2])
	return exactFrac[U](sum.num, 2*sum.denom())
}

// Max returns the largest amount of qs, unknown as Median is.
func Max[U Unit](qs []Exact[U]) Exact[U] {
	if len(qs) == 0 {
		return Unknown[U](ReasonRatioUndefined)
	}
	m := qs[0]
	for _, q := range qs {
		if !q.Known {
			return q
		}
		if q.Cmp(m) > 0 {
			m = q
		}
	}
	return m
}

// exactDecimal renders r exactly as a decimal when its denominator divides
// a power of ten (always true for pico-USD and nanoseconds, and for their
// halves), keeping at least minFrac fraction digits and no other trailing
// zeros. Other rationals (never produced here) fall back to 12 rounded
// digits.
func exactDecimal(r *big.Rat, minFrac int) string {
	num := new(big.Int).Set(r.Num())
	den := r.Denom()
	neg := num.Sign() < 0
	num.Abs(num)
	frac := 0
	ten := big.NewInt(10)
	for {
		if new(big.Int).Mod(num, den).Sign() == 0 {
			break
		}
		if frac == 24 {
			return new(big.Rat).SetFrac(r.Num(), den).FloatString(12)
		}
		num.Mul(num, ten)
		frac++
	}
	q := new(big.Int).Quo(num, den).String()
	for frac < minFrac {
		q += "0"
		frac++
	}
	for len(q) <= frac {
		q = "0" + q
	}
	s := q
	if frac > 0 {
		s = q[:len(q)-frac] + "." + q[len(q)-frac:]
	}
	if neg {
		s = "-" + s
	}
	return s
}

// powerOfTen reports whether scale is 10^digits (digits ≥ 0).
func powerOfTen(scale int64) (digits int, ok bool) {
	for ; scale > 1 && scale%10 == 0; scale /= 10 {
		digits++
	}
	return digits, scale == 1
}

// wholeDecimal is exactDecimal of num / 10^digits, a whole number of base
// units in a unit of 10^digits of them, in integer arithmetic: the
// fraction digits needed to be exact and no fewer than minFrac.
func wholeDecimal(num int64, digits, minFrac int) string {
	u := uint64(num)
	if num < 0 {
		u = -u // the magnitude, also of math.MinInt64
	}
	d := strconv.FormatUint(u, 10)
	if len(d) <= digits {
		d = strings.Repeat("0", digits+1-len(d)) + d
	}
	whole, frac := d[:len(d)-digits], strings.TrimRight(d[len(d)-digits:], "0")
	if len(frac) < minFrac {
		frac += strings.Repeat("0", minFrac-len(frac))
	}
	if frac != "" {
		whole += "." + frac
	}
	if num < 0 {
		whole = "-" + whole
	}
	return whole
}

// groupDigits renders n with comma thousands separators ("3,000,000").
func groupDigits(n int64) string { return groupDecimal(strconv.FormatInt(n, 10)) }

// groupDecimal puts comma thousands separators into the integer part of a
// decimal number ("-1234.5" → "-1,234.5").
func groupDecimal(s string) string {
	sign, rest := "", s
	if strings.HasPrefix(rest, "-") {
		sign, rest = "-", rest[1:]
	}
	whole, frac, hasFrac := strings.Cut(rest, ".")
	var b strings.Builder
	b.WriteString(sign)
	for i, c := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if hasFrac {
		b.WriteString("." + frac)
	}
	return b.String()
}
