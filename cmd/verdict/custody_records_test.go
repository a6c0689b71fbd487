package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"verdict/adjudication"
	"verdict/fixtures"
)

// demoChain runs `verdict demo --out` into a new directory and returns the
// campaign, ratings and TEST ONLY keys directories of its SYNTHETIC chain.
func demoChain(t *testing.T) (camp, ratings, keys string) {
	t.Helper()
	demo := filepath.Join(t.TempDir(), "demo")
	if code, out, errs := runCapture(t, "demo", "--out", demo); code != 0 && code != 1 {
		t.Fatalf("demo: exit %d\n%s%s", code, out, errs)
	}
	return filepath.Join(demo, "campaign"), filepath.Join(demo, "ratings"), filepath.Join(demo, "keys")
}

// scoreRefusal runs `verdict score --format json` and returns its exit
// code and the reasons of its refusals.
func scoreRefusal(t *testing.T, camp, ratings string) (int, []string, string) {
	t.Helper()
	code, out, _ := runCapture(t, "score", camp, "--ratings", ratings, "--allowed-signers", filepath.Join(ratings, "allowed_signers"), "--format", "json")
	var reasons []string
	if strings.HasPrefix(out, "[") {
		var ps []struct {
			Reason string `json:"reason"`
		}
		if err := json.Unmarshal([]byte(out), &ps); err != nil {
			t.Fatalf("score --format json: refusals are not one JSON document: %v\n%s", err, out)
		}
		for _, p := range ps {
			reasons = append(reasons, p.Reason)
		}
	}
	return code, reasons, out
}

// TestScoreCustodyForgeries forges the SYNTHETIC demo's ratings directory
// with the TEST ONLY keys, every record signed again so that each
// signature verifies, and requires `verdict score` to refuse each forgery
// with its own reason (issue "chain of custody", items 1–5). The untouched
// forgery (every record re-signed, nothing changed) still scores.
func TestScoreCustodyForgeries(t *testing.T) {
	camp, ratings, keys := demoChain(t)
	cases := []struct {
		name   string
		forge  fixtures.Forgery
		remove []string
		allow  string // extra allowed_signers line
		want   string
	}{
		{name: "control: re-signed, unchanged", want: ""},
		{name: "A and B swapped in the sealed map", forge: fixtures.Forgery{Map: fixtures.SwapArms}, want: "map-mismatch"},
		{name: "bob's sheet made on ann's bundle", forge: fixtures.Forgery{Sheet: func(name string, s *adjudication.Sheet, bundles map[string]string) {
			if name == "bob" {
				s.BundleRater, s.BundleDigest = "ann", bundles["ann"]
			}
		}}, want: "other-bundle"},
		{name: "a bundle missing", remove: []string{"bundle-bob.json"}, want: "bundle-missing"},
		{name: "no bundles", remove: []string{"bundle-ann.json", "bundle-bob.json"}, want: "bundle-missing"},
		{name: "reveal dated yesterday", forge: fixtures.Forgery{Reveal: func(r *adjudication.Reveal) { r.TimeUTC = "yesterday" }}, want: "bad-record-time"},
		{name: "reveal before the sheets", forge: fixtures.Forgery{Reveal: func(r *adjudication.Reveal) { r.TimeUTC = "2020-01-01T00:00:00Z" }}, want: "bad-record-time"},
		{name: "adjudication before the sheets", forge: fixtures.Forgery{Adjudication: func(a *adjudication.Adjudication) { a.TimeUTC = "2020-01-01T00:00:00Z" }}, want: "bad-record-time"},
		{name: "sheet meaning denies grading", forge: fixtures.Forgery{Sheet: func(name string, s *adjudication.Sheet, _ map[string]string) {
			if name == "ann" {
				s.Meaning = "I did not grade anything"
			}
		}}, want: "bad-record-meaning"},
		{name: "reveal digests junk", forge: fixtures.Forgery{Reveal: func(r *adjudication.Reveal) { r.ContentDigest = "junk" }}, want: "bad-record-digest"},
		{name: "reveal content digest of something else", forge: fixtures.Forgery{Reveal: func(r *adjudication.Reveal) { r.ContentDigest = strings.Repeat("ab", 32) }}, want: "bad-record-digest"},
		{name: "swapped sheet labels", forge: fixtures.Forgery{Adjudication: func(a *adjudication.Adjudication) {
			a.Sheets[0].Name, a.Sheets[1].Name = a.Sheets[1].Name, a.Sheets[0].Name
		}}, want: "bad-record-label"},
		{name: "sheet of a synthetic bundle says real", forge: fixtures.Forgery{Sheet: func(name string, s *adjudication.Sheet, _ map[string]string) {
			if name == "ann" {
				s.Synthetic, s.Notice = false, ""
			}
		}}, want: "synthetic-mismatch"},
		{name: "reveal signed by the adjudicator", forge: fixtures.Forgery{RevealKey: "adjudicator-cho", Reveal: func(r *adjudication.Reveal) { r.Signer.Name = "cho" }}, allow: "cho", want: "role-reused"},
	}
	for _, c := range cases {
		dir := filepath.Join(t.TempDir(), "ratings")
		if err := os.CopyFS(dir, os.DirFS(ratings)); err != nil {
			t.Fatal(err)
		}
		if c.allow != "" {
			pub, err := os.ReadFile(filepath.Join(keys, "adjudicator-cho.pub"))
			if err != nil {
				t.Fatal(err)
			}
			appendFile(t, filepath.Join(dir, "allowed_signers"), c.allow+` namespaces="verdict-reveal" `+string(pub))
		}
		if err := c.forge.Apply(dir); err != nil {
			t.Fatal(err)
		}
		for _, r := range c.remove {
			os.Remove(filepath.Join(dir, r))
		}
		code, reasons, out := scoreRefusal(t, camp, dir)
		if c.want == "" {
			if len(reasons) != 0 {
				t.Errorf("%s: refused %v\n%.1000s", c.name, reasons, out)
			}
			continue
		}
		if code != 1 || len(reasons) == 0 || !containsReason(reasons, c.want) {
			t.Errorf("%s: exit %d, reasons %v, want %s\n%.1500s", c.name, code, reasons, c.want, out)
		}
	}
}

func containsReason(rs []string, want string) bool {
	for _, r := range rs {
		if r == want {
			return true
		}
	}
	return false
}

// TestSheetBindsOwnBundle: freeze refuses to sign a sheet on a bundle made
// for another rater, and verify refuses a (re-signed) sheet that rests on
// the other rater's bundle, so the two sheets cannot share one bundle
// (other-bundle).
func TestSheetBindsOwnBundle(t *testing.T) {
	_, ratings, keys := demoChain(t)
	p := func(n string) string { return filepath.Join(ratings, n) }
	j := filepath.Join(t.TempDir(), "bob-on-ann.jsonl")
	mustRun(t, 0, "grade", p("bundle-ann.json"), "--journal", j, "--from", p("grades-ann.json"))
	code, out, _ := runCapture(t, "freeze", "--journal", j, "--bundle", p("bundle-ann.json"), "--allowed-signers", filepath.Join(keys, "allowed_signers"), "--key", filepath.Join(keys, "rater-bob"), "--name", "bob",
		"--out", filepath.Join(t.TempDir(), "sheet.json"), "--format", "json")
	if code != 1 || !strings.Contains(out, `"reason":"other-bundle"`) {
		t.Errorf("freeze on another rater's bundle: exit %d\n%s", code, out)
	}
	dir := filepath.Join(t.TempDir(), "ratings")
	os.CopyFS(dir, os.DirFS(ratings))
	err := fixtures.Forgery{Sheet: func(name string, s *adjudication.Sheet, bundles map[string]string) {
		if name == "bob" {
			s.BundleRater, s.BundleDigest = "ann", bundles["ann"]
		}
	}}.Apply(dir)
	if err != nil {
		t.Fatal(err)
	}
	code, out, _ = runCapture(t, "verify", "--format", "json", "--allowed-signers", filepath.Join(dir, "allowed_signers"),
		"--bundle", filepath.Join(dir, "bundle-ann.json"), "--bundle", filepath.Join(dir, "bundle-bob.json"),
		filepath.Join(dir, "sheet-ann.json"), filepath.Join(dir, "sheet-bob.json"), filepath.Join(dir, "adjudication.json"), filepath.Join(dir, "reveal.json"))
	if code != 1 || !strings.Contains(out, `"reason": "other-bundle"`) {
		t.Errorf("verify of a sheet on the other rater's bundle: exit %d\n%.2000s", code, out)
	}
}
