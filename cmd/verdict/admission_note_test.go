package main

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"verdict/fixtures"
	"verdict/internal/campaigntest"
)

// breakAdmission makes the SYNTHETIC demo campaign camp loadable but not
// admitted: receipts/S1.json names another model (wrong-model, and its
// triplet is then invalid and not replaced), and the manifest binds the
// receipt's new bytes.
func breakAdmission(t *testing.T, camp string) {
	t.Helper()
	p := filepath.Join(camp, "receipts", "S1.json")
	old, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	changed := strings.Replace(string(old), `"SYNTHETIC-model-1"`, `"SYNTHETIC-other-model"`, 1)
	if changed == string(old) {
		t.Fatal("receipts/S1.json names no SYNTHETIC-model-1")
	}
	mp := filepath.Join(camp, "manifest.json")
	m, err := os.ReadFile(mp)
	if err != nil {
		t.Fatal(err)
	}
	nm := strings.Replace(string(m), campaigntest.SHA256(old), campaigntest.SHA256([]byte(changed)), 1)
	if err := os.WriteFile(p, []byte(changed), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(mp, []byte(nm), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestNotAdmittedCampaignIsNeverSilent: export, reveal --campaign and
// blind go on with a campaign verdict check does not admit (exit 0: a dry
// run is legitimate), but each warns on stderr with the count and reason
// codes of the admission failures and `verdict check CAMPAIGN`, and the
// JSON reports of blind and reveal carry the same in "admission". An
// admitted campaign gets no warning; reveal without --campaign says that
// admission was not checked.
func TestNotAdmittedCampaignIsNeverSilent(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "demo")
	if code, out := chkRunCaptured(t, "demo", "--out", dir); code != 0 && code != 1 {
		t.Fatalf("demo exit %d\n%s", code, out)
	}
	camp, ratings, keys := filepath.Join(dir, "campaign"), filepath.Join(dir, "ratings"), filepath.Join(dir, "keys")
	rp := func(n string) string { return filepath.Join(ratings, n) }
	reveal := func(out string, extra ...string) (int, string, string) {
		args := append([]string{"reveal", "--sheet", rp("sheet-ann.json"), "--sheet", rp("sheet-bob.json"), "--adjudication", rp("adjudication.json"),
			"--map", rp("sealed-map.json"), "--allowed-signers", rp("allowed_signers"), "--key", filepath.Join(keys, "coordinator-dee"), "--name", "dee",
			"--out", filepath.Join(t.TempDir(), out), "--time", demoRevealTime}, extra...)
		return runCLI(t, args...)
	}

	// Admitted: no warning anywhere.
	for _, table := range []string{"grades", "runs"} {
		if code, _, errs := runCLI(t, "export", table, camp, "--ratings", ratings, "--allowed-signers", filepath.Join(ratings, "allowed_signers")); code != 0 || strings.Contains(errs, "NOT ADMITTED") {
			t.Fatalf("export %s of the admitted demo: exit %d\n%s", table, code, errs)
		}
	}
	if code, _, errs := reveal("r0.json", "--campaign", camp); code != 0 || strings.Contains(errs, "verdict:") {
		t.Fatalf("reveal --campaign of the admitted demo: exit %d\n%s", code, errs)
	}
	if code, _, errs := reveal("r1.json"); code != 0 || !strings.Contains(errs, "campaign admission not checked") || !strings.Contains(errs, "--campaign") {
		t.Fatalf("reveal without --campaign: exit %d, want the not-checked note\n%s", code, errs)
	}

	breakAdmission(t, camp)
	if code, out := chkRunCaptured(t, "check", camp); code != 1 || !strings.Contains(out, "admission failures: 2") {
		t.Fatalf("check of the broken campaign: exit %d\n%s", code, out)
	}
	// The demo's records were made before the break: reveal --campaign
	// refuses them (the sealed map bound the manifest at blinding).
	if code, out, _ := reveal("rx.json", "--campaign", camp, "--format", "json"); code != 1 || !strings.Contains(out, "campaign-changed-after-blinding") {
		t.Fatalf("reveal --campaign of records made before the break: exit %d, want campaign-changed-after-blinding\n%s", code, out)
	}
	// The whole chain again on the broken campaign, blinded as it is now.
	key, err := fixtures.CampaignAnswerKey()
	if err != nil {
		t.Fatal(err)
	}
	redo := filepath.Join(t.TempDir(), "redo")
	if _, err := runChain(newApp(strings.NewReader(""), io.Discard, io.Discard), os.DirFS(camp), key, redo); err != nil {
		t.Fatal(err)
	}
	camp, ratings = filepath.Join(redo, "campaign"), filepath.Join(redo, "ratings")
	wantWarning := func(what, errs string) {
		t.Helper()
		for _, w := range []string{"warning: the campaign is NOT ADMITTED: 2 admission failures", "wrong-model", "invalid-triplet-not-replaced", "verdict check " + camp, "dry run only"} {
			if !strings.Contains(errs, w) {
				t.Fatalf("%s: stderr lacks %q:\n%s", what, w, errs)
			}
		}
	}
	for _, table := range []string{"grades", "runs", "sessions"} {
		code, out, errs := runCLI(t, "export", table, camp, "--ratings", ratings, "--allowed-signers", filepath.Join(ratings, "allowed_signers"))
		if code != 0 || out == "" {
			t.Fatalf("export %s: exit %d, want 0 with rows", table, code)
		}
		wantWarning("export "+table, errs)
	}
	code, out, errs := reveal("r2.json", "--campaign", camp, "--format", "json")
	if code != 0 {
		t.Fatalf("reveal: exit %d\n%s%s", code, out, errs)
	}
	wantWarning("reveal", errs)
	var rv struct{ Admission admissionNote }
	if err := json.Unmarshal([]byte(out), &rv); err != nil || !rv.Admission.Checked || rv.Admission.Admitted || rv.Admission.Failures != 2 || rv.Admission.See != "verdict check "+camp {
		t.Fatalf("reveal JSON admission %+v (%v)\n%s", rv.Admission, err, out)
	}
	if code, out, _ := reveal("r3.json", "--format", "json"); code != 0 || !strings.Contains(out, `"checked": false`) {
		t.Fatalf("reveal JSON without --campaign: exit %d\n%s", code, out)
	}

	code, out, errs = runCLI(t, "blind", camp, "--out", filepath.Join(t.TempDir(), "b"), "--format", "json")
	if code != 0 {
		t.Fatalf("blind: exit %d\n%s%s", code, out, errs)
	}
	wantWarning("blind", errs)
	var bl blindReport
	if err := json.Unmarshal([]byte(out), &bl); err != nil || bl.Admission == nil || bl.Admission.Admitted || bl.Admission.Failures != 2 ||
		strings.Join([]string{string(bl.Admission.Reasons[0]), string(bl.Admission.Reasons[1])}, ",") != "invalid-triplet-not-replaced,wrong-model" {
		t.Fatalf("blind JSON admission %+v (%v)", bl.Admission, err)
	}
	// The embedded campaign is admitted: blind says so in JSON, no warning.
	code, out, errs = runCLI(t, "blind", "--out", filepath.Join(t.TempDir(), "e"), "--format", "json")
	if code != 0 || errs != "" || !strings.Contains(out, `"admitted": true`) {
		t.Fatalf("blind of the embedded campaign: exit %d\n%s%s", code, out, errs)
	}
}
