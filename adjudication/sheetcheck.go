package adjudication

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"verdict/blinding"
	"verdict/campaign"
	"verdict/verr"
)

// Refusals of a rating sheet's grades: what a sheet alone can say is
// checked when it is parsed (ParseSheet, VerifyRecord); what needs its
// bundle is checked in CrossCheck when the bundle is given. Every command
// that reads a sheet (verify, agreement, disagreements, resolve, reveal,
// score, export) goes through one of the two, so each refuses alike.
const (
	// ReasonGradeKind: a grade names a kind outside the grade vocabulary
	// (Kinds), such as a journal's item_flag (GRADES vocabulary).
	ReasonGradeKind verr.Reason = "grade-kind"
	// ReasonDuplicateGrade: a sheet grades one field twice.
	ReasonDuplicateGrade verr.Reason = "duplicate-grade"
	// ReasonGradeOrder: a sheet's grades are not in canonical field order
	// (CompareFields), the order NewSheet freezes them in.
	ReasonGradeOrder verr.Reason = "grade-order"
	// ReasonSheetIncomplete: a required field of the sheet's bundle has no
	// grade (a frozen sheet grades every field; DESIGN Roles).
	ReasonSheetIncomplete verr.Reason = "sheet-incomplete"
)

// CheckGradeValue checks one value against the grade vocabulary of every
// design: the kind is one of Kinds (ReasonGradeKind), the value is allowed
// for it (ReasonBadValue; an oracle_defect flag on a sheet is
// ValueDefective; ValueTruthfulUnknown is an obligation and uncertainty
// value, refused on any other kind with
// ReasonTruthfulUnknownOutsideObligations) and a completeness field targets
// TargetFinal (ReasonBadValue). Whether truthful_unknown may stand on an
// obligation or uncertainty field depends on its bundle's design
// (CheckDesignValue). The error is a *verr.Error whose pointer is the
// field ("item/kind/target").
func CheckGradeValue(f Field, value string) error {
	vocab, ok := allowed[f.Kind]
	if !ok {
		return verr.Newf(ReasonGradeKind, "", f.String(), ruleGrades, "%s: unknown kind %q; valid kinds: %s", f, f.Kind, KindList())
	}
	if systemObligationKind(f.Kind) {
		vocab = FieldValues(campaign.DesignSystemComparison, f.Kind)
	} else if value == ValueTruthfulUnknown {
		return CheckDesignValue(campaign.DesignSystemComparison, f, value)
	}
	if !slices.Contains(vocab, value) {
		return verr.Newf(ReasonBadValue, "", f.String(), ruleGrades, "%s: value %q; allowed: %s", f, value, strings.Join(vocab, ", "))
	}
	if f.Kind == KindCompleteness && f.Target != TargetFinal {
		return verr.Newf(ReasonBadValue, "", f.String(), ruleGrades, "%s: a completeness field's target is %q", f, TargetFinal)
	}
	return nil
}

// checkSheetGrades checks what a sheet's grades say alone: every grade's
// kind and value (CheckGradeValue), a reason note on every oracle-defect
// flag (ReasonNoteRequired), one grade per field (ReasonDuplicateGrade)
// and canonical field order (ReasonGradeOrder). The first failing grade
// decides; the error is a *verr.Error naming file and /grades/<i>.
func checkSheetGrades(file string, s *Sheet) error {
	for i, g := range s.Grades {
		ptr := fmt.Sprintf("/grades/%d", i)
		if err := CheckGradeValue(g.Field, g.Value); err != nil {
			e := err.(*verr.Error)
			return verr.Newf(e.Reason, file, ptr, e.Rule, "%s", e.Detail)
		}
		if g.Kind == KindOracleDefect && g.Note == "" {
			return verr.Newf(ReasonNoteRequired, file, ptr, "EVALUATOR-CONTROLS C22", "%s: an oracle-defect flag needs a reason note", g.Field)
		}
		if i == 0 {
			continue
		}
		switch c := CompareFields(s.Grades[i-1].Field, g.Field); {
		case c == 0:
			return verr.Newf(ReasonDuplicateGrade, file, ptr, ruleGrades, "%s is graded twice (grades %d and %d)", g.Field, i-1, i)
		case c > 0:
			return verr.Newf(ReasonGradeOrder, file, ptr, ruleRecords, "%s comes after %s; a sheet lists its grades in canonical field order", g.Field, s.Grades[i-1].Field)
		}
	}
	return nil
}

// FieldSet is the gradable fields of one bundle, kept without the
// bundle's items (a caller may drop them once NewFieldSet returns): every
// required field (RequiredFields of every item), from which follows every
// (item, truth obligation) an oracle-defect flag may name. It is kept
// compactly, as the bundle's items sorted by ID, each with its required
// fields in canonical order (CompareFields) as a kind index and a target:
// a few words per field instead of one map entry per field, so that a
// large campaign's two bundles' fields cost little while score runs.
type FieldSet struct {
	items []itemFields // sorted by id, ids unique
	n     int          // required fields in all
	// design is the bundle's design: it decides where ValueTruthfulUnknown
	// may stand (CheckDesignValue).
	design campaign.Design
}

// itemFields is one item's required fields in canonical order.
type itemFields struct {
	id     string
	fields []fieldKey
}

// fieldKey is one field of an item: its kind (index in Kinds) and target.
type fieldKey struct {
	kind   int8
	target string
}

// compareKeys is CompareFields of two fields of one item.
func compareKeys(a, b fieldKey) int {
	if c := cmp.Compare(a.kind, b.kind); c != 0 {
		return c
	}
	return compareTargets(a.target, b.target)
}

// keyOf is the fieldKey of f (kind -1 when f's kind is not one of Kinds).
func keyOf(f Field) fieldKey {
	return fieldKey{int8(slices.Index(Kinds, f.Kind)), f.Target}
}

// NewFieldSet returns the FieldSet of bundle b (which must carry its items).
func NewFieldSet(b *blinding.Bundle) *FieldSet {
	fs := &FieldSet{items: make([]itemFields, 0, len(b.Items)), design: b.Design}
	for i := range b.Items {
		it := &b.Items[i]
		req := RequiredFields(it)
		keys := make([]fieldKey, len(req))
		for j, f := range req {
			keys[j] = keyOf(f)
		}
		fs.items = append(fs.items, itemFields{id: it.ID, fields: keys})
	}
	slices.SortStableFunc(fs.items, func(a, b itemFields) int { return strings.Compare(a.id, b.id) })
	// An item listed twice (not in a well-formed bundle) has the union of
	// its fields.
	out := fs.items[:0]
	for _, it := range fs.items {
		if n := len(out); n > 0 && out[n-1].id == it.id {
			out[n-1].fields = append(out[n-1].fields, it.fields...)
			continue
		}
		out = append(out, it)
	}
	fs.items = slices.Clip(out)
	for i := range fs.items {
		f := fs.items[i].fields
		slices.SortFunc(f, compareKeys)
		fs.items[i].fields = slices.Clip(slices.CompactFunc(f, func(a, b fieldKey) bool { return compareKeys(a, b) == 0 }))
		fs.n += len(fs.items[i].fields)
	}
	return fs
}

// item returns the index of the item with ID id, or -1.
func (fs *FieldSet) item(id string) int {
	i, ok := slices.BinarySearchFunc(fs.items, id, func(it itemFields, id string) int { return strings.Compare(it.id, id) })
	if !ok {
		return -1
	}
	return i
}

// field returns the index of k among item i's fields, or -1.
func (fs *FieldSet) field(i int, k fieldKey) int {
	j, ok := slices.BinarySearchFunc(fs.items[i].fields, k, compareKeys)
	if !ok {
		return -1
	}
	return j
}

// CheckSheetFields checks sheet s (read from file) against the fields of
// its bundle: every grade names an item of the bundle (ReasonUnknownItem)
// and a required field of that item or an oracle-defect flag on one of
// its truth obligations (ReasonUnknownField), and every required field
// has a grade (ReasonSheetIncomplete, naming how many are missing and the
// first in canonical order), and a truthful_unknown stands only where the
// bundle's design allows it (CheckDesignValue:
// ReasonTruthfulUnknownOutsideObligations). The sheet's own grades are assumed
// checked (ParseSheet). Errors are *verr.Error with file and pointer.
func CheckSheetFields(file string, s *Sheet, fs *FieldSet) error {
	graded := 0
	last := -1 // index of the last grade's item (grades come sorted by item)
	for i, g := range s.Grades {
		if last < 0 || fs.items[last].id != g.Item {
			last = fs.item(g.Item)
		}
		switch {
		case last < 0:
			return verr.Newf(ReasonUnknownItem, file, fmt.Sprintf("/grades/%d", i), ruleGrades, "%s: item %q is not in the sheet's bundle", g.Field, g.Item)
		case g.Kind == KindOracleDefect:
			if fs.field(last, fieldKey{int8(slices.Index(Kinds, KindObligation)), g.Target}) < 0 && fs.field(last, fieldKey{int8(slices.Index(Kinds, KindUncertainty)), g.Target}) < 0 {
				return verr.Newf(ReasonUnknownField, file, fmt.Sprintf("/grades/%d", i), "EVALUATOR-CONTROLS C22", "%s: the item has no truth obligation %q", g.Field, g.Target)
			}
		case fs.field(last, keyOf(g.Field)) < 0:
			return verr.Newf(ReasonUnknownField, file, fmt.Sprintf("/grades/%d", i), ruleGrades, "%s is not a field of this item in the sheet's bundle", g.Field)
		default:
			if err := CheckDesignValue(fs.design, g.Field, g.Value); err != nil {
				e := err.(*verr.Error)
				return verr.Newf(e.Reason, file, fmt.Sprintf("/grades/%d", i), e.Rule, "%s", e.Detail)
			}
			graded++ // one grade per field: ParseSheet refused duplicates
		}
	}
	if missing := fs.n - graded; missing > 0 {
		// Which fields have a grade, by position in the canonical order
		// (items by ID, each item's fields in order): the first one
		// without is the first missing field.
		offset := make([]int, len(fs.items))
		for i, n := 0, 0; i < len(fs.items); i++ {
			offset[i], n = n, n+len(fs.items[i].fields)
		}
		have := make([]bool, fs.n)
		for _, g := range s.Grades {
			if i := fs.item(g.Item); i >= 0 && g.Kind != KindOracleDefect {
				if j := fs.field(i, keyOf(g.Field)); j >= 0 {
					have[offset[i]+j] = true
				}
			}
		}
		first := Field{}
		for p, i := 0, 0; p < fs.n; p++ {
			for i+1 < len(fs.items) && offset[i+1] <= p {
				i++
			}
			if !have[p] {
				k := fs.items[i].fields[p-offset[i]]
				first = Field{Item: fs.items[i].id, Kind: Kinds[k.kind], Target: k.target}
				break
			}
		}
		return verr.Newf(ReasonSheetIncomplete, file, "/grades", "DESIGN Roles: a rater grades every final answer, then freezes and signs",
			"%d required field(s) of bundle %s have no grade, first %s; a frozen sheet grades every field of its bundle", missing, s.BundleDigest, first)
	}
	return nil
}
