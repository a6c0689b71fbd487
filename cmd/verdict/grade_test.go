package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"verdict/blinding"
	"verdict/internal/synth"
)

// TestGradeRefusesMalformedGradesFile: `verdict grade --from` refuses a
// negative spent_ms (and a malformed grades file) under malformed-grades
// with the file and JSON pointer, exit 1, and writes no grade.
func TestGradeRefusesMalformedGradesFile(t *testing.T) {
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
