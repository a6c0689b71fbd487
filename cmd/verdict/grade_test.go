package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"verdict/adjudication"
	"verdict/blinding"
	"verdict/internal/synth"
)

// TestGradeRefusesMalformedGradesFile: `verdict grade --from` refuses a
// negative spent_ms (and a malformed grades file) under malformed-grades
// with the file and JSON pointer, exit 1, and writes no grade.
func TestGradeRefusesMalformedGradesFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	res, err := blinding.Build(synth.Campaign(), blinding.Options{Key: synth.Key, Raters: []string{"ann", "bob"}})
	if err != nil {
		t.Fatal(err)
	}
	p := func(n string) string { return filepath.Join(dir, n) }
	if err := os.WriteFile(p("bundle.json"), res.BundleBytes[0], 0o600); err != nil {
		t.Fatal(err)
	}
	item := res.Bundles[0].Items[0].ID
	for _, c := range []struct{ name, data, want string }{
		{"negative", `[{"item":"` + item + `","kind":"completeness","target":"final","value":"no_false_claim","spent_ms":-5}]`, "#/0/spent_ms: malformed-grades"},
		{"unknown key", `[{"item":"` + item + `","kind":"completeness","target":"final","value":"no_false_claim","seconds":5}]`, "#/0/seconds: malformed-grades"},
	} {
		from := p(c.name + ".json")
		if err := os.WriteFile(from, []byte(c.data), 0o600); err != nil {
			t.Fatal(err)
		}
		journal := p(c.name + ".jsonl")
		code, out := chkRunCaptured(t, "grade", p("bundle.json"), "--journal", journal, "--from", from)
		if code != 1 || !strings.Contains(out, from+c.want) || strings.Contains(out, "malformed-bundle") {
			t.Errorf("%s: exit %d, want 1 and %q\n%s", c.name, code, from+c.want, out)
		}
		if _, err := os.Stat(journal); err == nil {
			t.Errorf("%s: a journal was written", c.name)
		}
	}
}

// gradeTestBundle writes the first blinded bundle of the synthetic campaign
// to dir and returns its path and the bundle.
func gradeTestBundle(t *testing.T, dir string) (string, *blinding.Bundle) {
	t.Helper()
	res, err := blinding.Build(synth.Campaign(), blinding.Options{Key: synth.Key, Raters: []string{"ann", "bob"}})
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "bundle.json")
	if err := os.WriteFile(p, res.BundleBytes[0], 0o600); err != nil {
		t.Fatal(err)
	}
	return p, res.Bundles[0]
}

// TestGradeTemplate: `verdict grade BUNDLE --template` prints every
// required field of the bundle in bundle order with empty values, the same
// bytes every run; once the values are filled in the file is accepted by
// --from and leaves no field ungraded. --template with --from is a usage
// error.
func TestGradeTemplate(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bundle, b := gradeTestBundle(t, dir)
	code, out := chkRunCaptured(t, "grade", bundle, "--template")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, out)
	}
	if _, again := chkRunCaptured(t, "grade", bundle, "--template"); again != out {
		t.Error("template output differs between runs")
	}
	var tpl []gradeInput
	if err := json.Unmarshal([]byte(out), &tpl); err != nil {
		t.Fatalf("template is not a JSON grades array: %v\n%s", err, out)
	}
	fs := adjudication.BundleFields(b)
	if len(tpl) != len(fs) {
		t.Fatalf("template has %d entries, bundle %d required fields", len(tpl), len(fs))
	}
	// Every entry shows the time member to fill (0 adds no time).
	if n := strings.Count(out, `"spent_ms": 0`); n != len(fs) {
		t.Fatalf("template shows spent_ms on %d of %d entries", n, len(fs))
	}
	for i := range tpl {
		if tpl[i].Grade().Field != fs[i] || tpl[i].Value != "" {
			t.Fatalf("entry %d = %+v, want %v with an empty value", i, tpl[i], fs[i])
		}
		tpl[i].Value = adjudication.AllowedValues(tpl[i].Kind)[0]
	}
	tpl[0].SpentMS = 1500
	filled, _ := json.Marshal(tpl)
	from := filepath.Join(dir, "filled.json")
	if err := os.WriteFile(from, filled, 0o600); err != nil {
		t.Fatal(err)
	}
	code, out = chkRunCaptured(t, "grade", bundle, "--journal", filepath.Join(dir, "j.jsonl"), "--from", from)
	if code != 0 || !strings.Contains(out, fmt.Sprintf("%d fields graded, 0 ungraded", len(fs))) {
		t.Errorf("filled template: exit %d\n%s", code, out)
	}
	if j, err := os.ReadFile(filepath.Join(dir, "j.jsonl")); err != nil || strings.Count(string(j), `"spent_ms":1500`) != 1 {
		t.Errorf("the filled spent_ms is not in the journal once (%v)", err)
	}
	if code, _ := chkRunCaptured(t, "grade", bundle, "--template", "--from", from); code != 2 {
		t.Errorf("--template with --from: exit %d, want 2", code)
	}
}

// TestGradeErrorPositionsOneBased: a refused grade is named by its 1-based
// position ("grade 2 of FILE"), an unknown kind is refused before anything
// is written with the valid kinds listed, and the JSON pointer keeps the
// 0-based index.
func TestGradeErrorPositionsOneBased(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bundle, b := gradeTestBundle(t, dir)
	item := b.Items[0].ID
	ok := `{"item":"` + item + `","kind":"completeness","target":"final","value":"no_false_claim"}`
	bad := `{"item":"` + item + `","kind":"claim","target":"` + b.Items[0].Final.Claims[0].ID + `","value":"maybe"}`
	from := filepath.Join(dir, "g.json")
	if err := os.WriteFile(from, []byte("["+ok+","+bad+"]"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out := chkRunCaptured(t, "grade", bundle, "--journal", filepath.Join(dir, "j.jsonl"), "--from", from)
	if code != 1 || !strings.Contains(out, "grade 2 of "+from+":") || !strings.Contains(out, "saved 1 grade to") {
		t.Errorf("bad value in grade 2: exit %d\n%s", code, out)
	}
	unknown := `{"item":"` + item + `","kind":"complete","target":"final","value":"no_false_claim"}`
	if err := os.WriteFile(from, []byte("["+ok+","+unknown+"]"), 0o600); err != nil {
		t.Fatal(err)
	}
	journal := filepath.Join(dir, "k.jsonl")
	code, out = chkRunCaptured(t, "grade", bundle, "--journal", journal, "--from", from)
	if code != 1 || !strings.Contains(out, from+"#/1/kind: malformed-grades: grade 2: unknown kind") ||
		!strings.Contains(out, "valid kinds: "+adjudication.KindList()) {
		t.Errorf("unknown kind in grade 2: exit %d\n%s", code, out)
	}
	if _, err := os.Stat(journal); err == nil {
		t.Error("a journal was written for a file with an unknown kind")
	}
}

// TestGradeJSONNotice: grade's JSON report of a synthetic bundle carries
// the SYNTHETIC notice as its first member, like every command's JSON.
func TestGradeJSONNotice(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bundle, b := gradeTestBundle(t, dir)
	from := filepath.Join(dir, "g.json")
	g := `[{"item":"` + b.Items[0].ID + `","kind":"completeness","target":"final","value":"no_false_claim"}]`
	if err := os.WriteFile(from, []byte(g), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out := chkRunCaptured(t, "grade", bundle, "--journal", filepath.Join(dir, "j.jsonl"), "--from", from, "--format", "json")
	if want := "{\n  \"notice\": \"" + blinding.SyntheticNotice + "\",\n  \"saved\": 1,"; code != 0 || !strings.HasPrefix(out, want) {
		t.Errorf("exit %d, want the notice first:\n%s", code, out)
	}
}
