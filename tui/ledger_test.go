package tui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"verdict/tui/styles"
)

func testOptions(w, h int) Options {
	return Options{Styles: styles.New(true), Width: w, Height: h}
}

// press sends key presses (by their key names) to m and returns m.
func press(m tea.Model, keys ...string) tea.Model {
	for _, k := range keys {
		m, _ = sendKey(m, k)
	}
	return m
}

func keyMsg(k string) tea.KeyPressMsg {
	switch k {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "tab":
		return tea.KeyPressMsg{Code: tea.KeyTab}
	case "shift+tab":
		return tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift}
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "pgup":
		return tea.KeyPressMsg{Code: tea.KeyPgUp}
	case "pgdown":
		return tea.KeyPressMsg{Code: tea.KeyPgDown}
	case "home":
		return tea.KeyPressMsg{Code: tea.KeyHome}
	case "end":
		return tea.KeyPressMsg{Code: tea.KeyEnd}
	case "backspace":
		return tea.KeyPressMsg{Code: tea.KeyBackspace}
	case "space":
		return tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
	case "ctrl+c", "ctrl+d", "ctrl+u", "ctrl+s":
		return tea.KeyPressMsg{Code: rune(k[5]), Mod: tea.ModCtrl}
	}
	r := []rune(k)
	return tea.KeyPressMsg{Code: r[0], Text: k}
}

// sendKey delivers one key press and runs the synchronous follow-up
// messages of the returned command (not tea.Quit, which is reported).
func sendKey(m tea.Model, k string) (tea.Model, bool) {
	return deliver(m, keyMsg(k))
}

func deliver(m tea.Model, msg tea.Msg) (tea.Model, bool) {
	m, cmd := m.Update(msg)
	for cmd != nil {
		out := cmd()
		if _, ok := out.(tea.QuitMsg); ok {
			return m, true
		}
		if out == nil {
			return m, false
		}
		if batch, ok := out.(tea.BatchMsg); ok {
			quit := false
			for _, c := range batch {
				if c == nil {
					continue
				}
				var q bool
				m, q = deliverMsg(m, c())
				quit = quit || q
			}
			return m, quit
		}
		m, cmd = m.Update(out)
	}
	return m, false
}

func deliverMsg(m tea.Model, msg tea.Msg) (tea.Model, bool) {
	if msg == nil {
		return m, false
	}
	if _, ok := msg.(tea.QuitMsg); ok {
		return m, true
	}
	return deliver(m, msg)
}

func screen(m tea.Model) string { return ansi.Strip(m.View().Content) }

func newTestLedger(w, h int) (tea.Model, *ledger) {
	c, f := synthCampaign()
	m := NewLedgerModel(LedgerInput{Campaign: c, Findings: f}, testOptions(w, h))
	return m, m.(*root).child.(*ledger)
}

func TestLedgerGolden(t *testing.T) {
	for _, sz := range []struct{ w, h int }{{80, 24}, {120, 40}} {
		name := func(s string) string { return s + "_" + itoa(sz.w) + "x" + itoa(sz.h) }
		t.Run(name("start"), func(t *testing.T) {
			m, _ := newTestLedger(sz.w, sz.h)
			golden.RequireEqual(t, screen(m))
		})
		t.Run(name("obligation_finding"), func(t *testing.T) {
			m, _ := newTestLedger(sz.w, sz.h)
			m = press(m, "n")
			golden.RequireEqual(t, screen(m))
		})
		t.Run(name("filtered"), func(t *testing.T) {
			m, _ := newTestLedger(sz.w, sz.h)
			m = press(m, "f")
			golden.RequireEqual(t, screen(m))
		})
		t.Run(name("evidence"), func(t *testing.T) {
			m, _ := newTestLedger(sz.w, sz.h)
			m = press(m, "j", "e")
			golden.RequireEqual(t, screen(m))
		})
		t.Run(name("help"), func(t *testing.T) {
			m, _ := newTestLedger(sz.w, sz.h)
			m = press(m, "?")
			golden.RequireEqual(t, screen(m))
		})
	}
}

func itoa(n int) string { return strings.TrimSpace(strings.Repeat(" ", 0) + fmtInt(n)) }

func fmtInt(n int) string {
	if n == 0 {
		return "0"
	}
	s := ""
	for n > 0 {
		s = string(rune('0'+n%10)) + s
		n /= 10
	}
	return s
}

func TestLedgerRowsAndFindingPlacement(t *testing.T) {
	_, l := newTestLedger(80, 24)
	// S3: session + 3 obligations + 6 dispositions; S6: session only.
	if got := len(l.rows); got != 11 {
		t.Fatalf("rows = %d, want 11", got)
	}
	if got := len(l.rows[3].findings); got != 1 || l.rows[3].findings[0].Code != "dangling-link" {
		t.Errorf("O3 row findings = %v", l.rows[3].findings)
	}
	if got := len(l.rows[7].findings); got != 1 || l.rows[7].findings[0].Code != "unsupported-disposition" {
		t.Errorf("E4 row findings = %v", l.rows[7].findings)
	}
	if got := len(l.rows[0].findings); got != 1 || l.rows[0].findings[0].Code != "citation-out-of-range" {
		t.Errorf("session row findings = %v", l.rows[0].findings)
	}
	if l.nFind != 3 {
		t.Errorf("nFind = %d, want 3 (the draft's finding is not a ledger finding)", l.nFind)
	}
}

func TestLedgerBindings(t *testing.T) {
	m, l := newTestLedger(80, 24)
	check := func(what string, want int) {
		t.Helper()
		if l.visible[l.cursor] != want {
			t.Fatalf("%s: cursor on row %d, want %d", what, l.visible[l.cursor], want)
		}
	}
	m = press(m, "j")
	check("j", 1)
	m = press(m, "down")
	check("down", 2)
	m = press(m, "k")
	check("k", 1)
	m = press(m, "up")
	check("up", 0)
	m = press(m, "G")
	check("G", 10)
	m = press(m, "g")
	check("g", 0)
	m = press(m, "end")
	check("end", 10)
	m = press(m, "home")
	check("home", 0)
	m = press(m, "pgdown")
	check("pgdown", l.listHeight())
	m = press(m, "pgup")
	check("pgup", 0)
	m = press(m, "n")
	check("n", 3)
	m = press(m, "n")
	check("n again", 7)
	// A refused answer (S6, malformed JSON) is a stop of n too.
	m = press(m, "n")
	check("n to the refused answer", 10)
	if !strings.Contains(screen(m), "!r") {
		t.Fatalf("refused answer not marked:\n%s", screen(m))
	}
	m = press(m, "N", "N")
	check("N", 3)
	// e opens the evidence viewer for O3 (E2), esc closes it.
	m = press(m, "e")
	if l.viewer == nil || l.viewer.refs[0].item.ID != "E2" {
		t.Fatal("e did not open E2")
	}
	if !strings.Contains(screen(m), "▶20 │") {
		t.Fatalf("cited line 20 not marked:\n%s", screen(m))
	}
	m = press(m, "esc")
	if l.viewer != nil {
		t.Fatal("esc did not close the viewer")
	}
	m = press(m, "enter")
	if l.viewer == nil {
		t.Fatal("enter did not open the viewer")
	}
	m = press(m, "esc")
	// f filters to rows with findings or refusals: session S3, O3, E4 and
	// the refused answer.
	m = press(m, "f")
	if len(l.visible) != 4 || !l.filter {
		t.Fatalf("filter: visible = %v", l.visible)
	}
	check("filter keeps the current row", 3)
	m = press(m, "f")
	if len(l.visible) != 11 {
		t.Fatalf("unfilter: visible = %d", len(l.visible))
	}
	// J/K scroll the detail pane (on a small terminal).
	m, _ = deliver(m, tea.WindowSizeMsg{Width: 80, Height: 14})
	m = press(m, "J")
	_ = screen(m)
	if l.detailY != 1 {
		t.Fatalf("J: detailY = %d", l.detailY)
	}
	m = press(m, "K")
	if l.detailY != 0 {
		t.Fatalf("K: detailY = %d", l.detailY)
	}
	// The session row names no evidence: e is disabled and does nothing.
	m = press(m, "g", "e")
	if l.viewer != nil || l.keys.Evidence.Enabled() {
		t.Fatal("evidence enabled on a session row")
	}
	// ? toggles full help; q quits.
	m = press(m, "?")
	if !m.(*root).showAll || !strings.Contains(screen(m), "prev finding") {
		t.Fatal("? did not show full help")
	}
	if _, quit := sendKey(m, "q"); !quit {
		t.Fatal("q did not quit")
	}
	if _, quit := sendKey(m, "ctrl+c"); !quit {
		t.Fatal("ctrl+c did not quit")
	}
}

func TestLedgerEvidenceViewerBindings(t *testing.T) {
	m, l := newTestLedger(80, 8)
	m = press(m, "j", "e") // O1: E1 only
	v := l.viewer
	if v.keys.Next.Enabled() {
		t.Fatal("next enabled with one item")
	}
	m = press(m, "j")
	if v.vp.YOffset() != 1 {
		t.Fatalf("j: offset %d", v.vp.YOffset())
	}
	m = press(m, "k")
	if v.vp.YOffset() != 0 {
		t.Fatalf("k: offset %d", v.vp.YOffset())
	}
	m = press(m, "space")
	if v.vp.YOffset() == 0 {
		t.Fatal("space did not page down")
	}
	m = press(m, "b")
	if v.vp.YOffset() != 0 {
		t.Fatal("b did not page up")
	}
	m = press(m, "pgdown", "pgup")
	// Real line numbers 10..15 and cited 11-12 marked.
	m, _ = deliver(m, tea.WindowSizeMsg{Width: 80, Height: 24})
	s := screen(m)
	for _, want := range []string{" 10 │", "▶11 │", "▶12 │", " 13 │", "E1 example/widgets/pkg/count1.go:10-15"} {
		if !strings.Contains(s, want) {
			t.Errorf("missing %q in\n%s", want, s)
		}
	}
	// O3 names E2 only; a row naming two items cycles with ] and [.
	l.viewer = nil
	l.openEvidenceRefs([]evidenceRef{l.rows[1].e.ref("E1", nil), l.rows[1].e.ref("E9", nil)})
	v = l.viewer
	if !v.keys.Next.Enabled() {
		t.Fatal("next disabled with two items")
	}
	m = press(m, "]")
	if v.cur != 1 || !strings.Contains(screen(m), "E9 is not an evidence item") {
		t.Fatalf("] did not move to the missing item:\n%s", screen(m))
	}
	m = press(m, "[")
	if v.cur != 0 {
		t.Fatal("[ did not move back")
	}
	m = press(m, "tab", "shift+tab")
	if v.cur != 0 {
		t.Fatal("tab/shift+tab")
	}
	_ = press(m, "backspace")
	if l.viewer != nil {
		t.Fatal("backspace did not close")
	}
}

func TestLedgerNeverShowsGrades(t *testing.T) {
	m, _ := newTestLedger(120, 40)
	for _, k := range []string{"", "j", "j", "j", "j", "j"} {
		if k != "" {
			m = press(m, k)
		}
		s := screen(m)
		for _, w := range []string{"supported", "addressed_by_rater", "not_addressed", "credited"} {
			if strings.Contains(s, w) {
				t.Fatalf("ledger shows grade word %q", w)
			}
		}
	}
}

func TestLedgerResize(t *testing.T) {
	m, _ := newTestLedger(80, 24)
	m, _ = deliver(m, tea.WindowSizeMsg{Width: 50, Height: 12})
	lines := strings.Split(screen(m), "\n")
	if len(lines) != 12 {
		t.Fatalf("%d lines after resize to 12", len(lines))
	}
	for _, l := range lines {
		if ansi.StringWidth(l) > 50 {
			t.Fatalf("line wider than 50: %q", l)
		}
	}
}

// TestLedgerControlCharactersShownVisibly: an escape sequence in a ledger
// text is shown as ⟨U+001B⟩, never sent raw (issue 12 item 10).
func TestLedgerControlCharactersShownVisibly(t *testing.T) {
	c, f := synthCampaign()
	c.Sessions[2].Response.Reconciliation.Obligations[0].Text = "Explain \x1b[8mhidden\x1b[0m counting."
	m := NewLedgerModel(LedgerInput{Campaign: c, Findings: f}, testOptions(120, 40))
	for range 4 {
		m = press(m, "j")
		if strings.Contains(m.View().Content, "\x1b[8m") {
			t.Fatal("a raw escape reached the ledger's screen")
		}
		if strings.Contains(screen(m), "⟨U+001B⟩[8mhidden") {
			return
		}
	}
	t.Fatalf("ledger obligation text not shown visibly:\n%s", screen(m))
}

// TestLedgerSearch: / finds text or an ID in the ledger's rows and
// details, and enter moves the cursor to the row found; q is text while
// the query is typed.
func TestLedgerSearch(t *testing.T) {
	m, l := newTestLedger(80, 24)
	m = press(m, "/", "q", "u", "e", "u", "e")
	if !l.Capturing() || !strings.Contains(screen(m), "/ queue") {
		t.Fatalf("query:\n%s", screen(m))
	}
	for range 5 {
		m = press(m, "backspace")
	}
	if s := screen(m); !strings.Contains(s, "ctrl+c quit") || strings.Contains(s, "q quit") || strings.Contains(s, "? help") {
		t.Fatalf("while the query is typed, ? and q type; the footer must not offer them:\n%s", s)
	}
	m = press(m, "A", "9", "enter")
	s := screen(m)
	// The hits are drawn as rows under the count (the search screen is
	// sized with the ledger), the first one selected.
	if !strings.Contains(s, "hit 1 of 1 ·") || !strings.Contains(s, "›row 4  ") {
		t.Fatalf("search A9 shows no hit row:\n%s", s)
	}
	m = press(m, "enter")
	if l.searching || !strings.Contains(strings.Join(l.detail(l.current()), " "), "A9") {
		t.Fatalf("enter did not open the row naming A9:\n%s", screen(m))
	}
	// / after an opened hit shows the hits again at the next one (here
	// the only one again); / there starts a new search with an empty
	// query, not the last one.
	m = press(m, "/")
	if s := screen(m); !strings.Contains(s, "hit 1 of 1 ·") || l.Capturing() {
		t.Fatalf("/ after an opened hit does not show the hits again:\n%s", s)
	}
	m = press(m, "/", "E", "4")
	if s := screen(m); !strings.Contains(s, "/ E4") || strings.Contains(s, "A9E4") {
		t.Fatalf("second search:\n%s", s)
	}
}

// TestLedgerSearchNextHit: / enter steps from one hit to the next, and a
// filter change forgets the hits (their rows are other rows then).
func TestLedgerSearchNextHit(t *testing.T) {
	m, l := newTestLedger(120, 40)
	m = press(m, "/", "l", "e", "d", "g", "e", "r", "enter")
	n := len(l.search.hits)
	if n < 2 {
		t.Fatalf("want at least two hits for ledger, got %d:\n%s", n, screen(m))
	}
	var rows []int
	for i := range n + 1 {
		if i > 0 {
			m = press(m, "/")
			if s := screen(m); !strings.Contains(s, fmt.Sprintf("hit %d of %d ·", i%n+1, n)) {
				t.Fatalf("step %d: / does not show hit %d of %d:\n%s", i, i%n+1, n, s)
			}
		}
		m = press(m, "enter")
		rows = append(rows, l.cursor)
	}
	if rows[0] == rows[1] || rows[n] != rows[0] {
		t.Fatalf("/ enter did not step through the hits and wrap: rows %v", rows)
	}
	m = press(m, "f", "/")
	if !l.Capturing() {
		t.Fatalf("after the filter changed, / must start a new search:\n%s", screen(m))
	}
}
