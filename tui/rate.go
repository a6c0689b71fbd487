package tui

import (
	"context"
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"verdict/adjudication"
	"verdict/blinding"
)

// RateInput is what the rater's program needs. The journal is opened (and
// locked) by the caller; the program records every grade through
// Journal.Append and never grades by itself.
type RateInput struct {
	// Bundle is the rater's bundle.
	Bundle *blinding.Bundle
	// Journal is the open journal of this bundle.
	Journal *adjudication.Journal
	// Signer is shown on the freeze screen.
	Signer Signer
	// Meaning is the meaning of the signature, shown before signing.
	Meaning string
	// Freeze freezes and signs the sheet from the journal; it returns a
	// one-line description of what was written (e.g. the sheet's path).
	// It is called only when every required field is graded.
	Freeze func() (string, error)
	// NoFreeze is the refusal the freeze screen shows when Freeze is nil
	// (default: no --key and --name configured); an SSH session without a
	// forwarded agent names the command that reconnects with one.
	NoFreeze string
	// Clock measures the time spent on each item (default time.Now). The
	// time is recorded in the journal with each grade, shown per item in
	// the item list and carried into the sheet's item_times; it is not a
	// grade.
	Clock func() time.Time
}

// RateResult is what a rating session ended with.
type RateResult struct {
	// Graded and Total count required fields (Graded ≤ Total).
	Graded, Total int
	// Flagged counts the items whose flag to come back to is saved in the
	// journal (adjudication.KindItemFlag).
	Flagged int
	// Frozen is true when the sheet was frozen and signed; Sheet then
	// describes it (Freeze's return value).
	Frozen bool
	Sheet  string
	// DraftNotes counts the notes written on fields left ungraded: they
	// were not saved (the rater was told and left anyway).
	DraftNotes int
}

// Rate runs the rater's program until the rater leaves and reports the
// progress. Every grade the screen showed as saved is in the journal.
func Rate(ctx context.Context, in RateInput, o Options) (RateResult, error) {
	r, err := runProgram[*rater](ctx, NewRateModel(in, o), o)
	return r.result(), err
}

// NewRateModel returns the rater program's root model, positioned at the
// first ungraded field (resume).
func NewRateModel(in RateInput, o Options) tea.Model {
	return newProgram(o, func(c *Common) program { return newRater(c, in) })
}

type rateScreen int

const (
	screenGrade rateScreen = iota
	screenList
	screenAnswer
	screenEvidence
	screenNote
	screenFreeze
	screenPanel
	screenSearch
)

// showMsg asks the rater to show one of its screens.
type showMsg struct{ screen rateScreen }

// showTaskMsg and showCodebookMsg ask for the task and codebook panels.
type (
	showTaskMsg     struct{}
	showCodebookMsg struct{}
)

// rater is the rater's program: the shared state and one component per
// screen; it forwards each message to the active screen only.
type rater struct {
	pane
	*rateState
	screen rateScreen
	grade  *gradePane
	list   *itemList
	answer *answerPane
	note   *noteEditor
	panel  *panel
	search *searchScreen
	viewer *evidenceViewer
	// onTask is set while the panel shows the current item's task.
	onTask bool
}

func newRater(c *Common, in RateInput) *rater {
	s := newRateState(c, in)
	r := &rater{rateState: s, list: newItemList(s), note: newNoteEditor(c)}
	back := func() tea.Cmd { return r.route(showMsg{screenGrade}) }
	r.answer = newAnswerPane(c, func() (*blinding.Item, adjudication.Field) { return s.curItem(), s.cur() }, back)
	r.grade = newGradePane(s, r.answer)
	r.answer.head = r.grade.head
	r.panel = newPanel(c, DefaultPanelKeyMap("t", "g"), back)
	r.search = newSearchScreen(c, "every item's task, fields, answer and IDs", r.searchRate, func(h searchHit) tea.Cmd { return r.route(h) }, back)
	r.note.context = r.noteContext
	r.note.done = func(m noteDoneMsg) tea.Cmd { return r.route(m) }
	s.send = r.route
	r.afterKey()
	r.setEnabled()
	return r
}

// afterKey shows the task of an item reached for the first time.
func (r *rater) afterKey() {
	if r.arrived && (r.screen == screenGrade || r.screen == screenAnswer) {
		r.arrived = false
		r.showTask()
	}
}

// showTask opens the task panel of the current item.
func (r *rater) showTask() {
	it := r.curItem()
	how := "grading keys apply"
	if r.freeze.signed {
		how = "the sheet is frozen"
	}
	r.panel.openTask(fmt.Sprintf("Task of item %d/%d · %s (esc back · %s)", r.item+1, len(r.fields), it.ID, how), it, r.taskPin)
	r.screen, r.onTask = screenPanel, true
}

// taskPin is what the task panel keeps below the task in w cells: the
// field a grading key typed there grades, its text (at most a few lines,
// the rest on the grading screen) and its question with the choices.
func (r *rater) taskPin(w int) []string {
	if r.freeze.signed {
		return nil
	}
	st := r.c.Styles
	f := r.cur()
	out := []string{st.Muted.Render(strings.Repeat("─", max(w, 1))),
		st.Header.Render(fmt.Sprintf("grading keys grade field %d/%d · %s", r.field+1, len(r.fields[r.item]), fieldLabel(f)))}
	out = append(out, pinCapped(st, wrapLines(r.grade.fieldDetail(f), w), max(r.h/7, 3))...)
	return append(out, r.grade.choices(f, w)...)
}

// showCodebook opens the campaign's guidelines and the built-in codebook.
func (r *rater) showCodebook() {
	r.panel.open(guidelinesPanel(r.in.Bundle))
	r.screen, r.onTask = screenPanel, false
}

// result reports the session as the journal has it, not as the screen
// has taken in the saves: a grade or flag whose Append or SetFlag
// returned just before the rater left is on disk and counts, even when
// its save message never reached Update (q pressed in between).
func (r *rater) result() RateResult {
	saved, _ := r.in.Journal.Saved()
	graded := 0
	for _, fs := range r.fields {
		for _, f := range fs {
			if _, ok := saved[f]; ok {
				graded++
			}
		}
	}
	return RateResult{Graded: graded, Total: r.nTotal, Flagged: len(r.in.Journal.Flags()), Frozen: r.freeze.signed, Sheet: r.freeze.record, DraftNotes: len(r.drafts)}
}

// Capturing reports whether a text editor (note, search) has the keyboard.
func (r *rater) Capturing() bool {
	return r.screen == screenNote || r.screen == screenSearch && r.search.Capturing()
}

// active is the component of the current screen.
func (r *rater) active() Component {
	switch r.screen {
	case screenList:
		return r.list
	case screenAnswer:
		return r.answer
	case screenEvidence:
		return r.viewer
	case screenNote:
		return r.note
	case screenFreeze:
		return r.freeze
	case screenPanel:
		return r.panel
	case screenSearch:
		return r.search
	}
	return r.grade
}

// setEnabled enables exactly the bindings that do something now.
func (r *rater) setEnabled() {
	r.grade.setEnabled(r.screen == screenGrade, r.screen == screenAnswer)
	r.list.setEnabled()
	r.freeze.setEnabled(r.screen == screenFreeze)
}

// SetSize implements Component.
func (r *rater) SetSize(w, h int) {
	r.w, r.h = w, h
	r.grade.SetSize(w, h)
	r.list.SetSize(w, h)
	r.answer.SetSize(w, h)
	r.note.SetSize(w, h)
	r.freeze.SetSize(w, h)
	r.panel.SetSize(w, h)
	r.search.SetSize(w, h)
	if r.viewer != nil {
		r.viewer.SetSize(w, h)
	}
	r.setEnabled()
}

// Update implements tea.Model.
func (r *rater) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	cmd := r.route(msg)
	r.afterKey()
	r.setEnabled()
	return r, cmd
}

// route handles one message: the rater's own, then keys and the rest for
// the active screen.
func (r *rater) route(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	switch m := msg.(type) {
	case savedMsg[adjudication.Grade]:
		cmd = r.onSaved(m)
	case savedMsg[itemFlag]:
		cmd = r.onFlagSaved(m)
	case signedMsg:
		r.setStatus(r.freeze.done(m), m.err != nil)
	case restyleMsg:
		r.answer.restyle()
		r.note.input.SetStyles(r.c.Styles.Note)
		r.search.input.SetStyles(r.c.Styles.Input)
		if r.viewer != nil {
			r.viewer.render()
		}
	case showMsg:
		cmd = r.open(m.screen)
	case showTaskMsg:
		r.showTask()
	case showCodebookMsg:
		r.showCodebook()
	case openEvidenceMsg:
		r.viewer = newEvidenceViewer(r.c, m.refs, 0)
		r.viewer.SetSize(r.w, r.h)
		r.screen = screenEvidence
	case openNoteMsg:
		r.screen = screenNote
		cmd = r.note.open(m)
	case noteDoneMsg:
		r.screen = screenGrade
		if m.saved {
			cmd = r.saveNote(m)
		}
	case searchHit:
		r.gotoItem(m.index)
		r.field = max(m.field, 0)
		r.screen = screenGrade
	case closeEvidenceMsg:
		r.viewer = nil
		r.screen = screenGrade
	case tea.KeyPressMsg:
		if r.screen == screenPanel && r.onTask && r.panel.passes(m, r.grade.keys.all()...) {
			// A grading or moving key typed on the task: the task closes
			// and the key applies, so that typing ahead loses nothing.
			r.screen = screenGrade
			r.setEnabled()
			_, cmd = r.grade.Update(m)
			break
		}
		if r.screen == screenEvidence && r.viewer.closes(m) {
			r.viewer, r.screen = nil, screenGrade
			break
		}
		if r.screen == screenAnswer && r.grade.grades(m) {
			// Below 110 columns the answer is full screen: the value and
			// field keys keep working there.
			_, cmd = r.grade.Update(m)
			break
		}
		if r.screen == screenAnswer && r.answer.passes(m, r.grade.keys.all()...) {
			// Any other key of the grading screen: back to it, the key
			// applied, rather than a key that does nothing.
			r.screen = screenGrade
			r.setEnabled()
			_, cmd = r.grade.Update(m)
			break
		}
		_, cmd = r.active().Update(m)
	default:
		switch r.screen {
		case screenNote:
			_, cmd = r.note.Update(msg)
		case screenSearch:
			_, cmd = r.search.Update(msg)
		}
	}
	return cmd
}

// open shows screen s.
func (r *rater) open(s rateScreen) tea.Cmd {
	switch s {
	case screenList:
		r.list.cur = r.item
	case screenSearch:
		r.screen = s
		return r.search.open()
	}
	r.screen = s
	return nil
}

// ---- view ----

func (r *rater) title() string {
	b := r.in.Bundle
	s := "verdict rate · rater " + b.Rater
	if r.in.Signer.Name != "" && r.in.Signer.Name != b.Rater {
		s += " (" + r.in.Signer.Name + ")"
	}
	if b.Synthetic {
		s = "SYNTHETIC · " + s
	}
	return s
}

func (r *rater) statusLine() string {
	st := r.c.Styles
	p := fmt.Sprintf(" %d/%d fields · %d/%d items", r.nGraded, r.nTotal, r.itemsDone(), len(r.fields))
	if n := r.nFlagged(); n > 0 {
		// Flags are saved in the journal: a resumed session shows them here
		// and in the item list (l).
		p += fmt.Sprintf(" · ⚑ %d flagged", n)
	}
	if r.freeze.signed {
		p += " · frozen"
	} else if r.nGraded == r.nTotal && r.nTotal > 0 && r.screen != screenFreeze {
		p += " · " + st.OK.Render("every field graded: press F to freeze")
	}
	if r.status == "" {
		return p
	}
	s := r.status
	if r.statusErr {
		s = st.Finding.Render(s)
	} else if strings.HasPrefix(s, "saved") || strings.HasPrefix(s, "frozen") {
		s = st.OK.Render(s)
	}
	return p + " · " + s
}

// View implements tea.Model.
func (r *rater) View() tea.View {
	if len(r.fields) == 0 {
		return tea.NewView("the bundle has no item")
	}
	return r.active().View()
}

// ShortHelp implements help.KeyMap: on the full-screen answer the value
// keys, which work there, come first.
func (r *rater) ShortHelp() []key.Binding {
	if r.screen == screenAnswer {
		k := r.grade.keys
		return append([]key.Binding{k.Values[0], k.Values[1], k.Values[2], k.Values[3], k.Down, k.Up, k.Evidence}, r.answer.ShortHelp()...)
	}
	return r.active().ShortHelp()
}

// FullHelp implements help.KeyMap.
func (r *rater) FullHelp() [][]key.Binding {
	if r.screen == screenAnswer {
		k := r.grade.keys
		return [][]key.Binding{{k.Values[0], k.Values[1], k.Values[2], k.Values[3], k.Down, k.Up, k.Evidence}, r.answer.ShortHelp()}
	}
	return r.active().FullHelp()
}
