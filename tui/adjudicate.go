package tui

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"verdict/adjudication"
	"verdict/blinding"
	"verdict/tui/styles"
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
	// NoSign is the refusal the signing screen shows when Sign is nil
	// (default: no --key and --name configured).
	NoSign string
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
	rt := newRoot(c, a, a.title, a.statusLine)
	rt.auto = o.autoTheme()
	return rt
}

type adjScreen int

const (
	adjMain adjScreen = iota
	adjOther
	adjNote
	adjEvidence
	adjSign
	adjAnswer
	adjPanel
	adjList
	adjSearch
)

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
	note          *noteEditor
	noteFinal     string // the value the note editor will save with
	viewer        *evidenceViewer
	answer        *answerPane
	panel         *panel
	// onTask is set while the panel shows the current item's task.
	onTask bool
	list   *disputeList
	search *searchScreen
	signer *signScreen
	// shown are the bundle's items as screens draw them (shownCopy);
	// seen marks the items whose task was shown on arrival.
	shown map[string]*blinding.Item
	seen  map[string]bool
	// shownD are the disputes as screens draw them.
	shownD []Dispute
	// dy scrolls the dispute's context; it starts at 0 on each dispute.
	dy, dyFor int
	status    string
	statusErr bool
	signed    bool
	signing   bool
	record    string
	w, h      int
}

func newAdjudicator(c *Common, in AdjudicateInput) *adjudicator {
	a := &adjudicator{c: c, keys: DefaultAdjudicateKeyMap(), in: in, decisions: make([]*Decision, len(in.Disputes)),
		shown: map[string]*blinding.Item{}, seen: map[string]bool{}, dyFor: -1}
	// The sheets' notes are shown visibly too; decisions use the originals.
	a.shownD = shownCopy(in.Disputes)
	rec := in.Record
	a.queue = newSaveQueue(func(p pendingDecision) error { return rec(p.d) })
	back := func() tea.Cmd { a.screen = adjMain; return nil }
	a.note = newNoteEditor(c)
	a.note.context = a.noteContext
	a.note.done = a.noteDone
	a.answer = newAnswerPane(c, func() (*blinding.Item, adjudication.Field) {
		it := a.item()
		if it == nil {
			return &blinding.Item{}, adjudication.Field{}
		}
		return it, a.dispute().Field
	}, back)
	a.answer.head = a.answerHead
	a.panel = newPanel(c, DefaultPanelKeyMap("t", "g"), back)
	a.list = newDisputeList(c, a, back)
	a.search = newSearchScreen(c, a.find, func(h searchHit) tea.Cmd { a.cur, a.screen = h.index, adjMain; return nil }, back)
	a.signer = a.newSignScreen()
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
	a.arrive()
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

// Capturing reports whether a text editor (note, search) has the keyboard.
func (a *adjudicator) Capturing() bool {
	return a.screen == adjNote || a.screen == adjSearch && a.search.Capturing()
}

func (a *adjudicator) dispute() *Dispute {
	if len(a.in.Disputes) == 0 {
		return nil
	}
	return &a.in.Disputes[a.cur]
}

// item is the current dispute's item as screens draw it.
func (a *adjudicator) item() *blinding.Item {
	if d := a.dispute(); d != nil {
		return a.shownItem(d.Field.Item)
	}
	return nil
}

func (a *adjudicator) shownItem(id string) *blinding.Item {
	if it, ok := a.shown[id]; ok {
		return it
	}
	if a.in.Bundle == nil {
		return nil
	}
	orig := a.in.Bundle.Item(id)
	if orig == nil {
		return nil
	}
	it := shownCopy(*orig)
	a.shown[id] = &it
	return &it
}

// arrive shows the task of the current dispute's item when it has not
// been shown yet.
func (a *adjudicator) arrive() {
	it := a.item()
	if it == nil || a.seen[it.ID] || a.screen != adjMain {
		return
	}
	a.seen[it.ID] = true
	a.showTask()
}

func (a *adjudicator) showTask() {
	it := a.item()
	if it == nil {
		return
	}
	a.panel.open("Task of "+it.ID+" (esc: back to the dispute)", func() []string {
		return strings.Split(strings.TrimRight(it.TaskText, "\n"), "\n")
	})
	a.screen, a.onTask = adjPanel, true
}

// allowed returns the values the adjudicator may choose for d.
func allowedFor(d *Dispute) []string {
	if d.Field.Kind == adjudication.KindOracleDefect {
		return []string{adjudication.ValueDefective, adjudication.ValueWithdrawn}
	}
	return adjudication.AllowedValues(d.Field.Kind)
}

// otherValues returns the allowed values of d that neither rating chose:
// what v can add. A two-valued field where the raters disagree has none.
func otherValues(d *Dispute) []string {
	var out []string
	for _, v := range allowedFor(d) {
		if v != d.Values[0] && v != d.Values[1] {
			out = append(out, v)
		}
	}
	return out
}

func showValue(v string, k adjudication.Kind) string {
	if v == "" && k == adjudication.KindOracleDefect {
		return "no flag (not a defect)"
	}
	return strings.ReplaceAll(v, "_", " ")
}

func (a *adjudicator) setEnabled() {
	// The decision and move keys also work while the answer is shown.
	main := (a.screen == adjMain || a.screen == adjAnswer) && !a.signed && len(a.in.Disputes) > 0
	a.keys.First.SetEnabled(main)
	a.keys.Second.SetEnabled(main)
	a.keys.Other.SetEnabled(main && a.dispute() != nil && len(otherValues(a.dispute())) > 0)
	a.keys.Note.SetEnabled(main && a.dispute() != nil && a.decided(a.cur))
	a.keys.Up.SetEnabled((a.screen == adjMain || a.screen == adjAnswer) && len(a.in.Disputes) > 1)
	a.keys.Down.SetEnabled((a.screen == adjMain || a.screen == adjAnswer) && len(a.in.Disputes) > 1)
	a.keys.NextOpen.SetEnabled(main && a.open() > 0)
	a.keys.Evidence.SetEnabled(a.screen == adjMain && a.dispute() != nil)
	for _, b := range []*key.Binding{&a.keys.Task, &a.keys.Codebook, &a.keys.List, &a.keys.Search, &a.keys.DetailUp, &a.keys.DetailDown} {
		b.SetEnabled(a.screen == adjMain && a.dispute() != nil)
	}
	a.keys.Answer.SetEnabled(a.screen == adjMain && a.dispute() != nil && !a.wide())
	a.keys.AnswerUp.SetEnabled(a.screen == adjMain && a.wide())
	a.keys.AnswerDown.SetEnabled(a.screen == adjMain && a.wide())
	a.keys.Sign.SetEnabled(a.screen == adjMain && !a.signed)
	a.keys.Save.SetEnabled(a.screen == adjNote)
	a.keys.Cancel.SetEnabled(a.screen == adjOther)
	a.signer.setEnabled()
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

func (a *adjudicator) wide() bool { return a.w >= 110 }

// SetSize implements Component.
func (a *adjudicator) SetSize(w, h int) {
	a.w, a.h = w, h
	a.note.SetSize(w, h)
	a.answer.SetSize(w, h)
	a.panel.SetSize(w, h)
	a.list.SetSize(w, h)
	a.search.SetSize(w, h)
	a.signer.SetSize(w, h)
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
	case restyleMsg:
		a.answer.restyle()
		a.note.input.SetStyles(a.c.Styles.Input)
		a.search.input.SetStyles(a.c.Styles.Input)
		if a.viewer != nil {
			a.viewer.render()
		}
	case tea.KeyPressMsg:
		cmd = a.key(m)
		if a.screen != adjPanel && a.status == hintTaskFirst {
			a.setStatus("", false)
		}
	default:
		switch a.screen {
		case adjNote:
			_, cmd = a.note.Update(msg)
		case adjSearch:
			_, cmd = a.search.Update(msg)
		}
	}
	a.arrive()
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
	return signCmd(func() (string, error) { return sign(ds) })
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
	a.screen = adjNote
	cmd := a.note.open(openNoteMsg{field: a.dispute().Field, text: text})
	a.note.input.Placeholder = "reason for this final value"
	return cmd
}

// noteContext renders the dispute and the value the note is for.
func (a *adjudicator) noteContext(w int) []string {
	d := a.dispute()
	out := wrapLines(fieldContext(a.c.Styles, a.item(), d.Field), w)
	return append(out, "", a.c.Styles.Header.Render("Note for final value "+showValue(a.noteFinal, d.Field.Kind)+" (required when neither rating chose it)"))
}

// noteDone takes the note editor's result: a saved note decides the
// dispute with the value it was opened for.
func (a *adjudicator) noteDone(m noteDoneMsg) tea.Cmd {
	a.screen = adjMain
	if !m.saved {
		return nil
	}
	d := a.dispute()
	if a.in.Check != nil {
		if err := a.in.Check(*d, a.noteFinal, m.text); err != nil {
			a.setStatus(err.Error(), true)
			a.screen = adjNote
			return nil
		}
	}
	a.note.close()
	return a.decide(a.noteFinal, m.text)
}

func (a *adjudicator) key(k tea.KeyPressMsg) tea.Cmd {
	switch a.screen {
	case adjEvidence:
		if a.viewer.closes(k) {
			a.viewer, a.screen = nil, adjMain
			return nil
		}
		_, cmd := a.viewer.Update(k)
		return cmd
	case adjNote:
		_, cmd := a.note.Update(k)
		return cmd
	case adjAnswer:
		if key.Matches(k, a.keys.First, a.keys.Second, a.keys.Other, a.keys.Up, a.keys.Down) {
			break // decide and move while reading the answer
		}
		_, cmd := a.answer.Update(k)
		return cmd
	case adjPanel:
		if a.onTask && pressedAny(k, a.keys.First, a.keys.Second, a.keys.Other, a.keys.Sign) {
			// The item's task is on screen first: say so, decide nothing.
			a.panel.hint = hintTaskFirst
			a.setStatus(hintTaskFirst, true)
			return nil
		}
		_, cmd := a.panel.Update(k)
		return cmd
	case adjList:
		_, cmd := a.list.Update(k)
		return cmd
	case adjSearch:
		_, cmd := a.search.Update(k)
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
		_, cmd := a.signer.Update(k)
		return cmd
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
	case key.Matches(k, a.keys.Answer):
		a.screen = adjAnswer
	case key.Matches(k, a.keys.AnswerDown):
		a.answer.scroll(max(a.h/2, 1))
	case key.Matches(k, a.keys.AnswerUp):
		a.answer.scroll(-max(a.h/2, 1))
	case key.Matches(k, a.keys.Task):
		a.showTask()
	case key.Matches(k, a.keys.Codebook):
		a.panel.open(guidelinesPanel(a.in.Bundle))
		a.screen, a.onTask = adjPanel, false
	case key.Matches(k, a.keys.List):
		a.list.cur = a.cur
		a.screen = adjList
	case key.Matches(k, a.keys.Search):
		a.screen = adjSearch
		return a.search.open()
	case key.Matches(k, a.keys.DetailDown):
		a.dy += max(a.h/4, 1)
	case key.Matches(k, a.keys.DetailUp):
		a.dy = max(a.dy-max(a.h/4, 1), 0)
	}
	return nil
}

// find searches the disputes: their item ID, field, context, values and
// notes.
func (a *adjudicator) find(q string) []searchHit {
	var hits []searchHit
	for i, d := range a.shownD {
		text := d.Field.Item + " " + fieldLabel(d.Field) + " " + ansi.Strip(strings.Join(fieldContext(a.c.Styles, a.shownItem(d.Field.Item), d.Field), " ")) +
			" " + d.Values[0] + " " + d.Notes[0] + " " + d.Values[1] + " " + d.Notes[1]
		if t := matchIn(text, q, a.w-30); t != "" {
			hits = append(hits, searchHit{i, -1, fmt.Sprintf("dispute %d %s", i+1, fieldLabel(d.Field)), t})
		}
		if len(hits) == maxHits {
			break
		}
	}
	return hits
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

// disputeLines renders the current dispute in w cells: its context
// (scrolled by dy), its question, both ratings with their notes and
// definitions, the decision and, when choosing, the choices.
func (a *adjudicator) disputeLines(w, h int) []string {
	st := a.c.Styles
	d := a.shownD[a.cur]
	if a.dyFor != a.cur {
		a.dyFor, a.dy = a.cur, 0
	}
	head := []string{st.Muted.Render(fmt.Sprintf("dispute %d/%d · %s", a.cur+1, len(a.in.Disputes), d.Field.Item))}
	var ctx []string
	if it := a.item(); it != nil {
		ctx = wrapLines(fieldContext(st, it, d.Field), w)
	}
	var bottom []string
	add := func(s ...string) { bottom = append(bottom, s...) }
	add(wrapLines([]string{st.Header.Render(codebook[d.Field.Kind].Question)}, w)...)
	add(st.Muted.Render(strings.Repeat("─", max(w, 1))))
	for i, name := range []string{"[1] first rating: ", "[2] second rating: "} {
		v := d.Values[i]
		def := ""
		vals := adjudication.AllowedValues(d.Field.Kind)
		for k, x := range vals {
			if x == v && k < len(codebook[d.Field.Kind].Short) {
				def = " — " + codebook[d.Field.Kind].Short[k]
			}
		}
		add(wrapLines([]string{st.Header.Render(name) + st.Value.Render(showValue(v, d.Field.Kind)) + st.Muted.Render(def)}, w)...)
		if d.Notes[i] != "" {
			add(wrapLines([]string{"    note: " + d.Notes[i]}, w)...)
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
	// The context takes what the rest leaves; what does not fit scrolls
	// (ctrl+d) with a mark, never cut.
	room := h - len(head) - len(bottom)
	if room < 3 {
		// Long notes: the whole dispute scrolls as one.
		all := append(append(head, ctx...), bottom...)
		return scrollWindow(st, all, &a.dy, h)
	}
	ctx = scrollWindow(st, ctx, &a.dy, room)
	return append(append(head, ctx...), bottom...)
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

// answerHead is what the full-screen answer shows above the answer.
func (a *adjudicator) answerHead(w int) []string {
	st := a.c.Styles
	d := a.shownD[a.cur]
	out := wrapLines([]string{st.Muted.Render(fmt.Sprintf("dispute %d/%d · ", a.cur+1, len(a.in.Disputes))) + fieldLabel(d.Field) + " · " + codebook[d.Field.Kind].Question,
		"[1] " + showValue(d.Values[0], d.Field.Kind) + "  [2] " + showValue(d.Values[1], d.Field.Kind) + "  v other value"}, w)
	return append(out, st.Muted.Render(strings.Repeat("─", max(w, 1))))
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
		return a.signer.View()
	case adjNote:
		return a.note.View()
	case adjAnswer:
		return a.answer.View()
	case adjPanel:
		return a.panel.View()
	case adjList:
		return a.list.View()
	case adjSearch:
		return a.search.View()
	}
	if !a.wide() {
		return tea.NewView(strings.Join(a.disputeLines(a.w, a.h), "\n"))
	}
	lw := a.w / 2
	return tea.NewView(sideBySide(st, a.disputeLines(lw-1, a.h), a.answer.lines(a.w-lw-2, a.h), lw-1, a.h))
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

// newSignScreen returns the adjudicator's signing screen: the counts of
// the disputes and decisions, and y signs once every dispute is resolved
// (pressed while decisions are still being saved, signing follows their
// saving).
func (a *adjudicator) newSignScreen() *signScreen {
	meaning := a.in.Meaning
	if meaning == "" {
		meaning = "I resolved every disputed field against the frozen obligations."
	}
	sc := newSignScreen(a.c, "Sign the adjudication", a.in.Signer, "", meaning)
	sc.summary = func() []string {
		notes := 0
		for _, d := range a.decisions {
			if d != nil && d.Note != "" {
				notes++
			}
		}
		return []string{
			fmt.Sprintf("disputes:            %d", len(a.decisions)),
			fmt.Sprintf("resolved:            %d", a.resolved()),
			fmt.Sprintf("decisions with note: %d", notes),
		}
	}
	sc.status = func() signStatus {
		confirm := a.canSign() || a.canSignAfterSave()
		switch {
		case a.signed:
			return signStatus{line: "Signed: " + a.record, tone: toneOK, done: true}
		case a.queue.len() > 0 && a.signAfterSave:
			return signStatus{line: fmt.Sprintf("Saving %d decision(s) …; signing follows.", a.queue.len()), tone: toneWait, confirm: confirm}
		case a.queue.len() > 0:
			return signStatus{line: fmt.Sprintf("Saving %d decision(s) …; y signs once they are on disk.", a.queue.len()), tone: toneWait, confirm: confirm}
		case a.resolved() < len(a.decisions):
			return signStatus{line: fmt.Sprintf("Refused: %d disputes are open.", len(a.decisions)-a.resolved()), tone: toneRefused, confirm: confirm}
		case a.in.Sign == nil:
			return signStatus{line: "Refused: " + refusedSigning(a.in.NoSign), tone: toneRefused, confirm: confirm}
		case a.signing:
			return signStatus{line: "Signing …", tone: toneWait, confirm: confirm}
		}
		return signStatus{line: "Press y to sign, esc to go back.", confirm: confirm}
	}
	sc.confirm = func() tea.Cmd {
		if a.canSignAfterSave() {
			a.signAfterSave = true
			return nil
		}
		if !a.canSign() {
			return nil
		}
		return a.sign()
	}
	sc.cancel = func() tea.Cmd {
		a.screen = adjMain
		a.signAfterSave = false
		return nil
	}
	return sc
}

// ShortHelp implements help.KeyMap.
func (a *adjudicator) ShortHelp() []key.Binding {
	switch a.screen {
	case adjEvidence:
		return a.viewer.ShortHelp()
	case adjOther:
		return []key.Binding{a.keys.Values[0], a.keys.Values[1], a.keys.Values[2], a.keys.Cancel}
	case adjNote:
		return a.note.ShortHelp()
	case adjSign:
		return a.signer.ShortHelp()
	case adjAnswer:
		return a.answer.ShortHelp()
	case adjPanel:
		return a.panel.ShortHelp()
	case adjList:
		return a.list.ShortHelp()
	case adjSearch:
		return a.search.ShortHelp()
	}
	return []key.Binding{a.keys.First, a.keys.Second, a.keys.Other, a.keys.Down, a.keys.Up, a.keys.Task, a.keys.Answer, a.keys.Evidence, a.keys.Sign}
}

// FullHelp implements help.KeyMap.
func (a *adjudicator) FullHelp() [][]key.Binding {
	switch a.screen {
	case adjMain:
	case adjPanel, adjEvidence:
		return a.active().FullHelp()
	default:
		return [][]key.Binding{a.ShortHelp()}
	}
	return [][]key.Binding{
		{a.keys.First, a.keys.Second, a.keys.Other, a.keys.Note},
		{a.keys.Up, a.keys.Down, a.keys.NextOpen, a.keys.List, a.keys.Search},
		{a.keys.Task, a.keys.Codebook, a.keys.Evidence, a.keys.Answer, a.keys.AnswerDown, a.keys.AnswerUp},
		{a.keys.DetailDown, a.keys.DetailUp, a.keys.Sign},
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

// active is the component of a screen that has one (panel, evidence).
func (a *adjudicator) active() Component {
	if a.screen == adjEvidence {
		return a.viewer
	}
	return a.panel
}

// disputeList lists the disputes with their state; enter goes to one.
type disputeList struct {
	c    *Common
	a    *adjudicator
	keys ListKeyMap
	back func() tea.Cmd
	cur  int
	w, h int
}

func newDisputeList(c *Common, a *adjudicator, back func() tea.Cmd) *disputeList {
	k := DefaultListKeyMap()
	k.Up.SetHelp("↑/k", "prev dispute")
	k.Down.SetHelp("↓/j", "next dispute")
	k.Open.SetHelp("enter", "open dispute")
	k.Flag.SetEnabled(false)
	return &disputeList{c: c, a: a, keys: k, back: back}
}

// Init implements tea.Model.
func (l *disputeList) Init() tea.Cmd { return nil }

// SetSize implements Component.
func (l *disputeList) SetSize(w, h int) { l.w, l.h = w, h }

// Update implements tea.Model.
func (l *disputeList) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return l, nil
	}
	n := len(l.a.in.Disputes)
	switch {
	case key.Matches(k, l.keys.Close):
		return l, l.back()
	case key.Matches(k, l.keys.Down):
		l.cur = min(l.cur+1, n-1)
	case key.Matches(k, l.keys.Up):
		l.cur = max(l.cur-1, 0)
	case key.Matches(k, l.keys.Open):
		l.a.cur = l.cur
		return l, l.back()
	}
	return l, nil
}

// View implements tea.Model.
func (l *disputeList) View() tea.View {
	st := l.c.Styles
	a := l.a
	out := []string{st.Header.Render("Disputes") + st.Muted.Render(fmt.Sprintf("  %d/%d resolved", a.resolved(), len(a.in.Disputes)))}
	lh := max(l.h-1, 1)
	start := min(max(l.cur-lh/2, 0), max(len(a.in.Disputes)-lh, 0))
	for i := start; i < min(start+lh, len(a.in.Disputes)); i++ {
		d := a.shownD[i]
		state := st.Warn.Render("open")
		if dec, saved := a.decision(i); dec != nil {
			state = showValue(dec.Final, d.Field.Kind)
			if saved {
				state = st.OK.Render(state + " ✓")
			} else {
				state += " …"
			}
		}
		row := fmt.Sprintf(" %3d  %s  %-24s %s", i+1, d.Field.Item, fieldLabel(d.Field), state)
		if i == l.cur {
			row = st.Selected.Render(pad("›"+ansi.Strip(row[1:]), l.w))
		}
		out = append(out, row)
	}
	return tea.NewView(strings.Join(out, "\n"))
}

// ShortHelp implements help.KeyMap.
func (l *disputeList) ShortHelp() []key.Binding {
	return []key.Binding{l.keys.Down, l.keys.Up, l.keys.Open, l.keys.Close}
}

// FullHelp implements help.KeyMap.
func (l *disputeList) FullHelp() [][]key.Binding { return [][]key.Binding{l.ShortHelp()} }
