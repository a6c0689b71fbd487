package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"verdict/campaign"
	"verdict/internal/campaigntest"
)

// TestCheckManifestDesign runs verdict check on manifests naming a design:
// without the member the campaign is fixed-evidence (admitted as before);
// "fixed-evidence" spelled out is refused by the unchanged fixed-evidence
// manifest schema, which has no such member; a design that is not the
// contract's, or one this build does not score, is refused
// (design-unknown) at /design.
func TestCheckManifestDesign(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, member string
		code         int
		want         string
	}{
		{"absent", "", 0, "result: ADMITTED"},
		{"spelled-out", `"design": "fixed-evidence",`, 1, "manifest.json#/design unknown-key: unknown member \"design\""},
		{"unknown", `"design": "fixed-evidence-v2",`, 1, "manifest.json#/design design-unknown:"},
		{"escaped-unknown", `"\u0064esign": "nope",`, 1, "manifest.json#/design design-unknown:"},
		{"not-a-string", `"design": 1,`, 1, "manifest.json#/design design-unknown:"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := campaigntest.Campaign(t, campaigntest.Options{Phase: campaign.PhaseDevelopmentRound1, Admissible: true}, 4, 1)
			m := f[campaign.ManifestFile].Data
			if !bytes.HasPrefix(m, []byte("{\n")) {
				t.Fatalf("manifest starts %q", m[:10])
			}
			f[campaign.ManifestFile] = &fstest.MapFile{Data: append([]byte("{\n  "+tc.member), m[1:]...)}
			code, out := chkRunCaptured(t, "check", chkWriteDir(t, f))
			if code != tc.code || !strings.Contains(out, tc.want) {
				t.Fatalf("exit %d, want %d and %q:\n%s", code, tc.code, tc.want, out)
			}
		})
	}
}

// TestCheckSystemComparisonDesign: a manifest naming the contract's second
// design is loaded by that design of the registry (scorer.Design): a
// first-experiment manifest that merely says "system-comparison" is refused
// by the system manifest's schema (first_experiment, systems, workflows ...).
func TestCheckSystemComparisonDesign(t *testing.T) {
	t.Parallel()
	f := campaigntest.Campaign(t, campaigntest.Options{Phase: campaign.PhaseDevelopmentRound1, Admissible: true}, 4, 1)
	f[campaign.ManifestFile] = &fstest.MapFile{Data: append([]byte("{\n  \"design\": \"system-comparison\","), f[campaign.ManifestFile].Data[1:]...)}
	code, out := chkRunCaptured(t, "check", chkWriteDir(t, f))
	if code != 1 || !strings.Contains(out, `manifest.json#/first_experiment missing-key`) || !strings.Contains(out, "design system-comparison") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
}

// TestLedgerSystemComparison: the protocol checker's ledger view opens a
// system comparison whose first experiment selected review B (it gets as
// far as needing a terminal) and refuses one whose selected review is A
// by ledger-review-a at manifest.json /selected_review, not as an unknown
// manifest member or design.
func TestLedgerSystemComparison(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ review, want string }{
		{"review-b", "no-terminal"},
		{"review-a", "manifest.json#/selected_review: ledger-review-a"},
	} {
		dir := filepath.Join(t.TempDir(), "c")
		if code, _, errs := runCLI(t, "fixtures", "generate", "--design", "system-comparison", "--review", tc.review, "--out", dir); code != 0 {
			t.Fatalf("generate %s: %d %s", tc.review, code, errs)
		}
		code, out, errs := runCLI(t, "ledger", dir)
		if code != 1 || !strings.Contains(out+errs, tc.want) || strings.Contains(out+errs, "unknown-key") || strings.Contains(out+errs, "design-unknown") {
			t.Fatalf("ledger on a %s system comparison: exit %d, want 1 and %q\n%s%s", tc.review, code, tc.want, out, errs)
		}
	}
}
