package scorer

import (
	"errors"
	"fmt"
	"verdict/verr"
)

// ReasonGateOrEscape: an accounting gate is recorded as passing although
// its own checks fail, the signature of a gate satisfied through another
// (an OR condition such as "pair ≤ 1.25 or aggregate ≤ 1.10"). No gate may
// be met by another (EVALUATOR-CONTROLS C21; mutation "make a cost/time cap
// an OR condition").
const ReasonGateOrEscape verr.Reason = "gate-or-escape"

// CheckGateIndependence re-reads every ratio and per-session gate of an
// accounting report against the report's own measured values (pair
// ratios, task-median ratios, aggregate ratios and session measurements)
// and refuses, with ReasonGateOrEscape, each gate recorded as passing while
// one of its own known values breaks its bound: the gate was met through
// something else. Unknown values are not re-judged here (the gates already
// fail on them), a gate recorded as failing is never refused, and a nil
// report has nothing to check. The basis and shared-draft billing gates
// read inputs the report does not keep and are not re-read.
func CheckGateIndependence(acct *AccountingReport) []*verr.Error {
	if acct == nil {
		return nil
	}
	broken := map[string]string{}
	ratio := func(name, what string, r Ratio, num, den int64) {
		if _, seen := broken[name]; !seen && r.Known && !r.AtMost(num, den) {
			broken[name] = what + " " + r.String()
		}
	}
	for _, p := range acct.Pairs {
		what := fmt.Sprintf("pair %s r%d", p.Task, p.Repetition)
		ratio(GateCostPairedWorkflow, what, p.CostRatio, PairBoundNum, PairBoundDen)
		ratio(GateTimePairedWorkflow, what, p.TimeRatio, PairBoundNum, PairBoundDen)
	}
	for _, t := range acct.Tasks {
		ratio(GateCostTaskMedian, "task "+t.Task, t.CostRatio, TaskBoundNum, TaskBoundDen)
		ratio(GateTimeTaskMedian, "task "+t.Task, t.TimeRatio, TaskBoundNum, TaskBoundDen)
	}
	ratio(GateCostAggregate, "aggregate", acct.Aggregate.CostRatio, AggregateBoundNum, AggregateBoundDen)
	ratio(GateTimeAggregate, "aggregate", acct.Aggregate.TimeRatio, AggregateBoundNum, AggregateBoundDen)
	for _, s := range acct.Sessions {
		if !s.Dispatched {
			continue
		}
		for _, c := range []struct {
			name string
			get  func() (int64, bool)
			max  int64
		}{
			{GateSessionDuration, s.Duration.Int, SessionMaxNS},
			{GateSessionInput, s.InputTokens.Int, SessionMaxInputTokens},
			{GateSessionOutput, s.BilledOutputTokens.Int, SessionMaxOutputTokens},
		} {
			if v, known := c.get(); known && v > c.max {
				if _, seen := broken[c.name]; !seen {
					broken[c.name] = fmt.Sprintf("session %s %d", s.Session, v)
				}
			}
		}
	}
	var out []*verr.Error
	for i, g := range acct.Gates {
		if why, ok := broken[g.Name]; ok && g.Pass {
			out = append(out, verr.Newf(ReasonGateOrEscape, "", fmt.Sprintf("/accounting/gates/%d", i), "CONTRACT §4 Complete cost and time; EVALUATOR-CONTROLS C21", "gate %s is recorded as passing but its own %s breaks its bound: no gate may be met through another", g.Name, why))
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
