package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"verdict/adjudication"
	"verdict/fixtures"
)

// TestResolveTemplateFilledIsAccepted: `verdict resolve --template` writes
// the choices file of the open disputes in the shape `resolve --from`
// reads; unfilled it is refused (bad value), filled in with one rater's
// value per field it is accepted and yields a signed adjudication. An
// existing --out file is never replaced.
func TestResolveTemplateFilledIsAccepted(t *testing.T) {
	dir := t.TempDir()
	fsys, key, err := fixtures.GenerateWithKey(fixtures.Options{Passing: true})
	if err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	if _, err := runChain(&app{stdout: &log, stderr: &log}, fsys, key, dir); err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	ratings := filepath.Join(dir, "ratings")
	p := func(n string) string { return filepath.Join(ratings, n) }
	sheets := []string{p("sheet-ann.json"), p("sheet-bob.json")}
	allowed := p("allowed_signers")
	tpl := filepath.Join(t.TempDir(), "choices.json")
	code, out := chkRunCaptured(t, append(append([]string{"resolve"}, sheets...), "--template", "--allowed-signers", allowed, "--out", tpl)...)
	if code != 0 {
		t.Fatalf("resolve --template: exit %d\n%s", code, out)
	}
	data, err := os.ReadFile(tpl)
	if err != nil {
		t.Fatal(err)
	}
	var choices []adjudication.Choice
	if err := json.Unmarshal(data, &choices); err != nil || len(choices) == 0 || !strings.Contains(string(data), `"note": ""`) {
		t.Fatalf("template: %v, %d choices\n%s", err, len(choices), data)
	}
	code, out = runCombined(t, append(append([]string{"resolve"}, sheets...), "--template", "--allowed-signers", allowed, "--out", tpl)...)
	if code != 1 || !strings.Contains(out, "output-exists") || !strings.Contains(out, "never replaces") {
		t.Fatalf("template over an existing file: exit %d\n%s", code, out)
	}
	if b, _ := os.ReadFile(tpl); !bytes.Equal(b, data) {
		t.Fatal("the existing template was changed")
	}

	resolve := func(from, adj string) (int, string) {
		return runCombined(t, append(append([]string{"resolve"}, sheets...), "--from", from, "--allowed-signers", allowed,
			"--key", filepath.Join(dir, "keys", "adjudicator-cho"), "--name", "cho", "--out", adj, "--time", demoAdjTime)...)
	}
	if code, out := resolve(tpl, filepath.Join(t.TempDir(), "adjudication.json")); code != 1 || !strings.Contains(out, string(adjudication.ReasonBadValue)) {
		t.Fatalf("unfilled template: exit %d\n%s", code, out)
	}
	// Fill in each final with the first rating's value, as listed by
	// disagreements, keeping the template's entries and order.
	code, out = chkRunCaptured(t, append(append([]string{"disagreements"}, sheets...), "--allowed-signers", allowed, "--format", "json")...)
	var rep disagreementsReport
	if err := json.Unmarshal([]byte(out), &rep); code != 0 || err != nil || len(rep.Disagreements) != len(choices) {
		t.Fatalf("disagreements: exit %d %v\n%s", code, err, out)
	}
	for i := range choices {
		if choices[i].Field != rep.Disagreements[i].Field {
			t.Fatalf("template entry %d is %s, disagreements lists %s", i, choices[i].Field, rep.Disagreements[i].Field)
		}
		choices[i].Final = rep.Disagreements[i].Values[0]
	}
	filled, _ := json.MarshalIndent(choices, "", "  ")
	from := filepath.Join(t.TempDir(), "filled.json")
	if err := os.WriteFile(from, filled, 0o600); err != nil {
		t.Fatal(err)
	}
	adj := filepath.Join(t.TempDir(), "adjudication.json")
	if code, out := resolve(from, adj); code != 0 || !strings.Contains(out, "resolved ") {
		t.Fatalf("filled template: exit %d\n%s", code, out)
	}
	if _, err := os.Stat(adj + ".sig"); err != nil {
		t.Fatal(err)
	}
}

// runCombined runs the command like chkRunCaptured and returns its exit
// code and its standard output followed by its standard error.
func runCombined(t *testing.T, args ...string) (int, string) {
	t.Helper()
	code, out, errs := runCLI(t, args...)
	return code, out + errs
}
