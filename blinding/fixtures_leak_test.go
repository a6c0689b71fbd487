package blinding_test

import (
	"io/fs"
	"testing"

	"verdict/blinding"
	"verdict/campaign"
	"verdict/fixtures"
)

// TestNoLeaksInFixtureBundles builds the bundles of every fixture campaign
// (the default embedded one, the passing one and every control specimen
// that loads) and scans every bundle for every forbidden field name and
// revealing token: none may be found.
func TestNoLeaksInFixtureBundles(t *testing.T) {
	camps := map[string]fs.FS{"default": fixtures.Campaign()}
	if p, err := fixtures.PassingCampaign(); err == nil {
		camps["passing"] = p
	} else {
		t.Fatal(err)
	}
	for _, id := range fixtures.SpecimenIDs() {
		f, err := fixtures.Specimen(id)
		if err != nil {
			t.Fatalf("specimen %s: %v", id, err)
		}
		camps["specimen "+id] = f
	}
	built := 0
	for name, fsys := range camps {
		c, err := campaign.Load(fsys)
		if err != nil {
			t.Logf("%s: refused by the loader (not blinded): %v", name, firstLine(err))
			continue
		}
		res, err := blinding.Build(c, blinding.Options{Key: fixtures.ItemKey})
		if err != nil {
			t.Logf("%s: %v", name, err)
			continue
		}
		built++
		for _, f := range res.Findings {
			t.Errorf("%s: %s", name, f)
		}
		// The scan over the written bytes agrees (every bundle, both raters).
		sc := blinding.NewScanner(blinding.DefaultLeakTokens(c))
		for i, bb := range res.BundleBytes {
			if fs := sc.ScanJSON(res.Bundles[i].Rater, bb); len(fs) != 0 {
				t.Errorf("%s bytes: %v", name, fs)
			}
		}
	}
	if built < 3 {
		t.Fatalf("only %d fixture campaigns were blinded", built)
	}
	t.Logf("scanned the bundles of %d fixture campaigns", built)
}

func firstLine(err error) string {
	s := err.Error()
	for i, r := range s {
		if r == '\n' {
			return s[:i]
		}
	}
	return s
}
