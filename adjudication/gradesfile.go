package adjudication

import (
	"errors"
	"fmt"
	"strconv"
	"time"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"verdict/campaign"
)

// ReasonMalformedGrades: a grades file (the input of `verdict grade
// --from`) does not decode strictly (syntax, duplicate or unknown keys,
// invalid UTF-8, wrong types) or holds an invalid value, such as a
// negative spent_ms.
const ReasonMalformedGrades campaign.Reason = "malformed-grades"

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
// and wrong types, and a negative spent_ms. Every refusal is a
// *campaign.Error with ReasonMalformedGrades naming file and, where
// known, the JSON pointer (e.g. "/3/spent_ms").
func DecodeGradesFile(file string, data []byte) ([]GradeInput, error) {
	var in []GradeInput
	if err := jsonv2.Unmarshal(data, &in, jsonv2.RejectUnknownMembers(true)); err != nil {
		e := &campaign.Error{Reason: ReasonMalformedGrades, File: file, Rule: ruleGradesFile, Detail: err.Error(), Err: err}
		var se *jsonv2.SemanticError
		var sy *jsontext.SyntacticError
		switch {
		case errors.As(err, &se):
			e.Pointer = string(se.JSONPointer)
		case errors.As(err, &sy):
			e.Pointer = string(sy.JSONPointer)
		}
		return nil, e
	}
	if in == nil {
		return nil, &campaign.Error{Reason: ReasonMalformedGrades, File: file, Rule: ruleGradesFile, Detail: "the file holds null, not an array of grades"}
	}
	for i, g := range in {
		if g.SpentMS < 0 {
			return nil, &campaign.Error{Reason: ReasonMalformedGrades, File: file, Pointer: "/" + strconv.Itoa(i) + "/spent_ms", Rule: ruleGradesFile,
				Detail: fmt.Sprintf("spent_ms %d is negative; time spent is a count of milliseconds ≥ 0", g.SpentMS)}
		}
	}
	return in, nil
}
