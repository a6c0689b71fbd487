package scorer

import (
	"fmt"
	"slices"
	"strings"

	"verdict/campaign"
	"verdict/verr"
)

// DecisionKind is the campaign's one outcome (CONTRACT §4 "Decision").
type DecisionKind string

// The decision outcomes of CONTRACT §4, plus DecisionNoDecision for
// development round 1, which is inspected and never decided (CONTRACT §5).
const (
	// DecisionAllGatesPass: every gate passes; evidence for one downstream
	// review mechanism on this sample.
	DecisionAllGatesPass DecisionKind = "all-gates-pass"
	// DecisionQualityImprovesGateFails: the macro-average gain is at least
	// 0.10 but at least one gate fails (each is named); do not advance.
	DecisionQualityImprovesGateFails DecisionKind = "quality-improves-gate-fails"
	// DecisionNoGain: no ≥0.10 macro-average gain, including an A ceiling.
	DecisionNoGain DecisionKind = "no-gain"
	// DecisionExecutionInvalid: a prerequisite failed (named); no verdict.
	DecisionExecutionInvalid DecisionKind = "execution-invalid"
	// DecisionNoDecision: development round 1 is inspected, not decided.
	DecisionNoDecision DecisionKind = "no-decision"
)

// DecisionCore is what the decision of either design says: the outcome
// with every failing gate and failed prerequisite named.
type DecisionCore struct {
	Kind DecisionKind `json:"kind"`
	// Summary is one sentence stating the outcome.
	Summary string `json:"summary"`
	// FailingGates lists the IDs of every failing gate, in gate order.
	FailingGates []string `json:"failing_gates"`
	// FailedPrerequisites lists the IDs of every failed prerequisite.
	FailedPrerequisites []string `json:"failed_prerequisites"`
}

// Decision is the campaign's outcome with every failing gate and failed
// prerequisite named.
type Decision struct {
	DecisionCore `json:",inline"`
	// ACeiling is true when A's macro-average task-median R leaves less than
	// 0.10 of headroom, so no ≥0.10 gain was possible.
	ACeiling bool `json:"a_ceiling"`
}

// GateCheck is one comparison inside a gate: what was observed, the exact
// threshold, and whether it holds. Observed "unknown" never passes.
type GateCheck struct {
	ID        string `json:"id"`
	Observed  string `json:"observed"`
	Threshold string `json:"threshold"`
	Pass      bool   `json:"pass"`
}

// DecisionGate is one independent pass/fail rule. A gate passes only when
// every one of its checks passes; the decision is the AND of all gates, so
// no gate is ever satisfied by another (EVALUATOR-CONTROLS C21).
type DecisionGate struct {
	ID     string      `json:"id"`
	Rule   string      `json:"rule"`
	Pass   bool        `json:"pass"`
	Checks []GateCheck `json:"checks"`
}

// Thresholds are the phase's numerical policy (CONTRACT §4 for evaluation,
// CONTRACT §5 for development round 2). All fractions are exact.
type Thresholds struct {
	// Tasks is the number of eligible tasks required (8, or 4 in development).
	Tasks int `json:"tasks"`
	// Repetitions is the number of repetitions per task (3, or 1 per round).
	Repetitions int `json:"repetitions"`
	// MinTasksImproved is the number of tasks with a positive improvement
	// required (4 of 8, or 2 of 4).
	MinTasksImproved int `json:"min_tasks_improved"`
	// TaskMedianR (0.80), MacroMedianR (0.90), MinGain (0.10), MaxTaskLoss
	// (0.05) are the quality thresholds, all inclusive. The cost/time ratio
	// bounds (1.10, 1.15, 1.25) belong to the accounting gates.
	TaskMedianR  Fraction `json:"task_median_r"`
	MacroMedianR Fraction `json:"macro_median_r"`
	MinGain      Fraction `json:"min_gain"`
	MaxTaskLoss  Fraction `json:"max_task_loss"`
}

// PhaseThresholds returns the thresholds of a phase: CONTRACT §4 for
// evaluation and CONTRACT §5 for both development rounds (round 1 is
// reported against round 2's numbers but never decided).
func PhaseThresholds(p campaign.Phase) Thresholds {
	t := Thresholds{Tasks: 8, Repetitions: 3, MinTasksImproved: 4,
		TaskMedianR: Frac(4, 5), MacroMedianR: Frac(9, 10), MinGain: Frac(1, 10), MaxTaskLoss: Frac(1, 20)}
	if p != campaign.PhaseEvaluation {
		t.Tasks, t.Repetitions, t.MinTasksImproved = 4, 1, 2
	}
	return t
}

func fracOrUnknown(f *Fraction) string {
	if f == nil {
		return "unknown"
	}
	return f.Decimal() + " (" + f.String() + ")"
}

// atLeast reports f ≥ t exactly; nil (unknown) never passes.
func atLeast(f *Fraction, t Fraction) bool { return f != nil && f.Cmp(t) >= 0 }

// atMost reports f ≤ t exactly; nil (unknown) never passes.
func atMost(f *Fraction, t Fraction) bool { return f != nil && f.Cmp(t) <= 0 }

func newGate(id, rule string, checks []GateCheck) DecisionGate {
	g := DecisionGate{ID: id, Rule: rule, Pass: true, Checks: checks}
	for _, c := range checks {
		g.Pass = g.Pass && c.Pass
	}
	if len(checks) == 0 {
		g.Pass = false // a gate with nothing to check has not been shown to pass
		g.Checks = []GateCheck{{ID: "observations", Observed: "none", Threshold: "at least one", Pass: false}}
	}
	return g
}

// Gate IDs, in report order.
const (
	GateCondition1 = "condition-1-safety-source"
	GateCondition2 = "condition-2-coverage"
	GateCondition3 = "condition-3-improvement"
	GateCondition4 = "condition-4-protocol"
	// GateAccounting stands for every cost-and-time gate when no accounting
	// was measured at all; otherwise each accounting gate keeps its own name
	// (GateCostAggregate, GateTimePairedWorkflow, ...).
	GateAccounting = "cost-and-time"
	GateOracle     = "oracle"
)

// decide evaluates the prerequisites, every gate and the decision in place.
func decide(sc *Scorecard) {
	th := PhaseThresholds(sc.Phase)
	var eligible []TaskScore
	for _, t := range sc.Tasks {
		if t.Eligible {
			eligible = append(eligible, t)
		}
	}
	// Prerequisites added by the scorer: enough eligible tasks and every
	// planned review present for both arms.
	sc.Prerequisites = append(sc.Prerequisites, Prerequisite{ID: "eligible-tasks", OK: len(eligible) >= th.Tasks,
		Detail: fmt.Sprintf("%d of %d required eligible tasks (CONTRACT §3: otherwise stop without an evaluation claim)", len(eligible), th.Tasks)})
	var short []string
	for _, t := range sc.Tasks {
		if t.A.Runs != th.Repetitions || t.B.Runs != th.Repetitions {
			short = append(short, fmt.Sprintf("%s has %d A and %d B of %d", t.Task, t.A.Runs, t.B.Runs, th.Repetitions))
		}
	}
	sc.Prerequisites = appendPlanned(sc.Prerequisites, "planned-reviews",
		fmt.Sprintf("every task has %d review(s) per arm (CONTRACT §2)", th.Repetitions), short)

	var bRuns []RunScore
	for _, r := range sc.Runs {
		if r.Arm == ArmB {
			bRuns = append(bRuns, r)
		}
	}
	protoFail := 0
	for _, r := range bRuns {
		if r.ProtocolGate == nil || !*r.ProtocolGate {
			protoFail++
		}
	}
	nB := len(bRuns)

	var gates []DecisionGate
	gates = append(gates, safetySourceGate("CONTRACT §4 condition 1", bRuns, "B reviews"))
	medians := make([]TaskMedian, 0, len(eligible))
	for _, t := range eligible {
		medians = append(medians, TaskMedian{Task: t.Task, MedianR: t.B.MedianR})
	}
	gates = append(gates, coverageGate("CONTRACT §4 condition 2", medians, sc.MacroMedianRB, sc.UncertaintyCredited, sc.UncertaintyCases, th))

	improved := 0
	var c3 []GateCheck
	c3 = append(c3, GateCheck{ID: "macro-gain", Observed: fracOrUnknown(sc.MacroGain), Threshold: "≥ " + th.MinGain.Decimal(),
		Pass: atLeast(sc.MacroGain, th.MinGain)})
	var losses []GateCheck
	for _, t := range eligible {
		if t.Improved {
			improved++
		}
		var loss *Fraction
		if t.DeltaR != nil {
			l := sub(Frac(0, 1), *t.DeltaR)
			loss = &l
		}
		losses = append(losses, GateCheck{ID: "task-loss:" + t.Task, Observed: fracOrUnknown(loss),
			Threshold: "≤ " + th.MaxTaskLoss.Decimal(), Pass: atMost(loss, th.MaxTaskLoss)})
	}
	c3 = append(c3, GateCheck{ID: "tasks-improved", Observed: fmt.Sprintf("%d of %d", improved, len(eligible)),
		Threshold: fmt.Sprintf("≥ %d of %d", th.MinTasksImproved, th.Tasks), Pass: improved >= th.MinTasksImproved})
	c3 = append(c3, losses...)
	gates = append(gates, newGate(GateCondition3, "CONTRACT §4 condition 3", c3))

	gates = append(gates, newGate(GateCondition4, "CONTRACT §4 condition 4; EVALUATOR-CONTROLS C11", []GateCheck{
		{ID: "protocol-gate", Observed: fmt.Sprintf("%d of %d B reviews fail", protoFail, nB), Threshold: "0", Pass: protoFail == 0 && nB > 0},
	}))

	gates = append(gates, accountingDecisionGates(sc.Accounting)...)
	var defects []string
	for _, t := range sc.Tasks {
		for _, o := range t.OracleDefects {
			defects = append(defects, t.Task+"/"+o)
		}
	}
	gates = append(gates, oracleGate(defects))
	sc.Gates = gates

	d := Decision{}
	d.FailingGates, d.FailedPrerequisites = failures(gates, sc.Prerequisites)
	if sc.MacroMedianRA != nil {
		headroom := sub(Frac(1, 1), *sc.MacroMedianRA)
		d.ACeiling = headroom.Cmp(th.MinGain) < 0
	}
	gain := atLeast(sc.MacroGain, th.MinGain)
	switch {
	case len(d.FailedPrerequisites) > 0:
		d.Kind = DecisionExecutionInvalid
		d.Summary = "Execution invalid: no product verdict; failed prerequisite(s): " + strings.Join(d.FailedPrerequisites, ", ") + "."
	case sc.Phase == campaign.PhaseDevelopmentRound1:
		d.Kind = DecisionNoDecision
		d.Summary = "Development round 1 is inspected, not decided (CONTRACT §5)."
	case len(d.FailingGates) == 0:
		d.Kind = DecisionAllGatesPass
		d.Summary = "All gates pass: evidence for one downstream-review mechanism on this sample; no claim that any product wins."
	case gain:
		d.Kind = DecisionQualityImprovesGateFails
		d.Summary = "Quality improves but gate(s) fail: " + strings.Join(d.FailingGates, ", ") + "; do not advance."
	default:
		d.Kind = DecisionNoGain
		d.Summary = "No ≥0.10 macro-average gain"
		if d.ACeiling {
			d.Summary += " (A ceiling)"
		}
		d.Summary += "; stop. Failing gate(s): " + strings.Join(d.FailingGates, ", ") + "."
	}
	sc.Decision = d
}

// TaskMedian is one eligible task's median coverage for the coverage floor
// (R in CONTRACT §4, R_sys in CONTRACT §6); nil when no run was scored.
type TaskMedian struct {
	Task    string
	MedianR *Fraction
}

// safetySourceGate is the absolute source and safety floor (CONTRACT §4
// condition 1) over the candidate's reviews runs: zero critical wrong
// claims, zero critical obligation failures and every source gate passing.
// noun names the reviews in the observations ("B reviews"); no review at
// all fails every check. The system comparison applies the same floor to
// each system (CONTRACT §6).
func safetySourceGate(rule string, runs []RunScore, noun string) DecisionGate {
	n := len(runs)
	critWrong, unscorable, critFail, srcFail := 0, 0, 0, 0
	for _, r := range runs {
		if r.Claims == nil {
			unscorable++
		} else {
			critWrong += r.Claims.CriticalWrong
		}
		if r.CriticalCompletionFailed {
			critFail++
		}
		if !r.SourceGate {
			srcFail++
		}
	}
	return newGate(GateCondition1, rule, []GateCheck{
		{ID: "critical-wrong-claims", Observed: fmt.Sprintf("%d in %d %s (%d unscorable)", critWrong, n, noun, unscorable), Threshold: "0", Pass: critWrong == 0 && n > 0},
		{ID: "critical-obligation-failures", Observed: fmt.Sprintf("%d of %d %s", critFail, n, noun), Threshold: "0", Pass: critFail == 0 && n > 0},
		{ID: "source-gate", Observed: fmt.Sprintf("%d of %d %s fail", srcFail, n, noun), Threshold: "0", Pass: srcFail == 0 && n > 0},
	})
}

// coverageGate is the absolute final-plan floor (CONTRACT §4 condition 2):
// every eligible task's median coverage at least th.TaskMedianR, the
// macro-average at least th.MacroMedianR, and every required
// uncertainty-handling case credited. The system comparison applies it
// with R_sys for R (CONTRACT §6).
func coverageGate(rule string, tasks []TaskMedian, macro *Fraction, credited, cases int, th Thresholds) DecisionGate {
	var c2 []GateCheck
	for _, t := range tasks {
		c2 = append(c2, GateCheck{ID: "task-median-r:" + t.Task, Observed: fracOrUnknown(t.MedianR),
			Threshold: "≥ " + th.TaskMedianR.Decimal(), Pass: atLeast(t.MedianR, th.TaskMedianR)})
	}
	c2 = append(c2, GateCheck{ID: "macro-median-r", Observed: fracOrUnknown(macro),
		Threshold: "≥ " + th.MacroMedianR.Decimal(), Pass: atLeast(macro, th.MacroMedianR)})
	c2 = append(c2, GateCheck{ID: "uncertainty-cases", Observed: fmt.Sprintf("%d of %d credited", credited, cases),
		Threshold: "all", Pass: credited == cases})
	return newGate(GateCondition2, rule, c2)
}

// failures lists the IDs of the failing gates and of the failed
// prerequisites, in their order (empty, never nil).
func failures(gates []DecisionGate, prereqs []Prerequisite) (failing, failed []string) {
	failing, failed = []string{}, []string{}
	for _, g := range gates {
		if !g.Pass {
			failing = append(failing, g.ID)
		}
	}
	for _, p := range prereqs {
		if !p.OK {
			failed = append(failed, p.ID)
		}
	}
	return failing, failed
}

// appendPlanned appends the scorer's prerequisite id that every planned
// session is present, then sorts prereqs by ID: it holds when short (one
// entry per task that falls short) is empty, with detail want; otherwise
// its detail lists short.
func appendPlanned(prereqs []Prerequisite, id, want string, short []string) []Prerequisite {
	pr := Prerequisite{ID: id, OK: len(short) == 0, Detail: want}
	if len(short) > 0 {
		pr.Detail = strings.Join(short, "; ")
	}
	prereqs = append(prereqs, pr)
	slices.SortFunc(prereqs, func(a, b Prerequisite) int { return strings.Compare(a.ID, b.ID) })
	return prereqs
}

// oracleGate fails on any confirmed oracle defect ("task/obligation"):
// the affected task and the campaign gate are invalidated (CONTRACT §5;
// EVALUATOR-CONTROLS C22).
func oracleGate(defects []string) DecisionGate {
	return newGate(GateOracle, "CONTRACT §5; EVALUATOR-CONTROLS C22", []GateCheck{{ID: "oracle-defects",
		Observed: fmt.Sprintf("%d confirmed: %s", len(defects), strings.Join(defects, ", ")), Threshold: "0", Pass: len(defects) == 0}})
}

// ReasonNoAccounting: no accounting report was handed to the scorer, so
// every cost and time value is unknown and the cost-and-time gate fails.
const ReasonNoAccounting verr.Reason = "no-accounting"

// accountingDecisionGates turns each accounting gate (cost basis, aggregate,
// task-median and paired-workflow ratios for cost and for time, per-session
// limits, shared-draft billing) into an independent decision gate of its own
// name. Without an accounting report one failing gate says so.
func accountingDecisionGates(acct *AccountingReport) []DecisionGate {
	if acct == nil {
		return []DecisionGate{newGate(GateAccounting, "CONTRACT §4 Complete cost and time", []GateCheck{{ID: string(ReasonNoAccounting),
			Observed: "unknown", Threshold: "measured", Pass: false}})}
	}
	out := make([]DecisionGate, 0, len(acct.Gates))
	for _, g := range acct.Gates {
		id := "within-bound"
		if !g.Pass {
			id = string(g.Reason)
		}
		out = append(out, DecisionGate{ID: g.Name, Rule: "CONTRACT §4 Complete cost and time; CONTRACT §5; EVALUATOR-CONTROLS C14, C20, C21",
			Pass: g.Pass, Checks: []GateCheck{{ID: id, Observed: g.Detail, Threshold: accountingThreshold(g.Name), Pass: g.Pass}}})
	}
	return out
}

func accountingThreshold(name string) string {
	switch name {
	case GateCostAggregate, GateTimeAggregate:
		return "≤ 1.10"
	case GateCostTaskMedian, GateTimeTaskMedian:
		return "≤ 1.15"
	case GateCostPairedWorkflow, GateTimePairedWorkflow:
		return "≤ 1.25"
	case GateSessionDuration:
		return "≤ 4 min"
	case GateSessionInput:
		return "≤ 90,000"
	case GateSessionOutput:
		return "≤ 8,000"
	case GateCostBasis, GateTimeBasis:
		return "verified tariff, every value measured"
	case GateSharedDraftBilling:
		return "shared draft billed once"
	}
	return "pass"
}
