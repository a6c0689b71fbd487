package scorer

import (
	"errors"
	"testing"

	"verdict/adjudication"
	"verdict/campaign"
)

// bindAll binds one item per answered review of c and grades it with every
// answerable obligation addressed by B and all but one by A.
func bindAll(c *campaign.Campaign) ([]ItemBinding, []ConsensusGrade) {
	var bs []ItemBinding
	var gs []ConsensusGrade
	for _, s := range c.Sessions {
		if s.Role == campaign.RoleDraft || s.Response == nil {
			continue
		}
		item := "item-" + s.ID
		bs = append(bs, ItemBinding{Item: item, Session: s.ID})
		k := 3
		if s.Role == campaign.RoleReviewA {
			k = 2
		}
		var truth []campaign.TruthObligation
		for _, t := range c.Tasks {
			if t.Entry.ID == s.Run.Task {
				truth = t.Truth.Obligations
			}
		}
		for _, g := range testGrades(item, truth, k) {
			switch g.Field.Kind {
			case adjudication.KindClaim, adjudication.KindClaimCritical, adjudication.KindCitation, adjudication.KindExclusion:
				continue // the fixture's answers are empty
			}
			gs = append(gs, g)
		}
	}
	return bs, gs
}

func TestBuildScoreInputJoinsCampaign(t *testing.T) {
	c := testCampaign(campaign.PhaseEvaluation, 8, 3)
	failDraft(c, "T3", 2)
	r := session(c, "T4", 1, campaign.RoleReviewB)
	k := campaign.ErrorMalformed
	r.Receipt.Status, r.Receipt.ErrorKind, r.Response, r.Raw = campaign.StatusError, &k, nil, []byte("{")
	bs, gs := bindAll(c)
	in, _, err := BuildScoreInput(c, bs, gs)
	if err != nil {
		t.Fatal(err)
	}
	if len(in.Runs) != 48 {
		t.Fatalf("runs = %d, want 48 (denominators never shrink)", len(in.Runs))
	}
	sc, err := Evaluate(in)
	if err != nil {
		t.Fatal(err)
	}
	outcomes := map[RunOutcome]int{}
	for _, x := range sc.Runs {
		outcomes[x.Outcome]++
		if x.Arm == ArmA && x.Outcome == OutcomeAnswered && x.R.Cmp(Frac(2, 3)) != 0 {
			t.Errorf("%s R = %v", x.Session, x.R)
		}
	}
	if outcomes[OutcomeSharedDraftFailure] != 2 || outcomes[OutcomeValidFailure] != 1 || outcomes[OutcomeAnswered] != 45 {
		t.Errorf("outcomes = %v", outcomes)
	}
	ids := map[string]bool{}
	for _, p := range sc.Prerequisites {
		ids[p.ID] = true
	}
	for _, want := range []string{PrereqExecutionValidity, PrereqManifestAdmission, PrereqCampaignCeilings, "eligible-tasks", "planned-reviews"} {
		if !ids[want] {
			t.Errorf("prerequisite %s missing", want)
		}
	}
	if sc.Decision.Kind == DecisionAllGatesPass {
		t.Errorf("a campaign with a failed shared draft passed: %s", sc.Decision.Summary)
	}
}

func TestBuildScoreInputRefusesUnboundItems(t *testing.T) {
	c := testCampaign(campaign.PhaseEvaluation, 8, 3)
	bs, gs := bindAll(c)
	if _, _, err := BuildScoreInput(c, bs[1:], gs); !errors.Is(err, ReasonUnboundItem) {
		t.Errorf("missing binding: %v", err)
	}
	gs = append(gs, ConsensusGrade{Field: adjudication.Field{Item: "item-stray", Kind: adjudication.KindCompleteness, Target: "final"}, Value: adjudication.ValueNoFalseClaim})
	if _, _, err := BuildScoreInput(c, bs, gs); !errors.Is(err, ReasonUnboundItem) {
		t.Errorf("stray item: %v", err)
	}
}
