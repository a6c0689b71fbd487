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
		args := "score " + filepath.Join(d, "campaign") + " --ratings " + filepath.Join(d, "ratings") +
			" --allowed-signers " + filepath.Join(d, "ratings", "allowed_signers")
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
	for _, want := range []string{"ratings/bundle-ann.journal.jsonl", "ratings/bundle-bob.journal.jsonl", "ratings/sheet-ann.json", "ratings/sheet-bob.json",
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

// TestDemoHintRunsThroughBinary runs the score command the demo's closing
// hint prints, word for word, through the built binary, for both designs:
// the hint must name the allowed_signers file, because score never takes
// the trust root from the ratings directory (allowed-signers-missing); the
// command it prints reaches the decision the demo printed.
func TestDemoHintRunsThroughBinary(t *testing.T) {
	t.Parallel()
	bin := verdictBin(t)
	for _, design := range []string{"fixed-evidence", "system-comparison"} {
		d := filepath.Join(t.TempDir(), "demo")
		p := runBin(bin, nil, "demo", "--design", design, "--out", d)
		if p.code != 0 {
			t.Fatalf("%s demo: exit %d\n%s", design, p.code, p.out)
		}
		_, rest, ok := strings.Cut(p.stdout, "\nScore again with:\n  verdict ")
		hint, _, _ := strings.Cut(rest, "\n")
		if !ok || hint == "" {
			t.Fatalf("%s demo printed no score hint:\n%s", design, p.stdout)
		}
		var decision string
		for _, line := range strings.Split(p.stdout, "\n") {
			if v, ok := strings.CutPrefix(line, "Decision: "); ok {
				decision = v
			}
		}
		if decision == "" {
			t.Fatalf("%s demo printed no decision:\n%s", design, p.stdout)
		}
		again := runBin(bin, nil, strings.Fields(hint)...)
		if strings.Contains(again.out, "allowed-signers-missing") || !strings.Contains(again.out, "decision "+decision) {
			t.Errorf("%s: the hint `verdict %s` does not reach decision %s: exit %d\n%s", design, hint, decision, again.code, again.out)
		}
	}
}
