package verr

import (
	"errors"
	"fmt"
	"testing"
)

func TestErrorIsReasonAndProblem(t *testing.T) {
	t.Parallel()
	const r Reason = "synthetic-reason"
	e := &Error{Reason: r, File: "f.json", Pointer: "/a/0", Rule: "RULE", Detail: "what was wrong"}
	wrapped := fmt.Errorf("context: %w", errors.Join(e, errors.New("plain")))
	if !errors.Is(wrapped, r) {
		t.Fatal("errors.Is does not find the reason through wrapping and joining")
	}
	if got, want := e.Error(), "f.json#/a/0: synthetic-reason: what was wrong [RULE]"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	ps := Problems(errors.Join(e, errors.New("plain")))
	if len(ps) != 2 || ps[0] != (Problem{Reason: r, File: "f.json", Pointer: "/a/0", Rule: "RULE", Message: "what was wrong"}) ||
		ps[1].Reason != ReasonError || ps[1].Message != "plain" {
		t.Errorf("Problems = %+v", ps)
	}
	if got, want := ps[0].String(), "f.json#/a/0 synthetic-reason: what was wrong [RULE]"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	if Flatten(nil) != nil {
		t.Error("Flatten(nil) is not nil")
	}
}

func TestNewfIsTheLiteral(t *testing.T) {
	t.Parallel()
	got := Newf("synthetic-reason", "f.json", "/a/1", "RULE", "value %q, want %d", "x", 2)
	want := &Error{Reason: "synthetic-reason", File: "f.json", Pointer: "/a/1", Rule: "RULE", Detail: `value "x", want 2`}
	if *got != *want || got.Error() != want.Error() {
		t.Errorf("Newf = %+v, want %+v", got, want)
	}
}
