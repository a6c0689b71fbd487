package adjudication

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"verdict/blinding"
	"verdict/campaign"
	"verdict/internal/visible"
	"verdict/verr"
)

// Kind is a grade kind of the shared grade vocabulary.
type Kind string

// The grade kinds (see the package documentation for targets and values).
const (
	// KindObligation grades an answerable truth obligation (CONTRACT §4 R).
	KindObligation Kind = "obligation"
	// KindUncertainty grades an unanswerable truth obligation (CONTRACT §4 U, C06–C08).
	KindUncertainty Kind = "uncertainty"
	// KindClaim grades a final claim's support (CONTRACT §4, C08).
	KindClaim Kind = "claim"
	// KindClaimCritical grades whether a final claim is critical (CONTRACT §4 gate 1).
	KindClaimCritical Kind = "claim_critical"
	// KindCitation grades whether citation K<i> supports its linked statements (C10).
	KindCitation Kind = "citation"
	// KindExclusion grades a final exclusion (C11).
	KindExclusion Kind = "exclusion"
	// KindCompleteness grades the answer's completeness claim; target "final" (CONTRACT §4).
	KindCompleteness Kind = "completeness"
	// KindOracleDefect is the optional oracle-defect flag on a truth
	// obligation (C22); value ValueDefective with a required reason note.
	KindOracleDefect Kind = "oracle_defect"
)

// Grade values (GRADES vocabulary).
const (
	ValueAddressed       = "addressed"
	ValueNotAddressed    = "not_addressed"
	ValueCredited        = "credited"
	ValueNotCredited     = "not_credited"
	ValueFalselyResolved = "falsely_resolved"
	ValueSupported       = "supported"
	ValueUnsupported     = "unsupported"
	ValueWrong           = "wrong"
	ValueCritical        = "critical"
	ValueNotCritical     = "not_critical"
	ValueSupports        = "supports"
	ValueDoesNotSupport  = "does_not_support"
	ValueJustified       = "justified"
	ValueWronglyExcludes = "wrongly_excludes"
	ValueNoFalseClaim    = "no_false_claim"
	ValueFalseClaim      = "false_claim"
	ValueDefective       = "defective"
	// ValueTruthfulUnknown grades an obligation of a system comparison
	// that the answer truthfully leaves unknown, naming what is missing
	// and a bounded way to verify it (CONTRACT §6): on an obligation of
	// the separately frozen U set (an uncertainty field) it is U credit;
	// on a repository-answerable obligation (an obligation field) it is a
	// legitimate answer counted apart, never correctly addressed, so it
	// never raises R_sys and fails critical completion on a critical
	// obligation. It is allowed on no other field (FieldValues;
	// ReasonTruthfulUnknownOutsideObligations).
	ValueTruthfulUnknown = "truthful_unknown"
	// ValueWithdrawn is accepted only in a journal entry of kind
	// oracle_defect: it withdraws an earlier oracle-defect flag (the earlier
	// entry stays in the journal; the flag is absent from the sheet).
	ValueWithdrawn = ""
	// TargetFinal is the only target of KindCompleteness.
	TargetFinal = "final"
)

// Kinds lists every kind in canonical order (the order fields of one item
// are presented and sorted in).
var Kinds = []Kind{KindObligation, KindUncertainty, KindClaim, KindClaimCritical, KindCitation, KindExclusion, KindCompleteness, KindOracleDefect}

var allowed = map[Kind][]string{
	KindObligation:    {ValueAddressed, ValueNotAddressed},
	KindUncertainty:   {ValueCredited, ValueNotCredited, ValueFalselyResolved},
	KindClaim:         {ValueSupported, ValueUnsupported, ValueWrong},
	KindClaimCritical: {ValueCritical, ValueNotCritical},
	KindCitation:      {ValueSupports, ValueDoesNotSupport},
	KindExclusion:     {ValueJustified, ValueWronglyExcludes},
	KindCompleteness:  {ValueNoFalseClaim, ValueFalseClaim},
	KindOracleDefect:  {ValueDefective},
}

// systemValues are the values an obligation or uncertainty field of a
// system comparison allows beyond AllowedValues (CONTRACT §6), after
// them: the keys of AllowedValues mean what they mean on every bundle.
var systemValues = []string{ValueTruthfulUnknown}

// systemObligationKind reports whether fields of kind k are obligations
// of a system comparison's task: obligation (repository-answerable) and
// uncertainty (the separately frozen U set).
func systemObligationKind(k Kind) bool { return k == KindObligation || k == KindUncertainty }

// KindList returns every kind of Kinds joined by ", " (for messages that
// list the valid kinds).
func KindList() string {
	ks := make([]string, len(Kinds))
	for i, k := range Kinds {
		ks[i] = string(k)
	}
	return strings.Join(ks, ", ")
}

// AllowedValues returns the allowed values of kind in presentation order
// (nil for an unknown kind).
func AllowedValues(k Kind) []string { return slices.Clone(allowed[k]) }

// FieldValues returns the allowed values of kind k on a bundle of design
// d in presentation order: AllowedValues(k), and for an obligation field
// (repository-answerable) or an uncertainty field (the separately frozen
// U set) of a system comparison also ValueTruthfulUnknown, last (CONTRACT
// §6). A fixed-evidence bundle's values are AllowedValues(k) unchanged.
func FieldValues(d campaign.Design, k Kind) []string {
	vs := AllowedValues(k)
	if d == campaign.DesignSystemComparison && systemObligationKind(k) {
		vs = append(vs, systemValues...)
	}
	return vs
}

// CheckDesignValue checks that value may stand on field f of a bundle of
// design d: ValueTruthfulUnknown only on an obligation of a system
// comparison's task (an obligation field, repository-answerable, or an
// uncertainty field, the U set); anywhere else (a fixed-evidence field,
// a claim, citation, exclusion, completeness or oracle-defect field) it
// is refused with ReasonTruthfulUnknownOutsideObligations. Other values
// are CheckGradeValue's to judge; this returns nil for them.
func CheckDesignValue(d campaign.Design, f Field, value string) error {
	if value != ValueTruthfulUnknown || (d == campaign.DesignSystemComparison && systemObligationKind(f.Kind)) {
		return nil
	}
	where := "a fixed-evidence bundle's field"
	if !systemObligationKind(f.Kind) {
		where = "a " + string(f.Kind) + " field"
	}
	return &verr.Error{Reason: ReasonTruthfulUnknownOutsideObligations, Pointer: f.String(), Rule: ruleUSet,
		Detail: fmt.Sprintf("%s: %q is allowed only on an obligation of a system comparison's task (repository-answerable or of the separately frozen U set), not on %s", f, value, where)}
}

// Field identifies one gradable field: (item ID, kind, target).
type Field struct {
	Item   string `json:"item"`
	Kind   Kind   `json:"kind"`
	Target string `json:"target"`
}

// String formats a field as "item/kind/target".
func (f Field) String() string { return f.Item + "/" + string(f.Kind) + "/" + f.Target }

// Grade is one rater's value for one field, with an optional note. Spent
// is the time the rater spent on the item before this grade (the journal
// records it in milliseconds for time-per-item; it is not part of a sheet).
type Grade struct {
	Field
	Value string        `json:"value"`
	Note  string        `json:"note,omitempty"`
	Spent time.Duration `json:"-"`
}

// Reasons for refusals of grades, journals and records (errors.Is).
const (
	// ReasonUnknownItem: a grade names an item that is not in the bundle.
	ReasonUnknownItem verr.Reason = "unknown-item"
	// ReasonUnknownField: the (kind, target) is not a field of that item.
	ReasonUnknownField verr.Reason = "unknown-field"
	// ReasonBadValue: the value is not allowed for the kind.
	ReasonBadValue verr.Reason = "bad-grade-value"
	// ReasonNoteRequired: an oracle-defect flag (or an adjudicated value
	// outside the two raters' values) has no note.
	ReasonNoteRequired verr.Reason = "note-required"
	// ReasonBadNote: a note is not trimmed, over 2,048 Unicode scalar values,
	// or holds a control or format character other than line feed
	// (visible.NeedsNotation: ESC, C1, bidi overrides, zero-width marks).
	ReasonBadNote verr.Reason = "bad-note"
	// ReasonTruthfulUnknownOutsideObligations: a truthful_unknown grade
	// stands on a field that is not an obligation of a system comparison's
	// task: any field of a fixed-evidence bundle, a claim, citation,
	// exclusion, completeness or oracle-defect field, or a target that is
	// none of the task's obligations (CONTRACT §6).
	ReasonTruthfulUnknownOutsideObligations verr.Reason = "truthful-unknown-outside-obligations"
)

// ruleUSet is the rule cited by ReasonTruthfulUnknownOutsideObligations.
const ruleUSet = "CONTRACT §6 (truthful unknowns receive U credit only and cannot increase R_sys; the separately frozen U set)"

const ruleGrades = "CONTRACT §4 semantic grades (GRADES vocabulary)"

// MaxNote is the longest note in Unicode scalar values (as every text of
// the response contract).
const MaxNote = 2048

// RequiredFields returns the required fields of one item in presentation
// order: per truth obligation in truth order an obligation (answerable) or
// uncertainty (not answerable) field; per final claim a claim and a
// claim_critical field; per citation K1..Kn; per exclusion; completeness.
// oracle_defect is optional and never required.
func RequiredFields(it *blinding.Item) []Field {
	f := &it.Final
	out := make([]Field, 0, len(it.Obligations)+2*len(f.Claims)+len(f.Citations)+len(f.Exclusions)+1)
	for _, o := range it.Obligations {
		k := KindUncertainty
		if o.Answerable {
			k = KindObligation
		}
		out = append(out, Field{it.ID, k, o.ID})
	}
	for _, c := range it.Final.Claims {
		out = append(out, Field{it.ID, KindClaim, c.ID}, Field{it.ID, KindClaimCritical, c.ID})
	}
	for i := range it.Final.Citations {
		out = append(out, Field{it.ID, KindCitation, "K" + strconv.Itoa(i+1)})
	}
	for _, x := range it.Final.Exclusions {
		out = append(out, Field{it.ID, KindExclusion, x.ID})
	}
	return append(out, Field{it.ID, KindCompleteness, TargetFinal})
}

// BundleFields returns RequiredFields of every item of b in bundle order.
func BundleFields(b *blinding.Bundle) []Field {
	var out []Field
	for i := range b.Items {
		out = append(out, RequiredFields(&b.Items[i])...)
	}
	return out
}

// CheckGrade checks g against bundle b: the item exists, the field is one
// of its required fields or an oracle_defect on one of its obligations,
// the value is allowed on b's design (FieldValues), and the note rules
// hold. Errors are *verr.Error with ReasonUnknownItem, ReasonUnknownField,
// ReasonBadValue, ReasonTruthfulUnknownOutsideObligations, ReasonNoteRequired or
// ReasonBadNote.
func CheckGrade(b *blinding.Bundle, g Grade) error {
	it := b.Item(g.Item)
	if it == nil {
		return unknownItem(g.Item)
	}
	return checkItemGrade(b.Design, it, g, func(f Field) bool { return slices.Contains(RequiredFields(it), f) })
}

func unknownItem(id string) error {
	return &verr.Error{Reason: ReasonUnknownItem, Rule: ruleGrades, Detail: fmt.Sprintf("item %q is not in the bundle", id)}
}

// checkItemGrade is CheckGrade for g on its (already found) item it of a
// bundle of design d;
// required reports whether a field is one of RequiredFields(it) (the
// journal answers from a set made once, not by listing the item's fields
// for every grade it replays).
func checkItemGrade(d campaign.Design, it *blinding.Item, g Grade, required func(Field) bool) error {
	if err := checkNote(g.Note); err != nil {
		return err
	}
	if g.Kind == KindOracleDefect {
		if !slices.ContainsFunc(it.Obligations, func(o blinding.Obligation) bool { return o.ID == g.Target }) {
			return &verr.Error{Reason: ReasonUnknownField, Rule: "EVALUATOR-CONTROLS C22", Detail: fmt.Sprintf("%s: no truth obligation %q", g.Field, g.Target)}
		}
		if g.Value == ValueWithdrawn {
			return nil
		}
		if g.Value != ValueDefective {
			return &verr.Error{Reason: ReasonBadValue, Rule: "EVALUATOR-CONTROLS C22", Detail: fmt.Sprintf("%s: value %q, want %q", g.Field, g.Value, ValueDefective)}
		}
		if g.Note == "" {
			return &verr.Error{Reason: ReasonNoteRequired, Rule: "EVALUATOR-CONTROLS C22", Detail: fmt.Sprintf("%s: an oracle-defect flag needs a reason note", g.Field)}
		}
		return nil
	}
	if !slices.Contains(Kinds, g.Kind) {
		return &verr.Error{Reason: ReasonUnknownField, Rule: ruleGrades, Detail: fmt.Sprintf("%s: unknown kind %q; valid kinds: %s", g.Field, g.Kind, KindList())}
	}
	if !required(g.Field) {
		return &verr.Error{Reason: ReasonUnknownField, Rule: ruleGrades, Detail: fmt.Sprintf("%s is not a field of this item", g.Field)}
	}
	if err := CheckDesignValue(d, g.Field, g.Value); err != nil {
		return err
	}
	if vs := FieldValues(d, g.Kind); !slices.Contains(vs, g.Value) {
		return &verr.Error{Reason: ReasonBadValue, Rule: ruleGrades, Detail: fmt.Sprintf("%s: value %q, want one of %s", g.Field, g.Value, strings.Join(vs, ", "))}
	}
	return nil
}

func checkNote(n string) error {
	if n != strings.TrimSpace(n) {
		return &verr.Error{Reason: ReasonBadNote, Rule: ruleGrades, Detail: "note has leading or trailing white space"}
	}
	if c := len([]rune(n)); c > MaxNote {
		return &verr.Error{Reason: ReasonBadNote, Rule: ruleGrades, Detail: fmt.Sprintf("note has %d Unicode scalar values, max %d", c, MaxNote)}
	}
	for i, r := range n {
		if visible.NeedsNotation(r) {
			return &verr.Error{Reason: ReasonBadNote, Rule: ruleGrades,
				Detail: fmt.Sprintf("note holds the control or format character U+%04X at byte %d (shown as %s); notes are plain text", r, i, visible.Text(string(r)))}
		}
	}
	return nil
}

// CompareFields orders fields canonically: by item ID, then kind in Kinds
// order, then target by prefix and number ("O2" before "O10").
func CompareFields(a, b Field) int {
	if c := strings.Compare(a.Item, b.Item); c != 0 {
		return c
	}
	if a.Kind != b.Kind {
		if c := cmp.Compare(slices.Index(Kinds, a.Kind), slices.Index(Kinds, b.Kind)); c != 0 {
			return c
		}
	}
	return compareTargets(a.Target, b.Target)
}

func compareTargets(a, b string) int {
	if a == b {
		return 0
	}
	pa, na := splitTarget(a)
	pb, nb := splitTarget(b)
	if c := strings.Compare(pa, pb); c != 0 {
		return c
	}
	if c := cmp.Compare(na, nb); c != 0 {
		return c
	}
	return strings.Compare(a, b)
}

// splitTarget splits t before its first ASCII digit (a byte that UTF-8
// uses for nothing else) into a prefix and the number the rest spells;
// a target without one, or whose rest is not a number, is all prefix.
func splitTarget(t string) (string, int) {
	i := 0
	for i < len(t) && (t[i] < '0' || t[i] > '9') {
		i++
	}
	if i == len(t) {
		return t, 0
	}
	n, err := strconv.Atoi(t[i:])
	if err != nil {
		return t, 0
	}
	return t[:i], n
}

func asCampaignError(err error, target **verr.Error) bool { return errors.As(err, target) }
