package tui

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"verdict/adjudication"

	tea "charm.land/bubbletea/v2"
)

// TestRateFrozenJournalTakesNoEntry: after the freeze, f is disabled on
// the grading pane and in the item list (the help no longer offers it),
// pressing it writes nothing, and a flag or grade that reaches the
// journal anyway is refused (journal-frozen) and shown as not saved: the
// signed journal_digest stays the journal's digest.
func TestRateFrozenJournalTakesNoEntry(t *testing.T) {
	e := newRateEnv(t, synthBundle(2))
	m, r := newTestRater(t, e, 120, 40)
	gradeAll(t, m, r)
	m = press(m, "F", "y")
	if !r.freeze.signed || !e.j.Frozen() {
		t.Fatalf("not frozen: %v %v\n%s", r.freeze.signed, e.j.Frozen(), screen(m))
	}
	before, err := os.ReadFile(e.path)
	if err != nil {
		t.Fatal(err)
	}
	m = press(m, "esc")
	if r.grade.keys.Flag.Enabled() || strings.Contains(screen(press(m, "?")), "flag item") {
		t.Fatal("f (flag item) offered after the freeze")
	}
	m = press(m, "?", "f", "l")
	if r.list.keys.Flag.Enabled() || strings.Contains(screen(m), " flag ") {
		t.Fatalf("f (flag) offered in the item list after the freeze:\n%s", screen(m))
	}
	m = press(m, "f", "esc")
	// Past the keys: the journal itself refuses.
	grade := func() tea.Cmd {
		cmd, _ := r.record(adjudication.Grade{Field: r.fields[0][0], Value: adjudication.AllowedValues(r.fields[0][0].Kind)[1]})
		return cmd
	}
	for _, write := range []func() tea.Cmd{func() tea.Cmd { return r.toggleFlag(0) }, grade} {
		m, _ = deliverMsg(m, write()())
		if !r.statusErr || !strings.Contains(r.status, string(adjudication.ReasonJournalFrozen)) {
			t.Fatalf("write after the freeze: status %q, want NOT saved … journal-frozen", r.status)
		}
	}
	if r.isFlagged(0) || r.nFlagged() != 0 {
		t.Fatal("a refused flag is shown as flagged")
	}
	after, err := os.ReadFile(e.path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(before, after) {
		t.Fatal("the journal changed after the freeze")
	}
}

func TestRateFreezeAndSign(t *testing.T) {
	e := newRateEnv(t, synthBundle(2))
	m, r := newTestRater(t, e, 80, 24)
	gradeAll(t, m, r)
	m = press(m, "F")
	if !r.freeze.keys.Confirm.Enabled() {
		t.Fatal("confirm disabled when complete")
	}
	m = press(m, "y")
	if e.frozen != 1 || !r.freeze.signed || !strings.Contains(screen(m), "Frozen and signed: sheet-rater-1.json") {
		t.Fatalf("freeze: %d %v\n%s", e.frozen, r.freeze.signed, screen(m))
	}
	press(m, "esc", "1")
	if r.grade.keys.Values[0].Enabled() {
		t.Fatal("grading enabled after freezing")
	}
	res := r.result()
	if !res.Frozen || res.Graded != res.Total {
		t.Fatalf("result %+v", res)
	}
}

// TestRateAfterFreezeStatusWrappedEscBack: after freezing, the status
// line holds the whole record (wrapped, not cut) and esc is "back", not
// "cancel".
func TestRateAfterFreezeStatusWrappedEscBack(t *testing.T) {
	e := newRateEnv(t, synthBundle(2))
	in := e.input()
	in.Freeze = func() (string, error) { return longRecord, nil }
	m := NewRateModel(in, testOptions(80, 24))
	r := m.(*root).child.(*rater)
	m = press(m, "esc")
	gradeAll(t, m, r)
	m = press(m, "F", "y")
	if !r.freeze.signed {
		t.Fatal("not frozen")
	}
	s := screen(m)
	for _, w := range strings.Fields("frozen and signed: " + longRecord) {
		if !strings.Contains(s, w) {
			t.Fatalf("status cut: %q missing:\n%s", w, s)
		}
	}
	if strings.Contains(s, "…") || strings.Contains(s, "esc cancel") || !strings.Contains(s, "esc back") {
		t.Fatalf("after freezing:\n%s", s)
	}
	if lines := strings.Split(s, "\n"); len(lines) != 24 {
		t.Fatalf("%d lines", len(lines))
	}
}
