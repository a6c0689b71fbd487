package tui

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"verdict/adjudication"
	"verdict/blinding"
	"verdict/tui/styles"
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
	// Clock measures the time spent on each item (default time.Now). The
	// time is recorded in the journal with each grade and never shown.
	Clock func() time.Time
}

// RateResult is what a rating session ended with.
type RateResult struct {
	// Graded and Total count required fields (Graded ≤ Total).
	Graded, Total int
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
	return newRoot(c, r, r.title, r.statusLine)
}

type rateScreen int

const (
	screenGrade rateScreen = iota
	screenList
	screenAnswer
	screenEvidence
	screenNote
	screenFreeze
)

// savedMsg reports the end of one Journal.Append.
type savedMsg struct {
	g   adjudication.Grade
	err error
}

// frozenMsg reports the end of Freeze.
type frozenMsg struct {
	desc string
	err  error
}

type rater struct {
	c      *Common
	keys   RateKeyMap
	in     RateInput
	clock  func() time.Time
	fields [][]adjudication.Field // required fields per item
	saved  map[adjudication.Field]adjudication.Grade
	// pending holds grades typed but not yet returned by Append, in order.
	pending  []adjudication.Grade
	inFlight bool
	graded   []int // saved required fields per item
	nGraded  int
	nTotal   int

	item, field int
	listCur     int
	screen      rateScreen
	viewer      *evidenceViewer
	note        textinput.Model
	noteField   adjudication.Field // the field whose note is edited
	noteOracle  bool
	answers     *answerCache
	answerY     int
	mark        time.Time // start of the current stretch of work on item
	status      string
	statusErr   bool
	frozen      bool
	sheet       string
	freezing    bool
	w, h        int
}

func newRater(c *Common, in RateInput) *rater {
	r := &rater{c: c, keys: DefaultRateKeyMap(), in: in, clock: in.Clock, saved: map[adjudication.Field]adjudication.Grade{}}
	if r.clock == nil {
		r.clock = time.Now
	}
	r.answers = newAnswerCache(c.Styles.Markdown())
	r.note = textinput.New()
	r.note.SetStyles(c.Styles.Input)
	r.note.CharLimit = adjudication.MaxNote
	r.graded = make([]int, len(in.Bundle.Items))
	req := map[adjudication.Field]int{}
	for i := range in.Bundle.Items {
		fs := adjudication.RequiredFields(&in.Bundle.Items[i])
		r.fields = append(r.fields, fs)
		r.nTotal += len(fs)
		for _, f := range fs {
			req[f] = i
		}
	}
	for _, g := range in.Journal.State().Grades {
		r.saved[g.Field] = g
		if i, ok := req[g.Field]; ok {
			r.graded[i]++
			r.nGraded++
		}
	}
	// Resume at the first ungraded field of the bundle.
	r.item, r.field = 0, 0
	r.seekUngraded(0, -1)
	r.mark = r.clock()
	r.setEnabled()
	return r
}

func (r *rater) result() RateResult {
	return RateResult{Graded: r.nGraded, Total: r.nTotal, Frozen: r.frozen, Sheet: r.sheet}
}

// Capturing reports whether the note editor has the keyboard.
func (r *rater) Capturing() bool { return r.screen == screenNote }

func (r *rater) cur() adjudication.Field {
	if len(r.fields) == 0 || len(r.fields[r.item]) == 0 {
		return adjudication.Field{}
	}
	return r.fields[r.item][r.field]
}

func (r *rater) curItem() *blinding.Item { return &r.in.Bundle.Items[r.item] }

// value returns the value the screen shows for f: the last pending one if
// any (not yet saved), else the saved one.
func (r *rater) value(f adjudication.Field) (g adjudication.Grade, saved, ok bool) {
	for i := len(r.pending) - 1; i >= 0; i-- {
		if r.pending[i].Field == f {
			return r.pending[i], false, true
		}
	}
	g, ok = r.saved[f]
	return g, ok, ok
}

func (r *rater) isGraded(f adjudication.Field) bool {
	_, _, ok := r.value(f)
	return ok
}

// seekUngraded moves to the first field without a value after (item, idx)
// in bundle order, wrapping around; it stays when every field has one.
func (r *rater) seekUngraded(item, idx int) bool {
	n := len(r.fields)
	for step := 0; step <= n; step++ {
		i := (item + step) % n
		start := 0
		if step == 0 {
			start = idx + 1
		}
		for k := start; k < len(r.fields[i]); k++ {
			if !r.isGraded(r.fields[i][k]) {
				r.gotoItem(i)
				r.field = k
				return true
			}
		}
	}
	// Wrapped: the fields of the start item before idx.
	for k := 0; k <= idx && k < len(r.fields[item]); k++ {
		if !r.isGraded(r.fields[item][k]) {
			r.gotoItem(item)
			r.field = k
			return true
		}
	}
	return false
}

func (r *rater) gotoItem(i int) {
	if i != r.item {
		r.item = i
		r.field = 0
		r.answerY = 0
		r.mark = r.clock()
	}
}

// spent returns the time since the last grade on this item (or since the
// item was opened) and restarts the stretch.
func (r *rater) spent() time.Duration {
	now := r.clock()
	d := now.Sub(r.mark)
	r.mark = now
	return max(d, 0)
}

// record queues g for Journal.Append; Appends run one at a time, in order.
// It reports false when the grade was refused (and not queued).
func (r *rater) record(g adjudication.Grade) (tea.Cmd, bool) {
	if err := adjudication.CheckGrade(r.in.Bundle, g); err != nil {
		r.setStatus(err.Error(), true)
		return nil, false
	}
	r.pending = append(r.pending, g)
	r.setStatus("saving "+fieldLabel(g.Field)+" …", false)
	return r.flush(), true
}

func (r *rater) flush() tea.Cmd {
	if r.inFlight || len(r.pending) == 0 {
		return nil
	}
	r.inFlight = true
	g := r.pending[0]
	j := r.in.Journal
	return func() tea.Msg { return savedMsg{g: g, err: j.Append(g)} }
}

func (r *rater) onSaved(m savedMsg) tea.Cmd {
	r.inFlight = false
	if len(r.pending) > 0 {
		r.pending = r.pending[1:]
	}
	if m.err != nil {
		// Nothing after a failed append is saved; drop the queue so that
		// the screen shows only what the journal holds.
		r.pending = nil
		r.setStatus("NOT saved: "+m.err.Error(), true)
		return nil
	}
	f := m.g.Field
	if f.Kind == adjudication.KindOracleDefect && m.g.Value == adjudication.ValueWithdrawn {
		delete(r.saved, f)
	} else {
		_, had := r.saved[f]
		r.saved[f] = m.g
		if !had && f.Kind != adjudication.KindOracleDefect {
			for i := range r.fields {
				if r.in.Bundle.Items[i].ID == f.Item {
					r.graded[i]++
					break
				}
			}
			r.nGraded++
		}
	}
	what := m.g.Value
	if what == "" {
		what = "withdrawn"
	}
	r.setStatus("saved ✓ "+fieldLabel(f)+" = "+what, false)
	return r.flush()
}

func (r *rater) setStatus(s string, isErr bool) { r.status, r.statusErr = s, isErr }

func fieldLabel(f adjudication.Field) string {
	if f.Kind == adjudication.KindCompleteness {
		return "completeness"
	}
	return f.Target + " " + string(f.Kind)
}

// setEnabled enables exactly the bindings that do something now.
func (r *rater) setEnabled() {
	f := r.cur()
	vals := adjudication.AllowedValues(f.Kind)
	grading := r.screen == screenGrade && !r.frozen
	for i := range r.keys.Values {
		on := grading && i < len(vals)
		r.keys.Values[i].SetEnabled(on)
		if i < len(vals) {
			r.keys.Values[i].SetHelp(strconv.Itoa(i+1), strings.ReplaceAll(vals[i], "_", " "))
		}
	}
	onGrade := r.screen == screenGrade
	r.keys.Up.SetEnabled(onGrade || r.screen == screenList)
	r.keys.Down.SetEnabled(onGrade || r.screen == screenList)
	many := len(r.fields) > 1
	r.keys.NextItem.SetEnabled(onGrade && many)
	r.keys.PrevItem.SetEnabled(onGrade && many)
	r.keys.NextUngraded.SetEnabled(grading && r.nGraded < r.nTotal)
	r.keys.Evidence.SetEnabled(onGrade && len(r.fieldEvidence(f)) > 0)
	r.keys.Note.SetEnabled(grading && r.isGraded(f))
	r.keys.Oracle.SetEnabled(grading && (f.Kind == adjudication.KindObligation || f.Kind == adjudication.KindUncertainty))
	r.keys.Answer.SetEnabled(onGrade && !r.wide() || r.screen == screenAnswer)
	r.keys.AnswerUp.SetEnabled(onGrade && r.wide() || r.screen == screenAnswer)
	r.keys.AnswerDown.SetEnabled(onGrade && r.wide() || r.screen == screenAnswer)
	r.keys.Items.SetEnabled(onGrade)
	r.keys.Freeze.SetEnabled(onGrade && !r.frozen)
	r.keys.Open.SetEnabled(r.screen == screenList)
	r.keys.Confirm.SetEnabled(r.screen == screenFreeze && r.canFreeze())
	r.keys.Save.SetEnabled(r.screen == screenNote)
	r.keys.Cancel.SetEnabled(r.screen == screenNote || r.screen == screenFreeze || r.screen == screenList || r.screen == screenAnswer)
}

func (r *rater) canFreeze() bool {
	return !r.frozen && !r.freezing && r.nGraded == r.nTotal && len(r.pending) == 0 && r.in.Freeze != nil
}

func (r *rater) wide() bool { return r.w >= 110 }

// Init implements tea.Model.
func (r *rater) Init() tea.Cmd { return nil }

// SetSize implements Component.
func (r *rater) SetSize(w, h int) {
	r.w, r.h = w, h
	r.note.SetWidth(max(w-4, 10))
	if r.viewer != nil {
		r.viewer.SetSize(w, h)
	}
	r.setEnabled()
}

// Update implements tea.Model.
func (r *rater) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	var cmd tea.Cmd
	switch m := msg.(type) {
	case savedMsg:
		cmd = r.onSaved(m)
	case frozenMsg:
		r.freezing = false
		if m.err != nil {
			r.setStatus("NOT frozen: "+m.err.Error(), true)
		} else {
			r.frozen, r.sheet = true, m.desc
			r.setStatus("frozen and signed: "+m.desc, false)
		}
	case closeEvidenceMsg:
		r.viewer = nil
		r.screen = screenGrade
	case tea.KeyPressMsg:
		cmd = r.key(m)
	default:
		if r.screen == screenNote {
			r.note, cmd = r.note.Update(msg)
		}
	}
	r.setEnabled()
	return r, cmd
}

func (r *rater) key(k tea.KeyPressMsg) tea.Cmd {
	switch r.screen {
	case screenEvidence:
		_, cmd := r.viewer.Update(k)
		return cmd
	case screenNote:
		return r.noteKey(k)
	case screenList:
		return r.listKey(k)
	case screenFreeze:
		return r.freezeKey(k)
	case screenAnswer:
		switch {
		case key.Matches(k, r.keys.Cancel), key.Matches(k, r.keys.Answer):
			r.screen = screenGrade
		case key.Matches(k, r.keys.AnswerDown):
			r.answerY += max(r.h-2, 1)
		case key.Matches(k, r.keys.AnswerUp):
			r.answerY = max(r.answerY-max(r.h-2, 1), 0)
		}
		return nil
	}
	f := r.cur()
	for i, b := range r.keys.Values {
		if key.Matches(k, b) {
			vals := adjudication.AllowedValues(f.Kind)
			g := adjudication.Grade{Field: f, Value: vals[i], Spent: r.spent()}
			if old, _, ok := r.value(f); ok {
				g.Note = old.Note
			}
			cmd, ok := r.record(g)
			if ok {
				r.seekUngraded(r.item, r.field)
			}
			return cmd
		}
	}
	switch {
	case key.Matches(k, r.keys.Down):
		r.field = min(r.field+1, len(r.fields[r.item])-1)
	case key.Matches(k, r.keys.Up):
		r.field = max(r.field-1, 0)
	case key.Matches(k, r.keys.NextItem):
		r.gotoItem((r.item + 1) % len(r.fields))
	case key.Matches(k, r.keys.PrevItem):
		r.gotoItem((r.item + len(r.fields) - 1) % len(r.fields))
	case key.Matches(k, r.keys.NextUngraded):
		r.seekUngraded(r.item, r.field)
	case key.Matches(k, r.keys.Evidence):
		refs := r.fieldEvidence(f)
		r.viewer = newEvidenceViewer(r.c, refs, 0)
		r.viewer.SetSize(r.w, r.h)
		r.screen = screenEvidence
	case key.Matches(k, r.keys.Note):
		g, _, _ := r.value(f)
		return r.openNote(f, g.Note, false)
	case key.Matches(k, r.keys.Oracle):
		of := adjudication.Field{Item: f.Item, Kind: adjudication.KindOracleDefect, Target: f.Target}
		g, _, _ := r.value(of)
		return r.openNote(of, g.Note, true)
	case key.Matches(k, r.keys.Answer):
		r.screen = screenAnswer
	case key.Matches(k, r.keys.AnswerDown):
		r.answerY += max(r.h/2, 1)
	case key.Matches(k, r.keys.AnswerUp):
		r.answerY = max(r.answerY-max(r.h/2, 1), 0)
	case key.Matches(k, r.keys.Items):
		r.listCur = r.item
		r.screen = screenList
	case key.Matches(k, r.keys.Freeze):
		r.screen = screenFreeze
	}
	return nil
}

func (r *rater) openNote(f adjudication.Field, text string, oracle bool) tea.Cmd {
	r.noteField, r.noteOracle = f, oracle
	r.note.SetValue(text)
	r.note.CursorEnd()
	if oracle {
		r.note.Placeholder = "reason this truth obligation is defective (required)"
	} else {
		r.note.Placeholder = "note on this grade (empty removes it)"
	}
	r.screen = screenNote
	return r.note.Focus()
}

func (r *rater) noteKey(k tea.KeyPressMsg) tea.Cmd {
	switch {
	case key.Matches(k, r.keys.Cancel):
		r.note.Blur()
		r.screen = screenGrade
		return nil
	case key.Matches(k, r.keys.Save):
		text := strings.TrimSpace(r.note.Value())
		f := r.noteField
		var g adjudication.Grade
		if r.noteOracle {
			_, _, flagged := r.value(f)
			switch {
			case text != "":
				g = adjudication.Grade{Field: f, Value: adjudication.ValueDefective, Note: text}
			case flagged:
				g = adjudication.Grade{Field: f, Value: adjudication.ValueWithdrawn}
			default:
				r.setStatus("an oracle-defect flag needs a reason (EVALUATOR-CONTROLS C22)", true)
				return nil
			}
		} else {
			old, _, ok := r.value(f)
			if !ok {
				r.screen = screenGrade
				return nil
			}
			g = adjudication.Grade{Field: f, Value: old.Value, Note: text}
		}
		g.Spent = r.spent()
		r.note.Blur()
		r.screen = screenGrade
		cmd, _ := r.record(g)
		return cmd
	}
	var cmd tea.Cmd
	r.note, cmd = r.note.Update(k)
	return cmd
}

func (r *rater) listKey(k tea.KeyPressMsg) tea.Cmd {
	n := len(r.fields)
	switch {
	case key.Matches(k, r.keys.Cancel), key.Matches(k, r.keys.Items):
		r.screen = screenGrade
	case key.Matches(k, r.keys.Down):
		r.listCur = min(r.listCur+1, n-1)
	case key.Matches(k, r.keys.Up):
		r.listCur = max(r.listCur-1, 0)
	case key.Matches(k, r.keys.Open):
		r.gotoItem(r.listCur)
		r.field = 0
		for i, f := range r.fields[r.item] {
			if !r.isGraded(f) {
				r.field = i
				break
			}
		}
		r.screen = screenGrade
	}
	return nil
}

func (r *rater) freezeKey(k tea.KeyPressMsg) tea.Cmd {
	switch {
	case key.Matches(k, r.keys.Cancel):
		r.screen = screenGrade
	case key.Matches(k, r.keys.Confirm):
		if !r.canFreeze() {
			return nil
		}
		r.freezing = true
		r.setStatus("signing …", false)
		fz := r.in.Freeze
		return func() tea.Msg { d, err := fz(); return frozenMsg{d, err} }
	}
	return nil
}

// fieldEvidence returns the evidence a field refers to, with the cited
// lines to highlight.
func (r *rater) fieldEvidence(f adjudication.Field) []evidenceRef {
	it := r.curItem()
	ref := func(id string, cited []LineRange) evidenceRef {
		for i := range it.Evidence {
			e := &it.Evidence[i]
			if e.ID == id {
				return evidenceRef{item: &evidenceSource{ID: e.ID, Path: e.Path, StartLine: e.StartLine, EndLine: e.EndLine, Excerpt: e.Excerpt}, cited: cited}
			}
		}
		return evidenceRef{missing: id, cited: cited}
	}
	// citedBy returns the lines of citations to id that support one of ids
	// (any citation to id when ids is nil).
	citedBy := func(id string, ids []string) []LineRange {
		var out []LineRange
		for _, c := range it.Final.Citations {
			if c.EvidenceID != id {
				continue
			}
			if ids == nil || slices.ContainsFunc(c.Supports, func(s string) bool { return slices.Contains(ids, s) }) {
				out = append(out, LineRange{c.StartLine, c.EndLine})
			}
		}
		return out
	}
	var refs []evidenceRef
	many := func(ids []string, by []string) {
		for _, id := range ids {
			refs = append(refs, ref(id, citedBy(id, by)))
		}
	}
	switch f.Kind {
	case adjudication.KindObligation, adjudication.KindUncertainty:
		for _, o := range it.Obligations {
			if o.ID == f.Target {
				many(o.EvidenceIDs, nil)
			}
		}
	case adjudication.KindClaim, adjudication.KindClaimCritical:
		for _, c := range it.Final.Claims {
			if c.ID == f.Target {
				ids := slices.Clone(c.EvidenceIDs)
				for _, ct := range it.Final.Citations {
					if slices.Contains(ct.Supports, c.ID) && !slices.Contains(ids, ct.EvidenceID) {
						ids = append(ids, ct.EvidenceID)
					}
				}
				many(ids, []string{c.ID})
			}
		}
	case adjudication.KindCitation:
		if i, err := strconv.Atoi(strings.TrimPrefix(f.Target, "K")); err == nil && i >= 1 && i <= len(it.Final.Citations) {
			c := it.Final.Citations[i-1]
			refs = append(refs, ref(c.EvidenceID, []LineRange{{c.StartLine, c.EndLine}}))
		}
	case adjudication.KindExclusion:
		for _, x := range it.Final.Exclusions {
			if x.ID == f.Target {
				many(x.EvidenceIDs, nil)
			}
		}
	case adjudication.KindCompleteness:
		for _, e := range it.Evidence {
			refs = append(refs, ref(e.ID, citedBy(e.ID, nil)))
		}
	}
	return refs
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

func (r *rater) itemsDone() int {
	n := 0
	for i := range r.fields {
		if r.graded[i] == len(r.fields[i]) {
			n++
		}
	}
	return n
}

func (r *rater) statusLine() string {
	st := r.c.Styles
	p := fmt.Sprintf(" %d/%d fields · %d/%d items", r.nGraded, r.nTotal, r.itemsDone(), len(r.fields))
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

func itemState(graded, total int) string {
	switch {
	case graded == 0:
		return "ungraded"
	case graded < total:
		return "partial"
	}
	return "complete"
}

// fieldRow renders one field of the current item for the field list.
func (r *rater) fieldRow(f adjudication.Field) string {
	st := r.c.Styles
	g, saved, ok := r.value(f)
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
		if _, _, flagged := r.value(adjudication.Field{Item: f.Item, Kind: adjudication.KindOracleDefect, Target: f.Target}); flagged {
			val += " " + st.Finding.Render("oracle defect")
		}
	}
	return fmt.Sprintf("%-4s %-12s %s", label, kind, val)
}

// fieldDetail renders what the rater must judge for field f.
func (r *rater) fieldDetail(f adjudication.Field) []string {
	out := fieldContext(r.c.Styles, r.curItem(), f)
	st := r.c.Styles
	if f.Kind == adjudication.KindObligation || f.Kind == adjudication.KindUncertainty {
		if g, _, ok := r.value(adjudication.Field{Item: f.Item, Kind: adjudication.KindOracleDefect, Target: f.Target}); ok {
			out = append(out, st.Finding.Render("oracle defect flagged: ")+g.Note)
		}
	}
	if g, _, ok := r.value(f); ok && g.Note != "" {
		out = append(out, st.Muted.Render("note: ")+g.Note)
	}
	return out
}

// fieldContext renders what a grader must judge for field f of item it:
// the obligation (text, criticality, accepted alternatives, required
// verification), claim, citation, exclusion or completeness question.
func fieldContext(st *styles.Styles, it *blinding.Item, f adjudication.Field) []string {
	var out []string
	add := func(s string) { out = append(out, s) }
	switch f.Kind {
	case adjudication.KindOracleDefect:
		for _, o := range it.Obligations {
			if o.ID == f.Target {
				add(st.Header.Render("Oracle defect on truth obligation "+o.ID) + " (EVALUATOR-CONTROLS C22) · is the obligation itself defective?")
				add(o.Text)
				if o.SourceJustification != "" {
					add("source justification: " + o.SourceJustification)
				}
			}
		}
	case adjudication.KindObligation, adjudication.KindUncertainty:
		for _, o := range it.Obligations {
			if o.ID != f.Target {
				continue
			}
			crit := "not critical"
			if o.Critical {
				crit = st.Finding.Render("CRITICAL")
			}
			ans := "answerable from the packet: is it addressed?"
			if !o.Answerable {
				ans = "NOT answerable from the packet: is the uncertainty handled?"
			}
			add(st.Header.Render("Obligation "+o.ID) + " · " + crit + " · " + ans)
			add(o.Text)
			if len(o.AcceptedAlternatives) > 0 {
				add("accepted alternatives: " + strings.Join(o.AcceptedAlternatives, " · "))
			}
			if o.RequiredVerification != "" {
				add("required verification: " + o.RequiredVerification)
			}
			if len(o.JustifiedExclusions) > 0 {
				add("justified exclusions: " + strings.Join(o.JustifiedExclusions, " · "))
			}
			add(st.Muted.Render("evidence " + idList(o.EvidenceIDs)))
		}
	case adjudication.KindClaim, adjudication.KindClaimCritical:
		for _, c := range it.Final.Claims {
			if c.ID != f.Target {
				continue
			}
			q := "is the claim supported?"
			if f.Kind == adjudication.KindClaimCritical {
				q = "is the claim critical?"
			}
			add(st.Header.Render("Claim "+c.ID) + " · " + c.Status + " · " + q)
			add(c.Text)
			u := ""
			if c.UncertaintyID != nil {
				u = " · uncertainty " + *c.UncertaintyID
			}
			add(st.Muted.Render("evidence " + idList(c.EvidenceIDs) + u))
		}
	case adjudication.KindCitation:
		i, _ := strconv.Atoi(strings.TrimPrefix(f.Target, "K"))
		if i >= 1 && i <= len(it.Final.Citations) {
			c := it.Final.Citations[i-1]
			add(st.Header.Render("Citation "+f.Target) + fmt.Sprintf(" · %s %s:%d-%d · does it support the linked statements?", c.EvidenceID, c.Path, c.StartLine, c.EndLine))
			for _, s := range c.Supports {
				t, _ := finalText(&it.Final, s)
				add("  " + s + "  " + t)
			}
		}
	case adjudication.KindExclusion:
		for _, x := range it.Final.Exclusions {
			if x.ID == f.Target {
				add(st.Header.Render("Exclusion "+x.ID) + " · is the exclusion justified?")
				add(x.ScopeItem + " — " + x.Reason)
				add(st.Muted.Render("evidence " + idList(x.EvidenceIDs)))
			}
		}
	case adjudication.KindCompleteness:
		add(st.Header.Render("Completeness") + " · does the answer claim a completeness it does not have?")
		add(fmt.Sprintf("%d claims · %d actions · %d verifications · %d uncertainties · %d exclusions · %d citations",
			len(it.Final.Claims), len(it.Final.ImplementationPlan), len(it.Final.VerificationPlan), len(it.Final.Uncertainties), len(it.Final.Exclusions), len(it.Final.Citations)))
	}
	return out
}

func (r *rater) choices(f adjudication.Field) string {
	st := r.c.Styles
	g, _, _ := r.value(f)
	var parts []string
	for i, v := range adjudication.AllowedValues(f.Kind) {
		s := fmt.Sprintf("[%d] %s", i+1, strings.ReplaceAll(v, "_", " "))
		if g.Value == v {
			s = st.Selected.Render(s)
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, "  ")
}

// wrapLines wraps lines to w cells. A line indented with spaces keeps a
// hanging indent: its continuation lines start under its text, past the
// leading ID ("  C3  claim: …" continues under "claim"), so that the rows
// of a list stay readable.
func wrapLines(lines []string, w int) []string {
	if len(lines) == 0 {
		return nil
	}
	w = max(w, 10)
	var out []string
	for _, l := range strings.Split(strings.Join(lines, "\n"), "\n") {
		text := strings.TrimLeft(l, " ")
		lead := len(l) - len(text)
		if lead == 0 || ansi.StringWidth(l) <= w {
			out = append(out, strings.Split(lipgloss.NewStyle().Width(w).Render(l), "\n")...)
			continue
		}
		hang := lead
		if id, _, ok := strings.Cut(text, "  "); ok && !strings.Contains(id, " ") {
			hang += ansi.StringWidth(id) + 2
		}
		hang = min(hang, w/2)
		parts := strings.Split(ansi.Wrap(text, w-hang, ""), "\n")
		out = append(out, pad(strings.Repeat(" ", lead)+parts[0], w))
		for _, p := range parts[1:] {
			out = append(out, pad(strings.Repeat(" ", hang)+p, w))
		}
	}
	return out
}

// gradePane renders the current item's header, field detail, choices and
// field list in w×h cells.
func (r *rater) gradePane(w, h int) []string {
	st := r.c.Styles
	it := r.curItem()
	fs := r.fields[r.item]
	f := r.cur()
	// The item's state, then the count of graded fields ("ungraded · 0/13
	// graded"), so the count does not read as a count of ungraded fields.
	out := []string{st.Muted.Render(fmt.Sprintf("item %d/%d · %s · %s · %d/%d graded", r.item+1, len(r.fields), it.ID,
		itemState(r.graded[r.item], len(fs)), r.graded[r.item], len(fs)))}
	detail := wrapLines(r.fieldDetail(f), w)
	maxDetail := max(h/2-1, 3)
	if len(detail) > maxDetail {
		detail = append(detail[:maxDetail-1], st.Muted.Render("… (e: evidence, a/J: answer)"))
	}
	out = append(out, detail...)
	if r.frozen {
		out = append(out, st.OK.Render("sheet frozen and signed: grading is closed"))
	} else {
		out = append(out, r.choices(f))
	}
	out = append(out, st.Muted.Render(strings.Repeat("─", max(w, 1))))
	lh := max(h-len(out), 1)
	start := min(max(r.field-lh/2, 0), max(len(fs)-lh, 0))
	for i := start; i < min(start+lh, len(fs)); i++ {
		row := " " + r.fieldRow(fs[i])
		if i == r.field {
			row = st.Selected.Render(pad("›"+ansi.Strip(row[1:]), w))
		}
		out = append(out, row)
	}
	return out
}

func (r *rater) answerPane(w, h int) []string {
	lines := r.answers.lines(r.curItem(), w)
	r.answerY = min(r.answerY, max(len(lines)-h, 0))
	return lines[r.answerY:min(r.answerY+h, len(lines))]
}

func (r *rater) listView() string {
	st := r.c.Styles
	var b strings.Builder
	b.WriteString(st.Header.Render("Items") + st.Muted.Render(fmt.Sprintf("  %d/%d complete · %d/%d fields", r.itemsDone(), len(r.fields), r.nGraded, r.nTotal)) + "\n")
	lh := max(r.h-1, 1)
	start := min(max(r.listCur-lh/2, 0), max(len(r.fields)-lh, 0))
	for i := start; i < min(start+lh, len(r.fields)); i++ {
		state := itemState(r.graded[i], len(r.fields[i]))
		// Pad before styling: a styled string's escape codes would
		// otherwise count towards the column width.
		s := fmt.Sprintf("%-9s", state)
		switch state {
		case "complete":
			s = st.OK.Render(s)
		case "partial":
			s = st.Warn.Render(s)
		}
		row := fmt.Sprintf(" %3d  %s  %s %3d/%-3d", i+1, r.in.Bundle.Items[i].ID, s, r.graded[i], len(r.fields[i]))
		if i == r.listCur {
			row = st.Selected.Render(pad("›"+ansi.Strip(row[1:]), r.w))
		}
		b.WriteString(row + "\n")
	}
	return b.String()
}

func (r *rater) freezeView() string {
	st := r.c.Styles
	var flags, notes int
	for f, g := range r.saved {
		if f.Kind == adjudication.KindOracleDefect {
			flags++
		} else if g.Note != "" {
			notes++
		}
	}
	var out []string
	add := func(s string) { out = append(out, s) }
	add(st.Header.Render("Freeze and sign the rating sheet"))
	add("")
	add(fmt.Sprintf("items:                %d (%d complete)", len(r.fields), r.itemsDone()))
	add(fmt.Sprintf("required fields:      %d graded of %d", r.nGraded, r.nTotal))
	add(fmt.Sprintf("oracle-defect flags:  %d", flags))
	add(fmt.Sprintf("grades with a note:   %d", notes))
	add("")
	signer := r.in.Signer.Name
	if signer == "" {
		signer = "(none: start verdict rate with --key and --name to freeze)"
	}
	if r.in.Signer.Fingerprint != "" {
		signer += " · key " + r.in.Signer.Fingerprint
	}
	add("signer:  " + signer)
	meaning := r.in.Meaning
	if meaning == "" {
		meaning = "I graded every field of this bundle myself, independently, and these are my final grades."
	}
	add("meaning: " + meaning)
	add("")
	switch {
	case r.frozen:
		add(st.OK.Render("Frozen and signed: " + r.sheet))
	case r.nGraded < r.nTotal:
		add(st.Finding.Render(fmt.Sprintf("Refused: %d required fields are ungraded. Grade them first.", r.nTotal-r.nGraded)))
	case len(r.pending) > 0:
		add(st.Warn.Render("Waiting for the journal to save every grade …"))
	case r.in.Freeze == nil:
		add(st.Finding.Render("Refused: no signing key (--key) and signer (--name) configured."))
	case r.freezing:
		add(st.Warn.Render("Signing …"))
	default:
		add("After signing, the sheet cannot be changed. Press y to sign, esc to go back.")
	}
	return strings.Join(wrapLines(out, r.w), "\n")
}

func (r *rater) noteView() string {
	st := r.c.Styles
	title := "Note on " + fieldLabel(r.noteField)
	if r.noteOracle {
		title = "Oracle defect on truth obligation " + r.noteField.Target + " (EVALUATOR-CONTROLS C22): reason required"
	}
	var out []string
	out = append(out, st.Header.Render(title), "")
	f := r.noteField
	if r.noteOracle {
		f.Kind = adjudication.KindObligation
		for _, o := range r.curItem().Obligations {
			if o.ID == f.Target && !o.Answerable {
				f.Kind = adjudication.KindUncertainty
			}
		}
	}
	out = append(out, wrapLines(r.fieldDetail(f), r.w)...)
	out = append(out, "", r.note.View(), "", st.Muted.Render("enter saves · esc cancels"))
	return strings.Join(out, "\n")
}

// View implements tea.Model.
func (r *rater) View() tea.View {
	if len(r.fields) == 0 {
		return tea.NewView("the bundle has no item")
	}
	switch r.screen {
	case screenEvidence:
		return r.viewer.View()
	case screenList:
		return tea.NewView(r.listView())
	case screenFreeze:
		return tea.NewView(r.freezeView())
	case screenNote:
		return tea.NewView(r.noteView())
	case screenAnswer:
		return tea.NewView(strings.Join(r.answerPane(r.w, r.h), "\n"))
	}
	if !r.wide() {
		return tea.NewView(strings.Join(r.gradePane(r.w, r.h), "\n"))
	}
	lw := r.w / 2
	left := r.gradePane(lw-1, r.h)
	right := r.answerPane(r.w-lw-2, r.h)
	var b strings.Builder
	sep := r.c.Styles.Muted.Render("│")
	for i := range r.h {
		l, rt := "", ""
		if i < len(left) {
			l = left[i]
		}
		if i < len(right) {
			rt = right[i]
		}
		b.WriteString(pad(l, lw-1) + sep + " " + rt)
		if i < r.h-1 {
			b.WriteByte('\n')
		}
	}
	return tea.NewView(b.String())
}

// ShortHelp implements help.KeyMap.
func (r *rater) ShortHelp() []key.Binding {
	switch r.screen {
	case screenEvidence:
		return r.viewer.ShortHelp()
	case screenNote:
		return []key.Binding{r.keys.Save, r.keys.Cancel}
	case screenList:
		return []key.Binding{r.keys.Down, r.keys.Up, r.keys.Open, r.keys.Cancel}
	case screenFreeze:
		return []key.Binding{r.keys.Confirm, r.keys.Cancel}
	case screenAnswer:
		return []key.Binding{r.keys.AnswerDown, r.keys.AnswerUp, r.keys.Cancel}
	}
	return []key.Binding{r.keys.Values[0], r.keys.Values[1], r.keys.Values[2], r.keys.Down, r.keys.Up, r.keys.Evidence, r.keys.Note}
}

// FullHelp implements help.KeyMap.
func (r *rater) FullHelp() [][]key.Binding {
	if r.screen != screenGrade {
		return [][]key.Binding{r.ShortHelp()}
	}
	return [][]key.Binding{
		{r.keys.Values[0], r.keys.Values[1], r.keys.Values[2], r.keys.NextUngraded},
		{r.keys.Up, r.keys.Down, r.keys.NextItem, r.keys.PrevItem, r.keys.Items},
		{r.keys.Evidence, r.keys.Note, r.keys.Oracle, r.keys.Answer, r.keys.AnswerDown, r.keys.AnswerUp, r.keys.Freeze},
	}
}
