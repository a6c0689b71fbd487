package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"verdict/campaign"
	"verdict/fixtures"
)

// sysDemo runs `verdict demo --design system-comparison` into a new
// directory and returns it.
func sysDemo(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "demo")
	if code, out, errs := runCLI(t, "demo", "--design", "system-comparison", "--out", dir); code != 0 || !strings.Contains(out, "Decision: no-madar-advantage") {
		t.Fatalf("demo: exit %d\n%s\n%s", code, out, errs)
	}
	return dir
}

// sysEditedCampaign writes the SYNTHETIC system comparison with Serena's
// review of T2 r1 cut to its first claim and citation (the receipt and
// the manifest re-bound, as a runner would have recorded that answer).
func sysEditedCampaign(t *testing.T) string {
	t.Helper()
	return sysCampaign(t, func(f *fixtures.SystemFixture) error {
		for _, w := range f.Manifest.Workflows {
			if w.System == campaign.SystemSerena && w.Task == "T2" && w.Repetition == 1 {
				return f.EditReview(w, func(r *campaign.Response) {
					r.Final.Claims, r.Final.Citations = r.Final.Claims[:1], r.Final.Citations[:1]
				})
			}
		}
		t.Fatal("no Serena workflow of T2 r1")
		return nil
	})
}

// TestSystemScoreRefusesBrokenCustody: score, reveal --campaign and
// export refuse a system comparison's records whose custody is broken,
// each for its own reason, through the command line: a sealed map whose
// items are rebound to another workflow's review (every record re-signed
// over it), a bundle item whose citation is not the review's, and a
// campaign whose review changed after blinding.
func TestSystemScoreRefusesBrokenCustody(t *testing.T) {
	t.Parallel()
	d := sysDemo(t)
	camp, ratings := filepath.Join(d, "campaign"), filepath.Join(d, "ratings")
	score := func(campDir, dir string) (int, string) {
		code, out, errs := runCLI(t, "score", campDir, "--ratings", dir, "--allowed-signers", filepath.Join(dir, "allowed_signers"))
		return code, out + errs
	}
	copyRatings := func(name string) string {
		dir := filepath.Join(t.TempDir(), name)
		if err := os.CopyFS(dir, os.DirFS(ratings)); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	// The records as written score (no Madar advantage: exit 1, a decision).
	if code, out := score(camp, ratings); code != 1 || !strings.Contains(out, "decision no-madar-advantage") {
		t.Fatalf("demo records: exit %d\n%s", code, out)
	}

	swapped := copyRatings("swapped")
	if err := (fixtures.Forgery{Map: fixtures.SwapWorkflows}).Apply(swapped); err != nil {
		t.Fatal(err)
	}
	if code, out := score(camp, swapped); code != 1 || !strings.Contains(out, "map-mismatch") {
		t.Errorf("map rebinding two workflows' reviews: exit %d\n%s", code, out)
	}

	other := copyRatings("other")
	data, err := os.ReadFile(filepath.Join(other, "bundle-bob.json"))
	if err != nil {
		t.Fatal(err)
	}
	// Bob's bundle cites another file in its first citation than the
	// review it derives from.
	edited := strings.Replace(string(data), `"path": "src/`, `"path": "src/x`, 1)
	if edited == string(data) {
		t.Fatal("no citation path to edit in bob's bundle")
	}
	if err := os.WriteFile(filepath.Join(other, "bundle-bob.json"), []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out := score(camp, other); code != 1 || !strings.Contains(out, "bundle-item-mismatch") {
		t.Errorf("a bundle item that is not the derived one: exit %d\n%s", code, out)
	}

	changed := sysEditedCampaign(t)
	if code, out := score(changed, ratings); code != 1 || !strings.Contains(out, "campaign-changed-after-blinding") {
		t.Errorf("a review edited after blinding: exit %d\n%s", code, out)
	}
	code, out, errs := runCLI(t, "reveal", "--sheet", filepath.Join(ratings, "sheet-ann.json"), "--sheet", filepath.Join(ratings, "sheet-bob.json"),
		"--adjudication", filepath.Join(ratings, "adjudication.json"), "--map", filepath.Join(ratings, "sealed-map.json"),
		"--allowed-signers", filepath.Join(ratings, "allowed_signers"), "--key", filepath.Join(d, "keys", "coordinator-dee"), "--name", "dee",
		"--out", filepath.Join(t.TempDir(), "reveal.json"), "--campaign", changed)
	if code != 1 || !strings.Contains(out+errs, "campaign-changed-after-blinding") {
		t.Errorf("reveal --campaign of a campaign changed after blinding: exit %d\n%s%s", code, out, errs)
	}
	code, out, errs = runCLI(t, "export", "grades", changed, "--ratings", ratings, "--allowed-signers", filepath.Join(ratings, "allowed_signers"))
	if code != 1 || !strings.Contains(out+errs, "campaign-changed-after-blinding") {
		t.Errorf("export grades of a campaign changed after blinding: exit %d\n%s%s", code, out, errs)
	}
}

// TestSystemScoreIncomplete: a system comparison with a session that has
// no receipt yet is in progress: score refuses it (campaign-incomplete,
// exit 3) before reading any record.
func TestSystemScoreIncomplete(t *testing.T) {
	t.Parallel()
	dir := sysCampaign(t, func(f *fixtures.SystemFixture) error {
		w := f.Manifest.Workflows[len(f.Manifest.Workflows)-1]
		delete(f.Receipts, w.Sessions.Review)
		delete(f.Reviews, w.Sessions.Review)
		return nil
	})
	code, out, errs := runCLI(t, "score", dir, "--ratings", t.TempDir(), "--allowed-signers", filepath.Join(t.TempDir(), "absent"))
	if code != 3 || !strings.Contains(out+errs, "campaign-incomplete") {
		t.Errorf("score of a system comparison in progress: exit %d\n%s%s", code, out, errs)
	}
}
