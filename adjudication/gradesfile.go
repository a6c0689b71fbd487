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
// item in milliseconds (0 when absent; never negative).
type GradeInput struct {
	Item    string `json:"item"`
	Kind    Kind   `json:"kind"`
	Target  string `json:"target"`
	Value   string `json:"value"`
	Note    string `json:"note,omitempty"`
	SpentMS int64  `json:"spent_ms,omitempty"`
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
// order) as a grades-file entry with an empty value: the skeleton a script
// fills in and passes to `verdict grade --from`. Optional oracle_defect
// flags are not included.
func Template(b *blinding.Bundle) []GradeInput {
	fs := BundleFields(b)
	out := make([]GradeInput, len(fs))
	for i, f := range fs {
		out[i] = GradeInput{Item: f.Item, Kind: f.Kind, Target: f.Target}
	}
	return out
}
