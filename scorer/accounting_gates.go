package scorer

import (
	"fmt"
	"strings"

	"verdict/campaign"
	"verdict/verr"
)

// Gate names of the complete cost-and-time scorecard (CONTRACT §4). Each is
// its own gate; none is ever OR'ed with another (EVALUATOR-CONTROLS C21).
const (
	GateCostBasis          = "cost-basis"
	GateCostAggregate      = "cost-aggregate-ratio"
	GateCostTaskMedian     = "cost-task-median-ratio"
	GateCostPairedWorkflow = "cost-paired-workflow-ratio"
	GateTimeBasis          = "time-basis"
	GateTimeAggregate      = "time-aggregate-ratio"
	GateTimeTaskMedian     = "time-task-median-ratio"
	GateTimePairedWorkflow = "time-paired-workflow-ratio"
	GateSessionDuration    = "session-duration-limit"
	GateSessionInput       = "session-input-token-limit"
	GateSessionOutput      = "session-output-token-limit"
	GateSharedDraftBilling = "shared-draft-billed-once"
)

// Reason codes of failing cost-and-time gates (CONTRACT §4–§5,
// EVALUATOR-CONTROLS C14, C20).
const (
	// ReasonTariffUnverified: the manifest's rate card is not verified for
	// the exact model; the cost gate cannot pass (CONTRACT §5).
	ReasonTariffUnverified verr.Reason = "tariff-unverified"
	// ReasonCostAggregateExceeded: Σ B / Σ A task-median cost > 1.10 (C14).
	ReasonCostAggregateExceeded verr.Reason = "cost-aggregate-ratio-exceeded"
	// ReasonCostTaskExceeded: a task-median cost ratio > 1.15 (C14).
	ReasonCostTaskExceeded verr.Reason = "cost-task-ratio-exceeded"
	// ReasonCostPairExceeded: a paired complete-workflow cost ratio > 1.25 (C14).
	ReasonCostPairExceeded verr.Reason = "cost-pair-ratio-exceeded"
	// ReasonTimeAggregateExceeded: Σ B / Σ A task-median time > 1.10 (C14).
	ReasonTimeAggregateExceeded verr.Reason = "time-aggregate-ratio-exceeded"
	// ReasonTimeTaskExceeded: a task-median time ratio > 1.15 (C14).
	ReasonTimeTaskExceeded verr.Reason = "time-task-ratio-exceeded"
	// ReasonTimePairExceeded: a paired complete-workflow time ratio > 1.25 (C14).
	ReasonTimePairExceeded verr.Reason = "time-pair-ratio-exceeded"
	// ReasonSessionTimeExceeded: a session ran longer than 4 minutes.
	ReasonSessionTimeExceeded verr.Reason = "session-time-exceeded"
	// ReasonSessionInputExceeded: a session used more than 90,000 input tokens.
	ReasonSessionInputExceeded verr.Reason = "session-input-exceeded"
	// ReasonSessionOutputExceeded: a session billed more than 8,000 output tokens.
	ReasonSessionOutputExceeded verr.Reason = "session-output-exceeded"
	// ReasonSharedDraftBilledTwice: a session (typically the shared draft D)
	// or request is billed more than once in physical campaign billing (C20).
	ReasonSharedDraftBilledTwice verr.Reason = "shared-draft-billed-twice"
	// ReasonNotDispatched: a review-only ratio is undefined because the
	// review was not dispatched after a failed shared draft (C23).
	ReasonNotDispatched verr.Reason = "not-dispatched"
	// ReasonMissingTerminalReceipt: a session has no receipt file or a
	// receipt without a terminal status (C15).
	ReasonMissingTerminalReceipt verr.Reason = "missing-terminal-receipt"
)

// Gate is one named pass/fail rule. Reason is the reason code of a failing
// gate ("" when it passes); Detail says which values broke it.
type Gate struct {
	Name   string      `json:"name"`
	Pass   bool        `json:"pass"`
	Reason verr.Reason `json:"reason"`
	Detail string      `json:"detail"`
}

// accountingGates evaluates every gate separately, in fixed order.
func accountingGates(c *campaign.Campaign, rep *AccountingReport, doubles []string) []Gate {
	ex := c.Manifest.Execution
	var gates []Gate

	// Cost basis: a defensible, verified tariff and every compared cost known.
	basis := Gate{Name: GateCostBasis, Pass: true}
	switch {
	case ex.PriceCard == nil:
		basis = Gate{Name: GateCostBasis, Reason: ReasonTariffMissing, Detail: "manifest execution.price_card is null: no reference pricing basis (CONTRACT §5)"}
	case ex.TariffVerified == nil || !*ex.TariffVerified:
		basis = Gate{Name: GateCostBasis, Reason: ReasonTariffUnverified, Detail: "manifest execution.tariff_verified is not true (CONTRACT §5)"}
	default:
		if why, where := firstUnknownCost(rep); why != "" {
			basis = Gate{Name: GateCostBasis, Reason: why, Detail: "cost unknown for " + where}
		}
	}
	if basis.Pass {
		basis.Detail = "verified price card " + ex.PriceCard.ID + "; every compared session cost known"
	}
	gates = append(gates, basis)
	gates = append(gates, ratioGates("cost", rep,
		func(p PairAccount) Ratio { return p.CostRatio }, func(t TaskAccount) Ratio { return t.CostRatio }, rep.Aggregate.CostRatio,
		GateCostAggregate, GateCostTaskMedian, GateCostPairedWorkflow,
		ReasonCostAggregateExceeded, ReasonCostTaskExceeded, ReasonCostPairExceeded)...)

	tb := Gate{Name: GateTimeBasis, Pass: true, Detail: "every compared session time known"}
	for _, s := range rep.Sessions {
		if s.Superseded {
			continue
		}
		if !s.Duration.Known {
			tb = Gate{Name: GateTimeBasis, Reason: s.Duration.Why, Detail: "duration unknown for session " + s.Session}
			break
		}
	}
	gates = append(gates, tb)
	gates = append(gates, ratioGates("time", rep,
		func(p PairAccount) Ratio { return p.TimeRatio }, func(t TaskAccount) Ratio { return t.TimeRatio }, rep.Aggregate.TimeRatio,
		GateTimeAggregate, GateTimeTaskMedian, GateTimePairedWorkflow,
		ReasonTimeAggregateExceeded, ReasonTimeTaskExceeded, ReasonTimePairExceeded)...)

	// Absolute per-session limits, every dispatched session.
	gates = append(gates,
		sessionGate(rep, GateSessionDuration, ReasonSessionTimeExceeded,
			func(s SessionAccount) Nanos { return s.Duration }, Of[Nanosecond](SessionMaxNS), ""),
		sessionGate(rep, GateSessionInput, ReasonSessionInputExceeded,
			func(s SessionAccount) Tokens { return s.InputTokens }, Of[Token](SessionMaxInputTokens), " input tokens"),
		sessionGate(rep, GateSessionOutput, ReasonSessionOutputExceeded,
			func(s SessionAccount) Tokens { return s.BilledOutputTokens }, Of[Token](SessionMaxOutputTokens), " output tokens"),
	)

	// Shared D billed once (C20): no session or request billed twice, and
	// allocations equal physical billing of compared runs plus one extra D each.
	sd := Gate{Name: GateSharedDraftBilling, Pass: true}
	if len(doubles) > 0 {
		sd = Gate{Name: GateSharedDraftBilling, Reason: ReasonSharedDraftBilledTwice, Detail: strings.Join(doubles, "; ")}
	} else {
		sd.Detail = fmt.Sprintf("physical billing %s counts each shared draft once; comparative allocations A %s and B %s each include it",
			rep.PhysicalBilling.Cost, rep.AllocatedCostA, rep.AllocatedCostB)
	}
	gates = append(gates, sd)
	return gates
}

// firstUnknownCost names the first compared session whose cost is unknown.
func firstUnknownCost(rep *AccountingReport) (verr.Reason, string) {
	for _, s := range rep.Sessions {
		if !s.Superseded && !s.Cost.Known {
			return s.Cost.Why, "session " + s.Session
		}
	}
	return "", ""
}

// ratioGates builds the aggregate, task-median and paired-workflow gates
// of one quantity. An unknown or undefined ratio fails its gate with the
// reason it is unknown; one outlier fails its gate even when the aggregate
// passes (C14).
func ratioGates(what string, rep *AccountingReport, pair func(PairAccount) Ratio, task func(TaskAccount) Ratio, agg Ratio,
	aggName, taskName, pairName string, aggReason, taskReason, pairReason verr.Reason) []Gate {
	var out []Gate
	g := Gate{Name: aggName, Pass: agg.AtMost(AggregateBoundNum, AggregateBoundDen)}
	g.Detail = fmt.Sprintf("Σ B task medians / Σ A task medians = %s (bound 1.10)", agg)
	if l := agg.Label(what); l != "" {
		g.Detail += "; " + l
	}
	if !g.Pass {
		g.Reason = aggReason
		if !agg.Known {
			g.Reason = agg.Why
		}
	}
	out = append(out, g)

	out = append(out, boundGate(taskName, len(rep.Tasks), func(i int) (string, Ratio) {
		return rep.Tasks[i].Task, task(rep.Tasks[i])
	}, TaskBoundNum, TaskBoundDen, taskReason, "task-median", "1.15", "no task"))
	out = append(out, boundGate(pairName, len(rep.Pairs), func(i int) (string, Ratio) {
		p := rep.Pairs[i]
		return fmt.Sprintf("%s r%d", p.Task, p.Repetition), pair(p)
	}, PairBoundNum, PairBoundDen, pairReason, "paired complete-workflow", "1.25", "no pair"))
	return out
}

// boundGate is the gate that each of n ratios (at(i): its label and
// ratio) is at most num/den, bound written as a decimal; what names the
// ratios ("task-median"), over is the reason of the first ratio above the
// bound (an unknown ratio fails with the reason it is unknown) and none
// the detail when there is no ratio at all (ReasonRatioUndefined): every
// outlier is listed (CONTRACT §4 "each task-median ratio must be ≤1.15;
// no individual paired complete-workflow ratio may exceed 1.25"; C14).
func boundGate(name string, n int, at func(i int) (string, Ratio), num, den int64, over verr.Reason, what, bound, none string) Gate {
	g := Gate{Name: name, Pass: n > 0}
	var bad []string
	var why verr.Reason
	for i := range n {
		label, r := at(i)
		if !r.AtMost(num, den) {
			bad = append(bad, label+" "+r.String())
			if why == "" {
				why = over
				if !r.Known {
					why = r.Why
				}
			}
		}
	}
	switch {
	case len(bad) > 0:
		g.Pass, g.Reason = false, why
		g.Detail = what + " B/A above " + bound + " or unknown: " + strings.Join(bad, ", ")
	case g.Pass:
		g.Detail = fmt.Sprintf("all %d %s ratios ≤ %s", n, what, bound)
	default:
		g.Reason, g.Detail = ReasonRatioUndefined, none
	}
	return g
}

// sessionGate checks one inclusive per-session limit over every dispatched
// session; an unknown value fails the gate with its reason. Amounts are
// shown with what after them (" input tokens").
func sessionGate[U Unit](rep *AccountingReport, name string, reason verr.Reason, get func(SessionAccount) Exact[U], limit Exact[U], what string) Gate {
	g := Gate{Name: name, Pass: true}
	var bad []string
	show := func(q Exact[U]) string { return q.String() + what }
	for _, s := range rep.Sessions {
		if !s.Dispatched {
			continue
		}
		q := get(s)
		switch {
		case !q.Known:
			bad = append(bad, s.Session+" unknown")
			if g.Pass {
				g.Reason = q.Why
			}
			g.Pass = false
		case q.Cmp(limit) > 0:
			bad = append(bad, s.Session+" "+show(q))
			if g.Pass {
				g.Reason = reason
			}
			g.Pass = false
		}
	}
	if g.Pass {
		g.Detail = "every dispatched session ≤ " + show(limit)
	} else {
		g.Detail = "limit " + show(limit) + " exceeded or unknown: " + strings.Join(bad, ", ")
	}
	return g
}
