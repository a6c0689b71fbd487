package adjudication

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"verdict/blinding"
	"verdict/verr"
)

// ReasonMalformedGrades: a grades file (the input of `verdict grade
// --from`) does not decode strictly (syntax, duplicate or unknown keys,
// invalid UTF-8, wrong types) or holds an invalid value, such as a
// negative spent_ms or a kind outside the GRADES vocabulary.
const ReasonMalformedGrades verr.Reason = "malformed-grades"

// ruleGradesFile is the rule cited by DecodeGradesFile's refusals.
const ruleGradesFile = "grades file: a JSON array of {item, kind, target, value, note, spent_ms}"

// GradeInput is one grade of a grades file: the field (item, kind,
// target), the value, an optional note and the optional time spent on the
// item in milliseconds (0 when absent; never negative). It is always
// written, so that a template shows the member to fill.
type GradeInput struct {
	Item    string `json:"item"`
	Kind    Kind   `json:"kind"`
	Target  string `json:"target"`
	Value   string `json:"value"`
	Note    string `json:"note,omitempty"`
	SpentMS int64  `json:"spent_ms"`
	// Judge and Allowed are written by `verdict grade --template` for the
	// rater (what the field judges; the allowed values with their
	// codebook definitions) and may stay in the filled file: Judge is
	// checked against the bundle (CheckJudged), Allowed is not read.
	Judge   *FieldContext     `json:"judge,omitempty"`
	Allowed []ValueDefinition `json:"allowed,omitempty"`
}

// Grade returns the journal grade of g (Spent = SpentMS milliseconds).
// Whether the field and value are valid is checked by the journal.
func (g GradeInput) Grade() Grade {
	return Grade{Field: Field{Item: g.Item, Kind: g.Kind, Target: g.Target}, Value: g.Value, Note: g.Note,
		Spent: time.Duration(g.SpentMS) * time.Millisecond}
}

// DecodeGradesFile strictly decodes the grades file named file: a JSON
// array of GradeInput refusing duplicate keys, unknown keys, invalid UTF-8
// and wrong types, a kind outside Kinds (the detail lists the valid kinds)
// and a negative spent_ms. Every refusal is a *verr.Error with
// ReasonMalformedGrades naming file and, where known, the JSON pointer
// (0-based array index, RFC 6901, e.g. "/3/spent_ms"); the detail names
// the grade by its 1-based position ("grade 4").
func DecodeGradesFile(file string, data []byte) ([]GradeInput, error) {
	var in []GradeInput
	if err := jsonv2.Unmarshal(data, &in, jsonv2.RejectUnknownMembers(true)); err != nil {
		e := &verr.Error{Reason: ReasonMalformedGrades, File: file, Rule: ruleGradesFile, Detail: err.Error(), Err: err}
		var se *jsonv2.SemanticError
		var sy *jsontext.SyntacticError
		switch {
		case errors.As(err, &se):
			e.Pointer = string(se.JSONPointer)
		case errors.As(err, &sy):
			e.Pointer = string(sy.JSONPointer)
		}
		if n, ok := gradeOrdinal(e.Pointer); ok {
			e.Detail = fmt.Sprintf("grade %d: %s", n, e.Detail)
		}
		return nil, e
	}
	if in == nil {
		return nil, &verr.Error{Reason: ReasonMalformedGrades, File: file, Rule: ruleGradesFile, Detail: "the file holds null, not an array of grades"}
	}
	for i, g := range in {
		if !slices.Contains(Kinds, g.Kind) {
			return nil, verr.Newf(ReasonMalformedGrades, file, "/"+strconv.Itoa(i)+"/kind", ruleGrades, "grade %d: unknown kind %q; valid kinds: %s", i+1, g.Kind, KindList())
		}
		if g.SpentMS < 0 {
			return nil, verr.Newf(ReasonMalformedGrades, file, "/"+strconv.Itoa(i)+"/spent_ms", ruleGradesFile, "grade %d: spent_ms %d is negative; time spent is a count of milliseconds ≥ 0", i+1, g.SpentMS)
		}
	}
	return in, nil
}

// gradeOrdinal returns the 1-based position of the grade a JSON pointer
// into a grades file points in ("/3/kind" → 4), or false when the pointer
// does not start with an array index.
func gradeOrdinal(pointer string) (int, bool) {
	seg, _, _ := strings.Cut(strings.TrimPrefix(pointer, "/"), "/")
	if !strings.HasPrefix(pointer, "/") || seg == "" {
		return 0, false
	}
	i, err := strconv.Atoi(seg)
	if err != nil || i < 0 {
		return 0, false
	}
	return i + 1, true
}

// Template returns every required field of bundle b (BundleFields, bundle
// order) as a grades-file entry with an empty value, what the field judges
// (ContextOf) and its allowed values with their codebook definitions: the
// file a rater or a script fills in and passes to `verdict grade --from`.
// Optional oracle_defect flags are not included.
func Template(b *blinding.Bundle) []GradeInput {
	var out []GradeInput
	for i := range b.Items {
		it := &b.Items[i]
		for _, f := range RequiredFields(it) {
			c := ContextOf(it, f)
			out = append(out, GradeInput{Item: f.Item, Kind: f.Kind, Target: f.Target, Judge: &c, Allowed: AllowedDefinitions(b.Design, f.Kind)})
		}
	}
	return out
}

// ReasonGradeConflict: a grades file gives a field already graded in the
// journal another value, or another note, and replacing was not asked for
// (`verdict grade --from` without --replace). Nothing is written.
const ReasonGradeConflict verr.Reason = "grade-conflict"

// GradePlan is what a grades file adds to a journal (PlanGrades): the
// grades to append with the index of each in the file, and the counts the
// command reports.
type GradePlan struct {
	Append []Grade
	Index  []int
	// New grades a field not graded before; Replaced gives a graded field
	// another value or note (only with replace); Unchanged repeats a
	// graded field's value and note and is not written again.
	New, Replaced, Unchanged int
	// NotesKept counts grades without a note on a field whose journal
	// grade has one: the journal's note is carried into the new grade,
	// never dropped.
	NotesKept int
	// TimeNotCounted counts grades with spent_ms on a field already
	// graded: that time is not added again (an item's time is counted
	// once, from the grade that first graded each field).
	TimeNotCounted int
}

// PlanGrades decides, before anything is written, what the grades of a
// grades file (in, from file) do to a journal whose current grades are
// current (Journal.Saved), in file order, each grade seeing the ones
// before it. A field not yet graded is appended with its time. A field
// already graded with the same value and note (or no note) is left as it
// is. A different value or note is a conflict: refused with
// ReasonGradeConflict naming the first conflicting grade, its field and
// both values, and the number of conflicts, unless replace is set; with
// replace it is appended with no time. A grade without a note keeps the
// journal's note of the field.
func PlanGrades(file string, current map[Field]Grade, in []GradeInput, replace bool) (GradePlan, error) {
	var p GradePlan
	state := make(map[Field]Grade, len(in))
	type conflict struct {
		i          int
		what       string
		was, given string
	}
	var conflicts []conflict
	for i, gi := range in {
		g := gi.Grade()
		cur, ok := state[g.Field]
		if !ok {
			cur, ok = current[g.Field]
		}
		if !ok {
			p.Append, p.Index = append(p.Append, g), append(p.Index, i)
			p.New++
			state[g.Field] = g
			continue
		}
		if g.Note == "" && cur.Note != "" {
			g.Note = cur.Note
			p.NotesKept++
		}
		switch {
		case g.Value != cur.Value:
			conflicts = append(conflicts, conflict{i, "value", cur.Value, g.Value})
		case g.Note != cur.Note:
			conflicts = append(conflicts, conflict{i, "note", cur.Note, g.Note})
		default:
			p.Unchanged++
			if g.Spent > 0 {
				p.TimeNotCounted++
			}
			continue
		}
		if g.Spent > 0 {
			p.TimeNotCounted++
		}
		g.Spent = 0
		p.Append, p.Index = append(p.Append, g), append(p.Index, i)
		p.Replaced++
		state[g.Field] = g
	}
	if len(conflicts) > 0 && !replace {
		c := conflicts[0]
		f := in[c.i]
		return GradePlan{}, verr.Newf(ReasonGradeConflict, file, "/"+strconv.Itoa(c.i)+"/"+c.what, ruleGradesFile,
			"grade %d (%s %s %s): %s %q differs from %q already in the journal; %d grade(s) of this file conflict with the journal and nothing was written: "+
				"grade those fields again only on purpose, with --replace (it replaces them and says how many)",
			c.i+1, f.Item, f.Kind, f.Target, c.what, c.given, c.was, len(conflicts))
	}
	return p, nil
}
