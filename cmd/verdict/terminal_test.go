package main

import (
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"verdict/tui"
)

// terminal sets what the run's terminal check answers.
func terminal(is bool) func(*app) {
	return func(a *app) { a.isTerminal = func() bool { return is } }
}

// TestTerminalUIsRefuseWithoutTerminal: ledger, rate and adjudicate
// without a terminal refuse in one line (exit 1, reason no-terminal) that
// names the non-interactive command to use, before the program starts and
// before any journal or decision log is created.
func TestTerminalUIsRefuseWithoutTerminal(t *testing.T) {
	t.Parallel()
	p, keys := frozenPair(t, t.TempDir())
	for _, tc := range []struct {
		args    []string
		instead string
		created string
	}{
		{[]string{"ledger"}, "verdict check --format json", ""},
		{[]string{"rate", p("bundle-ann.json"), "--journal", p("new.journal.jsonl")}, "verdict grade", p("new.journal.jsonl")},
		{[]string{"adjudicate", p("bundle-ann.json"), p("sheet-ann.json"), p("sheet-bob.json"), "--allowed-signers", keys + "allowed_signers",
			"--key", keys + "adjudicator-cho", "--name", "cho", "--out", p("adj.json")}, "verdict resolve", p("adj.decisions.jsonl")},
	} {
		code, _, stderr := runCLIWith(t, terminal(false), tc.args...)
		if code != 1 || !strings.Contains(stderr, string(ReasonNoTerminal)) || !strings.Contains(stderr, tc.instead) || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
			t.Errorf("%s without a terminal: exit %d, stderr %q; want exit 1 and one no-terminal line naming %q", tc.args[0], code, stderr, tc.instead)
		}
		if strings.Contains(stderr, "/dev/tty") {
			t.Errorf("%s: raw TTY error leaked: %q", tc.args[0], stderr)
		}
		if tc.created != "" {
			mustNotExist(t, tc.created)
		}
	}
}

// TestAdjudicateQuitWithSavedDecisionsExitsZero: q is always safe; leaving
// adjudicate mid-way with every decision saved exits 0 and says where the
// decision log is and how to resume; the saved decision is resumed.
func TestAdjudicateQuitWithSavedDecisionsExitsZero(t *testing.T) {
	// Not parallel: it bounds the program's wall time.
	p, keys := frozenPair(t, t.TempDir())
	args := []string{"adjudicate", p("bundle-ann.json"), p("sheet-ann.json"), p("sheet-bob.json"), "--allowed-signers", keys + "allowed_signers",
		"--key", keys + "adjudicator-cho", "--name", "cho", "--out", p("adj.json")}
	logPath := p("adj.decisions.jsonl")
	session := func(keys string) (int, string) {
		t.Helper()
		r, w := io.Pipe()
		set := func(a *app) {
			terminal(true)(a)
			a.tui = tui.Options{Input: r, Output: io.Discard, Width: 100, Height: 30}
		}
		type result struct {
			code   int
			stdout string
		}
		done := make(chan result, 1)
		go func() {
			code, stdout, _ := runCLIWith(t, set, args...)
			done <- result{code, stdout}
		}()
		lines := func() int { b, _ := os.ReadFile(logPath); return strings.Count(string(b), "\n") }
		for _, k := range keys {
			before := lines()
			if _, err := w.Write([]byte(string(k))); err != nil {
				t.Fatal(err)
			}
			if k == '1' { // wait until the decision is on disk
				for deadline := time.Now().Add(60 * time.Second); lines() == before; time.Sleep(10 * time.Millisecond) {
					if time.Now().After(deadline) {
						t.Fatal("decision never reached the log")
					}
				}
			}
		}
		select {
		case res := <-done:
			w.Close()
			return res.code, res.stdout
		case <-time.After(90 * time.Second):
			t.Fatal("adjudicate did not quit on q")
		}
		return 0, ""
	}
	code, stdout := session("1q")
	if code != 0 {
		t.Fatalf("quit after one saved decision: exit %d, want 0; stdout %q", code, stdout)
	}
	if !strings.Contains(stdout, "1/") || !strings.Contains(stdout, logPath) || !strings.Contains(stdout, "resume") {
		t.Errorf("quit message does not say the saved count, the log and how to resume: %q", stdout)
	}
	mustNotExist(t, p("adj.json"))
	// Starting again resumes with the saved decision; quitting at once is
	// still exit 0.
	code, stdout = session("q")
	if code != 0 || !strings.Contains(stdout, "1/") {
		t.Fatalf("resume then quit: exit %d, stdout %q", code, stdout)
	}
}

// TestThemeFlag: ledger, rate and adjudicate take --theme light|dark|auto;
// any other theme is a usage error (exit 2) before anything is written.
func TestThemeFlag(t *testing.T) {
	t.Parallel()
	p, keys := frozenPair(t, t.TempDir())
	for _, args := range [][]string{
		{"ledger"},
		{"rate", p("bundle-ann.json"), "--journal", p("new.journal.jsonl")},
		{"adjudicate", p("bundle-ann.json"), p("sheet-ann.json"), p("sheet-bob.json"), "--allowed-signers", keys + "allowed_signers",
			"--key", keys + "adjudicator-cho", "--name", "cho", "--out", p("adj.json")},
	} {
		code, _, stderr := runCLIWith(t, terminal(false), append(args, "--theme", "sepia")...)
		if code != 2 || !strings.Contains(stderr, "want light, dark or auto") {
			t.Errorf("%s --theme sepia: exit %d, stderr %q; want exit 2 naming the themes", args[0], code, stderr)
		}
		for _, th := range []string{"light", "dark", "auto"} {
			// Valid themes pass the flag and reach the terminal check.
			if code, _, stderr := runCLIWith(t, terminal(false), append(args, "--theme", th)...); code != 1 || !strings.Contains(stderr, string(ReasonNoTerminal)) {
				t.Errorf("%s --theme %s: exit %d, stderr %q", args[0], th, code, stderr)
			}
		}
	}
	mustNotExist(t, p("new.journal.jsonl"), p("adj.decisions.jsonl"))
}

// TestRateFlagSurvivesQuitAndResume: f in `verdict rate` writes the flag
// into the journal (an item_flag entry, not a grade); after q, a second
// `verdict rate` on the same journal resumes with the flag and says so,
// and the flag counts as no grade.
func TestRateFlagSurvivesQuitAndResume(t *testing.T) {
	// Not parallel: it bounds the program's wall time.
	p, _ := frozenPair(t, t.TempDir())
	journal := p("flags.journal.jsonl")
	args := []string{"rate", p("bundle-ann.json"), "--journal", journal}
	session := func(keys string, waitFor string) string {
		t.Helper()
		r, w := io.Pipe()
		set := func(a *app) {
			terminal(true)(a)
			a.tui = tui.Options{Input: r, Output: io.Discard, Width: 100, Height: 30}
		}
		done := make(chan string, 1)
		go func() {
			code, stdout, stderr := runCLIWith(t, set, args...)
			if code != 0 {
				t.Errorf("rate: exit %d, stderr %q", code, stderr)
			}
			done <- stdout
		}()
		for _, k := range keys {
			if k == 'q' && waitFor != "" { // wait until the flag is on disk
				for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(10 * time.Millisecond) {
					if b, _ := os.ReadFile(journal); strings.Contains(string(b), waitFor) {
						break
					}
					if time.Now().After(deadline) {
						t.Fatal("the flag never reached the journal")
					}
				}
			}
			if _, err := w.Write([]byte(string(k))); err != nil {
				t.Fatal(err)
			}
		}
		select {
		case out := <-done:
			w.Close()
			return out
		case <-time.After(90 * time.Second):
			t.Fatal("rate did not quit on q")
		}
		return ""
	}
	// enter leaves the task panel shown on arrival; f flags the first item.
	out := session("\rfq", `"kind":"item_flag","value":"flagged"`)
	if !strings.Contains(out, "0/") || !strings.Contains(out, "1 item flagged to come back to") {
		t.Fatalf("first session: %q", out)
	}
	out = session("q", "")
	if !strings.Contains(out, "0/") || !strings.Contains(out, "1 item flagged to come back to") {
		t.Fatalf("resumed session does not have the flag: %q", out)
	}
}
