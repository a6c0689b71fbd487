package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"verdict/campaign"
	"verdict/fixtures"
	"verdict/internal/campaigntest"
	"verdict/scorer"
	"verdict/verr"
)

// receiptMutations are the receipt mutations of the expected-result table
// with the receipt record each names (file#pointer under the campaign).
var receiptMutations = []struct {
	id      string
	reason  verr.Reason
	pointer string
}{
	{"R01-record-missing", scorer.ReasonReceiptRecordMissing, "/request_id"},
	{"R02-end-before-start", scorer.ReasonReceiptEndBeforeStart, "/ended_utc"},
	{"R03-delivered-input", scorer.ReasonDeliveredInputMismatch, "/input_sha256"},
	{"R04-output", scorer.ReasonOutputMismatch, "/output_sha256"},
	{"R05-meter-missing", scorer.ReasonMeterIncomplete, "/meter"},
	{"R06-meter-inconsistent", scorer.ReasonMeterIncomplete, "/meter"},
	{"R07-review-before-draft", scorer.ReasonReviewBeforeDraftEnded, "/started_utc"},
	{"R08-overlap", scorer.ReasonSessionsOverlap, "/started_utc"},
	{"R09-arm-order", scorer.ReasonArmOrderViolated, "/started_utc"},
	{"R10-host", scorer.ReasonHostMismatch, "/host"},
	{"R13-clock-jump", scorer.ReasonReceiptClocksDisagree, "/ended_utc"},
}

// TestReceiptRulesThroughCommands: each receipt rule, applied to the
// passing campaign, makes `verdict check` exit 1 naming the session's
// receipt, the JSON pointer and the reason, and makes `verdict score`
// (with signed ratings made on the mutated campaign) decide execution-invalid,
// naming the same session and record in the execution-validity
// prerequisite (CONTRACT §5 Required records; §2 serial, one host).
func TestReceiptRulesThroughCommands(t *testing.T) {
	t.Parallel()
	_, key, err := fixtures.GenerateWithKey(fixtures.Options{Passing: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range receiptMutations {
		t.Run(m.id, func(t *testing.T) {
			mf, err := fixtures.Mutated(m.id)
			if err != nil {
				t.Fatal(err)
			}
			// The mutated campaign is blinded and rated as it is: ratings
			// made before a mutation are refused
			// (campaign-changed-after-blinding).
			dir := t.TempDir()
			var log bytes.Buffer
			if _, err := runChain(&app{stdout: &log, stderr: &log}, mf, key, dir); err != nil {
				t.Fatalf("%v\n%s", err, log.String())
			}
			camp, ratings := filepath.Join(dir, "campaign"), filepath.Join(dir, "ratings")
			code, out := chkRunCaptured(t, "check", camp)
			if code != 1 || !strings.Contains(out, "result: NOT ADMITTED") {
				t.Fatalf("check: exit %d\n%s", code, out)
			}
			var named string
			for _, l := range strings.Split(out, "\n") {
				if strings.Contains(l, " "+string(m.reason)+": ") && strings.Contains(l, "receipts/S") && strings.Contains(l, ".json#"+m.pointer+" ") {
					named = l
				}
			}
			if named == "" {
				t.Fatalf("check does not name a receipt#%s with %s\n%s", m.pointer, m.reason, out)
			}
			session := named[strings.Index(named, "receipts/")+len("receipts/") : strings.Index(named, ".json#")]
			code, out = chkRunCaptured(t, "score", camp, "--ratings", ratings, "--allowed-signers", filepath.Join(ratings, "allowed_signers"), "--format", "json")
			var rep struct {
				Scorecard struct {
					Decision struct {
						Kind                string   `json:"kind"`
						FailedPrerequisites []string `json:"failed_prerequisites"`
					} `json:"decision"`
					Prerequisites []struct {
						ID     string `json:"id"`
						OK     bool   `json:"ok"`
						Detail string `json:"detail"`
					} `json:"prerequisites"`
				} `json:"scorecard"`
			}
			if err := json.Unmarshal([]byte(out), &rep); err != nil {
				t.Fatalf("score: exit %d, not JSON: %v\n%.2000s", code, err, out)
			}
			if code != 1 || rep.Scorecard.Decision.Kind != string(scorer.DecisionExecutionInvalid) {
				t.Fatalf("score: exit %d, decision %s", code, rep.Scorecard.Decision.Kind)
			}
			var detail string
			for _, p := range rep.Scorecard.Prerequisites {
				if p.ID == scorer.PrereqExecutionValidity && !p.OK {
					detail = p.Detail
				}
			}
			want := string(m.reason) + " " + session + " (receipts/" + session + ".json#" + m.pointer + ")"
			if !strings.Contains(detail, want) {
				t.Fatalf("score's execution-validity prerequisite does not say %q: %q", want, detail)
			}
		})
	}
}

// TestOverBoundReviewIsScoredFailure: a review whose receipt says response
// but that billed 8,001 output tokens is scored as budget exhaustion
// (R=0, critical completion failed, valid failure), and check still
// admits the campaign (CONTRACT §4).
func TestOverBoundReviewIsScoredFailure(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fsys, key, err := fixtures.GenerateWithKey(fixtures.Options{Specimen: "R-bound-review"})
	if err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	rep, err := runChain(&app{stdout: &log, stderr: &log}, fsys, key, dir)
	if err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	if code, out := chkRunCaptured(t, "check", filepath.Join(dir, "campaign")); code != 0 || !strings.Contains(out, "result: ADMITTED") {
		t.Fatalf("check: exit %d\n%s", code, out)
	}
	var found bool
	for _, r := range rep.(*scorer.Report).Scorecard.Runs {
		if r.Outcome == scorer.OutcomeValidFailure && r.FailureKind == string(campaign.ErrorBudget) {
			found = true
			if r.R.Rat().Sign() != 0 || !r.CriticalCompletionFailed {
				t.Errorf("over-bound review %s: R %s, critical completion failed %v", r.Session, r.R.Rat(), r.CriticalCompletionFailed)
			}
		}
	}
	if !found || rep.Outcome().Kind == scorer.DecisionExecutionInvalid {
		t.Fatalf("no budget-exhausted valid failure, or decision %s", rep.Outcome().Kind)
	}
}

// TestAdmitPlanRefusesRerunsThroughCommand: `verdict admit --plan` refuses
// a rerun of a recorded session, a run the manifest lacks and a
// replacement of a valid triplet before any budget, admits the one
// replacement of an infrastructure-invalid triplet and refuses a second;
// the actual charge no receipt recorded is printed unknown.
func TestAdmitPlanRefusesRerunsThroughCommand(t *testing.T) {
	t.Parallel()
	passing, err := fixtures.Generate(fixtures.Options{Passing: true})
	if err != nil {
		t.Fatal(err)
	}
	dir := chkWriteDir(t, passing)
	pf := filepath.Join(t.TempDir(), "plan.json")
	writePlan := func(dispatches string) {
		plan := `{"format":"verdict-admission-plan/1","prior_consumption":{"sessions":0,"replacement_sessions":0,"wall_ns":0,"input_tokens":0,"output_tokens":0,"reference_micro_usd":0,"actual_micro_usd":0},"dispatches":[` + dispatches + `]}`
		if err := os.WriteFile(pf, []byte(plan), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	writePlan(`{"id":"P1","task":"T1","repetition":1,"role":"draft","replacement":false},` +
		`{"id":"P2","task":"T1","repetition":4,"role":"draft","replacement":false},` +
		`{"id":"P3","task":"T2","repetition":1,"role":"review-b","replacement":true}`)
	code, out := chkRunCaptured(t, "admit", dir, "--plan", pf)
	for _, want := range []string{
		"P1 T1 r1 draft     REFUSE " + string(scorer.ReasonDispatchRerun) + ":",
		"P2 T1 r4 draft     REFUSE " + string(scorer.ReasonDispatchUnknownRun) + ":",
		"P3 T2 r1 review-b  REFUSE " + string(scorer.ReasonReplacementWithoutInvalid) + ":",
		"actual unknown (72 sessions without a recorded charge",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("admit output lacks %q", want)
		}
	}
	if code != 1 || t.Failed() {
		t.Fatalf("exit %d\n%s", code, out)
	}
	// The one allowed replacement: cross-arm leakage is verified infrastructure.
	m := campaigntest.ManifestOf(t, passing)
	s := m.Runs[0].Sessions.ReviewA
	rc := passing[campaign.ReceiptPath(s)].Data
	passing[campaign.ReceiptPath(s)].Data = bytes.Replace(rc, []byte(`"arm_state_leaked": false`), []byte(`"arm_state_leaked": true`), 1)
	campaigntest.Rebind(t, passing)
	dir = chkWriteDir(t, passing)
	task := m.Runs[0].Task
	writePlan(`{"id":"P1","task":"` + task + `","repetition":1,"role":"draft","replacement":true},` +
		`{"id":"P2","task":"` + task + `","repetition":1,"role":"review-a","replacement":true},` +
		`{"id":"P3","task":"` + task + `","repetition":1,"role":"review-b","replacement":true},` +
		`{"id":"P4","task":"` + m.Runs[1].Task + `","repetition":1,"role":"draft","replacement":true}`)
	code, out = chkRunCaptured(t, "admit", dir, "--plan", pf)
	if code != 1 || !strings.Contains(out, "3 admitted, 1 refused") || !strings.Contains(out, "REFUSE "+string(scorer.ReasonReplacementLimit)) {
		t.Fatalf("exit %d\n%s", code, out)
	}
}
