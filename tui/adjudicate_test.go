package tui

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"verdict/adjudication"
)

// testCheck is the resolution rule the adjudication package enforces: a
// value neither rating chose, and a confirmed oracle defect, need a note.
func testCheck(d Dispute, final, note string) error {
	if d.Field.Kind == adjudication.KindOracleDefect {
		if final == adjudication.ValueDefective && note == "" {
			return errors.New("note-required")
		}
		return nil
	}
	if !slices.Contains(adjudication.AllowedValues(d.Field.Kind), final) {
		return errors.New("bad value")
	}
	if final != d.Values[0] && final != d.Values[1] && note == "" {
		return errors.New("note-required")
	}
	return nil
}

type adjEnv struct {
	mu       sync.Mutex
	signed   [][]Decision
	recorded []Decision
	fail     error // Record's error when set
}

func (e *adjEnv) input() AdjudicateInput {
	b := synthBundle(2)
	it := b.Items[0].ID
	return AdjudicateInput{
		Bundle: b,
		Disputes: []Dispute{
			{Field: adjudication.Field{Item: it, Kind: adjudication.KindObligation, Target: "O1"}, Values: [2]string{"addressed", "not_addressed"}, Notes: [2]string{"", "the frame rule is not stated"}},
			{Field: adjudication.Field{Item: it, Kind: adjudication.KindUncertainty, Target: "O3"}, Values: [2]string{"credited", "not_credited"}},
			{Field: adjudication.Field{Item: it, Kind: adjudication.KindCitation, Target: "K2"}, Values: [2]string{"supports", "does_not_support"}},
			{Field: adjudication.Field{Item: it, Kind: adjudication.KindOracleDefect, Target: "O2"}, Values: [2]string{"defective", ""}, Notes: [2]string{"O2 names a path the packet never shows", ""}},
		},
		Check: testCheck,
		Record: func(d Decision) error {
			e.mu.Lock()
			defer e.mu.Unlock()
			if e.fail != nil {
				return e.fail
			}
			e.recorded = append(e.recorded, d)
			return nil
		},
		Signer:    Signer{Name: "adjudicator-1", Fingerprint: "SHA256:synthetic"},
		Agreement: testAgreement(it),
		Sign: func(ds []Decision) (string, error) {
			e.mu.Lock()
			defer e.mu.Unlock()
			e.signed = append(e.signed, ds)
			return "adjudication.json", nil
		},
	}
}

// testAgreement is the agreement of two sheets that differ on the three
// disputed grades of item it and agree on five more fields.
func testAgreement(it string) *adjudication.Agreement {
	var a, b []adjudication.Grade
	add := func(k adjudication.Kind, target, x, y string) {
		f := adjudication.Field{Item: it, Kind: k, Target: target}
		a = append(a, adjudication.Grade{Field: f, Value: x})
		b = append(b, adjudication.Grade{Field: f, Value: y})
	}
	add(adjudication.KindObligation, "O1", "addressed", "not_addressed")
	add(adjudication.KindUncertainty, "O3", "credited", "not_credited")
	add(adjudication.KindCitation, "K2", "supports", "does_not_support")
	for _, c := range []string{"C1", "C2", "C3"} {
		add(adjudication.KindClaim, c, "true", "true")
	}
	add(adjudication.KindCitation, "K1", "supports", "supports")
	add(adjudication.KindObligation, "O2", "not_addressed", "not_addressed")
	ag := adjudication.AgreementOf(a, b, nil)
	return &ag
}

// newTestAdjudicator returns the adjudicator's program past the task
// panel shown on arrival at the first dispute's item.
func newTestAdjudicator(e *adjEnv, w, h int) (tea.Model, *adjudicator) {
	m := NewAdjudicateModel(e.input(), testOptions(w, h))
	a := m.(*root).child.(*adjudicator)
	if a.screen != adjPanel {
		panic("the task is not shown on arrival")
	}
	return press(m, "esc"), a
}

func TestAdjudicateGolden(t *testing.T) {
	for _, sz := range []struct{ w, h int }{{80, 24}, {120, 40}} {
		for _, tc := range []struct {
			name string
			keys []string
		}{
			{"start", nil},
			{"other", []string{"j", "v"}},
			{"note", []string{"j", "v", "3", "w"}},
			{"oracle", []string{"k"}},
			{"evidence", []string{"e"}},
			{"sign_refused", []string{"S"}},
			{"signed", []string{"1", "v", "3", "n", "e", "w", "enter", "1", "1", "S", "y"}},
			{"help", []string{"?"}},
			{"citation", []string{"j", "j"}},
			{"answer", []string{"j", "j", "a"}},
			{"disputes", []string{"1", "l"}},
			{"task", []string{"t"}},
		} {
			t.Run(fmt.Sprintf("%s_%dx%d", tc.name, sz.w, sz.h), func(t *testing.T) {
				m, _ := newTestAdjudicator(&adjEnv{}, sz.w, sz.h)
				m = press(m, tc.keys...)
				golden.RequireEqual(t, screen(m))
			})
		}
	}
}

func TestAdjudicateBindings(t *testing.T) {
	e := &adjEnv{}
	m, a := newTestAdjudicator(e, 80, 24)
	s := screen(m)
	for _, w := range []string{"first rating", "second rating", "the frame rule is not stated"} {
		if !strings.Contains(s, w) {
			t.Fatalf("missing %q:\n%s", w, s)
		}
	}
	// 1 takes the first rating and advances to the next open dispute.
	m = press(m, "1")
	if a.decisions[0] == nil || a.decisions[0].Final != "addressed" || a.cur != 1 {
		t.Fatalf("1: %+v cur %d", a.decisions[0], a.cur)
	}
	// 2 takes the second rating.
	m = press(m, "2")
	if a.decisions[1].Final != "not_credited" || a.cur != 2 {
		t.Fatalf("2: %+v", a.decisions[1])
	}
	// A citation has two values and both raters chose one: v, which could
	// add no value, is off, left out of the help and does nothing.
	if a.keys.Other.Enabled() || strings.Contains(screen(m), "v other value") || !strings.Contains(screen(m), "no other value") {
		t.Fatalf("v offered on a two-valued field:\n%s", screen(m))
	}
	m = press(m, "v")
	if a.screen != adjMain {
		t.Fatal("v opened the chooser on a two-valued field")
	}
	// On the uncertainty dispute (credited against not credited) v offers
	// falsely resolved and opens the chooser; esc leaves it.
	m = press(m, "k")
	if !a.keys.Other.Enabled() || !strings.Contains(screen(m), "v other value") {
		t.Fatalf("v not offered:\n%s", screen(m))
	}
	m = press(m, "v")
	if a.screen != adjOther || !a.keys.Values[2].Enabled() {
		t.Fatal("v")
	}
	m = press(m, "esc", "j")
	if a.screen != adjMain || a.cur != 2 {
		t.Fatal("esc from chooser")
	}
	// k/up and j/down move; tab goes to the next open dispute.
	m = press(m, "k")
	if a.cur != 1 {
		t.Fatalf("k: %d", a.cur)
	}
	m = press(m, "j", "down", "up")
	if a.cur != 2 {
		t.Fatalf("j down up: %d", a.cur)
	}
	m = press(m, "tab")
	if a.cur != 3 {
		t.Fatalf("tab: %d", a.cur)
	}
	// On the oracle-defect dispute, 1 confirms the defect with the first
	// rating's reason; m edits the note.
	m = press(m, "1")
	if a.decisions[3].Final != "defective" || a.decisions[3].Note == "" {
		t.Fatalf("oracle: %+v", a.decisions[3])
	}
	m = press(m, "tab") // back to the citation (2)
	if a.cur != 2 {
		t.Fatalf("tab to open: %d", a.cur)
	}
	// Evidence for K2 shows E2 line 20 cited.
	m = press(m, "e")
	if a.screen != adjEvidence || !strings.Contains(screen(m), "▶20 │") {
		t.Fatalf("e:\n%s", screen(m))
	}
	m = press(m, "esc")
	// Signing is refused while a dispute is open.
	m = press(m, "S")
	if a.signer.keys.Confirm.Enabled() || !strings.Contains(screen(m), "Refused: 1 disputes are open") {
		t.Fatalf("S:\n%s", screen(m))
	}
	m = press(m, "y", "esc")
	// A value outside both ratings needs a note: v 1 on O1... here K2:
	// both values are ratings, so go to O1 and pick not_addressed's other.
	m = press(m, "k", "k") // cur 0 (O1)
	m = press(m, "m")
	if a.screen != adjNote {
		t.Fatal("m on a resolved dispute")
	}
	m = press(m, "o", "k", "enter")
	if a.decisions[0].Note != "ok" {
		t.Fatalf("note: %+v", a.decisions[0])
	}
	// The remaining open dispute: K2; choose it, then sign.
	m = press(m, "tab", "2")
	if a.resolved() != 4 {
		t.Fatalf("resolved %d", a.resolved())
	}
	m = press(m, "S", "y")
	if len(e.signed) != 1 || len(e.signed[0]) != 4 || !a.signer.signed {
		t.Fatalf("signed %v", e.signed)
	}
	m = press(m, "esc", "?")
	if !strings.Contains(screen(m), "next open") && !a.signer.signed {
		t.Fatal("help")
	}
	if _, quit := sendKey(m, "q"); !quit {
		t.Fatal("q")
	}
}

func TestAdjudicateOtherValueNeedsNote(t *testing.T) {
	e := &adjEnv{}
	in := e.input()
	in.Disputes = in.Disputes[1:2] // O3 uncertainty: credited vs not_credited
	m := NewAdjudicateModel(in, testOptions(80, 24))
	a := m.(*root).child.(*adjudicator)
	m = press(m, "esc", "v", "3") // falsely_resolved: neither rating
	if a.screen != adjNote || a.decisions[0] != nil {
		t.Fatal("other value accepted without a note")
	}
	m = press(m, "enter")
	if a.decisions[0] != nil || !a.statusErr {
		t.Fatal("empty note accepted")
	}
	_ = press(m, "w", "h", "y", "enter")
	if a.decisions[0] == nil || a.decisions[0].Final != "falsely_resolved" || a.decisions[0].Note != "why" {
		t.Fatalf("decision %+v", a.decisions[0])
	}
}

// TestFlowAdjudicateDispute resolves every dispute and signs in a running
// program.
func TestFlowAdjudicateDispute(t *testing.T) {
	e := &adjEnv{}
	tm := teatest.NewTestModel(t, NewAdjudicateModel(e.input(), testOptions(80, 24)), teatest.WithInitialTermSize(80, 24))
	typeKeys(tm, "esc", "2", "1", "2", "1", "S", "y")
	waitUntil(t, "signature", func() bool { e.mu.Lock(); defer e.mu.Unlock(); return len(e.signed) == 1 })
	typeKeys(tm, "q")
	a := tm.FinalModel(t, teatest.WithFinalTimeout(30*time.Second)).(*root).child.(*adjudicator)
	res := a.result()
	if !res.Signed || res.Resolved != 4 || res.Decisions[0].Final != "not_addressed" || res.Decisions[2].Final != "does_not_support" {
		t.Fatalf("result %+v", res)
	}
	if s := screen(newRoot(a.c, a, a.title, a.statusLine)); !strings.Contains(s, "Signed: adjudication.json") || strings.Contains(s, "rater-1") {
		t.Fatalf("final screen:\n%s", s)
	}
}

// TestAdjudicateSavedOnlyAfterRecord: the screen says saved only after
// Record returned nil; a failed Record leaves the dispute open and says so.
func TestAdjudicateSavedOnlyAfterRecord(t *testing.T) {
	e := &adjEnv{}
	m, a := newTestAdjudicator(e, 80, 24)
	// Deliver the key without running its command: the decision is pending.
	_, cmd := m.Update(keyMsg("1"))
	if cmd == nil || a.decisions[0] != nil || a.resolved() != 0 {
		t.Fatalf("decision counted before Record returned: %+v", a.decisions[0])
	}
	if s := screen(m); !strings.Contains(s, "saving O1 obligation") || strings.Contains(s, "saved ✓") {
		t.Fatalf("pending screen:\n%s", s)
	}
	// A pending decision is not signed: y only arms the signing.
	a.decisions[1], a.decisions[2], a.decisions[3] = &Decision{}, &Decision{}, &Decision{}
	a.signer.setEnabled(false)
	if _, c := a.signer.Update(keyMsg("y")); c != nil || a.signer.signing || !a.signer.armed {
		t.Fatal("signing started while a decision is being saved")
	}
	a.signer.disarm()
	a.decisions[1], a.decisions[2], a.decisions[3] = nil, nil, nil
	m, _ = deliverMsg(m, cmd())
	if a.decisions[0] == nil || a.decisions[0].Final != "addressed" || !strings.Contains(screen(m), "saved ✓ O1 obligation = addressed") {
		t.Fatalf("after Record:\n%s", screen(m))
	}
	if len(e.recorded) != 1 {
		t.Fatalf("recorded %v", e.recorded)
	}
	// A failed Record: nothing is marked resolved, the error is shown.
	e.fail = errors.New("disk full")
	m = press(m, "2")
	if a.decisions[1] != nil || !a.statusErr || !strings.Contains(screen(m), "NOT saved: disk full") {
		t.Fatalf("failed Record:\n%s", screen(m))
	}
	if a.cur != 2 || a.decided(1) {
		t.Fatalf("cur %d, dispute 1 decided %v", a.cur, a.decided(1))
	}
}

// flowSheets returns two frozen sheets of synthBundle(2) that disagree on
// exactly the four fields of adjEnv's disputes (and in their order).
func flowSheets(t *testing.T) [2]adjudication.FrozenSheet {
	t.Helper()
	b := synthBundle(2)
	disputes := (&adjEnv{}).input().Disputes
	var sheets [2]adjudication.FrozenSheet
	for i, name := range []string{"ann", "bob"} {
		sh := &adjudication.Sheet{Format: adjudication.SheetFormat, Synthetic: true, Signer: adjudication.Signer{Name: name},
			ContentDigest: b.ContentDigest, ObligationsDigest: b.ObligationsDigest, MapCommitment: b.MapCommitment}
		for _, d := range disputes {
			if d.Values[i] != "" {
				sh.Grades = append(sh.Grades, adjudication.Grade{Field: d.Field, Value: d.Values[i], Note: d.Notes[i]})
			}
		}
		sheets[i] = adjudication.FrozenSheet{Sheet: sh, SHA256: fmt.Sprintf("%064d", i+1)}
	}
	return sheets
}

// TestFlowAdjudicateResume decides one dispute in a running program, quits,
// starts again on the same decision log and finds the decision there and
// the program at the first undecided dispute.
func TestFlowAdjudicateResume(t *testing.T) {
	sheets := flowSheets(t)
	path := t.TempDir() + "/adjudication.decisions.jsonl"
	start := func() (*adjudication.DecisionLog, *teatest.TestModel) {
		l, err := adjudication.OpenDecisions(path, sheets[0], sheets[1])
		if err != nil {
			t.Fatal(err)
		}
		in := (&adjEnv{}).input()
		in.UseDecisionLog(l)
		tm := teatest.NewTestModel(t, NewAdjudicateModel(in, testOptions(80, 24)), teatest.WithInitialTermSize(80, 24))
		return l, tm
	}
	l, tm := start()
	if n := len(l.Disputes()); n != 4 {
		t.Fatalf("%d disputes, want 4", n)
	}
	typeKeys(tm, "esc", "2") // O1: second rating, not_addressed
	waitUntil(t, "the decision in the log", func() bool { return len(l.Choices()) == 1 })
	// The log holds the decision before the program has taken in its save
	// (q typed now could overtake it): wait for the screen to say saved.
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte("saved ✓")) },
		teatest.WithDuration(30*time.Second), teatest.WithCheckInterval(10*time.Millisecond))
	typeKeys(tm, "q")
	a1 := tm.FinalModel(t, teatest.WithFinalTimeout(30*time.Second)).(*root).child.(*adjudicator)
	if a1.resolved() != 1 || !strings.Contains(a1.status, "saved ✓") {
		t.Fatalf("before restart: resolved %d, status %q", a1.resolved(), a1.status)
	}
	mustClose(t, l)

	l2, tm2 := start()
	defer mustClose(t, l2)
	typeKeys(tm2, "esc", "q")
	a2 := tm2.FinalModel(t, teatest.WithFinalTimeout(30*time.Second)).(*root).child.(*adjudicator)
	if a2.decisions[0] == nil || a2.decisions[0].Final != "not_addressed" || a2.cur != 1 || a2.resolved() != 1 {
		t.Fatalf("after restart: decision %+v, cur %d", a2.decisions[0], a2.cur)
	}
	if s := screen(newRoot(a2.c, a2, a2.title, a2.statusLine)); !strings.Contains(s, "1/4 disputes resolved") || !strings.Contains(s, "dispute 2/4") {
		t.Fatalf("resumed screen:\n%s", s)
	}
	if cs := l2.Choices(); len(cs) != 1 || cs[0].Final != "not_addressed" {
		t.Fatalf("log after restart: %v", cs)
	}
}

// TestAdjudicateSignWaitsForSave: y pressed while the last decision is
// still being saved signs once Record returned, with every decision.
func TestAdjudicateSignWaitsForSave(t *testing.T) {
	e := &adjEnv{}
	m, a := newTestAdjudicator(e, 80, 24)
	m = press(m, "1", "2", "1")
	m, cmd := m.Update(keyMsg("1")) // the oracle-defect dispute: saving
	m = press(m, "S")
	if !strings.Contains(screen(m), "Saving 1 of the decisions") {
		t.Fatalf("sign screen while saving:\n%s", screen(m))
	}
	m = press(m, "y")
	if a.signer.signing || len(e.signed) != 0 {
		t.Fatal("signed before the last decision was saved")
	}
	m, _ = deliverMsg(m, cmd())
	if !a.signer.signed || len(e.signed) != 1 || len(e.signed[0]) != 4 {
		t.Fatalf("signed %v:\n%s", e.signed, screen(m))
	}
}

// TestAdjudicateSeesWholeItem: for every dispute the adjudicator sees the
// task (on arrival and on t), the answer scrolled to the disputed element
// (a, where 1 and 2 still decide), the cited lines of a citation, both
// values with notes, and a list of disputes (l) and a search (/) to move.
func TestAdjudicateSeesWholeItem(t *testing.T) {
	e := &adjEnv{}
	m := NewAdjudicateModel(e.input(), testOptions(80, 24))
	a := m.(*root).child.(*adjudicator)
	if !strings.Contains(screen(m), "SYNTHETIC task: explain how widgets are counted.") {
		t.Fatalf("task not shown on arrival:\n%s", screen(m))
	}
	m = press(m, "esc", "t")
	if a.screen != adjPanel {
		t.Fatal("t")
	}
	m = press(m, "esc", "j", "j")
	if s := screen(m); !strings.Contains(s, "20 │ func step20()") || !strings.Contains(s, "C2  claim: The reset path is Reset().") {
		t.Fatalf("citation dispute without its cited lines and statements:\n%s", s)
	}
	m = press(m, "a")
	if s := screen(m); a.screen != adjAnswer || !strings.Contains(s, "▶ K2  E2 pkg/count2.go:20-20") {
		t.Fatalf("a:\n%s", s)
	}
	m = press(m, "2")
	if d, _ := a.decision(2); d == nil || d.Final != "does_not_support" {
		t.Fatalf("2 on the answer: %+v", d)
	}
	m = press(m, "esc", "l", "k", "k", "enter")
	if a.screen != adjMain || a.cur != 1 {
		t.Fatalf("list: screen %d cur %d", a.screen, a.cur)
	}
	m = press(m, "/", "f", "r", "a", "m", "e", " ", "r", "u", "l", "e", "enter")
	if !strings.Contains(screen(m), "dispute 1 O1 obligation") {
		t.Fatalf("search:\n%s", screen(m))
	}
	m = press(m, "enter")
	if a.cur != 0 || a.screen != adjMain {
		t.Fatalf("search opened dispute %d", a.cur)
	}
	// The search covers the item's task and its answer, not only the
	// disputed fields (the answer's A1 action and the task text are no
	// dispute's field).
	for q, want := range map[string]string{"frame counter test": "dispute 1 answer", "how widgets are counted": "dispute 1 task"} {
		m = press(m, "/", "/")
		m = press(m, strings.Split(q, "")...)
		m = press(m, "enter")
		if s := screen(m); !strings.Contains(s, want) {
			t.Fatalf("search %q: want a hit %q:\n%s", q, want, s)
		}
		m = press(m, "esc")
	}
}

// TestAdjudicateKeysPassThroughTask: the task shown on arrival at a
// dispute's item never swallows a key: 1 closes it and decides the
// dispute, j (on the task reopened with t) moves to the next dispute.
func TestAdjudicateKeysPassThroughTask(t *testing.T) {
	e := &adjEnv{}
	m := NewAdjudicateModel(e.input(), testOptions(80, 24))
	a := m.(*root).child.(*adjudicator)
	if a.screen != adjPanel {
		t.Fatal("the task is not shown on arrival")
	}
	m = press(m, "1")
	if a.screen != adjMain || !a.decided(0) {
		t.Fatalf("1 on the task: screen %d, decided %v", a.screen, a.decided(0))
	}
	cur := a.cur
	_ = press(m, "t", "j")
	if a.screen != adjMain || a.cur != (cur+1)%len(a.in.Disputes) {
		t.Fatalf("j on the task: screen %d cur %d", a.screen, a.cur)
	}
}

// TestAdjudicateAfterSignStatusWrappedEscBack: after signing, the status
// line holds the whole record (wrapped, not cut), esc is "back", not
// "cancel", and it returns to the disputes, where nothing can be decided.
func TestAdjudicateAfterSignStatusWrappedEscBack(t *testing.T) {
	e := &adjEnv{}
	in := e.input()
	in.Sign = func([]Decision) (string, error) { return longRecord, nil }
	m := NewAdjudicateModel(in, testOptions(80, 24))
	a := m.(*root).child.(*adjudicator)
	m = press(m, "esc", "1", "1", "1", "1", "S", "y")
	if !a.signer.signed {
		t.Fatalf("not signed:\n%s", screen(m))
	}
	s := screen(m)
	for _, w := range strings.Fields("adjudication signed: " + longRecord) {
		if !strings.Contains(s, w) {
			t.Fatalf("status cut: %q missing:\n%s", w, s)
		}
	}
	if strings.Contains(s, "…") || strings.Contains(s, "esc cancel") || !strings.Contains(s, "esc back") {
		t.Fatalf("after signing:\n%s", s)
	}
	if lines := strings.Split(s, "\n"); len(lines) != 24 {
		t.Fatalf("%d lines", len(lines))
	}
	m = press(m, "esc", "2")
	if a.screen != adjMain || a.keys.First.Enabled() || a.keys.Sign.Enabled() {
		t.Fatalf("esc after signing: screen %d", a.screen)
	}
	_ = m
}

// TestAdjudicateSignScreenScrolls: on a screen too short for every
// decision being signed, the first ctrl+d scrolls them.
func TestAdjudicateSignScreenScrolls(t *testing.T) {
	e := &adjEnv{}
	m, a := newTestAdjudicator(e, 80, 14)
	m = press(m, "S")
	if !a.signer.keys.Down.Enabled() || !strings.Contains(screen(m), "more lines: ctrl+d") {
		t.Fatalf("sign screen at 80x14:\n%s", screen(m))
	}
	_ = press(m, "ctrl+d")
	if a.signer.dy == 0 {
		t.Fatal("the first ctrl+d did not scroll")
	}
}
