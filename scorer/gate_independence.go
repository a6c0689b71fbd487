package scorer

import (
	"errors"
	"fmt"

	"verdict/campaign"
)

// ReasonGateOrEscape: an accounting gate is recorded as passing although
// its own checks fail, the signature of a gate satisfied through another
// (an OR condition such as "pair ≤ 1.25 or aggregate ≤ 1.10"). No gate may
// be met by another (EVALUATOR-CONTROLS C21; mutation "make a cost/time cap
// an OR condition").
const ReasonGateOrEscape campaign.Reason = "gate-or-escape"

// CheckGateIndependence re-derives every ratio and per-session gate of an
// accounting report from the report's own values (pair ratios, task-median
// ratios, aggregate ratios and session measurements) and refuses, with
// ReasonGateOrEscape, each gate whose recorded Pass differs from the AND
// of its own checks. A nil report has no gates to check. The shared-draft
// billing and basis gates read inputs the report does not keep and are
// not re-derived.
func CheckGateIndependence(acct *AccountingReport) []*campaign.Error {
	if acct == nil {
		return nil
	}
	want := map[string]bool{}
	all := func(name string, n int, ok func(i int) bool) {
		pass := n > 0
		for i := 0; i < n; i++ {
			pass = pass && ok(i)
		}
		want[name] = pass
	}
	all(GateCostPairedWorkflow, len(acct.Pairs), func(i int) bool { return acct.Pairs[i].CostRatio.AtMost(PairBoundNum, PairBoundDen) })
	all(GateTimePairedWorkflow, len(acct.Pairs), func(i int) bool { return acct.Pairs[i].TimeRatio.AtMost(PairBoundNum, PairBoundDen) })
	all(GateCostTaskMedian, len(acct.Tasks), func(i int) bool { return acct.Tasks[i].CostRatio.AtMost(TaskBoundNum, TaskBoundDen) })
	all(GateTimeTaskMedian, len(acct.Tasks), func(i int) bool { return acct.Tasks[i].TimeRatio.AtMost(TaskBoundNum, TaskBoundDen) })
	want[GateCostAggregate] = acct.Aggregate.CostRatio.AtMost(AggregateBoundNum, AggregateBoundDen)
	want[GateTimeAggregate] = acct.Aggregate.TimeRatio.AtMost(AggregateBoundNum, AggregateBoundDen)
	session := func(name string, get func(SessionAccount) (bool, int64), limit int64) {
		pass := true
		for _, s := range acct.Sessions {
			if !s.Dispatched {
				continue
			}
			if known, v := get(s); !known || v > limit {
				pass = false
			}
		}
		want[name] = pass
	}
	session(GateSessionDuration, func(s SessionAccount) (bool, int64) { return s.Duration.Known, s.Duration.NS }, SessionMaxNS)
	session(GateSessionInput, func(s SessionAccount) (bool, int64) { return s.InputTokens.Known, s.InputTokens.N }, SessionMaxInputTokens)
	session(GateSessionOutput, func(s SessionAccount) (bool, int64) { return s.BilledOutputTokens.Known, s.BilledOutputTokens.N }, SessionMaxOutputTokens)
	var out []*campaign.Error
	for i, g := range acct.Gates {
		w, ok := want[g.Name]
		if ok && g.Pass != w {
			out = append(out, &campaign.Error{Reason: ReasonGateOrEscape, Pointer: fmt.Sprintf("/accounting/gates/%d", i),
				Rule:   "CONTRACT §4 Complete cost and time; EVALUATOR-CONTROLS C21",
				Detail: fmt.Sprintf("gate %s is recorded as pass=%t but its own checks give pass=%t: no gate may be met through another", g.Name, g.Pass, w)})
		}
	}
	return out
}

// gateIndependenceError joins CheckGateIndependence's refusals, nil when none.
func gateIndependenceError(acct *AccountingReport) error {
	errs := CheckGateIndependence(acct)
	if len(errs) == 0 {
		return nil
	}
	joined := make([]error, len(errs))
	for i, e := range errs {
		joined[i] = e
	}
	return errors.Join(joined...)
}
