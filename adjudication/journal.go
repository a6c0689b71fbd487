package adjudication

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"slices"
	"sync"
	"time"

	jsonv2 "github.com/go-json-experiment/json"

	"verdict/blinding"
	"verdict/verr"
)

// JournalFormat is the "format" of a journal's header entry.
const JournalFormat = "verdict-journal-v1"

// Journal refusals (errors.Is).
const (
	// ReasonJournalLocked: another writer holds the journal's lock.
	ReasonJournalLocked verr.Reason = "journal-locked"
	// ReasonJournalCorrupt: an entry other than the last does not decode,
	// breaks the hash chain or is not a valid grade; nothing is repaired.
	ReasonJournalCorrupt verr.Reason = "journal-corrupt"
	// ReasonJournalBundle: the journal was opened for a different bundle.
	ReasonJournalBundle verr.Reason = "journal-other-bundle"
	// ReasonJournalClosed: the journal is closed or a failed write left it
	// in an unknown state; reopen it.
	ReasonJournalClosed verr.Reason = "journal-closed"
	// ReasonJournalFrozen: the journal was frozen into a signed rating
	// sheet (Journal.Freeze); it takes no more entries (grades, notes,
	// oracle-defect flags or item flags), so the sheet's journal_digest
	// stays the digest of the journal's bytes.
	ReasonJournalFrozen verr.Reason = "journal-frozen"
)

const ruleJournal = "append-only journal (Part 11 §11.10(e))"

// Entry is one line of a journal (JSON Lines, one compact object per
// line). Line 1 is the header (Seq 0: Format, BundleDigest, ContentDigest,
// Rater); every later line is one grade. Prev is the lowercase hex SHA-256
// of the previous line's bytes without its newline ("" for the header),
// so an edited or removed line breaks the chain. Time is RFC 3339 UTC with
// nanoseconds from the journal's clock; SpentMS is the time spent on the
// item in milliseconds as reported by the caller.
type Entry struct {
	Seq           int    `json:"seq"`
	Prev          string `json:"prev"`
	Time          string `json:"time"`
	Format        string `json:"format,omitempty"`
	BundleDigest  string `json:"bundle_digest,omitempty"`
	ContentDigest string `json:"content_digest,omitempty"`
	Rater         string `json:"rater,omitempty"`
	Item          string `json:"item,omitempty"`
	Kind          Kind   `json:"kind,omitempty"`
	Target        string `json:"target,omitempty"`
	Value         string `json:"value"`
	Note          string `json:"note,omitempty"`
	SpentMS       int64  `json:"spent_ms,omitempty"`
}

// KindItemFlag is the kind of a journal entry that flags an item for the
// rater to come back to (the f key of `verdict rate`) or clears that flag:
// Item is the item, Value ValueFlagged or ValueUnflagged, no target, note
// or time. It is not a grade kind (it is not in Kinds and CheckGrade
// refuses it): a flag is never a grade, is absent from State, and changes
// neither a frozen sheet's grades, its item times nor agreement. A later
// flag entry for the same item supersedes the earlier one (Journal.SetFlag,
// Journal.Flags).
const KindItemFlag Kind = "item_flag"

// The values of a KindItemFlag entry.
const (
	ValueFlagged   = "flagged"
	ValueUnflagged = "unflagged"
)

// Grade returns the grade an entry records.
func (e Entry) Grade() Grade {
	return Grade{Field: Field{e.Item, e.Kind, e.Target}, Value: e.Value, Note: e.Note, Spent: time.Duration(e.SpentMS) * time.Millisecond}
}

// Journal is an open, locked, append-only grade journal for one bundle.
// A grade counts as saved when Append returns nil, or when the AppendBatch
// call that holds it returns it among its saved grades: the entry was
// written and fsync'd. A later entry for the same field supersedes the earlier one
// but never erases it. Methods are safe for concurrent use.
//
// Usage (TUI and `verdict grade`):
//
//	j, err := adjudication.Open(path, bundle) // locks; resumes saved grades
//	defer j.Close()
//	err = j.Append(adjudication.Grade{Field: f, Value: v, Note: n, Spent: d})
//	n, err := j.AppendBatch(grades) // one fsync for many grades (imports)
//	st := j.State() // current values; ungraded fields in bundle order
type Journal struct {
	mu      sync.Mutex
	path    string
	log     *chainLog
	bundle  *blinding.Bundle
	clock   func() time.Time
	entries []Entry
	items   map[string]*blinding.Item // bundle items by ID (CheckGrade without a scan)
	current map[Field]Grade
	flags   map[string]bool // flagged items (KindItemFlag), by item ID
	// required is the set of BundleFields, made at the first grade checked.
	required map[Field]bool
	// frozen is set by Freeze: every later write is refused.
	frozen bool
}

// Option configures Open.
type Option func(*Journal)

// WithClock sets the clock that stamps entries (default time.Now); tests
// and fixtures inject a fixed clock.
func WithClock(c func() time.Time) Option { return func(j *Journal) { j.clock = c } }

// Open opens or creates the journal at path for bundle b (bound by its
// digest, Bundle.Digest: the SHA-256 of the canonical bundle bytes). It takes an
// exclusive, non-blocking lock on the file (a second writer gets
// ReasonJournalLocked), verifies every entry and the hash chain, and
// resumes with every saved grade. A torn final line (a crash during a
// write, before Append returned) is cut off and reported by Recovered;
// every earlier line is kept. A final line complete and verifying but for
// its newline (a file saved without one) is kept, and the newline added. Other damage gives ReasonJournalCorrupt and
// changes nothing. A journal of another bundle gives ReasonJournalBundle.
func Open(path string, b *blinding.Bundle, opts ...Option) (*Journal, error) {
	bundleDigest, err := b.Digest()
	if err != nil {
		return nil, err
	}
	j := newJournal(path, b, opts)
	log, data, err := openChainLog(path, ruleJournal, "journal")
	if err != nil {
		return nil, err
	}
	j.log = log
	if len(data) == 0 {
		h := Entry{Seq: 0, Time: j.now(), Format: JournalFormat, BundleDigest: bundleDigest, ContentDigest: b.ContentDigest, Rater: b.Rater}
		if err := log.begin(func() error { return j.write(h) }); err != nil {
			return nil, err
		}
		return j, nil
	}
	if err := j.replay(data, bundleDigest); err != nil {
		log.close()
		return nil, err
	}
	return j, nil
}

func newJournal(path string, b *blinding.Bundle, opts []Option) *Journal {
	j := &Journal{path: path, bundle: b, clock: time.Now, current: map[Field]Grade{}, flags: map[string]bool{}, items: make(map[string]*blinding.Item, len(b.Items))}
	for i := range b.Items {
		j.items[b.Items[i].ID] = &b.Items[i]
	}
	for _, o := range opts {
		o(j)
	}
	return j
}

// ReadJournal reads the journal at path for bundle b without its lock and
// without changing the file: a snapshot for a status view (`verdict
// status`) while a rater may be appending to it. Every complete line is
// verified as Open verifies it; a torn last line (a write in progress or
// a crash) is left out, never cut. A missing file reads as an empty
// journal. The returned journal takes no entries (ReasonJournalClosed).
func ReadJournal(path string, b *blinding.Bundle) (*Journal, error) {
	bundleDigest, err := b.Digest()
	if err != nil {
		return nil, err
	}
	j := newJournal(path, b, nil)
	j.log = &chainLog{path: path, rule: ruleJournal, what: "journal"}
	data, err := readLog(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	if err := j.log.replay(data, func(line int, raw []byte) error {
		e, err := j.decode(line, raw, bundleDigest)
		if err == nil {
			j.apply(e)
		}
		return err
	}); err != nil {
		return nil, err
	}
	if len(j.entries) == 0 {
		j.apply(Entry{Format: JournalFormat, BundleDigest: bundleDigest, ContentDigest: b.ContentDigest, Rater: b.Rater})
	}
	return j, nil
}

func (j *Journal) now() string { return j.clock().UTC().Format(time.RFC3339Nano) }

// replay verifies data line by line (replayLines): a last line missing
// only its newline is kept, a torn last line is cut off (a torn header
// starts the journal afresh), any other damage refuses.
func (j *Journal) replay(data []byte, bundleDigest string) error {
	err := j.log.replay(data, func(line int, raw []byte) error {
		e, err := j.decode(line, raw, bundleDigest)
		if err != nil {
			return err
		}
		j.apply(e)
		return nil
	})
	if err != nil {
		return err
	}
	if len(j.entries) == 0 {
		// The header itself was torn: start the journal afresh.
		return j.write(Entry{Seq: 0, Time: j.now(), Format: JournalFormat, BundleDigest: bundleDigest, ContentDigest: j.bundle.ContentDigest, Rater: j.bundle.Rater})
	}
	return nil
}

func (j *Journal) decode(line int, raw []byte, bundleDigest string) (Entry, error) {
	var e Entry
	if err := jsonv2.Unmarshal(raw, &e, jsonv2.RejectUnknownMembers(true)); err != nil {
		return e, j.log.corrupt(line, "entry does not decode: %v", err)
	}
	if err := j.log.checkLink(line, e.Seq, e.Prev, e.Time); err != nil {
		return e, err
	}
	if e.Seq == 0 {
		if e.Format != JournalFormat {
			return e, j.log.corrupt(line, "format %q, want %q", e.Format, JournalFormat)
		}
		if e.BundleDigest != bundleDigest || e.ContentDigest != j.bundle.ContentDigest {
			return e, verr.Newf(ReasonJournalBundle, j.path, "/0/bundle_digest", ruleJournal, "journal is for bundle %s, not %s", e.BundleDigest, bundleDigest)
		}
		return e, nil
	}
	if e.Format != "" || e.BundleDigest != "" || e.ContentDigest != "" || e.Rater != "" || e.SpentMS < 0 {
		return e, j.log.corrupt(line, "grade entry carries header fields")
	}
	if e.Kind == KindItemFlag {
		if err := j.checkFlag(e); err != nil {
			return e, j.log.corrupt(line, "invalid item flag: %v", err)
		}
		return e, nil
	}
	if err := j.check(e.Grade()); err != nil {
		return e, j.log.corrupt(line, "invalid grade: %v", err)
	}
	return e, nil
}

// apply adds a verified or written entry to the journal's state.
func (j *Journal) apply(e Entry) {
	j.entries = append(j.entries, e)
	if e.Seq == 0 {
		return
	}
	if e.Kind == KindItemFlag {
		if e.Value == ValueFlagged {
			j.flags[e.Item] = true
		} else {
			delete(j.flags, e.Item)
		}
		return
	}
	g := e.Grade()
	if g.Kind == KindOracleDefect && g.Value == ValueWithdrawn {
		delete(j.current, g.Field)
		return
	}
	j.current[g.Field] = g
}

// checkFlag checks a KindItemFlag entry: a bundle item, a flag value, and
// nothing a grade carries.
func (j *Journal) checkFlag(e Entry) error {
	if _, ok := j.items[e.Item]; !ok {
		return unknownItem(e.Item)
	}
	if e.Value != ValueFlagged && e.Value != ValueUnflagged {
		return fmt.Errorf("value %q, want %q or %q", e.Value, ValueFlagged, ValueUnflagged)
	}
	if e.Target != "" || e.Note != "" || e.SpentMS != 0 {
		return errors.New("an item flag carries a target, note or time")
	}
	return nil
}

// writable refuses a write to a closed or failed journal
// (ReasonJournalClosed) or to a frozen one (ReasonJournalFrozen). The
// caller holds j.mu.
func (j *Journal) writable() error {
	if err := j.log.usable(); err != nil {
		return err
	}
	if j.frozen {
		return &verr.Error{Reason: ReasonJournalFrozen, File: j.path, Rule: ruleFrozen,
			Detail: "the journal was frozen into a signed rating sheet; it takes no more entries (its digest is in the sheet)"}
	}
	return nil
}

// ruleFrozen is the rule a write after the freeze breaks.
const ruleFrozen = "DESIGN Roles: a rater grades every final answer, then freezes and signs; the signed sheet binds the journal's digest"

// Freeze closes the journal to every later write and calls sign with the
// journal's state: sign reads the journal's bytes for the sheet's
// journal_digest and writes the signed sheet. While sign runs and after it
// returned nil, Append, AppendBatch and SetFlag refuse with
// ReasonJournalFrozen, so the bytes the digest names stay the journal's
// bytes. When sign fails (nothing was signed) the journal takes entries
// again and Freeze returns sign's error. A journal already frozen, closed
// or failed is refused (ReasonJournalFrozen, ReasonJournalClosed) without
// calling sign. The freeze lasts while the journal is open: a later Open
// of the same file does not know of it (the sheet file does).
func (j *Journal) Freeze(sign func(State) error) error {
	j.mu.Lock()
	if err := j.writable(); err != nil {
		j.mu.Unlock()
		return err
	}
	j.frozen = true
	j.mu.Unlock()
	if err := sign(j.State()); err != nil {
		j.mu.Lock()
		j.frozen = false
		j.mu.Unlock()
		return err
	}
	return nil
}

// Frozen reports whether Freeze signed a sheet from this journal (or is
// signing one now).
func (j *Journal) Frozen() bool {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.frozen
}

// SetFlag records that the rater flagged item to come back to (on) or
// cleared the flag, as one KindItemFlag entry, fsync'd like a grade; when
// it returns nil the flag is saved. An item not in the bundle gives
// ReasonUnknownItem; a closed journal ReasonJournalClosed; a frozen one
// (Freeze) ReasonJournalFrozen.
func (j *Journal) SetFlag(item string, on bool) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if err := j.writable(); err != nil {
		return err
	}
	e := Entry{Seq: j.log.lines, Prev: j.log.last, Time: j.now(), Item: item, Kind: KindItemFlag, Value: ValueUnflagged}
	if on {
		e.Value = ValueFlagged
	}
	if err := j.checkFlag(e); err != nil {
		return err
	}
	return j.write(e)
}

// Flags returns the items flagged now (the last flag entry of each says
// ValueFlagged), by item ID; a copy.
func (j *Journal) Flags() map[string]bool {
	j.mu.Lock()
	defer j.mu.Unlock()
	return maps.Clone(j.flags)
}

// check is CheckGrade against the journal's bundle, with the item found
// through the journal's index instead of a scan of the bundle.
func (j *Journal) check(g Grade) error {
	it, ok := j.items[g.Item]
	if !ok {
		return unknownItem(g.Item)
	}
	if j.required == nil {
		j.required = map[Field]bool{}
		for _, f := range BundleFields(j.bundle) {
			j.required[f] = true
		}
	}
	return checkItemGrade(j.bundle.Design, it, g, func(f Field) bool { return j.required[f] })
}

// write appends e as one line, fsyncs, and applies it.
func (j *Journal) write(e Entry) error {
	raw, err := json.Marshal(e)
	if err != nil {
		return err
	}
	if err := j.log.appendLines(raw); err != nil {
		return err
	}
	j.apply(e)
	return nil
}

// Append validates g against the bundle (CheckGrade), appends it as a new
// entry stamped with the clock's UTC time and g.Spent in milliseconds,
// and fsyncs the file. When Append returns nil the grade is saved. A
// grade for an already graded field supersedes it; the earlier entry stays.
// A frozen journal (Freeze) refuses with ReasonJournalFrozen.
func (j *Journal) Append(g Grade) error {
	n, err := j.AppendBatch([]Grade{g})
	if n == 1 {
		return nil
	}
	return err
}

// AppendBatch validates gs in order (CheckGrade) and appends the grades
// before the first refused one as consecutive, hash-chained entries with
// one write and one fsync (a non-interactive import such as `verdict grade
// --from` saves thousands of grades without an fsync each). It returns the
// number of grades saved and the first refusal (or write error). Every
// grade of the batch counts as saved when AppendBatch returns: either all
// n returned grades were written and fsync'd, or (n == 0, err != nil) the
// journal is as it was before the call. A process killed during the call
// may leave a prefix of the batch, each complete line a valid entry of the
// chain, and at most one torn final line that Open cuts off; so a crash
// never loses a grade from an earlier returned call and never breaks the
// chain. Grades are validated before anything is written: a refused grade
// at index k saves gs[:k] and returns its error with k.
func (j *Journal) AppendBatch(gs []Grade) (int, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if err := j.writable(); err != nil {
		return 0, err
	}
	var refused error
	valid := gs
	for i, g := range gs {
		if err := j.check(g); err != nil {
			refused, valid = err, gs[:i]
			break
		}
	}
	if len(valid) == 0 {
		return 0, refused
	}
	es := make([]Entry, len(valid))
	raws := make([][]byte, len(valid))
	seq, prev := j.log.lines-1, j.log.last
	for i, g := range valid {
		if g.Spent < 0 {
			g.Spent = 0
		}
		seq++
		es[i] = Entry{Seq: seq, Prev: prev, Time: j.now(), Item: g.Item, Kind: g.Kind, Target: g.Target,
			Value: g.Value, Note: g.Note, SpentMS: g.Spent.Milliseconds()}
		raw, err := json.Marshal(es[i])
		if err != nil {
			return 0, err
		}
		raws[i] = raw
		prev = chainHash(raw)
	}
	// One write and one fsync for the batch; only after the fsync returned
	// are the entries applied.
	if err := j.log.appendLines(raws...); err != nil {
		return 0, err
	}
	for _, e := range es {
		j.apply(e)
	}
	return len(valid), refused
}

// State is a snapshot of a journal: the current grade of every graded
// field (required fields in bundle order, then oracle-defect flags in
// canonical order), the required fields not yet graded in bundle order,
// and the total time spent per item.
type State struct {
	Grades   []Grade
	Ungraded []Field
	Spent    map[string]time.Duration
	Entries  int
}

// Complete reports whether every required field is graded.
func (s State) Complete() bool { return len(s.Ungraded) == 0 }

// State returns the journal's current state.
func (j *Journal) State() State {
	j.mu.Lock()
	defer j.mu.Unlock()
	st := State{Spent: map[string]time.Duration{}, Entries: len(j.entries) - 1}
	for _, f := range BundleFields(j.bundle) {
		if g, ok := j.current[f]; ok {
			st.Grades = append(st.Grades, g)
		} else {
			st.Ungraded = append(st.Ungraded, f)
		}
	}
	var flags []Grade
	for f, g := range j.current {
		if f.Kind == KindOracleDefect {
			flags = append(flags, g)
		}
	}
	slices.SortFunc(flags, func(a, b Grade) int { return CompareFields(a.Field, b.Field) })
	st.Grades = append(st.Grades, flags...)
	for _, e := range j.entries[1:] {
		if e.Kind != KindItemFlag {
			st.Spent[e.Item] += time.Duration(e.SpentMS) * time.Millisecond
		}
	}
	return st
}

// Saved returns the current grade of every graded field (oracle-defect
// flags included) keyed by field, and the total time spent per item: what
// a program resuming the journal needs, without State's walk over every
// required field of the bundle. Both maps are copies.
func (j *Journal) Saved() (map[Field]Grade, map[string]time.Duration) {
	j.mu.Lock()
	defer j.mu.Unlock()
	spent := map[string]time.Duration{}
	for _, e := range j.entries[1:] {
		if e.Kind != KindItemFlag {
			spent[e.Item] += time.Duration(e.SpentMS) * time.Millisecond
		}
	}
	return maps.Clone(j.current), spent
}

// Value returns the current grade of f, if any.
func (j *Journal) Value(f Field) (Grade, bool) {
	j.mu.Lock()
	defer j.mu.Unlock()
	g, ok := j.current[f]
	return g, ok
}

// Entries returns a copy of every entry (header first), superseded ones included.
func (j *Journal) Entries() []Entry {
	j.mu.Lock()
	defer j.mu.Unlock()
	return slices.Clone(j.entries)
}

// Recovered returns the number of torn bytes cut off the end at Open (0
// when the journal was intact).
func (j *Journal) Recovered() int64 { return j.log.recovered }

// Path returns the journal's file path.
func (j *Journal) Path() string { return j.path }

// Close releases the lock and closes the file. It is safe to call twice.
func (j *Journal) Close() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.log.close()
}

// ErrLocked reports whether err is a ReasonJournalLocked refusal.
func ErrLocked(err error) bool { return errors.Is(err, ReasonJournalLocked) }
