package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSigningCommandsRefuseWhatScoreRefuses: freeze, resolve and adjudicate
// refuse, before anything is signed or shown, a signer that verify and
// score would refuse: a key allowed_signers does not list for the name
// (a rater's key under another rater's name, an unlisted key), a key whose
// line does not allow the role, an adjudicator who rated the sheets, and
// no allowed_signers at all. Nothing is written by a refused freeze, and
// the journal stays open, so the right rater can still freeze it.
func TestSigningCommandsRefuseWhatScoreRefuses(t *testing.T) {
	_, ratings, keys := demoChain(t)
	p := func(n string) string { return filepath.Join(ratings, n) }
	k := func(n string) string { return filepath.Join(keys, n) }
	dir := t.TempDir()
	bundleDir := filepath.Join(dir, "r")
	os.MkdirAll(bundleDir, 0o700)
	for _, n := range []string{"bundle-ann.json", "bundle-bob.json"} {
		b, _ := os.ReadFile(p(n))
		os.WriteFile(filepath.Join(bundleDir, n), b, 0o600)
	}
	bundle := filepath.Join(bundleDir, "bundle-bob.json")
	journal := filepath.Join(dir, "bob.jsonl")
	mustRun(t, 0, "grade", bundle, "--journal", journal, "--from", p("grades-bob.json"))
	sheet := filepath.Join(dir, "sheet-bob.json")
	freeze := func(extra ...string) (int, string) {
		args := append([]string{"freeze", "--journal", journal, "--bundle", bundle, "--out", sheet, "--format", "json", "--time", "2026-03-04T05:06:07Z"}, extra...)
		code, out, _ := runCapture(t, args...)
		return code, out
	}
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"no allowed_signers anywhere", []string{"--key", k("rater-bob"), "--name", "bob"}, "allowed-signers-missing"},
		{"ann's key under bob's name", []string{"--allowed-signers", k("allowed_signers"), "--key", k("rater-ann"), "--name", "bob"}, "signer-not-allowed"},
		{"the adjudicator's key as a rater", []string{"--allowed-signers", k("allowed_signers"), "--key", k("adjudicator-cho"), "--name", "cho"}, "key-not-allowed-for-role"},
		{"a line for bob that allows no role", []string{"--allowed-signers", writeAllowed(t, dir, "noroles", "bob", k("rater-bob.pub"), ""), "--key", k("rater-bob"), "--name", "bob"}, "key-not-allowed-for-role"},
		{"bob listed with another key", []string{"--allowed-signers", writeAllowed(t, dir, "otherkey", "bob", k("rater-ann.pub"), `namespaces="verdict-rating"`), "--key", k("rater-bob"), "--name", "bob"}, "signer-not-allowed"},
	} {
		code, out := freeze(c.args...)
		if code != 1 || !strings.Contains(out, `"reason":"`+c.want+`"`) {
			t.Errorf("freeze, %s: exit %d, want 1 %s\n%s", c.name, code, c.want, out)
		}
		if _, err := os.Lstat(sheet); err == nil {
			t.Fatalf("freeze, %s: a refused freeze wrote %s", c.name, sheet)
		}
	}
	// An allowed_signers file beside the bundle is never the default: one
	// that lets ann's key sign as bob is not used (allowed-signers-missing).
	os.WriteFile(filepath.Join(bundleDir, "allowed_signers"), mustRead(t, writeAllowed(t, dir, "beside", "bob", k("rater-ann.pub"), `namespaces="verdict-rating"`)), 0o600)
	if code, out := freeze("--key", k("rater-ann"), "--name", "bob"); code != 1 || !strings.Contains(out, `"reason":"allowed-signers-missing"`) {
		t.Errorf("freeze with allowed_signers only beside the bundle, ann's key as bob: exit %d\n%s", code, out)
	}
	if code, out := freeze("--key", k("rater-bob"), "--name", "bob", "--allowed-signers", k("allowed_signers")); code != 0 {
		t.Fatalf("freeze by bob after the refusals: exit %d\n%s", code, out)
	}

	// resolve and adjudicate: a rater, or a key not allowed to adjudicate,
	// is refused before the choices are read or a dispute is shown.
	choices := filepath.Join(dir, "no-such-choices.json")
	for _, c := range []struct {
		name, key, signer, want string
	}{
		{"a rater adjudicates", "rater-ann", "ann", "key-not-allowed-for-role"},
		{"the coordinator adjudicates", "coordinator-dee", "dee", "key-not-allowed-for-role"},
		{"cho's key under ann's name", "adjudicator-cho", "ann", "signer-not-allowed"},
	} {
		code, out, _ := runCapture(t, "resolve", p("sheet-ann.json"), p("sheet-bob.json"), "--from", choices, "--allowed-signers", k("allowed_signers"),
			"--key", k(c.key), "--name", c.signer, "--out", filepath.Join(dir, "adj.json"), "--format", "json")
		if code != 1 || !strings.Contains(out, `"reason":"`+c.want+`"`) {
			t.Errorf("resolve, %s: exit %d, want 1 %s\n%s", c.name, code, c.want, out)
		}
		code, out, _ = runCapture(t, "adjudicate", p("bundle-ann.json"), p("sheet-ann.json"), p("sheet-bob.json"), "--allowed-signers", k("allowed_signers"),
			"--key", k(c.key), "--name", c.signer, "--out", filepath.Join(dir, "adj.json"))
		if code != 1 || !strings.Contains(out, c.want) {
			t.Errorf("adjudicate, %s: exit %d, want 1 %s (before the terminal check)\n%s", c.name, code, c.want, out)
		}
	}
	// An adjudicator allowed to adjudicate but who rated: both names are
	// on lines that allow the adjudication namespace.
	both := writeAllowed(t, dir, "both", "ann", k("rater-ann.pub"), `namespaces="verdict-rating,verdict-adjudication"`)
	ab, _ := os.ReadFile(both)
	os.WriteFile(both, append(ab, mustRead(t, k("allowed_signers"))...), 0o600)
	code, out, _ := runCapture(t, "resolve", p("sheet-ann.json"), p("sheet-bob.json"), "--from", choices, "--allowed-signers", both,
		"--key", k("rater-ann"), "--name", "ann", "--out", filepath.Join(dir, "adj.json"), "--format", "json")
	if code != 1 || !strings.Contains(out, `"reason":"adjudicator-is-rater"`) {
		t.Errorf("resolve by a rater allowed to adjudicate: exit %d\n%s", code, out)
	}
}

// writeAllowed writes an allowed_signers file dir/name with one line for
// principal with the public key in pubFile and options opts.
func writeAllowed(t *testing.T, dir, name, principal, pubFile, opts string) string {
	t.Helper()
	pub, err := os.ReadFile(pubFile)
	if err != nil {
		t.Fatal(err)
	}
	line := principal + " "
	if opts != "" {
		line += opts + " "
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(line+strings.TrimSpace(string(pub))+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}
