package scorer

import (
	"fmt"
	"slices"
	"strings"

	"verdict/campaign"
)

// Gate IDs of the system comparison (CONTRACT §6), in report order after
// the candidate's floors (GateCondition1, GateCondition2, GateOracle).
const (
	GateNativeSuiteCost       = "madar-vs-native-suite-cost"
	GateNativeSuiteTime       = "madar-vs-native-suite-time"
	GateNativeCriticalQuality = "madar-vs-native-critical-quality"
	GateNativeTaskMedianCost  = "madar-vs-native-task-median-cost"
	GateNativeTaskMedianTime  = "madar-vs-native-task-median-time"
	GateNativePairedCost      = "madar-vs-native-paired-cost"
	GateNativePairedTime      = "madar-vs-native-paired-time"
	GateSerenaMacroQuality    = "madar-vs-serena-macro-quality"
	GateSerenaSuiteCost       = "madar-vs-serena-suite-cost"
	GateSerenaSuiteTime       = "madar-vs-serena-suite-time"
	GateSerenaTaskMedianCost  = "madar-vs-serena-task-median-cost"
	GateSerenaTaskMedianTime  = "madar-vs-serena-task-median-time"
	GateSerenaPairedCost      = "madar-vs-serena-paired-cost"
	GateSerenaPairedTime      = "madar-vs-serena-paired-time"
)

// criticalFailure reports a review's critical failure: a critical
// obligation failed (or the run is a failure) or a critical claim was
// graded wrong or unsupported.
func criticalFailure(r RunScore) bool {
	return r.CriticalCompletionFailed || (r.Claims != nil && (r.Claims.CriticalWrong > 0 || r.Claims.CriticalUnsupported > 0))
}

// systemScore aggregates one system's workflows: tasks, U set, packet
// support, charges and the absolute floors.
func systemScore(s campaign.SystemName, tasks []TaskInput, workflows []SystemWorkflowScore, setup []SetupCharge, th SystemThresholds) SystemScore {
	ss := SystemScore{System: s, Tasks: []SystemTaskScore{}, ColdFirst: []ColdFirstTask{}, Setup: zeroCharge(), Warm: zeroCharge()}
	var runs []RunScore
	var supported, answerable int64
	supportKnown := true
	for _, w := range workflows {
		if w.System != s {
			continue
		}
		ss.Workflows++
		runs = append(runs, w.Review)
		ss.Warm = ss.Warm.Add(w.Warm)
		ss.TruthfulUnknowns += w.TruthfulUnknowns
		if w.Review.U != nil {
			ss.UncertaintyCases += int(w.Review.U.Den())
			ss.UncertaintyCredited += int(w.Review.U.Num())
		}
		switch w.Review.Outcome {
		case OutcomeInvestigationFailure:
			ss.InvestigationFailures++
		case OutcomeValidFailure:
			ss.ValidFailures++
		}
		if w.PacketSupported == nil {
			supportKnown = false
		} else {
			supported += w.PacketSupported.Num()
			answerable += w.PacketSupported.Den()
		}
		if w.Cold {
			ss.ColdFirst = append(ss.ColdFirst, ColdFirstTask{Repository: w.Repository, Task: w.Task, Repetition: w.Repetition, Charge: w.Complete})
		}
	}
	if supportKnown && answerable > 0 {
		f := Frac(supported, answerable)
		ss.PacketSupported = &f
	}
	for _, c := range setup {
		if c.System == s {
			ss.Setup = ss.Setup.Add(c.SystemCharge)
		}
	}
	ss.Suite = ss.Warm.Add(ss.Setup)

	var medians []TaskMedian
	var macro []Fraction
	var defects []string
	for _, t := range tasks {
		ts := systemTaskScore(t, s, workflows)
		ss.Tasks = append(ss.Tasks, ts)
		for _, w := range workflows {
			if w.System == s && w.Task == t.ID {
				for _, o := range w.Review.OracleDefects {
					defects = append(defects, t.ID+"/"+o)
				}
			}
		}
		if ts.Eligible {
			medians = append(medians, TaskMedian{Task: t.ID, MedianR: ts.MedianRSys})
			if ts.MedianRSys != nil {
				macro = append(macro, *ts.MedianRSys)
			}
		}
	}
	slices.Sort(defects)
	defects = slices.Compact(defects)
	ss.MacroMedianRSys = MeanFraction(macro)
	noun := SystemTitle(s) + " reviews"
	ss.Floors = []DecisionGate{
		safetySourceGate("CONTRACT §6 with CONTRACT §4 condition 1", runs, noun),
		coverageGate("CONTRACT §6 with CONTRACT §4 condition 2, R_sys for R", medians, ss.MacroMedianRSys, ss.UncertaintyCredited, ss.UncertaintyCases, th.Floors),
		oracleGate(defects),
	}
	ss.MeetsRequiredQuality = true
	for _, g := range ss.Floors {
		ss.MeetsRequiredQuality = ss.MeetsRequiredQuality && g.Pass
	}
	return ss
}

// systemTaskScore is one system's row of one task.
func systemTaskScore(t TaskInput, s campaign.SystemName, workflows []SystemWorkflowScore) SystemTaskScore {
	ts := SystemTaskScore{Task: t.ID, Repository: t.Repository, Eligible: true, RSys: []Fraction{}}
	answerable := 0
	for _, o := range t.Obligations {
		if o.Answerable {
			answerable++
		}
	}
	var us, ps []Fraction
	var costs []Money
	var times []Nanos
	defect := false
	for _, w := range workflows {
		if w.System != s || w.Task != t.ID {
			continue
		}
		ts.Runs++
		ts.RSys = append(ts.RSys, w.RSys)
		if w.Review.U != nil {
			us = append(us, *w.Review.U)
		}
		if w.PacketSupported != nil {
			ps = append(ps, *w.PacketSupported)
		}
		if w.Review.CriticalCompletionFailed {
			ts.CriticalCompletionFailures++
		}
		if !w.Review.SourceGate {
			ts.SourceGateFailures++
		}
		switch w.Review.Outcome {
		case OutcomeInvestigationFailure:
			ts.InvestigationFailures++
		case OutcomeValidFailure:
			ts.ValidFailures++
		}
		defect = defect || len(w.Review.OracleDefects) > 0
		costs = append(costs, w.Complete.Cost)
		times = append(times, w.Complete.Time)
	}
	ts.MedianRSys = MedianFraction(ts.RSys)
	if len(ts.RSys) > 0 {
		mn := slices.MinFunc(ts.RSys, func(x, y Fraction) int { return x.Cmp(y) })
		ts.MinRSys = &mn
	}
	ts.MedianU = MedianFraction(us)
	if len(ps) == ts.Runs {
		ts.MedianPacketSupported = MedianFraction(ps)
	}
	ts.MedianCost = Fractional[PicoUSD]{Median(costs)}
	ts.MedianTime = Fractional[Nanosecond]{Median(times)}
	ts.Eligible = !defect && answerable >= 2
	return ts
}

// compareSystems pairs Madar's workflows with the comparator's on the same
// task and repetition.
func compareSystems(sc *SystemScorecard, other campaign.SystemName) SystemComparison {
	c := SystemComparison{Comparator: other, Pairs: []SystemPair{}, Tasks: []SystemTaskComparison{}}
	type key struct {
		task string
		rep  int
	}
	mine, theirs := map[key]*SystemWorkflowScore{}, map[key]*SystemWorkflowScore{}
	var keys []key
	for i := range sc.Workflows {
		w := &sc.Workflows[i]
		k := key{w.Task, w.Repetition}
		switch w.System {
		case campaign.SystemMadar:
			mine[k] = w
			keys = append(keys, k)
		case other:
			theirs[k] = w
		}
	}
	slices.SortFunc(keys, func(a, b key) int {
		if d := naturalCompare(a.task, b.task); d != 0 {
			return d
		}
		return a.rep - b.rep
	})
	for _, k := range keys {
		m, o := mine[k], theirs[k]
		if o == nil {
			continue
		}
		c.Pairs = append(c.Pairs, SystemPair{Task: k.task, Repetition: k.rep, MadarRSys: m.RSys, OtherRSys: o.RSys,
			DeltaRSys: sub(m.RSys, o.RSys), MadarCritical: criticalFailure(m.Review), OtherCritical: criticalFailure(o.Review),
			CostRatio: RatioOf(m.Complete.Cost, o.Complete.Cost), TimeRatio: RatioOf(m.Complete.Time, o.Complete.Time)})
	}
	ms, os := sc.System(campaign.SystemMadar), sc.System(other)
	for i, mt := range ms.Tasks {
		ot := os.Tasks[i]
		tc := SystemTaskComparison{Task: mt.Task, CostRatio: RatioOf(mt.MedianCost.Exact, ot.MedianCost.Exact),
			TimeRatio: RatioOf(mt.MedianTime.Exact, ot.MedianTime.Exact)}
		if mt.MedianRSys != nil && ot.MedianRSys != nil {
			d := sub(*mt.MedianRSys, *ot.MedianRSys)
			tc.DeltaMedianRSys = &d
		}
		c.Tasks = append(c.Tasks, tc)
	}
	c.SuiteCostRatio = RatioOf(ms.Suite.Cost, os.Suite.Cost)
	c.SuiteTimeRatio = RatioOf(ms.Suite.Time, os.Suite.Time)
	if ms.MacroMedianRSys != nil && os.MacroMedianRSys != nil {
		l := sub(*os.MacroMedianRSys, *ms.MacroMedianRSys)
		c.MacroLoss = &l
	}
	return c
}

// ratioAtMost reports a known ratio ≤ bound exactly; unknown never passes.
func ratioAtMost(r Ratio, bound Fraction) bool { return r.AtMost(bound.Num(), bound.Den()) }

// ratioCheck is one ratio against its inclusive bound.
func ratioCheck(id string, r Ratio, bound Fraction) GateCheck {
	obs := r.String()
	if r.Known {
		obs += " (" + r.RatString() + ")"
	}
	return GateCheck{ID: id, Observed: obs, Threshold: "≤ " + bound.Decimal(), Pass: ratioAtMost(r, bound)}
}

// comparisonGates are the gates of Madar against one comparator, each on
// its own (no gate met through another, EVALUATOR-CONTROLS C21).
func comparisonGates(c SystemComparison, th SystemThresholds) []DecisionGate {
	name := SystemTitle(c.Comparator)
	rule := "CONTRACT §6 against " + name
	taskGate := func(id, what string, get func(SystemTaskComparison) Ratio) DecisionGate {
		var cs []GateCheck
		for _, t := range c.Tasks {
			cs = append(cs, ratioCheck("task-median-"+what+":"+t.Task, get(t), th.MaxTaskMedian))
		}
		return newGate(id, rule+": no task-median "+what+" regression over 15%", cs)
	}
	pairGate := func(id, what string, get func(SystemPair) Ratio) DecisionGate {
		var cs []GateCheck
		for _, p := range c.Pairs {
			cs = append(cs, ratioCheck(fmt.Sprintf("paired-%s:%s/r%d", what, p.Task, p.Repetition), get(p), th.MaxPaired))
		}
		return newGate(id, rule+": no individual "+what+" regression over 25%", cs)
	}
	var gates []DecisionGate
	switch c.Comparator {
	case campaign.SystemNative:
		var cs []GateCheck
		for _, p := range c.Pairs {
			loss := p.MadarCritical && !p.OtherCritical
			obs := "no critical loss"
			if loss {
				obs = "Madar critical failure where Native has none"
			}
			cs = append(cs, GateCheck{ID: fmt.Sprintf("critical-loss:%s/r%d", p.Task, p.Repetition), Observed: obs, Threshold: "none", Pass: !loss})
		}
		gates = append(gates,
			newGate(GateNativeSuiteCost, rule+": total measured cost improves by at least 15%", []GateCheck{ratioCheck("suite-cost-ratio", c.SuiteCostRatio, th.MaxTotalVsNative)}),
			newGate(GateNativeSuiteTime, rule+": total elapsed time improves by at least 15%", []GateCheck{ratioCheck("suite-time-ratio", c.SuiteTimeRatio, th.MaxTotalVsNative)}),
			newGate(GateNativeCriticalQuality, rule+": no critical quality loss", cs),
			taskGate(GateNativeTaskMedianCost, "cost", func(t SystemTaskComparison) Ratio { return t.CostRatio }),
			taskGate(GateNativeTaskMedianTime, "time", func(t SystemTaskComparison) Ratio { return t.TimeRatio }),
			pairGate(GateNativePairedCost, "cost", func(p SystemPair) Ratio { return p.CostRatio }),
			pairGate(GateNativePairedTime, "time", func(p SystemPair) Ratio { return p.TimeRatio }),
		)
	case campaign.SystemSerena:
		gates = append(gates,
			newGate(GateSerenaMacroQuality, rule+": macro quality loss at most 0.05", []GateCheck{{ID: "macro-loss",
				Observed: fracOrUnknown(c.MacroLoss), Threshold: "≤ " + th.MaxMacroLossVsSerena.Decimal(), Pass: atMost(c.MacroLoss, th.MaxMacroLossVsSerena)}}),
			newGate(GateSerenaSuiteCost, rule+": aggregate cost regression at most 5%", []GateCheck{ratioCheck("suite-cost-ratio", c.SuiteCostRatio, th.MaxAggregateVsSerena)}),
			newGate(GateSerenaSuiteTime, rule+": aggregate time regression at most 5%", []GateCheck{ratioCheck("suite-time-ratio", c.SuiteTimeRatio, th.MaxAggregateVsSerena)}),
			taskGate(GateSerenaTaskMedianCost, "cost", func(t SystemTaskComparison) Ratio { return t.CostRatio }),
			taskGate(GateSerenaTaskMedianTime, "time", func(t SystemTaskComparison) Ratio { return t.TimeRatio }),
			pairGate(GateSerenaPairedCost, "cost", func(p SystemPair) Ratio { return p.CostRatio }),
			pairGate(GateSerenaPairedTime, "time", func(p SystemPair) Ratio { return p.TimeRatio }),
		)
	}
	return gates
}

// noMoreThan reports a ≤ b for two known amounts; unknown never holds.
func noMoreThan[U Unit](a, b Exact[U]) bool { return a.Known && b.Known && a.Cmp(b) <= 0 }

// decideSystems adds the scorer's prerequisites, evaluates every gate and
// takes the decision (CONTRACT §6).
func decideSystems(sc *SystemScorecard, tasks []TaskInput) {
	th := sc.Thresholds
	eligible := 0
	for _, t := range sc.System(campaign.SystemMadar).Tasks {
		if t.Eligible {
			eligible++
		}
	}
	sc.Prerequisites = append(sc.Prerequisites, Prerequisite{ID: "eligible-tasks", OK: eligible >= th.Tasks && len(tasks) == th.Tasks,
		Detail: fmt.Sprintf("%d eligible of %d tasks; %d required (CONTRACT §6)", eligible, len(tasks), th.Tasks)})
	var short []string
	for _, s := range campaign.SystemNames {
		for _, t := range sc.System(s).Tasks {
			if t.Runs != th.Repetitions {
				short = append(short, fmt.Sprintf("%s has %d %s workflow(s) of %d", t.Task, t.Runs, SystemTitle(s), th.Repetitions))
			}
		}
	}
	sc.Prerequisites = appendPlanned(sc.Prerequisites, "planned-workflows",
		fmt.Sprintf("every task has %d workflow(s) per system (CONTRACT §6)", th.Repetitions), short)

	madar := sc.System(campaign.SystemMadar)
	gates := slices.Clone(madar.Floors)
	for _, c := range sc.Comparisons {
		gates = append(gates, comparisonGates(c, th)...)
	}
	sc.Gates = gates

	d := SystemDecision{SimplerCheaper: []campaign.SystemName{}}
	d.FailingGates, d.FailedPrerequisites = failures(gates, sc.Prerequisites)
	for _, s := range []campaign.SystemName{campaign.SystemNative, campaign.SystemSerena} {
		o := sc.System(s)
		if o.MeetsRequiredQuality && noMoreThan(o.Suite.Cost, madar.Suite.Cost) && noMoreThan(o.Suite.Time, madar.Suite.Time) {
			d.SimplerCheaper = append(d.SimplerCheaper, s)
		}
	}
	switch {
	case len(d.FailedPrerequisites) > 0:
		d.Kind = DecisionExecutionInvalid
		d.Summary = "Execution invalid: no system verdict; failed prerequisite(s): " + strings.Join(d.FailedPrerequisites, ", ") + "."
	case len(d.FailingGates) == 0:
		d.Kind = DecisionMadarAdvantage
		d.Summary = "All gates pass: a Madar-specific advantage over Native and Serena on this sample; no patch-success claim."
	case len(d.SimplerCheaper) > 0:
		names := make([]string, len(d.SimplerCheaper))
		for i, s := range d.SimplerCheaper {
			names[i] = SystemTitle(s)
		}
		d.Kind = DecisionComparatorSimpler
		d.Summary = strings.Join(names, " and ") + " gives the required quality more simply and cheaply: recommend replacement/integration or the generic review practice rather than more Madar product development. Failing gate(s): " + strings.Join(d.FailingGates, ", ") + "."
	default:
		d.Kind = DecisionNoMadarAdvantage
		d.Summary = "No Madar-specific advantage: gate(s) fail: " + strings.Join(d.FailingGates, ", ") + "."
	}
	sc.Decision = d
}
