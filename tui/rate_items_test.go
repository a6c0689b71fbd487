package tui

import (
	"fmt"
	"image/color"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/charmbracelet/x/ansi"

	"verdict/adjudication"
	"verdict/campaign"
)

// TestRateCorrectionStaysInItem: correcting a graded field moves to the
// next field of the same item, never to the next ungraded field elsewhere.
func TestRateCorrectionStaysInItem(t *testing.T) {
	e := newRateEnv(t, synthBundle(2))
	m, r := newTestRater(t, e, 80, 24)
	for range 5 {
		m = press(m, "1")
	}
	m = press(m, "k", "k", "k") // back to field 2 (graded)
	if r.field != 2 || !r.isGraded(r.cur()) {
		t.Fatalf("at field %d", r.field)
	}
	m = press(m, "3")
	if r.item != 0 || r.field != 3 {
		t.Fatalf("correction moved to item %d field %d, want item 0 field 3", r.item, r.field)
	}
	if g, _ := e.j.Value(r.fields[0][2]); g.Value != adjudication.ValueFalselyResolved {
		t.Fatalf("corrected grade %+v", g)
	}
	// The last field of an item: a correction stays there.
	r.field = len(r.fields[0]) - 1
	m = press(m, "1", "esc", "p")
	r.field = len(r.fields[0]) - 1
	press(m, "2")
	if r.item != 0 || r.field != len(r.fields[0])-1 {
		t.Fatalf("correction of the last field moved to item %d field %d", r.item, r.field)
	}
}

// TestRateQuitWithDraftNoteRefused: q with a draft note (a note on an
// ungraded field) does not leave at once: the status says the note is not
// saved and which field to grade; q again leaves, and the result counts
// the lost note; any other key in between forgets the refusal.
func TestRateQuitWithDraftNoteRefused(t *testing.T) {
	e := newRateEnv(t, synthBundle(1))
	m, r := newTestRater(t, e, 80, 24)
	m = press(m, "m", "d", "r", "a", "f", "t", "enter")
	m, quit := sendKey(m, "q")
	if quit || !strings.Contains(screen(m), "NOT left: 1 draft note is not saved") {
		t.Fatalf("q with a draft note:\n%s", screen(m))
	}
	m = press(m, "j")
	if m, quit = sendKey(m, "q"); quit {
		t.Fatal("q after another key left without saying so")
	}
	if _, quit = sendKey(m, "q"); !quit {
		t.Fatal("q twice did not leave")
	}
	if res := r.result(); res.DraftNotes != 1 {
		t.Fatalf("result %+v", res)
	}
	// Once the field is graded the note is saved with it: q leaves.
	e2 := newRateEnv(t, synthBundle(1))
	m2, _ := newTestRater(t, e2, 80, 24)
	m2 = press(m2, "m", "x", "enter", "1")
	if _, quit := sendKey(m2, "q"); !quit {
		t.Fatal("q with no draft note did not leave")
	}
}

// TestRateChangedGradeShowsOldValue: changing a grade names the old value
// while saving and once saved; grading every field says F freezes.
func TestRateChangedGradeShowsOldValue(t *testing.T) {
	e := newRateEnv(t, synthBundle(1))
	m, r := newTestRater(t, e, 120, 40)
	m = press(m, "1", "k")
	_, cmd := m.Update(keyMsg("2"))
	if s := r.status; !strings.Contains(s, "= not_addressed (was addressed) …") {
		t.Fatalf("while saving: %q", s)
	}
	m, _ = deliverMsg(m, cmd())
	if s := screen(m); !strings.Contains(s, "saved ✓ O1 obligation = not_addressed (was addressed)") {
		t.Fatalf("once saved:\n%s", s)
	}
	for !strings.Contains(screen(m), "press F to freeze") {
		if r.nGraded == r.nTotal {
			t.Fatalf("every field graded, no word of F:\n%s", screen(m))
		}
		m = press(m, "1")
	}
}

// TestRateNoteBeforeGrading: a note written on an ungraded field is kept
// and saved with the grade.
func TestRateNoteBeforeGrading(t *testing.T) {
	e := newRateEnv(t, synthBundle(1))
	m, r := newTestRater(t, e, 80, 24)
	f := r.cur()
	m = press(m, "m", "f", "i", "r", "s", "t", "enter")
	if _, ok := e.j.Value(f); ok || r.screen != screenGrade {
		t.Fatal("a note alone wrote a grade")
	}
	if !strings.Contains(screen(m), "note (saved with the grade): first") {
		t.Fatalf("draft note not shown:\n%s", screen(m))
	}
	press(m, "2")
	if g, ok := e.j.Value(f); !ok || g.Note != "first" || g.Value != adjudication.ValueNotAddressed {
		t.Fatalf("grade %+v %v", g, ok)
	}
}

// TestRateNoteCountAndLimit: the note editor counts characters and
// refuses a note over adjudication.MaxNote instead of cutting it.
func TestRateNoteCountAndLimit(t *testing.T) {
	e := newRateEnv(t, synthBundle(1))
	m, r := newTestRater(t, e, 80, 24)
	f := r.cur()
	m = press(m, "1", "k", "m")
	r.note.input.SetValue(strings.Repeat("x", adjudication.MaxNote+3))
	if s := screen(m); !strings.Contains(s, "2051/2048 characters: 3 over the limit") {
		t.Fatalf("count not shown:\n%s", s)
	}
	m = press(m, "enter")
	if r.screen != screenNote || !strings.Contains(screen(m), "refused, 3 over the limit") {
		t.Fatalf("over-long note not refused:\n%s", screen(m))
	}
	if g, _ := e.j.Value(f); g.Note != "" {
		t.Fatal("over-long note saved")
	}
	m = press(m, "backspace", "backspace", "backspace")
	if !strings.Contains(screen(m), "2048/2048 characters") {
		t.Fatalf("count:\n%s", screen(m))
	}
	press(m, "enter")
	if g, _ := e.j.Value(f); len(g.Note) != adjudication.MaxNote {
		t.Fatalf("note of %d characters saved, want %d", len(g.Note), adjudication.MaxNote)
	}
}

// TestRateNoteWrapsWhole: at 80 columns a long note is shown whole,
// wrapped over several rows, while it is written; a pasted line break or
// tab becomes a space (a note is one line) and enter saves, never breaks
// the line.
func TestRateNoteWrapsWhole(t *testing.T) {
	e := newRateEnv(t, synthBundle(1))
	m, r := newTestRater(t, e, 80, 24)
	f := r.cur()
	m = press(m, "1", "k", "m")
	var words []string
	for i := range 30 {
		words = append(words, fmt.Sprintf("word%02d", i))
	}
	m, _ = deliver(m, tea.PasteMsg{Content: strings.Join(words[:15], " ") + "\n" + strings.Join(words[15:], "\t")})
	s := screen(m)
	for _, w := range words {
		if !strings.Contains(s, w) {
			t.Fatalf("%s of the note is not on screen:\n%s", w, s)
		}
	}
	for _, l := range strings.Split(s, "\n") {
		if ansi.StringWidth(l) > 80 {
			t.Fatalf("line wider than 80 columns: %q", l)
		}
	}
	press(m, "enter")
	if g, _ := e.j.Value(f); g.Note != strings.Join(words, " ") {
		t.Fatalf("note saved %q", g.Note)
	}
}

// TestRateValueKeysOnNarrowAnswer: below 110 columns the answer is full
// screen, and the value keys grade the field named above it.
func TestRateValueKeysOnNarrowAnswer(t *testing.T) {
	e := newRateEnv(t, synthBundle(1))
	m, r := newTestRater(t, e, 80, 24)
	m = press(m, "a")
	// The field's text, question and definitions are pinned above the
	// answer, so the field and the answer are on screen together.
	if s := screen(m); r.screen != screenAnswer || !strings.Contains(s, "field 1/13 · O1 obligation") || !strings.Contains(s, "States that widgets are counted once per frame.") ||
		!strings.Contains(s, "Does the answer address this obligation?") || !strings.Contains(s, "[2] not addressed  missing, wrong") || !strings.Contains(s, "Claims  3") {
		t.Fatalf("a:\n%s", screen(m))
	}
	f := r.cur()
	m = press(m, "2")
	if g, ok := e.j.Value(f); !ok || g.Value != adjudication.ValueNotAddressed || r.screen != screenAnswer {
		t.Fatalf("value key on the answer: %+v %v screen %d", g, ok, r.screen)
	}
	m = press(m, "j", "k", "j")
	if r.field != 2 {
		t.Fatalf("field keys on the answer: field %d", r.field)
	}
	r.field = 0
	r.setEnabled()
	if r.screen != screenAnswer {
		t.Fatalf("screen %d, want the answer", r.screen)
	}
	m = press(m, "e")
	if r.screen != screenEvidence {
		t.Fatalf("e on the answer: screen %d", r.screen)
	}
	press(m, "esc")
	if r.screen != screenGrade {
		t.Fatalf("esc from evidence: screen %d", r.screen)
	}
}

// TestRateAnswerFollowsField: the answer scrolls to the graded claim or
// citation and marks it.
func TestRateAnswerFollowsField(t *testing.T) {
	b := synthBundle(0)
	b.Items = append(b.Items, maxItem("item-00000000000000ff"))
	e := newRateEnv(t, b)
	m, r := newTestRater(t, e, 120, 40)
	for _, target := range []string{"C20", "K108", "X40"} {
		for i, f := range r.fields[0] {
			if f.Target == target && f.Kind != adjudication.KindClaimCritical {
				r.field = i
			}
		}
		m = press(m)
		s := screen(m)
		if !strings.Contains(s, "▶ "+target+"  ") {
			t.Fatalf("%s not marked in the answer:\n%s", target, s)
		}
	}
}

// TestRateSearchAndFlag: / finds an ID and opens its field; f flags the
// item and the list shows the flag.
func TestRateSearchAndFlag(t *testing.T) {
	e := newRateEnv(t, synthBundle(3))
	m, r := newTestRater(t, e, 80, 24)
	m = press(m, "/", "K", "2", "enter")
	if !strings.Contains(screen(m), "item 1 K2 citation") {
		t.Fatalf("search K2:\n%s", screen(m))
	}
	m = press(m, "j", "enter")
	if r.screen == screenPanel {
		m = press(m, "esc")
	}
	if r.item != 1 || r.cur().Target != "K2" {
		t.Fatalf("search opened item %d field %v", r.item, r.cur())
	}
	m = press(m, "f", "l")
	if !strings.Contains(screen(m), "⚑ flagged") || !strings.Contains(screen(m), "1 flagged") {
		t.Fatalf("flag:\n%s", screen(m))
	}
	press(m, "f")
	if r.flagged[1] {
		t.Fatal("f in the list did not unflag")
	}
}

// TestRateControlCharactersShownVisibly: terminal escapes, NUL and
// bidirectional overrides in an answer, a task and an excerpt never reach
// the screen raw (issue 12 item 10): they are shown as ⟨U+XXXX⟩.
func TestRateControlCharactersShownVisibly(t *testing.T) {
	b := synthBundle(1)
	it := &b.Items[0]
	it.TaskText = "SYNTHETIC task \x1b[8mconcealed\x1b[0m text"
	it.Final.Claims[0].Text = "Counted \x1b[30;40mhidden\x1b[0m once\x00 per \u202eframe."
	it.Evidence[0].Excerpt = strings.Replace(it.Evidence[0].Excerpt, "synthetic", "synth\x1b]0;title\x07etic", 1)
	e := newRateEnv(t, b)
	m, r := newArrivingRater(e, 120, 40)
	check := func(what string) {
		t.Helper()
		raw := m.View().Content
		for _, bad := range []string{"\x1b[8m", "\x1b[30;40m", "\x00", "\u202e", "\x1b]0;", "\x07"} {
			if strings.Contains(raw, bad) {
				t.Fatalf("%s: raw %q reached the screen", what, bad)
			}
		}
	}
	check("task panel")
	if !strings.Contains(screen(m), "⟨U+001B⟩[8mconcealed") {
		t.Fatalf("task:\n%s", screen(m))
	}
	m = press(m, "esc")
	check("grading screen")
	if s := screen(m); !strings.Contains(s, "⟨U+001B⟩[30;40mhidden") || !strings.Contains(s, "⟨U+0000⟩") || !strings.Contains(s, "⟨U+202E⟩") {
		t.Fatalf("answer:\n%s", s)
	}
	m = press(m, "e")
	check("evidence viewer")
	if !strings.Contains(screen(m), "⟨U+001B⟩]0;title⟨U+0007⟩") {
		t.Fatalf("evidence:\n%s", screen(m))
	}
	// The journal and CheckGrade still see the bundle's own text.
	if r.in.Bundle.Items[0].Final.Claims[0].Text != "Counted \x1b[30;40mhidden\x1b[0m once\x00 per \u202eframe." {
		t.Fatal("the shown copy changed the bundle")
	}
}

func TestVisibleText(t *testing.T) {
	for in, want := range map[string]string{
		"plain":               "plain",
		"a\x1b[31mb":          "a⟨U+001B⟩[31mb",
		"tab\there":           "tab    here",
		"crlf\r\nnext":        "crlf\nnext",
		"cr\roverwrite":       "cr⟨U+000D⟩overwrite",
		"c1\u009bx":           "c1⟨U+009B⟩x",
		"zw\u200bj":           "zw⟨U+200B⟩j",
		"bad\xffbyte":         "bad⟨0xFF⟩byte",
		"line\nbreak":         "line\nbreak",
		"é ü 中文 ✓":            "é ü 中文 ✓",
		"del\x7f":             "del⟨U+007F⟩",
		"bidi\u2066iso\u2069": "bidi⟨U+2066⟩iso⟨U+2069⟩",
	} {
		if got := visibleText(in); got != want {
			t.Errorf("visibleText(%q) = %q, want %q", in, got, want)
		}
	}
	type inner struct{ S *string }
	s := "x\x1b"
	src := struct {
		A []campaign.Claim
		B inner
		C map[string][]byte
		d string
	}{A: []campaign.Claim{{Text: "\x00"}}, B: inner{&s}, C: map[string][]byte{"k": []byte("\x07")}, d: "\x1b"}
	got := shownCopy(src)
	if got.A[0].Text != "⟨U+0000⟩" || *got.B.S != "x⟨U+001B⟩" || string(got.C["k"]) != "⟨U+0007⟩" {
		t.Fatalf("shownCopy: %+v %q %q", got.A, *got.B.S, got.C["k"])
	}
	if src.A[0].Text != "\x00" || s != "x\x1b" {
		t.Fatal("shownCopy changed its source")
	}
}

// TestRateNothingCut: on a maximum-size answer whose claim texts are 2,048
// characters long, every word of every field's detail can be read at both
// sizes (scrolling with ctrl+d when it is longer than its part of the
// screen), and no line of the screen is cut with "…".
func TestRateNothingCut(t *testing.T) {
	b := synthBundle(0)
	it := maxItem("item-00000000000000ff")
	long := strings.TrimSpace(strings.Repeat("widgetcount ", 170)) + " end-of-claim"
	for i := range it.Final.Claims[:4] {
		it.Final.Claims[i].Text = long
	}
	b.Items = append(b.Items, it)
	for _, sz := range [][2]int{{80, 24}, {120, 40}} {
		e := newRateEnv(t, b)
		m, r := newTestRater(t, e, sz[0], sz[1])
		for i, f := range r.fields[0] {
			if i > 40 && f.Kind != adjudication.KindCitation || i%7 != 0 && i > 12 {
				continue
			}
			r.field = i
			m = press(m)
			var seen strings.Builder
			for range 40 {
				s := screen(m)
				// The last line is the short help, whose "…" says ? shows more.
				if body := s[:strings.LastIndex(s, "\n")]; strings.Contains(body, "…") {
					t.Fatalf("%dx%d %v: a line is cut:\n%s", sz[0], sz[1], f, s)
				}
				seen.WriteString(s)
				if !strings.Contains(s, "more lines: ctrl+d") {
					break
				}
				m = press(m, "ctrl+d")
			}
			for _, l := range fieldContext(r.c.Styles, r.curItem(), f) {
				for _, w := range strings.Fields(ansi.Strip(l)) {
					if !strings.Contains(seen.String(), w) {
						t.Fatalf("%dx%d %v: %q never shown", sz[0], sz[1], f, w)
					}
				}
			}
		}
	}
}

// TestGuidelinesOnG: g shows the campaign's guidelines the bundle carries
// (then the built-in codebook), in rate and in adjudicate.
func TestGuidelinesOnG(t *testing.T) {
	b := synthBundle(1)
	b.Guidelines = "# SYNTHETIC guidelines\n\nQuote the line that sets a default.\x1b[2J\n"
	m, _ := newTestRater(t, newRateEnv(t, b), 80, 24)
	m = press(m, "g")
	s := screen(m)
	if !strings.Contains(s, "Guidelines of this campaign") || !strings.Contains(s, "Quote the line that sets a default.⟨U+001B⟩[2J") || !strings.Contains(s, "Built-in codebook") {
		t.Fatalf("rate g:\n%s", s)
	}
	e := &adjEnv{}
	in := e.input()
	in.Bundle.Guidelines = b.Guidelines
	am := press(NewAdjudicateModel(in, testOptions(80, 24)), "esc", "g")
	if s := screen(am); !strings.Contains(s, "Quote the line that sets a default.") {
		t.Fatalf("adjudicate g:\n%s", s)
	}
}

// TestThemeFollowsBackground: with the auto theme the program asks for the
// terminal's background and switches to the light palette on a light one;
// a forced theme and explicit styles ignore the report.
func TestThemeFollowsBackground(t *testing.T) {
	if th, err := ParseTheme("sepia"); err == nil {
		t.Fatalf("ParseTheme(sepia) = %q", th)
	}
	e := newRateEnv(t, synthBundle(1))
	m := NewRateModel(e.input(), Options{Width: 80, Height: 24})
	rt := m.(*root)
	if !rt.auto || !rt.c.Styles.Dark {
		t.Fatal("auto theme does not start dark and listening")
	}
	m, _ = m.Update(tea.BackgroundColorMsg{Color: color.White})
	if rt.c.Styles.Dark {
		t.Fatal("a white background did not switch to the light palette")
	}
	press(m, "esc", "1")
	forced := NewRateModel(e.input(), Options{Width: 80, Height: 24, Theme: ThemeLight}).(*root)
	if forced.auto || forced.c.Styles.Dark {
		t.Fatal("--theme light")
	}
	forced.Update(tea.BackgroundColorMsg{Color: color.Black})
	if forced.c.Styles.Dark {
		t.Fatal("a forced light theme followed the terminal")
	}
}

// TestCitedLinesWrapUnderCode: a long cited line continues under its code,
// past the line number.
func TestCitedLinesWrapUnderCode(t *testing.T) {
	got := wrapLines([]string{"  16 │ export async function loadConfig(options: LoadOptions): Promise<ConfigObject> {"}, 40)
	if len(got) < 2 || !strings.HasPrefix(got[1], strings.Repeat(" ", 7)) || strings.HasPrefix(got[1], strings.Repeat(" ", 8)) {
		t.Fatalf("continuation not under the code:\n%s", strings.Join(got, "\n"))
	}
}

// TestRateFlagsSurviveResume: flags set on the grading screen and in the
// item list are journal entries: after the journal is closed and opened
// again a new rater shows the same flags (list, grading header, status
// line), and no flag counts as a grade.
func TestRateFlagsSurviveResume(t *testing.T) {
	e := newRateEnv(t, synthBundle(3))
	m, r := newTestRater(t, e, 120, 40)
	m = press(m, "f")                          // item 1, grading screen
	m = press(m, "l", "j", "j", "f", "k", "f") // items 3 and 2 in the list
	m = press(m, "f")                          // item 2 again: cleared
	if !strings.Contains(screen(m), "saved ✓ item 2: flag removed") {
		t.Fatalf("unflag not saved:\n%s", screen(m))
	}
	if got := e.j.Flags(); len(got) != 2 || !got[e.b.Items[0].ID] || !got[e.b.Items[2].ID] {
		t.Fatalf("journal flags %v, want items 1 and 3", got)
	}
	if r.nGraded != 0 || len(e.j.State().Grades) != 0 {
		t.Fatalf("flags counted as grades: %d graded, %d in the journal", r.nGraded, len(e.j.State().Grades))
	}
	e.j.Close()

	e.open(t)
	m2, r2 := newTestRater(t, e, 120, 40)
	if !r2.flagged[0] || r2.flagged[1] || !r2.flagged[2] {
		t.Fatalf("resumed flags %v, want items 1 and 3", r2.flagged)
	}
	s := screen(m2)
	if !strings.Contains(s, "⚑ 2 flagged") || !strings.Contains(s, "⚑ flagged") {
		t.Fatalf("resumed grading screen does not show the flags:\n%s", s)
	}
	s = screen(press(m2, "l"))
	if strings.Count(s, "⚑ flagged") != 2 || !strings.Contains(s, "2 flagged") {
		t.Fatalf("resumed list:\n%s", s)
	}
}
