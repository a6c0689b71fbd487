package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"verdict/fixtures"
	"verdict/internal/campaigntest"
	"verdict/scorer"
)

// TestPlannedSessionsThroughCommands: a campaign in progress (the last
// manifest run planned, not started: no receipts, no responses) is
// incomplete for `verdict check` (exit 3, campaign-incomplete, no
// invalid execution), `verdict admit --plan` plans the planned run's
// dispatches under the ceilings and still refuses reruns and unknown
// runs, and `verdict score` refuses it with campaign-incomplete (exit 3,
// as check).
func TestPlannedSessionsThroughCommands(t *testing.T) {
	mf, err := fixtures.Mutated("R11-planned")
	if err != nil {
		t.Fatal(err)
	}
	dir := chkWriteDir(t, mf)
	code, out := chkRunCaptured(t, "check", dir)
	if code != 3 || !strings.Contains(out, "result: INCOMPLETE") || !strings.Contains(out, "manifest.json#/runs "+string(scorer.ReasonCampaignIncomplete)+": 3 planned sessions have not started") {
		t.Fatalf("check: exit %d\n%s", code, out)
	}
	for _, bad := range []string{string(scorer.ReasonMissingTerminalReceipt), string(scorer.ReasonInvalidNotReplaced), "next dispatch: PROHIBITED"} {
		if strings.Contains(out, bad) {
			t.Errorf("check calls a planned session %s\n%s", bad, out)
		}
	}

	m := campaigntest.ManifestOf(t, mf)
	last := m.Runs[len(m.Runs)-1]
	first, second := "review-a", "review-b"
	if last.Order == "B-first" {
		first, second = second, first
	}
	d := func(id, task string, rep int, role string) string {
		return `{"id":"` + id + `","task":"` + task + `","repetition":` + string(rune('0'+rep)) + `,"role":"` + role + `","replacement":false}`
	}
	pf := filepath.Join(t.TempDir(), "plan.json")
	plan := `{"format":"verdict-admission-plan/1","prior_consumption":{"sessions":0,"replacement_sessions":0,"wall_ns":0,"input_tokens":0,"output_tokens":0,"reference_micro_usd":0,"actual_micro_usd":0},"dispatches":[` +
		d("P1", last.Task, last.Repetition, "draft") + "," + d("P2", last.Task, last.Repetition, first) + "," + d("P3", last.Task, last.Repetition, second) + `]}`
	if err := os.WriteFile(pf, []byte(plan), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out = chkRunCaptured(t, "admit", dir, "--plan", pf)
	if !strings.Contains(out, "3 admitted, 0 refused") {
		t.Fatalf("admit --plan of the planned run: exit %d\n%s", code, out)
	}
	plan = strings.Replace(plan, d("P3", last.Task, last.Repetition, second), d("P3", m.Runs[0].Task, m.Runs[0].Repetition, "draft")+","+d("P4", last.Task, 4, "draft"), 1)
	if err := os.WriteFile(pf, []byte(plan), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out = chkRunCaptured(t, "admit", dir, "--plan", pf)
	if code != 1 || !strings.Contains(out, "2 admitted, 2 refused") || !strings.Contains(out, "admission refused: "+string(scorer.ReasonCampaignIncomplete)+" (3 planned sessions not started)") ||
		!strings.Contains(out, "REFUSE "+string(scorer.ReasonDispatchRerun)) || !strings.Contains(out, "REFUSE "+string(scorer.ReasonDispatchUnknownRun)) {
		t.Fatalf("admit --plan with a rerun and an unknown run: exit %d\n%s", code, out)
	}

	code, out = runCombined(t, "score", dir, "--ratings", t.TempDir(), "--allowed-signers", filepath.Join("..", "..", "fixtures", "keys", "allowed_signers"))
	if code != 3 || !strings.Contains(out, string(scorer.ReasonCampaignIncomplete)) {
		t.Fatalf("score: exit %d\n%s", code, out)
	}
}
