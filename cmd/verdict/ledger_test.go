package main

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"verdict/campaign"
	"verdict/fixtures"
	"verdict/scorer"
)

// TestLedgerDefaultsToEmbeddedCampaign: `verdict ledger` with no argument
// shows the embedded SYNTHETIC campaign with its structural findings, and
// a campaign directory gives the same input as the embedded campaign
// written out.
func TestLedgerDefaultsToEmbeddedCampaign(t *testing.T) {
	t.Parallel()
	a := newApp(strings.NewReader(""), &bytes.Buffer{}, io.Discard)
	in, err := ledgerInput(a, nil)
	if err != nil {
		t.Fatal(err)
	}
	want, err := campaign.Load(fixtures.Campaign())
	if err != nil {
		t.Fatal(err)
	}
	if !in.Campaign.Manifest.Synthetic || in.Campaign.Manifest.CampaignID != want.Manifest.CampaignID || len(in.Campaign.Sessions) != len(want.Sessions) {
		t.Fatalf("default ledger campaign %q (%d sessions), want the embedded %q (%d)", in.Campaign.Manifest.CampaignID, len(in.Campaign.Sessions), want.Manifest.CampaignID, len(want.Sessions))
	}
	if n := len(scorer.ValidateCampaign(want)); len(in.Findings) != n || n == 0 {
		t.Fatalf("%d findings, want the embedded campaign's %d (its specimens have some)", len(in.Findings), n)
	}

	dir := t.TempDir()
	if err := os.CopyFS(filepath.Join(dir, "camp"), fixtures.Campaign()); err != nil {
		t.Fatal(err)
	}
	in2, err := ledgerInput(a, []string{filepath.Join(dir, "camp")})
	if err != nil {
		t.Fatal(err)
	}
	if in2.Campaign.Manifest.CampaignID != want.Manifest.CampaignID || len(in2.Findings) != len(in.Findings) {
		t.Fatalf("directory input differs from the embedded one")
	}

	// A file is not a campaign directory: usage error (exit 2).
	f := filepath.Join(dir, "file")
	os.WriteFile(f, []byte("x"), 0o600)
	var ue *usageError
	if _, err := ledgerInput(a, []string{f}); !errors.As(err, &ue) {
		t.Fatalf("file argument: %v", err)
	}
}
