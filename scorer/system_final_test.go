package scorer_test

import (
	"slices"
	"strings"
	"testing"

	"verdict/campaign"
	"verdict/fixtures"
	"verdict/scorer"
)

// TestValidateFinalIsTheFixedRules: ValidateFinal over a fixed-evidence
// answer with its packet's E IDs gives exactly the final-scope findings
// ValidateResponse gives (one set of final-answer rules), less the checks
// of a citation's evidence ID, path and lines against its excerpt item,
// which a system review's citations get from CitationSupport instead.
// Each edit of one SYNTHETIC answer breaks one rule; each must give a
// finding, and the excerpt edits must be the only ones ValidateFinal
// leaves out.
func TestValidateFinalIsTheFixedRules(t *testing.T) {
	fsys, err := fixtures.Generate(fixtures.Options{Tasks: 8, Repetitions: 3, Passing: true})
	if err != nil {
		t.Fatal(err)
	}
	c, err := campaign.Load(fsys)
	if err != nil {
		t.Fatal(err)
	}
	s := c.Sessions[slices.IndexFunc(c.Sessions, func(s *campaign.Session) bool { return s.Role == campaign.RoleReviewB && s.Response != nil })]
	var packet *campaign.Packet
	for _, tk := range c.Tasks {
		if tk.Entry.ID == s.Run.Task {
			packet = &tk.Packet
		}
	}
	var ids []string
	for _, it := range packet.Items {
		ids = append(ids, it.ID)
	}
	excerpt := func(f scorer.Finding) bool {
		for _, x := range []string{"/evidence_id", "/path", "/start_line", "/end_line"} {
			if strings.HasPrefix(f.Pointer, "/final/citations/") && strings.HasSuffix(f.Pointer, x) {
				return true
			}
		}
		return false
	}
	u := func(s string) *string { return &s }
	edits := []struct {
		name    string
		excerpt bool
		edit    func(f *campaign.Final)
	}{
		{"claim without evidence", false, func(f *campaign.Final) {
			f.Claims[0].Status, f.Claims[0].EvidenceIDs = campaign.ClaimSourceBacked, []string{}
		}},
		{"claim evidence not in packet", false, func(f *campaign.Final) { f.Claims[0].EvidenceIDs = []string{"E99"} }},
		{"inference without premises", false, func(f *campaign.Final) {
			f.Claims[0].Status, f.Claims[0].EvidenceIDs = campaign.ClaimInference, []string{}
		}},
		{"unknown without uncertainty", false, func(f *campaign.Final) { f.Claims[0].Status, f.Claims[0].UncertaintyID = campaign.ClaimUnknown, nil }},
		{"dangling uncertainty", false, func(f *campaign.Final) { f.Claims[0].UncertaintyID = u("U99") }},
		{"dangling support", false, func(f *campaign.Final) { f.Citations[0].Supports = append(f.Citations[0].Supports, "C99") }},
		{"action without verification", false, func(f *campaign.Final) {
			f.ImplementationPlan = append(f.ImplementationPlan, campaign.Action{ID: "A99", Action: "x", Rationale: "x", SupportBasis: campaign.BasisTask, EvidenceIDs: []string{}, VerificationIDs: []string{}})
		}},
		{"source action without evidence or citation", false, func(f *campaign.Final) {
			f.ImplementationPlan = append(f.ImplementationPlan, campaign.Action{ID: "A99", Action: "x", Rationale: "x", SupportBasis: campaign.BasisSource, EvidenceIDs: []string{}, VerificationIDs: []string{}, VerificationLimitation: u("x")})
		}},
		{"missing_source without uncertainty", false, func(f *campaign.Final) {
			f.VerificationPlan = append(f.VerificationPlan, campaign.Verification{ID: "V99", ExpectedBehavior: "x", Method: "x", SupportBasis: campaign.BasisMissingSource, EvidenceIDs: []string{}})
		}},
		{"exclusion evidence not in packet", false, func(f *campaign.Final) {
			f.Exclusions = append(f.Exclusions, campaign.Exclusion{ID: "X99", EvidenceIDs: []string{"E99"}})
		}},
		{"citation path", true, func(f *campaign.Final) { f.Citations[0].Path += ".other" }},
		{"citation lines", true, func(f *campaign.Final) { f.Citations[0].EndLine += 100_000 }},
		{"citation evidence not in packet", true, func(f *campaign.Final) { f.Citations[0].EvidenceID = "E99" }},
	}
	for _, e := range edits {
		r := *s.Response
		r.Final = cloneFinal(r.Final)
		e.edit(&r.Final)
		var want, skipped []scorer.Finding
		for _, f := range scorer.ValidateResponse(&r, campaign.RoleReviewA, packet, "responses/S1.json") {
			switch {
			case excerpt(f):
				skipped = append(skipped, f)
			case f.Scope == scorer.ScopeFinal:
				want = append(want, f)
			}
		}
		got := scorer.ValidateFinal(&r, ids, "responses/S1.json")
		if !slices.Equal(got, want) || (len(skipped) > 0) != e.excerpt || (len(want) == 0) != e.excerpt {
			t.Errorf("%s: ValidateFinal %v; ValidateResponse final scope %v, excerpt checks %v", e.name, got, want, skipped)
		}
	}
}

// cloneFinal copies the lists of f that the edits change.
func cloneFinal(f campaign.Final) campaign.Final {
	f.Claims, f.Citations = slices.Clone(f.Claims), slices.Clone(f.Citations)
	for i := range f.Citations {
		f.Citations[i].Supports = slices.Clone(f.Citations[i].Supports)
	}
	f.ImplementationPlan, f.VerificationPlan, f.Exclusions = slices.Clone(f.ImplementationPlan), slices.Clone(f.VerificationPlan), slices.Clone(f.Exclusions)
	return f
}

// TestSystemFinalFindingsDeliveredOnly: a review launched over a packet
// that was not delivered (evidence_budget_exceeded) is not scored, so its
// final answer is not checked; the same broken answer over a delivered
// packet is.
func TestSystemFinalFindingsDeliveredOnly(t *testing.T) {
	for _, pad := range []bool{false, true} {
		fsys, err := fixtures.GenerateSystemComparison(fixtures.SystemOptions{Mutate: func(f *fixtures.SystemFixture) error {
			w := f.Manifest.Workflows[0]
			if pad {
				if err := f.PadPacket(w, 60_001); err != nil {
					return err
				}
			}
			return f.EditReview(w, func(r *campaign.Response) { r.Final.Claims[0].EvidenceIDs = []string{} })
		}})
		if err != nil {
			t.Fatal(err)
		}
		c, err := campaign.LoadSystemComparison(fsys)
		if err != nil {
			t.Fatal(err)
		}
		got := scorer.SystemFinalFindings(c)
		switch {
		case pad && got != nil:
			t.Errorf("undelivered packet: %v", got)
		case !pad && (len(got) != 1 || got[0].Code != scorer.ReasonSourceBackedWithoutEvidence):
			t.Errorf("delivered packet: %v", got)
		}
	}
}
