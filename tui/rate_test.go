package tui

import (
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"verdict/adjudication"
	"verdict/blinding"
	"verdict/campaign"
	"verdict/tui/styles"
)

// synthBundle is a SYNTHETIC bundle of n items, each the synthetic review
// answer of synthReviewB over a six-item packet.
func synthBundle(n int) *blinding.Bundle {
	b := &blinding.Bundle{Notice: "SYNTHETIC", Format: "verdict-bundle-v1", Synthetic: true, Rater: "rater-1",
		ShuffleSeed: strings.Repeat("0", 64), MapCommitment: strings.Repeat("1", 64), ContentDigest: strings.Repeat("2", 64), ObligationsDigest: strings.Repeat("3", 64)}
	for i := range n {
		t := synthTask("T1", 6)
		b.Items = append(b.Items, bundleItem(fmt.Sprintf("item-%016x", i+1), t, synthReviewB(6).Final))
	}
	return b
}

func bundleItem(id string, t *campaign.Task, f campaign.Final) blinding.Item {
	it := blinding.Item{ID: id, TaskText: string(t.Text), Final: f}
	for _, e := range t.Packet.Items {
		it.Evidence = append(it.Evidence, blinding.Excerpt{ID: e.ID, Path: e.Path, StartLine: e.StartLine, EndLine: e.EndLine, Excerpt: e.Excerpt})
	}
	for _, o := range t.Truth.Obligations {
		it.Obligations = append(it.Obligations, blinding.Obligation{ID: o.ID, Text: o.Text, Critical: o.Critical, Answerable: o.Answerable,
			EvidenceIDs: o.EvidenceIDs, AcceptedAlternatives: o.AcceptedAlternatives, RequiredVerification: o.RequiredVerification})
	}
	return it
}

// fakeClock advances by one second on every reading.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time { c.t = c.t.Add(time.Second); return c.t }

type rateEnv struct {
	b       *blinding.Bundle
	path    string
	j       *adjudication.Journal
	mu      sync.Mutex
	frozen  int
	freezeE error
}

func (e *rateEnv) frozenCount() int { e.mu.Lock(); defer e.mu.Unlock(); return e.frozen }

func newRateEnv(t testing.TB, b *blinding.Bundle) *rateEnv {
	t.Helper()
	e := &rateEnv{b: b, path: filepath.Join(t.TempDir(), "journal.jsonl")}
	e.open(t)
	return e
}

func (e *rateEnv) open(t testing.TB) {
	t.Helper()
	clk := &fakeClock{t: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	j, err := adjudication.Open(e.path, e.b, adjudication.WithClock(clk.now))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { mustClose(t, j) })
	e.j = j
}

func (e *rateEnv) input() RateInput {
	clk := &fakeClock{t: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	return RateInput{Bundle: e.b, Journal: e.j, Signer: Signer{Name: "rater-1", Fingerprint: "SHA256:synthetic"},
		Freeze: func() (string, error) {
			// As verdict rate does: the journal is frozen while the sheet
			// is signed, and stays frozen once it is.
			err := e.j.Freeze(func(adjudication.State) error {
				e.mu.Lock()
				defer e.mu.Unlock()
				e.frozen++
				return e.freezeE
			})
			return "sheet-rater-1.json", err
		}, Clock: clk.now}
}

// newTestRater returns the rater program past the task panel of its first
// item (newArrivingRater keeps it).
func newTestRater(t testing.TB, e *rateEnv, w, h int) (tea.Model, *rater) {
	m, r := newArrivingRater(e, w, h)
	if r.screen != screenPanel {
		t.Fatalf("the first item's task is not shown on arrival (screen %d)", r.screen)
	}
	return press(m, "esc"), r
}

func newArrivingRater(e *rateEnv, w, h int) (tea.Model, *rater) {
	m := NewRateModel(e.input(), testOptions(w, h))
	return m, m.(*root).child.(*rater)
}

// gradeAll presses 1 until every field is graded (esc on the task panel
// of each item reached).
func gradeAll(t testing.TB, m tea.Model, r *rater) int {
	n := 0
	for r.nGraded < r.nTotal {
		if r.screen == screenPanel {
			m = press(m, "esc")
		} else {
			m = press(m, "1")
		}
		n++
		if n > r.nTotal+5 {
			t.Fatalf("grading does not converge: %d/%d after %d keys", r.nGraded, r.nTotal, n)
		}
	}
	return n
}

func TestRateKeystrokesPerAnswer(t *testing.T) {
	e := newRateEnv(t, synthBundle(1))
	m, r := newTestRater(t, e, 80, 24)
	fields := r.nTotal
	n := gradeAll(t, m, r)
	if n > fields+3 {
		t.Fatalf("%d keystrokes for %d fields, want ≤ %d", n, fields, fields+3)
	}
	t.Logf("keystrokes to grade a typical answer: %d for %d graded fields", n, fields)
	st := e.j.State()
	if !st.Complete() || len(st.Grades) != fields {
		t.Fatalf("journal: %d grades, %d ungraded", len(st.Grades), len(st.Ungraded))
	}
}

func TestRateBindings(t *testing.T) {
	e := newRateEnv(t, synthBundle(3))
	m, r := newTestRater(t, e, 80, 24)
	f0 := r.cur()
	if f0.Kind != adjudication.KindObligation || f0.Target != "O1" {
		t.Fatalf("start field %v", f0)
	}
	// 1 records the first value, saves it and advances.
	m = press(m, "1")
	if g, ok := e.j.Value(f0); !ok || g.Value != adjudication.ValueAddressed {
		t.Fatalf("1: journal has %v %v", g, ok)
	}
	if r.field != 1 || !strings.Contains(r.status, "saved ✓") {
		t.Fatalf("1: field %d status %q", r.field, r.status)
	}
	// 2 records the second value.
	m = press(m, "2")
	if g, _ := e.j.Value(r.fields[0][1]); g.Value != adjudication.ValueNotAddressed {
		t.Fatalf("2: %v", g)
	}
	// 3 is enabled on an uncertainty field (O3) and records falsely_resolved.
	if r.cur().Kind != adjudication.KindUncertainty || !r.grade.keys.Values[2].Enabled() {
		t.Fatalf("at %v value 3 enabled=%v", r.cur(), r.grade.keys.Values[2].Enabled())
	}
	m = press(m, "3")
	if g, _ := e.j.Value(r.fields[0][2]); g.Value != adjudication.ValueFalselyResolved {
		t.Fatalf("3: %v", g)
	}
	// On a claim_critical field 3 is disabled and does nothing.
	m = press(m, "1") // C1 claim
	if r.cur().Kind != adjudication.KindClaimCritical || r.grade.keys.Values[2].Enabled() {
		t.Fatalf("claim_critical: %v", r.cur())
	}
	before := r.nGraded
	m = press(m, "3")
	if r.nGraded != before {
		t.Fatal("disabled 3 recorded a grade")
	}
	// j/k and down/up move.
	m = press(m, "j")
	if r.field != 5 {
		t.Fatalf("j: %d", r.field)
	}
	m = press(m, "k", "up")
	if r.field != 3 {
		t.Fatalf("k up: %d", r.field)
	}
	m = press(m, "down")
	if r.field != 4 {
		t.Fatalf("down: %d", r.field)
	}
	// n/p and ]/[ switch items.
	m = press(m, "n")
	if r.item != 1 || r.field != 0 {
		t.Fatalf("n: item %d field %d", r.item, r.field)
	}
	if r.screen != screenPanel || !strings.Contains(screen(m), "Task of item 2/3") {
		t.Fatalf("n: the task of a new item is not shown on arrival:\n%s", screen(m))
	}
	m = press(m, "esc", "p")
	if r.item != 0 {
		t.Fatal("p")
	}
	m = press(m, "]", "[")
	if r.item != 0 {
		t.Fatal("] [")
	}
	// tab jumps to the next ungraded field.
	m = press(m, "tab")
	if r.isGraded(r.cur()) {
		t.Fatalf("tab: %v is graded", r.cur())
	}
	// e opens the evidence viewer with the cited lines; esc closes.
	// g shows the codebook; esc goes back.
	m = press(m, "g")
	if r.screen != screenPanel || !strings.Contains(screen(m), "Built-in codebook") || !strings.Contains(screen(m), "Does the answer address this obligation?") {
		t.Fatalf("g:\n%s", screen(m))
	}
	m = press(m, "esc", "k", "k", "k", "k")
	r.field = 0
	m = press(m, "e")
	if r.screen != screenEvidence || !strings.Contains(screen(m), "▶11 │") {
		t.Fatalf("e: screen %d\n%s", r.screen, screen(m))
	}
	m = press(m, "esc")
	if r.screen != screenGrade {
		t.Fatal("esc from evidence")
	}
	// m edits the note of a graded field; q is text while editing.
	m = press(m, "m")
	if r.screen != screenNote || !r.Capturing() {
		t.Fatal("m did not open the note editor")
	}
	m = press(m, "q", "u", "o", "t", "e", "enter")
	if g, _ := e.j.Value(f0); g.Note != "quote" || g.Value != adjudication.ValueAddressed {
		t.Fatalf("note: %+v", g)
	}
	// esc cancels a note.
	m = press(m, "m", "x", "esc")
	if g, _ := e.j.Value(f0); g.Note != "quote" {
		t.Fatal("esc changed the note")
	}
	// o flags an oracle defect; an empty reason is refused.
	m = press(m, "o", "enter")
	if r.screen != screenNote || !r.statusErr {
		t.Fatal("empty oracle reason accepted")
	}
	m = press(m, "b", "a", "d", "enter")
	of := adjudication.Field{Item: f0.Item, Kind: adjudication.KindOracleDefect, Target: "O1"}
	if g, ok := e.j.Value(of); !ok || g.Note != "bad" {
		t.Fatalf("oracle flag: %+v %v", g, ok)
	}
	// o then an emptied reason withdraws the flag.
	m = press(m, "o", "backspace", "backspace", "backspace", "enter")
	if _, ok := e.j.Value(of); ok {
		t.Fatal("flag not withdrawn")
	}
	// a shows the answer; J/K scroll; esc back.
	m = press(m, "a")
	if r.screen != screenAnswer || !strings.Contains(screen(m), "Claims") {
		t.Fatalf("a:\n%s", screen(m))
	}
	y0 := r.answer.y
	m = press(m, "J")
	if r.answer.y == y0 {
		t.Fatal("J did not scroll")
	}
	m = press(m, "K", "pgdown", "pgup", "esc")
	if r.screen != screenGrade || r.answer.y != y0 {
		t.Fatalf("answer esc: %d %d", r.screen, r.answer.y)
	}
	// l opens the item list; j/k move; enter opens; esc closes.
	m = press(m, "l")
	if r.screen != screenList {
		t.Fatal("l")
	}
	m = press(m, "j", "j", "k", "enter")
	if r.screen != screenGrade || r.item != 1 {
		t.Fatalf("list enter: item %d", r.item)
	}
	m = press(m, "l", "esc")
	if r.screen != screenGrade {
		t.Fatal("list esc")
	}
	// F opens the freeze screen; y is disabled while fields are ungraded.
	m = press(m, "F")
	if r.screen != screenFreeze || r.freeze.keys.Confirm.Enabled() {
		t.Fatal("freeze allowed while ungraded")
	}
	m = press(m, "y")
	if e.frozen != 0 {
		t.Fatal("signed while ungraded")
	}
	m = press(m, "esc")
	// ? toggles help, q quits.
	m = press(m, "?")
	if !strings.Contains(screen(m), "oracle defect") {
		t.Fatal("full help")
	}
	if _, quit := sendKey(m, "q"); !quit {
		t.Fatal("q")
	}
}

func TestRateSavedOnlyAfterAppend(t *testing.T) {
	e := newRateEnv(t, synthBundle(1))
	m, r := newTestRater(t, e, 80, 24)
	// Deliver the key without running the save command: the grade is
	// pending and the screen says saving, not saved.
	m, cmd := m.Update(keyMsg("1"))
	if !strings.Contains(screen(m), "saving") || strings.Contains(screen(m), "saved ✓") || strings.Contains(screen(m), "addressed ✓") {
		t.Fatalf("before Append returned:\n%s", screen(m))
	}
	if _, ok := e.j.Value(r.fields[0][0]); ok {
		t.Fatal("journal written before the command ran")
	}
	m, _ = m.Update(cmd())
	if !strings.Contains(screen(m), "saved ✓") || !strings.Contains(screen(m), "addressed ✓") {
		t.Fatalf("after Append:\n%s", screen(m))
	}
	// A failed Append is shown and the field is not shown as saved.
	mustClose(t, e.j)
	m, cmd = m.Update(keyMsg("1"))
	m, _ = m.Update(cmd())
	if !r.statusErr || !strings.Contains(screen(m), "NOT saved") {
		t.Fatalf("failed append:\n%s", screen(m))
	}
	if r.isGraded(r.fields[0][1]) {
		t.Fatal("failed grade shown")
	}
}

func TestRateResumeAtFirstUngraded(t *testing.T) {
	e := newRateEnv(t, synthBundle(3))
	m, r := newTestRater(t, e, 80, 24)
	for range r.nTotal/3 + 2 {
		m = press(m, "1")
	}
	press(m, "esc", "1")
	want := r.cur()
	mustClose(t, e.j)
	e.open(t)
	_, r2 := newTestRater(t, e, 80, 24)
	if r2.cur() != want || r2.nGraded != r.nGraded {
		t.Fatalf("resume at %v (%d graded), want %v (%d)", r2.cur(), r2.nGraded, want, r.nGraded)
	}
	if r2.item != 1 {
		t.Fatalf("resume item %d", r2.item)
	}
}

func TestRateTimeShownInListOnly(t *testing.T) {
	e := newRateEnv(t, synthBundle(2))
	m, _ := newTestRater(t, e, 120, 40)
	m = press(m, "1", "1")
	st := e.j.State()
	if st.Spent["item-0000000000000001"] <= 0 {
		t.Fatalf("no time recorded: %v", st.Spent)
	}
	// The grading and freeze screens show no time; the item list shows
	// each item's time (the fake clock advances a second per reading).
	for _, k := range []string{"", "F"} {
		if k != "" {
			m = press(m, k)
		}
		if s := screen(m); strings.Contains(s, "0m0") {
			t.Fatalf("time shown on screen:\n%s", s)
		}
	}
	m = press(m, "esc", "l")
	s := screen(m)
	want := spentText(st.Spent["item-0000000000000001"])
	if !strings.Contains(s, "time spent per item") || !strings.Contains(s, "2/13   "+want) || !strings.Contains(s, "0/13   "+spentText(0)) {
		t.Fatalf("item list without the time per item (%s):\n%s", want, s)
	}
}

func TestRateAnswerRenderedOnce(t *testing.T) {
	e := newRateEnv(t, synthBundle(2))
	m, r := newTestRater(t, e, 120, 40)
	for range 10 {
		m = press(m, "j")
		_ = screen(m)
	}
	if r.answer.cache.Renders != 1 {
		t.Fatalf("%d renders for one item", r.answer.cache.Renders)
	}
	m = press(m, "n", "esc")
	_ = screen(m)
	m = press(m, "p")
	_ = screen(m)
	if r.answer.cache.Renders != 2 {
		t.Fatalf("%d renders for two items", r.answer.cache.Renders)
	}
}

// TestWrapLinesHangingIndent: an indented row wraps under its text, past
// its leading ID; unindented text wraps at the left edge.
func TestWrapLinesHangingIndent(t *testing.T) {
	got := wrapLines([]string{"Citation K5 · does it support the linked statements here?", "  C3  claim: segment by segment with equal lengths and no trailing slash"}, 30)
	want := []string{
		"Citation K5 · does it support ",
		"the linked statements here?   ",
		"  C3  claim: segment by       ",
		"      segment with equal      ",
		"      lengths and no trailing ",
		"      slash                   ",
	}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("got\n%q\nwant\n%q", got, want)
	}
}

// TestRateListAlignedInColour: with colours on, the item list's state
// column keeps its width (escape codes are not counted as cells), and the
// freeze screen names the missing signer instead of showing nothing.
func TestRateListAlignedInColour(t *testing.T) {
	e := newRateEnv(t, synthBundle(3))
	in := e.input()
	in.Signer, in.Freeze = Signer{}, nil
	m := NewRateModel(in, Options{Styles: styles.New(false), Width: 80, Height: 24})
	m = press(m, "esc", "1", "l")
	var cols []int
	for _, l := range strings.Split(screen(m), "\n") {
		if strings.Contains(l, "item-") && strings.Contains(l, "/") {
			cols = append(cols, len([]rune(l[:strings.Index(l, "/")])))
		}
	}
	if len(cols) != 3 || cols[0] != cols[1] || cols[1] != cols[2] {
		t.Fatalf("fraction columns %v:\n%s", cols, screen(m))
	}
	m = press(m, "esc", "F")
	if s := screen(m); !strings.Contains(s, "signer:  (none: start verdict rate with --key and --name") {
		t.Fatalf("freeze without signer:\n%s", s)
	}
}

// TestRateKeysPassThroughTask: the task panel shown on arrival at an item
// never swallows a key: a value key closes it and grades the first field,
// j moves to the next field, F opens the freeze screen; space scrolls the
// task and esc closes it without grading; the codebook panel keeps j/k.
func TestRateKeysPassThroughTask(t *testing.T) {
	e := newRateEnv(t, synthBundle(2))
	m, r := newArrivingRater(e, 80, 24)
	if s := screen(m); strings.Contains(s, "scroll down") || !strings.Contains(s, "grading keys apply") {
		t.Fatalf("task panel on arrival:\n%s", s)
	}
	m = press(m, "1")
	if r.screen != screenGrade || r.nValued() != 1 || r.field != 1 {
		t.Fatalf("1 on the task: screen %d valued %d field %d", r.screen, r.nValued(), r.field)
	}
	m = press(m, "t", "j")
	if r.screen != screenGrade || r.field != 2 {
		t.Fatalf("j on the task: screen %d field %d", r.screen, r.field)
	}
	m = press(m, "t", "space", "esc")
	if r.screen != screenGrade || r.nValued() != 1 {
		t.Fatalf("space, esc on the task: screen %d valued %d", r.screen, r.nValued())
	}
	m = press(m, "t", "F")
	if r.screen != screenFreeze {
		t.Fatalf("F on the task: screen %d", r.screen)
	}
	m = press(m, "esc")
	// Grading every field of item 1 at full speed arrives at item 2 and
	// its task; the next 1 grades item 2's first field.
	for r.item == 0 {
		m = press(m, "1")
	}
	if r.screen != screenPanel || !r.onTask {
		t.Fatalf("arrival at item 2: screen %d", r.screen)
	}
	valued := r.nValued()
	m = press(m, "1")
	if r.nValued() != valued+1 || r.item != 1 || r.screen != screenGrade {
		t.Fatalf("1 at arrival: valued %d→%d item %d screen %d", valued, r.nValued(), r.item, r.screen)
	}
	// The codebook panel is not the task: j scrolls it, 1 does nothing.
	m = press(m, "g", "1")
	if r.screen != screenPanel || r.nValued() != valued+1 {
		t.Fatalf("codebook: screen %d valued %d", r.screen, r.nValued())
	}
	_ = press(m, "j")
	if r.panel.y != 1 {
		t.Fatalf("j on the codebook: y %d", r.panel.y)
	}
}

// longRecord is a signed record's description as the commands give it:
// longer than a status line at 80 columns.
const longRecord = "sheet-rater-1.json (sha256 60fee4cf98cb14e2a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718, signature sheet-rater-1.json.sig by rater-1 SHA256:synthetic)"

// TestRateResultCountsWhatTheJournalSaved: a flag and a grade whose
// journal write returned, but whose save message the program never took
// in (the rater pressed q in between), count in the result: what the exit
// line reports is what is on disk.
func TestRateResultCountsWhatTheJournalSaved(t *testing.T) {
	e := newRateEnv(t, synthBundle(2))
	_, r := newTestRater(t, e, 80, 24)
	f := r.cur()
	flagCmd := r.toggleFlag(0)
	gradeCmd, ok := r.record(adjudication.Grade{Field: f, Value: adjudication.AllowedValues(f.Kind)[0]})
	if !ok {
		t.Fatal("grade refused")
	}
	// Run the saves (the journal writes) without delivering their messages.
	flagCmd()
	gradeCmd()
	if r.nGraded != 0 || len(r.flagged) != 0 {
		t.Fatal("the program took in the saves")
	}
	if res := r.result(); res.Flagged != 1 || res.Graded != 1 {
		t.Fatalf("result %+v, want 1 flagged and 1 graded (the journal's)", res)
	}
}

// TestRateOffKeysSay: o on a field that takes no oracle defect and a digit
// past the field's choices change nothing and say why.
func TestRateOffKeysSay(t *testing.T) {
	e := newRateEnv(t, synthBundle(1))
	m, r := newTestRater(t, e, 120, 40)
	for r.cur().Kind != adjudication.KindClaim {
		m = press(m, "j")
	}
	graded := r.nGraded
	m = press(m, "o")
	if !strings.Contains(r.status, "oracle defect is flagged on an obligation or uncertainty field") || r.screen != screenGrade {
		t.Fatalf("o on a claim: status %q screen %d", r.status, r.screen)
	}
	n := len(adjudication.FieldValues(r.design(), r.cur().Kind))
	_ = press(m, fmt.Sprint(n+1))
	if want := fmt.Sprintf("takes %d choices", n); !strings.Contains(r.status, want) || r.nGraded != graded {
		t.Fatalf("%d on a claim: status %q (want %q), graded %d -> %d", n+1, r.status, want, graded, r.nGraded)
	}
}

// TestAnswerScreenOtherKeysApply: below 110 columns the answer is full
// screen; a key of the grading or dispute screen that is not the answer's
// own goes back to that screen and applies there, never doing nothing.
func TestAnswerScreenOtherKeysApply(t *testing.T) {
	e := newRateEnv(t, synthBundle(3))
	m, r := newTestRater(t, e, 80, 24)
	m = press(m, "a")
	if r.screen != screenAnswer {
		t.Fatalf("a: screen %d", r.screen)
	}
	m = press(m, "t")
	if r.screen != screenPanel || !r.onTask {
		t.Fatalf("t on the answer: screen %d, want the task", r.screen)
	}
	m = press(m, "esc", "a", "l")
	if r.screen != screenList {
		t.Fatalf("l on the answer: screen %d, want the item list", r.screen)
	}
	_ = m

	ae := &adjEnv{}
	am, a := newTestAdjudicator(ae, 80, 24)
	am = press(am, "a")
	if a.screen != adjAnswer {
		t.Fatalf("adjudicator a: screen %d", a.screen)
	}
	_ = press(am, "l")
	if a.screen != adjList {
		t.Fatalf("adjudicator l on the answer: screen %d, want the dispute list", a.screen)
	}
}
