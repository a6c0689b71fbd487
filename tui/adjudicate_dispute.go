package tui

import (
	"fmt"
	"slices"
	"strings"
	"verdict/adjudication"
	"verdict/tui/styles"

	tea "charm.land/bubbletea/v2"
)

func (a *adjudicator) title() string {
	s := "verdict adjudicate · adjudicator " + a.in.Signer.Name
	if a.in.Bundle != nil && a.in.Bundle.Synthetic {
		s = "SYNTHETIC · " + s
	}
	return s
}

func (a *adjudicator) statusLine() string {
	p := fmt.Sprintf(" %d/%d disputes resolved", a.resolved(), len(a.decisions))
	if a.signer.signed {
		p += " · signed"
	}
	if a.status == "" {
		return p
	}
	s := a.status
	if a.statusErr {
		s = a.c.Styles.Finding.Render(s)
	}
	return p + " · " + s
}

// disputeLines renders the current dispute in w cells: its context
// (scrolled by dy), its question, both ratings with their notes and
// definitions, the decision and, when choosing, the choices.
func (a *adjudicator) disputeLines(w, h int) []string {
	head, ctx, bottom := a.disputeParts(w)
	// The context takes what the rest leaves; what does not fit scrolls
	// (ctrl+d) with a mark, never cut.
	room := h - len(head) - len(bottom)
	if room < 3 {
		// Long notes: the whole dispute scrolls as one.
		all := append(append(head, ctx...), bottom...)
		return scrollWindow(a.c.Styles, all, &a.dy, h)
	}
	ctx = scrollWindow(a.c.Styles, ctx, &a.dy, room)
	return append(append(head, ctx...), bottom...)
}

// disputeParts renders the current dispute in w cells in three parts: its
// place (head), its context (ctx) and the rest (bottom: the question, both
// ratings with their notes and definitions, the decision and, when
// choosing, the choices).
func (a *adjudicator) disputeParts(w int) (head, ctx, bottom []string) {
	st := a.c.Styles
	d := a.shownD[a.cur]
	if a.dyFor != a.cur {
		a.dyFor, a.dy = a.cur, 0
	}
	head = []string{st.Muted.Render(fmt.Sprintf("dispute %d/%d · %s", a.cur+1, len(a.in.Disputes), d.Field.Item))}
	if it := a.item(); it != nil {
		ctx = wrapLines(fieldContextCode(st, it, d.Field, !a.wide()), w)
	}
	add := func(s ...string) { bottom = append(bottom, s...) }
	add(wrapLines([]string{st.Header.Render(codebook[d.Field.Kind].Question)}, w)...)
	add(st.Muted.Render(strings.Repeat("─", max(w, 1))))
	for i, name := range []string{"[1] first rating: ", "[2] second rating: "} {
		v := d.Values[i]
		def := ""
		if short, _ := adjudication.Definition(d.Field.Kind, v); short != "" {
			def = " — " + short
		}
		add(wrapLines([]string{st.Header.Render(name) + st.Value.Render(showValue(v, d.Field.Kind)) + st.Muted.Render(def)}, w)...)
		if d.Notes[i] != "" {
			add(wrapLines([]string{"    note: " + d.Notes[i]}, w)...)
		}
		for _, f := range d.NoteFindings[i] {
			add(wrapLines([]string{st.Warn.Render("    leak scan: ") + visibleText(fmt.Sprintf("%s %q (%s)", f.Kind, f.Token, f.Rule))}, w)...)
		}
	}
	add(st.Muted.Render(strings.Repeat("─", max(w, 1))))
	if dec, saved := a.decision(a.cur); dec != nil {
		s := "final: " + st.Value.Render(showValue(dec.Final, d.Field.Kind))
		if dec.Note != "" {
			s += " · note: " + visibleText(dec.Note)
		}
		if saved {
			add(wrapLines([]string{st.OK.Render("✓ ") + s}, w)...)
		} else {
			add(wrapLines([]string{st.Warn.Render("… ") + s + st.Muted.Render(" (saving)")}, w)...)
		}
	} else {
		if len(otherValues(&d)) > 0 {
			add(st.Warn.Render("open: choose 1, 2 or v (another value with a note)"))
		} else {
			add(st.Warn.Render("open: choose 1 or 2 (the field has no other value)"))
		}
	}
	if a.screen == adjOther {
		add("", st.Header.Render("Choose the final value:"))
		add(choiceLines(d.Field.Kind, allowedFor(&d), "", func(s string) string { return s }, w)...)
	}
	return head, ctx, bottom
}

// scrollWindow returns at most h of lines from *dy on, the last one
// replaced by a mark saying how many lines are above and below when they
// do not all fit; *dy is clamped.
func scrollWindow(st *styles.Styles, lines []string, dy *int, h int) []string {
	h = max(h, 2)
	if len(lines) <= h {
		*dy = 0
		return lines
	}
	*dy = min(max(*dy, 0), len(lines)-(h-1))
	rest := len(lines) - *dy - (h - 1)
	mark := fmt.Sprintf("↓ %d more lines: ctrl+d", rest)
	if *dy > 0 {
		mark += fmt.Sprintf(" · ↑ %d above: ctrl+u", *dy)
	}
	if rest == 0 {
		mark = fmt.Sprintf("↑ %d lines above: ctrl+u", *dy)
	}
	return append(slices.Clone(lines[*dy:*dy+h-1]), st.Warn.Render(mark))
}

// answerHead is what the full-screen answer (narrow screens) pins above
// the answer: the dispute as the dispute screen shows it (its context
// at most a third of the screen, scrolled with ctrl+d and ctrl+u; its
// question, both ratings with their definitions, the decision).
func (a *adjudicator) answerHead(w int) []string {
	head, ctx, bottom := a.disputeParts(w)
	out := append(head, scrollWindow(a.c.Styles, ctx, &a.dy, max(a.h/3, 3))...)
	out = append(out, bottom...)
	return append(out, a.c.Styles.Muted.Render(strings.Repeat("─", max(w, 1))))
}

// View implements tea.Model.
func (a *adjudicator) View() tea.View {
	st := a.c.Styles
	if len(a.in.Disputes) == 0 && a.screen != adjSign {
		return tea.NewView(st.OK.Render("The two frozen sheets agree on every field: nothing to adjudicate.") + "\n" + st.Muted.Render("S signs an adjudication with no resolution."))
	}
	if c := a.active(); c != nil {
		return c.View()
	}
	if !a.wide() {
		return tea.NewView(strings.Join(a.disputeLines(a.w, a.h), "\n"))
	}
	lw := a.w / 2
	right := widePane(st, citationCode(st, a.item(), a.dispute().Field), a.answer, a.w-lw-2, a.h)
	return tea.NewView(sideBySide(st, a.disputeLines(lw-1, a.h), right, lw-1, a.h))
}

// sideBySide joins left (lw cells) and right with a rule, h rows.
func sideBySide(st *styles.Styles, left, right []string, lw, h int) string {
	var b strings.Builder
	sep := st.Muted.Render("│")
	for i := range h {
		l, rt := "", ""
		if i < len(left) {
			l = left[i]
		}
		if i < len(right) {
			rt = right[i]
		}
		b.WriteString(pad(l, lw) + sep + " " + rt)
		if i < h-1 {
			b.WriteByte('\n')
		}
	}
	return b.String()
}
