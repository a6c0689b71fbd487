package scorer

import (
	"cmp"
	"fmt"
	"slices"

	"verdict/campaign"
	"verdict/internal/par"
	"verdict/verr"
)

// TaskInput is one task as the scorer needs it: identity, repository,
// category and its frozen truth obligations (CONTRACT §3).
type TaskInput struct {
	ID          string                     `json:"id"`
	Repository  string                     `json:"repository"`
	Category    campaign.Category          `json:"category"`
	Obligations []campaign.TruthObligation `json:"-"`
}

// Prerequisite is one execution-validity prerequisite (CONTRACT §4–§5,
// C15, C17, C18): its ID, whether it holds, and what failed.
type Prerequisite struct {
	ID     string `json:"id"`
	OK     bool   `json:"ok"`
	Detail string `json:"detail"`
}

// ScoreInput is the whole input of Evaluate: the campaign identity and
// phase, tasks, every review session's RunInput, the accounting report and
// the execution-validity prerequisites.
type ScoreInput struct {
	CampaignID string         `json:"campaign_id"`
	Synthetic  bool           `json:"synthetic"`
	Phase      campaign.Phase `json:"phase"`
	Tasks      []TaskInput    `json:"tasks"`
	Runs       []RunInput     `json:"runs"`
	// Accounting is the complete cost-and-time accounting and its gates
	// (CONTRACT §4–§5); nil means unmeasured and fails the cost/time gate.
	Accounting    *AccountingReport `json:"-"`
	Prerequisites []Prerequisite    `json:"prerequisites"`
	// Systems is the system comparison's score input (CONTRACT §6); nil
	// for the first experiment. EvaluateSystemComparison reads it.
	Systems *SystemScoreInput `json:"-"`
}

// ArmTaskScore is one arm's aggregate over a task's repetitions.
type ArmTaskScore struct {
	// Runs is the number of review sessions (repetitions) of the arm.
	Runs int `json:"runs"`
	// R lists each repetition's R in repetition order.
	R []Fraction `json:"r"`
	// MedianR is the task-median R over repetitions; MinR is its low tail.
	MedianR *Fraction `json:"median_r"`
	MinR    *Fraction `json:"min_r"`
	// MedianU is the median U; nil when the task has no unanswerable obligation.
	MedianU *Fraction `json:"median_u"`
	// CriticalCompletionFailures, SourceGateFailures and ValidFailures
	// count runs, out of Runs.
	CriticalCompletionFailures int `json:"critical_completion_failures"`
	SourceGateFailures         int `json:"source_gate_failures"`
	ValidFailures              int `json:"valid_failures"`
}

// TaskScore is one task's scorecard row (CONTRACT §4 "task medians").
type TaskScore struct {
	Task       string            `json:"task"`
	Repository string            `json:"repository"`
	Category   campaign.Category `json:"category"`
	// Eligible is false for a task invalidated by a confirmed oracle defect
	// (C22) or with fewer than two answerable obligations.
	Eligible         bool         `json:"eligible"`
	IneligibleReason string       `json:"ineligible_reason,omitempty"`
	OracleDefects    []string     `json:"oracle_defects"`
	Answerable       int          `json:"answerable_obligations"`
	Unanswerable     int          `json:"unanswerable_obligations"`
	A                ArmTaskScore `json:"a"`
	B                ArmTaskScore `json:"b"`
	// DeltaR is B's minus A's task-median R.
	DeltaR *Fraction `json:"delta_r"`
	// Improved is DeltaR > 0; Regressed is a decrease greater than 0.05.
	Improved  bool `json:"improved"`
	Regressed bool `json:"regressed"`
	// CostRatio and TimeRatio are the accounting's B/A task-median ratios.
	CostRatio Ratio `json:"cost_ratio"`
	TimeRatio Ratio `json:"time_ratio"`
}

// PairOutcome is one repetition's paired A/B outcome (CONTRACT §2: every
// paired review outcome is reported).
type PairOutcome struct {
	Task       string         `json:"task"`
	Repetition int            `json:"repetition"`
	Order      campaign.Order `json:"order"`
	ASession   string         `json:"a_session"`
	BSession   string         `json:"b_session"`
	AOutcome   RunOutcome     `json:"a_outcome"`
	BOutcome   RunOutcome     `json:"b_outcome"`
	AR         Fraction       `json:"a_r"`
	BR         Fraction       `json:"b_r"`
	DeltaR     Fraction       `json:"delta_r"`
	// CostRatio and TimeRatio are the accounting's paired complete-workflow
	// B/A ratios (unknown when the accounting has no such pair).
	CostRatio Ratio `json:"cost_ratio"`
	TimeRatio Ratio `json:"time_ratio"`
}

// RepositorySummary aggregates a repository's eligible tasks.
type RepositorySummary struct {
	Repository string   `json:"repository"`
	Tasks      []string `json:"tasks"`
	// MeanMedianRA and MeanMedianRB are means of the task-median R.
	MeanMedianRA *Fraction `json:"mean_median_r_a"`
	MeanMedianRB *Fraction `json:"mean_median_r_b"`
	Improved     int       `json:"tasks_improved"`
}

// Scorecard is Evaluate's result: every run, task, pair and repository, the
// independent gates and the decision (CONTRACT §4).
type Scorecard struct {
	CampaignID    string              `json:"campaign_id"`
	Synthetic     bool                `json:"synthetic"`
	Phase         campaign.Phase      `json:"phase"`
	Runs          []RunScore          `json:"runs"`
	Tasks         []TaskScore         `json:"tasks"`
	Pairs         []PairOutcome       `json:"pairs"`
	Repositories  []RepositorySummary `json:"repositories"`
	MacroMedianRA *Fraction           `json:"macro_median_r_a"`
	MacroMedianRB *Fraction           `json:"macro_median_r_b"`
	MacroGain     *Fraction           `json:"macro_gain"`
	// UncertaintyCredited/UncertaintyCases count B's unanswerable
	// obligations credited across all B reviews (condition 2).
	UncertaintyCredited int `json:"uncertainty_credited_b"`
	UncertaintyCases    int `json:"uncertainty_cases_b"`
	// Accounting is the complete cost-and-time accounting (nil: unmeasured).
	Accounting    *AccountingReport `json:"accounting"`
	Prerequisites []Prerequisite    `json:"prerequisites"`
	Gates         []DecisionGate    `json:"gates"`
	Decision      Decision          `json:"decision"`
	// Systems is the system comparison's scorecard (CONTRACT §6); nil and
	// absent from report.json for the first experiment.
	Systems *SystemScorecard `json:"systems,omitempty"`
}

// Evaluate scores every run (ScoreRun), aggregates tasks, pairs and
// repositories, evaluates every gate independently and takes the decision
// (CONTRACT §4; CONTRACT §5 for development round 2). It returns an error
// only when a run cannot be scored (missing or unexpected grades, a run for
// an unknown task) or when an accounting gate is recorded as passing while
// its own checks fail (ReasonGateOrEscape, CheckGateIndependence: no gate is
// met through another, C21); refusals are *verr.Error values.
func Evaluate(in ScoreInput) (*Scorecard, error) {
	if err := gateIndependenceError(in.Accounting); err != nil {
		return nil, err
	}
	sc := &Scorecard{CampaignID: in.CampaignID, Synthetic: in.Synthetic, Phase: in.Phase,
		Accounting: in.Accounting, Prerequisites: slices.Clone(in.Prerequisites)}
	slices.SortFunc(sc.Prerequisites, func(a, b Prerequisite) int { return cmp.Compare(a.ID, b.ID) })
	tasks := slices.Clone(in.Tasks)
	slices.SortFunc(tasks, func(a, b TaskInput) int { return naturalCompare(a.ID, b.ID) })
	byTask := map[string]*TaskInput{}
	for i := range tasks {
		byTask[tasks[i].ID] = &tasks[i]
	}
	// The runs are scored side by side; the refusal is the first run's in
	// input order, as one after the other.
	runs := make([]RunScore, len(in.Runs))
	errs := make([]error, len(in.Runs))
	par.For(len(in.Runs), func(_, i int) {
		r := in.Runs[i]
		t, ok := byTask[r.Task]
		if !ok {
			errs[i] = &verr.Error{Reason: ReasonUnexpectedGrade, File: campaign.ResponsePath(r.Session), Rule: "CONTRACT §4",
				Detail: fmt.Sprintf("run for unknown task %q", r.Task)}
			return
		}
		runs[i], errs[i] = ScoreRun(t.Obligations, r)
	})
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	slices.SortFunc(runs, func(a, b RunScore) int {
		if c := naturalCompare(a.Task, b.Task); c != 0 {
			return c
		}
		if c := cmp.Compare(a.Repetition, b.Repetition); c != 0 {
			return c
		}
		return cmp.Compare(a.Arm, b.Arm)
	})
	sc.Runs = runs

	runsByTask := map[string][]RunScore{}
	for _, r := range runs {
		runsByTask[r.Task] = append(runsByTask[r.Task], r)
	}
	for _, t := range tasks {
		sc.Tasks = append(sc.Tasks, scoreTask(t, runsByTask[t.ID], in.Accounting))
	}
	sc.Pairs = pairOutcomes(runs, in.Accounting)
	sc.Repositories = repositorySummaries(sc.Tasks)
	var ma, mb []Fraction
	for _, t := range sc.Tasks {
		if t.Eligible && t.A.MedianR != nil && t.B.MedianR != nil {
			ma = append(ma, *t.A.MedianR)
			mb = append(mb, *t.B.MedianR)
		}
	}
	sc.MacroMedianRA, sc.MacroMedianRB = MeanFraction(ma), MeanFraction(mb)
	if sc.MacroMedianRA != nil && sc.MacroMedianRB != nil {
		g := sub(*sc.MacroMedianRB, *sc.MacroMedianRA)
		sc.MacroGain = &g
	}
	for _, r := range runs {
		if r.Arm == ArmB && r.U != nil {
			sc.UncertaintyCases += int(r.U.Den())
			sc.UncertaintyCredited += int(r.U.Num())
		}
	}
	decide(sc)
	return sc, nil
}

func scoreTask(t TaskInput, runs []RunScore, acct *AccountingReport) TaskScore {
	ts := TaskScore{Task: t.ID, Repository: t.Repository, Category: t.Category, Eligible: true, OracleDefects: []string{}}
	for _, o := range t.Obligations {
		if o.Answerable {
			ts.Answerable++
		} else {
			ts.Unanswerable++
		}
	}
	arm := func(a Arm) ArmTaskScore {
		s := ArmTaskScore{R: []Fraction{}}
		var us []Fraction
		for _, r := range runs {
			if r.Task != t.ID || r.Arm != a {
				continue
			}
			s.Runs++
			s.R = append(s.R, r.R)
			if r.U != nil {
				us = append(us, *r.U)
			}
			if r.CriticalCompletionFailed {
				s.CriticalCompletionFailures++
			}
			if !r.SourceGate {
				s.SourceGateFailures++
			}
			if r.Outcome != OutcomeAnswered {
				s.ValidFailures++
			}
			ts.OracleDefects = append(ts.OracleDefects, r.OracleDefects...)
		}
		s.MedianR = MedianFraction(s.R)
		if len(s.R) > 0 {
			mn := slices.MinFunc(s.R, func(x, y Fraction) int { return x.Cmp(y) })
			s.MinR = &mn
		}
		s.MedianU = MedianFraction(us)
		return s
	}
	ts.A, ts.B = arm(ArmA), arm(ArmB)
	slices.SortFunc(ts.OracleDefects, naturalCompare)
	ts.OracleDefects = slices.Compact(ts.OracleDefects)
	switch {
	case len(ts.OracleDefects) > 0:
		ts.Eligible = false
		ts.IneligibleReason = "oracle defect confirmed in adjudication (EVALUATOR-CONTROLS C22)"
	case ts.Answerable < 2:
		ts.Eligible = false
		ts.IneligibleReason = "fewer than two answerable obligations (CONTRACT §4)"
	}
	if ts.A.MedianR != nil && ts.B.MedianR != nil {
		d := sub(*ts.B.MedianR, *ts.A.MedianR)
		ts.DeltaR = &d
		ts.Improved = d.Rat().Sign() > 0
		ts.Regressed = d.Rat().Cmp(Frac(-1, 20).Rat()) < 0
	}
	ts.CostRatio, ts.TimeRatio = Ratio{Why: ReasonNoAccounting}, Ratio{Why: ReasonNoAccounting}
	if acct != nil {
		if i := slices.IndexFunc(acct.Tasks, func(ta TaskAccount) bool { return ta.Task == t.ID }); i >= 0 {
			ts.CostRatio, ts.TimeRatio = acct.Tasks[i].CostRatio, acct.Tasks[i].TimeRatio
		}
	}
	return ts
}

func pairOutcomes(runs []RunScore, acct *AccountingReport) []PairOutcome {
	type pk struct {
		task string
		rep  int
	}
	idx := map[pk][2]*RunScore{}
	var keys []pk
	for i := range runs {
		r := &runs[i]
		k := pk{r.Task, r.Repetition}
		e, seen := idx[k]
		if !seen {
			keys = append(keys, k)
		}
		if r.Arm == ArmA {
			e[0] = r
		} else {
			e[1] = r
		}
		idx[k] = e
	}
	acctPairs := map[pk]*PairAccount{}
	if acct != nil {
		for i := range acct.Pairs {
			pa := &acct.Pairs[i]
			acctPairs[pk{pa.Task, pa.Repetition}] = pa
		}
	}
	out := []PairOutcome{}
	for _, k := range keys {
		e := idx[k]
		if e[0] == nil || e[1] == nil {
			continue
		}
		a, b := e[0], e[1]
		p := PairOutcome{Task: k.task, Repetition: k.rep, Order: b.Order, ASession: a.Session, BSession: b.Session,
			AOutcome: a.Outcome, BOutcome: b.Outcome, AR: a.R, BR: b.R, DeltaR: sub(b.R, a.R)}
		p.CostRatio, p.TimeRatio = Ratio{Why: ReasonNoAccounting}, Ratio{Why: ReasonNoAccounting}
		if pa, ok := acctPairs[k]; ok {
			p.CostRatio, p.TimeRatio = pa.CostRatio, pa.TimeRatio
		}
		out = append(out, p)
	}
	return out
}

func repositorySummaries(tasks []TaskScore) []RepositorySummary {
	byRepo := map[string]*RepositorySummary{}
	var names []string
	ra, rb := map[string][]Fraction{}, map[string][]Fraction{}
	for _, t := range tasks {
		s, ok := byRepo[t.Repository]
		if !ok {
			s = &RepositorySummary{Repository: t.Repository, Tasks: []string{}}
			byRepo[t.Repository] = s
			names = append(names, t.Repository)
		}
		s.Tasks = append(s.Tasks, t.Task)
		if !t.Eligible {
			continue
		}
		if t.A.MedianR != nil {
			ra[t.Repository] = append(ra[t.Repository], *t.A.MedianR)
		}
		if t.B.MedianR != nil {
			rb[t.Repository] = append(rb[t.Repository], *t.B.MedianR)
		}
		if t.Improved {
			s.Improved++
		}
	}
	slices.Sort(names)
	out := make([]RepositorySummary, 0, len(names))
	for _, n := range names {
		s := byRepo[n]
		s.MeanMedianRA, s.MeanMedianRB = MeanFraction(ra[n]), MeanFraction(rb[n])
		out = append(out, *s)
	}
	return out
}
