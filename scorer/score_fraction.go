package scorer

import (
	"math/big"
	"slices"
	"strconv"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// Fraction is an exact rational (negative only for differences) used for every score and
// threshold comparison (R, U, medians, macro-averages, gains): no float is
// ever compared with a threshold. Num/Den are kept as given for counts
// (R = 5/6 keeps its denominator 6 so reports show "5 of 6", and R = 5/5
// stays 5/5). Values derived from fractions of one denominator d keep a
// real denominator too: a difference stays over d, the median of two
// middle values is over 2d, the mean of n values is over n·d (eight task
// medians of x/5 average to Σx/40). Values derived from fractions of
// different denominators are in lowest terms. The zero value is 0/1.
type Fraction struct {
	num, den int64
}

// Frac returns num/den; den must be positive (a zero denominator means the
// value is undefined, which callers represent as a nil *Fraction).
func Frac(num, den int64) Fraction {
	if den <= 0 {
		panic("scorer: Frac with non-positive denominator")
	}
	return Fraction{num, den}
}

// Num returns the numerator as given.
func (f Fraction) Num() int64 { return f.num }

// Den returns the denominator as given (1 for the zero value).
func (f Fraction) Den() int64 {
	if f.den == 0 {
		return 1
	}
	return f.den
}

// Rat returns the value as a new *big.Rat.
func (f Fraction) Rat() *big.Rat { return big.NewRat(f.num, f.Den()) }

// Cmp compares f with g exactly: -1, 0 or +1.
func (f Fraction) Cmp(g Fraction) int { return f.Rat().Cmp(g.Rat()) }

// Decimal returns the value rounded to three decimals, e.g. "0.833".
func (f Fraction) Decimal() string { return f.Rat().FloatString(3) }

// String returns "num/den" with the numerator and denominator as kept
// (not reduced: "5/5", not "1/1").
func (f Fraction) String() string {
	return strconv.FormatInt(f.num, 10) + "/" + strconv.FormatInt(f.Den(), 10)
}

// MarshalJSONTo encodes {"num":n,"den":d,"value":"0.833"}.
func (f Fraction) MarshalJSONTo(enc *jsontext.Encoder) error {
	return writeTokens(enc, jsontext.BeginObject, jsontext.String("num"), jsontext.Int(f.num),
		jsontext.String("den"), jsontext.Int(f.Den()), jsontext.String("value"), jsontext.String(f.Decimal()), jsontext.EndObject)
}

// MarshalJSON is MarshalJSONTo's value, compact.
func (f Fraction) MarshalJSON() ([]byte, error) { return jsonv2.Marshal(f) }

func fromRat(r *big.Rat) Fraction {
	return Fraction{r.Num().Int64(), r.Denom().Int64()}
}

// sub returns a − b; over their common denominator when they share one,
// and over the fraction's denominator when the other is an integer
// (1 − 8/10 = 2/10).
func sub(a, b Fraction) Fraction {
	switch {
	case a.Den() == b.Den():
		return Fraction{a.num - b.num, a.Den()}
	case a.Den() == 1:
		return Fraction{a.num*b.Den() - b.num, b.Den()}
	case b.Den() == 1:
		return Fraction{a.num - b.num*a.Den(), a.Den()}
	}
	return fromRat(new(big.Rat).Sub(a.Rat(), b.Rat()))
}

// sameDen returns the one denominator of fs, or 0 when they differ.
func sameDen(fs []Fraction) int64 {
	d := fs[0].Den()
	for _, f := range fs[1:] {
		if f.Den() != d {
			return 0
		}
	}
	return d
}

// MedianFraction returns the exact median of fs (the mean of the two middle values
// for an even count), or nil when fs is empty.
func MedianFraction(fs []Fraction) *Fraction {
	if len(fs) == 0 {
		return nil
	}
	s := slices.Clone(fs)
	slices.SortStableFunc(s, func(a, b Fraction) int { return a.Cmp(b) })
	n := len(s)
	if n%2 == 1 {
		m := s[n/2]
		return &m
	}
	if d := sameDen(s[n/2-1 : n/2+1]); d != 0 {
		m := Fraction{s[n/2-1].num + s[n/2].num, 2 * d}
		return &m
	}
	r := new(big.Rat).Add(s[n/2-1].Rat(), s[n/2].Rat())
	r.Quo(r, big.NewRat(2, 1))
	m := fromRat(r)
	return &m
}

// MeanFraction returns the exact arithmetic mean of fs, or nil when fs is empty.
func MeanFraction(fs []Fraction) *Fraction {
	if len(fs) == 0 {
		return nil
	}
	if d := sameDen(fs); d != 0 {
		m := Fraction{0, int64(len(fs)) * d}
		for _, f := range fs {
			m.num += f.num
		}
		return &m
	}
	r := new(big.Rat)
	for _, f := range fs {
		r.Add(r, f.Rat())
	}
	r.Quo(r, big.NewRat(int64(len(fs)), 1))
	m := fromRat(r)
	return &m
}
