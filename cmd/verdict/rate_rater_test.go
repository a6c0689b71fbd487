package main

import (
	"io"
	"strings"
	"testing"

	"verdict/adjudication"
	"verdict/tui"
)

// TestRateRefusesOtherRaterAtStart: `verdict rate` with a --name that is
// not the bundle's rater refuses before the first frame (exit 1), with
// the reason the freeze would give at the end (other-bundle), naming the
// bundle's rater, and creates no journal; the bundle's own rater starts.
func TestRateRefusesOtherRaterAtStart(t *testing.T) {
	p, keys := frozenPair(t, t.TempDir())
	// A program that started would read q and exit 0.
	started := func(a *app) {
		terminal(true)(a)
		a.tui = tui.Options{Input: strings.NewReader("q"), Output: io.Discard, Width: 100, Height: 30}
	}
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"key and name", []string{"rate", p("bundle-ann.json"), "--journal", p("bob-on-ann.jsonl"), "--allowed-signers", keys + "allowed_signers", "--key", keys + "rater-bob", "--name", "bob", "--out", p("sheet-x.json")}},
		{"name only", []string{"rate", p("bundle-bob.json"), "--journal", p("ann-on-bob.jsonl"), "--name", "ann"}},
	} {
		code, stdout, stderr := runCLIWith(t, started, tc.args...)
		if code != 1 || !strings.Contains(stderr, string(adjudication.ReasonOtherBundle)) || !strings.Contains(stdout+stderr, "made for rater") {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want exit 1 other-bundle naming the bundle's rater", tc.name, code, stdout, stderr)
		}
		mustNotExist(t, tc.args[3])
	}
	mustNotExist(t, p("sheet-x.json"))
	// The bundle's own rater reaches the program (q leaves it).
	code, stdout, stderr := runCLIWith(t, started, "rate", p("bundle-ann.json"), "--journal", p("ann.jsonl"), "--allowed-signers", keys+"allowed_signers", "--key", keys+"rater-ann", "--name", "ann", "--out", p("sheet-y.json"))
	if code != 0 || !strings.Contains(stdout, "fields graded") {
		t.Fatalf("own bundle: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}
