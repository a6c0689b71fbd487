package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
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

// TestResolveTemplateShowsRatings: the choices template shows, beside each
// disputed field, both ratings (value and note, labelled by sheet order,
// never by rater) as `verdict disagreements` lists them, and the field's
// allowed values; filled in with them kept it loads strictly and signs an
// adjudication that records none of them; a shown rating edited, or the
// sheets given in the other order, is refused template-mismatch naming the
// file and the member; an unknown member is refused by the strict reader.
func TestResolveTemplateShowsRatings(t *testing.T) {
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
	tmp := t.TempDir()
	tpl := filepath.Join(tmp, "choices.json")
	if code, out := chkRunCaptured(t, append(append([]string{"resolve"}, sheets...), "--template", "--allowed-signers", allowed, "--out", tpl)...); code != 0 {
		t.Fatalf("resolve --template: exit %d\n%s", code, out)
	}
	data, err := os.ReadFile(tpl)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), `"ann"`) || strings.Contains(string(data), `"bob"`) {
		t.Fatalf("the template names a rater:\n%.600s", data)
	}
	var choices []adjudication.Choice
	if err := json.Unmarshal(data, &choices); err != nil || len(choices) == 0 {
		t.Fatalf("template: %v, %d choices", err, len(choices))
	}
	code, js := chkRunCaptured(t, append(append([]string{"disagreements"}, sheets...), "--allowed-signers", allowed, "--format", "json")...)
	var dis struct {
		Disagreements []adjudication.Disagreement `json:"disagreements"`
	}
	if err := json.Unmarshal([]byte(js), &dis); code != 0 || err != nil || len(dis.Disagreements) != len(choices) {
		t.Fatalf("disagreements: exit %d, %v, %d vs %d", code, err, len(dis.Disagreements), len(choices))
	}
	for i, c := range choices {
		d := dis.Disagreements[i]
		if c.Ratings == nil || c.Field != d.Field || len(c.Allowed) == 0 {
			t.Fatalf("choice %d shows no ratings or allowed values: %+v", i, c)
		}
		for j, r := range c.Ratings {
			if r.Rating != adjudication.ChoiceRatingLabels[j] || r.Value != d.Values[j] || r.Note != d.Notes[j] {
				t.Fatalf("choice %d, %s: %+v, want value %q note %q", i, adjudication.ChoiceRatingLabels[j], r, d.Values[j], d.Notes[j])
			}
		}
		if !slices.ContainsFunc(c.Allowed, func(v adjudication.ValueDefinition) bool { return v.Value == d.Values[0] && v.Definition != "" }) {
			t.Fatalf("choice %d: %q is not among the allowed values shown %+v", i, d.Values[0], c.Allowed)
		}
		choices[i].Final = c.Ratings[0].Value // decided from the file alone
	}
	write := func(name string, v any) string {
		b, err := json.MarshalIndent(v, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(tmp, name)
		os.WriteFile(path, b, 0o600)
		return path
	}
	resolve := func(from, adj string, order ...string) (int, string) {
		return runCombined(t, append(append([]string{"resolve"}, order...), "--from", from, "--allowed-signers", allowed,
			"--key", filepath.Join(dir, "keys", "adjudicator-cho"), "--name", "cho", "--out", adj, "--time", demoAdjTime, "--format", "json")...)
	}
	filled := write("filled.json", choices)
	// The sheets in the other order: the labels would lie.
	if code, out := resolve(filled, filepath.Join(tmp, "swapped.json"), sheets[1], sheets[0]); code != 1 ||
		!strings.Contains(out, `"reason":"template-mismatch"`) || !strings.Contains(out, `"file":"`+filled+`"`) || !strings.Contains(out, `"pointer":"/0/ratings"`) {
		t.Fatalf("filled template, sheets swapped: exit %d\n%s", code, out)
	}
	// A shown value edited.
	edited := slices.Clone(choices)
	r := *edited[0].Ratings
	r[1].Value = r[0].Value
	edited[0].Ratings = &r
	if code, out := resolve(write("edited.json", edited), filepath.Join(tmp, "edited-adj.json"), sheets...); code != 1 || !strings.Contains(out, `"pointer":"/0/ratings"`) {
		t.Fatalf("a shown rating edited: exit %d\n%s", code, out)
	}
	// An unknown member: the strict reader refuses it.
	unknown := strings.Replace(string(mustRead(t, filled)), `"final":`, `"comment": "x", "final":`, 1)
	os.WriteFile(filepath.Join(tmp, "unknown.json"), []byte(unknown), 0o600)
	if code, out := resolve(filepath.Join(tmp, "unknown.json"), filepath.Join(tmp, "unknown-adj.json"), sheets...); code != 1 || !strings.Contains(out, "comment") {
		t.Fatalf("an unknown member: exit %d\n%s", code, out)
	}
	// Filled as made: accepted, and the record holds none of what was shown.
	adj := filepath.Join(tmp, "adjudication.json")
	if code, out := resolve(filled, adj, sheets...); code != 0 {
		t.Fatalf("filled template: exit %d\n%s", code, out)
	}
	rec := string(mustRead(t, adj))
	if strings.Contains(rec, "first rating") || strings.Contains(rec, `"allowed"`) || strings.Contains(rec, `"ratings"`) {
		t.Fatalf("the adjudication records what the template showed:\n%.600s", rec)
	}
	mustRun(t, 0, "verify", "--allowed-signers", allowed, sheets[0], sheets[1], adj)
}
