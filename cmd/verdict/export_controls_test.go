package main

import (
	"path/filepath"
	"strings"
	"testing"

	"verdict/adjudication"
	"verdict/fixtures"
)

// TestNoteControlCharactersRefused: a rating sheet whose note holds a
// terminal escape, a C1 control or a bidi override is refused (bad-note),
// even when signed with the right key: `verdict export grades` refuses the
// export and writes no raw control character, and `verdict score` refuses
// the ratings. The untouched re-signed chain exports.
func TestNoteControlCharactersRefused(t *testing.T) {
	camp, ratings, _ := demoChain(t)
	if err := (fixtures.Forgery{}).Apply(ratings); err != nil {
		t.Fatal(err)
	}
	if code, out, errs := runCapture(t, "export", "grades", camp, "--ratings", ratings, "--allowed-signers", filepath.Join(ratings, "allowed_signers")); code != 0 || strings.ContainsAny(out, "\x1b\u009b\u202e") {
		t.Fatalf("untouched chain: exit %d\n%s%s", code, out, errs)
	}
	err := fixtures.Forgery{Sheet: func(name string, s *adjudication.Sheet, _ map[string]string) {
		if name == "ann" {
			s.Grades[0].Note = "look \x1b]0;pwned\x07\x1b[2J\u009b31m \u202eevil"
		}
	}}.Apply(ratings)
	if err != nil {
		t.Fatal(err)
	}
	code, out, errs := runCapture(t, "export", "grades", camp, "--ratings", ratings, "--allowed-signers", filepath.Join(ratings, "allowed_signers"))
	if code != 1 || !strings.Contains(out+errs, "bad-note") || strings.ContainsAny(out+errs, "\x1b\x07\u009b\u202e") {
		t.Fatalf("control characters in a note: exit %d\nstdout %q\nstderr %q", code, out, errs)
	}
	if code, reasons, out := scoreRefusal(t, camp, ratings); code != 1 || !containsReason(reasons, "bad-note") {
		t.Fatalf("score: exit %d, reasons %v\n%.1500s", code, reasons, out)
	}
}
