package scorer_test

import (
	"slices"
	"strconv"
	"testing"

	"verdict/adjudication"
	"verdict/campaign"
	"verdict/fixtures"
	"verdict/scorer"
)

// TestPrepareSystemScoreInputFixture scores the SYNTHETIC system-comparison
// campaign end to end from its loaded files: every answered review graded
// as addressing every repository-answerable obligation; each workflow keeps
// the frozen denominator of its task, and the decision is one of the
// comparison's outcomes.
func TestPrepareSystemScoreInputFixture(t *testing.T) {
	c, sc := scoreSystemFixture(t, nil)
	answerable := map[string]int{}
	for _, task := range c.Tasks {
		answerable[task.Entry.ID] = len(task.Truth.RepositoryAnswerable)
	}
	if len(sc.Workflows) != campaign.SystemWorkflows {
		t.Fatalf("%d workflows", len(sc.Workflows))
	}
	for _, w := range sc.Workflows {
		if w.RSys.Den() != int64(answerable[w.Task]) {
			t.Errorf("%s: R_sys %s over a denominator other than the task's %d repository-answerable obligations", w.ID, w.RSys, answerable[w.Task])
		}
		if w.Review.Outcome == scorer.OutcomeAnswered && w.RSys.Num() != w.RSys.Den() {
			t.Errorf("%s: R_sys %s, want all addressed", w.ID, w.RSys)
		}
		if w.Review.Outcome == scorer.OutcomeAnswered && !w.Review.SourceGate {
			t.Errorf("%s: source gate fails on the fixture's supported citations: %v", w.ID, w.Review.SourceFailures)
		}
	}
	found := false
	for _, k := range scorer.SystemOutcomes() {
		found = found || k == sc.Decision.Kind
	}
	if !found {
		t.Fatalf("decision %q", sc.Decision.Kind)
	}
	if len(sc.Setup) == 0 {
		t.Error("the fixture's setup record gave no setup charge")
	}
	t.Logf("decision %s: %s", sc.Decision.Kind, sc.Decision.Summary)
}

// A citation whose text its observation did not return fails only that
// review's source gate (a scored failure): R_sys and its denominator stay
// as graded, and Madar's source/safety floor fails with it.
func TestPrepareSystemScoreInputCitationFinding(t *testing.T) {
	var w1 campaign.Workflow
	_, sc := scoreSystemFixture(t, func(f *fixtures.SystemFixture) error {
		w1 = f.Manifest.Workflows[0]
		return f.EditCitation(w1, 0, func(c *campaign.Citation) { c.EvidenceID = "E2" })
	})
	for _, w := range sc.Workflows {
		want := w.ID == w1.ID
		if w.Review.SourceGate == want {
			t.Errorf("%s: source gate %t, failures %v", w.ID, w.Review.SourceGate, w.Review.SourceFailures)
		}
		if want && (w.RSys.Num() != w.RSys.Den() || !slices.Contains(w.Review.SourceFailures, "structural:citation-not-visible:/final/citations/0")) {
			t.Errorf("%s: R_sys %s, failures %v", w.ID, w.RSys, w.Review.SourceFailures)
		}
	}
}

// scoreSystemFixture loads the SYNTHETIC system-comparison campaign (edited
// by mutate), grades every answered review as addressing every
// repository-answerable obligation with every claim and citation
// supported, and scores it.
func scoreSystemFixture(t *testing.T, mutate func(*fixtures.SystemFixture) error) (*campaign.SystemCampaign, *scorer.SystemScorecard) {
	t.Helper()
	c, sc, err := scoreSystemFixtureU(t, mutate, adjudication.ValueCredited, "")
	if err != nil {
		t.Fatal(err)
	}
	return c, sc
}

// scoreSystemFixtureU is scoreSystemFixture with every U-set obligation
// graded u, and every repository-answerable obligation whose ID is
// answerableU graded truthful_unknown instead of addressed; the error is
// PrepareSystemScoreInput's or EvaluateSystems'.
func scoreSystemFixtureU(t *testing.T, mutate func(*fixtures.SystemFixture) error, u, answerableU string) (*campaign.SystemCampaign, *scorer.SystemScorecard, error) {
	t.Helper()
	fsys, err := fixtures.GenerateSystemComparison(fixtures.SystemOptions{Mutate: mutate})
	if err != nil {
		t.Fatal(err)
	}
	c, err := campaign.LoadSystemComparison(fsys)
	if err != nil {
		t.Fatal(err)
	}
	items := map[string]string{}
	var grades []scorer.ConsensusGrade
	add := func(item string, kind adjudication.Kind, target, v string) {
		grades = append(grades, scorer.ConsensusGrade{Field: adjudication.Field{Item: item, Kind: kind, Target: target}, Value: v, Source: scorer.SourceAgreed})
	}
	for _, w := range c.Workflows {
		task := c.Task(w.Workflow.Task)
		if w.Review.Response == nil {
			continue
		}
		item := "item-" + w.Review.ID
		items[w.Review.ID] = item
		for _, o := range task.Truth.RepositoryAnswerable {
			v := adjudication.ValueAddressed
			if o.ID == answerableU {
				v = adjudication.ValueTruthfulUnknown
			}
			add(item, adjudication.KindObligation, o.ID, v)
		}
		for _, o := range task.Truth.Unanswerable {
			add(item, adjudication.KindUncertainty, o.ID, u)
		}
		f := w.Review.Response.Final
		for _, cl := range f.Claims {
			add(item, adjudication.KindClaim, cl.ID, adjudication.ValueSupported)
			add(item, adjudication.KindClaimCritical, cl.ID, adjudication.ValueNotCritical)
		}
		for i := range f.Citations {
			add(item, adjudication.KindCitation, "K"+strconv.Itoa(i+1), adjudication.ValueSupports)
		}
		for _, x := range f.Exclusions {
			add(item, adjudication.KindExclusion, x.ID, adjudication.ValueJustified)
		}
		add(item, adjudication.KindCompleteness, adjudication.TargetFinal, adjudication.ValueNoFalseClaim)
	}
	in, err := scorer.PrepareSystemScoreInput(c, fsys, items, grades)
	if err != nil {
		return c, nil, err
	}
	sc, err := scorer.EvaluateSystems(in)
	return c, sc, err
}

// Through PrepareSystemScoreInput, a U set graded truthful_unknown earns
// U credit exactly as credited does and leaves every workflow's R_sys,
// with its frozen denominator, as it is with the U set not credited; a
// repository-answerable obligation graded truthful_unknown is counted
// apart from the settled grades and lowers R_sys as not addressed does
// (CONTRACT §6: truthful unknowns get U credit only).
func TestPrepareSystemScoreInputTruthfulUnknown(t *testing.T) {
	_, tu, err := scoreSystemFixtureU(t, nil, adjudication.ValueTruthfulUnknown, "")
	if err != nil {
		t.Fatal(err)
	}
	_, none, err := scoreSystemFixtureU(t, nil, adjudication.ValueNotCredited, "")
	if err != nil {
		t.Fatal(err)
	}
	credited := 0
	for i, w := range tu.Workflows {
		n := none.Workflows[i]
		if w.ID != n.ID || w.RSys.String() != n.RSys.String() {
			t.Errorf("%s: R_sys %s with a truthful unknown, %s (%s) without", w.ID, w.RSys, n.RSys, n.ID)
		}
		if w.Review.Outcome == scorer.OutcomeAnswered && w.Review.U != nil {
			if w.Review.U.Num() != w.Review.U.Den() || n.Review.U.Num() != 0 {
				t.Errorf("%s: U %s with truthful unknowns, %s not credited", w.ID, w.Review.U, n.Review.U)
			}
			credited++
		}
	}
	if credited == 0 {
		t.Fatal("no answered review has a U set: the test checks nothing")
	}
	for _, s := range tu.Systems {
		if o := none.System(s.System); s.MacroMedianRSys.String() != o.MacroMedianRSys.String() || s.UncertaintyCredited <= o.UncertaintyCredited {
			t.Errorf("%s: macro R_sys %s vs %s, U credited %d vs %d", s.System, s.MacroMedianRSys, o.MacroMedianRSys, s.UncertaintyCredited, o.UncertaintyCredited)
		}
	}
	_, o2, err := scoreSystemFixtureU(t, nil, adjudication.ValueCredited, "O2")
	if err != nil {
		t.Fatalf("truthful_unknown on a repository-answerable obligation: %v", err)
	}
	answered := 0
	for _, w := range o2.Workflows {
		if w.Review.Outcome != scorer.OutcomeAnswered {
			if w.TruthfulUnknowns != 0 {
				t.Errorf("%s: a failed review counts %d truthful unknowns", w.ID, w.TruthfulUnknowns)
			}
			continue
		}
		answered++
		if w.TruthfulUnknowns != 1 || w.RSys.String() != "1/2" || w.Review.CriticalCompletionFailed {
			t.Errorf("%s: truthful unknowns %d R_sys %s critical failed %v, want 1, 1/2, false", w.ID, w.TruthfulUnknowns, w.RSys, w.Review.CriticalCompletionFailed)
		}
	}
	if answered == 0 {
		t.Fatal("no answered review: the test checks nothing")
	}
}
