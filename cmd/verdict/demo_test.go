package main

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDemoReproducible runs `verdict demo` twice into two directories: every
// file (journals, sheets, adjudication, reveal, their signatures, report.json,
// report.md, the charts) is byte-identical, because the demo stamps its
// journals with a fixed clock and signs with fixed times.
func TestDemoReproducible(t *testing.T) {
	t.Parallel()
	dirs := [2]string{t.TempDir(), t.TempDir()}
	for _, d := range dirs {
		code, out, errOut := runCapture(t, "demo", "--out", d)
		if code != 0 {
			t.Fatalf("demo exit %d\n%s%s", code, out, errOut)
		}
		// The closing hint works for the installed binary and for go run.
		args := "score " + filepath.Join(d, "campaign") + " --ratings " + filepath.Join(d, "ratings")
		if !strings.Contains(out, "\n  verdict "+args+"\n") || !strings.Contains(out, "\n  go run ./cmd/verdict "+args+"\n") {
			t.Errorf("closing hint lacks the verdict or go run command:\n%s", out)
		}
	}
	n := 0
	err := filepath.WalkDir(dirs[0], func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dirs[0], p)
		a, _ := os.ReadFile(p)
		b, err := os.ReadFile(filepath.Join(dirs[1], rel))
		if err != nil {
			t.Errorf("%s: only in the first run", rel)
			return nil
		}
		if !bytes.Equal(a, b) {
			t.Errorf("%s differs between two demo runs", rel)
		}
		n++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"ratings/journal-ann.jsonl", "ratings/journal-bob.jsonl", "ratings/sheet-ann.json", "ratings/sheet-bob.json",
		"ratings/adjudication.json", "ratings/reveal.json", "report/report.json", "report/report.md"} {
		if _, err := os.Stat(filepath.Join(dirs[0], filepath.FromSlash(want))); err != nil {
			t.Errorf("demo wrote no %s", want)
		}
	}
	t.Logf("%d files compared", n)
}

// TestDemoFlagsUsage: a negative --tasks, a --repetitions below 1 and
// --repetitions without --tasks are usage errors (exit 2) that name the flag.
func TestDemoFlagsUsage(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"--tasks", "-1"},
		{"--tasks", "2", "--repetitions", "0"},
		{"--tasks", "2", "--repetitions", "-3"},
		{"--repetitions", "2"},
	} {
		code, _, errOut := runCapture(t, append([]string{"demo", "--out", t.TempDir()}, args...)...)
		if code != 2 {
			t.Errorf("demo %v: exit %d, want 2", args, code)
		}
		flag := strings.TrimPrefix(args[len(args)-2], "--")
		if !strings.Contains(errOut, flag) {
			t.Errorf("demo %v: message %q does not name --%s", args, errOut, flag)
		}
	}
}
