package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"verdict/adjudication"
	"verdict/internal/campaigntest"
	"verdict/pipeline"
	"verdict/verr"
)

// TestEveryRefusalToOverwriteExitsOne: every command that would write
// over something the user owns refuses with its reason code and exit 1
// (a refusal of the input, README "Exit codes"), never a usage error
// (2): output-exists for a file or a blinding, output-not-empty for a
// directory, record-exists for a signed record. Nothing is changed.
func TestEveryRefusalToOverwriteExitsOne(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "demo")
	if code, out := chkRunCaptured(t, "demo", "--out", dir); code != 0 && code != 1 {
		t.Fatalf("demo exit %d\n%s", code, out)
	}
	C, R, K := filepath.Join(dir, "campaign"), filepath.Join(dir, "ratings"), filepath.Join(dir, "keys")
	r := func(n string) string { return filepath.Join(R, n) }
	allowed := []string{"--allowed-signers", r("allowed_signers")}
	fresh := filepath.Join(t.TempDir(), "fresh")
	cases := []struct {
		name string
		args []string
		want verr.Reason
	}{
		{"blind --out holding a blinding", []string{"blind", C, "--out", R}, pipeline.ReasonOutputExists},
		{"blind --map-out existing", []string{"blind", C, "--out", fresh, "--map-out", r("sealed-map.json")}, pipeline.ReasonOutputExists},
		{"export --out existing", []string{"export", "runs", C, "--ratings", R, "--allowed-signers", filepath.Join(R, "allowed_signers"), "--out", r("sheet-ann.json")}, pipeline.ReasonOutputExists},
		{"export grades --out existing", []string{"export", "grades", C, "--ratings", R, "--allowed-signers", filepath.Join(R, "allowed_signers"), "--out", r("choices.json")}, pipeline.ReasonOutputExists},
		{"resolve --template --out existing", append([]string{"resolve", r("sheet-ann.json"), r("sheet-bob.json"), "--template", "--out", r("choices.json")}, allowed...), pipeline.ReasonOutputExists},
		{"demo --out not empty", []string{"demo", "--out", R}, ReasonOutputNotEmpty},
		{"score --out not empty", []string{"score", C, "--ratings", R, "--allowed-signers", filepath.Join(R, "allowed_signers"), "--out", R}, ReasonOutputNotEmpty},
		{"fixtures generate --out not empty", []string{"fixtures", "generate", "--out", R}, ReasonOutputNotEmpty},
		{"freeze --out existing sheet", []string{"freeze", "--journal", r("bundle-ann.journal.jsonl"), "--bundle", r("bundle-ann.json"), "--allowed-signers", filepath.Join(K, "allowed_signers"), "--key", filepath.Join(K, "rater-ann"),
			"--name", "ann", "--role", "rater", "--out", r("sheet-ann.json")}, adjudication.ReasonRecordExists},
		{"resolve --out existing adjudication", append([]string{"resolve", r("sheet-ann.json"), r("sheet-bob.json"), "--from", r("choices.json"), "--key", filepath.Join(K, "adjudicator-cho"),
			"--name", "cho", "--out", r("adjudication.json")}, allowed...), adjudication.ReasonRecordExists},
		{"reveal --out existing", append([]string{"reveal", "--sheet", r("sheet-ann.json"), "--sheet", r("sheet-bob.json"), "--adjudication", r("adjudication.json"),
			"--map", r("sealed-map.json"), "--key", filepath.Join(K, "coordinator-dee"), "--name", "dee", "--out", r("reveal.json")}, allowed...), adjudication.ReasonRecordExists},
		{"rate with its sheet frozen", []string{"rate", r("bundle-ann.json"), "--allowed-signers", filepath.Join(K, "allowed_signers"), "--key", filepath.Join(K, "rater-ann"), "--name", "ann"}, adjudication.ReasonRecordExists},
		{"adjudicate with the adjudication signed", append([]string{"adjudicate", r("bundle-ann.json"), r("sheet-ann.json"), r("sheet-bob.json"),
			"--key", filepath.Join(K, "adjudicator-cho"), "--name", "cho"}, allowed...), adjudication.ReasonRecordExists},
	}
	digests := func() map[string]string {
		out := map[string]string{}
		ents, err := os.ReadDir(R)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range ents {
			if b, err := os.ReadFile(r(e.Name())); err == nil {
				out[e.Name()] = campaigntest.SHA256(b)
			}
		}
		return out
	}
	before := digests()
	for _, tc := range cases {
		code, out, errs := runCLI(t, tc.args...)
		if code != 1 || !strings.Contains(out, "REFUSED: ") || !strings.Contains(out, ": "+string(tc.want)+": ") ||
			strings.TrimSpace(errs) != "verdict: "+string(tc.want) {
			t.Errorf("%s: exit %d, want 1 with %s\nstdout: %s\nstderr: %s", tc.name, code, tc.want, out, errs)
		}
	}
	after := digests()
	for name, d := range before {
		if after[name] != d {
			t.Errorf("%s changed", name)
		}
	}
	if _, err := os.Stat(fresh); err == nil {
		t.Errorf("blind --map-out refused but created %s", fresh)
	}
}
