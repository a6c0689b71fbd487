package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"verdict/fixtures"
	"verdict/scorer"
)

// TestLedgerRefusalKeepsValidFinal runs the C16-ledger specimen (two B
// reviews with a valid final and a null or out-of-schema reconciliation,
// SYNTHETIC) through `verdict check` and the whole chain to `verdict
// score`: check reports two ledger refusals and no scored failure; score
// grades both finals as any other answer, fails only those reviews'
// protocol gates, and decides quality-improves-gate-fails on condition 4
// alone (CONTRACT §4), not no-gain.
func TestLedgerRefusalKeepsValidFinal(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	fsys, key, err := fixtures.GenerateWithKey(fixtures.Options{Specimen: "C16-ledger"})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var log bytes.Buffer
	if _, err := runChain(&app{stdout: &log, stderr: &log}, fsys, key, dir); err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	camp := filepath.Join(dir, "campaign")
	_, out := chkRunCaptured(t, "check", camp, "--format", "json")
	var rep checkReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	var got []string
	for _, p := range rep.LedgerRefusals {
		got = append(got, string(p.Reason)+" "+p.Pointer)
		if !strings.HasPrefix(p.File, "responses/") || !strings.Contains(p.Rule, "CONTRACT §4") {
			t.Errorf("ledger refusal without file or rule: %+v", p)
		}
	}
	slices.Sort(got)
	want := []string{"enum /reconciliation/evidence_dispositions/0/status", "reconciliation-role /reconciliation"}
	if !slices.Equal(got, want) || len(rep.ScoredFailures) != 0 || len(rep.Refusals) != 0 || len(rep.Admission) != 0 {
		t.Fatalf("check: ledger refusals %v (want %v), scored failures %v, refusals %v, admission %v",
			got, want, rep.ScoredFailures, rep.Refusals, rep.Admission)
	}
	_, text := chkRunCaptured(t, "check", camp)
	if !strings.Contains(text, "ledger refusals (valid final answers") || !strings.Contains(text, "result: ADMITTED") {
		t.Fatalf("check text:\n%s", text)
	}

	code, js := chkRunCaptured(t, "score", camp, "--ratings", filepath.Join(dir, "ratings"), "--allowed-signers", filepath.Join(filepath.Join(dir, "ratings"), "allowed_signers"), "--format", "json")
	if code != 1 {
		t.Fatalf("score exit %d, want 1 (a gate fails)", code)
	}
	var report struct {
		Scorecard struct {
			Decision scorer.Decision `json:"decision"`
			Runs     []struct {
				scorer.RunScore
				R struct{ Num, Den int64 } `json:"r"`
			} `json:"runs"`
		} `json:"scorecard"`
	}
	if err := json.Unmarshal([]byte(js), &report); err != nil {
		t.Fatal(err)
	}
	d := report.Scorecard.Decision
	if d.Kind != scorer.DecisionQualityImprovesGateFails || !slices.Equal(d.FailingGates, []string{scorer.GateCondition4}) {
		t.Fatalf("decision %s, failing %v: %s", d.Kind, d.FailingGates, d.Summary)
	}
	broken := 0
	for _, r := range report.Scorecard.Runs {
		if r.Arm != scorer.ArmB || r.ProtocolGate == nil || *r.ProtocolGate {
			continue
		}
		broken++
		if r.Outcome != scorer.OutcomeAnswered || r.Item == "" || r.Claims == nil || !r.SourceGate || r.CriticalCompletionFailed ||
			r.R.Num == 0 || r.R.Num != r.R.Den || len(r.ProtocolFailures) != 1 || !strings.HasPrefix(r.ProtocolFailures[0], string(scorer.ReasonLedgerRefused)+":") {
			t.Errorf("a ledger-refused review must keep its graded final (R %d/%d): %+v", r.R.Num, r.R.Den, r.RunScore)
		}
	}
	if broken != 2 {
		t.Fatalf("%d B reviews fail the protocol gate, want 2", broken)
	}
}
