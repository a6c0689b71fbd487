package tui

import (
	"fmt"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"verdict/adjudication"
	"verdict/tui/styles"
)

// gradePane is the rater's grading screen: the current item's field, its
// choices and the item's field list, with the final answer beside it on
// wide terminals.
type gradePane struct {
	pane
	s      *rateState
	keys   GradeKeyMap
	answer *answerPane
	// dy scrolls the detail of the field at;  it starts at 0 on each field.
	dy int
	at adjudication.Field
}

// openEvidenceMsg asks the owner to open the evidence viewer on refs.
type openEvidenceMsg struct{ refs []evidenceRef }

func newGradePane(s *rateState, answer *answerPane) *gradePane {
	return &gradePane{s: s, keys: DefaultGradeKeyMap(), answer: answer}
}

func (p *gradePane) wide() bool { return p.w >= 110 }

// setEnabled enables exactly the bindings that do something now; active
// is false while another screen is shown, reading while the answer is
// shown full screen (the value and field keys work there too).
func (p *gradePane) setEnabled(active, reading bool) {
	s := p.s
	f := s.cur()
	vals := adjudication.FieldValues(s.design(), f.Kind)
	grading := active && !s.freeze.signed
	for i := range p.keys.Values {
		on := (grading || reading && !s.freeze.signed) && i < len(vals)
		p.keys.Values[i].SetEnabled(on)
		if i < len(vals) {
			p.keys.Values[i].SetHelp(strconv.Itoa(i+1), strings.ReplaceAll(vals[i], "_", " "))
		}
	}
	p.keys.Up.SetEnabled(active || reading)
	p.keys.Down.SetEnabled(active || reading)
	many := len(s.fields) > 1
	p.keys.NextItem.SetEnabled(active && many)
	p.keys.PrevItem.SetEnabled(active && many)
	p.keys.NextUngraded.SetEnabled(grading && s.nGraded < s.nTotal)
	p.keys.Evidence.SetEnabled((active || reading) && len(fieldEvidence(s.curItem(), f)) > 0)
	p.keys.Note.SetEnabled(grading)
	p.keys.Oracle.SetEnabled(grading && (f.Kind == adjudication.KindObligation || f.Kind == adjudication.KindUncertainty))
	p.keys.Answer.SetEnabled(active && !p.wide())
	p.keys.AnswerUp.SetEnabled(active && p.wide())
	p.keys.AnswerDown.SetEnabled(active && p.wide())
	p.keys.Items.SetEnabled(active)
	p.keys.Freeze.SetEnabled(active && !s.freeze.signed)
	p.keys.Task.SetEnabled(active)
	p.keys.Codebook.SetEnabled(active)
	p.keys.Search.SetEnabled(active)
	// After the freeze the journal takes no entry (journal-frozen): no
	// flag either.
	p.keys.Flag.SetEnabled(active && !s.freeze.signed && !s.freeze.signing)
	p.keys.DetailUp.SetEnabled(active || reading)
	p.keys.DetailDown.SetEnabled(active || reading)
}

// grades reports whether k is a value, field or evidence key: they also
// work while the answer is shown full screen.
func (p *gradePane) grades(k tea.KeyPressMsg) bool {
	for _, b := range p.keys.Values {
		if key.Matches(k, b) {
			return true
		}
	}
	return key.Matches(k, p.keys.Up, p.keys.Down, p.keys.Evidence, p.keys.DetailDown, p.keys.DetailUp)
}

// Update implements tea.Model.
func (p *gradePane) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return p, nil
	}
	s := p.s
	f := s.cur()
	for i, b := range p.keys.Values {
		if key.Matches(k, b) {
			vals := adjudication.FieldValues(s.design(), f.Kind)
			g := adjudication.Grade{Field: f, Value: vals[i], Spent: s.spent()}
			old, _, had := s.value(f)
			if had {
				g.Note = old.Note
			} else {
				g.Note = s.drafts[f]
			}
			cmd, ok := s.record(g)
			switch {
			case !ok:
			case had:
				// A correction moves on within the item, never away.
				s.field = min(s.field+1, len(s.fields[s.item])-1)
			default:
				s.seekUngraded(s.item, s.field)
			}
			return p, cmd
		}
	}
	switch {
	case key.Matches(k, p.keys.Down):
		s.field = min(s.field+1, len(s.fields[s.item])-1)
	case key.Matches(k, p.keys.Up):
		s.field = max(s.field-1, 0)
	case key.Matches(k, p.keys.NextItem):
		s.gotoItem((s.item + 1) % len(s.fields))
	case key.Matches(k, p.keys.PrevItem):
		s.gotoItem((s.item + len(s.fields) - 1) % len(s.fields))
	case key.Matches(k, p.keys.NextUngraded):
		s.seekUngraded(s.item, s.field)
	case key.Matches(k, p.keys.Evidence):
		refs := fieldEvidence(s.curItem(), f)
		return p, s.send(openEvidenceMsg{refs})
	case key.Matches(k, p.keys.Note):
		g, _, ok := s.value(f)
		if !ok {
			g.Note = s.drafts[f]
		}
		return p, s.send(openNoteMsg{field: f, text: g.Note})
	case key.Matches(k, p.keys.Oracle):
		of := adjudication.Field{Item: f.Item, Kind: adjudication.KindOracleDefect, Target: f.Target}
		g, _, _ := s.value(of)
		return p, s.send(openNoteMsg{field: of, text: g.Note, oracle: true})
	case key.Matches(k, p.keys.Answer):
		return p, p.s.send(showMsg{screenAnswer})
	case key.Matches(k, p.keys.AnswerDown):
		p.answer.scroll(max(p.h/2, 1))
	case key.Matches(k, p.keys.AnswerUp):
		p.answer.scroll(-max(p.h/2, 1))
	case key.Matches(k, p.keys.Items):
		return p, p.s.send(showMsg{screenList})
	case key.Matches(k, p.keys.Freeze):
		return p, p.s.send(showMsg{screenFreeze})
	case key.Matches(k, p.keys.Task):
		return p, s.send(showTaskMsg{})
	case key.Matches(k, p.keys.Codebook):
		return p, s.send(showCodebookMsg{})
	case key.Matches(k, p.keys.Search):
		return p, s.send(showMsg{screenSearch})
	case key.Matches(k, p.keys.Flag):
		return p, s.toggleFlag(s.item)
	case key.Matches(k, p.keys.DetailDown):
		p.dy += max(p.h/4, 1)
	case key.Matches(k, p.keys.DetailUp):
		p.dy = max(p.dy-max(p.h/4, 1), 0)
	default:
		p.refuseOff(k, f)
	}
	return p, nil
}

// refuseOff says why a value or oracle key typed where it is off does
// nothing (a digit past the field's choices, o on a field without an
// obligation or uncertainty), rather than ignoring it.
func (p *gradePane) refuseOff(k tea.KeyPressMsg, f adjudication.Field) {
	s := p.s
	if s.freeze.signed {
		return
	}
	n := len(adjudication.FieldValues(s.design(), f.Kind))
	for i, b := range p.keys.Values {
		if i >= n && pressedAny(k, b) {
			s.setStatus(fmt.Sprintf("%s: %s takes %d choices (1–%d)", k.String(), fieldLabel(f), n, n), true)
			return
		}
	}
	if pressedAny(k, p.keys.Oracle) && !p.keys.Oracle.Enabled() {
		s.setStatus("o: an oracle defect is flagged on an obligation or uncertainty field, not on "+fieldLabel(f), true)
	}
}

// fieldRow renders one field of the current item for the field list.
func (p *gradePane) fieldRow(f adjudication.Field) string {
	s := p.s
	st := s.c.Styles
	g, saved, ok := s.value(f)
	val := st.Warn.Render("·")
	if ok {
		mark := " …"
		if saved {
			mark = " ✓"
		}
		val = st.Value.Render(g.Value) + mark
		if g.Note != "" {
			val += " ✎"
		}
	}
	label := f.Target
	kind := string(f.Kind)
	switch f.Kind {
	case adjudication.KindClaimCritical:
		kind = "critical?"
	case adjudication.KindCompleteness:
		label = "—"
	case adjudication.KindObligation, adjudication.KindUncertainty:
		if _, _, flagged := s.value(adjudication.Field{Item: f.Item, Kind: adjudication.KindOracleDefect, Target: f.Target}); flagged {
			val += " " + st.Finding.Render("oracle defect")
		}
	}
	return fmt.Sprintf("%-4s %-12s %s", label, kind, val)
}

// fieldDetail renders what the rater must judge for field f.
func (p *gradePane) fieldDetail(f adjudication.Field) []string {
	s := p.s
	out := fieldContextCode(s.c.Styles, s.curItem(), f, !p.wide())
	st := s.c.Styles
	if f.Kind == adjudication.KindObligation || f.Kind == adjudication.KindUncertainty {
		if g, _, ok := s.value(adjudication.Field{Item: f.Item, Kind: adjudication.KindOracleDefect, Target: f.Target}); ok {
			out = append(out, st.Finding.Render("oracle defect flagged: ")+g.Note)
		}
	}
	if g, _, ok := s.value(f); ok && g.Note != "" {
		out = append(out, st.Muted.Render("note: ")+g.Note)
	} else if d := s.drafts[f]; d != "" && !ok {
		out = append(out, st.Muted.Render("note (saved with the grade): ")+d)
	}
	return out
}

// choices renders the question of f's kind and its choices with their
// definitions in w cells.
func (p *gradePane) choices(f adjudication.Field, w int) []string {
	st := p.s.c.Styles
	g, _, _ := p.s.value(f)
	out := wrapLines([]string{st.Header.Render(codebook[f.Kind].Question)}, w)
	return append(out, choiceLines(f.Kind, adjudication.FieldValues(p.s.design(), f.Kind), g.Value, func(s string) string { return st.Selected.Render(s) }, w)...)
}

// head is what the full-screen answer (narrow screens) pins above the
// answer: the field's place, its text (at most a third of the screen,
// scrolled with ctrl+d and ctrl+u), its question and its choices with
// their definitions, so that the field and the answer are on screen
// together and the value keys can be used while reading.
func (p *gradePane) head(w int) []string {
	s := p.s
	st := s.c.Styles
	f := s.cur()
	if f != p.at {
		p.at, p.dy = f, 0
	}
	out := []string{st.Muted.Render(fmt.Sprintf("item %d/%d · field %d/%d · %s", s.item+1, len(s.fields), s.field+1, len(s.fields[s.item]), fieldLabel(f)))}
	out = append(out, scrollWindow(st, wrapLines(p.fieldDetail(f), w), &p.dy, max(p.h/3, 3))...)
	out = append(out, p.choices(f, w)...)
	return append(out, st.Muted.Render(strings.Repeat("─", max(w, 1))))
}

func itemState(graded, total int) string {
	switch {
	case graded == 0:
		return "ungraded"
	case graded < total:
		return "partial"
	}
	return "complete"
}

// lines renders the current item's header, field detail, choices and
// field list in w×h cells.
func (p *gradePane) lines(w, h int) []string {
	s := p.s
	st := s.c.Styles
	it := s.curItem()
	fs := s.fields[s.item]
	f := s.cur()
	// The item's state, then the count of graded fields ("ungraded · 0/13
	// graded"), so the count does not read as a count of ungraded fields.
	hdr := st.Muted.Render(fmt.Sprintf("item %d/%d · %s · %s · %d/%d graded", s.item+1, len(s.fields), it.ID,
		itemState(s.graded[s.item], len(fs)), s.graded[s.item], len(fs)))
	if s.isFlagged(s.item) {
		hdr = st.Warn.Render("⚑ flagged") + " " + hdr
	}
	// Wrapped, not cut: the flag and the graded count both stay.
	out := wrapLines([]string{hdr}, w)
	if f != p.at {
		p.at, p.dy = f, 0
	}
	detail := wrapLines(p.fieldDetail(f), w)
	var choices []string
	if s.freeze.signed {
		choices = []string{st.OK.Render("sheet frozen and signed: grading is closed")}
	} else {
		choices = p.choices(f, w)
	}
	// The detail takes what the choices and three rows of the field list
	// leave; what does not fit scrolls (ctrl+d), with a mark, never cut.
	room := max(h-len(out)-len(choices)-1-min(3, len(fs)), 2)
	detail = scrollWindow(st, detail, &p.dy, room)
	out = append(out, detail...)
	out = append(out, choices...)
	out = append(out, st.Muted.Render(strings.Repeat("─", max(w, 1))))
	lh := max(h-len(out), 1)
	start, end := listWindow(s.field, len(fs), lh)
	for i := start; i < end; i++ {
		row := " " + p.fieldRow(fs[i])
		if i == s.field {
			row = selectedRow(st, row, w)
		}
		out = append(out, row)
	}
	return out
}

// View implements tea.Model.
func (p *gradePane) View() tea.View {
	if !p.wide() {
		return tea.NewView(strings.Join(p.lines(p.w, p.h), "\n"))
	}
	lw := p.w / 2
	left := p.lines(lw-1, p.h)
	right := widePane(p.s.c.Styles, citationCode(p.s.c.Styles, p.s.curItem(), p.s.cur()), p.answer, p.w-lw-2, p.h)
	var b strings.Builder
	sep := p.s.c.Styles.Muted.Render("│")
	for i := range p.h {
		l, rt := "", ""
		if i < len(left) {
			l = left[i]
		}
		if i < len(right) {
			rt = right[i]
		}
		b.WriteString(pad(l, lw-1) + sep + " " + rt)
		if i < p.h-1 {
			b.WriteByte('\n')
		}
	}
	return tea.NewView(b.String())
}

// widePane is the right pane of a wide screen: a citation's cited lines
// (code, wrapped, at most half the pane) above a rule, then the answer.
func widePane(st *styles.Styles, code []string, answer *answerPane, w, h int) []string {
	if len(code) == 0 {
		return answer.lines(w, h)
	}
	code = wrapLines(code, w)
	if len(code) > h/2 {
		code = append(code[:h/2-1:h/2-1], st.Warn.Render(fmt.Sprintf("↓ %d more cited lines: e opens the evidence", len(code)-(h/2-1))))
	}
	code = append(code, st.Muted.Render(strings.Repeat("─", max(w, 1))))
	return append(code, answer.lines(w, max(h-len(code), 1))...)
}

// ShortHelp implements help.KeyMap.
func (p *gradePane) ShortHelp() []key.Binding {
	return []key.Binding{p.keys.Values[0], p.keys.Values[1], p.keys.Values[2], p.keys.Values[3], p.keys.Answer, p.keys.Down, p.keys.Up, p.keys.Task, p.keys.Codebook, p.keys.Evidence, p.keys.Note}
}

// FullHelp implements help.KeyMap.
func (p *gradePane) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{p.keys.Values[0], p.keys.Values[1], p.keys.Values[2], p.keys.Values[3], p.keys.NextUngraded},
		{p.keys.Up, p.keys.Down, p.keys.NextItem, p.keys.PrevItem, p.keys.Items},
		{p.keys.Task, p.keys.Codebook, p.keys.Evidence, p.keys.Note, p.keys.Oracle, p.keys.DetailDown, p.keys.DetailUp},
		{p.keys.Answer, p.keys.AnswerDown, p.keys.AnswerUp, p.keys.Search, p.keys.Flag, p.keys.Freeze},
	}
}
