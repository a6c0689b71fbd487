package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"verdict/campaign"
	"verdict/internal/buildinfo"
	"verdict/scorer"
)

// TestVersionPrintsBuild: `verdict version` prints the build information of
// the running binary; a test binary has no VCS stamp, so its revision is
// printed as unknown rather than guessed, with a line saying why (no VCS
// stamp).
func TestVersionPrintsBuild(t *testing.T) {
	t.Parallel()
	code, out := chkRunCaptured(t, "version")
	first, why, _ := strings.Cut(out, "\n")
	if code != 0 || first != buildinfo.Read().String() || !strings.Contains(out, "revision unknown") || !strings.Contains(why, "no VCS stamp") || !strings.Contains(why, "-buildvcs=false") {
		t.Fatalf("exit %d: %q", code, out)
	}
	code, out = chkRunCaptured(t, "version", "--format", "json")
	var b buildinfo.Build
	if code != 0 || json.Unmarshal([]byte(out), &b) != nil || b.Revision != nil || !strings.Contains(out, `"vcs_revision": null`) {
		t.Fatalf("exit %d: %s", code, out)
	}
}

// TestReportRecordsProvenance: the demo's report.json and report.md record
// the build, the SHA-256 of the exact manifest.json bytes and every embedded
// schema digest.
func TestReportRecordsProvenance(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "demo")
	if code, out := chkRunCaptured(t, "demo", "--out", dir); code != 0 && code != 1 {
		t.Fatalf("demo exit %d\n%s", code, out)
	}
	manifest, err := os.ReadFile(filepath.Join(dir, "campaign", campaign.ManifestFile))
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(manifest)
	raw, err := os.ReadFile(filepath.Join(dir, "report", "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Provenance scorer.Provenance `json:"provenance"`
	}
	if err := json.Unmarshal(raw, &rep); err != nil {
		t.Fatal(err)
	}
	pv := rep.Provenance
	if pv.ManifestSHA256 != hex.EncodeToString(sum[:]) || pv.Build.Module != buildinfo.Read().Module ||
		len(pv.Schemas) != len(campaign.SchemaDigests()) || pv.Schemas[0] != campaign.SchemaDigests()[0] {
		t.Fatalf("provenance %+v", pv)
	}
	md, err := os.ReadFile(filepath.Join(dir, "report", "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(md), "## Provenance") || !strings.Contains(string(md), hex.EncodeToString(sum[:])) {
		t.Fatalf("report.md has no provenance section:\n%s", md)
	}
}
