package scorer

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"verdict/campaign"
	"verdict/verr"
)

// PicoPerUSD is the number of Money units in one US dollar. Money is kept in
// pico-USD (10^-12 USD) so that a PriceCard rate (micro-USD per million
// tokens) times a token count is an exact Money amount with no division:
// rate·tokens micro-USD/10^6 = rate·tokens·10^-12 USD (CONTRACT §5).
const PicoPerUSD int64 = 1_000_000_000_000

// PicoPerMicroUSD converts a micro-USD amount (receipt charges) to pico-USD.
const PicoPerMicroUSD int64 = 1_000_000

// Reasons for which a cost, a token count or a duration is unknown. They
// are carried in the Why field of an unknown value and in gate details.
const (
	// ReasonMeterMissing: a dispatched session has no token meter (CONTRACT §5
	// "Unsupported modifiers or incomplete metering fail admission").
	ReasonMeterMissing verr.Reason = "meter-missing"
	// ReasonMeterInconsistent: a meter's counts contradict its own flags
	// (negative counts, cached > input total, reasoning > output).
	ReasonMeterInconsistent verr.Reason = "meter-inconsistent"
	// ReasonTariffMissing: the manifest has no price card (CONTRACT §5
	// "Never invent a tariff").
	ReasonTariffMissing verr.Reason = "tariff-missing"
	// ReasonTariffMismatch: a receipt names no price card or another card
	// than the manifest's.
	ReasonTariffMismatch verr.Reason = "tariff-mismatch"
	// ReasonTimeMissing: a dispatched session lacks a monotonic start or end.
	ReasonTimeMissing verr.Reason = "time-missing"
	// ReasonMCPCostMissing: a session made MCP calls but their cost is not
	// metered (EVALUATOR-CONTROLS mutation "zero an MCP cost").
	ReasonMCPCostMissing verr.Reason = "mcp-cost-missing"
	// ReasonActualChargeUnattributed: the session's actual charge could not
	// be attributed; it is reported as unknown, never as zero (CONTRACT §5).
	ReasonActualChargeUnattributed verr.Reason = "actual-charge-unattributed"
)

// Money is an exact amount of US dollars in pico-USD (10^-12 USD), or an
// explicit unknown. An unknown amount is never zero: it renders as
// "unknown", any sum containing it is unknown, and it fails every gate and
// ceiling that reads it (CONTRACT §4–§5). Why names the first reason.
type Money struct {
	// PicoUSD is the amount in 10^-12 USD; meaningful only when Known.
	PicoUSD int64
	// Known is false when the amount was not measured.
	Known bool
	// Why is the reason code of an unknown amount ("" when Known).
	Why verr.Reason
}

// Pico returns a known amount of p pico-USD.
func Pico(p int64) Money { return Money{PicoUSD: p, Known: true} }

// MicroUSD returns a known amount of n micro-USD (10^-6 USD).
func MicroUSD(n int64) Money { return Pico(n * PicoPerMicroUSD) }

// USD returns a known amount of n whole US dollars.
func USD(n int64) Money { return Pico(n * PicoPerUSD) }

// UnknownMoney returns an unknown amount with its reason.
func UnknownMoney(why verr.Reason) Money { return Money{Why: why} }

// Add returns m+o; unknown when either is unknown (the first reason wins).
func (m Money) Add(o Money) Money {
	if !m.Known {
		return m
	}
	if !o.Known {
		return o
	}
	return Pico(m.PicoUSD + o.PicoUSD)
}

// String renders the exact decimal USD amount with at least two decimals
// and no trailing zeros beyond them ("0.0407952", "30.00", "-0.50"), or
// "unknown".
func (m Money) String() string {
	if !m.Known {
		return "unknown"
	}
	return exactDecimal(big.NewRat(m.PicoUSD, PicoPerUSD), 2)
}

// MarshalJSON writes {"known":true,"pico_usd":N,"usd":"0.0407952"} or
// {"known":false,"usd":"unknown","why":"meter-missing"}.
func (m Money) MarshalJSON() ([]byte, error) {
	if !m.Known {
		return fmt.Appendf(nil, `{"known":false,"usd":"unknown","why":%q}`, string(m.Why)), nil
	}
	return fmt.Appendf(nil, `{"known":true,"pico_usd":%d,"usd":%q}`, m.PicoUSD, m.String()), nil
}

// Tokens is an exact token count or an explicit unknown (never zero).
type Tokens struct {
	// N is the count; meaningful only when Known.
	N int64
	// Known is false when the count was not metered.
	Known bool
	// Why is the reason code of an unknown count.
	Why verr.Reason
}

// KnownTokens returns a known count.
func KnownTokens(n int64) Tokens { return Tokens{N: n, Known: true} }

// UnknownTokens returns an unknown count with its reason.
func UnknownTokens(why verr.Reason) Tokens { return Tokens{Why: why} }

// Add returns t+o; unknown when either is unknown.
func (t Tokens) Add(o Tokens) Tokens {
	if !t.Known {
		return t
	}
	if !o.Known {
		return o
	}
	return KnownTokens(t.N + o.N)
}

// String renders the count in decimal with comma grouping, or "unknown".
func (t Tokens) String() string {
	if !t.Known {
		return "unknown"
	}
	return groupDigits(t.N)
}

// MarshalJSON writes the integer count or {"known":false,"why":...}.
func (t Tokens) MarshalJSON() ([]byte, error) {
	if !t.Known {
		return fmt.Appendf(nil, `{"known":false,"why":%q}`, string(t.Why)), nil
	}
	return strconv.AppendInt(nil, t.N, 10), nil
}

// Nanos is an exact duration in nanoseconds (from monotonic readings) or an
// explicit unknown (never zero).
type Nanos struct {
	// NS is the duration in nanoseconds; meaningful only when Known.
	NS int64
	// Known is false when the duration was not measured.
	Known bool
	// Why is the reason code of an unknown duration.
	Why verr.Reason
}

// KnownNanos returns a known duration of ns nanoseconds.
func KnownNanos(ns int64) Nanos { return Nanos{NS: ns, Known: true} }

// UnknownNanos returns an unknown duration with its reason.
func UnknownNanos(why verr.Reason) Nanos { return Nanos{Why: why} }

// Add returns d+o; unknown when either is unknown.
func (d Nanos) Add(o Nanos) Nanos {
	if !d.Known {
		return d
	}
	if !o.Known {
		return o
	}
	return KnownNanos(d.NS + o.NS)
}

// String renders the exact duration in seconds ("12.5s", "240s"), or "unknown".
func (d Nanos) String() string {
	if !d.Known {
		return "unknown"
	}
	return exactDecimal(big.NewRat(d.NS, 1_000_000_000), 0) + "s"
}

// MarshalJSON writes the integer nanoseconds or {"known":false,"why":...}.
func (d Nanos) MarshalJSON() ([]byte, error) {
	if !d.Known {
		return fmt.Appendf(nil, `{"known":false,"why":%q}`, string(d.Why)), nil
	}
	return strconv.AppendInt(nil, d.NS, 10), nil
}

// MeterTokens are the token counts derived from one meter (CONTRACT §5):
// uncached = input total − cached exactly once when the input total
// includes cached input; billed output = output when it already includes
// reasoning, else output + reasoning.
type MeterTokens struct {
	// InputTotal is uncached + cached input, the quantity the 90,000-token
	// per-session and 3,000,000-token campaign ceilings read.
	InputTotal int64
	// Uncached and Cached are the two priced input subsets.
	Uncached, Cached int64
	// BilledOutput is output including reasoning exactly once; the
	// 8,000-token per-session and 600,000-token campaign ceilings read it.
	BilledOutput int64
}

// DeriveTokens applies the CONTRACT §5 meter rules. It returns a
// *verr.Error with ReasonMeterMissing for a nil meter and
// ReasonMeterInconsistent for negative counts, cached > input total (when
// included) or reasoning > output (when included).
func DeriveTokens(m *campaign.Meter) (MeterTokens, error) {
	if m == nil {
		return MeterTokens{}, &verr.Error{Reason: ReasonMeterMissing, Rule: "CONTRACT §5", Detail: "no token meter recorded"}
	}
	if m.InputTokens < 0 || m.CachedInputTokens < 0 || m.OutputTokens < 0 || m.ReasoningTokens < 0 {
		return MeterTokens{}, &verr.Error{Reason: ReasonMeterInconsistent, Rule: "CONTRACT §5", Detail: "negative token count"}
	}
	var t MeterTokens
	t.Cached = m.CachedInputTokens
	if m.InputIncludesCached {
		if m.CachedInputTokens > m.InputTokens {
			return MeterTokens{}, &verr.Error{Reason: ReasonMeterInconsistent, Rule: "CONTRACT §5",
				Detail: fmt.Sprintf("cached input %d exceeds input total %d that includes it", m.CachedInputTokens, m.InputTokens)}
		}
		t.Uncached = m.InputTokens - m.CachedInputTokens
		t.InputTotal = m.InputTokens
	} else {
		t.Uncached = m.InputTokens
		t.InputTotal = m.InputTokens + m.CachedInputTokens
	}
	if m.OutputIncludesReasoning {
		if m.ReasoningTokens > m.OutputTokens {
			return MeterTokens{}, &verr.Error{Reason: ReasonMeterInconsistent, Rule: "CONTRACT §5",
				Detail: fmt.Sprintf("reasoning %d exceeds output %d that includes it", m.ReasoningTokens, m.OutputTokens)}
		}
		t.BilledOutput = m.OutputTokens
	} else {
		t.BilledOutput = m.OutputTokens + m.ReasoningTokens
	}
	return t, nil
}

// PriceTokens prices derived tokens at a card, exactly:
// uncached·rate_uncached + cached·rate_cached + billed_output·rate_output
// pico-USD (rates are micro-USD per million tokens). Unknown with
// ReasonTariffMissing when card is nil.
func PriceTokens(t MeterTokens, card *campaign.PriceCard) Money {
	if card == nil {
		return UnknownMoney(ReasonTariffMissing)
	}
	return Pico(t.Uncached*card.UncachedInputMicroUSDPerMTok +
		t.Cached*card.CachedInputMicroUSDPerMTok +
		t.BilledOutput*card.OutputMicroUSDPerMTok)
}

// ReferenceCost is the CONTRACT §5 reference token cost
// (4·uncached + 0.40·cached + 20·billed_output)/10^6 USD at the given card,
// exact in pico-USD. It is unknown (never zero) when the meter is missing
// or inconsistent or the card is nil. Worked case: 20,212 input including
// 16,298 cached and 931 output at the contract card is US$0.0407952.
func ReferenceCost(m *campaign.Meter, card *campaign.PriceCard) Money {
	if card == nil {
		return UnknownMoney(ReasonTariffMissing)
	}
	t, err := DeriveTokens(m)
	if err != nil {
		return UnknownMoney(err.(*verr.Error).Reason)
	}
	return PriceTokens(t, card)
}

// ContractPriceCard is the frozen reference card of CONTRACT §5 (US$4
// uncached input, US$0.40 cached input, US$20 output per million tokens,
// checked 5 September 2026). Manifest admission refuses a 741-v1.0
// manifest whose card has other rates (ReferenceCardIssue); a campaign
// prices only with its own manifest card.
func ContractPriceCard() campaign.PriceCard {
	return campaign.PriceCard{
		ID:                           "codex-work-2026-09-05",
		UncachedInputMicroUSDPerMTok: 4_000_000,
		CachedInputMicroUSDPerMTok:   400_000,
		OutputMicroUSDPerMTok:        20_000_000,
	}
}

// exactDecimal renders r exactly as a decimal when its denominator divides
// a power of ten (always true for pico-USD and nanoseconds), keeping at
// least minFrac fraction digits and no other trailing zeros. Other
// rationals (never produced here) fall back to 12 rounded digits.
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

// groupDigits renders n with comma thousands separators ("3,000,000").
func groupDigits(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}
