package scorer_test

import (
	"errors"
	"slices"
	"testing"

	"verdict/campaign"
	"verdict/fixtures"
	"verdict/scorer"
)

// TestValidateLedgerIsTheFixedRules: ValidateLedger over a fixed-evidence
// review B with its packet's E IDs gives exactly the protocol findings
// ValidateResponse gives (one set of ledger rules), on the SYNTHETIC
// campaign with its default specimens (C13's missing and duplicated
// dispositions and C12's dangling ledger link among them), through the
// design's Ledgers.
func TestValidateLedgerIsTheFixedRules(t *testing.T) {
	fsys, err := fixtures.Generate(fixtures.Options{Tasks: 8, Repetitions: 3})
	if err != nil {
		t.Fatal(err)
	}
	d, err := scorer.LookupDesign(campaign.DesignFixedEvidence)
	if err != nil {
		t.Fatal(err)
	}
	l, err := d.Load(fsys, campaign.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var want []scorer.Finding
	for _, f := range scorer.ValidateCampaign(l.(*campaign.Campaign)) {
		if f.Scope == scorer.ScopeProtocol {
			want = append(want, f)
		}
	}
	ls, err := d.Ledgers(l)
	if err != nil {
		t.Fatal(err)
	}
	got := scorer.ValidateLedgers(ls)
	scorer.SortFindings(got)
	if len(want) == 0 || !slices.Equal(got, want) {
		t.Fatalf("ValidateLedgers: %d findings\n%v\nValidateCampaign protocol scope: %d\n%v", len(got), got, len(want), want)
	}
	codes := map[string]bool{}
	for _, f := range got {
		codes[string(f.Code)] = true
	}
	for _, c := range []string{string(scorer.ReasonDispositionMissing), string(scorer.ReasonDispositionDuplicate), string(scorer.ReasonDanglingLink)} {
		if !codes[c] {
			t.Errorf("the default specimens give no %s finding: %v", c, got)
		}
	}
}

// TestSystemLedgersReviewA: a system comparison whose selected review is
// A has no ledgers: its design refuses them (ledger-review-a) and the
// ledger check lists nothing.
func TestSystemLedgersReviewA(t *testing.T) {
	fsys, err := fixtures.GenerateSystemComparison(fixtures.SystemOptions{Review: campaign.RoleReviewA})
	if err != nil {
		t.Fatal(err)
	}
	d, err := scorer.LookupDesign(campaign.DesignSystemComparison)
	if err != nil {
		t.Fatal(err)
	}
	l, err := d.Load(fsys, campaign.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if ls, err := d.Ledgers(l); ls != nil || !errors.Is(err, scorer.ReasonLedgerReviewA) {
		t.Fatalf("Ledgers of a review-A comparison: %v, %v", ls, err)
	}
	if f, r := scorer.SystemLedgerFindings(l.(*scorer.SystemLoaded).SystemCampaign); f != nil || r != nil {
		t.Fatalf("findings %v, refusals %v", f, r)
	}
}
