package blinding_test

import (
	"slices"
	"testing"

	"verdict/blinding"
	"verdict/campaign"
	"verdict/fixtures"
	"verdict/internal/synth"
)

// TestScanBundlesEqualsScanJSON: the scan of typed bundles finds exactly
// what the scan of their canonical bytes decoded into generic values
// finds, in the same order, for every bundle of a campaign with planted
// leaks (tokens, arm vocabulary, money, token counts, control characters,
// a leak exempt by the task's own text, an answer member whose id looks
// like an item ID) and for hand-made bundles with leaks in their header
// members and an item ID without the item- prefix.
func TestScanBundlesEqualsScanJSON(t *testing.T) {
	c := synth.Campaign()
	leaks := []string{
		"As the Review-B ledger shows, synthetic-model-x1 agrees (see S3).",
		"The treatment arm cost $0.04 and 12,431 output tokens.",
		"Hidden \x1b[8mtext\u202e here; the reconc-iliation is done.",
		"The control group reviewer B saw four cents.",
	}
	n := 0
	for _, s := range c.Sessions {
		if s.Response == nil {
			continue
		}
		f := &s.Response.Final
		if len(f.Claims) > 0 {
			f.Claims[0].Text = leaks[n%len(leaks)]
			if n%3 == 1 {
				f.Claims[0].ID = "item-00000000000000ff"
			}
		}
		if len(f.Uncertainties) > 0 {
			f.Uncertainties[0].Consequence = leaks[(n+1)%len(leaks)]
		}
		n++
	}
	for _, task := range c.Tasks {
		task.Text = append(task.Text, []byte("\nThe ledger module rounds to cents.")...)
	}
	res, err := blinding.Build(c, blinding.Options{Key: synth.Key, Raters: []string{"r1", "r2", "r3"}})
	if err != nil {
		t.Fatal(err)
	}
	sc := blinding.NewScanner(blinding.DefaultLeakTokens(c))
	got := sc.ScanBundles(res.Bundles)
	total := 0
	for i, b := range res.Bundles {
		want := sc.ScanJSON(b.Rater, res.BundleBytes[i])
		if !slices.Equal(got[i], want) {
			t.Fatalf("bundle %s:\ntyped %v\nbytes %v", b.Rater, got[i], want)
		}
		total += len(want)
	}
	if total < 3*n {
		t.Fatalf("only %d findings in %d bundles of %d planted answers", total, len(res.Bundles), n)
	}

	odd := []*blinding.Bundle{
		{Notice: "receipt of review-a", Format: blinding.BundleFormat, Rater: "r", Guidelines: "mind the ledger",
			Items: []blinding.Item{{ID: "x-1", TaskText: "a ledger", Final: campaign.Final{Claims: []campaign.Claim{{ID: "C1", Text: "ledger and review-b"}}}}}},
		{Format: blinding.BundleFormat, Rater: "r"},
		{Format: blinding.BundleFormat, Rater: "r", Items: []blinding.Item{}},
	}
	// Two bundles holding an item of one ID with other answers (not the
	// same item: each is scanned on its own).
	twin := func(text string) *blinding.Bundle {
		return &blinding.Bundle{Format: blinding.BundleFormat, Rater: "r", Items: []blinding.Item{{ID: "item-0000000000000001", TaskText: "t",
			Final: campaign.Final{Claims: []campaign.Claim{{ID: "C1", Text: text}}}}}}
	}
	twins := []*blinding.Bundle{twin("plain text"), twin("the review-b ledger")}
	for i, found := range sc.ScanBundles(twins) {
		data, _ := blinding.MarshalCanonical(twins[i])
		if want := sc.ScanJSON("r", data); !slices.Equal(found, want) || (i == 1) != (len(want) > 0) {
			t.Fatalf("twin bundle %d: typed %v, bytes %v", i, found, want)
		}
	}
	for i, b := range odd {
		data, err := blinding.MarshalCanonical(b)
		if err != nil {
			t.Fatal(err)
		}
		want := sc.ScanJSON(b.Rater, data)
		if got := sc.ScanBundle(b); !slices.Equal(got, want) {
			t.Fatalf("hand-made bundle %d:\ntyped %v\nbytes %v", i, got, want)
		}
	}
}

// TestScanBundlesFixtures: on the bundles of the default fixture campaign
// the typed scan and the scan of the bytes agree.
func TestScanBundlesFixtures(t *testing.T) {
	c, err := campaign.Load(fixtures.Campaign())
	if err != nil {
		t.Fatal(err)
	}
	res, err := blinding.Build(c, blinding.Options{Key: fixtures.ItemKey})
	if err != nil {
		t.Fatal(err)
	}
	sc := blinding.NewScanner(append(blinding.DefaultLeakTokens(c), "C1", "E3", "source_backed", "unknown"))
	got := sc.ScanBundles(res.Bundles)
	for i, b := range res.Bundles {
		if want := sc.ScanJSON(b.Rater, res.BundleBytes[i]); len(want) == 0 || !slices.Equal(got[i], want) {
			t.Fatalf("bundle %s: typed %d findings, bytes %d", b.Rater, len(got[i]), len(want))
		}
	}
}
