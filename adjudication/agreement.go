package adjudication

import (
	"math/big"
)

// Statistic is one agreement statistic over nominal grades: its Value,
// whether it is Defined, and N, the number of values it was computed from
// (paired values for percent agreement and Cohen's kappa, pairable values
// for Krippendorff's alpha). When the statistic is undefined (too few
// values, no variation) Defined is false, Value is 0 and must not be read,
// and Reason says why; an undefined statistic is reported as "undefined"
// with its reason, never as 0 or NaN (issue "agreement statistics";
// CONTRACT §5 "Two source-based ratings").
type Statistic struct {
	// Value is the statistic; meaningful only when Defined.
	Value float64 `json:"value"`
	// Defined is false when the statistic cannot be computed.
	Defined bool `json:"defined"`
	// Reason explains an undefined statistic; "" when Defined.
	Reason string `json:"reason,omitempty"`
	// N is the number of paired (or pairable) values used.
	N int `json:"n"`
}

// Reasons for an undefined Statistic.
const (
	// ReasonUnequalLengths: the two raters' value lists differ in length,
	// so values cannot be paired.
	ReasonUnequalLengths = "the two raters' value lists differ in length"
	// ReasonTooFewPairs: fewer than two items were graded by both raters.
	ReasonTooFewPairs = "fewer than two paired values"
	// ReasonTooFewPairable: fewer than two values lie in units that hold at
	// least two values (Krippendorff's pairable values).
	ReasonTooFewPairable = "fewer than two pairable values"
	// ReasonNoVariation: every value is the same category, so agreement
	// expected by chance is total and the chance-corrected statistic is 0/0.
	ReasonNoVariation = "no variation: every value is the same category"
)

// pairs returns the paired values of a and b, dropping a pair when either
// value is "" (missing).
func pairs(a, b []string) (x, y []string, reason string) {
	if len(a) != len(b) {
		return nil, nil, ReasonUnequalLengths
	}
	for i := range a {
		if a[i] == "" || b[i] == "" {
			continue
		}
		x = append(x, a[i])
		y = append(y, b[i])
	}
	if len(x) < 2 {
		return x, y, ReasonTooFewPairs
	}
	return x, y, ""
}

// PercentAgreement is the share of paired values on which two raters agree:
//
//	P = (number of i with a[i] == b[i]) / n
//
// over the n items graded by both (a pair with "" on either side is
// missing and dropped). a and b are the two raters' nominal values for the
// same items in the same order. Undefined when the lists differ in length
// or fewer than two pairs remain. Percent agreement is not corrected for
// chance; it is reported beside the two chance-corrected statistics below.
func PercentAgreement(a, b []string) Statistic {
	x, y, reason := pairs(a, b)
	if reason != "" {
		return Statistic{Reason: reason, N: len(x)}
	}
	agree := 0
	for i := range x {
		if x[i] == y[i] {
			agree++
		}
	}
	return Statistic{Value: float64(agree) / float64(len(x)), Defined: true, N: len(x)}
}

// CohensKappa is Cohen's kappa for two raters and nominal categories
// (Cohen 1960, "A coefficient of agreement for nominal scales",
// Educational and Psychological Measurement 20(1):37–46):
//
//	kappa = (p_o − p_e) / (1 − p_e)
//	p_o   = (number of agreeing pairs) / n
//	p_e   = Σ_k (n_a,k / n) · (n_b,k / n)
//
// where n is the number of paired values (pairs with "" on either side are
// dropped) and n_a,k, n_b,k count category k in rater a's and rater b's
// paired values. It is computed exactly in integers as
// (n·agree − Σ_k n_a,k·n_b,k) / (n² − Σ_k n_a,k·n_b,k). Undefined when the
// lists differ in length, fewer than two pairs remain, or p_e = 1 (both
// raters used one and the same category throughout).
func CohensKappa(a, b []string) Statistic {
	x, y, reason := pairs(a, b)
	n := len(x)
	if reason != "" {
		return Statistic{Reason: reason, N: n}
	}
	agree := int64(0)
	ca, cb := map[string]int64{}, map[string]int64{}
	for i := range x {
		if x[i] == y[i] {
			agree++
		}
		ca[x[i]]++
		cb[y[i]]++
	}
	chance := int64(0)
	for k, na := range ca {
		chance += na * cb[k] // sum of integers: order does not matter
	}
	nn := int64(n)
	den := nn*nn - chance
	if den == 0 {
		return Statistic{Reason: ReasonNoVariation, N: n}
	}
	v, _ := new(big.Rat).SetFrac64(nn*agree-chance, den).Float64()
	return Statistic{Value: v, Defined: true, N: n}
}

// KrippendorffAlphaNominal is Krippendorff's alpha for nominal data, any
// number of coders and missing values (Krippendorff 2011, "Computing
// Krippendorff's Alpha-Reliability", University of Pennsylvania;
// Krippendorff 2004, Content Analysis, 2nd ed., ch. 11). units[u][j] is
// coder j's value for unit u; "" (or a short row) is a missing value.
//
// Only units with m_u ≥ 2 values are pairable. From them the coincidence
// matrix is
//
//	o_ck = Σ_u (number of ordered pairs (c, k) of values from different
//	       coders in unit u) / (m_u − 1)
//
// with marginals n_c = Σ_k o_ck and n = Σ_c n_c (the number of pairable
// values). With the nominal difference (0 when c = k, else 1):
//
//	alpha = 1 − D_o / D_e = 1 − (n − 1) · Σ_{c≠k} o_ck / Σ_{c≠k} n_c · n_k
//
// computed exactly in rational arithmetic. Undefined when fewer than two
// pairable values exist, or D_e = 0 (all pairable values are one category).
func KrippendorffAlphaNominal(units [][]string) Statistic {
	// Index categories in order of first appearance (deterministic).
	index := map[string]int{}
	var cats []string
	type unit []int
	var pairable []unit
	n := 0
	for _, row := range units {
		var u unit
		for _, v := range row {
			if v == "" {
				continue
			}
			i, ok := index[v]
			if !ok {
				i = len(cats)
				index[v] = i
				cats = append(cats, v)
			}
			u = append(u, i)
		}
		if len(u) >= 2 {
			pairable = append(pairable, u)
			n += len(u)
		}
	}
	if n < 2 {
		return Statistic{Reason: ReasonTooFewPairable, N: n}
	}
	k := len(cats)
	// o[c][d] as exact rationals.
	o := make([][]*big.Rat, k)
	for c := range o {
		o[c] = make([]*big.Rat, k)
		for d := range o[c] {
			o[c][d] = new(big.Rat)
		}
	}
	for _, u := range pairable {
		counts := make([]int64, k)
		for _, c := range u {
			counts[c]++
		}
		m := int64(len(u))
		for c := range k {
			if counts[c] == 0 {
				continue
			}
			for d := range k {
				var pc int64
				if c == d {
					pc = counts[c] * (counts[c] - 1)
				} else {
					pc = counts[c] * counts[d]
				}
				if pc != 0 {
					o[c][d].Add(o[c][d], big.NewRat(pc, m-1))
				}
			}
		}
	}
	marg := make([]*big.Rat, k)
	for c := range k {
		marg[c] = new(big.Rat)
		for d := range k {
			marg[c].Add(marg[c], o[c][d])
		}
	}
	observed, expected := new(big.Rat), new(big.Rat)
	for c := range k {
		for d := range k {
			if c == d {
				continue
			}
			observed.Add(observed, o[c][d])
			expected.Add(expected, new(big.Rat).Mul(marg[c], marg[d]))
		}
	}
	if expected.Sign() == 0 {
		return Statistic{Reason: ReasonNoVariation, N: n}
	}
	// alpha = 1 − (n−1)·observed/expected
	ratio := new(big.Rat).Mul(big.NewRat(int64(n-1), 1), observed)
	ratio.Quo(ratio, expected)
	alpha := new(big.Rat).Sub(big.NewRat(1, 1), ratio)
	v, _ := alpha.Float64()
	return Statistic{Value: v, Defined: true, N: n}
}

// PairTable counts the paired nominal values of two raters over a set of
// fields: PairTable{{a, b}: n} means n fields on which rater 1 gave a and
// rater 2 gave b ("" when a rater left the field without a value). It is
// what the three statistics above depend on for two raters, so a caller
// with hundreds of thousands of fields (a 10,000-session campaign) counts
// them into a table instead of holding every value in lists.
type PairTable map[[2]string]int64

// Add counts one field with rater 1's value a and rater 2's value b.
func (t PairTable) Add(a, b string) { t[[2]string{a, b}]++ }

// Statistics returns PercentAgreement, CohensKappa and
// KrippendorffAlphaNominal of the counted fields: exactly the values those
// functions give for the two lists of the fields' values (any order) and
// for the units {a, b} of the fields. A field with "" on either side is
// missing: it is neither a pair nor a pairable unit.
func (t PairTable) Statistics() (percent, kappa, alpha Statistic) {
	var n, agree int64
	ca, cb := map[string]int64{}, map[string]int64{}
	// o is Krippendorff's coincidence matrix; for two coders every
	// pairable unit has m_u = 2, so each entry is an integer: a unit (c, c)
	// adds 2 to o_cc, a unit (c, d) adds 1 to o_cd and to o_dc.
	o := map[[2]string]int64{}
	cats := map[string]bool{}
	for p, w := range t {
		if p[0] == "" || p[1] == "" {
			continue
		}
		n += w
		ca[p[0]] += w
		cb[p[1]] += w
		cats[p[0]], cats[p[1]] = true, true
		if p[0] == p[1] {
			agree += w
			o[p] += 2 * w
		} else {
			o[p] += w
			o[[2]string{p[1], p[0]}] += w
		}
	}
	if n < 2 {
		percent = Statistic{Reason: ReasonTooFewPairs, N: int(n)}
		kappa = percent
	} else {
		percent = Statistic{Value: float64(agree) / float64(n), Defined: true, N: int(n)}
		chance := int64(0)
		for k, na := range ca {
			chance += na * cb[k]
		}
		if den := n*n - chance; den == 0 {
			kappa = Statistic{Reason: ReasonNoVariation, N: int(n)}
		} else {
			v, _ := new(big.Rat).SetFrac64(n*agree-chance, den).Float64()
			kappa = Statistic{Value: v, Defined: true, N: int(n)}
		}
	}
	pairable := 2 * n
	if pairable < 2 {
		return percent, kappa, Statistic{Reason: ReasonTooFewPairable, N: int(pairable)}
	}
	marg := map[string]int64{}
	var observed int64
	for p, w := range o {
		marg[p[0]] += w
		if p[0] != p[1] {
			observed += w
		}
	}
	expected := new(big.Int)
	for c := range cats {
		for d := range cats {
			if c != d {
				expected.Add(expected, new(big.Int).Mul(big.NewInt(marg[c]), big.NewInt(marg[d])))
			}
		}
	}
	if expected.Sign() == 0 {
		return percent, kappa, Statistic{Reason: ReasonNoVariation, N: int(pairable)}
	}
	// alpha = 1 − (n−1)·observed/expected
	ratio := new(big.Rat).SetFrac(new(big.Int).Mul(big.NewInt(pairable-1), big.NewInt(observed)), expected)
	v, _ := new(big.Rat).Sub(big.NewRat(1, 1), ratio).Float64()
	return percent, kappa, Statistic{Value: v, Defined: true, N: int(pairable)}
}
