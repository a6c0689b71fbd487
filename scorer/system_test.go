package scorer

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"testing"

	"verdict/adjudication"
	"verdict/campaign"
	"verdict/verr"
)

// sysInput builds a synthetic comparison: six tasks in three repositories,
// two repetitions, five repository-answerable obligations (O1 critical) and
// one U-set obligation per task; every review addresses k obligations;
// every workflow of a system costs cost µUSD and takes secs seconds (split
// evenly between investigation and review); no setup charge.
func sysInput(k map[campaign.SystemName]int, cost map[campaign.SystemName]int64, secs map[campaign.SystemName]int64) *SystemScoreInput {
	in := &SystemScoreInput{CampaignID: "synthetic-systems", Synthetic: true, Thresholds: ContractSystemThresholds(),
		Prerequisites: []Prerequisite{{ID: "receipts", OK: true, Detail: "every start has a terminal receipt"}}}
	truth := testTruth(5)
	for t := 1; t <= 6; t++ {
		id := "T" + strconv.Itoa(t)
		repo := fmt.Sprintf("synthetic/repo%d", (t+1)/2)
		in.Tasks = append(in.Tasks, TaskInput{ID: id, Repository: repo, Obligations: truth})
		for r := 1; r <= 2; r++ {
			for pos, s := range campaign.SystemNames {
				run := testRun(id, r, ArmA, truth, k[s])
				run.Item = fmt.Sprintf("I-%s-%d-%s", id, r, s)
				run.Session = fmt.Sprintf("S-%s-%d-%s-review", id, r, s)
				run.Grades = testGrades(run.Item, truth, k[s])
				half := MicroUSD(cost[s] / 2)
				in.Workflows = append(in.Workflows, SystemWorkflowInput{SystemWorkflowKey: SystemWorkflowKey{ID: "W" + strconv.Itoa(len(in.Workflows)+1), System: s, Task: id, Repository: repo, Repetition: r,
					Position: pos + 1}, Review: run, InvestigationSession: fmt.Sprintf("S-%s-%d-%s-investigation", id, r, s),
					PacketSupported: []string{"O1", "O2", "O3", "O4", "O5"},
					Investigation:   SystemCharge{Cost: half, Time: Of[Nanosecond](secs[s] * 500_000_000)},
					ReviewCharge:    SystemCharge{Cost: MicroUSD(cost[s]).Add(Of[PicoUSD](-half.Or(0))), Time: Of[Nanosecond](secs[s] * 500_000_000)},
					Operations:      10})
			}
		}
	}
	return in
}

func (in *SystemScoreInput) wf(s campaign.SystemName, task string, rep int) *SystemWorkflowInput {
	for i := range in.Workflows {
		w := &in.Workflows[i]
		if w.System == s && w.Task == task && w.Repetition == rep {
			return w
		}
	}
	panic("no workflow")
}

// passingSys: every system addresses everything; Madar costs 0.80 of
// Native and 0.94 of Serena.
func passingSys() *SystemScoreInput {
	return sysInput(map[campaign.SystemName]int{campaign.SystemNative: 5, campaign.SystemSerena: 5, campaign.SystemMadar: 5},
		map[campaign.SystemName]int64{campaign.SystemNative: 1000, campaign.SystemSerena: 850, campaign.SystemMadar: 800},
		map[campaign.SystemName]int64{campaign.SystemNative: 100, campaign.SystemSerena: 85, campaign.SystemMadar: 80})
}

func evalSys(t *testing.T, in *SystemScoreInput) *SystemScorecard {
	t.Helper()
	sc, err := EvaluateSystems(*in)
	if err != nil {
		t.Fatalf("EvaluateSystems: %v", err)
	}
	return sc
}

func sysGate(sc *SystemScorecard, id string) DecisionGate {
	for _, g := range sc.Gates {
		if g.ID == id {
			return g
		}
	}
	panic("no gate " + id)
}

func failing(sc *SystemScorecard) []string { return sc.Decision.FailingGates }

func TestSystemsPassingComparison(t *testing.T) {
	sc := evalSys(t, passingSys())
	if sc.Decision.Kind != DecisionMadarAdvantage || len(failing(sc)) != 0 {
		t.Fatalf("decision %s failing %v", sc.Decision.Kind, failing(sc))
	}
	for _, s := range campaign.SystemNames {
		ss := sc.System(s)
		if ss.Workflows != 12 || !ss.MeetsRequiredQuality || ss.MacroMedianRSys.Cmp(Frac(1, 1)) != 0 {
			t.Errorf("%s: %+v", s, ss)
		}
	}
	if got := sc.Comparisons[0].SuiteCostRatio.RatString(); got != "4/5" {
		t.Errorf("Madar/Native suite cost = %s, want 4/5", got)
	}
	if len(sc.Workflows) != 36 || sc.Workflows[0].RSys.String() != "5/5" {
		t.Errorf("workflows %d first %s", len(sc.Workflows), sc.Workflows[0].RSys)
	}
}

// The denominator is the frozen repository-answerable set, shared by the
// three systems: a provider that returns nothing, or an investigation that
// fails, keeps it (CONTRACT §6 "Missing retrieval never shrinks it").
func TestSystemsDenominatorNeverShrinks(t *testing.T) {
	in := passingSys()
	empty := in.wf(campaign.SystemSerena, "T2", 1)
	empty.PacketSupported = []string{}
	empty.Review.Grades = testGrades(empty.Review.Item, in.Tasks[0].Obligations, 2)
	failed := in.wf(campaign.SystemMadar, "T1", 1)
	failed.Review = RunInput{Task: "T1", Repetition: 1, Arm: ArmA, Session: failed.Review.Session, Outcome: OutcomeInvestigationFailure, FailureKind: "empty_investigation"}
	failed.ReviewCharge = zeroCharge()
	failed.PacketSupported = []string{}
	sc := evalSys(t, in)
	for _, w := range sc.Workflows {
		if w.RSys.Den() != 5 {
			t.Errorf("%s %s r%d: R_sys %s, denominator must stay 5", w.System, w.Task, w.Repetition, w.RSys)
		}
		switch {
		case w.System == campaign.SystemSerena && w.Task == "T2" && w.Repetition == 1:
			if w.RSys.String() != "2/5" || w.PacketSupported.String() != "0/5" {
				t.Errorf("empty packet: R_sys %s packet %s", w.RSys, w.PacketSupported)
			}
		case w.System == campaign.SystemMadar && w.Task == "T1" && w.Repetition == 1:
			if w.RSys.String() != "0/5" || w.Review.U.String() != "0/1" || !w.Review.CriticalCompletionFailed || w.Review.SourceGate {
				t.Errorf("investigation failure: %+v", w.Review)
			}
			// charges kept: the investigation is charged, the review was not launched
			if w.Complete.Cost.String() != MicroUSD(400).String() {
				t.Errorf("investigation failure charge %s", w.Complete.Cost)
			}
		}
	}
	m := sc.System(campaign.SystemMadar)
	if m.InvestigationFailures != 1 || m.Suite.Cost.String() != MicroUSD(11*800+400).String() {
		t.Errorf("Madar failures %d suite %s", m.InvestigationFailures, m.Suite.Cost)
	}
	if m.PacketSupported.String() != "55/60" {
		t.Errorf("Madar packet-supported coverage %s, want 55/60", m.PacketSupported)
	}
	if sysGate(sc, GateCondition1).Pass || sc.Decision.Kind == DecisionMadarAdvantage {
		t.Errorf("an investigation-stage failure must fail the critical completion floor: %v", failing(sc))
	}
}

// Truthful unknowns on repository-answerable obligations, counted from the
// settled grades, earn U credit only: they never raise R_sys.
func TestSystemsTruthfulUnknownsNeverRaiseRSys(t *testing.T) {
	in := passingSys()
	w := in.wf(campaign.SystemNative, "T3", 2)
	w.Review.Grades = testGrades(w.Review.Item, in.Tasks[0].Obligations, 3)
	for _, o := range []string{"O4", "O5"} {
		w.Review.Grades = setGrade(w.Review.Grades, adjudication.KindObligation, o, adjudication.ValueTruthfulUnknown)
	}
	sc := evalSys(t, in)
	for _, ws := range sc.Workflows {
		if ws.System == campaign.SystemNative && ws.Task == "T3" && ws.Repetition == 2 {
			if ws.RSys.String() != "3/5" || ws.TruthfulUnknowns != 2 {
				t.Errorf("R_sys %s truthful unknowns %d", ws.RSys, ws.TruthfulUnknowns)
			}
		}
	}
	if sc.System(campaign.SystemNative).TruthfulUnknowns != 2 {
		t.Errorf("system truthful unknowns %d", sc.System(campaign.SystemNative).TruthfulUnknowns)
	}
	in = passingSys()
	in.wf(campaign.SystemSerena, "T1", 1).PacketSupported = []string{"O6"}
	if _, err := EvaluateSystems(*in); !errors.Is(err, ReasonObligationNotRepositoryAnswerable) {
		t.Errorf("packet support of the U set: err %v", err)
	}
}

// setCost sets the complete cost (µUSD, pico added) of one workflow.
func (in *SystemScoreInput) setCost(s campaign.SystemName, task string, rep int, micro, pico int64) {
	w := in.wf(s, task, rep)
	w.Investigation.Cost = MicroUSD(micro).Add(Of[PicoUSD](pico))
	w.ReviewCharge.Cost = Of[PicoUSD](0)
}

func (in *SystemScoreInput) setTime(s campaign.SystemName, task string, rep int, ns int64) {
	w := in.wf(s, task, rep)
	w.Investigation.Time = Of[Nanosecond](ns)
	w.ReviewCharge.Time = Of[Nanosecond](0)
}

func assertOnlyFailing(t *testing.T, sc *SystemScorecard, want ...string) {
	t.Helper()
	got := failing(sc)
	if !slices.Equal(got, want) {
		t.Fatalf("failing gates %v, want %v", got, want)
	}
	if len(want) > 0 && sc.Decision.Kind == DecisionMadarAdvantage {
		t.Fatalf("a failing gate must not give a Madar advantage")
	}
}

// Each comparative gate at its inclusive bound passes; one unit over
// fails that gate alone (no gate is met through another).
func TestSystemsGatesAtBound(t *testing.T) {
	base := func() *SystemScoreInput {
		return sysInput(map[campaign.SystemName]int{campaign.SystemNative: 5, campaign.SystemSerena: 5, campaign.SystemMadar: 5},
			map[campaign.SystemName]int64{campaign.SystemNative: 1000, campaign.SystemSerena: 800, campaign.SystemMadar: 800},
			map[campaign.SystemName]int64{campaign.SystemNative: 100, campaign.SystemSerena: 80, campaign.SystemMadar: 80})
	}
	tasks := []string{"T1", "T2", "T3", "T4", "T5", "T6"}
	cases := []struct {
		name string
		gate string
		edit func(in *SystemScoreInput, over int64)
	}{
		{"suite cost vs Native 0.85", GateNativeSuiteCost, func(in *SystemScoreInput, over int64) {
			for _, task := range tasks {
				for r := 1; r <= 2; r++ {
					in.setCost(campaign.SystemMadar, task, r, 850, 0)
					in.setCost(campaign.SystemSerena, task, r, 850, 0)
				}
			}
			in.setCost(campaign.SystemMadar, "T6", 2, 850, over)
		}},
		{"suite time vs Native 0.85", GateNativeSuiteTime, func(in *SystemScoreInput, over int64) {
			for _, task := range tasks {
				for r := 1; r <= 2; r++ {
					in.setTime(campaign.SystemMadar, task, r, 85e9)
					in.setTime(campaign.SystemSerena, task, r, 85e9)
				}
			}
			in.setTime(campaign.SystemMadar, "T6", 2, 85e9+over)
		}},
		{"suite cost vs Serena 1.05", GateSerenaSuiteCost, func(in *SystemScoreInput, over int64) {
			for _, task := range tasks {
				for r := 1; r <= 2; r++ {
					in.setCost(campaign.SystemMadar, task, r, 840, 0)
				}
			}
			in.setCost(campaign.SystemMadar, "T6", 2, 840, over)
		}},
		{"suite time vs Serena 1.05", GateSerenaSuiteTime, func(in *SystemScoreInput, over int64) {
			for _, task := range tasks {
				for r := 1; r <= 2; r++ {
					in.setTime(campaign.SystemMadar, task, r, 84e9)
				}
			}
			in.setTime(campaign.SystemMadar, "T6", 2, 84e9+over)
		}},
		{"task-median cost vs Serena 1.15", GateSerenaTaskMedianCost, func(in *SystemScoreInput, over int64) {
			in.setCost(campaign.SystemMadar, "T1", 1, 920, 0)
			in.setCost(campaign.SystemMadar, "T1", 2, 920, 2*over)
		}},
		{"task-median time vs Serena 1.15", GateSerenaTaskMedianTime, func(in *SystemScoreInput, over int64) {
			in.setTime(campaign.SystemMadar, "T1", 1, 92e9)
			in.setTime(campaign.SystemMadar, "T1", 2, 92e9+2*over)
		}},
		{"paired cost vs Serena 1.25", GateSerenaPairedCost, func(in *SystemScoreInput, over int64) {
			in.setCost(campaign.SystemMadar, "T2", 1, 1000, over)
			in.setCost(campaign.SystemMadar, "T2", 2, 600, 0)
		}},
		{"paired time vs Serena 1.25", GateSerenaPairedTime, func(in *SystemScoreInput, over int64) {
			in.setTime(campaign.SystemMadar, "T2", 1, 100e9+over)
			in.setTime(campaign.SystemMadar, "T2", 2, 60e9)
		}},
		{"task-median cost vs Native 1.15", GateNativeTaskMedianCost, func(in *SystemScoreInput, over int64) {
			for r := 1; r <= 2; r++ {
				in.setCost(campaign.SystemNative, "T3", r, 800, 0)
				in.setCost(campaign.SystemSerena, "T3", r, 1000, 0)
				in.setCost(campaign.SystemMadar, "T3", r, 920, 0)
			}
			in.setCost(campaign.SystemMadar, "T3", 2, 920, 2*over)
		}},
		{"paired time vs Native 1.25", GateNativePairedTime, func(in *SystemScoreInput, over int64) {
			in.setTime(campaign.SystemNative, "T4", 1, 64e9)
			in.setTime(campaign.SystemSerena, "T4", 1, 100e9)
			in.setTime(campaign.SystemMadar, "T4", 1, 80e9+over)
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := base()
			c.edit(in, 0)
			sc := evalSys(t, in)
			assertOnlyFailing(t, sc)
			if sc.Decision.Kind != DecisionMadarAdvantage {
				t.Fatalf("at the bound: %s", sc.Decision.Kind)
			}
			in = base()
			c.edit(in, 1)
			assertOnlyFailing(t, evalSys(t, in), c.gate)
		})
	}
}

// Madar may lose at most 0.05 macro quality against Serena, inclusive.
func TestSystemsMacroQualityAtBound(t *testing.T) {
	in := passingSys()
	lower := func(task string) {
		w := in.wf(campaign.SystemMadar, task, 1)
		w.Review.Grades = testGrades(w.Review.Item, in.Tasks[0].Obligations, 4)
	}
	for _, task := range []string{"T1", "T2", "T3"} {
		lower(task)
	}
	sc := evalSys(t, in)
	if got := sc.Comparisons[1].MacroLoss; got == nil || got.Cmp(Frac(1, 20)) != 0 {
		t.Fatalf("macro loss %v, want exactly 0.05", got)
	}
	assertOnlyFailing(t, sc)
	lower("T4")
	assertOnlyFailing(t, evalSys(t, in), GateSerenaMacroQuality)
}

// A critical failure of Madar where Native has none is a critical quality
// loss; it also fails the absolute floor, each gate on its own.
func TestSystemsCriticalQualityLoss(t *testing.T) {
	in := passingSys()
	w := in.wf(campaign.SystemMadar, "T5", 2)
	w.Review.Grades = setGrade(w.Review.Grades, adjudication.KindObligation, "O1", adjudication.ValueNotAddressed)
	sc := evalSys(t, in)
	assertOnlyFailing(t, sc, GateCondition1, GateNativeCriticalQuality)
	// The same failure in Native's paired workflow is no loss against it.
	n := in.wf(campaign.SystemNative, "T5", 2)
	n.Review.Grades = setGrade(n.Review.Grades, adjudication.KindObligation, "O1", adjudication.ValueNotAddressed)
	assertOnlyFailing(t, evalSys(t, in), GateCondition1)
}

// Cold setup is charged per system and repository to its attributed
// workflow (the first there), reported as cold first-task cost and in the
// whole-suite total; a charge attributed to no workflow still counts.
func TestSystemsColdSetupNeverAmortised(t *testing.T) {
	in := passingSys()
	in.Setup = []SetupCharge{
		{System: campaign.SystemSerena, Repository: "synthetic/repo1", Workflow: in.wf(campaign.SystemSerena, "T1", 1).ID, Kind: "index", SystemCharge: SystemCharge{Cost: MicroUSD(70), Time: Of[Nanosecond](30e9)}},
		{System: campaign.SystemSerena, Repository: "", Kind: "install", SystemCharge: SystemCharge{Cost: MicroUSD(5), Time: Of[Nanosecond](60e9)}},
		{System: campaign.SystemSerena, Repository: "synthetic/repo1", Workflow: in.wf(campaign.SystemSerena, "T1", 1).ID, Kind: "initial_instructions", SystemCharge: SystemCharge{Cost: MicroUSD(25), Time: Of[Nanosecond](1e9)}},
	}
	sc := evalSys(t, in)
	s := sc.System(campaign.SystemSerena)
	if len(s.ColdFirst) != 1 || s.ColdFirst[0].Task != "T1" || s.ColdFirst[0].Charge.Cost.String() != MicroUSD(850+95).String() {
		t.Fatalf("cold first tasks %+v", s.ColdFirst)
	}
	if s.Setup.Cost.String() != MicroUSD(100).String() || s.Suite.Cost.String() != MicroUSD(12*850+100).String() ||
		s.Warm.Cost.String() != MicroUSD(12*850).String() {
		t.Errorf("setup %s warm %s suite %s", s.Setup.Cost, s.Warm.Cost, s.Suite.Cost)
	}
	// The setup enters Serena's first task median and suite total: Madar's suite ratio drops.
	if got := sc.Comparisons[1].SuiteCostRatio.RatString(); got != "9600/10300" && got != "96/103" {
		t.Errorf("Madar/Serena suite cost %s", got)
	}
}

// When Madar fails a gate and a comparator meets every floor at no more
// cost and time, the decision says so.
func TestSystemsComparatorSimplerAndCheaper(t *testing.T) {
	in := sysInput(map[campaign.SystemName]int{campaign.SystemNative: 5, campaign.SystemSerena: 5, campaign.SystemMadar: 5},
		map[campaign.SystemName]int64{campaign.SystemNative: 1000, campaign.SystemSerena: 700, campaign.SystemMadar: 800},
		map[campaign.SystemName]int64{campaign.SystemNative: 100, campaign.SystemSerena: 70, campaign.SystemMadar: 80})
	sc := evalSys(t, in)
	if sc.Decision.Kind != DecisionComparatorSimpler || !slices.Equal(sc.Decision.SimplerCheaper, []campaign.SystemName{campaign.SystemSerena}) {
		t.Fatalf("decision %s %v: %s", sc.Decision.Kind, sc.Decision.SimplerCheaper, sc.Decision.Summary)
	}
	// Native passing its floors at lower cost is named first, as the generic practice.
	in = sysInput(map[campaign.SystemName]int{campaign.SystemNative: 5, campaign.SystemSerena: 5, campaign.SystemMadar: 5},
		map[campaign.SystemName]int64{campaign.SystemNative: 500, campaign.SystemSerena: 800, campaign.SystemMadar: 800},
		map[campaign.SystemName]int64{campaign.SystemNative: 50, campaign.SystemSerena: 80, campaign.SystemMadar: 80})
	sc = evalSys(t, in)
	if sc.Decision.Kind != DecisionComparatorSimpler || !slices.Equal(sc.Decision.SimplerCheaper, []campaign.SystemName{campaign.SystemNative, campaign.SystemSerena}) {
		t.Fatalf("decision %s %v", sc.Decision.Kind, sc.Decision.SimplerCheaper)
	}
	// A cheaper comparator that misses its floor does not qualify.
	in = sysInput(map[campaign.SystemName]int{campaign.SystemNative: 3, campaign.SystemSerena: 5, campaign.SystemMadar: 5},
		map[campaign.SystemName]int64{campaign.SystemNative: 900, campaign.SystemSerena: 800, campaign.SystemMadar: 800},
		map[campaign.SystemName]int64{campaign.SystemNative: 90, campaign.SystemSerena: 80, campaign.SystemMadar: 80})
	sc = evalSys(t, in)
	if sc.Decision.Kind != DecisionComparatorSimpler || !slices.Equal(sc.Decision.SimplerCheaper, []campaign.SystemName{campaign.SystemSerena}) {
		t.Fatalf("decision %s %v", sc.Decision.Kind, sc.Decision.SimplerCheaper)
	}
}

// An unknown charge never passes a gate, and a missing workflow makes the
// execution invalid.
func TestSystemsUnknownAndMissing(t *testing.T) {
	in := passingSys()
	in.wf(campaign.SystemMadar, "T1", 1).ReviewCharge.Cost = Unknown[PicoUSD](ReasonMeterMissing)
	sc := evalSys(t, in)
	assertOnlyFailing(t, sc, GateNativeSuiteCost, GateNativeTaskMedianCost, GateNativePairedCost, GateSerenaSuiteCost, GateSerenaTaskMedianCost, GateSerenaPairedCost)
	in = passingSys()
	in.Workflows = in.Workflows[:len(in.Workflows)-1]
	sc = evalSys(t, in)
	if sc.Decision.Kind != DecisionExecutionInvalid || !slices.Contains(sc.Decision.FailedPrerequisites, "planned-workflows") {
		t.Fatalf("decision %s %v", sc.Decision.Kind, sc.Decision.FailedPrerequisites)
	}
	in = passingSys()
	in.Workflows = append(in.Workflows, in.Workflows[0])
	if _, err := EvaluateSystems(*in); !errors.Is(err, ReasonDuplicateWorkflow) {
		t.Errorf("duplicate: %v", err)
	}
	in = passingSys()
	in.Setup = []SetupCharge{{System: campaign.SystemMadar, Workflow: in.Workflows[0].ID, SystemCharge: zeroCharge()}}
	if _, err := EvaluateSystems(*in); !errors.Is(err, ReasonUnknownSystem) {
		t.Errorf("setup attributed to another system's workflow: %v", err)
	}
	in = passingSys()
	in.Workflows[0].System = "graphify"
	var ve *verr.Error
	if _, err := EvaluateSystems(*in); !errors.As(err, &ve) || ve.Reason != ReasonUnknownSystem {
		t.Errorf("unknown system: %v", err)
	}
}

// Behind the Design interface the comparison is a Scorecard whose decision
// is one of SystemOutcomes; without its system input it is refused.
func TestEvaluateSystemComparison(t *testing.T) {
	in := passingSys()
	sc, err := EvaluateSystemComparison(ScoreInput{Systems: in})
	if err != nil || sc.Systems == nil || sc.Decision.Kind != DecisionMadarAdvantage || !slices.Contains(SystemOutcomes(), sc.Decision.Kind) ||
		len(sc.Gates) != len(sc.Systems.Gates) {
		t.Fatalf("%v %+v", err, sc)
	}
	if _, err := EvaluateSystemComparison(ScoreInput{}); !errors.Is(err, ReasonNoSystemInput) {
		t.Errorf("no system input: %v", err)
	}
}
