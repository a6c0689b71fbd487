package scorer

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"verdict/adjudication"
	"verdict/verr"
)

// Reason codes of consensus and grade completeness. Each is matched with
// errors.Is against the returned *verr.Error.
const (
	// ReasonOpenDisagreement: the two frozen sheets differ on a field and no
	// adjudication resolves it; scoring refuses (DESIGN "Agreement").
	ReasonOpenDisagreement verr.Reason = "open-disagreement"
	// ReasonGradeValue: a grade value is not allowed for its kind (GRADES.md);
	// the rule and its code are adjudication's (CheckGradeValue).
	ReasonGradeValue = adjudication.ReasonBadValue
	// ReasonGradeKind: a grade names an unknown kind (GRADES.md;
	// adjudication.CheckGradeValue).
	ReasonGradeKind = adjudication.ReasonGradeKind
	// ReasonTruthfulUnknownOutsideObligations: a truthful_unknown grade
	// stands on a field other than an obligation or uncertainty field
	// (Consensus), or, settled, on a field that is not one of the task's
	// obligations in a system comparison's review (ScoreRun); the code is
	// adjudication's (CONTRACT §6).
	ReasonTruthfulUnknownOutsideObligations = adjudication.ReasonTruthfulUnknownOutsideObligations
	// ReasonDuplicateGrade: one sheet or adjudication grades one field twice
	// (the code of adjudication's sheet check).
	ReasonDuplicateGrade = adjudication.ReasonDuplicateGrade
	// ReasonAdjudicatedAgreedField: an adjudication resolves a field on which
	// the two frozen sheets already agree (the adjudicator resolves only
	// disagreements, CONTRACT §5).
	ReasonAdjudicatedAgreedField verr.Reason = "adjudicated-agreed-field"
	// ReasonOracleDefectNote: an oracle_defect grade carries no reason note
	// (C22); the code of adjudication's note rule.
	ReasonOracleDefectNote = adjudication.ReasonNoteRequired
	// ReasonMissingGrade: a field required by GRADES.md for a bundled item has
	// no settled value.
	ReasonMissingGrade verr.Reason = "missing-grade"
	// ReasonUnexpectedGrade: a settled grade names a target the graded answer
	// or the frozen truth does not have.
	ReasonUnexpectedGrade verr.Reason = "unexpected-grade"
)

// consensusRule is the rule cited by consensus refusals.
const consensusRule = "DESIGN Agreement; CONTRACT §5 adjudication"

// SheetGrade is one value of a frozen rating sheet or of an adjudication:
// a sheet's own grade (adjudication.Grade; its note is required non-empty
// for oracle_defect), so a verified sheet's grades are Consensus input as
// they are, without a copy.
type SheetGrade = adjudication.Grade

// GradeSource says how a consensus value was settled.
type GradeSource string

// The two ways a field settles.
const (
	// SourceAgreed: both frozen sheets hold the same value.
	SourceAgreed GradeSource = "agreed"
	// SourceAdjudicated: the sheets differ and the signed adjudication's value stands.
	SourceAdjudicated GradeSource = "adjudicated"
)

// ConsensusGrade is the settled value of one field.
type ConsensusGrade struct {
	Field  adjudication.Field `json:"field"`
	Value  string             `json:"value"`
	Source GradeSource        `json:"source"`
	// Notes are the non-empty notes of both raters and the adjudicator, in
	// that order.
	Notes []string `json:"notes,omitempty"`
}

// Consensus settles every field graded by either frozen sheet: a field on
// which both sheets hold the same value is agreed; a field on which they
// differ (including a field only one sheet holds, such as a single rater's
// oracle_defect flag) takes the adjudication's value. It refuses with a
// *verr.Error carrying ReasonOpenDisagreement (listing every open field)
// while any disagreement has no adjudicated value, ReasonGradeValue or
// ReasonGradeKind for a value outside GRADES.md, ReasonDuplicateGrade when one
// record grades a field twice, ReasonAdjudicatedAgreedField when the
// adjudication touches an agreed or ungraded field, and ReasonOracleDefectNote for an oracle_defect flag
// without a reason. The result is sorted by item, kind and target (targets
// compared by prefix, then number). A settled oracle_defect of
// adjudication.ValueWithdrawn ("", the adjudicator withdrew a single
// rater's flag) is dropped: no defect.
//
// The three records are joined by sorting an index of each (no per-field
// map): two sheets of a 10,000-session campaign hold hundreds of thousands
// of fields, and the result is the only per-field structure allocated.
func Consensus(sheet1, sheet2, adjudicated []SheetGrade) ([]ConsensusGrade, error) {
	// The three records are indexed side by side; a refusal is the first
	// in this order: sheet 1, sheet 2, the adjudication.
	var x [3]indexed
	var wg sync.WaitGroup
	for i, in := range []struct {
		gs  []SheetGrade
		who string
	}{{sheet1, "sheet 1"}, {sheet2, "sheet 2"}, {adjudicated, "adjudication"}} {
		wg.Go(func() { x[i] = indexGrades(in.gs, in.who, i == 2) })
	}
	wg.Wait()
	for _, r := range x {
		if r.err != nil {
			return nil, r.err
		}
	}
	s1, s2, adj := x[0].idx, x[1].idx, x[2].idx
	k1, k2, kA := x[0].keys, x[1].keys, x[2].keys
	var open []string
	orphan := -1 // the first adjudicated field neither sheet graded
	out := make([]ConsensusGrade, 0, max(len(s1), len(s2)))
	for len(s1) > 0 || len(s2) > 0 || len(adj) > 0 {
		// k is the next field in result order that a sheet grades, kk its
		// sort key.
		var k adjudication.Field
		var kk *fieldSortKey
		if len(s1) > 0 {
			k, kk = sheet1[s1[0]].Field, &k1[s1[0]]
		}
		if len(s2) > 0 {
			if kk == nil || k2[s2[0]].compare(kk) < 0 {
				k, kk = sheet2[s2[0]].Field, &k2[s2[0]]
			}
		}
		if len(adj) > 0 && (kk == nil || kA[adj[0]].compare(kk) < 0) {
			if orphan < 0 {
				orphan = int(adj[0])
			}
			adj = adj[1:]
			continue
		}
		var g1, g2, a SheetGrade
		var ok1, ok2, okA bool
		if len(s1) > 0 && k1[s1[0]].compare(kk) == 0 {
			g1, ok1, s1 = sheet1[s1[0]], true, s1[1:]
		}
		if len(s2) > 0 && k2[s2[0]].compare(kk) == 0 {
			g2, ok2, s2 = sheet2[s2[0]], true, s2[1:]
		}
		if len(adj) > 0 && kA[adj[0]].compare(kk) == 0 {
			a, okA, adj = adjudicated[adj[0]], true, adj[1:]
		}
		notes := nonEmpty(g1.Note, g2.Note)
		if ok1 && ok2 && g1.Value == g2.Value {
			if okA {
				return nil, verr.Newf(ReasonAdjudicatedAgreedField, "", k.String(), consensusRule, "adjudication gives %q for a field both sheets agree on (%q)", a.Value, g1.Value)
			}
			out = append(out, ConsensusGrade{Field: k, Value: g1.Value, Source: SourceAgreed, Notes: notes})
			continue
		}
		if !okA {
			open = append(open, fmt.Sprintf("%s (%s vs %s)", k, orAbsent(g1.Value, ok1), orAbsent(g2.Value, ok2)))
			continue
		}
		if k.Kind == adjudication.KindOracleDefect && a.Value == adjudication.ValueDefective && strings.TrimSpace(a.Note) == "" &&
			len(notes) == 0 {
			return nil, &verr.Error{Reason: ReasonOracleDefectNote, Pointer: k.String(), Rule: "GRADES.md oracle_defect; EVALUATOR-CONTROLS C22",
				Detail: "a confirmed oracle defect needs a reason note"}
		}
		if k.Kind == adjudication.KindOracleDefect && a.Value == adjudication.ValueWithdrawn {
			continue
		}
		out = append(out, ConsensusGrade{Field: k, Value: a.Value, Source: SourceAdjudicated, Notes: append(notes, nonEmpty(a.Note)...)})
	}
	if orphan >= 0 {
		return nil, &verr.Error{Reason: ReasonAdjudicatedAgreedField, Pointer: adjudicated[orphan].Field.String(), Rule: consensusRule,
			Detail: "adjudication grades a field neither sheet graded"}
	}
	if len(open) > 0 {
		return nil, &verr.Error{Reason: ReasonOpenDisagreement, Rule: consensusRule,
			Detail: fmt.Sprintf("%d open disagreement(s): %s", len(open), strings.Join(open, "; "))}
	}
	return out, nil
}

func orAbsent(v string, ok bool) string {
	if !ok {
		return "absent"
	}
	return strconv.Quote(v)
}

func nonEmpty(ss ...string) []string {
	var out []string
	for _, s := range ss {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// indexed is indexGrades' result: the positions of a record's grades in
// field order and each grade's sort key (by input position), or the
// refusal.
type indexed struct {
	idx  []int32
	keys []fieldSortKey
	err  error
}

// indexGrades checks every grade of one record in input order (kind, value,
// completeness target, oracle_defect note, a field graded twice) and
// returns the indices of gs sorted by field (compareFieldKeys). The first
// failing grade in input order decides the refusal.
func indexGrades(gs []SheetGrade, who string, isAdjudication bool) indexed {
	// Each field's sort key is split once, not at every comparison.
	keys := make([]fieldSortKey, len(gs))
	for i := range gs {
		keys[i] = keyOf(gs[i].Field)
	}
	idx := indexGradesOrder(gs, keys)
	// dupAt is the input position of the earliest repeated grade of a field
	// (its second occurrence in input order); -1 when every field is unique.
	dupAt := int32(-1)
	for k := 1; k < len(idx); k++ {
		if keys[idx[k-1]].compare(&keys[idx[k]]) == 0 && (dupAt < 0 || idx[k] < dupAt) {
			dupAt = idx[k]
		}
	}
	for i, g := range gs {
		// An adjudicator withdraws a single rater's oracle-defect flag with
		// ValueWithdrawn; every other value is the vocabulary's.
		withdrawn := isAdjudication && g.Field.Kind == adjudication.KindOracleDefect && g.Value == adjudication.ValueWithdrawn
		if err := adjudication.CheckGradeValue(g.Field, g.Value); err != nil && !withdrawn {
			e := err.(*verr.Error)
			return indexed{err: verr.Newf(e.Reason, "", e.Pointer, e.Rule, "%s: %s", who, e.Detail)}
		}
		if !isAdjudication && g.Field.Kind == adjudication.KindOracleDefect && strings.TrimSpace(g.Note) == "" {
			return indexed{err: &verr.Error{Reason: ReasonOracleDefectNote, Pointer: g.Field.String(), Rule: "GRADES.md oracle_defect; EVALUATOR-CONTROLS C22",
				Detail: who + " flags an oracle defect without a reason note"}}
		}
		if int32(i) == dupAt {
			return indexed{err: &verr.Error{Reason: ReasonDuplicateGrade, Pointer: g.Field.String(), Rule: "GRADES.md",
				Detail: who + " grades the field twice"}}
		}
	}
	return indexed{idx: idx, keys: keys}
}

// indexGradesOrder returns the positions of gs in field order (keys[i] is
// gs[i]'s sort key), equal fields in input order.
func indexGradesOrder(gs []SheetGrade, keys []fieldSortKey) []int32 {
	idx := make([]int32, len(gs))
	for i := range idx {
		idx[i] = int32(i)
	}
	// A record already in this order is left as it is. Otherwise the
	// indices are sorted by key and then by input position: the order a
	// stable sort gives, from an unstable sort (a verified sheet is in
	// adjudication's canonical field order, which orders item IDs and
	// kinds otherwise, so its hundreds of thousands of grades are sorted
	// here).
	if !slices.IsSortedFunc(idx, func(i, j int32) int { return keys[i].compare(&keys[j]) }) {
		slices.SortFunc(idx, func(i, j int32) int {
			if c := keys[i].compare(&keys[j]); c != 0 {
				return c
			}
			return cmp.Compare(i, j)
		})
	}
	return idx
}

// SortFieldKeys orders keys by item, kind and target; item IDs and targets
// compare by letter prefix and then by their decimal suffix as a number
// (O2 before O10).
func SortFieldKeys(keys []adjudication.Field) {
	slices.SortFunc(keys, compareFieldKeys)
}

func compareFieldKeys(a, b adjudication.Field) int {
	ka, kb := keyOf(a), keyOf(b)
	return ka.compare(&kb)
}

// fieldSortKey is a field's item ID and target split for naturalCompare
// (naturalID), and its kind: the key compareFieldKeys orders by.
type fieldSortKey struct {
	item   naturalID
	kind   adjudication.Kind
	target naturalID
}

func keyOf(f adjudication.Field) fieldSortKey {
	return fieldSortKey{item: splitNatural(f.Item), kind: f.Kind, target: splitNatural(f.Target)}
}

// compare orders keys by item, kind and target (compareFieldKeys).
func (k *fieldSortKey) compare(o *fieldSortKey) int {
	if c := k.item.compare(&o.item); c != 0 {
		return c
	}
	if c := cmp.Compare(k.kind, o.kind); c != 0 {
		return c
	}
	return k.target.compare(&o.target)
}

// naturalID is an ID split as naturalCompare splits it (splitID).
type naturalID struct {
	whole, prefix string
	num           int
}

func splitNatural(s string) naturalID {
	p, n := splitID(s)
	return naturalID{whole: s, prefix: p, num: n}
}

// compare is naturalCompare of the two IDs.
func (a *naturalID) compare(b *naturalID) int {
	if c := cmp.Compare(a.prefix, b.prefix); c != 0 {
		return c
	}
	if a.num >= 0 && b.num >= 0 && a.num != b.num {
		return cmp.Compare(a.num, b.num)
	}
	return cmp.Compare(a.whole, b.whole)
}

// naturalCompare compares IDs like "O12": by non-digit prefix, then numeric
// suffix, then the whole string.
func naturalCompare(a, b string) int {
	na, nb := splitNatural(a), splitNatural(b)
	return na.compare(&nb)
}

func splitID(s string) (string, int) {
	i := len(s)
	for i > 0 && s[i-1] >= '0' && s[i-1] <= '9' {
		i--
	}
	if i == len(s) {
		return s, -1
	}
	n, err := strconv.Atoi(s[i:])
	if err != nil {
		return s, -1
	}
	return s[:i], n
}
