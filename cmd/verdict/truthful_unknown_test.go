package main

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"verdict/adjudication"
	"verdict/blinding"
	"verdict/campaign"
	"verdict/fixtures"
	"verdict/internal/synth"
)

// tuTemplate runs `verdict grade BUNDLE --template --format json` and
// returns its entries.
func tuTemplate(t *testing.T, bin, bundle string) []adjudication.GradeInput {
	t.Helper()
	p := runBin(bin, nil, "grade", bundle, "--template", "--format", "json")
	if p.code != 0 {
		t.Fatalf("grade --template: exit %d\n%s", p.code, p.out)
	}
	var tpl []adjudication.GradeInput
	if err := json.Unmarshal([]byte(p.stdout), &tpl); err != nil {
		t.Fatal(err)
	}
	return tpl
}

// tuEntry is the first template entry of kind k, its allowed values and a
// grades file (written to dir as name) giving it value v.
func tuEntry(t *testing.T, tpl []adjudication.GradeInput, k adjudication.Kind, v, dir, name string) (allowed []string, file string) {
	t.Helper()
	for _, g := range tpl {
		if g.Kind != k {
			continue
		}
		for _, a := range g.Allowed {
			allowed = append(allowed, a.Value)
		}
		file = filepath.Join(dir, name)
		data, err := json.Marshal([]map[string]string{{"item": g.Item, "kind": string(g.Kind), "target": g.Target, "value": v}})
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, data, 0o600); err != nil {
			t.Fatal(err)
		}
		return allowed, file
	}
	t.Fatalf("no %s field in the template", k)
	return nil, ""
}

// TestGradeTruthfulUnknown: through the binary, `grade --template` of a
// system comparison's bundle offers truthful_unknown on its obligations
// only (U-set and repository-answerable fields), and `grade --from` saves
// it there; on a claim and on a fixed-evidence bundle's uncertainty field
// it is refused (exit 1, truthful-unknown-outside-obligations, the grades
// file and pointer named) and nothing is saved (CONTRACT §6).
func TestGradeTruthfulUnknown(t *testing.T) {
	t.Parallel()
	bin := verdictBin(t)
	dir := t.TempDir()
	sys := filepath.Join(dir, "sys")
	if p := runBin(bin, nil, "fixtures", "generate", "--design", "system-comparison", "--out", sys); p.code != 0 {
		t.Fatalf("fixtures generate: exit %d\n%s", p.code, p.out)
	}
	for _, c := range []struct {
		name string
		args []string
	}{{"sys", []string{"blind", sys, "--out", filepath.Join(dir, "sys-ratings")}}, {"fixed", []string{"blind", "--out", filepath.Join(dir, "fixed-ratings")}}} {
		if p := runBin(bin, nil, c.args...); p.code != 0 {
			t.Fatalf("blind %s: exit %d\n%s", c.name, p.code, p.out)
		}
	}
	tu := adjudication.ValueTruthfulUnknown
	sysBundle := filepath.Join(dir, "sys-ratings", "bundle-rater-1.json")
	tpl := tuTemplate(t, bin, sysBundle)
	allowed, ok := tuEntry(t, tpl, adjudication.KindUncertainty, tu, dir, "u-set.json")
	if !slices.Contains(allowed, tu) {
		t.Errorf("system U-set field offers %v", allowed)
	}
	allowed, ans := tuEntry(t, tpl, adjudication.KindObligation, tu, dir, "answerable.json")
	if !slices.Contains(allowed, tu) {
		t.Errorf("repository-answerable obligation offers %v", allowed)
	}
	allowed, bad := tuEntry(t, tpl, adjudication.KindClaim, tu, dir, "claim.json")
	if slices.Contains(allowed, tu) {
		t.Errorf("claim offers %v", allowed)
	}
	journal := filepath.Join(dir, "sys.jsonl")
	if p := runBin(bin, nil, "grade", sysBundle, "--journal", journal, "--from", ok); p.code != 0 || !strings.Contains(p.out, "saved 1 grade") {
		t.Fatalf("U-set field: exit %d\n%s", p.code, p.out)
	}
	if p := runBin(bin, nil, "grade", sysBundle, "--journal", journal, "--from", ans); p.code != 0 || !strings.Contains(p.out, "saved 1 grade") {
		t.Fatalf("repository-answerable obligation: exit %d\n%s", p.code, p.out)
	}
	p := runBin(bin, nil, "grade", sysBundle, "--journal", journal, "--from", bad)
	if p.code != 1 || !strings.Contains(p.out, bad+"#/0: truthful-unknown-outside-obligations") || !strings.Contains(p.out, "2 fields graded") {
		t.Errorf("claim: exit %d\n%s", p.code, p.out)
	}

	fixedBundle := filepath.Join(dir, "fixed-ratings", "bundle-rater-1.json")
	allowed, fbad := tuEntry(t, tuTemplate(t, bin, fixedBundle), adjudication.KindUncertainty, tu, dir, "fixed.json")
	if slices.Contains(allowed, tu) {
		t.Errorf("fixed-evidence uncertainty field offers %v", allowed)
	}
	fj := filepath.Join(dir, "fixed.jsonl")
	p = runBin(bin, nil, "grade", fixedBundle, "--journal", fj, "--from", fbad)
	if p.code != 1 || !strings.Contains(p.out, fbad+"#/0: truthful-unknown-outside-obligations") || !strings.Contains(p.out, "0 fields graded") {
		t.Errorf("fixed-evidence field: exit %d\n%s", p.code, p.out)
	}
}

// TestSystemTruthfulUnknownRecords: on a system comparison's bundles a
// truthful_unknown travels through the records as every value does: one
// rater grades the U set truthful_unknown and the other credited, both
// freeze and sign, disagreements lists exactly the U-set fields, the
// adjudicator settles them on truthful_unknown with resolve, and verify
// accepts the sheets and the adjudication against their bundles. A
// resolution to truthful_unknown of a field neither rater gave it is
// refused.
func TestSystemTruthfulUnknownRecords(t *testing.T) {
	t.Parallel()
	fsys, err := fixtures.GenerateSystemComparison(fixtures.SystemOptions{})
	if err != nil {
		t.Fatal(err)
	}
	c, err := campaign.LoadSystemComparison(fsys)
	if err != nil {
		t.Fatal(err)
	}
	res, err := blinding.BuildSource(blinding.SystemSource(c), blinding.Options{Key: synth.Key, Raters: []string{"ann", "bob"}})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	p := func(n string) string { return filepath.Join(dir, n) }
	keys := "../../fixtures/keys/"
	allowed := keys + "allowed_signers"
	uFields := 0
	for i, r := range []string{"ann", "bob"} {
		if err := os.WriteFile(p("bundle-"+r+".json"), res.BundleBytes[i], 0o600); err != nil {
			t.Fatal(err)
		}
		var in []gradeInput
		for _, f := range adjudication.BundleFields(res.Bundles[i]) {
			g := gradeInput{Item: f.Item, Kind: f.Kind, Target: f.Target, Value: adjudication.AllowedValues(f.Kind)[0]}
			if f.Kind == adjudication.KindUncertainty && r == "bob" {
				g.Value = adjudication.ValueTruthfulUnknown
				uFields++
			}
			in = append(in, g)
		}
		data, _ := json.Marshal(in)
		if err := os.WriteFile(p("grades-"+r+".json"), data, 0o600); err != nil {
			t.Fatal(err)
		}
		mustRun(t, 0, "grade", p("bundle-"+r+".json"), "--journal", p("bundle-"+r+".journal.jsonl"), "--from", p("grades-"+r+".json"))
		mustRun(t, 0, "freeze", "--journal", p("bundle-"+r+".journal.jsonl"), "--bundle", p("bundle-"+r+".json"), "--allowed-signers", allowed,
			"--key", keys+"rater-"+r, "--name", r, "--out", p("sheet-"+r+".json"), "--time", "2026-03-04T05:06:07Z")
	}
	if uFields == 0 {
		t.Fatal("the system bundle has no U-set field: the test checks nothing")
	}
	code, out, _ := runCapture(t, "disagreements", p("sheet-ann.json"), p("sheet-bob.json"), "--allowed-signers", allowed, "--format", "json")
	if code != 0 {
		t.Fatalf("disagreements: exit %d\n%s", code, out)
	}
	var rep struct {
		Disagreements []adjudication.Disagreement `json:"disagreements"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Disagreements) != uFields {
		t.Fatalf("%d disagreements, want the %d U-set fields", len(rep.Disagreements), uFields)
	}
	choose := func(final string) {
		var choices []adjudication.Choice
		for _, d := range rep.Disagreements {
			if d.Field.Kind != adjudication.KindUncertainty || !slices.Contains(d.Values[:], adjudication.ValueTruthfulUnknown) {
				t.Fatalf("disputed %s: %v", d.Field, d.Values)
			}
			choices = append(choices, adjudication.Choice{Field: d.Field, Final: final, Note: "the repository cannot settle it"})
		}
		data, _ := json.Marshal(choices)
		if err := os.WriteFile(p("choices.json"), data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	resolve := []string{"resolve", p("sheet-ann.json"), p("sheet-bob.json"), "--from", p("choices.json"), "--allowed-signers", allowed,
		"--key", keys + "adjudicator-cho", "--name", "cho", "--out", p("adjudication.json"), "--time", "2026-03-04T09:00:00Z"}
	choose(adjudication.ValueTruthfulUnknown)
	mustRun(t, 0, resolve...)
	mustRun(t, 0, "verify", "--allowed-signers", allowed, "--bundle", p("bundle-ann.json"), "--bundle", p("bundle-bob.json"),
		p("sheet-ann.json"), p("sheet-bob.json"), p("adjudication.json"))
	adj, err := os.ReadFile(p("adjudication.json"))
	if err != nil || !strings.Contains(string(adj), `"final": "truthful_unknown"`) {
		t.Fatalf("adjudication: %v\n%s", err, adj)
	}

	// Sheets that disagree credited / not_credited cannot be settled on
	// truthful_unknown.
	d := adjudication.Disagreement{Field: rep.Disagreements[0].Field, Values: [2]string{adjudication.ValueCredited, adjudication.ValueNotCredited}}
	if err := adjudication.CheckResolution(d, adjudication.ValueTruthfulUnknown, "note"); !errors.Is(err, adjudication.ReasonTruthfulUnknownOutsideObligations) {
		t.Errorf("resolution chosen by neither rater: %v", err)
	}
}
