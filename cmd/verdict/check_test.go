package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"verdict/blinding"
	"verdict/campaign"
	"verdict/internal/campaigntest"
)

// writeDir writes fsys under a new temporary directory and returns it.
func chkWriteDir(t *testing.T, fsys fstest.MapFS) string {
	t.Helper()
	dir := t.TempDir()
	for p, f := range fsys {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// runCaptured runs the real command line and returns its exit code and stdout.
func chkRunCaptured(t *testing.T, args ...string) (int, string) {
	t.Helper()
	code, out, _ := runCLI(t, args...)
	return code, out
}

func TestCheckAdmitted(t *testing.T) {
	t.Parallel()
	dir := chkWriteDir(t, campaigntest.Campaign(t, campaigntest.Options{Phase: campaign.PhaseDevelopmentRound1, Admissible: true}, 4, 1))
	code, out := chkRunCaptured(t, "check", dir)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, out)
	}
	if !strings.HasPrefix(out, "SYNTHETIC") || !strings.Contains(out, "result: ADMITTED") ||
		!strings.Contains(out, campaign.ResponseSchemaSHA256()) || !strings.Contains(out, "tasks 4, runs 4, sessions 12") {
		t.Fatalf("output:\n%s", out)
	}
	code1, j1 := chkRunCaptured(t, "check", dir, "--format", "json")
	code2, j2 := chkRunCaptured(t, "check", dir, "--format=json")
	if code1 != 0 || code2 != 0 || j1 != j2 {
		t.Fatalf("json runs differ or fail: %d %d", code1, code2)
	}
	var rep checkReport
	if err := json.Unmarshal([]byte(j1), &rep); err != nil {
		t.Fatal(err)
	}
	if !rep.Admitted || !rep.Synthetic || len(rep.Schemas) != 5 || *rep.Counts.ResponsesValid != 12 {
		t.Fatalf("%+v", rep)
	}
}

func TestCheckRefused(t *testing.T) {
	t.Parallel()
	f := campaigntest.Campaign(t, campaigntest.Options{Phase: campaign.PhaseDevelopmentRound1, Admissible: true}, 4, 1)
	src := campaign.SourcePath("synthetic/repo1", "src/t1/f2.ts")
	f[src] = &fstest.MapFile{Data: bytes.Replace(f[src].Data, []byte("= 2;"), []byte("= 3;"), 1)}
	dir := chkWriteDir(t, f)
	code, out := chkRunCaptured(t, "check", dir)
	if code != 1 || !strings.Contains(out, src+" file-digest:") || !strings.Contains(out, "result: REFUSED") {
		t.Fatalf("exit %d\n%s", code, out)
	}
	_, j1 := chkRunCaptured(t, "check", "--format", "json", dir)
	_, j2 := chkRunCaptured(t, "check", "--format", "json", dir)
	if j1 != j2 || !strings.Contains(j1, `"reason": "file-digest"`) {
		t.Fatalf("json:\n%s", j1)
	}
}

func TestCheckNotAdmitted(t *testing.T) {
	t.Parallel()
	dir := chkWriteDir(t, campaigntest.Campaign(t, campaigntest.Options{Phase: campaign.PhaseEvaluation, Admissible: true}, 4, 1))
	code, out := chkRunCaptured(t, "check", dir)
	if code != 1 || !strings.Contains(out, "task-count") || !strings.Contains(out, "result: NOT ADMITTED") {
		t.Fatalf("exit %d\n%s", code, out)
	}
}

func TestCheckScoredFailureIsNotRefusal(t *testing.T) {
	t.Parallel()
	f := campaigntest.Campaign(t, campaigntest.Options{Phase: campaign.PhaseDevelopmentRound1, Admissible: true}, 4, 1)
	f[campaign.ResponsePath("S2")] = &fstest.MapFile{Data: []byte(`{"final": {"final": 1}}`)}
	campaigntest.Rebind(t, f)
	dir := chkWriteDir(t, f)
	_, out := chkRunCaptured(t, "check", dir)
	if !strings.Contains(out, "refusals: 0") || !strings.Contains(out, "responses/S2.json#/final/") {
		t.Fatalf("%s", out)
	}
}

func TestCheckUsage(t *testing.T) {
	t.Parallel()
	dir := chkWriteDir(t, campaigntest.Campaign(t, campaigntest.Options{Phase: campaign.PhaseDevelopmentRound1, Admissible: true}, 4, 1))
	for _, args := range [][]string{
		{"check", dir, "--format", "yaml"},
		{"check", dir, dir},
		{"check", filepath.Join(dir, "absent")},
		{"check", filepath.Join(dir, "manifest.json")},
		{"check", "--no-such-flag"},
	} {
		if code, out := chkRunCaptured(t, args...); code != 2 {
			t.Errorf("%v: exit %d\n%s", args, code, out)
		}
	}
}

// TestCheckDefault runs check on the embedded SYNTHETIC campaign, the
// README's main command.
func TestCheckDefault(t *testing.T) {
	t.Parallel()
	code, out := chkRunCaptured(t, "check")
	if code != 0 || !strings.HasPrefix(out, "SYNTHETIC") || !strings.Contains(out, "result: ADMITTED") {
		t.Fatalf("exit %d\n%s", code, out)
	}
	_, j1 := chkRunCaptured(t, "check", "--format", "json")
	_, j2 := chkRunCaptured(t, "check", "--format", "json")
	if j1 != j2 || !strings.Contains(j1, `"synthetic": true`) {
		t.Fatal("default JSON is not byte-identical across runs")
	}
	// The SYNTHETIC notice is the first member, as in every command's JSON.
	if want := "{\n  \"notice\": \"" + blinding.SyntheticNotice + "\",\n  \"synthetic\": true,"; !strings.HasPrefix(j1, want) {
		t.Errorf("check JSON does not start with the notice member:\n%.200s", j1)
	}
}
