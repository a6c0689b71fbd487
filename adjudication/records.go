package adjudication

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"golang.org/x/crypto/ssh"

	"verdict/blinding"
	"verdict/verr"
)

// Record formats ("format" member of each record).
const (
	SheetFormat        = "verdict-rating-sheet-v1"
	AdjudicationFormat = "verdict-adjudication-v1"
	RevealFormat       = "verdict-reveal-v1"
)

// Record refusals.
const (
	// ReasonUngraded: freezing was asked while a required field is ungraded.
	ReasonUngraded verr.Reason = "ungraded-fields"
	// ReasonOtherBundle: a record is for another bundle (content, bundle or
	// obligations digest differs).
	ReasonOtherBundle verr.Reason = "other-bundle"
	// ReasonUnresolved: a disputed field has no adjudicated value.
	ReasonUnresolved verr.Reason = "unresolved-disagreement"
	// ReasonNotDisputed: a resolution names a field that is not disputed
	// (or names one twice).
	ReasonNotDisputed verr.Reason = "not-disputed"
	// ReasonSheetMismatch: an adjudication or reveal does not name the exact
	// sheets (or adjudication, or map commitment) it is used with.
	ReasonSheetMismatch verr.Reason = "records-not-named"
	// ReasonMalformedRecord: a record does not decode strictly or has the
	// wrong format.
	ReasonMalformedRecord verr.Reason = "malformed-record"
)

const ruleRecords = "DESIGN Signed records; Part 11 §11.50, §11.70"

// Sheet is a rater's frozen rating sheet (rating-sheet JSON, signed in
// NamespaceRating). Every required field of every bundled item has exactly
// one grade; oracle-defect flags follow. Grades are in canonical field
// order (CompareFields), so both raters' sheets list the same fields in
// the same order whatever their bundle order was.
type Sheet struct {
	Notice    string `json:"notice,omitempty"`
	Format    string `json:"format"`
	Synthetic bool   `json:"synthetic"`
	Signer    Signer `json:"signer"`
	// TimeUTC is the freezing time, RFC 3339 UTC (seconds).
	TimeUTC string `json:"time_utc"`
	// Meaning states what the signature means (Part 11 §11.50).
	Meaning           string `json:"meaning"`
	BundleRater       string `json:"bundle_rater"`
	BundleDigest      string `json:"bundle_digest"`
	ContentDigest     string `json:"content_digest"`
	ObligationsDigest string `json:"obligations_digest"`
	MapCommitment     string `json:"map_commitment"`
	// JournalDigest is the SHA-256 of the journal file bytes at freezing.
	JournalDigest string  `json:"journal_digest"`
	Grades        []Grade `json:"grades"`
	// ItemTimes is the rater's time per item from the journal, one entry
	// for every item of the bundle (0 for an item the journal recorded no
	// time on), sorted by item. It is not a grade: agreement, consensus
	// and scoring never read it.
	ItemTimes []ItemTime `json:"item_times"`
}

// ItemTime is the time a rater spent on one item (the sum of the journal's
// spent_ms over the item's grades), in milliseconds (>= 0).
type ItemTime struct {
	Item    string `json:"item"`
	SpentMS int64  `json:"spent_ms"`
}

// ReasonBadItemTimes: a sheet's item_times are not sorted by item, name an
// item more than once or an item the sheet does not grade, hold a negative
// time, or leave out an item the sheet grades (every item of the bundle
// has its entry, a zero time included; the sheet grades every item).
const ReasonBadItemTimes verr.Reason = "bad-item-times"

// checkItemTimes checks a sheet's item_times entries (ReasonBadItemTimes):
// sorted by item, each once, each an item the sheet grades, no negative
// time. That every graded item has its entry is checkItemTimesComplete.
func checkItemTimes(s *Sheet) error {
	graded := map[string]bool{}
	for _, g := range s.Grades {
		graded[g.Item] = true
	}
	for i, t := range s.ItemTimes {
		bad := func(why string) error {
			return verr.Newf(ReasonBadItemTimes, "", fmt.Sprintf("/item_times/%d", i), ruleItemTimes, "item_times[%d] (%s): %s", i, t.Item, why)
		}
		switch {
		case t.SpentMS < 0:
			return bad("the time is negative")
		case !graded[t.Item]:
			return bad("the sheet grades no field of this item")
		case i > 0 && s.ItemTimes[i-1].Item >= t.Item:
			return bad("not sorted by item, or repeated")
		}
	}
	return nil
}

// checkItemTimesComplete refuses (ReasonBadItemTimes) a sheet that leaves
// out the item_times entry of an item it grades. With the sheet's bundle
// at hand this is an entry for every item of the bundle, since the sheet
// grades every item's required fields (CheckSheetFields); crossCheck runs
// it after that check, so that a grade on a foreign item is refused as
// ReasonUnknownItem first.
func checkItemTimesComplete(file string, s *Sheet) error {
	timed := make(map[string]bool, len(s.ItemTimes))
	for _, t := range s.ItemTimes {
		timed[t.Item] = true
	}
	var missing []string
	for i, g := range s.Grades {
		if !timed[g.Item] && (i == 0 || s.Grades[i-1].Item != g.Item) {
			missing = append(missing, g.Item)
		}
	}
	if len(missing) > 0 {
		slices.Sort(missing)
		missing = slices.Compact(missing)
		return verr.Newf(ReasonBadItemTimes, file, "/item_times", ruleItemTimes,
			"%d graded item(s) have no item_times entry, first %s; a sheet has one entry for every item of its bundle (0 ms when the journal recorded no time)", len(missing), missing[0])
	}
	return nil
}

// ruleItemTimes is the rule of a sheet's item_times.
const ruleItemTimes = "rating sheet item_times: one entry per bundle item, sorted by item"

// SheetMeaning is the meaning of a rater's signature.
const SheetMeaning = "rating: I graded every field of every item of the bundle named here myself, from the task, packet and frozen obligations only, without seeing arm, cost, time, ledger or the other rater's grades; these grades are final and are frozen before any reveal"

// Meaning of an adjudicator's and a coordinator's signature.
const (
	AdjudicationMeaning = "adjudication: for every field on which the two frozen rating sheets named here differ, I resolved the final value against the frozen obligations, without seeing arm, cost, time or ledger; no obligation was rewritten"
	RevealMeaning       = "reveal: the rating sheets and the adjudication named here by SHA-256 were frozen and signed before I unblinded the sealed map with this commitment; only these records may be scored"
)

// FormatTime renders t as the RFC 3339 UTC time (seconds) records carry.
func FormatTime(t time.Time) string { return t.UTC().Truncate(time.Second).Format(time.RFC3339) }

// CheckBundleRater refuses with ReasonOtherBundle when bundle b was made
// for another rater than name: only b's own rater can freeze a sheet on
// it (NewSheet), so `verdict rate` checks it before the first grade.
func CheckBundleRater(b *blinding.Bundle, name string) error {
	if b.Rater != name {
		return &verr.Error{Reason: ReasonOtherBundle, Rule: "DESIGN Chain of custody: a sheet binds the bundle made for its signer",
			Detail: fmt.Sprintf("the bundle was made for rater %s; %s cannot freeze a sheet on it", b.Rater, name)}
	}
	return nil
}

// NewSheet freezes a complete journal state into a sheet for bundle b
// (digest bundleDigest) signed by name/role with key's fingerprint at t.
// It refuses with ReasonUngraded while any required field is ungraded,
// with ReasonBadRole unless role is RoleRater, and with ReasonOtherBundle
// when b was made for another rater than name.
func NewSheet(b *blinding.Bundle, bundleDigest, journalDigest string, st State, name string, role Role, key ssh.PublicKey, t time.Time) (*Sheet, error) {
	if len(st.Ungraded) > 0 {
		return nil, &verr.Error{Reason: ReasonUngraded, Rule: "DESIGN Roles: a rater grades every final answer, then freezes and signs",
			Detail: fmt.Sprintf("%d field(s) ungraded, first %s", len(st.Ungraded), st.Ungraded[0])}
	}
	s, err := signerFor(name, role, RoleRater, key)
	if err != nil {
		return nil, err
	}
	if err := CheckBundleRater(b, name); err != nil {
		return nil, err
	}
	grades := slices.Clone(st.Grades)
	for i := range grades {
		grades[i].Spent = 0
	}
	slices.SortFunc(grades, func(a, b Grade) int { return CompareFields(a.Field, b.Field) })
	sh := &Sheet{Format: SheetFormat, Synthetic: b.Synthetic, Signer: s, TimeUTC: FormatTime(t), Meaning: SheetMeaning,
		BundleRater: b.Rater, BundleDigest: bundleDigest, ContentDigest: b.ContentDigest, ObligationsDigest: b.ObligationsDigest,
		MapCommitment: b.MapCommitment, JournalDigest: journalDigest, Grades: grades}
	sh.ItemTimes = make([]ItemTime, 0, len(b.Items))
	for _, it := range b.Items {
		sh.ItemTimes = append(sh.ItemTimes, ItemTime{Item: it.ID, SpentMS: st.Spent[it.ID].Milliseconds()})
	}
	slices.SortFunc(sh.ItemTimes, func(a, b ItemTime) int { return strings.Compare(a.Item, b.Item) })
	if sh.Synthetic {
		sh.Notice = blinding.SyntheticNotice
	}
	return sh, nil
}

// Values returns the sheet's value per field ("" absent).
func (s *Sheet) Values() map[Field]Grade {
	m := map[Field]Grade{}
	for _, g := range s.Grades {
		m[g.Field] = g
	}
	return m
}

// JoinGrades calls pair with the grades of every field graded in a or b,
// as the two Values maps of two sheets would pair them: a full outer join on the exact field,
// the zero Grade for the side that lacks it, and the last grade of a field
// graded twice on one side. Fields come in canonical field order
// (CompareFields; two kinds outside Kinds by name). It holds no per-field
// map: two sheets of 10,000 sessions hold hundreds of thousands of fields;
// and a side already in that order (every verified sheet, ReasonGradeOrder)
// is not sorted again.
func JoinGrades(a, b []Grade, pair func(f Field, ga, gb Grade)) {
	cmpField := func(f, g Field) int {
		if c := CompareFields(f, g); c != 0 {
			return c
		}
		return strings.Compare(string(f.Kind), string(g.Kind))
	}
	order := func(gs []Grade) []int32 {
		idx := make([]int32, len(gs))
		for i := range idx {
			idx[i] = int32(i)
		}
		if !slices.IsSortedFunc(gs, func(x, y Grade) int { return cmpField(x.Field, y.Field) }) {
			slices.SortStableFunc(idx, func(i, j int32) int { return cmpField(gs[i].Field, gs[j].Field) })
		}
		// Keep the last grade of each field (a later grade replaces an earlier one).
		out := idx[:0]
		for k, i := range idx {
			if k+1 < len(idx) && cmpField(gs[i].Field, gs[idx[k+1]].Field) == 0 {
				continue
			}
			out = append(out, i)
		}
		return out
	}
	ia, ib := order(a), order(b)
	for len(ia) > 0 || len(ib) > 0 {
		switch {
		case len(ib) == 0 || len(ia) > 0 && cmpField(a[ia[0]].Field, b[ib[0]].Field) < 0:
			pair(a[ia[0]].Field, a[ia[0]], Grade{})
			ia = ia[1:]
		case len(ia) == 0 || cmpField(a[ia[0]].Field, b[ib[0]].Field) > 0:
			pair(b[ib[0]].Field, Grade{}, b[ib[0]])
			ib = ib[1:]
		default:
			pair(a[ia[0]].Field, a[ia[0]], b[ib[0]])
			ia, ib = ia[1:], ib[1:]
		}
	}
}

// Disagreement is one disputed field of two sheets: Values and Notes in
// the order of the adjudication's Sheets ("" for an oracle-defect flag
// one rater did not raise).
//
// NoteFindings[i] are the leak-scan findings in Notes[i] (ScanNote): the
// adjudicator sees them beside the note, which is shown as the rater wrote
// it (a note is evidence and is never rewritten).
type Disagreement struct {
	Field        Field            `json:"field"`
	Values       [2]string        `json:"values"`
	Notes        [2]string        `json:"notes"`
	NoteFindings [2][]NoteFinding `json:"note_findings"`
}

// NoteFinding is one finding of the leak scan in a rater's note: the
// finding's kind, the matched text (normalised and lower-cased, or U+XXXX
// for a control character) and the rule that matched it (DESIGN "leak
// scan": a note reaches the adjudicator, so it is scanned with the rules
// the bundles are scanned with).
type NoteFinding struct {
	Kind  blinding.FindingKind `json:"kind"`
	Token string               `json:"token"`
	Rule  string               `json:"rule,omitempty"`
}

// noteScanner is the scanner of rater notes: blinding's base tokens and
// context rules (the campaign's own tokens, session IDs and model names,
// are not known from two sheets).
var noteScanner = sync.OnceValue(func() *blinding.Scanner { return blinding.NewScanner(blinding.BaseLeakTokens) })

// ScanNote returns the leak-scan findings of one rater's note (an empty,
// non-nil slice when there are none, so that JSON shows []).
func ScanNote(note string) []NoteFinding {
	out := []NoteFinding{}
	if note == "" {
		return out
	}
	for _, f := range noteScanner().ScanText("", "", note) {
		out = append(out, NoteFinding{Kind: f.Kind, Token: f.Token, Rule: f.Rule})
	}
	return out
}

// Disagreements returns the disputed fields of two frozen sheets of the
// same bundle content, in canonical field order: every required field
// whose values differ, and every oracle-defect flag raised by one rater
// only. Notes alone never make a dispute. Sheets of different content or
// obligations give ReasonOtherBundle.
func Disagreements(a, b *Sheet) ([]Disagreement, error) {
	if a.ContentDigest != b.ContentDigest || a.ObligationsDigest != b.ObligationsDigest || a.MapCommitment != b.MapCommitment {
		return nil, &verr.Error{Reason: ReasonOtherBundle, Rule: ruleRecords, Detail: "the two sheets rate different bundle contents"}
	}
	var out []Disagreement
	JoinGrades(a.Grades, b.Grades, func(f Field, ga, gb Grade) {
		if ga.Value != gb.Value {
			out = append(out, Disagreement{Field: f, Values: [2]string{ga.Value, gb.Value}, Notes: [2]string{ga.Note, gb.Note},
				NoteFindings: [2][]NoteFinding{ScanNote(ga.Note), ScanNote(gb.Note)}})
		}
	})
	slices.SortFunc(out, func(x, y Disagreement) int { return CompareFields(x.Field, y.Field) })
	return out, nil
}

// RecordRef names a signed record by its signer and the SHA-256 of its
// exact file bytes.
type RecordRef struct {
	Name   string `json:"name"`
	SHA256 string `json:"sha256"`
}

// Resolution is the adjudicator's final value for one disputed field:
// Values are the two raters' values (Sheets order); Final is one of them,
// or another allowed value with a required Note. An oracle-defect field
// resolves to ValueDefective (confirmed; a reason note is required) or
// ValueWithdrawn ("": not a defect).
type Resolution struct {
	Field  Field     `json:"field"`
	Values [2]string `json:"values"`
	Final  string    `json:"final"`
	Note   string    `json:"note,omitempty"`
}

// Adjudication is the signed resolution of every disputed field of two
// frozen sheets (signed in NamespaceAdjudication).
type Adjudication struct {
	Notice            string       `json:"notice,omitempty"`
	Format            string       `json:"format"`
	Synthetic         bool         `json:"synthetic"`
	Signer            Signer       `json:"signer"`
	TimeUTC           string       `json:"time_utc"`
	Meaning           string       `json:"meaning"`
	ContentDigest     string       `json:"content_digest"`
	ObligationsDigest string       `json:"obligations_digest"`
	MapCommitment     string       `json:"map_commitment"`
	Sheets            [2]RecordRef `json:"sheets"`
	Resolutions       []Resolution `json:"resolutions"`
}

// FrozenSheet is a sheet with the SHA-256 of its exact file bytes.
type FrozenSheet struct {
	Sheet  *Sheet
	SHA256 string
}

// OrderSheets returns the two sheets in canonical order (by signer name,
// then digest), the order an adjudication lists them in.
func OrderSheets(a, b FrozenSheet) [2]FrozenSheet {
	if a.Sheet.Signer.Name > b.Sheet.Signer.Name || (a.Sheet.Signer.Name == b.Sheet.Signer.Name && a.SHA256 > b.SHA256) {
		return [2]FrozenSheet{b, a}
	}
	return [2]FrozenSheet{a, b}
}

// CheckResolution checks one chosen final value and note for d: the
// value is of the grade vocabulary (ReasonBadValue), a value neither
// rater chose has a note (ReasonNoteRequired), and a truthful_unknown is
// chosen only where a rater chose it (ReasonTruthfulUnknownOutsideObligations:
// only that shows the field is an obligation of a system comparison).
func CheckResolution(d Disagreement, final, note string) error {
	if err := checkNote(note); err != nil {
		return err
	}
	if d.Field.Kind == KindOracleDefect {
		if final != ValueDefective && final != ValueWithdrawn {
			return &verr.Error{Reason: ReasonBadValue, Rule: "EVALUATOR-CONTROLS C22", Detail: fmt.Sprintf("%s: final %q, want %q or \"\" (not a defect)", d.Field, final, ValueDefective)}
		}
		if final == ValueDefective && note == "" {
			return &verr.Error{Reason: ReasonNoteRequired, Rule: "EVALUATOR-CONTROLS C22", Detail: fmt.Sprintf("%s: confirming an oracle defect needs a reason note", d.Field)}
		}
		return nil
	}
	if final == ValueTruthfulUnknown && systemObligationKind(d.Field.Kind) && d.Values[0] != ValueTruthfulUnknown && d.Values[1] != ValueTruthfulUnknown {
		// Only a rater's truthful_unknown, which its sheet's bundle check
		// allowed, shows that the field is an obligation of a system
		// comparison.
		return &verr.Error{Reason: ReasonTruthfulUnknownOutsideObligations, Pointer: d.Field.String(), Rule: ruleUSet,
			Detail: fmt.Sprintf("%s: final %q where neither rater chose it: a resolution cannot show that the field is an obligation of a system comparison", d.Field, final)}
	}
	if err := CheckGradeValue(d.Field, final); err != nil {
		if e := (*verr.Error)(nil); errors.As(err, &e) && e.Reason == ReasonTruthfulUnknownOutsideObligations {
			return err
		}
		return &verr.Error{Reason: ReasonBadValue, Rule: ruleGrades, Detail: fmt.Sprintf("%s: final %q is not an allowed value", d.Field, final)}
	}
	if final != d.Values[0] && final != d.Values[1] && note == "" {
		return &verr.Error{Reason: ReasonNoteRequired, Rule: ruleRecords, Detail: fmt.Sprintf("%s: a final value neither rater chose needs a note", d.Field)}
	}
	return nil
}

// NewAdjudication builds the adjudication of two frozen sheets from one
// choice per disputed field. It refuses a choice whose shown ratings or
// allowed values are not the sheets' (CheckChoiceShown, sheets a then b),
// a choice for an undisputed or repeated field (ReasonNotDisputed), a
// missing choice (ReasonUnresolved), a bad value or a missing note
// (CheckResolution). A refusal of one choice points into the choices
// array ("/i", "/i/final", "/i/note"; the file is the caller's to name).
// What a choice shows is never recorded.
func NewAdjudication(a, b FrozenSheet, choices []Choice, name string, role Role, key ssh.PublicKey, t time.Time) (*Adjudication, error) {
	s, err := signerFor(name, role, RoleAdjudicator, key)
	if err != nil {
		return nil, err
	}
	// What a template shows is checked against the sheets in the order
	// given, the order the template was made in.
	given, err := Disagreements(a.Sheet, b.Sheet)
	if err != nil {
		return nil, err
	}
	if err := CheckChoiceShown(choices, given); err != nil {
		return nil, err
	}
	ord := OrderSheets(a, b)
	ds, err := Disagreements(ord[0].Sheet, ord[1].Sheet)
	if err != nil {
		return nil, err
	}
	byField := map[Field]Choice{}
	index := map[Field]int{}
	for i, c := range choices {
		if _, dup := byField[c.Field]; dup || !slices.ContainsFunc(ds, func(d Disagreement) bool { return d.Field == c.Field }) {
			return nil, &verr.Error{Reason: ReasonNotDisputed, Pointer: fmt.Sprintf("/%d", i), Rule: ruleRecords, Detail: fmt.Sprintf("%s is not a disputed field (or is resolved twice)", c.Field)}
		}
		byField[c.Field] = c
		index[c.Field] = i
	}
	adj := &Adjudication{Format: AdjudicationFormat, Synthetic: ord[0].Sheet.Synthetic, Signer: s, TimeUTC: FormatTime(t), Meaning: AdjudicationMeaning,
		ContentDigest: ord[0].Sheet.ContentDigest, ObligationsDigest: ord[0].Sheet.ObligationsDigest, MapCommitment: ord[0].Sheet.MapCommitment,
		Sheets:      [2]RecordRef{{ord[0].Sheet.Signer.Name, ord[0].SHA256}, {ord[1].Sheet.Signer.Name, ord[1].SHA256}},
		Resolutions: []Resolution{}}
	if adj.Synthetic {
		adj.Notice = blinding.SyntheticNotice
	}
	for _, d := range ds {
		c, ok := byField[d.Field]
		if !ok {
			return nil, &verr.Error{Reason: ReasonUnresolved, Rule: ruleRecords, Detail: fmt.Sprintf("%s is disputed (%q vs %q) and has no final value", d.Field, d.Values[0], d.Values[1])}
		}
		if err := CheckResolution(d, c.Final, c.Note); err != nil {
			return nil, atChoice(err, index[d.Field])
		}
		adj.Resolutions = append(adj.Resolutions, Resolution{Field: d.Field, Values: d.Values, Final: c.Final, Note: c.Note})
	}
	return adj, nil
}

// CheckAdjudication checks that adj names exactly sheets a and b (by
// SHA-256) and resolves exactly their disagreements with the values they
// hold (ReasonSheetMismatch, ReasonUnresolved, ReasonNotDisputed).
func CheckAdjudication(adj *Adjudication, a, b FrozenSheet) error {
	ord := OrderSheets(a, b)
	if adj.Sheets[0].SHA256 != ord[0].SHA256 || adj.Sheets[1].SHA256 != ord[1].SHA256 {
		return &verr.Error{Reason: ReasonSheetMismatch, Rule: ruleRecords, Detail: "the adjudication does not name these two sheets"}
	}
	ds, err := Disagreements(ord[0].Sheet, ord[1].Sheet)
	if err != nil {
		return err
	}
	if len(adj.Resolutions) > len(ds) {
		return &verr.Error{Reason: ReasonNotDisputed, Rule: ruleRecords, Detail: "the adjudication resolves fields that are not disputed"}
	}
	for i, d := range ds {
		if i >= len(adj.Resolutions) {
			return &verr.Error{Reason: ReasonUnresolved, Rule: ruleRecords, Detail: fmt.Sprintf("%s is disputed and unresolved", d.Field)}
		}
		r := adj.Resolutions[i]
		if r.Field != d.Field || r.Values != d.Values {
			return &verr.Error{Reason: ReasonUnresolved, Rule: ruleRecords, Detail: fmt.Sprintf("resolution %d is for %s, want %s with values %q", i, r.Field, d.Field, d.Values)}
		}
		if err := CheckResolution(d, r.Final, r.Note); err != nil {
			return err
		}
	}
	return nil
}

// Reveal is the coordinator's signed reveal record (NamespaceReveal): it
// binds the exact sheets and adjudication to the sealed map's commitment
// before arms are unblinded.
type Reveal struct {
	Notice        string       `json:"notice,omitempty"`
	Format        string       `json:"format"`
	Synthetic     bool         `json:"synthetic"`
	Signer        Signer       `json:"signer"`
	TimeUTC       string       `json:"time_utc"`
	Meaning       string       `json:"meaning"`
	MapCommitment string       `json:"map_commitment"`
	ContentDigest string       `json:"content_digest"`
	Sheets        [2]RecordRef `json:"sheets"`
	Adjudication  RecordRef    `json:"adjudication"`
}

// Names reports whether the reveal names exactly the two rating sheets
// with file digests sheet1 and sheet2 (SHA-256 hex, in either order) and
// the adjudication with file digest adj: the records a score may use.
func (r *Reveal) Names(sheet1, sheet2, adj string) bool {
	used := []string{sheet1, sheet2}
	named := []string{r.Sheets[0].SHA256, r.Sheets[1].SHA256}
	slices.Sort(used)
	slices.Sort(named)
	return slices.Equal(used, named) && r.Adjudication.SHA256 == adj
}

// NewReveal builds the reveal record for two frozen sheets and their
// adjudication (adjSHA256: SHA-256 of its file bytes) and the sealed map
// bytes. It refuses when the adjudication does not name the sheets or
// leaves a disagreement open, or the map is not the one the sheets'
// bundles committed to (ReasonSheetMismatch). Callers check signatures
// first (Verify): an unsigned record is not frozen.
func NewReveal(a, b FrozenSheet, adj *Adjudication, adjSHA256 string, mapBytes []byte, name string, role Role, key ssh.PublicKey, t time.Time) (*Reveal, error) {
	s, err := signerFor(name, role, RoleCoordinator, key)
	if err != nil {
		return nil, err
	}
	if err := CheckAdjudication(adj, a, b); err != nil {
		return nil, err
	}
	commit := blinding.Digest(mapBytes)
	if a.Sheet.MapCommitment != commit || b.Sheet.MapCommitment != commit || adj.MapCommitment != commit {
		return nil, &verr.Error{Reason: ReasonSheetMismatch, Rule: ruleRecords, Detail: "the sealed map is not the one the bundles committed to"}
	}
	ord := OrderSheets(a, b)
	r := &Reveal{Format: RevealFormat, Synthetic: a.Sheet.Synthetic, Signer: s, TimeUTC: FormatTime(t), Meaning: RevealMeaning,
		MapCommitment: commit, ContentDigest: a.Sheet.ContentDigest,
		Sheets:       [2]RecordRef{{ord[0].Sheet.Signer.Name, ord[0].SHA256}, {ord[1].Sheet.Signer.Name, ord[1].SHA256}},
		Adjudication: RecordRef{adj.Signer.Name, adjSHA256}}
	if r.Synthetic {
		r.Notice = blinding.SyntheticNotice
	}
	return r, nil
}

// Marshal returns a record's canonical bytes (blinding.MarshalCanonical).
func Marshal(v any) ([]byte, error) { return blinding.MarshalCanonical(v) }

// ParseSheet strictly decodes canonical sheet bytes and checks its grades
// (kinds and values of the grade vocabulary, one grade per field in
// canonical order: ReasonGradeKind, ReasonBadValue, ReasonNoteRequired,
// ReasonDuplicateGrade, ReasonGradeOrder).
func ParseSheet(file string, data []byte) (*Sheet, error) {
	s, err := parseSheet(file, data)
	if err != nil {
		return nil, err
	}
	if err := checkSheetGrades(file, s); err != nil {
		return nil, err
	}
	return s, nil
}

// ParseAdjudication strictly decodes canonical adjudication bytes.
func ParseAdjudication(file string, data []byte) (*Adjudication, error) {
	return parseAdjudication(file, func(v any) error { return blinding.UnmarshalStrict(file, data, v) })
}

// signedRecord is a record kind parseKind decodes: a pointer to a
// Sheet, Adjudication or Reveal, which names its format.
type signedRecord[T any] interface {
	*T
	recordFormat() string
}

func (s *Sheet) recordFormat() string        { return s.Format }
func (a *Adjudication) recordFormat() string { return a.Format }
func (r *Reveal) recordFormat() string       { return r.Format }

// parseKind is the one record parser: it decodes a record of kind T with
// decode (a strict canonical decoder of the record's bytes or stream;
// ReasonMalformedRecord when it fails) and checks that its format is
// want.
func parseKind[T any, P signedRecord[T]](file string, decode func(any) error, want string) (*T, error) {
	var v T
	if err := decode(&v); err != nil {
		return nil, &verr.Error{Reason: ReasonMalformedRecord, File: file, Rule: "canonical JSON record", Detail: err.Error(), Err: err}
	}
	if got := P(&v).recordFormat(); got != want {
		return nil, formatErr(file, got, want)
	}
	return &v, nil
}

// parseSheet, parseAdjudication and parseReveal are parseKind of each
// kind. A sheet whose grades array is in the canonical layout is read
// through spliceSheet (its grades array read once); any other sheet, and
// every refusal, is parseSheetWhole's.
func parseSheet(file string, data []byte) (*Sheet, error) {
	if s, _, ok := spliceSheet(file, data); ok {
		return s, nil
	}
	return parseSheetWhole(file, data)
}

// parseSheetWhole decodes a sheet from its bytes, strictly and
// canonically, into a grades slice reserved for it (reserveGrades).
func parseSheetWhole(file string, data []byte) (*Sheet, error) {
	return parseKind[Sheet](file, func(v any) error { return blinding.UnmarshalStrict(file, data, v, reserveGrades(data)) }, SheetFormat)
}

func parseAdjudication(file string, decode func(any) error) (*Adjudication, error) {
	return parseKind[Adjudication](file, decode, AdjudicationFormat)
}

func parseReveal(file string, decode func(any) error) (*Reveal, error) {
	return parseKind[Reveal](file, decode, RevealFormat)
}

func formatErr(file, got, want string) error {
	return verr.Newf(ReasonMalformedRecord, file, "/format", ruleRecords, "format %q, want %q", got, want)
}
