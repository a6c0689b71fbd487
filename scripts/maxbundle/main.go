// Command maxbundle writes a SYNTHETIC rater bundle of N maximum-size items
// for measuring `verdict rate`'s first frame (scripts/first-frame.sh): every
// final answer has the PROMPTS.md maxima (32 claims, 32 plan steps, 32
// verifications, 32 uncertainties, 64 exclusions, 128 citations) over a
// 12-item packet with 8 obligations, and every text is long. The bundle is
// made by blinding.Build from an in-memory synthetic campaign, so it is a
// real, canonical bundle that `verdict rate` accepts.
//
// Usage: go run ./scripts/maxbundle -out FILE [-items 100]
package main

import (
	"flag"
	"fmt"
	"os"
	"strings"

	"verdict/blinding"
	"verdict/campaign"
)

func main() {
	out := flag.String("out", "", "bundle file to write")
	n := flag.Int("items", 100, "number of items")
	flag.Parse()
	if *out == "" || *n < 1 {
		fmt.Fprintln(os.Stderr, "usage: maxbundle -out FILE [-items N]")
		os.Exit(2)
	}
	c := &campaign.Campaign{Manifest: campaign.Manifest{ContractVersion: campaign.ContractVersion, Synthetic: true,
		CampaignID: "synthetic-max-bundle", Seed: strings.Repeat("5", 64)}}
	tasks := (*n + 1) / 2
	sid := 0
	for t := 1; t <= tasks; t++ {
		task := task(fmt.Sprintf("T%d", t))
		c.Tasks = append(c.Tasks, task)
		for _, role := range []campaign.Role{campaign.RoleReviewA, campaign.RoleReviewB} {
			if sid == *n {
				break
			}
			sid++
			c.Sessions = append(c.Sessions, &campaign.Session{ID: fmt.Sprintf("S%d", sid), Role: role,
				Run:      campaign.Run{Task: task.Entry.ID, Repetition: 1},
				Response: &campaign.Response{Final: final(sid)}})
		}
	}
	res, err := blinding.Build(c, blinding.Options{Key: []byte(strings.Repeat("k", 32)), Raters: []string{"rater-1", "rater-2"}})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := os.WriteFile(*out, res.BundleBytes[0], 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("SYNTHETIC bundle of %d maximum-size items: %s (%d bytes)\n", len(res.Bundles[0].Items), *out, len(res.BundleBytes[0]))
}

// long repeats a synthetic sentence to about n characters.
func long(prefix string, n int) string {
	s := prefix
	for len(s) < n {
		s += " Synthetic widget counting text that keeps the line long for wrapping."
	}
	return strings.TrimSpace(s[:n])
}

func task(id string) *campaign.Task {
	t := &campaign.Task{Entry: campaign.TaskEntry{ID: id, Repository: "example/widgets", Category: campaign.CategoryBehaviorExplanation}}
	t.Text = []byte(long("SYNTHETIC task: explain how widgets are counted and propose a bounded change.", 1500))
	t.Packet = campaign.Packet{Task: id}
	for i := 1; i <= 12; i++ {
		var b strings.Builder
		for l := 0; l < 20; l++ {
			fmt.Fprintf(&b, "func step%d_%d() int { return %d } // synthetic line of evidence item %d\n", i, l, l, i)
		}
		start := 10 * i
		t.Packet.Items = append(t.Packet.Items, campaign.EvidenceItem{ID: fmt.Sprintf("E%d", i), Repository: "example/widgets",
			Commit: strings.Repeat("0", 40), Path: fmt.Sprintf("pkg/count%d.go", i), StartLine: start, EndLine: start + 19,
			FileSHA256: strings.Repeat("a", 64), Excerpt: b.String()})
	}
	for i := 1; i <= 8; i++ {
		t.Truth.Obligations = append(t.Truth.Obligations, campaign.TruthObligation{ID: fmt.Sprintf("O%d", i),
			Text: long(fmt.Sprintf("Obligation %d:", i), 300), Critical: i%2 == 1, Answerable: i%4 != 0,
			EvidenceIDs: []string{fmt.Sprintf("E%d", i)}, AcceptedAlternatives: []string{long("alternative", 200)},
			RequiredVerification: long("verification", 200), SourceJustification: long("justification", 200)})
	}
	t.Truth.Task = id
	return t
}

func final(seed int) campaign.Final {
	var f campaign.Final
	for i := 1; i <= 32; i++ {
		e := fmt.Sprintf("E%d", (i+seed)%12+1)
		f.Claims = append(f.Claims, campaign.Claim{ID: fmt.Sprintf("C%d", i), Text: long(fmt.Sprintf("Claim %d:", i), 240),
			Status: campaign.ClaimSourceBacked, EvidenceIDs: []string{e}})
		f.ImplementationPlan = append(f.ImplementationPlan, campaign.Action{ID: fmt.Sprintf("A%d", i), Action: long("Action", 120),
			Rationale: long("Rationale", 120), SupportBasis: campaign.BasisSource, EvidenceIDs: []string{e}, VerificationIDs: []string{fmt.Sprintf("V%d", i)}})
		f.VerificationPlan = append(f.VerificationPlan, campaign.Verification{ID: fmt.Sprintf("V%d", i), ExpectedBehavior: long("Expected", 120),
			Method: long("Method", 100), SupportBasis: campaign.BasisSource, EvidenceIDs: []string{e}})
		f.Uncertainties = append(f.Uncertainties, campaign.Uncertainty{ID: fmt.Sprintf("U%d", i), MissingInformation: long("Missing", 120),
			Consequence: long("Consequence", 100), VerificationStep: long("Step", 100)})
	}
	for i := 1; i <= 64; i++ {
		f.Exclusions = append(f.Exclusions, campaign.Exclusion{ID: fmt.Sprintf("X%d", i), ScopeItem: long("Scope", 100), Reason: long("Reason", 120),
			EvidenceIDs: []string{fmt.Sprintf("E%d", i%12+1)}})
	}
	for i := 1; i <= 128; i++ {
		e := i%12 + 1
		f.Citations = append(f.Citations, campaign.Citation{EvidenceID: fmt.Sprintf("E%d", e), Path: fmt.Sprintf("pkg/count%d.go", e),
			StartLine: 10*e + i%16, EndLine: 10*e + i%16 + 3, Supports: []string{fmt.Sprintf("C%d", (i-1)%32+1)}})
	}
	return f
}
