package scorer

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"verdict/verr"
)

// Scope says which validity a finding bears on. The contract reports the
// final answer's structural validity and B's ledger (protocol) validity
// separately (CONTRACT §4 "Source and protocol correctness": a valid final
// with a malformed reconciliation is scored normally with protocol_gate =
// false).
type Scope string

// The two scopes of a finding.
const (
	// ScopeFinal marks a finding about the final answer ("final" object):
	// it bears on final-answer validity and the source gate.
	ScopeFinal Scope = "final"
	// ScopeProtocol marks a finding about B's reconciliation record
	// ("reconciliation" object): it bears on the protocol gate only.
	ScopeProtocol Scope = "protocol"
)

// Finding is one automatic structural result about one response: a stable
// reason code, the response file (campaign relative, slash separated), the
// RFC 6901 JSON pointer of the offending value inside that file, the scope
// (final answer or ledger), the contract rule that was broken and one
// sentence saying what was wrong. Findings are not refusals: a response
// with findings still loads and is scored as a structural failure.
type Finding struct {
	// Code is the reason code, one of the Reason constants of this package.
	Code verr.Reason `json:"code"`
	// File is the response file, e.g. "responses/S3.json".
	File string `json:"file"`
	// Pointer is the JSON pointer of the offending value, e.g.
	// "/final/citations/2/end_line".
	Pointer string `json:"pointer"`
	// Scope is "final" or "protocol".
	Scope Scope `json:"scope"`
	// Rule names the contract rule, e.g. "EVALUATOR-CONTROLS C09".
	Rule string `json:"rule"`
	// Message is one sentence naming the IDs involved.
	Message string `json:"message"`
}

// String formats the finding as "file#pointer: code: message [rule] (scope)".
func (f Finding) String() string {
	return fmt.Sprintf("%s#%s: %s: %s [%s] (%s)", f.File, f.Pointer, f.Code, f.Message, f.Rule, f.Scope)
}

// Err returns the finding as a *verr.Error carrying the same reason,
// file, pointer, rule and message, so that errors.Is(f.Err(), code) holds.
func (f Finding) Err() *verr.Error {
	return &verr.Error{Reason: f.Code, File: f.File, Pointer: f.Pointer, Rule: f.Rule, Detail: f.Message}
}

// SortFindings orders findings deterministically: by file, then by JSON
// pointer (segment by segment, array indices compared as numbers so that
// /claims/2 precedes /claims/10), then by code and scope. The sort is
// stable: findings equal on these keys keep their (deterministic) order of
// discovery, e.g. missing dispositions in packet E-ID order.
func SortFindings(fs []Finding) {
	slices.SortStableFunc(fs, compareFindings)
}

func compareFindings(a, b Finding) int {
	if c := cmp.Compare(a.File, b.File); c != 0 {
		return c
	}
	if c := comparePointers(a.Pointer, b.Pointer); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Code, b.Code); c != 0 {
		return c
	}
	return cmp.Compare(a.Scope, b.Scope)
}

// comparePointers compares two JSON pointers segment by segment; two
// all-digit segments compare as numbers, otherwise as strings. A pointer
// that is a prefix of another sorts first.
func comparePointers(a, b string) int {
	as, bs := strings.Split(a, "/"), strings.Split(b, "/")
	for i := 0; i < len(as) && i < len(bs); i++ {
		x, y := as[i], bs[i]
		if x == y {
			continue
		}
		nx, ex := strconv.Atoi(x)
		ny, ey := strconv.Atoi(y)
		if ex == nil && ey == nil && nx != ny {
			return cmp.Compare(nx, ny)
		}
		return cmp.Compare(x, y)
	}
	return cmp.Compare(len(as), len(bs))
}
