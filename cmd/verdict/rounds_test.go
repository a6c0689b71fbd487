package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"verdict/campaign"
	"verdict/internal/campaigntest"
	"verdict/scorer"
	"verdict/verr"
)

// roundPairDirs writes a SYNTHETIC admissible round-1 campaign and a
// round-2 campaign that binds it by manifest digest, with B's instruction
// extended by revised and change applied to the round-2 files; receipts
// record the rendered inputs truly. It returns both directories.
func roundPairDirs(t *testing.T, revised string, change func(f fstest.MapFS, m *campaign.Manifest)) (r1, r2 string) {
	t.Helper()
	f1 := campaigntest.Campaign(t, campaigntest.Options{Phase: campaign.PhaseDevelopmentRound1, Admissible: true}, 4, 1)
	m1 := campaigntest.ManifestOf(t, f1)
	f2 := fstest.MapFS{}
	for p, f := range f1 {
		f2[p] = &fstest.MapFile{Data: bytes.Clone(f.Data)}
	}
	m2 := campaigntest.ManifestOf(t, f2)
	m2.Phase, m2.CampaignID = campaign.PhaseDevelopmentRound2, "synthetic-round-2"
	m2.PreviousRound = &campaign.PreviousRound{Phase: campaign.PhaseDevelopmentRound1, CampaignID: m1.CampaignID,
		ManifestSHA256: campaigntest.SHA256(f1[campaign.ManifestFile].Data)}
	b := m2.Prompts.ReviewB
	f2[b] = &fstest.MapFile{Data: append(bytes.TrimRight(f2[b].Data, "\n"), []byte(" "+revised+"\n")...)}
	if change != nil {
		change(f2, m2)
	}
	campaigntest.WriteManifest(t, f2, m2)
	campaigntest.TrueReceipts(t, f2)
	return chkWriteDir(t, f1), chkWriteDir(t, f2)
}

func checkRounds(t *testing.T, args ...string) (int, checkReport, map[verr.Reason][]string) {
	t.Helper()
	code, out := chkRunCaptured(t, append([]string{"check", "--format", "json"}, args...)...)
	var rep checkReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	got := map[verr.Reason][]string{}
	for _, p := range rep.Admission {
		got[p.Reason] = append(got[p.Reason], p.File+"#"+p.Pointer+" "+p.Message)
	}
	return code, rep, got
}

// TestCheckRoundTwoAgainstRoundOne: `verdict check ROUND2 --previous
// ROUND1` admits a round 2 that revises only B's instruction and shows the
// change as a unified diff labelled v1.1 (text and JSON); it refuses a
// round 2 that changes another prompt, the tasks or an execution identity
// (round-changed), a revision that names a task ID (also in fullwidth
// digits, after NFKC) or a task sentence (revision-leak), and a previous
// campaign that is not the bound one (previous-round-digest).
func TestCheckRoundTwoAgainstRoundOne(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	const clean = "Before answering, compare every disposition with the revised final answer once more."
	r1, r2 := roundPairDirs(t, clean, nil)
	code, rep, got := checkRounds(t, r2, "--previous", r1)
	if code != 0 || len(got) != 0 || rep.PromptRevision == nil || rep.PromptRevision.Label != "v1.1" ||
		!strings.Contains(rep.PromptRevision.Diff, "+"+strings.TrimSpace(string(campaign.FrozenPrompt(campaign.PromptReviewB)))[:20]) && !strings.Contains(rep.PromptRevision.Diff, clean) {
		t.Fatalf("clean revision: exit %d, admission %v, revision %+v", code, got, rep.PromptRevision)
	}
	_, text := chkRunCaptured(t, "check", r2, "--previous", r1)
	if !strings.Contains(text, "B instruction v1.1") || !strings.Contains(text, "+++ review-b v1.1") || !strings.Contains(text, clean) {
		t.Fatalf("text output lacks the v1.1 diff:\n%s", text)
	}

	cases := []struct {
		name    string
		revised string
		change  func(f fstest.MapFS, m *campaign.Manifest)
		want    verr.Reason
		detail  string
	}{
		{"other prompt", clean, func(f fstest.MapFS, m *campaign.Manifest) {
			p := m.Prompts.Draft
			f[p] = &fstest.MapFile{Data: append(bytes.Clone(f[p].Data), []byte("Be brief.\n")...)}
		}, scorer.ReasonRoundChanged, "prompt draft"},
		{"execution identity", clean, func(_ fstest.MapFS, m *campaign.Manifest) {
			m.Execution.ReasoningEffort = new("high")
		}, scorer.ReasonRoundChanged, "reasoning_effort"},
		{"task text", clean, func(f fstest.MapFS, _ *campaign.Manifest) {
			p := campaign.TaskTextPath("T2")
			f[p] = &fstest.MapFile{Data: append(bytes.Clone(f[p].Data), []byte("More.\n")...)}
		}, scorer.ReasonRoundChanged, "tasks/T2/task.md"},
		{"task ID in fullwidth", "Treat the case of Ｔ３ with care.", nil, scorer.ReasonRevisionLeak, "task ID T3"},
		{"task sentence", "Remember: synthetic TASK T1: explain parsing.", nil, scorer.ReasonRevisionLeak, "sentence of task T1"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r1, r2 := roundPairDirs(t, tc.revised, tc.change)
			code, _, got := checkRounds(t, r2, "--previous", r1)
			if code != 1 || len(got[tc.want]) == 0 || !strings.Contains(strings.Join(got[tc.want], "\n"), tc.detail) {
				t.Fatalf("exit %d, admission %v, want %s naming %q", code, got, tc.want, tc.detail)
			}
		})
	}

	t.Run("not the bound round 1", func(t *testing.T) {
		r1, r2 := roundPairDirs(t, clean, nil)
		other, _ := roundPairDirs(t, clean, func(_ fstest.MapFS, _ *campaign.Manifest) {})
		_ = r1
		m := filepath.Join(other, campaign.ManifestFile)
		b, _ := os.ReadFile(m)
		os.WriteFile(m, bytes.Replace(b, []byte(`"synthetic-load"`), []byte(`"synthetic-other"`), 1), 0o644)
		code, _, got := checkRounds(t, r2, "--previous", other)
		if code != 1 || len(got[scorer.ReasonPreviousRoundDigest]) == 0 {
			t.Fatalf("exit %d, admission %v", code, got)
		}
	})
}

// TestCheckEvaluationAgainstRoundTwo: an evaluation checked against its
// round 2 needs the round-2 report.json it binds (previous-report-missing,
// previous-report-digest), refuses a round 2 whose decision is not
// all-gates-pass (round-2-not-passed) or whose report was made with other
// schema digests (evaluator-changed), and a B text other than round 2's
// (round-changed). SYNTHETIC campaigns and reports.
func TestCheckEvaluationAgainstRoundTwo(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	_, r2 := roundPairDirs(t, "Before answering, compare every disposition with the revised final answer once more.", nil)
	r2Manifest, _ := os.ReadFile(filepath.Join(r2, campaign.ManifestFile))
	report := func(kind scorer.DecisionKind, schemas []campaign.SchemaDigest) []byte {
		b, _ := json.Marshal(map[string]any{
			"provenance": map[string]any{"manifest_sha256": campaigntest.SHA256(r2Manifest), "schemas": schemas, "build": map[string]any{"module": "verdict"}},
			"scorecard":  map[string]any{"campaign_id": "synthetic-round-2", "phase": campaign.PhaseDevelopmentRound2, "decision": map[string]any{"kind": kind}},
		})
		return b
	}
	evaluation := func(t *testing.T, rep []byte, sameB bool) string {
		f, _ := os.ReadFile(filepath.Join(r2, "prompts", "review_b.txt"))
		fe := campaigntest.Campaign(t, campaigntest.Options{Phase: campaign.PhaseEvaluation, Admissible: true}, 4, 1)
		m := campaigntest.ManifestOf(t, fe)
		m.PreviousRound = &campaign.PreviousRound{Phase: campaign.PhaseDevelopmentRound2, CampaignID: "synthetic-round-2",
			ManifestSHA256: campaigntest.SHA256(r2Manifest), ReportSHA256: new(campaigntest.SHA256(rep))}
		if sameB {
			fe[m.Prompts.ReviewB] = &fstest.MapFile{Data: f}
		}
		campaigntest.WriteManifest(t, fe, m)
		campaigntest.TrueReceipts(t, fe)
		return chkWriteDir(t, fe)
	}
	writeReport := func(t *testing.T, b []byte) string {
		p := filepath.Join(t.TempDir(), "report.json")
		os.WriteFile(p, b, 0o644)
		return p
	}
	passed := report(scorer.DecisionAllGatesPass, campaign.SchemaDigests())
	cases := []struct {
		name      string
		bound     []byte // the report the manifest binds
		given     []byte // the report handed to check (nil: none)
		sameB     bool
		want, not []verr.Reason
	}{
		{"passed round 2", passed, passed, true, nil, []verr.Reason{scorer.ReasonRoundChanged, scorer.ReasonRound2NotPassed, scorer.ReasonPreviousReportDigest}},
		{"no report given", passed, nil, true, []verr.Reason{scorer.ReasonPreviousReportMissing}, nil},
		{"another report given", passed, report(scorer.DecisionAllGatesPass, nil), true, []verr.Reason{scorer.ReasonPreviousReportDigest, scorer.ReasonEvaluatorChanged}, nil},
		{"round 2 did not pass", report(scorer.DecisionNoGain, campaign.SchemaDigests()), report(scorer.DecisionNoGain, campaign.SchemaDigests()), true,
			[]verr.Reason{scorer.ReasonRound2NotPassed}, []verr.Reason{scorer.ReasonPreviousReportDigest}},
		{"B differs from round 2", passed, passed, false, []verr.Reason{scorer.ReasonRoundChanged}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := evaluation(t, tc.bound, tc.sameB)
			args := []string{dir, "--previous", r2}
			if tc.given != nil {
				args = append(args, "--previous-report", writeReport(t, tc.given))
			}
			_, _, got := checkRounds(t, args...)
			for _, r := range tc.want {
				if len(got[r]) == 0 {
					t.Errorf("want %s, admission %v", r, got)
				}
			}
			for _, r := range tc.not {
				if len(got[r]) != 0 {
					t.Errorf("unexpected %s: %v", r, got[r])
				}
			}
		})
	}
}

// TestCheckUnverifiedPreviousRound: without --previous, a round-2 manifest
// that names a previous round leaves B's frozen-check exemption unverified
// (previous-round-unverified): a real (non-synthetic) manifest is not
// admitted and the refusal says to give --previous; a synthetic one is
// admitted with the issue reported as a round note (text and JSON).
func TestCheckUnverifiedPreviousRound(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	const clean = "Before answering, compare every disposition with the revised final answer once more."
	_, r2 := roundPairDirs(t, clean, nil)
	code, rep, got := checkRounds(t, r2)
	if code != 0 || len(got) != 0 || len(rep.RoundNotes) != 1 || rep.RoundNotes[0].Reason != scorer.ReasonPreviousRoundUnverified {
		t.Fatalf("synthetic: exit %d, admission %v, round notes %+v", code, got, rep.RoundNotes)
	}
	_, text := chkRunCaptured(t, "check", r2)
	if !strings.Contains(text, "round notes") || !strings.Contains(text, "previous-round-unverified") || !strings.Contains(text, "--previous DIR") {
		t.Fatalf("synthetic text output lacks the round note:\n%s", text)
	}

	_, real := roundPairDirs(t, clean, func(_ fstest.MapFS, m *campaign.Manifest) { m.Synthetic = false })
	code, rep, got = checkRounds(t, real)
	msg := strings.Join(got[scorer.ReasonPreviousRoundUnverified], "\n")
	if code != 1 || !strings.Contains(msg, "manifest.json#/previous_round") || !strings.Contains(msg, "--previous DIR") || len(rep.RoundNotes) != 0 {
		t.Fatalf("real: exit %d, admission %v, round notes %+v", code, got, rep.RoundNotes)
	}
}
