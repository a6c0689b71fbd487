package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"verdict/blinding"
	"verdict/campaign"
	"verdict/internal/campaigntest"
)

// TestGuidelinesBoundAndCarried: a campaign may bind rating guidelines
// (guidelines.md) in its manifest; `verdict check` refuses them unbound
// (file-unlisted), and `verdict blind` carries the bound text into every
// rater's bundle, where rate and adjudicate show it on g.
func TestGuidelinesBoundAndCarried(t *testing.T) {
	t.Parallel()
	const text = "# SYNTHETIC rating guidelines\n\nA claim about a default value needs the line that sets it.\n"
	fsys := campaigntest.Campaign(t, campaigntest.Options{Phase: campaign.PhaseDevelopmentRound1, Admissible: true}, 4, 1)
	fsys[campaign.GuidelinesFile] = &fstest.MapFile{Data: []byte(text), Mode: 0o644}
	code, out := chkRunCaptured(t, "check", chkWriteDir(t, fsys))
	if code != 1 || !strings.Contains(out, string(campaign.ReasonFileUnlisted)) || !strings.Contains(out, campaign.GuidelinesFile) {
		t.Fatalf("unbound guidelines: exit %d, want 1 with %s\n%s", code, campaign.ReasonFileUnlisted, out)
	}

	bind(t, fsys, "\xff\xfe not UTF-8\n")
	code, out = chkRunCaptured(t, "check", chkWriteDir(t, fsys))
	if code != 1 || !strings.Contains(out, string(campaign.ReasonInvalidUTF8)) {
		t.Fatalf("guidelines that are not UTF-8: exit %d, want 1 with %s\n%s", code, campaign.ReasonInvalidUTF8, out)
	}
	fsys = campaigntest.Campaign(t, campaigntest.Options{Phase: campaign.PhaseDevelopmentRound1, Admissible: true}, 4, 1)
	bind(t, fsys, text)
	dir := chkWriteDir(t, fsys)
	if code, out := chkRunCaptured(t, "check", dir); code != 0 {
		t.Fatalf("bound guidelines: exit %d\n%s", code, out)
	}
	bl := filepath.Join(t.TempDir(), "bl")
	if code, out := chkRunCaptured(t, "blind", dir, "--out", bl, "--raters", "ann,bob"); code != 0 {
		t.Fatalf("blind: exit %d\n%s", code, out)
	}
	for _, r := range []string{"ann", "bob"} {
		b, _, err := blinding.LoadBundle(filepath.Join(bl, "bundle-"+r+".json"))
		if err != nil {
			t.Fatal(err)
		}
		if b.Guidelines != text {
			t.Fatalf("bundle of %s carries guidelines %q, want %q", r, b.Guidelines, text)
		}
	}
	// Without guidelines a bundle has no guidelines member.
	plain := filepath.Join(t.TempDir(), "plain")
	if code, _ := chkRunCaptured(t, "blind", "--out", plain, "--raters", "ann,bob"); code != 0 {
		t.Fatal("blind of the embedded campaign")
	}
	if b, _ := os.ReadFile(filepath.Join(plain, "bundle-ann.json")); strings.Contains(string(b), `"guidelines"`) {
		t.Fatal("a campaign without guidelines wrote a guidelines member")
	}
}

// bind writes text as the campaign's guidelines.md and binds it in the
// manifest.
func bind(t *testing.T, fsys fstest.MapFS, text string) {
	t.Helper()
	fsys[campaign.GuidelinesFile] = &fstest.MapFile{Data: []byte(text), Mode: 0o644}
	var m map[string]any
	if err := json.Unmarshal(fsys[campaign.ManifestFile].Data, &m); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte(text))
	files := m["files"].([]any)
	files = append(files, map[string]any{"path": campaign.GuidelinesFile, "sha256": hex.EncodeToString(sum[:])})
	slices.SortFunc(files, func(a, b any) int {
		return strings.Compare(a.(map[string]any)["path"].(string), b.(map[string]any)["path"].(string))
	})
	m["files"] = files
	mb, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	fsys[campaign.ManifestFile] = &fstest.MapFile{Data: mb, Mode: 0o644}
}
