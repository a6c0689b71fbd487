package tui

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"verdict/adjudication"
)

// waitUntil polls cond (the renderer writes only changed cells, so the
// journal, not the byte stream, is what the flows wait on).
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func waitGraded(t *testing.T, e *rateEnv, n int) {
	t.Helper()
	waitUntil(t, fmt.Sprintf("%d grades in the journal", n), func() bool { return len(e.j.State().Grades) == n })
}

// waitStart waits for the first frame.
func waitStart(t *testing.T, tm *teatest.TestModel) {
	t.Helper()
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte("fields")) },
		teatest.WithDuration(30*time.Second), teatest.WithCheckInterval(10*time.Millisecond))
}

func typeKeys(tm *teatest.TestModel, keys ...string) {
	for _, k := range keys {
		tm.Send(keyMsg(k))
	}
}

func finalRater(t *testing.T, tm *teatest.TestModel) *rater {
	t.Helper()
	m := tm.FinalModel(t, teatest.WithFinalTimeout(30*time.Second))
	return m.(*root).child.(*rater)
}

// TestFlowGradeWholeItem grades every field of the first item with single
// keys and finds the item complete and every grade in the journal.
func TestFlowGradeWholeItem(t *testing.T) {
	e := newRateEnv(t, synthBundle(2))
	tm := teatest.NewTestModel(t, NewRateModel(e.input(), testOptions(80, 24)), teatest.WithInitialTermSize(80, 24))
	waitStart(t, tm)
	keys := []string{"esc", "1", "2", "1", "1", "2", "1", "1", "3", "2", "1", "2", "1", "1"}
	typeKeys(tm, keys...)
	waitGraded(t, e, 13)
	// The journal holds the 13th grade before the program has taken in
	// its save (q typed now could overtake it): wait for the screen too.
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte("13/26 fields")) },
		teatest.WithDuration(30*time.Second), teatest.WithCheckInterval(10*time.Millisecond))
	typeKeys(tm, "q")
	r := finalRater(t, tm)
	if s := screen(r.c2root()); !strings.Contains(s, "13/26 fields · 1/2 items") {
		t.Fatalf("final screen:\n%s", s)
	}
	if r.graded[0] != 13 || r.item != 1 || r.field != 0 {
		t.Fatalf("graded %v, at item %d field %d", r.graded, r.item, r.field)
	}
	st := e.j.State()
	if len(st.Grades) != 13 {
		t.Fatalf("journal has %d grades", len(st.Grades))
	}
	if st.Grades[7].Value != "wrong" {
		t.Fatalf("C3 claim = %q, want wrong", st.Grades[7].Value)
	}
}

// TestFlowResumeAfterRestart quits mid-item and starts again: the program
// resumes at the first ungraded field with every saved grade.
func TestFlowResumeAfterRestart(t *testing.T) {
	e := newRateEnv(t, synthBundle(2))
	tm := teatest.NewTestModel(t, NewRateModel(e.input(), testOptions(80, 24)), teatest.WithInitialTermSize(80, 24))
	waitStart(t, tm)
	typeKeys(tm, "esc", "1", "1", "2", "1", "2")
	waitGraded(t, e, 5)
	typeKeys(tm, "ctrl+c")
	r1 := finalRater(t, tm)
	mustClose(t, e.j)

	e.open(t)
	tm2 := teatest.NewTestModel(t, NewRateModel(e.input(), testOptions(80, 24)), teatest.WithInitialTermSize(80, 24))
	waitStart(t, tm2)
	typeKeys(tm2, "esc", "q")
	r2 := finalRater(t, tm2)
	if r2.cur() != r1.cur() || r2.field != 5 || r2.item != 0 {
		t.Fatalf("resumed at %v, want %v", r2.cur(), r1.cur())
	}
	for f, g := range r1.saved {
		if r2.saved[f].Value != g.Value {
			t.Fatalf("%v: %q after restart, want %q", f, r2.saved[f].Value, g.Value)
		}
	}
}

// TestFlowFlagsAfterRestart flags an item in a running program, quits,
// and starts again on the same journal: the flag is still there, in the
// status line and the item list.
func TestFlowFlagsAfterRestart(t *testing.T) {
	e := newRateEnv(t, synthBundle(2))
	tm := teatest.NewTestModel(t, NewRateModel(e.input(), testOptions(80, 24)), teatest.WithInitialTermSize(80, 24))
	waitStart(t, tm)
	typeKeys(tm, "esc", "1", "f")
	waitUntil(t, "the flag in the journal", func() bool { return e.j.Flags()[e.b.Items[0].ID] })
	waitGraded(t, e, 1)
	typeKeys(tm, "q")
	finalRater(t, tm)
	e.j.Close()

	e.open(t)
	tm2 := teatest.NewTestModel(t, NewRateModel(e.input(), testOptions(80, 24)), teatest.WithInitialTermSize(80, 24))
	teatest.WaitFor(t, tm2.Output(), func(b []byte) bool { return bytes.Contains(b, []byte("⚑ 1 flagged")) },
		teatest.WithDuration(30*time.Second), teatest.WithCheckInterval(10*time.Millisecond))
	typeKeys(tm2, "esc", "l")
	teatest.WaitFor(t, tm2.Output(), func(b []byte) bool { return bytes.Contains(b, []byte("1 flagged · time spent")) },
		teatest.WithDuration(30*time.Second), teatest.WithCheckInterval(10*time.Millisecond))
	typeKeys(tm2, "q")
	r := finalRater(t, tm2)
	if !r.flagged[0] || r.flagged[1] || r.nGraded != 1 {
		t.Fatalf("after restart: flags %v, %d graded", r.flagged, r.nGraded)
	}
}

// TestFlowFreeze grades everything, opens the freeze screen and signs.
func TestFlowFreeze(t *testing.T) {
	e := newRateEnv(t, synthBundle(1))
	tm := teatest.NewTestModel(t, NewRateModel(e.input(), testOptions(80, 24)), teatest.WithInitialTermSize(80, 24))
	waitStart(t, tm)
	typeKeys(tm, "esc", "F", "y", "esc")
	typeKeys(tm, strings.Split(strings.Repeat("1", 13), "")...)
	waitGraded(t, e, 13)
	// The journal holds the grades before the model has taken in every
	// save; F pressed earlier opens a freeze screen that refuses y. Wait
	// for the screen to count 13/13 first.
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte("13/13 fields")) },
		teatest.WithDuration(30*time.Second), teatest.WithCheckInterval(10*time.Millisecond))
	typeKeys(tm, "F", "y")
	waitUntil(t, "freeze", func() bool { return e.frozenCount() == 1 })
	typeKeys(tm, "q")
	r := finalRater(t, tm)
	if s := screen(r.c2root()); !strings.Contains(s, "Frozen and signed: sheet-rater-1.json") {
		t.Fatalf("final screen:\n%s", s)
	}
	if !r.result().Frozen {
		t.Fatalf("frozen %d times, result %+v", e.frozen, r.result())
	}
}

// c2root wraps the rater in a root model to render the whole screen.
func (r *rater) c2root() tea.Model { return newRoot(r.c, r, r.title, r.statusLine) }

// TestFlowTypeAheadAfterEvidence: e, esc and a value key typed at once in
// a running program grade the field: esc closes the evidence viewer at
// once, so the value key reaches the grading screen.
func TestFlowTypeAheadAfterEvidence(t *testing.T) {
	e := newRateEnv(t, synthBundle(1))
	tm := teatest.NewTestModel(t, NewRateModel(e.input(), testOptions(80, 24)), teatest.WithInitialTermSize(80, 24))
	waitStart(t, tm)
	typeKeys(tm, "esc", "e", "esc", "2", "e", "esc", "1")
	waitGraded(t, e, 2)
	typeKeys(tm, "q")
	r := finalRater(t, tm)
	if g, _ := e.j.Value(r.fields[0][0]); g.Value != adjudication.ValueNotAddressed {
		t.Fatalf("first field %+v", g)
	}
}
