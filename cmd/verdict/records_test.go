package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"verdict/adjudication"
	"verdict/blinding"
	"verdict/fixtures"
	"verdict/internal/synth"
)

// gradesFile writes a --from file grading every field of b; with flip the
// claim C1 grades take the next value (deliberate disagreements).
func gradesFile(t *testing.T, path string, b *blinding.Bundle, flip bool, skipLast bool) {
	t.Helper()
	var in []gradeInput
	fields := adjudication.BundleFields(b)
	if skipLast {
		fields = fields[:len(fields)-1]
	}
	for _, f := range fields {
		vals := adjudication.AllowedValues(f.Kind)
		i := 0
		if flip && f.Kind == adjudication.KindClaim && f.Target == "C1" {
			i = 1
		}
		in = append(in, gradeInput{Item: f.Item, Kind: f.Kind, Target: f.Target, Value: vals[i], SpentMS: 1000})
	}
	data, _ := json.Marshal(in)
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
}

func mustRun(t *testing.T, want int, args ...string) {
	t.Helper()
	if got, _, _ := runCLI(t, args...); got != want {
		t.Fatalf("verdict %v: exit %d, want %d", args, got, want)
	}
}

// TestRecordsCommands runs grade, freeze, disagreements, resolve, reveal,
// verify and agreement end to end on the synthetic test bundles with the
// test-only keys, and checks the results with the real ssh-keygen.
func TestRecordsCommands(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	res, err := blinding.Build(synth.Campaign(), blinding.Options{Key: synth.Key, Raters: []string{"ann", "bob"}})
	if err != nil {
		t.Fatal(err)
	}
	p := func(n string) string { return filepath.Join(dir, n) }
	keys := "../../fixtures/keys/"
	allowed := keys + "allowed_signers"
	os.WriteFile(p("sealed-map.json"), res.MapBytes, 0o600)
	for i, r := range []string{"ann", "bob"} {
		os.WriteFile(p("bundle-"+r+".json"), res.BundleBytes[i], 0o600)
		gradesFile(t, p("grades-"+r+".json"), res.Bundles[i], r == "bob", r == "bob")
		mustRun(t, 0, "grade", p("bundle-"+r+".json"), "--journal", p("bundle-"+r+".journal.jsonl"), "--from", p("grades-"+r+".json"))
	}
	// bob left one field ungraded: freezing refuses.
	mustRun(t, 1, "freeze", "--journal", p("bundle-bob.journal.jsonl"), "--bundle", p("bundle-bob.json"), "--allowed-signers", keys+"allowed_signers", "--key", keys+"rater-bob", "--name", "bob", "--out", p("sheet-bob.json"), "--time", "2026-03-04T05:06:07Z")
	gradesFile(t, p("grades-bob.json"), res.Bundles[1], true, false)
	mustRun(t, 0, "grade", p("bundle-bob.json"), "--journal", p("bundle-bob.journal.jsonl"), "--from", p("grades-bob.json"))
	// A value outside the vocabulary is refused (exit 1).
	os.WriteFile(p("bad.json"), []byte(`[{"item":"`+res.Bundles[1].Items[0].ID+`","kind":"claim","target":"C1","value":"maybe"}]`), 0o600)
	mustRun(t, 1, "grade", p("bundle-bob.json"), "--journal", p("bundle-bob.journal.jsonl"), "--from", p("bad.json"))
	for _, r := range []string{"ann", "bob"} {
		mustRun(t, 0, "freeze", "--journal", p("bundle-"+r+".journal.jsonl"), "--bundle", p("bundle-"+r+".json"), "--allowed-signers", keys+"allowed_signers", "--key", keys+"rater-"+r, "--name", r, "--role", "rater", "--out", p("sheet-"+r+".json"), "--time", "2026-03-04T05:06:07Z")
	}
	// Never overwritten.
	mustRun(t, 1, "freeze", "--journal", p("bundle-ann.journal.jsonl"), "--bundle", p("bundle-ann.json"), "--allowed-signers", keys+"allowed_signers", "--key", keys+"rater-ann", "--name", "ann", "--out", p("sheet-ann.json"))
	// Reveal refuses before adjudication exists.
	revealArgs := []string{"reveal", "--sheet", p("sheet-ann.json"), "--sheet", p("sheet-bob.json"), "--adjudication", p("adjudication.json"), "--map", p("sealed-map.json"),
		"--allowed-signers", allowed, "--key", keys + "coordinator-dee", "--name", "dee", "--out", p("reveal.json"), "--time", "2026-03-05T00:00:00Z"}
	if code, _, _ := runCLI(t, revealArgs...); code == 0 {
		t.Fatal("reveal without adjudication succeeded")
	}
	// Choices: take ann's value for every disputed field.
	sa, _ := os.ReadFile(p("sheet-ann.json"))
	sb, _ := os.ReadFile(p("sheet-bob.json"))
	sha, _ := adjudication.ParseSheet("a", sa)
	shb, _ := adjudication.ParseSheet("b", sb)
	ds, err := adjudication.Disagreements(sha, shb)
	if err != nil || len(ds) != 3 {
		t.Fatalf("disagreements %d, %v", len(ds), err)
	}
	var choices []adjudication.Choice
	for _, d := range ds[:2] {
		choices = append(choices, adjudication.Choice{Field: d.Field, Final: d.Values[0]})
	}
	data, _ := json.Marshal(choices)
	os.WriteFile(p("choices.json"), data, 0o600)
	resolveArgs := []string{"resolve", p("sheet-ann.json"), p("sheet-bob.json"), "--from", p("choices.json"), "--allowed-signers", allowed,
		"--key", keys + "adjudicator-cho", "--name", "cho", "--out", p("adjudication.json"), "--time", "2026-03-04T09:00:00Z"}
	mustRun(t, 1, resolveArgs...) // one disputed field unresolved
	choices = append(choices, adjudication.Choice{Field: ds[2].Field, Final: ds[2].Values[1]})
	data, _ = json.Marshal(choices)
	os.WriteFile(p("choices.json"), data, 0o600)
	mustRun(t, 0, resolveArgs...)
	mustRun(t, 0, "disagreements", p("sheet-ann.json"), p("sheet-bob.json"), "--allowed-signers", allowed, "--format", "json")
	mustRun(t, 0, revealArgs...)
	records := []string{p("sheet-ann.json"), p("sheet-bob.json"), p("adjudication.json"), p("reveal.json")}
	mustRun(t, 0, append([]string{"verify", "--allowed-signers", allowed, "--bundle", p("bundle-ann.json"), "--bundle", p("bundle-bob.json")}, records...)...)
	mustRun(t, 0, "agreement", p("sheet-ann.json"), p("sheet-bob.json"), "--bundle", p("bundle-ann.json"), "--allowed-signers", allowed)
	// A changed byte is refused.
	os.WriteFile(p("sheet-ann.json"), append(sa[:len(sa)-2:len(sa)-2], '}', ' '), 0o600)
	mustRun(t, 1, append([]string{"verify", "--allowed-signers", allowed}, records...)...)
	os.WriteFile(p("sheet-ann.json"), sa, 0o600)
	// No allowed_signers named: refused (allowed-signers-missing, exit 1).
	mustRun(t, 1, "verify", records[0])

	if _, err := exec.LookPath("ssh-keygen"); err == nil {
		for i, who := range []struct{ id, ns string }{{"ann", "verdict-rating"}, {"bob", "verdict-rating"}, {"cho", "verdict-adjudication"}, {"dee", "verdict-reveal"}} {
			f, _ := os.Open(records[i])
			cmd := exec.Command("ssh-keygen", "-Y", "verify", "-f", allowed, "-I", who.id, "-n", who.ns, "-s", records[i]+".sig")
			cmd.Stdin = f
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("ssh-keygen -Y verify %s: %v\n%s", records[i], err, out)
			}
			f.Close()
		}
	}
}

// TestBlindFixtureCampaign blinds the embedded fixture campaign twice with a
// fixed item key: same bytes, no leak findings, and the sealed map is
// private to the coordinator (mode 0600).
func TestBlindFixtureCampaign(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	camp := filepath.Join(dir, "campaign")
	if err := os.CopyFS(camp, fixtures.Campaign()); err != nil {
		t.Fatal(err)
	}
	keyHex := "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"
	var outs [2][]byte
	for i, out := range []string{filepath.Join(dir, "o1"), filepath.Join(dir, "o2")} {
		mustRun(t, 0, "blind", camp, "--out", out, "--raters", "ann,bob", "--item-key", keyHex, "--format", "json")
		for _, n := range []string{"bundle-ann.json", "bundle-bob.json", "sealed-map.json"} {
			b, err := os.ReadFile(filepath.Join(out, n))
			if err != nil {
				t.Fatal(err)
			}
			outs[i] = append(outs[i], b...)
		}
		lf, _ := os.ReadFile(filepath.Join(out, "leak-findings.json"))
		if string(lf) != "[]\n" {
			t.Errorf("leak findings: %s", lf)
		}
		if st, err := os.Stat(filepath.Join(out, "sealed-map.json")); err != nil || st.Mode().Perm() != 0o600 {
			t.Errorf("sealed map mode %v, %v", st.Mode(), err)
		}
	}
	if string(outs[0]) != string(outs[1]) {
		t.Fatal("blind output differs between two runs")
	}
	// Without CAMPAIGN, blind uses the embedded campaign: the same bytes.
	emb := filepath.Join(dir, "embedded")
	mustRun(t, 0, "blind", "--out", emb, "--raters", "ann,bob", "--item-key", keyHex)
	var got []byte
	for _, n := range []string{"bundle-ann.json", "bundle-bob.json", "sealed-map.json"} {
		b, err := os.ReadFile(filepath.Join(emb, n))
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, b...)
	}
	if string(got) != string(outs[0]) {
		t.Fatal("blind of the embedded campaign differs from blind of the same campaign on disk")
	}
	mustRun(t, 2, "blind", camp)
	mustRun(t, 2, "blind")
	mustRun(t, 1, "blind", filepath.Join(dir, "missing"), "--out", filepath.Join(dir, "o3"))
}
