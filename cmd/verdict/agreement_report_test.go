package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"verdict/fixtures"
)

// TestAgreementCommandMatchesReport: `verdict agreement --format json` and
// the report.json of `verdict score` print the same agreement object for
// the same two sheets (one definition, adjudication.AgreementOf), and
// "all fields" counts the graded fields of the required kinds only: the
// oracle-defect flags are in their own row.
func TestAgreementCommandMatchesReport(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fsys, key, err := fixtures.GenerateWithKey(fixtures.Options{Passing: true, Tasks: 2, Repetitions: 1})
	if err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	if _, err := runChain(&app{stdout: &log, stderr: &log}, fsys, key, dir); err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	ratings := filepath.Join(dir, "ratings")
	code, out := chkRunCaptured(t, "agreement", filepath.Join(ratings, "sheet-bob.json"), filepath.Join(ratings, "sheet-ann.json"), "--allowed-signers", filepath.Join(ratings, "allowed_signers"), "--format", "json")
	if code != 0 {
		t.Fatalf("agreement: exit %d\n%s", code, out)
	}
	var cmdOut struct {
		Agreement map[string]any `json:"agreement"`
	}
	if err := json.Unmarshal([]byte(out), &cmdOut); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "report", "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Human struct {
			Agreement map[string]any `json:"agreement"`
		} `json:"recorded_human_decisions"`
	}
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	if cmdOut.Agreement == nil || !reflect.DeepEqual(cmdOut.Agreement, rep.Human.Agreement) {
		t.Fatalf("agreement differs:\ncommand: %v\nreport:  %v", cmdOut.Agreement, rep.Human.Agreement)
	}
	all := cmdOut.Agreement["all_fields"].(map[string]any)["fields"].(float64)
	sum := 0.0
	for _, r := range cmdOut.Agreement["by_kind"].([]any) {
		row := r.(map[string]any)
		if row["group"] == "oracle_defect" {
			t.Errorf("oracle_defect is among the kinds of all fields")
		}
		sum += row["fields"].(float64)
	}
	if all != sum || all == 0 {
		t.Errorf("all fields = %v, want the sum of the required kinds' fields %v", all, sum)
	}
	if od := cmdOut.Agreement["oracle_defect"].(map[string]any)["fields"].(float64); od == 0 {
		t.Errorf("the oracle-defect row compares no field")
	}
}
