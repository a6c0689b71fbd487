package tui

import (
	"fmt"
	"time"
	"verdict/adjudication"
	"verdict/blinding"
	"verdict/campaign"

	tea "charm.land/bubbletea/v2"
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
	// freeze is the signing screen of the sheet: its state says whether
	// the sheet is being frozen or is frozen.
	freeze *signScreen
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
	s.freeze = newFreezeScreen(s)
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

// design is the bundle's design: it decides the values a field offers
// (adjudication.FieldValues).
func (s *rateState) design() campaign.Design { return s.in.Bundle.Design }

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
	old, _, had := s.value(g.Field)
	s.setStatus("saving "+fieldLabel(g.Field)+" = "+g.Value+was(old.Value, g.Value, had)+" …", false)
	delete(s.drafts, g.Field)
	return s.queue.push(g), true
}

func (s *rateState) onSaved(m savedMsg[adjudication.Grade]) tea.Cmd {
	next := s.queue.done(m)
	if m.err != nil {
		s.setStatus(s.freeze.saveFailed(m.err), true)
		return nil
	}
	f := m.v.Field
	s.spentOn[f.Item] += m.v.Spent
	old, had := s.saved[f]
	if f.Kind == adjudication.KindOracleDefect && m.v.Value == adjudication.ValueWithdrawn {
		delete(s.saved, f)
	} else {
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
	s.setStatus("saved ✓ "+fieldLabel(f)+" = "+what+was(old.Value, m.v.Value, had), false)
	return tea.Batch(next, s.freeze.afterSave())
}

// was is what a status line says of a changed value: " (was OLD)" when
// the field had another value before, else "".
func was(old, now string, had bool) string {
	if !had || old == now {
		return ""
	}
	if old == "" {
		old = "no value"
	}
	return " (was " + old + ")"
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
		s.freeze.disarm()
		return nil
	}
	if m.v.on {
		s.flagged[m.v.item] = true
		s.setStatus(fmt.Sprintf("saved ✓ item %d flagged to come back to (l lists the flags)", m.v.item+1), false)
	} else {
		delete(s.flagged, m.v.item)
		s.setStatus(fmt.Sprintf("saved ✓ item %d: flag removed", m.v.item+1), false)
	}
	return tea.Batch(next, s.freeze.afterSave())
}

func (s *rateState) setStatus(msg string, isErr bool) { s.status, s.statusErr = msg, isErr }

// nValued counts the required fields with a value, saved or waiting in
// the save queue.
func (s *rateState) nValued() int {
	n := s.nGraded
	counted := map[adjudication.Field]bool{}
	for _, g := range s.queue.pending {
		if _, ok := s.saved[g.Field]; !ok && g.Kind != adjudication.KindOracleDefect && !counted[g.Field] {
			counted[g.Field] = true
			n++
		}
	}
	return n
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
