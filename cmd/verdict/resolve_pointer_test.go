package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestResolveFromRefusalNamesChoice runs `verdict resolve --from` through
// the built binary on the system-comparison demo's sheets: a refused
// choice is named by the choices file and the JSON pointer of its entry
// ("FILE#/i/final" for a value outside the field's vocabulary, "FILE#/i"
// for an entry that is no open dispute), never by a bare field name
// without the file; a choices file that is not a regular file is refused
// as a choices file, with the REFUSED line every refusal prints.
func TestResolveFromRefusalNamesChoice(t *testing.T) {
	t.Parallel()
	bin := verdictBin(t)
	d := filepath.Join(t.TempDir(), "demo")
	if p := runBin(bin, nil, "demo", "--design", "system-comparison", "--out", d); p.code != 0 {
		t.Fatalf("demo: exit %d\n%s", p.code, p.out)
	}
	r := func(n string) string { return filepath.Join(d, "ratings", n) }
	tmpl := filepath.Join(t.TempDir(), "template.json")
	if p := runBin(bin, nil, "resolve", r("sheet-ann.json"), r("sheet-bob.json"), "--template", "--allowed-signers", r("allowed_signers"), "--out", tmpl); p.code != 0 {
		t.Fatalf("resolve --template: exit %d\n%s", p.code, p.out)
	}
	raw, err := os.ReadFile(tmpl)
	if err != nil {
		t.Fatal(err)
	}
	var base []map[string]any
	if err := json.Unmarshal(raw, &base); err != nil || len(base) < 3 {
		t.Fatalf("template: %v, %d disputes", err, len(base))
	}
	fill := func(edit func(c []map[string]any) []map[string]any) string {
		var c []map[string]any
		json.Unmarshal(raw, &c)
		for _, x := range c {
			x["final"] = x["ratings"].([]any)[0].(map[string]any)["value"]
		}
		data, _ := json.Marshal(edit(c))
		f := filepath.Join(t.TempDir(), "choices.json")
		os.WriteFile(f, data, 0o600)
		return f
	}
	resolve := func(from string) proc {
		return runBin(bin, nil, "resolve", r("sheet-ann.json"), r("sheet-bob.json"), "--from", from, "--allowed-signers", r("allowed_signers"),
			"--key", filepath.Join(d, "keys", "adjudicator-cho"), "--name", "cho", "--out", filepath.Join(t.TempDir(), "adjudication.json"))
	}
	cases := []struct {
		name, want string
		from       string
	}{
		{"a value outside the vocabulary", "#/2/final: bad-grade-value: ", fill(func(c []map[string]any) []map[string]any {
			c[2]["final"] = "bogus"
			return c
		})},
		{"an entry given twice", "#/" + strconv.Itoa(len(base)) + ": not-disputed: ", fill(func(c []map[string]any) []map[string]any {
			return append(c, c[0])
		})},
	}
	for _, tc := range cases {
		p := resolve(tc.from)
		if p.code != 1 || !strings.Contains(p.out, "REFUSED: "+tc.from+tc.want) {
			t.Errorf("%s: exit %d, want REFUSED: %s%s\n%s", tc.name, p.code, tc.from, tc.want, p.out)
		}
	}
	if p := resolve(os.DevNull); p.code != 1 || !strings.Contains(p.out, "REFUSED: "+os.DevNull+": not-regular-file: a choices file must be a regular file") {
		t.Errorf("a character device as choices file: exit %d\n%s", p.code, p.out)
	}
}
