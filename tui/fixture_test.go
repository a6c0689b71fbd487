package tui

import (
	"fmt"
	"strings"

	"verdict/campaign"
	"verdict/verr"
)

// SYNTHETIC test input: an invented repository and invented answers,
// written for these tests only.

func synthExcerpt(start, n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "func step%d() int { return %d } // synthetic line %d\n", start+i, i, start+i)
	}
	return b.String()
}

func synthTask(id string, nItems int) *campaign.Task {
	t := &campaign.Task{Entry: campaign.TaskEntry{ID: id, Repository: "example/widgets", Category: campaign.CategoryBehaviorExplanation}}
	t.Text = []byte("SYNTHETIC task: explain how widgets are counted.")
	t.Packet = campaign.Packet{Task: id}
	for i := 1; i <= nItems; i++ {
		start := 10 * i
		t.Packet.Items = append(t.Packet.Items, campaign.EvidenceItem{
			ID: fmt.Sprintf("E%d", i), Repository: "example/widgets", Commit: "0123456789abcdef0123456789abcdef01234567",
			Path: fmt.Sprintf("pkg/count%d.go", i), StartLine: start, EndLine: start + 5, FileSHA256: strings.Repeat("a", 64),
			Excerpt: synthExcerpt(start, 6),
		})
	}
	t.Truth = campaign.Truth{Task: id, Obligations: []campaign.TruthObligation{
		{ID: "O1", Text: "States that widgets are counted once per frame.", Critical: true, Answerable: true, EvidenceIDs: []string{"E1"},
			AcceptedAlternatives: []string{"per render pass"}, RequiredVerification: "a test that renders two frames"},
		{ID: "O2", Text: "Names the reset path.", Answerable: true, EvidenceIDs: []string{"E2"}},
		{ID: "O3", Text: "Says the overflow behaviour is not in the packet.", Critical: true, Answerable: false},
	}}
	return t
}

func synthReviewB(nItems int) *campaign.Response {
	u1 := "U1"
	r := &campaign.Response{Final: campaign.Final{
		Claims: []campaign.Claim{
			{ID: "C1", Text: "Widgets are counted once per frame.", Status: campaign.ClaimSourceBacked, EvidenceIDs: []string{"E1"}},
			{ID: "C2", Text: "The reset path is Reset().", Status: campaign.ClaimSourceBacked, EvidenceIDs: []string{"E2"}},
			{ID: "C3", Text: "Overflow behaviour is unknown.", Status: campaign.ClaimUnknown, UncertaintyID: &u1},
		},
		ImplementationPlan: []campaign.Action{{ID: "A1", Action: "Add a frame counter test.", Rationale: "Pins C1.", SupportBasis: campaign.BasisSource, EvidenceIDs: []string{"E1"}, VerificationIDs: []string{"V1"}}},
		VerificationPlan:   []campaign.Verification{{ID: "V1", ExpectedBehavior: "Two frames count twice.", Method: "unit test", SupportBasis: campaign.BasisSource, EvidenceIDs: []string{"E1"}}},
		Uncertainties:      []campaign.Uncertainty{{ID: "U1", MissingInformation: "Overflow handling source.", Consequence: "Cannot say.", VerificationStep: "Read the overflow file."}},
		Exclusions:         []campaign.Exclusion{{ID: "X1", ScopeItem: "E3 logging", Reason: "Logging does not affect counting.", EvidenceIDs: []string{"E3"}}},
		Citations: []campaign.Citation{
			{EvidenceID: "E1", Path: "pkg/count1.go", StartLine: 11, EndLine: 12, Supports: []string{"C1", "A1"}},
			{EvidenceID: "E2", Path: "pkg/count2.go", StartLine: 20, EndLine: 20, Supports: []string{"C2"}},
		},
	}}
	rec := &campaign.Reconciliation{Obligations: []campaign.LedgerObligation{
		{ID: "O1", Text: "Explain the counting rule.", Basis: "source", Status: campaign.ObligationAddressed, EvidenceIDs: []string{"E1"}, FinalIDs: []string{"C1", "V1"}},
		{ID: "O2", Text: "Explain overflow.", Basis: "missing_source", Status: campaign.ObligationUnresolved, FinalIDs: []string{"U1"}},
		{ID: "O3", Text: "Explain reset.", Basis: "source", Status: campaign.ObligationAddressed, EvidenceIDs: []string{"E2"}, FinalIDs: []string{"C2", "A9"}},
	}}
	for i := 1; i <= nItems; i++ {
		d := campaign.Disposition{EvidenceID: fmt.Sprintf("E%d", i), Status: campaign.DispositionUsed}
		switch i {
		case 1:
			d.FinalIDs = []string{"C1"}
		case 2:
			d.FinalIDs = []string{"C2"}
		case 3:
			d.Status, d.FinalIDs = campaign.DispositionExcluded, []string{"X1"}
		default:
			d.Status, d.FinalIDs = campaign.DispositionUnresolved, []string{"U1"}
		}
		rec.EvidenceDispositions = append(rec.EvidenceDispositions, d)
	}
	r.Reconciliation = rec
	return r
}

// synthCampaign is a SYNTHETIC two-task campaign with one repetition each.
func synthCampaign() (*campaign.Campaign, []Finding) {
	c := &campaign.Campaign{Manifest: campaign.Manifest{ContractVersion: campaign.ContractVersion, Synthetic: true, CampaignID: "synthetic-ledger-test"}}
	sid := 0
	for ti, id := range []string{"T1", "T2"} {
		t := synthTask(id, 6)
		c.Tasks = append(c.Tasks, t)
		run := campaign.Run{Task: id, Repetition: 1, Order: campaign.OrderAFirst}
		for _, role := range []campaign.Role{campaign.RoleDraft, campaign.RoleReviewA, campaign.RoleReviewB} {
			sid++
			s := &campaign.Session{ID: fmt.Sprintf("S%d", sid), Role: role, Run: run}
			if role == campaign.RoleReviewB {
				if ti == 0 {
					s.Response = synthReviewB(6)
				} else {
					s.Failure = &verr.Error{Reason: "malformed-json", File: campaign.ResponsePath(s.ID), Detail: "unexpected end of input"}
				}
			}
			c.Sessions = append(c.Sessions, s)
		}
	}
	findings := []Finding{
		{Code: "dangling-link", File: "responses/S3.json", Pointer: "/reconciliation/obligations/2/final_ids/1", Scope: "protocol", Rule: "EVALUATOR-CONTROLS C12", Message: "O3 links A9, which is not in the revised final answer."},
		{Code: "unsupported-disposition", File: "responses/S3.json", Pointer: "/reconciliation/evidence_dispositions/3", Scope: "protocol", Rule: "PROMPTS.md Additional constraints", Message: "E4 is unresolved but U1 does not name its missing fact."},
		{Code: "citation-out-of-range", File: "responses/S3.json", Pointer: "/final/citations/1/end_line", Scope: "final", Rule: "EVALUATOR-CONTROLS C09", Message: "K2 ends beyond the evidence item's lines."},
		{Code: "draft-finding", File: "responses/S1.json", Pointer: "/final/claims/0", Scope: "final", Rule: "x", Message: "not a review-B file; not shown."},
	}
	return c, findings
}
