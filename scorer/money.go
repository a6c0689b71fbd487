package scorer

import (
	"fmt"

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
		return Unknown[PicoUSD](ReasonTariffMissing)
	}
	return Of[PicoUSD](t.Uncached*card.UncachedInputMicroUSDPerMTok +
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
		return Unknown[PicoUSD](ReasonTariffMissing)
	}
	t, err := DeriveTokens(m)
	if err != nil {
		return Unknown[PicoUSD](err.(*verr.Error).Reason)
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
