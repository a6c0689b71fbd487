package campaign

import (
	"fmt"
	"strings"
)

// Reason is a stable, machine-matchable reason code for a refusal or a
// finding, such as "duplicate-key" or "id-grammar". A Reason is itself an
// error so that callers can write errors.Is(err, campaign.ReasonDuplicateKey)
// against any *Error that carries it.
type Reason string

// Error returns the reason code text.
func (r Reason) Error() string { return string(r) }

// Error is a refusal of campaign input: the reason code, the file (campaign
// relative, slash separated), the RFC 6901 JSON pointer inside that file
// ("" for the whole file), the contract rule that was broken (for example
// "PROMPTS.md Exact response contract" or "EVALUATOR-CONTROLS C09") and a
// sentence saying what was wrong. errors.Is(err, r) reports true when
// err.Reason == r.
type Error struct {
	Reason  Reason
	File    string
	Pointer string
	Rule    string
	Detail  string
	Err     error // optional underlying cause
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

// IsRefusal reports whether err is or wraps a *Error (a refusal of input).
func IsRefusal(err error) bool {
	var e *Error
	return asError(err, &e)
}
