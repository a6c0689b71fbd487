package tui

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"verdict/adjudication"
	"verdict/blinding"
)

// Dispute is one field on which two frozen sheets differ: the values and
// notes of the first and the second rating (never the raters' names).
// An empty value of an oracle_defect field means that rating raised no flag.
type Dispute struct {
	Field  adjudication.Field
	Values [2]string
	Notes  [2]string
}

// Decision is the adjudicator's final value for one dispute, with a note
// (required when Final is neither rating's value, and when confirming an
// oracle defect).
type Decision struct {
	Field       adjudication.Field
	Final, Note string
}

// AdjudicateInput is what the adjudicator's program needs.
type AdjudicateInput struct {
	// Bundle gives each disputed field's item (task, packet, obligations,
	// final answer).
	Bundle *blinding.Bundle
	// Disputes are the disputed fields in canonical order.
	Disputes []Dispute
	// Check validates one decision (adjudication.CheckResolution); nil
	// accepts every allowed value.
	Check func(d Dispute, final, note string) error
	// Record saves one decision durably (adjudication.DecisionLog.Record:
	// appended and fsync'd) and returns nil once it is on disk; the screen
	// says "saved" only then. A later decision for the same field
	// supersedes the earlier one. nil keeps decisions in memory only (the
	// status line then says "not saved").
	Record func(Decision) error
	// Saved are the decisions already on disk when the program starts
	// (resume); the program starts at the first dispute without one.
	Saved []Decision
	// Sign builds and signs the adjudication from one decision per dispute
	// and returns a one-line description of what was written.
	Sign func([]Decision) (string, error)
	// Signer and Meaning are shown before signing.
	Signer  Signer
	Meaning string
}

// AdjudicateResult is what an adjudication session ended with.
type AdjudicateResult struct {
	// Resolved and Total count disputes.
	Resolved, Total int
	// Decisions are the decisions made, in dispute order (unresolved ones
	// are absent).
	Decisions []Decision
	// Signed is true when Sign succeeded; Record is its description.
	Signed bool
	Record string
	// Pending are the decisions made on screen whose Record had not yet
	// returned when the program ended, in the order made: they may or may
	// not be in the log.
	Pending []Decision
}

// Adjudicate runs the adjudicator's program until the adjudicator leaves.
func Adjudicate(ctx context.Context, in AdjudicateInput, o Options) (AdjudicateResult, error) {
	m := NewAdjudicateModel(in, o)
	final, err := run(ctx, m, o)
	if r, ok := final.(*root); ok {
		return r.child.(*adjudicator).result(), err
	}
	return m.(*root).child.(*adjudicator).result(), err
}

// NewAdjudicateModel returns the adjudicator program's root model.
func NewAdjudicateModel(in AdjudicateInput, o Options) tea.Model {
	c := &Common{Width: o.Width, Height: o.Height, Styles: o.styles()}
	a := newAdjudicator(c, in)
	return newRoot(c, a, a.title, a.statusLine)
}

type adjScreen int

const (
	adjMain adjScreen = iota
	adjOther
	adjNote
	adjEvidence
	adjSign
)

type signedMsg struct {
	desc string
	err  error
}

// pendingDecision is a decision made on screen whose Record has not yet
// returned.
type pendingDecision struct {
	idx int
	d   Decision
}

type adjudicator struct {
	c         *Common
	keys      AdjudicateKeyMap
	in        AdjudicateInput
	decisions []*Decision // saved decisions (or, without Record, kept ones)
	// queue holds decisions made but not yet returned by Record, in order.
	queue *saveQueue[pendingDecision]
	// signAfterSave is set when y was pressed while decisions were still
	// being saved: signing starts once every one of them is on disk.
	signAfterSave bool
	cur           int
	screen        adjScreen
	note          textinput.Model
	noteFinal     string // the value the note editor will save with
	viewer        *evidenceViewer
	status        string
	statusErr     bool
	signed        bool
	signing       bool
	record        string
	w, h          int
}

func newAdjudicator(c *Common, in AdjudicateInput) *adjudicator {
	a := &adjudicator{c: c, keys: DefaultAdjudicateKeyMap(), in: in, decisions: make([]*Decision, len(in.Disputes))}
	rec := in.Record
	a.queue = newSaveQueue(func(p pendingDecision) error { return rec(p.d) })
	a.note = textinput.New()
	a.note.SetStyles(c.Styles.Input)
	a.note.CharLimit = adjudication.MaxNote
	for _, d := range in.Saved {
		for i := range in.Disputes {
			if in.Disputes[i].Field == d.Field {
				a.decisions[i] = &d
				break
			}
		}
	}
	// Resume at the first dispute without a saved decision.
	for i, d := range a.decisions {
		if d == nil {
			a.cur = i
			break
		}
	}
	a.setEnabled()
	return a
}

// decision returns the decision the screen shows for dispute i: the last
// pending one if any (not yet saved), else the saved one.
func (a *adjudicator) decision(i int) (d *Decision, saved bool) {
	if p, ok := a.queue.latest(func(p pendingDecision) bool { return p.idx == i }); ok {
		return &p.d, false
	}
	return a.decisions[i], a.decisions[i] != nil
}

func (a *adjudicator) result() AdjudicateResult {
	res := AdjudicateResult{Total: len(a.decisions), Signed: a.signed, Record: a.record}
	for _, p := range a.queue.pending {
		res.Pending = append(res.Pending, p.d)
	}
	for _, d := range a.decisions {
		if d != nil {
			res.Resolved++
			res.Decisions = append(res.Decisions, *d)
		}
	}
	return res
}

func (a *adjudicator) resolved() int {
	n := 0
	for _, d := range a.decisions {
		if d != nil {
			n++
		}
	}
	return n
}

// Capturing reports whether the note editor has the keyboard.
func (a *adjudicator) Capturing() bool { return a.screen == adjNote }

func (a *adjudicator) dispute() *Dispute {
	if len(a.in.Disputes) == 0 {
		return nil
	}
	return &a.in.Disputes[a.cur]
}

func (a *adjudicator) item() *blinding.Item {
	if d := a.dispute(); d != nil {
		return a.in.Bundle.Item(d.Field.Item)
	}
	return nil
}

// allowed returns the values the adjudicator may choose for d.
func allowedFor(d *Dispute) []string {
	if d.Field.Kind == adjudication.KindOracleDefect {
		return []string{adjudication.ValueDefective, adjudication.ValueWithdrawn}
	}
	return adjudication.AllowedValues(d.Field.Kind)
}

func showValue(v string, k adjudication.Kind) string {
	if v == "" && k == adjudication.KindOracleDefect {
		return "no flag (not a defect)"
	}
	return strings.ReplaceAll(v, "_", " ")
}

func (a *adjudicator) setEnabled() {
	main := a.screen == adjMain && !a.signed && len(a.in.Disputes) > 0
	a.keys.First.SetEnabled(main)
	a.keys.Second.SetEnabled(main)
	a.keys.Other.SetEnabled(main)
	a.keys.Note.SetEnabled(main && a.dispute() != nil && a.decided(a.cur))
	a.keys.Up.SetEnabled(a.screen == adjMain && len(a.in.Disputes) > 1)
	a.keys.Down.SetEnabled(a.screen == adjMain && len(a.in.Disputes) > 1)
	a.keys.NextOpen.SetEnabled(main && a.open() > 0)
	a.keys.Evidence.SetEnabled(a.screen == adjMain && a.dispute() != nil)
	a.keys.Sign.SetEnabled(a.screen == adjMain && !a.signed)
	a.keys.Confirm.SetEnabled(a.screen == adjSign && (a.canSign() || a.canSignAfterSave()))
	a.keys.Save.SetEnabled(a.screen == adjNote)
	a.keys.Cancel.SetEnabled(a.screen != adjMain && a.screen != adjEvidence)
	var vals []string
	if d := a.dispute(); d != nil {
		vals = allowedFor(d)
	}
	for i := range a.keys.Values {
		a.keys.Values[i].SetEnabled(a.screen == adjOther && i < len(vals))
		if i < len(vals) {
			a.keys.Values[i].SetHelp(strconv.Itoa(i+1), showValue(vals[i], a.dispute().Field.Kind))
		}
	}
}

func (a *adjudicator) canSign() bool {
	return !a.signed && !a.signing && a.resolved() == len(a.decisions) && a.queue.len() == 0 && a.in.Sign != nil
}

// canSignAfterSave reports whether every dispute has a decision and only
// their saving is outstanding.
func (a *adjudicator) canSignAfterSave() bool {
	return a.queue.len() > 0 && a.open() == 0 && !a.signed && !a.signing && a.in.Sign != nil
}

// decided reports whether dispute i has a decision, saved or pending.
func (a *adjudicator) decided(i int) bool {
	d, _ := a.decision(i)
	return d != nil
}

// open counts the disputes without a decision, saved or pending.
func (a *adjudicator) open() int {
	n := 0
	for i := range a.decisions {
		if !a.decided(i) {
			n++
		}
	}
	return n
}

// Init implements tea.Model.
func (a *adjudicator) Init() tea.Cmd { return nil }

// SetSize implements Component.
func (a *adjudicator) SetSize(w, h int) {
	a.w, a.h = w, h
	a.note.SetWidth(max(w-4, 10))
	if a.viewer != nil {
		a.viewer.SetSize(w, h)
	}
}

// Update implements tea.Model.
func (a *adjudicator) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	var cmd tea.Cmd
	switch m := msg.(type) {
	case signedMsg:
		a.signing = false
		if m.err != nil {
			a.setStatus("NOT signed: "+m.err.Error(), true)
		} else {
			a.signed, a.record = true, m.desc
			a.setStatus("adjudication signed: "+m.desc, false)
		}
	case savedMsg[pendingDecision]:
		cmd = a.onDecided(m)
	case closeEvidenceMsg:
		a.viewer = nil
		a.screen = adjMain
	case tea.KeyPressMsg:
		cmd = a.key(m)
	default:
		if a.screen == adjNote {
			a.note, cmd = a.note.Update(msg)
		}
	}
	a.setEnabled()
	return a, cmd
}

func (a *adjudicator) setStatus(s string, isErr bool) { a.status, a.statusErr = s, isErr }

// decide records a decision if Check accepts it; a value that needs a note
// opens the note editor instead.
func (a *adjudicator) decide(final, note string) tea.Cmd {
	d := a.dispute()
	if a.in.Check != nil {
		if err := a.in.Check(*d, final, note); err != nil {
			if note == "" {
				a.setStatus("a note is required for this value", false)
				return a.openNote(final, "")
			}
			a.setStatus(err.Error(), true)
			return nil
		}
	}
	dec := Decision{Field: d.Field, Final: final, Note: note}
	what := fieldLabel(d.Field) + " = " + showValue(final, d.Field.Kind)
	if a.in.Record == nil {
		a.decisions[a.cur] = &dec
		a.setStatus("resolved "+what+" (not saved: no decision log)", false)
		a.nextOpen()
		return nil
	}
	cmd := a.queue.push(pendingDecision{a.cur, dec})
	a.setStatus("saving "+what+" …", false)
	a.nextOpen()
	return cmd
}

func (a *adjudicator) onDecided(m savedMsg[pendingDecision]) tea.Cmd {
	next := a.queue.done(m)
	if m.err != nil {
		a.setStatus("NOT saved: "+m.err.Error(), true)
		return nil
	}
	d := m.v.d
	a.decisions[m.v.idx] = &d
	a.setStatus("saved ✓ "+fieldLabel(d.Field)+" = "+showValue(d.Final, d.Field.Kind), false)
	if a.queue.len() == 0 && a.signAfterSave {
		a.signAfterSave = false
		if a.screen == adjSign && a.canSign() {
			return a.sign()
		}
	}
	return next
}

// sign starts AdjudicateInput.Sign with every saved decision.
func (a *adjudicator) sign() tea.Cmd {
	a.signing = true
	var ds []Decision
	for _, d := range a.decisions {
		ds = append(ds, *d)
	}
	sign := a.in.Sign
	return func() tea.Msg { desc, err := sign(ds); return signedMsg{desc, err} }
}

func (a *adjudicator) nextOpen() {
	n := len(a.decisions)
	for i := 1; i <= n; i++ {
		j := (a.cur + i) % n
		if !a.decided(j) {
			a.cur = j
			return
		}
	}
}

func (a *adjudicator) openNote(final, text string) tea.Cmd {
	a.noteFinal = final
	a.note.SetValue(text)
	a.note.CursorEnd()
	a.note.Placeholder = "reason for this final value"
	a.screen = adjNote
	return a.note.Focus()
}

func (a *adjudicator) key(k tea.KeyPressMsg) tea.Cmd {
	switch a.screen {
	case adjEvidence:
		_, cmd := a.viewer.Update(k)
		return cmd
	case adjNote:
		switch {
		case key.Matches(k, a.keys.Cancel):
			a.note.Blur()
			a.screen = adjMain
			return nil
		case key.Matches(k, a.keys.Save):
			note := strings.TrimSpace(a.note.Value())
			a.note.Blur()
			a.screen = adjMain
			d := a.dispute()
			if a.in.Check != nil {
				if err := a.in.Check(*d, a.noteFinal, note); err != nil {
					a.setStatus(err.Error(), true)
					a.screen = adjNote
					return a.note.Focus()
				}
			}
			return a.decide(a.noteFinal, note)
		}
		var cmd tea.Cmd
		a.note, cmd = a.note.Update(k)
		return cmd
	case adjOther:
		if key.Matches(k, a.keys.Cancel) {
			a.screen = adjMain
			return nil
		}
		vals := allowedFor(a.dispute())
		for i, b := range a.keys.Values {
			if key.Matches(k, b) && i < len(vals) {
				a.screen = adjMain
				d := a.dispute()
				if vals[i] != d.Values[0] && vals[i] != d.Values[1] {
					return a.openNote(vals[i], "")
				}
				return a.decide(vals[i], "")
			}
		}
		return nil
	case adjSign:
		switch {
		case key.Matches(k, a.keys.Cancel):
			a.screen = adjMain
			a.signAfterSave = false
		case key.Matches(k, a.keys.Confirm):
			if a.canSignAfterSave() {
				a.signAfterSave = true
				return nil
			}
			if !a.canSign() {
				return nil
			}
			return a.sign()
		}
		return nil
	}
	d := a.dispute()
	switch {
	case key.Matches(k, a.keys.First):
		return a.decide(d.Values[0], a.carryNote(d.Values[0], d.Notes[0]))
	case key.Matches(k, a.keys.Second):
		return a.decide(d.Values[1], a.carryNote(d.Values[1], d.Notes[1]))
	case key.Matches(k, a.keys.Other):
		a.screen = adjOther
	case key.Matches(k, a.keys.Note):
		dec, _ := a.decision(a.cur)
		if dec == nil {
			return nil
		}
		return a.openNote(dec.Final, dec.Note)
	case key.Matches(k, a.keys.Down):
		a.cur = (a.cur + 1) % len(a.in.Disputes)
	case key.Matches(k, a.keys.Up):
		a.cur = (a.cur + len(a.in.Disputes) - 1) % len(a.in.Disputes)
	case key.Matches(k, a.keys.NextOpen):
		a.nextOpen()
	case key.Matches(k, a.keys.Evidence):
		a.openEvidence()
	case key.Matches(k, a.keys.Sign):
		a.screen = adjSign
	}
	return nil
}

// carryNote keeps a confirmed oracle defect's reason: confirming a rating's
// flag adopts that rating's reason as the decision's note.
func (a *adjudicator) carryNote(final, note string) string {
	if a.dispute().Field.Kind == adjudication.KindOracleDefect && final == adjudication.ValueDefective {
		return note
	}
	return ""
}

func (a *adjudicator) openEvidence() {
	it := a.item()
	if it == nil {
		return
	}
	f := a.dispute().Field
	if f.Kind == adjudication.KindOracleDefect {
		f.Kind = adjudication.KindObligation
	}
	refs := fieldEvidence(it, f)
	if len(refs) == 0 {
		for _, e := range it.Evidence {
			refs = append(refs, evidenceRef{item: &evidenceSource{ID: e.ID, Path: e.Path, StartLine: e.StartLine, EndLine: e.EndLine, Excerpt: e.Excerpt}})
		}
	}
	if len(refs) == 0 {
		a.setStatus("this item has no evidence item", true)
		return
	}
	a.viewer = newEvidenceViewer(a.c, refs, 0)
	a.viewer.SetSize(a.w, a.h)
	a.screen = adjEvidence
}

func (a *adjudicator) title() string {
	s := "verdict adjudicate · adjudicator " + a.in.Signer.Name
	if a.in.Bundle != nil && a.in.Bundle.Synthetic {
		s = "SYNTHETIC · " + s
	}
	return s
}

func (a *adjudicator) statusLine() string {
	p := fmt.Sprintf(" %d/%d disputes resolved", a.resolved(), len(a.decisions))
	if a.signed {
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

// View implements tea.Model.
func (a *adjudicator) View() tea.View {
	st := a.c.Styles
	if len(a.in.Disputes) == 0 && a.screen != adjSign {
		return tea.NewView(st.OK.Render("The two frozen sheets agree on every field: nothing to adjudicate.") + "\n" + st.Muted.Render("S signs an adjudication with no resolution."))
	}
	switch a.screen {
	case adjEvidence:
		return a.viewer.View()
	case adjSign:
		return tea.NewView(a.signView())
	}
	d := a.dispute()
	var out []string
	add := func(s ...string) { out = append(out, s...) }
	add(st.Muted.Render(fmt.Sprintf("dispute %d/%d · %s", a.cur+1, len(a.in.Disputes), d.Field.Item)))
	if it := a.item(); it != nil {
		add(wrapLines(fieldContext(st, it, d.Field), a.w)...)
	}
	add(st.Muted.Render(strings.Repeat("─", max(a.w, 1))))
	colW := max((a.w-3)/2, 10)
	cell := func(i int) []string {
		head := []string{"[1] first rating", "[2] second rating"}[i]
		lines := []string{st.Header.Render(head), st.Value.Render(showValue(d.Values[i], d.Field.Kind))}
		if d.Notes[i] != "" {
			lines = append(lines, wrapLines([]string{"note: " + d.Notes[i]}, colW)...)
		}
		return lines
	}
	l, r := cell(0), cell(1)
	for i := range max(len(l), len(r)) {
		var x, y string
		if i < len(l) {
			x = l[i]
		}
		if i < len(r) {
			y = r[i]
		}
		add(pad(x, colW) + " │ " + y)
	}
	add(st.Muted.Render(strings.Repeat("─", max(a.w, 1))))
	if dec, saved := a.decision(a.cur); dec != nil {
		s := "final: " + st.Value.Render(showValue(dec.Final, d.Field.Kind))
		if dec.Note != "" {
			s += " · note: " + dec.Note
		}
		if saved {
			add(st.OK.Render("✓ ") + s)
		} else {
			add(st.Warn.Render("… ") + s + st.Muted.Render(" (saving)"))
		}
	} else {
		add(st.Warn.Render("open: choose 1, 2 or v (another value with a note)"))
	}
	switch a.screen {
	case adjOther:
		var parts []string
		for i, v := range allowedFor(d) {
			parts = append(parts, fmt.Sprintf("[%d] %s", i+1, showValue(v, d.Field.Kind)))
		}
		add("", st.Header.Render("Choose the final value:")+" "+strings.Join(parts, "  "))
	case adjNote:
		add("", st.Header.Render("Note for final value "+showValue(a.noteFinal, d.Field.Kind)+" (required)"), a.note.View())
	}
	return tea.NewView(strings.Join(out, "\n"))
}

func (a *adjudicator) signView() string {
	st := a.c.Styles
	var out []string
	add := func(s string) { out = append(out, s) }
	add(st.Header.Render("Sign the adjudication"))
	add("")
	notes := 0
	for _, d := range a.decisions {
		if d != nil && d.Note != "" {
			notes++
		}
	}
	add(fmt.Sprintf("disputes:            %d", len(a.decisions)))
	add(fmt.Sprintf("resolved:            %d", a.resolved()))
	add(fmt.Sprintf("decisions with note: %d", notes))
	add("")
	signer := a.in.Signer.Name
	if a.in.Signer.Fingerprint != "" {
		signer += " · key " + a.in.Signer.Fingerprint
	}
	add("signer:  " + signer)
	meaning := a.in.Meaning
	if meaning == "" {
		meaning = "I resolved every disputed field against the frozen obligations."
	}
	add("meaning: " + meaning)
	add("")
	switch {
	case a.signed:
		add(st.OK.Render("Signed: " + a.record))
	case a.queue.len() > 0 && a.signAfterSave:
		add(st.Warn.Render(fmt.Sprintf("Saving %d decision(s) …; signing follows.", a.queue.len())))
	case a.queue.len() > 0:
		add(st.Warn.Render(fmt.Sprintf("Saving %d decision(s) …; y signs once they are on disk.", a.queue.len())))
	case a.resolved() < len(a.decisions):
		add(st.Finding.Render(fmt.Sprintf("Refused: %d disputes are open.", len(a.decisions)-a.resolved())))
	case a.in.Sign == nil:
		add(st.Finding.Render("Refused: no signing key (--key) and signer (--name) configured."))
	case a.signing:
		add(st.Warn.Render("Signing …"))
	default:
		add("Press y to sign, esc to go back.")
	}
	return strings.Join(wrapLines(out, a.w), "\n")
}

// ShortHelp implements help.KeyMap.
func (a *adjudicator) ShortHelp() []key.Binding {
	switch a.screen {
	case adjEvidence:
		return a.viewer.ShortHelp()
	case adjOther:
		return []key.Binding{a.keys.Values[0], a.keys.Values[1], a.keys.Values[2], a.keys.Cancel}
	case adjNote:
		return []key.Binding{a.keys.Save, a.keys.Cancel}
	case adjSign:
		return []key.Binding{a.keys.Confirm, a.keys.Cancel}
	}
	return []key.Binding{a.keys.First, a.keys.Second, a.keys.Other, a.keys.Down, a.keys.Up, a.keys.Sign}
}

// FullHelp implements help.KeyMap.
func (a *adjudicator) FullHelp() [][]key.Binding {
	if a.screen != adjMain {
		return [][]key.Binding{a.ShortHelp()}
	}
	return [][]key.Binding{
		{a.keys.First, a.keys.Second, a.keys.Other, a.keys.Note},
		{a.keys.Up, a.keys.Down, a.keys.NextOpen, a.keys.Evidence, a.keys.Sign},
	}
}

// UseDecisionLog wires in to an open decision log: the disputes are the
// log's disagreements, Saved its current decisions (resume), Check is
// adjudication.CheckResolution and Record appends to the log (fsync'd
// before it returns).
func (in *AdjudicateInput) UseDecisionLog(l *adjudication.DecisionLog) {
	in.Disputes = nil
	for _, d := range l.Disputes() {
		in.Disputes = append(in.Disputes, Dispute{Field: d.Field, Values: d.Values, Notes: d.Notes})
	}
	in.Saved = nil
	for _, c := range l.Choices() {
		in.Saved = append(in.Saved, Decision{Field: c.Field, Final: c.Final, Note: c.Note})
	}
	in.Check = func(d Dispute, final, note string) error {
		return adjudication.CheckResolution(adjudication.Disagreement{Field: d.Field, Values: d.Values, Notes: d.Notes}, final, note)
	}
	in.Record = func(d Decision) error {
		return l.Record(adjudication.Choice{Field: d.Field, Final: d.Final, Note: d.Note})
	}
}
