package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestScoreOutRefusesUserFiles: `verdict score --out` refuses a directory
// that holds anything, and a path that is a file, before it scores, and
// leaves what is there untouched (output-not-empty).
func TestScoreOutRefusesUserFiles(t *testing.T) {
	camp, ratings := t.TempDir(), t.TempDir()
	full := t.TempDir()
	mine := filepath.Join(full, "report.json")
	if err := os.WriteFile(mine, []byte("the user's own report\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "notes.txt")
	if err := os.WriteFile(file, []byte("the user's notes\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ out, path, want string }{
		{full, mine, "the user's own report\n"},
		{file, file, "the user's notes\n"},
	} {
		code, out := runCombined(t, "score", camp, "--ratings", ratings, "--allowed-signers", filepath.Join(ratings, "allowed_signers"), "--out", tc.out)
		if code != 1 || !strings.Contains(out, string(ReasonOutputNotEmpty)) {
			t.Fatalf("score --out %s: exit %d\n%s", tc.out, code, out)
		}
		if b, err := os.ReadFile(tc.path); err != nil || string(b) != tc.want {
			t.Fatalf("%s changed: %q %v", tc.path, b, err)
		}
	}
	ents, err := os.ReadDir(full)
	if err != nil || len(ents) != 1 {
		t.Fatalf("the refused directory holds %d entries, %v", len(ents), err)
	}
}
