package scorer

import (
	"verdict/campaign"
	"verdict/verr"
)

// sessionAccount measures one session from its receipt.
func sessionAccount(s *campaign.Session, card *campaign.PriceCard) SessionAccount {
	a := SessionAccount{Session: s.ID, Task: s.Run.Task, Repetition: s.Run.Repetition, Role: s.Role}
	r := s.Receipt
	unknownAll := func(why verr.Reason) {
		t, m, d := Unknown[Token](why), Unknown[PicoUSD](why), Unknown[Nanosecond](why)
		a.InputTokens, a.UncachedInputTokens, a.CachedInputTokens, a.BilledOutputTokens = t, t, t, t
		a.ReferenceCost, a.MCPCost, a.Cost, a.ActualCharge = m, m, m, m
		a.Duration, a.Validation, a.Assembly = d, d, d
	}
	if Planned(s) {
		// Planned, not started: nothing consumed yet, nothing known.
		unknownAll(ReasonSessionPlanned)
		return a
	}
	if r == nil {
		a.Dispatched = true // a response without a receipt: it started
		unknownAll(ReasonMissingTerminalReceipt)
		return a
	}
	a.Status = r.Status
	a.OrdinaryCalls, a.MCPCalls = r.OrdinaryCalls, r.MCPCalls
	if r.Status == campaign.StatusNotDispatched {
		t, m, d := Of[Token](0), Of[PicoUSD](0), Of[Nanosecond](0)
		a.InputTokens, a.UncachedInputTokens, a.CachedInputTokens, a.BilledOutputTokens = t, t, t, t
		a.ReferenceCost, a.MCPCost, a.Cost, a.ActualCharge = m, m, m, m
		a.Duration, a.Validation, a.Assembly = d, d, d
		return a
	}
	a.Dispatched = true
	// Tokens.
	if t, err := DeriveTokens(r.Meter); err != nil {
		why := err.(*verr.Error).Reason
		t := Unknown[Token](why)
		a.InputTokens, a.UncachedInputTokens, a.CachedInputTokens, a.BilledOutputTokens = t, t, t, t
		a.ReferenceCost = Unknown[PicoUSD](why)
	} else {
		a.InputTokens, a.UncachedInputTokens = Of[Token](t.InputTotal), Of[Token](t.Uncached)
		a.CachedInputTokens, a.BilledOutputTokens = Of[Token](t.Cached), Of[Token](t.BilledOutput)
		switch {
		case len(r.PricedModifiers) > 0:
			a.ReferenceCost = Unknown[PicoUSD](ReasonUnsupportedModifier)
		case card == nil:
			a.ReferenceCost = Unknown[PicoUSD](ReasonTariffMissing)
		case r.PriceCardID == nil || *r.PriceCardID != card.ID:
			a.ReferenceCost = Unknown[PicoUSD](ReasonTariffMismatch)
		default:
			a.ReferenceCost = PriceTokens(t, card)
		}
	}
	// MCP cost: zero only when no MCP call was made.
	switch {
	case r.MCPCostMicroUSD != nil:
		a.MCPCost = MicroUSD(*r.MCPCostMicroUSD)
	case r.MCPCalls > 0:
		a.MCPCost = Unknown[PicoUSD](ReasonMCPCostMissing)
	default:
		a.MCPCost = Of[PicoUSD](0)
	}
	a.Cost = a.ReferenceCost.Add(a.MCPCost)
	if r.ActualChargeMicroUSD != nil {
		a.ActualCharge = MicroUSD(*r.ActualChargeMicroUSD)
	} else {
		a.ActualCharge = Unknown[PicoUSD](ReasonActualChargeUnattributed)
	}
	// Time from monotonic readings; a start without a terminal receipt has
	// no end.
	switch {
	case r.Status == "":
		a.Duration = Unknown[Nanosecond](ReasonMissingTerminalReceipt)
	case r.StartMonotonicNS == nil || r.EndMonotonicNS == nil || *r.EndMonotonicNS < *r.StartMonotonicNS:
		a.Duration = Unknown[Nanosecond](ReasonTimeMissing)
	default:
		a.Duration = Of[Nanosecond](*r.EndMonotonicNS - *r.StartMonotonicNS)
	}
	if r.Status == "" {
		a.Cost = Unknown[PicoUSD](ReasonMissingTerminalReceipt)
	}
	a.Validation, a.Assembly = Of[Nanosecond](r.ValidationNS), Of[Nanosecond](r.AssemblyNS)
	return a
}
