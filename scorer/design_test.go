package scorer_test

import (
	"errors"
	"testing"

	"verdict/campaign"
	"verdict/scorer"
	"verdict/verr"
)

// The fixed-evidence design is registered, also as "" (no manifest
// member), and the system comparison; other names are refused with
// design-unknown.
func TestLookupDesign(t *testing.T) {
	for _, name := range []campaign.Design{"", campaign.DesignFixedEvidence, campaign.DesignSystemComparison} {
		d, err := scorer.LookupDesign(name)
		if err != nil {
			t.Fatalf("%q: %v", name, err)
		}
		want := name
		if want == "" {
			want = campaign.DesignFixedEvidence
		}
		if got := d.Shape().Name; got != want {
			t.Fatalf("%q: design %q", name, got)
		}
	}
	for _, name := range []campaign.Design{"fixed_evidence", "nope"} {
		var e *verr.Error
		if _, err := scorer.LookupDesign(name); !errors.Is(err, campaign.ReasonDesign) || !errors.As(err, &e) || e.Pointer != "/design" {
			t.Fatalf("%q: %v", name, err)
		}
	}
}

// The fixed-evidence shape is CONTRACT §2/§5's: two workflows sharing the
// draft, the reviews scored, R, the §5 ceilings and session bounds.
func TestFixedEvidenceShape(t *testing.T) {
	d, err := scorer.LookupDesign(campaign.DesignFixedEvidence)
	if err != nil {
		t.Fatal(err)
	}
	sh := d.Shape()
	if len(sh.Workflows) != 2 || sh.Workflows[0].Roles[0] != campaign.RoleDraft || sh.Recall.Name != "R" ||
		sh.Ceilings != scorer.ContractCeilings() || sh.PacketKind != campaign.PacketKindExcerpt ||
		sh.SessionLimits[campaign.RoleReviewB].WallNS != scorer.SessionMaxNS || len(sh.ScoredRoles) != 2 {
		t.Fatalf("%+v", sh)
	}
}

// The system comparison's shape is CONTRACT §6's: three workflows per run
// (Native, Madar, Serena), each an investigation then a fresh review, the
// reviews scored, R_sys, the §6 ceilings (90 sessions), investigation 8 and
// review 4 minutes, 12 minutes and 60 operations per workflow, and the
// system outcomes; its exceeded ceilings cite §6.
func TestSystemComparisonShape(t *testing.T) {
	d, err := scorer.LookupDesign(campaign.DesignSystemComparison)
	if err != nil {
		t.Fatal(err)
	}
	sh := d.Shape()
	if len(sh.Workflows) != 3 || sh.Workflows[1].Arm != scorer.Arm(campaign.SystemMadar) || sh.Workflows[0].Roles[0] != campaign.RoleInvestigation ||
		sh.Recall.Name != "R_sys" || sh.Ceilings != scorer.SystemCeilings() || sh.Ceilings.Sessions != 90 || sh.CeilingsRule != scorer.RuleSystemCeilings ||
		sh.PacketKind != campaign.PacketKindRawObservation || len(sh.SharedRoles) != 0 ||
		sh.SessionLimits[campaign.RoleInvestigation].WallNS != 8*60e9 || sh.SessionLimits[campaign.RoleReview].WallNS != 4*60e9 ||
		sh.WorkflowLimit.WallNS != 12*60e9 || sh.WorkflowLimit.Operations != 60 ||
		len(sh.ScoredRoles) != 1 || sh.ScoredRoles[0] != campaign.RoleReview || len(sh.Outcomes) != len(scorer.SystemOutcomes()) {
		t.Fatalf("%+v", sh)
	}
	fixed, _ := scorer.LookupDesign("")
	if fixed.Shape().CeilingsRule != scorer.RuleCeilings {
		t.Fatalf("fixed-evidence ceilings rule %q", fixed.Shape().CeilingsRule)
	}
}

// outcomeDesign is the fixed-evidence design whose Evaluate decides an
// outcome it does not declare.
type outcomeDesign struct{ scorer.Design }

func (o outcomeDesign) Evaluate(in scorer.ScoreInput) (*scorer.Scorecard, error) {
	return &scorer.Scorecard{Decision: scorer.Decision{DecisionCore: scorer.DecisionCore{Kind: "madar-wins"}}}, nil
}

func TestEvaluateDesignHoldsOutcomes(t *testing.T) {
	fixed, _ := scorer.LookupDesign("")
	_, err := scorer.EvaluateDesign(outcomeDesign{fixed}, scorer.ScoreInput{})
	if !errors.Is(err, scorer.ReasonDesignOutcome) {
		t.Fatalf("%v", err)
	}
}
