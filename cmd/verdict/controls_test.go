package main

import (
	"bytes"
	"encoding/json"
	"io"
	"io/fs"
	"slices"
	"testing"

	"verdict/fixtures"
	"verdict/scorer"
	"verdict/verr"
)

// TestControlsCommand runs `verdict controls --format json` twice through
// the command line: it exits 0, every row behaves as specified, the
// passing campaign passes, and the JSON bytes are identical across runs.
func TestControlsCommand(t *testing.T) {
	t.Parallel()
	var outs [2][]byte
	for i := range outs {
		code, out, errOut := runCLI(t, "controls", "--format", "json")
		if code != 0 {
			t.Fatalf("run %d: exit %d\n%s", i, code, errOut)
		}
		outs[i] = []byte(out)
	}
	if !bytes.Equal(outs[0], outs[1]) {
		t.Error("controls --format json output differs between runs")
	}
	var out controlsOutput
	if err := json.Unmarshal(outs[0], &out); err != nil {
		t.Fatal(err)
	}
	if !out.Pass || !out.PassingCampaignPasses || len(out.Failed) != 0 || out.Rows != len(fixtures.Controls()) {
		t.Errorf("pass %t, passing campaign %t, failed %v, rows %d", out.Pass, out.PassingCampaignPasses, out.Failed, out.Rows)
	}
	checkSystemRows(t, out)
}

// checkSystemRows: the system comparison's rows (CONTRACT §6) are in the
// command's output and pass: every comparative gate of Madar at its
// inclusive bound (passing) and one unit over it (failing alone), the
// frozen denominator when a provider returns nothing, an investigation-stage
// failure, a wrong but nonempty draft, truthful unknowns (on the U set:
// U credit, never R_sys; on a repository-answerable obligation: counted
// apart, never addressed, a critical one failing critical completion;
// refused outside the task's obligations and on a fixed-evidence field),
// the simpler-and-cheaper comparator, blinding
// a system comparison (its leak scan) and a plan of workflow dispatches;
// and the system comparison scored through the score pipeline (SS- rows:
// each generated outcome, a tampered map, a bundle item of another
// workflow, a campaign changed after blinding, the denominator, each of
// Madar's gates exactly at its bound and one smallest step over it, and
// the truthful unknowns: accepted, none, critical, on the U set, unsettled
// and outside the task's obligations).
func checkSystemRows(t *testing.T, out controlsOutput) {
	t.Helper()
	byID := map[string]fixtures.ControlResult{}
	for _, r := range out.Results {
		byID[r.Row.ID] = r
	}
	ids := []string{"S-PASS", "S-denominator", "S-investigation-failure", "S-wrong-draft", "S-truthful-unknowns", "S-comparator-cheaper",
		"SS-map-other-workflow", "SS-bundle-other-workflow", "SS-campaign-changed", "SS-denominator",
		"S-truthful-unknown-u-set", "S-truthful-unknown-u-set-none", "S-truthful-unknown-answerable",
		"S-truthful-unknown-answerable-none", "S-truthful-unknown-critical", "S-truthful-unknown-outside",
		"SS-truthful-unknown", "SS-truthful-unknown-none", "SS-truthful-unknown-critical", "SS-truthful-unknown-u-set",
		"SS-truthful-unknown-unsettled", "SS-truthful-unknown-outside",
		"SU-fixed-grade", "SU-system-grade", "SU-blind", "SU-blind-leak", "SU-admit-plan"}
	for _, g := range []string{scorer.GateNativeSuiteCost, scorer.GateNativeSuiteTime, scorer.GateNativeCriticalQuality, scorer.GateNativeTaskMedianCost,
		scorer.GateNativeTaskMedianTime, scorer.GateNativePairedCost, scorer.GateNativePairedTime, scorer.GateSerenaMacroQuality,
		scorer.GateSerenaSuiteCost, scorer.GateSerenaSuiteTime, scorer.GateSerenaTaskMedianCost, scorer.GateSerenaTaskMedianTime,
		scorer.GateSerenaPairedCost, scorer.GateSerenaPairedTime} {
		ids = append(ids, "S-"+g+"-bound", "S-"+g+"-over", "SS-"+g+"-bound", "SS-"+g+"-over")
		// Through the score pipeline: the over row fails the gate by name,
		// the bound row passes it and, for a numeric gate, sits exactly at
		// the bound.
		if !slices.Contains(byID["SS-"+g+"-over"].Observed, "failing-gate:"+g) || slices.Contains(byID["SS-"+g+"-bound"].Observed, "failing-gate:"+g) {
			t.Errorf("%s through score: bound %v, over %v", g, byID["SS-"+g+"-bound"].Observed, byID["SS-"+g+"-over"].Observed)
		}
		if g != scorer.GateNativeCriticalQuality && !slices.Contains(byID["SS-"+g+"-bound"].Observed, "binding:"+g+"=at-bound") {
			t.Errorf("%s's bound row is not at its bound: %v", g, byID["SS-"+g+"-bound"].Observed)
		}
		over := byID["S-"+g+"-over"]
		if !slices.Contains(over.Observed, "failing-gate:"+g) {
			t.Errorf("%s one over its bound does not fail it: %v", g, over.Observed)
		}
		if bound := byID["S-"+g+"-bound"]; slices.Contains(bound.Observed, "failing-gate:"+g) {
			t.Errorf("%s at its bound fails: %v", g, bound.Observed)
		}
	}
	// Each generated outcome reaches its own decision through score.
	for _, o := range fixtures.SystemOutcomes() {
		id := "SS-outcome-" + string(o)
		ids = append(ids, id)
		if !slices.Contains(byID[id].Observed, "decision:"+string(o)) {
			t.Errorf("%s: %v", id, byID[id].Observed)
		}
	}
	for _, id := range ids {
		if r, ok := byID[id]; !ok || !r.Pass {
			t.Errorf("system row %s: present %t, result %+v", id, ok, r)
		}
	}
	if r := byID["S-denominator"]; !slices.Contains(r.Observed, "workflow:R_sys=2/5") {
		t.Errorf("the denominator shrank when a provider returned nothing: %v", r.Observed)
	}
	if r := byID["SS-denominator"]; !slices.Contains(r.Observed, "workflow:serena/T2/r1:R_sys=1/2") {
		t.Errorf("the scored denominator followed the answer: %v", r.Observed)
	}
	// U credit never raises R_sys: a truthful unknown of the U set gives U
	// credit and the same R_sys as the U set not credited.
	tu, none := byID["S-truthful-unknown-u-set"], byID["S-truthful-unknown-u-set-none"]
	if !slices.Contains(tu.Observed, "workflow:R_sys=3/5") || !slices.Contains(tu.Observed, "workflow:U=1/1") || !slices.Contains(none.Observed, "workflow:R_sys=3/5") {
		t.Errorf("a truthful unknown moved R_sys or earned no U credit: %v / %v", tu.Observed, none.Observed)
	}
	// A truthful unknown on a repository-answerable obligation is counted
	// and leaves R_sys where not addressed leaves it; through score it is
	// below the fully answered review's.
	tu, none = byID["S-truthful-unknown-answerable"], byID["S-truthful-unknown-answerable-none"]
	if !slices.Contains(tu.Observed, "workflow:truthful-unknowns=1") || !slices.Contains(tu.Observed, "workflow:R_sys=4/5") || !slices.Contains(none.Observed, "workflow:R_sys=4/5") {
		t.Errorf("a truthful unknown on a repository-answerable obligation raised R_sys or was not counted: %v / %v", tu.Observed, none.Observed)
	}
	if r := byID["SS-truthful-unknown"]; !slices.Contains(r.Observed, "workflow:native/T4/r1:R_sys=1/2") || !slices.Contains(r.Observed, "workflow:native/T4/r1:truthful-unknowns=1") {
		t.Errorf("the scored truthful unknown: %v", r.Observed)
	}
	if r := byID["SS-truthful-unknown-unsettled"]; !slices.Contains(r.Observed, "score-refusal:unresolved-disagreement") {
		t.Errorf("an unsettled truthful unknown was scored: %v", r.Observed)
	}
	if r := byID["SU-fixed-grade"]; !slices.Contains(r.Observed, "refused:truthful-unknown-outside-obligations") {
		t.Errorf("truthful_unknown was not refused on a fixed-evidence field: %v", r.Observed)
	}
}

// rejectAll is a deliberately broken verifier: it refuses every campaign
// and every set of ratings.
type rejectAll struct{}

func (rejectAll) Check(fs.FS) fixtures.CheckResult {
	return fixtures.CheckResult{Refusals: []verr.Reason{"rejected"}}
}

func (rejectAll) Score(fs.FS, string) (*scorer.Report, error) {
	return nil, &verr.Error{Reason: "rejected", Detail: "this verifier rejects everything"}
}

// TestControlsFailWithVerifierThatRejectsEverything: a verifier that
// rejects everything makes the control suite exit 1, and the passing row
// is among the failures (CLI-HANDOFF: "A verifier that rejects everything
// is not acceptable").
func TestControlsFailWithVerifierThatRejectsEverything(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	err := runControls(&app{stdout: &buf, stderr: io.Discard}, rejectAll{}, "json")
	if code := exitCode(err, "text", io.Discard, io.Discard); code != 1 {
		t.Fatalf("exit %d, want 1 (%v)", code, err)
	}
	var out controlsOutput
	if err := json.Unmarshal(buf.Bytes(), &out); err != nil {
		t.Fatal(err)
	}
	if out.Pass || out.PassingCampaignPasses || len(out.Failed) == 0 || out.Failed[0] != "PASS" {
		t.Errorf("pass %t, passing campaign %t, failed %v", out.Pass, out.PassingCampaignPasses, out.Failed)
	}
}
