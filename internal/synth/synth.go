// Package synth builds a small SYNTHETIC in-memory campaign for the tests
// of the blinding and adjudication packages. Every text in it is inert
// synthetic content written for verdict; it is not a real task or answer.
package synth

import (
	"fmt"

	"verdict/campaign"
)

func strp(s string) *string { return &s }

// Campaign returns a synthetic campaign with two tasks and one repetition
// each (D, A, B); task T2's review B is malformed (Response nil), so three
// answers are bundled.
func Campaign() *campaign.Campaign {
	c := &campaign.Campaign{Manifest: campaign.Manifest{
		ContractVersion: campaign.ContractVersion, Synthetic: true, CampaignID: "synthetic-records",
		Phase:     campaign.PhaseEvaluation,
		Seed:      "5e3d1c0b9a8f7e6d5c4b3a291807f6e5d4c3b2a1908f7e6d5c4b3a2918070605",
		Execution: campaign.Execution{Model: strp("synthetic-model-x1"), ConsumerVersion: strp("Synthetic Host 0.0.1")},
	},
		// A SYNTHETIC stand-in for the SHA-256 of manifest.json bytes (the
		// campaign is built in memory, not loaded from files).
		ManifestSHA256: "5347e7a1c0de5347e7a1c0de5347e7a1c0de5347e7a1c0de5347e7a1c0de5347"}
	sid := 0
	for ti := 1; ti <= 2; ti++ {
		tid := fmt.Sprintf("T%d", ti)
		t := &campaign.Task{
			Entry: campaign.TaskEntry{ID: tid, Repository: "synthetic/widgets", Category: campaign.CategoryBehaviorExplanation},
			Text:  []byte(fmt.Sprintf("SYNTHETIC task %d: explain how the widget counter rounds a half value.\n", ti)),
			Packet: campaign.Packet{Task: tid, Items: []campaign.EvidenceItem{
				{ID: "E1", Repository: "synthetic/widgets", Path: "src/counter.go", StartLine: 3, EndLine: 5, Excerpt: "func round(x float64) int {\n\treturn int(x + 0.5)\n}"},
				{ID: "E2", Repository: "synthetic/widgets", Path: "src/counter_test.go", StartLine: 10, EndLine: 10, Excerpt: "want(round(2.5), 3)"},
			}},
			Truth: campaign.Truth{Task: tid, Obligations: []campaign.TruthObligation{
				{ID: "O1", Text: "States that halves round up.", Critical: true, Answerable: true, EvidenceIDs: []string{"E1"}, AcceptedAlternatives: []string{}, RequiredVerification: "Run the rounding test.", JustifiedExclusions: []string{}, SourceJustification: "E1 adds one half before truncation."},
				{ID: "O2", Text: "Names the test that pins the behaviour.", Critical: false, Answerable: true, EvidenceIDs: []string{"E2"}, AcceptedAlternatives: []string{}, RequiredVerification: "Read the test.", JustifiedExclusions: []string{}, SourceJustification: "E2 asserts it."},
				{ID: "O3", Text: "Says negative inputs are not covered by the packet.", Critical: false, Answerable: false, EvidenceIDs: []string{}, AcceptedAlternatives: []string{}, RequiredVerification: "Add a negative-input test.", JustifiedExclusions: []string{}, SourceJustification: "No excerpt covers negatives."},
			}},
		}
		c.Tasks = append(c.Tasks, t)
		run := campaign.Run{Task: tid, Repetition: 1, Order: campaign.OrderAFirst}
		ids := [3]string{}
		for k := range ids {
			sid++
			ids[k] = fmt.Sprintf("S%d", sid)
		}
		run.Sessions = campaign.Sessions{Draft: ids[0], ReviewA: ids[1], ReviewB: ids[2]}
		c.Manifest.Runs = append(c.Manifest.Runs, run)
		for k, role := range []campaign.Role{campaign.RoleDraft, campaign.RoleReviewA, campaign.RoleReviewB} {
			s := &campaign.Session{ID: ids[k], Role: role, Run: run}
			if !(ti == 2 && role == campaign.RoleReviewB) {
				s.Response = answer(ti, k)
			}
			if role == campaign.RoleReviewB && s.Response != nil {
				s.Response.Reconciliation = &campaign.Reconciliation{EvidenceDispositions: []campaign.Disposition{{EvidenceID: "E1", Status: campaign.DispositionUsed, FinalIDs: []string{"C1"}}}}
			}
			c.Sessions = append(c.Sessions, s)
		}
	}
	return c
}

func answer(task, variant int) *campaign.Response {
	f := campaign.Final{
		Claims: []campaign.Claim{
			{ID: "C1", Text: fmt.Sprintf("Halves round up in synthetic task %d (variant %d).", task, variant), Status: campaign.ClaimSourceBacked, EvidenceIDs: []string{"E1"}},
			{ID: "C2", Text: "The rounding test pins 2.5 to 3.", Status: campaign.ClaimSourceBacked, EvidenceIDs: []string{"E2"}},
		},
		ImplementationPlan: []campaign.Action{},
		VerificationPlan:   []campaign.Verification{},
		Uncertainties:      []campaign.Uncertainty{{ID: "U1", MissingInformation: "Negative inputs.", Consequence: "Rounding of -2.5 is unknown.", VerificationStep: "Add a test for -2.5."}},
		Exclusions:         []campaign.Exclusion{},
		Citations: []campaign.Citation{
			{EvidenceID: "E1", Path: "src/counter.go", StartLine: 3, EndLine: 5, Supports: []string{"C1"}},
			{EvidenceID: "E2", Path: "src/counter_test.go", StartLine: 10, EndLine: 10, Supports: []string{"C2"}},
		},
	}
	if variant == 2 {
		f.Exclusions = []campaign.Exclusion{{ID: "X1", ScopeItem: "Formatting helpers.", Reason: "Not about rounding.", EvidenceIDs: []string{}}}
	}
	return &campaign.Response{Final: f}
}

// Key is the fixed SYNTHETIC item-ID key the tests use (32 bytes).
var Key = []byte("SYNTHETIC-TEST-ONLY-ITEM-ID-KEY!")
