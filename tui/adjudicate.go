package tui

import (
	"context"
	"strings"

	tea "charm.land/bubbletea/v2"

	"verdict/adjudication"
	"verdict/blinding"
)

// Dispute is one field on which two frozen sheets differ: the values and
// notes of the first and the second rating (never the raters' names).
// An empty value of an oracle_defect field means that rating raised no flag.
//
// NoteFindings[i] are the leak-scan findings in Notes[i], shown under the
// note (the note itself is shown as written).
type Dispute struct {
	Field        adjudication.Field
	Values       [2]string
	Notes        [2]string
	NoteFindings [2][]adjudication.NoteFinding
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
	// Agreement is the agreement of the two frozen sheets
	// (adjudication.AgreementOf, the one definition verdict agreement
	// prints), shown with the disputes and before signing; nil shows none.
	Agreement *adjudication.Agreement
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
	a, err := runProgram[*adjudicator](ctx, NewAdjudicateModel(in, o), o)
	return a.result(), err
}

// NewAdjudicateModel returns the adjudicator program's root model.
func NewAdjudicateModel(in AdjudicateInput, o Options) tea.Model {
	return newProgram(o, func(c *Common) program { return newAdjudicator(c, in) })
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
	pane
	c         *Common
	keys      AdjudicateKeyMap
	in        AdjudicateInput
	decisions []*Decision // saved decisions (or, without Record, kept ones)
	// queue holds decisions made but not yet returned by Record, in order.
	queue     *saveQueue[pendingDecision]
	cur       int
	screen    adjScreen
	note      *noteEditor
	noteFinal string // the value the note editor will save with
	viewer    *evidenceViewer
	answer    *answerPane
	panel     *panel
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
	a.search = newSearchScreen(c, "every dispute's field, ratings and notes, and its item's task and answer", a.find, func(h searchHit) tea.Cmd { a.cur, a.screen = h.index, adjMain; return nil }, back)
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
	res := AdjudicateResult{Total: len(a.decisions), Signed: a.signer.signed, Record: a.signer.record}
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
	title := "Task of " + it.ID + " (esc back · decision keys apply)"
	if a.signer.signed {
		title = "Task of " + it.ID + " (esc back · the adjudication is signed)"
	}
	a.panel.openTask(title, it, a.taskPin)
	a.screen, a.onTask = adjPanel, true
}

// taskPin is what the task panel keeps below the task in w cells: the
// dispute a decision key typed there decides, its field's text (at most a
// few lines, the rest on the dispute screen), the question and both
// ratings.
func (a *adjudicator) taskPin(w int) []string {
	if a.signer.signed {
		return nil
	}
	st := a.c.Styles
	head, ctx, bottom := a.disputeParts(w)
	out := []string{st.Muted.Render(strings.Repeat("─", max(w, 1))),
		st.Header.Render("decision keys decide ") + head[0]}
	out = append(out, pinCapped(st, ctx, max(a.h/7, 3))...)
	return append(out, bottom...)
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
		a.setStatus("adjudication "+a.signer.done(m), m.err != nil)
	case savedMsg[pendingDecision]:
		cmd = a.onDecided(m)
	case closeEvidenceMsg:
		a.viewer = nil
		a.screen = adjMain
	case restyleMsg:
		a.answer.restyle()
		a.note.input.SetStyles(a.c.Styles.Note)
		a.search.input.SetStyles(a.c.Styles.Input)
		if a.viewer != nil {
			a.viewer.render()
		}
	case tea.KeyPressMsg:
		cmd = a.key(m)
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

// UseDecisionLog wires in to an open decision log: the disputes are the
// log's disagreements, Saved its current decisions (resume), Check is
// adjudication.CheckResolution and Record appends to the log (fsync'd
// before it returns).
func (in *AdjudicateInput) UseDecisionLog(l *adjudication.DecisionLog) {
	in.Disputes = nil
	for _, d := range l.Disputes() {
		in.Disputes = append(in.Disputes, Dispute{Field: d.Field, Values: d.Values, Notes: d.Notes, NoteFindings: d.NoteFindings})
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

// active is the component of the current screen; nil on the dispute
// screen and the other-value prompt, which the adjudicator draws itself.
func (a *adjudicator) active() Component {
	switch a.screen {
	case adjEvidence:
		return a.viewer
	case adjSign:
		return a.signer
	case adjNote:
		return a.note
	case adjAnswer:
		return a.answer
	case adjPanel:
		return a.panel
	case adjList:
		return a.list
	case adjSearch:
		return a.search
	}
	return nil
}
