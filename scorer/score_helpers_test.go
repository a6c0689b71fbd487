package scorer

import (
	"fmt"
	"strconv"

	"verdict/adjudication"
	"verdict/campaign"
	"verdict/verr"
)

// Test builders for a synthetic campaign input: every task has nAns
// answerable obligations (O1 critical) and one unanswerable O<nAns+1>; each
// answer has two claims, one citation and one exclusion, all graded well.

func testTruth(nAns int) []campaign.TruthObligation {
	var out []campaign.TruthObligation
	for i := 1; i <= nAns; i++ {
		out = append(out, campaign.TruthObligation{ID: "O" + strconv.Itoa(i), Critical: i == 1, Answerable: true})
	}
	out = append(out, campaign.TruthObligation{ID: "O" + strconv.Itoa(nAns+1), Answerable: false})
	return out
}

func testFinal() *campaign.Final {
	return &campaign.Final{
		Claims:     []campaign.Claim{{ID: "C1"}, {ID: "C2"}},
		Citations:  []campaign.Citation{{EvidenceID: "E1"}},
		Exclusions: []campaign.Exclusion{{ID: "X1"}},
	}
}

// testGrades returns all-good settled grades for item with the first k
// answerable obligations addressed.
func testGrades(item string, truth []campaign.TruthObligation, k int) []ConsensusGrade {
	var gs []ConsensusGrade
	add := func(kind adjudication.Kind, target, v string) {
		gs = append(gs, ConsensusGrade{Field: adjudication.Field{Item: item, Kind: kind, Target: target}, Value: v, Source: SourceAgreed})
	}
	n := 0
	for _, o := range truth {
		if o.Answerable {
			n++
			v := adjudication.ValueNotAddressed
			if n <= k {
				v = adjudication.ValueAddressed
			}
			add(adjudication.KindObligation, o.ID, v)
		} else {
			add(adjudication.KindUncertainty, o.ID, adjudication.ValueCredited)
		}
	}
	for _, c := range []string{"C1", "C2"} {
		add(adjudication.KindClaim, c, adjudication.ValueSupported)
		add(adjudication.KindClaimCritical, c, adjudication.ValueNotCritical)
	}
	add(adjudication.KindCitation, "K1", adjudication.ValueSupports)
	add(adjudication.KindExclusion, "X1", adjudication.ValueJustified)
	add(adjudication.KindCompleteness, adjudication.TargetFinal, adjudication.ValueNoFalseClaim)
	return gs
}

func setGrade(gs []ConsensusGrade, kind adjudication.Kind, target, v string) []ConsensusGrade {
	for i := range gs {
		if gs[i].Field.Kind == kind && gs[i].Field.Target == target {
			gs[i].Value = v
			return gs
		}
	}
	item := ""
	if len(gs) > 0 {
		item = gs[0].Field.Item
	}
	return append(gs, ConsensusGrade{Field: adjudication.Field{Item: item, Kind: kind, Target: target}, Value: v, Source: SourceAdjudicated})
}

func testRun(task string, rep int, arm Arm, truth []campaign.TruthObligation, k int) RunInput {
	item := fmt.Sprintf("I-%s-%d-%s", task, rep, arm)
	order := campaign.OrderAFirst
	if rep%2 == 0 {
		order = campaign.OrderBFirst
	}
	return RunInput{Task: task, Repetition: rep, Order: order, Arm: arm, Session: fmt.Sprintf("S-%s-%d-%s", task, rep, arm),
		Item: item, Outcome: OutcomeAnswered, Final: testFinal(), ReconciliationPresent: arm == ArmB,
		PacketIdentityOK: true, Grades: testGrades(item, truth, k)}
}

// passingAccounting is an accounting report whose every gate passes; the
// ratio arithmetic and its exact bounds are tested with the accounting.
func passingAccounting() *AccountingReport {
	names := []string{GateCostBasis, GateCostAggregate, GateCostTaskMedian, GateCostPairedWorkflow, GateTimeBasis,
		GateTimeAggregate, GateTimeTaskMedian, GateTimePairedWorkflow, GateSessionDuration, GateSessionInput,
		GateSessionOutput, GateSharedDraftBilling}
	rep := &AccountingReport{}
	for _, n := range names {
		rep.Gates = append(rep.Gates, Gate{Name: n, Pass: true, Detail: "within bound"})
	}
	return rep
}

// failAccounting makes the named accounting gate fail.
func (in *ScoreInput) failAccounting(name string, reason string) {
	for i := range in.Accounting.Gates {
		if in.Accounting.Gates[i].Name == name {
			in.Accounting.Gates[i].Pass = false
			in.Accounting.Gates[i].Reason = verr.Reason(reason)
		}
	}
}

// testInput builds a campaign of nTasks tasks (two per repository), reps
// repetitions, nAns answerable obligations per task; A addresses aK and B
// addresses bK obligations in every run; every accounting gate passes.
func testInput(phase campaign.Phase, nTasks, reps, nAns, aK, bK int) *ScoreInput {
	in := &ScoreInput{CampaignID: "synthetic-test", Synthetic: true, Phase: phase, Accounting: passingAccounting(),
		Prerequisites: []Prerequisite{{ID: "receipts", OK: true, Detail: "every start has a terminal receipt"}}}
	for t := 1; t <= nTasks; t++ {
		id := "T" + strconv.Itoa(t)
		truth := testTruth(nAns)
		in.Tasks = append(in.Tasks, TaskInput{ID: id, Repository: fmt.Sprintf("synthetic/repo%d", (t+1)/2),
			Category: campaign.CategoryBehaviorExplanation, Obligations: truth})
		for r := 1; r <= reps; r++ {
			in.Runs = append(in.Runs, testRun(id, r, ArmA, truth, aK), testRun(id, r, ArmB, truth, bK))
		}
	}
	return in
}

// setK re-grades one run so it addresses k obligations.
func (in *ScoreInput) setK(task string, rep int, arm Arm, k int) {
	r := in.run(task, rep, arm)
	r.Grades = testGrades(r.Item, in.truth(task), k)
}

func (in *ScoreInput) run(task string, rep int, arm Arm) *RunInput {
	for i := range in.Runs {
		r := &in.Runs[i]
		if r.Task == task && r.Repetition == rep && r.Arm == arm {
			return r
		}
	}
	panic("no run " + task)
}

func (in *ScoreInput) truth(task string) []campaign.TruthObligation {
	for _, t := range in.Tasks {
		if t.ID == task {
			return t.Obligations
		}
	}
	panic("no task " + task)
}
