package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"verdict/campaign"
	"verdict/internal/campaigntest"
)

// TestJournalRefusesFileThatIsNotAJournal: --journal naming an existing
// file that is not a verdict journal is refused (not-a-journal) and left
// byte for byte as it was, whether or not it ends in a newline; a torn
// journal header (a crash while creating the journal) is still mended.
func TestJournalRefusesFileThatIsNotAJournal(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bundle, b := gradeTestBundle(t, dir)
	grades := filepath.Join(dir, "grades.json")
	gradesFile(t, grades, b, false, false)
	for name, content := range map[string]string{
		"one line, no newline": "my thesis notes, not a journal",
		"several lines":        "line one\nline two\n",
		"a JSON object":        `{"seq":1,"prev":"","time":"2026-01-01T00:00:00Z","value":""}` + "\n",
		"an SSH key":           "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n",
	} {
		j := filepath.Join(dir, "notes.txt")
		if err := os.WriteFile(j, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		code, out, _ := runCapture(t, "grade", bundle, "--journal", j, "--from", grades)
		after, _ := os.ReadFile(j)
		if code != 1 || !strings.Contains(out, "not-a-journal") {
			t.Errorf("%s: exit %d, want 1 with not-a-journal\n%s", name, code, out)
		}
		if !bytes.Equal(after, []byte(content)) {
			t.Errorf("%s: the file was changed to %q", name, after)
		}
	}
	// A torn header, as a crash while the journal was created leaves it.
	torn := filepath.Join(dir, "torn.jsonl")
	os.WriteFile(torn, []byte(`{"seq":0,"prev":"","ti`), 0o600)
	if code, out, _ := runCapture(t, "grade", bundle, "--journal", torn, "--from", grades); code != 0 {
		t.Fatalf("torn journal header: exit %d\n%s", code, out)
	}
}

// TestDemoRefusesNonEmptyOut: `verdict demo --out DIR` refuses a DIR that
// holds anything (output-not-empty) and leaves it untouched; a path that
// is a file is refused too.
func TestDemoRefusesNonEmptyOut(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	key := filepath.Join(dir, "keys", "id_ed25519")
	os.MkdirAll(filepath.Dir(key), 0o700)
	os.WriteFile(key, []byte("the user's own key\n"), 0o600)
	code, out, _ := runCapture(t, "demo", "--out", dir)
	if code != 1 || !strings.Contains(out, "output-not-empty") {
		t.Fatalf("demo --out non-empty: exit %d, want 1 with output-not-empty\n%s", code, out)
	}
	if got, _ := os.ReadFile(key); string(got) != "the user's own key\n" {
		t.Fatalf("the user's key was changed: %q", got)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Fatalf("demo wrote into the refused directory: %v", ents)
	}
	if code, out, _ := runCapture(t, "demo", "--out", key); code != 1 || !strings.Contains(out, "output-not-empty") {
		t.Fatalf("demo --out FILE: exit %d\n%s", code, out)
	}
}

// runWithin runs the command line and fails the test if it has not
// returned within d (a FIFO opened for reading would block it forever);
// unblock is called then to release it.
func runWithin(t *testing.T, d time.Duration, unblock func(), args ...string) (int, string) {
	t.Helper()
	type result struct {
		code int
		out  string
	}
	done := make(chan result, 1)
	go func() {
		code, out, errs := runCapture(t, args...)
		done <- result{code, out + errs}
	}()
	select {
	case r := <-done:
		return r.code, r.out
	case <-time.After(d):
		unblock()
		<-done
		t.Fatalf("verdict %v did not return within %v", args, d)
		return 0, ""
	}
}

// TestOnlyRegularFilesWithinCaps: a FIFO at a bound path of the campaign
// or of the ratings directory is refused at once (not-regular-file) by
// check, blind and score, never read; a 300 MB response is refused before
// it is read (file-too-large).
func TestOnlyRegularFilesWithinCaps(t *testing.T) {
	// Not parallel: it bounds each run's wall time.
	dir := chkWriteDir(t, campaigntest.Campaign(t, campaigntest.Options{Phase: campaign.PhaseDevelopmentRound1, Admissible: true}, 4, 1))
	resp, _ := filepath.Glob(filepath.Join(dir, "responses", "*.json"))
	if len(resp) == 0 {
		t.Fatal("no response files")
	}
	target := resp[0]
	os.Remove(target)
	if err := mkfifo(target); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	for _, args := range [][]string{{"check", dir}, {"blind", dir, "--out", filepath.Join(t.TempDir(), "b"), "--raters", "ann,bob"}} {
		code, out := runWithin(t, 10*time.Second, feedFIFO(target), args...)
		if code != 1 || !strings.Contains(out, "not-regular-file") {
			t.Errorf("%v with a FIFO response: exit %d, want 1 with not-regular-file\n%s", args[0], code, out)
		}
	}
	// A 300 MB response (sparse: no disk is used) is refused from its size.
	os.Remove(target)
	f, err := os.Create(target)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(300 << 20); err != nil {
		t.Fatal(err)
	}
	mustClose(t, f)
	start := time.Now()
	code, out := runWithin(t, 10*time.Second, func() {}, "check", dir)
	if code != 1 || !strings.Contains(out, "file-too-large") {
		t.Errorf("check with a 300 MB response: exit %d, want 1 with file-too-large\n%s", code, out)
	}
	t.Logf("a 300 MB response refused in %v", time.Since(start))

	// The ratings directory of a whole SYNTHETIC chain: a FIFO in place of
	// a sheet's signature, a bundle, allowed_signers or the sealed map.
	demo := filepath.Join(t.TempDir(), "demo")
	if code, out, _ := runCapture(t, "demo", "--out", demo); code != 0 && code != 1 {
		t.Fatalf("demo: exit %d\n%s", code, out)
	}
	ratings := filepath.Join(demo, "ratings")
	for _, name := range []string{"sheet-ann.json.sig", "sheet-bob.json", "bundle-ann.json", "allowed_signers", "sealed-map.json"} {
		p := filepath.Join(ratings, name)
		keep, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		os.Remove(p)
		if err := mkfifo(p); err != nil {
			t.Skipf("mkfifo: %v", err)
		}
		code, out := runWithin(t, 10*time.Second, feedFIFO(p), "score", filepath.Join(demo, "campaign"), "--ratings", ratings, "--allowed-signers", filepath.Join(ratings, "allowed_signers"))
		if code != 1 || !strings.Contains(out, "not-regular-file") {
			t.Errorf("score with a FIFO at %s: exit %d, want 1 with not-regular-file\n%s", name, code, out)
		}
		os.Remove(p)
		os.WriteFile(p, keep, 0o644)
	}
}
