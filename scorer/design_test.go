package scorer_test

import (
	"errors"
	"testing"

	"verdict/campaign"
	"verdict/scorer"
)

// The fixed-evidence design is registered, also as "" (no manifest
// member); other names are refused with design-unknown.
func TestLookupDesign(t *testing.T) {
	for _, name := range []campaign.Design{"", campaign.DesignFixedEvidence} {
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
		if _, err := scorer.LookupDesign(name); !errors.Is(err, campaign.ReasonDesign) || err.Pointer != "/design" {
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

// outcomeDesign is the fixed-evidence design whose Evaluate decides an
// outcome it does not declare.
type outcomeDesign struct{ scorer.Design }

func (o outcomeDesign) Evaluate(in scorer.ScoreInput) (*scorer.Scorecard, error) {
	return &scorer.Scorecard{Decision: scorer.Decision{Kind: "madar-wins"}}, nil
}

func TestEvaluateDesignHoldsOutcomes(t *testing.T) {
	fixed, _ := scorer.LookupDesign("")
	_, err := scorer.EvaluateDesign(outcomeDesign{fixed}, scorer.ScoreInput{})
	if !errors.Is(err, scorer.ReasonDesignOutcome) {
		t.Fatalf("%v", err)
	}
}
