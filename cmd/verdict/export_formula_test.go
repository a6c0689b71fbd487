package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExportGradesCSVGuardsFormulas: a rater's signed note that begins
// like a spreadsheet formula (SYNTHETIC "=HYPERLINK(…)") is written to the
// grades CSV with a leading single quote, so a spreadsheet shows it as
// text; the JSONL export carries the note unchanged. The sheets and the
// adjudication are made through the public commands (grade, freeze,
// resolve) from the demo's bundles.
func TestExportGradesCSVGuardsFormulas(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "demo")
	if code, out := chkRunCaptured(t, "demo", "--out", dir); code != 0 && code != 1 {
		t.Fatalf("demo exit %d\n%s", code, out)
	}
	C, R, K := filepath.Join(dir, "campaign"), filepath.Join(dir, "ratings"), filepath.Join(dir, "keys")
	N := filepath.Join(t.TempDir(), "ratings")
	if err := os.MkdirAll(N, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"bundle-ann.json", "bundle-bob.json", "allowed_signers", "sealed-map.json", "grades-bob.json"} {
		b, err := os.ReadFile(filepath.Join(R, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(N, f), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	const formula = `=HYPERLINK("http://synthetic.invalid/x","SYNTHETIC")`
	var grades []map[string]any
	b, err := os.ReadFile(filepath.Join(R, "grades-ann.json"))
	if err != nil || json.Unmarshal(b, &grades) != nil || len(grades) == 0 {
		t.Fatalf("grades-ann.json: %v", err)
	}
	grades[0]["note"] = formula
	b, _ = json.Marshal(grades)
	if err := os.WriteFile(filepath.Join(N, "grades-ann.json"), b, 0o600); err != nil {
		t.Fatal(err)
	}
	n := func(f string) string { return filepath.Join(N, f) }
	for _, rater := range []string{"ann", "bob"} {
		if code, out := chkRunCaptured(t, "grade", n("bundle-"+rater+".json"), "--journal", n("bundle-"+rater+".journal.jsonl"), "--from", n("grades-"+rater+".json")); code != 0 {
			t.Fatalf("grade %s: exit %d\n%s", rater, code, out)
		}
		if code, out := chkRunCaptured(t, "freeze", "--journal", n("bundle-"+rater+".journal.jsonl"), "--bundle", n("bundle-"+rater+".json"), "--allowed-signers", filepath.Join(K, "allowed_signers"), "--key", filepath.Join(K, "rater-"+rater),
			"--name", rater, "--role", "rater", "--out", n("sheet-"+rater+".json"), "--time", demoSheetTime); code != 0 {
			t.Fatalf("freeze %s: exit %d\n%s", rater, code, out)
		}
	}
	if code, out := chkRunCaptured(t, "resolve", n("sheet-ann.json"), n("sheet-bob.json"), "--from", filepath.Join(R, "choices.json"), "--allowed-signers", n("allowed_signers"),
		"--key", filepath.Join(K, "adjudicator-cho"), "--name", "cho", "--out", n("adjudication.json"), "--time", demoAdjTime); code != 0 {
		t.Fatalf("resolve: exit %d\n%s", code, out)
	}
	code, out := chkRunCaptured(t, "export", "grades", C, "--ratings", N, "--allowed-signers", filepath.Join(N, "allowed_signers"))
	if code != 0 {
		t.Fatalf("export grades: exit %d\n%s", code, out)
	}
	_, rows := readCSV(t, out)
	quoted := 0
	for _, r := range rows {
		for _, cell := range r {
			if strings.HasPrefix(cell, "=") {
				t.Fatalf("a CSV cell begins with =: %q", cell)
			}
			if cell == "'"+formula {
				quoted++
			}
		}
	}
	if quoted != 1 {
		t.Fatalf("%d CSV cells hold the quoted note, want 1", quoted)
	}
	code, jl := chkRunCaptured(t, "export", "grades", C, "--ratings", N, "--allowed-signers", filepath.Join(N, "allowed_signers"), "--format", "jsonl")
	want, _ := json.Marshal(formula)
	if code != 0 || strings.Count(jl, string(want)) != 1 || strings.Contains(jl, `"'=`) {
		t.Fatalf("jsonl: exit %d, want the note unchanged once\n%.2000s", code, jl)
	}
}
