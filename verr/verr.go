// Package verr is verdict's one error type: Error, a refusal with a
// machine-matchable Reason code, the file, the RFC 6901 JSON pointer and
// the rule it broke, and Problem, its one JSON form
// {reason, file, pointer, rule, message}. Every package may import it;
// each package declares its own reason codes beside the rules that use
// them.
package verr

import (
	"errors"
	"fmt"
	"strings"
)

// Reason is a stable, machine-matchable reason code for a refusal or a
// finding, such as "duplicate-key" or "journal-locked". A Reason is itself
// an error so that callers can write errors.Is(err, SomeReason) against any
// *Error that carries it.
type Reason string

// Error returns the reason code text.
func (r Reason) Error() string { return string(r) }

// Error is a refusal of input: the reason code, the file (campaign
// relative and slash separated, or a path as the user gave it), the RFC
// 6901 JSON pointer inside that file ("" for the whole file), the rule
// that was broken (for example "PROMPTS.md Exact response contract" or
// "EVALUATOR-CONTROLS C09") and a sentence saying what was wrong.
// errors.Is(err, r) reports true when err.Reason == r.
type Error struct {
	Reason  Reason
	File    string
	Pointer string
	Rule    string
	Detail  string
	Err     error // optional underlying cause
}

// Newf is the refusal with reason r of the given file and JSON pointer
// under rule, its detail formatted by fmt.Sprintf(format, a...): the shape
// every record and round check builds.
func Newf(r Reason, file, pointer, rule, format string, a ...any) *Error {
	return &Error{Reason: r, File: file, Pointer: pointer, Rule: rule, Detail: fmt.Sprintf(format, a...)}
}

// Error formats the refusal as "file#pointer: reason: detail [rule]".
func (e *Error) Error() string {
	var b strings.Builder
	if e.File != "" {
		b.WriteString(e.File)
	}
	if e.Pointer != "" {
		b.WriteString("#")
		b.WriteString(e.Pointer)
	}
	if b.Len() > 0 {
		b.WriteString(": ")
	}
	b.WriteString(string(e.Reason))
	if e.Detail != "" {
		b.WriteString(": ")
		b.WriteString(e.Detail)
	}
	if e.Rule != "" {
		fmt.Fprintf(&b, " [%s]", e.Rule)
	}
	return b.String()
}

// Is reports whether target is the Reason carried by e.
func (e *Error) Is(target error) bool {
	r, ok := target.(Reason)
	return ok && r == e.Reason
}

// Unwrap returns the underlying cause, if any.
func (e *Error) Unwrap() error { return e.Err }

// ReasonError is the reason of a Problem made from an error that carries
// no *Error (an unexpected failure rather than a refusal of input).
const ReasonError Reason = "error"

// Problem is the one JSON form of an error in every report:
// {reason, file, pointer, rule, message}.
type Problem struct {
	Reason  Reason `json:"reason"`
	File    string `json:"file"`
	Pointer string `json:"pointer"`
	Rule    string `json:"rule"`
	Message string `json:"message"`
}

// ProblemOf is the Problem of err: the fields of the *Error it is or
// wraps, or ReasonError with err's text.
func ProblemOf(err error) Problem {
	var e *Error
	if errors.As(err, &e) {
		return Problem{Reason: e.Reason, File: e.File, Pointer: e.Pointer, Rule: e.Rule, Message: e.Detail}
	}
	return Problem{Reason: ReasonError, Message: err.Error()}
}

// Problems is the Problem of every leaf of err (Flatten), in order.
func Problems(err error) []Problem {
	var out []Problem
	for _, e := range Flatten(err) {
		out = append(out, ProblemOf(e))
	}
	return out
}

// String formats the problem as "file#pointer reason: message [rule]"
// ("campaign" when it names no file).
func (p Problem) String() string {
	loc := p.File
	if p.Pointer != "" {
		loc += "#" + p.Pointer
	}
	if loc == "" {
		loc = "campaign"
	}
	return fmt.Sprintf("%s %s: %s [%s]", loc, p.Reason, p.Message, p.Rule)
}

// Flatten unwraps errors.Join trees into their leaves, in order (nil for
// a nil error).
func Flatten(err error) []error {
	if err == nil {
		return nil
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var out []error
		for _, e := range j.Unwrap() {
			out = append(out, Flatten(e)...)
		}
		return out
	}
	return []error{err}
}
