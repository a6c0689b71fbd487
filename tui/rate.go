package tui

import (
	"context"
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"verdict/adjudication"
	"verdict/blinding"
)

// Signer is who signs a frozen sheet, as the freeze screen shows it.
type Signer struct {
	// Name is the rater's name; Fingerprint the SSH key fingerprint
	// ("SHA256:...").
	Name, Fingerprint string
}

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
}

// Rate runs the rater's program until the rater leaves and reports the
// progress. Every grade the screen showed as saved is in the journal.
func Rate(ctx context.Context, in RateInput, o Options) (RateResult, error) {
	m := NewRateModel(in, o)
	final, err := run(ctx, m, o)
	if r, ok := final.(*root); ok {
		return r.child.(*rater).result(), err
	}
	return m.(*root).child.(*rater).result(), err
}

// NewRateModel returns the rater program's root model, positioned at the
// first ungraded field (resume).
func NewRateModel(in RateInput, o Options) tea.Model {
	c := &Common{Width: o.Width, Height: o.Height, Styles: o.styles()}
	r := newRater(c, in)
	rt := newRoot(c, r, r.title, r.statusLine)
	rt.auto = o.autoTheme()
	return rt
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

// rateState is what the rater's components share: the bundle, the fields,
// every grade saved or waiting in the save queue, the cursor and the
// progress. Components read it and change it through its methods.
type rateState struct {
	c      *Common
	in     RateInput
	clock  func() time.Time
	fields [][]adjudication.Field // required fields per item
	saved  map[adjudication.Field]adjudication.Grade
	// queue holds grades typed but not yet returned by Journal.Append.
	queue   *saveQueue[adjudication.Grade]
	graded  []int // saved required fields per item
	nGraded int
	nTotal  int

	item, field int
	mark        time.Time // start of the current stretch of work on item
	status      string
	statusErr   bool
	frozen      bool
	sheet       string
	freezing    bool
	// shown are the items as screens draw them (shownCopy), made on
	// first use.
	shown map[int]*blinding.Item
	// seen marks the items whose task was shown on arrival; arrived is set
	// when the cursor reached an item whose task has not been shown yet.
	seen    map[int]bool
	arrived bool
	// drafts are notes written before their field was graded; the grade
	// carries them when it is recorded.
	drafts map[adjudication.Field]string
	// flagged marks the items whose flag to come back to (f) is saved in
	// the journal (KindItemFlag entries); flagQueue holds flag changes not
	// yet saved. isFlagged is what the screens show.
	flagged   map[int]bool
	flagQueue *saveQueue[itemFlag]
	// spentOn is the saved time per item ID (the journal's spent_ms sums),
	// shown in the item list.
	spentOn map[string]time.Duration
	// send delivers a component's request (showMsg, openEvidenceMsg,
	// openNoteMsg) to the rater at once, so that keys typed ahead reach
	// the screen the request opened.
	send func(tea.Msg) tea.Cmd
}

func newRateState(c *Common, in RateInput) *rateState {
	s := &rateState{c: c, in: in, clock: in.Clock,
		shown: map[int]*blinding.Item{}, seen: map[int]bool{}, drafts: map[adjudication.Field]string{}, flagged: map[int]bool{}}
	if s.clock == nil {
		s.clock = time.Now
	}
	j := in.Journal
	s.queue = newSaveQueue(func(g adjudication.Grade) error { return j.Append(g) })
	s.flagQueue = newSaveQueue(func(f itemFlag) error { return j.SetFlag(in.Bundle.Items[f.item].ID, f.on) })
	s.graded = make([]int, len(in.Bundle.Items))
	s.fields = make([][]adjudication.Field, len(in.Bundle.Items))
	for i := range in.Bundle.Items {
		s.fields[i] = adjudication.RequiredFields(&in.Bundle.Items[i])
		s.nTotal += len(s.fields[i])
	}
	s.saved, s.spentOn = in.Journal.Saved()
	if flags := in.Journal.Flags(); len(flags) > 0 {
		for i := range in.Bundle.Items {
			if flags[in.Bundle.Items[i].ID] {
				s.flagged[i] = true
			}
		}
	}
	// Saved grades are counted per item (a resumed journal); a new one
	// has none, and the map of every required field is not built.
	if len(s.saved) > 0 {
		req := make(map[adjudication.Field]int, s.nTotal)
		for i, fs := range s.fields {
			for _, f := range fs {
				req[f] = i
			}
		}
		for f := range s.saved {
			if i, ok := req[f]; ok {
				s.graded[i]++
				s.nGraded++
			}
		}
	}
	// Resume at the first ungraded field of the bundle.
	s.item, s.field = 0, 0
	s.seekUngraded(0, -1)
	s.arrive()
	s.mark = s.clock()
	return s
}

// arrive notes the arrival at the current item: its task is shown first
// when it has not been shown in this session.
func (s *rateState) arrive() {
	if len(s.fields) > 0 && !s.seen[s.item] {
		s.seen[s.item] = true
		s.arrived = true
	}
}

func (s *rateState) cur() adjudication.Field {
	if len(s.fields) == 0 || len(s.fields[s.item]) == 0 {
		return adjudication.Field{}
	}
	return s.fields[s.item][s.field]
}

// curItem is the current item as screens draw it.
func (s *rateState) curItem() *blinding.Item { return s.shownItem(s.item) }

// shownItem is item i with every text made visible (visibleText).
func (s *rateState) shownItem(i int) *blinding.Item {
	if it, ok := s.shown[i]; ok {
		return it
	}
	it := shownCopy(s.in.Bundle.Items[i])
	s.shown[i] = &it
	return &it
}

// value returns the value the screen shows for f: the last pending one if
// any (not yet saved), else the saved one.
func (s *rateState) value(f adjudication.Field) (g adjudication.Grade, saved, ok bool) {
	if g, ok := s.queue.latest(func(p adjudication.Grade) bool { return p.Field == f }); ok {
		return g, false, true
	}
	g, ok = s.saved[f]
	return g, ok, ok
}

func (s *rateState) isGraded(f adjudication.Field) bool {
	_, _, ok := s.value(f)
	return ok
}

// seekUngraded moves to the first field without a value after (item, idx)
// in bundle order, wrapping around; it stays when every field has one.
func (s *rateState) seekUngraded(item, idx int) bool {
	n := len(s.fields)
	for step := 0; step <= n; step++ {
		i := (item + step) % n
		start := 0
		if step == 0 {
			start = idx + 1
		}
		for k := start; k < len(s.fields[i]); k++ {
			if !s.isGraded(s.fields[i][k]) {
				s.gotoItem(i)
				s.field = k
				return true
			}
		}
	}
	// Wrapped: the fields of the start item before idx.
	for k := 0; k <= idx && k < len(s.fields[item]); k++ {
		if !s.isGraded(s.fields[item][k]) {
			s.gotoItem(item)
			s.field = k
			return true
		}
	}
	return false
}

func (s *rateState) gotoItem(i int) {
	if i != s.item {
		s.item = i
		s.field = 0
		s.mark = s.clock()
		s.arrive()
	}
}

// spent returns the time since the last grade on this item (or since the
// item was opened) and restarts the stretch.
func (s *rateState) spent() time.Duration {
	now := s.clock()
	d := now.Sub(s.mark)
	s.mark = now
	return max(d, 0)
}

// record queues g for Journal.Append; Appends run one at a time, in order.
// It reports false when the grade was refused (and not queued).
func (s *rateState) record(g adjudication.Grade) (tea.Cmd, bool) {
	if err := adjudication.CheckGrade(s.in.Bundle, g); err != nil {
		s.setStatus(err.Error(), true)
		return nil, false
	}
	s.setStatus("saving "+fieldLabel(g.Field)+" …", false)
	delete(s.drafts, g.Field)
	return s.queue.push(g), true
}

func (s *rateState) onSaved(m savedMsg[adjudication.Grade]) tea.Cmd {
	next := s.queue.done(m)
	if m.err != nil {
		s.setStatus("NOT saved: "+m.err.Error(), true)
		return nil
	}
	f := m.v.Field
	s.spentOn[f.Item] += m.v.Spent
	if f.Kind == adjudication.KindOracleDefect && m.v.Value == adjudication.ValueWithdrawn {
		delete(s.saved, f)
	} else {
		_, had := s.saved[f]
		s.saved[f] = m.v
		if !had && f.Kind != adjudication.KindOracleDefect {
			for i := range s.fields {
				if s.in.Bundle.Items[i].ID == f.Item {
					s.graded[i]++
					break
				}
			}
			s.nGraded++
		}
	}
	what := m.v.Value
	if what == "" {
		what = "withdrawn"
	}
	s.setStatus("saved ✓ "+fieldLabel(f)+" = "+what, false)
	return next
}

// itemFlag is a change of item's flag (index in the bundle) waiting in
// the flag save queue: on flags it, off clears it.
type itemFlag struct {
	item int
	on   bool
}

// isFlagged reports whether item i is flagged as the screens show it: its
// newest unsaved flag change, else its saved flag.
func (s *rateState) isFlagged(i int) bool {
	if f, ok := s.flagQueue.latest(func(f itemFlag) bool { return f.item == i }); ok {
		return f.on
	}
	return s.flagged[i]
}

// nFlagged counts the items isFlagged reports.
func (s *rateState) nFlagged() int {
	n := 0
	for i := range s.fields {
		if s.isFlagged(i) {
			n++
		}
	}
	return n
}

// toggleFlag queues flagging item i (or clearing its flag) for the
// journal; the status says saved only when the entry is on disk.
func (s *rateState) toggleFlag(i int) tea.Cmd {
	f := itemFlag{item: i, on: !s.isFlagged(i)}
	s.setStatus(fmt.Sprintf("saving the flag of item %d …", i+1), false)
	return s.flagQueue.push(f)
}

// onFlagSaved takes in the end of one flag save.
func (s *rateState) onFlagSaved(m savedMsg[itemFlag]) tea.Cmd {
	next := s.flagQueue.done(m)
	if m.err != nil {
		s.setStatus("NOT saved: flag of item "+fmt.Sprint(m.v.item+1)+": "+m.err.Error(), true)
		return nil
	}
	if m.v.on {
		s.flagged[m.v.item] = true
		s.setStatus(fmt.Sprintf("saved ✓ item %d flagged to come back to (l lists the flags)", m.v.item+1), false)
	} else {
		delete(s.flagged, m.v.item)
		s.setStatus(fmt.Sprintf("saved ✓ item %d: flag removed", m.v.item+1), false)
	}
	return next
}

func (s *rateState) setStatus(msg string, isErr bool) { s.status, s.statusErr = msg, isErr }

func (s *rateState) canFreeze() bool {
	return !s.frozen && !s.freezing && s.nGraded == s.nTotal && s.queue.len() == 0 && s.flagQueue.len() == 0 && s.in.Freeze != nil
}

func (s *rateState) itemsDone() int {
	n := 0
	for i := range s.fields {
		if s.graded[i] == len(s.fields[i]) {
			n++
		}
	}
	return n
}

func fieldLabel(f adjudication.Field) string {
	if f.Kind == adjudication.KindCompleteness {
		return "completeness"
	}
	return f.Target + " " + string(f.Kind)
}

// rater is the rater's program: the shared state and one component per
// screen; it forwards each message to the active screen only.
type rater struct {
	*rateState
	screen rateScreen
	grade  *gradePane
	list   *itemList
	answer *answerPane
	note   *noteEditor
	freeze *signScreen
	panel  *panel
	search *searchScreen
	viewer *evidenceViewer
	// onTask is set while the panel shows the current item's task.
	onTask bool
	w, h   int
}

func newRater(c *Common, in RateInput) *rater {
	s := newRateState(c, in)
	r := &rater{rateState: s, list: newItemList(s), note: newNoteEditor(c), freeze: newFreezeScreen(s)}
	back := func() tea.Cmd { return r.route(showMsg{screenGrade}) }
	r.answer = newAnswerPane(c, func() (*blinding.Item, adjudication.Field) { return s.curItem(), s.cur() }, back)
	r.grade = newGradePane(s, r.answer)
	r.answer.head = r.grade.head
	r.panel = newPanel(c, DefaultPanelKeyMap("t", "g"), back)
	r.search = newSearchScreen(c, r.searchRate, func(h searchHit) tea.Cmd { return r.route(h) }, back)
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
	r.panel.open(fmt.Sprintf("Task of item %d/%d · %s (esc: back to grading)", r.item+1, len(r.fields), it.ID), func() []string {
		return strings.Split(strings.TrimRight(it.TaskText, "\n"), "\n")
	})
	r.screen, r.onTask = screenPanel, true
}

// showCodebook opens the campaign's guidelines and the built-in codebook.
func (r *rater) showCodebook() {
	r.panel.open(guidelinesPanel(r.in.Bundle))
	r.screen, r.onTask = screenPanel, false
}

// blockedOnTask reports whether k is a grading key (a value or F) typed on
// the task panel; it then says so on the panel and the status line.
func (r *rater) blockedOnTask(k tea.KeyPressMsg) bool {
	g := r.grade.keys
	if r.screen != screenPanel || !r.onTask || !pressedAny(k, g.Values[0], g.Values[1], g.Values[2], g.Freeze) {
		return false
	}
	r.panel.hint = hintTaskFirst
	r.setStatus(hintTaskFirst, true)
	return true
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
	return RateResult{Graded: graded, Total: r.nTotal, Flagged: len(r.in.Journal.Flags()), Frozen: r.frozen, Sheet: r.sheet}
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
	r.freeze.setEnabled()
}

// Init implements tea.Model.
func (r *rater) Init() tea.Cmd { return nil }

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
	if r.screen != screenPanel && r.status == hintTaskFirst {
		r.setStatus("", false)
	}
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
		r.freezing = false
		if m.err != nil {
			r.setStatus("NOT frozen: "+m.err.Error(), true)
		} else {
			r.frozen, r.sheet = true, m.desc
			r.setStatus("frozen and signed: "+m.desc, false)
		}
	case restyleMsg:
		r.answer.restyle()
		r.note.input.SetStyles(r.c.Styles.Input)
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
		if r.blockedOnTask(m) {
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

// saveNote records the note the editor returned: an oracle-defect flag
// with its reason (or its withdrawal), or a graded field's note.
func (r *rater) saveNote(m noteDoneMsg) tea.Cmd {
	f := m.field
	var g adjudication.Grade
	if m.oracle {
		_, _, flagged := r.value(f)
		switch {
		case m.text != "":
			g = adjudication.Grade{Field: f, Value: adjudication.ValueDefective, Note: m.text}
		case flagged:
			g = adjudication.Grade{Field: f, Value: adjudication.ValueWithdrawn}
		default:
			r.setStatus("an oracle-defect flag needs a reason (EVALUATOR-CONTROLS C22)", true)
			r.screen = screenNote
			return nil
		}
	} else {
		old, _, ok := r.value(f)
		r.note.close()
		if !ok {
			// A note before the grade: kept until the field is graded.
			if m.text == "" {
				delete(r.drafts, f)
				r.setStatus("draft note removed", false)
			} else {
				r.drafts[f] = m.text
				r.setStatus("note kept: it is saved with the grade of "+fieldLabel(f), false)
			}
			return nil
		}
		g = adjudication.Grade{Field: f, Value: old.Value, Note: m.text}
	}
	r.note.close()
	g.Spent = r.spent()
	cmd, _ := r.record(g)
	return cmd
}

// noteContext renders the field whose note is edited; an oracle-defect
// reason shows its obligation.
func (r *rater) noteContext(w int) []string {
	f := r.note.field
	if r.note.oracle {
		f.Kind = adjudication.KindObligation
		for _, o := range r.curItem().Obligations {
			if o.ID == f.Target && !o.Answerable {
				f.Kind = adjudication.KindUncertainty
			}
		}
	}
	return wrapLines(r.grade.fieldDetail(f), w)
}

// searchRate finds q in every item: its ID, its task, the fields'
// context (obligations, claims, citations, exclusions, their IDs) and the
// rest of its answer.
func (r *rater) searchRate(q string) []searchHit {
	var hits []searchHit
	add := func(h searchHit) bool {
		hits = append(hits, h)
		return len(hits) < maxHits
	}
	lq := strings.ToLower(q)
	for i := range r.fields {
		it := r.shownItem(i)
		label := fmt.Sprintf("item %d", i+1)
		if strings.Contains(strings.ToLower(it.ID), lq) && !add(searchHit{i, -1, label, it.ID}) {
			return hits
		}
		if t := matchIn(it.TaskText, q, r.w-20); t != "" && !add(searchHit{i, -1, label + " task", t}) {
			return hits
		}
		for k, f := range r.fields[i] {
			text := ansi.Strip(strings.Join(fieldContext(r.c.Styles, it, f), " "))
			t := matchIn(text, q, r.w-30)
			if strings.EqualFold(f.Target, q) && t == "" {
				t = text
			}
			if t != "" && !add(searchHit{i, k, label + " " + fieldLabel(f), t}) {
				return hits
			}
		}
		d := r.answer.cache.doc(it, 200)
		for _, id := range answerRest(it) {
			sp := d.spans[id]
			text := ansi.Strip(strings.Join(d.lines[sp[0]:sp[1]], " "))
			if t := matchIn(text, q, r.w-20); t != "" && !add(searchHit{i, -1, label + " " + id, t}) {
				return hits
			}
		}
	}
	return hits
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
	if r.frozen {
		p += " · frozen"
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
		return append([]key.Binding{k.Values[0], k.Values[1], k.Values[2], k.Down, k.Up, k.Evidence}, r.answer.ShortHelp()...)
	}
	return r.active().ShortHelp()
}

// FullHelp implements help.KeyMap.
func (r *rater) FullHelp() [][]key.Binding {
	if r.screen == screenAnswer {
		k := r.grade.keys
		return [][]key.Binding{{k.Values[0], k.Values[1], k.Values[2], k.Down, k.Up, k.Evidence}, r.answer.ShortHelp()}
	}
	return r.active().FullHelp()
}
