package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestJournalRefusesFileThatIsNotAJournal: --journal naming an existing
// file that is not a verdict journal is refused (not-a-journal) and left
// byte for byte as it was, whether or not it ends in a newline; a torn
// journal header (a crash while creating the journal) is still mended.
func TestJournalRefusesFileThatIsNotAJournal(t *testing.T) {
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
