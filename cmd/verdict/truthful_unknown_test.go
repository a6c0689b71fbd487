package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"verdict/adjudication"
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
// system comparison's bundle offers truthful_unknown on its U-set fields
// only, and `grade --from` saves it there; on a repository-answerable
// obligation and on a fixed-evidence bundle's uncertainty field it is
// refused (exit 1, truthful-unknown-outside-u-set, the grades file and
// pointer named) and nothing is saved (CONTRACT §6).
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
	allowed, bad := tuEntry(t, tpl, adjudication.KindObligation, tu, dir, "answerable.json")
	if slices.Contains(allowed, tu) {
		t.Errorf("repository-answerable obligation offers %v", allowed)
	}
	journal := filepath.Join(dir, "sys.jsonl")
	if p := runBin(bin, nil, "grade", sysBundle, "--journal", journal, "--from", ok); p.code != 0 || !strings.Contains(p.out, "saved 1 grade") {
		t.Fatalf("U-set field: exit %d\n%s", p.code, p.out)
	}
	p := runBin(bin, nil, "grade", sysBundle, "--journal", journal, "--from", bad)
	if p.code != 1 || !strings.Contains(p.out, bad+"#/0: truthful-unknown-outside-u-set") || !strings.Contains(p.out, "1 field graded") {
		t.Errorf("repository-answerable obligation: exit %d\n%s", p.code, p.out)
	}

	fixedBundle := filepath.Join(dir, "fixed-ratings", "bundle-rater-1.json")
	allowed, fbad := tuEntry(t, tuTemplate(t, bin, fixedBundle), adjudication.KindUncertainty, tu, dir, "fixed.json")
	if slices.Contains(allowed, tu) {
		t.Errorf("fixed-evidence uncertainty field offers %v", allowed)
	}
	fj := filepath.Join(dir, "fixed.jsonl")
	p = runBin(bin, nil, "grade", fixedBundle, "--journal", fj, "--from", fbad)
	if p.code != 1 || !strings.Contains(p.out, fbad+"#/0: truthful-unknown-outside-u-set") || !strings.Contains(p.out, "0 fields graded") {
		t.Errorf("fixed-evidence field: exit %d\n%s", p.code, p.out)
	}
}
