package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"verdict/adjudication"
	"verdict/fixtures"
	"verdict/pipeline"
	"verdict/scorer"
	"verdict/verr"
)

// TestDemoChainAndScoreRefusals runs the whole chain once on the passing
// SYNTHETIC campaign (all gates pass through the public entry points), then
// checks that score refuses a changed sheet byte and a reveal that does not
// name the sheets used, and exits 1 on the default campaign's failing gates.
func TestDemoChainAndScoreRefusals(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fsys, key, err := fixtures.GenerateWithKey(fixtures.Options{Passing: true, Tasks: 8, Repetitions: 3})
	if err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	rep, err := runChain(&app{stdout: &log, stderr: &log}, fsys, key, dir)
	if err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	if rep.Outcome().Kind != scorer.DecisionAllGatesPass {
		t.Fatalf("passing campaign: %s", rep.Outcome().Summary)
	}
	for _, f := range []string{"report.json", "report.md", scorer.ChartMedianR, scorer.ChartRatios, scorer.ChartPairs} {
		if _, err := os.Stat(filepath.Join(dir, "report", f)); err != nil {
			t.Errorf("report file %s: %v", f, err)
		}
	}
	camp, ratings := filepath.Join(dir, "campaign"), filepath.Join(dir, "ratings")
	if code, _, _ := runCLI(t, "score", camp, "--ratings", ratings, "--allowed-signers", filepath.Join(ratings, "allowed_signers"), "--format", "json"); code != 0 {
		t.Fatalf("score exit %d, want 0", code)
	}
	// A changed byte in a signed sheet is refused.
	sheet := filepath.Join(ratings, "sheet-ann.json")
	orig, _ := os.ReadFile(sheet)
	changed := bytes.Replace(orig, []byte(`"addressed"`), []byte(`"not_addressed"`), 1)
	os.WriteFile(sheet, changed, 0o600)
	if _, err := pipeline.Score(os.DirFS(camp), pipeline.RatingsIn(ratings, fixtures.RatingsAllowedSigners(ratings)), pipeline.ScoreOptions{}); err == nil ||
		!strings.Contains(err.Error(), "signature") {
		t.Errorf("changed sheet: %v", err)
	}
	if code, _, _ := runCLI(t, "score", camp, "--ratings", ratings, "--allowed-signers", filepath.Join(ratings, "allowed_signers")); code != 1 {
		t.Errorf("changed sheet: exit %d, want 1", code)
	}
	os.WriteFile(sheet, orig, 0o600)
	// A bundle whose bytes differ from the ones the campaign derives through
	// the sealed map is refused before any sheet is read.
	bundle := filepath.Join(ratings, "bundle-ann.json")
	origBundle, _ := os.ReadFile(bundle)
	os.WriteFile(bundle, bytes.Replace(origBundle, []byte(`"rater": "ann"`), []byte(`"rater":  "ann"`), 1), 0o600)
	if _, err := pipeline.Score(os.DirFS(camp), pipeline.RatingsIn(ratings, fixtures.RatingsAllowedSigners(ratings)), pipeline.ScoreOptions{}); err == nil ||
		!strings.Contains(err.Error(), string(pipeline.ReasonBundleItemMismatch)) {
		t.Errorf("changed bundle: %v", err)
	}
	os.WriteFile(bundle, origBundle, 0o600)
	// A missing reveal is refused.
	os.Rename(filepath.Join(ratings, "reveal.json"), filepath.Join(ratings, "reveal.moved"))
	if _, err := pipeline.Score(os.DirFS(camp), pipeline.RatingsIn(ratings, fixtures.RatingsAllowedSigners(ratings)), pipeline.ScoreOptions{}); err == nil {
		t.Error("score without a reveal succeeded")
	}
	os.Rename(filepath.Join(ratings, "reveal.moved"), filepath.Join(ratings, "reveal.json"))
	// A missing allowed_signers file or sealed map is a typed refusal naming
	// the file, not a bare system error: allowed-signers-missing for the
	// trust root (as every verifying command says), record-set for the map.
	for flag, reason := range map[string]verr.Reason{
		"--allowed-signers": adjudication.ReasonAllowedSignersMissing,
		"--map":             pipeline.ReasonRecordSet,
	} {
		absent := filepath.Join(dir, "absent")
		code, out := chkRunCaptured(t, "score", camp, "--ratings", ratings, "--allowed-signers", filepath.Join(ratings, "allowed_signers"), flag, absent)
		if code != 1 || !strings.Contains(out, absent+": "+string(reason)+":") {
			t.Errorf("score %s absent: exit %d, want 1 with %s naming the file; stdout %q", flag, code, reason, out)
		}
	}
	// Usage error.
	if code, _, _ := runCLI(t, "score", camp); code != 2 {
		t.Errorf("missing --ratings: exit %d, want 2", code)
	}
}

// TestScoreLargeCampaignReportsEveryScorecard: a generated campaign larger
// than the first-campaign shape (10 tasks) fails manifest admission and the
// campaign ceilings, so the decision is "execution invalid" naming those
// prerequisites; score still computes and reports every run, task, pair
// and gate (CONTRACT: report every run).
func TestScoreLargeCampaignReportsEveryScorecard(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs the whole chain")
	}
	fsys, key, err := fixtures.GenerateWithKey(fixtures.Options{Passing: true, Tasks: 10, Repetitions: 3})
	if err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	rep, err := runChain(&app{stdout: &log, stderr: &log}, fsys, key, t.TempDir())
	if err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	sc := rep.(*scorer.Report).Scorecard
	if sc.Decision.Kind != scorer.DecisionExecutionInvalid || len(sc.Decision.FailedPrerequisites) == 0 {
		t.Fatalf("decision %s, failed prerequisites %v", sc.Decision.Kind, sc.Decision.FailedPrerequisites)
	}
	if len(sc.Runs) != 10*3*2 || len(sc.Tasks) != 10 || len(sc.Pairs) != 10*3 || len(sc.Gates) == 0 {
		t.Fatalf("runs %d, tasks %d, pairs %d, gates %d", len(sc.Runs), len(sc.Tasks), len(sc.Pairs), len(sc.Gates))
	}
	for _, ts := range sc.Tasks {
		if ts.A.MedianR == nil || ts.B.MedianR == nil {
			t.Fatalf("task %s has no median R", ts.Task)
		}
	}
}

// TestScoreTextNotTerminal: `verdict score` with its standard output a
// file (not a terminal) prints plain text in the default text format: no
// escape codes, no padding spaces, the SYNTHETIC notice on line 1. The
// Markdown starts with the notice and the JSON's first member is it.
func TestScoreTextNotTerminal(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if code, out, errOut := runCapture(t, "demo", "--out", dir); code != 0 {
		t.Fatalf("demo exit %d\n%s%s", code, out, errOut)
	}
	camp, ratings := filepath.Join(dir, "campaign"), filepath.Join(dir, "ratings")
	_, out, _ := runCapture(t, "score", camp, "--ratings", ratings, "--allowed-signers", filepath.Join(ratings, "allowed_signers"))
	if strings.Contains(out, "\x1b") {
		t.Error("escape codes in text written to a file")
	}
	if !strings.HasPrefix(out, scorer.SyntheticNotice+"\n") {
		t.Errorf("line 1 is not the notice: %q", out[:min(len(out), 120)])
	}
	if strings.Contains(out, "    \n") || strings.Contains(out, " \n") {
		t.Error("padding spaces at line ends")
	}
	_, md, _ := runCapture(t, "score", camp, "--ratings", ratings, "--allowed-signers", filepath.Join(ratings, "allowed_signers"), "--format", "md")
	if !strings.HasPrefix(md, scorer.SyntheticNotice+"\n") {
		t.Errorf("md line 1 is not the notice: %q", md[:min(len(md), 120)])
	}
	_, js, _ := runCapture(t, "score", camp, "--ratings", ratings, "--allowed-signers", filepath.Join(ratings, "allowed_signers"), "--format", "json")
	if !strings.HasPrefix(js, "{\n  \"notice\": \""+scorer.SyntheticNotice+"\"") {
		t.Errorf("json does not open with the notice: %q", js[:min(len(js), 120)])
	}
	if s := textStyle(&bytes.Buffer{}); s != "notty" {
		t.Errorf("textStyle(buffer) = %q", s)
	}
}
