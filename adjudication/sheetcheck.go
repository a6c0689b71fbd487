package adjudication

import (
	"fmt"
	"slices"
	"strings"

	"verdict/blinding"
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

// CheckGradeValue checks one value against the grade vocabulary: the kind
// is one of Kinds (ReasonGradeKind), the value is allowed for it
// (ReasonBadValue; an oracle_defect flag on a sheet is ValueDefective) and
// a completeness field targets TargetFinal (ReasonBadValue). The error is
// a *verr.Error whose pointer is the field ("item/kind/target").
func CheckGradeValue(f Field, value string) error {
	vocab, ok := allowed[f.Kind]
	if !ok {
		return verr.Newf(ReasonGradeKind, "", f.String(), ruleGrades, "%s: unknown kind %q; valid kinds: %s", f, f.Kind, KindList())
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
// required field (RequiredFields of every item) and every (item, truth
// obligation) an oracle-defect flag may name.
type FieldSet struct {
	items       map[string]bool
	required    map[Field]bool
	obligations map[[2]string]bool
}

// NewFieldSet returns the FieldSet of bundle b (which must carry its items).
func NewFieldSet(b *blinding.Bundle) *FieldSet {
	fs := &FieldSet{items: map[string]bool{}, required: map[Field]bool{}, obligations: map[[2]string]bool{}}
	for i := range b.Items {
		it := &b.Items[i]
		fs.items[it.ID] = true
		for _, f := range RequiredFields(it) {
			fs.required[f] = true
		}
		for _, o := range it.Obligations {
			fs.obligations[[2]string{it.ID, o.ID}] = true
		}
	}
	return fs
}

// CheckSheetFields checks sheet s (read from file) against the fields of
// its bundle: every grade names an item of the bundle (ReasonUnknownItem)
// and a required field of that item or an oracle-defect flag on one of
// its truth obligations (ReasonUnknownField), and every required field
// has a grade (ReasonSheetIncomplete, naming how many are missing and the
// first in canonical order). The sheet's own grades are assumed checked
// (ParseSheet). Errors are *verr.Error with file and pointer.
func CheckSheetFields(file string, s *Sheet, fs *FieldSet) error {
	graded := 0
	for i, g := range s.Grades {
		ptr := fmt.Sprintf("/grades/%d", i)
		switch {
		case !fs.items[g.Item]:
			return verr.Newf(ReasonUnknownItem, file, ptr, ruleGrades, "%s: item %q is not in the sheet's bundle", g.Field, g.Item)
		case g.Kind == KindOracleDefect:
			if !fs.obligations[[2]string{g.Item, g.Target}] {
				return verr.Newf(ReasonUnknownField, file, ptr, "EVALUATOR-CONTROLS C22", "%s: the item has no truth obligation %q", g.Field, g.Target)
			}
		case !fs.required[g.Field]:
			return verr.Newf(ReasonUnknownField, file, ptr, ruleGrades, "%s is not a field of this item in the sheet's bundle", g.Field)
		default:
			graded++ // one grade per field: ParseSheet refused duplicates
		}
	}
	if missing := len(fs.required) - graded; missing > 0 {
		have := make(map[Field]bool, graded)
		for _, g := range s.Grades {
			have[g.Field] = true
		}
		var first Field
		found := false
		for f := range fs.required {
			if !have[f] && (!found || CompareFields(f, first) < 0) {
				first, found = f, true
			}
		}
		return verr.Newf(ReasonSheetIncomplete, file, "/grades", "DESIGN Roles: a rater grades every final answer, then freezes and signs",
			"%d required field(s) of bundle %s have no grade, first %s; a frozen sheet grades every field of its bundle", missing, s.BundleDigest, first)
	}
	return nil
}
