package scorer

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"

	"verdict/adjudication"
	"verdict/campaign"
	"verdict/verr"
)

func forTasks(from, to int, f func(id string)) {
	for t := from; t <= to; t++ {
		f("T" + strconv.Itoa(t))
	}
}

func TestDecisionBranchesAndGateEdges(t *testing.T) {
	eval := campaign.PhaseEvaluation
	allReps := func(in *ScoreInput, task string, arm Arm, k int) {
		for r := 1; r <= 3; r++ {
			in.setK(task, r, arm, k)
		}
	}
	cases := []struct {
		name    string
		build   func() *ScoreInput
		kind    DecisionKind
		failing []string
		prereq  []string
		ceiling bool
	}{
		{name: "all gates pass", build: func() *ScoreInput { return testInput(eval, 8, 3, 10, 8, 10) }, kind: DecisionAllGatesPass},
		{name: "gain exactly 0.10 passes", build: func() *ScoreInput { return testInput(eval, 8, 3, 10, 9, 10) }, kind: DecisionAllGatesPass},
		{name: "gain just below 0.10 is no gain", build: func() *ScoreInput {
			in := testInput(eval, 8, 3, 10, 9, 10)
			allReps(in, "T8", ArmB, 9)
			return in
		}, kind: DecisionNoGain, failing: []string{GateCondition3}},
		{name: "A ceiling", build: func() *ScoreInput { return testInput(eval, 8, 3, 10, 10, 10) },
			kind: DecisionNoGain, failing: []string{GateCondition3}, ceiling: true},
		{name: "improvement on exactly 4 of 8 tasks passes", build: func() *ScoreInput {
			in := testInput(eval, 8, 3, 10, 10, 10)
			forTasks(1, 4, func(id string) { allReps(in, id, ArmA, 5) })
			return in
		}, kind: DecisionAllGatesPass},
		{name: "improvement on 3 of 8 tasks fails condition 3 only", build: func() *ScoreInput {
			in := testInput(eval, 8, 3, 10, 10, 10)
			forTasks(1, 3, func(id string) { allReps(in, id, ArmA, 5) })
			return in
		}, kind: DecisionQualityImprovesGateFails, failing: []string{GateCondition3}},
		{name: "task loss exactly 0.05 passes", build: func() *ScoreInput {
			in := testInput(eval, 8, 3, 20, 16, 20)
			allReps(in, "T8", ArmA, 20)
			allReps(in, "T8", ArmB, 19)
			return in
		}, kind: DecisionAllGatesPass},
		{name: "C21 one task loss above 0.05 with every other gate green", build: func() *ScoreInput {
			in := testInput(eval, 8, 3, 20, 16, 20)
			allReps(in, "T8", ArmA, 20)
			allReps(in, "T8", ArmB, 18)
			return in
		}, kind: DecisionQualityImprovesGateFails, failing: []string{GateCondition3}},
		{name: "task median R exactly 0.80 passes", build: func() *ScoreInput {
			in := testInput(eval, 8, 3, 10, 6, 10)
			allReps(in, "T8", ArmB, 8)
			return in
		}, kind: DecisionAllGatesPass},
		{name: "task median R 0.70 fails condition 2", build: func() *ScoreInput {
			in := testInput(eval, 8, 3, 10, 6, 10)
			allReps(in, "T8", ArmB, 7)
			return in
		}, kind: DecisionQualityImprovesGateFails, failing: []string{GateCondition2}},
		{name: "macro median R exactly 0.90 passes", build: func() *ScoreInput { return testInput(eval, 8, 3, 10, 7, 9) }, kind: DecisionAllGatesPass},
		{name: "macro median R below 0.90 fails condition 2", build: func() *ScoreInput {
			in := testInput(eval, 8, 3, 10, 7, 9)
			allReps(in, "T8", ArmB, 8)
			return in
		}, kind: DecisionQualityImprovesGateFails, failing: []string{GateCondition2}},
		{name: "uncertainty case not credited fails condition 2", build: func() *ScoreInput {
			in := testInput(eval, 8, 3, 10, 8, 10)
			r := in.run("T2", 2, ArmB)
			r.Grades = setGrade(r.Grades, adjudication.KindUncertainty, "O11", adjudication.ValueNotCredited)
			return in
		}, kind: DecisionQualityImprovesGateFails, failing: []string{GateCondition2}},
		{name: "one B valid failure keeps the median but fails conditions 1, 2 (U=0) and 4", build: func() *ScoreInput {
			in := testInput(eval, 8, 3, 10, 8, 10)
			r := in.run("T1", 2, ArmB)
			r.Outcome, r.FailureKind, r.Final, r.Grades, r.Item = OutcomeValidFailure, "malformed_output", nil, nil, ""
			return in
		}, kind: DecisionQualityImprovesGateFails, failing: []string{GateCondition1, GateCondition2, GateCondition4}},
		{name: "C11 wrongly excluded evidence fails condition 4", build: func() *ScoreInput {
			in := testInput(eval, 8, 3, 10, 8, 10)
			r := in.run("T3", 1, ArmB)
			r.Grades = setGrade(r.Grades, adjudication.KindExclusion, "X1", adjudication.ValueWronglyExcludes)
			return in
		}, kind: DecisionQualityImprovesGateFails, failing: []string{GateCondition4}},
		{name: "C10 unsupporting citation fails condition 1", build: func() *ScoreInput {
			in := testInput(eval, 8, 3, 10, 8, 10)
			r := in.run("T3", 1, ArmB)
			r.Grades = setGrade(r.Grades, adjudication.KindCitation, "K1", adjudication.ValueDoesNotSupport)
			return in
		}, kind: DecisionQualityImprovesGateFails, failing: []string{GateCondition1}},
		{name: "A-arm failures do not fail B's gates", build: func() *ScoreInput {
			in := testInput(eval, 8, 3, 10, 8, 10)
			r := in.run("T3", 1, ArmA)
			r.Grades = setGrade(r.Grades, adjudication.KindCitation, "K1", adjudication.ValueDoesNotSupport)
			return in
		}, kind: DecisionAllGatesPass},
		{name: "C21 only the paired-workflow cost bound fails", build: func() *ScoreInput {
			in := testInput(eval, 8, 3, 10, 8, 10)
			in.failAccounting(GateCostPairedWorkflow, "cost-pair-ratio-exceeded")
			return in
		}, kind: DecisionQualityImprovesGateFails, failing: []string{GateCostPairedWorkflow}},
		{name: "time is gated independently of cost", build: func() *ScoreInput {
			in := testInput(eval, 8, 3, 10, 8, 10)
			in.failAccounting(GateTimeAggregate, "time-aggregate-ratio-exceeded")
			return in
		}, kind: DecisionQualityImprovesGateFails, failing: []string{GateTimeAggregate}},
		{name: "C18 missing tariff fails the cost basis", build: func() *ScoreInput {
			in := testInput(eval, 8, 3, 10, 8, 10)
			in.failAccounting(GateCostBasis, "tariff-missing")
			return in
		}, kind: DecisionQualityImprovesGateFails, failing: []string{GateCostBasis}},
		{name: "session over an absolute limit", build: func() *ScoreInput {
			in := testInput(eval, 8, 3, 10, 8, 10)
			in.failAccounting(GateSessionOutput, "session-output-exceeded")
			return in
		}, kind: DecisionQualityImprovesGateFails, failing: []string{GateSessionOutput}},
		{name: "no accounting is unknown, never a pass", build: func() *ScoreInput {
			in := testInput(eval, 8, 3, 10, 8, 10)
			in.Accounting = nil
			return in
		}, kind: DecisionQualityImprovesGateFails, failing: []string{GateAccounting}},
		{name: "no gain and a cost failure are both reported", build: func() *ScoreInput {
			in := testInput(eval, 8, 3, 10, 9, 9)
			in.failAccounting(GateCostAggregate, "cost-aggregate-ratio-exceeded")
			return in
		}, kind: DecisionNoGain, failing: []string{GateCondition3, GateCostAggregate}},
		{name: "C22 oracle defect invalidates task and campaign gate", build: func() *ScoreInput {
			in := testInput(eval, 8, 3, 10, 8, 10)
			r := in.run("T4", 1, ArmA)
			r.Grades = setGrade(r.Grades, adjudication.KindOracleDefect, "O2", adjudication.ValueDefective)
			return in
		}, kind: DecisionExecutionInvalid, failing: []string{GateOracle}, prereq: []string{"eligible-tasks"}},
		{name: "fewer than eight tasks stops without an evaluation claim", build: func() *ScoreInput {
			return testInput(eval, 7, 3, 10, 8, 10)
		}, kind: DecisionExecutionInvalid, prereq: []string{"eligible-tasks"}},
		{name: "accounting prerequisite failure", build: func() *ScoreInput {
			in := testInput(eval, 8, 3, 10, 8, 10)
			in.Prerequisites = append(in.Prerequisites, Prerequisite{ID: "terminal-receipts", OK: false, Detail: "S7 has no terminal receipt"})
			return in
		}, kind: DecisionExecutionInvalid, prereq: []string{"terminal-receipts"}},
		{name: "missing planned review", build: func() *ScoreInput {
			in := testInput(eval, 8, 3, 10, 8, 10)
			in.Runs = slices.DeleteFunc(in.Runs, func(r RunInput) bool { return r.Task == "T2" && r.Repetition == 3 && r.Arm == ArmB })
			return in
		}, kind: DecisionExecutionInvalid, prereq: []string{"planned-reviews"}},
		{name: "development round 2: 2 of 4 improved passes", build: func() *ScoreInput {
			in := testInput(campaign.PhaseDevelopmentRound2, 4, 1, 10, 10, 10)
			in.setK("T1", 1, ArmA, 5)
			in.setK("T2", 1, ArmA, 5)
			return in
		}, kind: DecisionAllGatesPass},
		{name: "development round 2: 1 of 4 improved fails", build: func() *ScoreInput {
			in := testInput(campaign.PhaseDevelopmentRound2, 4, 1, 10, 10, 10)
			in.setK("T1", 1, ArmA, 5)
			return in
		}, kind: DecisionQualityImprovesGateFails, failing: []string{GateCondition3}},
		{name: "development round 1 is not decided", build: func() *ScoreInput {
			return testInput(campaign.PhaseDevelopmentRound1, 4, 1, 10, 8, 10)
		}, kind: DecisionNoDecision},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			sc, err := Evaluate(*tc.build())
			if err != nil {
				t.Fatal(err)
			}
			d := sc.Decision
			if d.Kind != tc.kind {
				t.Errorf("kind = %s, want %s (%s)", d.Kind, tc.kind, d.Summary)
			}
			want := tc.failing
			if want == nil {
				want = []string{}
			}
			if !slices.Equal(d.FailingGates, want) {
				t.Errorf("failing gates = %v, want %v", d.FailingGates, want)
				for _, g := range sc.Gates {
					for _, c := range g.Checks {
						if !c.Pass {
							t.Logf("  %s/%s observed %s threshold %s", g.ID, c.ID, c.Observed, c.Threshold)
						}
					}
				}
			}
			wantP := tc.prereq
			if wantP == nil {
				wantP = []string{}
			}
			if !slices.Equal(d.FailedPrerequisites, wantP) {
				t.Errorf("failed prerequisites = %v, want %v", d.FailedPrerequisites, wantP)
			}
			if d.ACeiling != tc.ceiling {
				t.Errorf("A ceiling = %v, want %v", d.ACeiling, tc.ceiling)
			}
		})
	}
}

func TestEvaluateAggregates(t *testing.T) {
	in := testInput(campaign.PhaseEvaluation, 8, 3, 10, 8, 10)
	in.setK("T1", 1, ArmB, 7)
	in.setK("T1", 2, ArmB, 9)
	sc, err := Evaluate(*in)
	if err != nil {
		t.Fatal(err)
	}
	t1 := sc.Tasks[0]
	if t1.Task != "T1" || t1.B.MedianR.Cmp(Frac(9, 10)) != 0 || t1.B.MinR.Cmp(Frac(7, 10)) != 0 {
		t.Errorf("T1 B median/min = %v/%v, want 9/10, 7/10", t1.B.MedianR, t1.B.MinR)
	}
	if len(sc.Pairs) != 24 || sc.Pairs[0].DeltaR.Cmp(Frac(-1, 10)) != 0 || sc.Pairs[0].Order != campaign.OrderAFirst {
		t.Errorf("pairs = %d, first %+v", len(sc.Pairs), sc.Pairs[0])
	}
	if len(sc.Repositories) != 4 || len(sc.Repositories[0].Tasks) != 2 {
		t.Errorf("repositories = %+v", sc.Repositories)
	}
	// macro B = (0.9 + 7×1.0)/8 = 79/80; gain = 79/80 − 64/80 = 15/80.
	if sc.MacroMedianRB.Cmp(Frac(79, 80)) != 0 || sc.MacroGain.Cmp(Frac(15, 80)) != 0 {
		t.Errorf("macro B %v gain %v", sc.MacroMedianRB, sc.MacroGain)
	}
	if sc.UncertaintyCases != 24 || sc.UncertaintyCredited != 24 {
		t.Errorf("uncertainty %d/%d", sc.UncertaintyCredited, sc.UncertaintyCases)
	}
}

// TestEvaluateRefusesFirstRunInOrder: with runs scored side by side, the
// refusal is still the first failing run's in input order, whether that
// run names an unknown task or has a grade for no field of its answer.
func TestEvaluateRefusesFirstRunInOrder(t *testing.T) {
	for _, tc := range []struct {
		name     string
		at, also int
		want     verr.Reason
	}{{"unknown task first", 3, 40, ReasonUnexpectedGrade}, {"extra grade first", 5, 2, ReasonUnexpectedGrade}} {
		t.Run(tc.name, func(t *testing.T) {
			in := testInput(campaign.PhaseEvaluation, 8, 3, 10, 8, 10)
			unknown, extra := tc.at, tc.also
			if tc.name == "extra grade first" {
				unknown, extra = tc.also+30, tc.at
			}
			in.Runs[unknown].Task = "T-unknown"
			in.Runs[extra].Grades = setGrade(in.Runs[extra].Grades, adjudication.KindClaim, "C99", adjudication.ValueSupported)
			_, err := Evaluate(*in)
			var e *verr.Error
			if !errors.As(err, &e) || e.Reason != tc.want {
				t.Fatalf("err = %v", err)
			}
			first := min(unknown, extra)
			isUnknown := strings.Contains(e.Detail, "unknown task")
			if (first == unknown) != isUnknown {
				t.Fatalf("refusal %q is not run %d's (unknown task at %d, extra grade at %d)", e.Detail, first, unknown, extra)
			}
		})
	}
}
