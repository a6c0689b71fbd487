package main

import (
	"errors"
	"fmt"
	"io"
	"slices"

	"verdict/internal/plural"
	"verdict/pipeline"
	"verdict/verr"
)

// admissionNote is what blind, reveal and export say about the admission
// of the campaign they worked on (pipeline.AdmissionFailures): they go on
// with a campaign that is not admitted (a dry run is legitimate) but never
// silently. Its JSON form is the "admission" member of their --format json
// reports.
type admissionNote struct {
	// Checked is false when the command was given no campaign to check
	// (reveal without --campaign); the other members are then zero.
	Checked bool `json:"checked"`
	// Admitted is true when the campaign has no admission failure.
	Admitted bool `json:"admitted"`
	// Refused is true when the strict loader refused the campaign; then
	// Failures counts its refusals.
	Refused bool `json:"refused"`
	// Failures counts the admission failures `verdict check` lists (its
	// refusals when the campaign is refused).
	Failures int `json:"admission_failures"`
	// Reasons are the failures' distinct reason codes, sorted.
	Reasons []verr.Reason `json:"reasons"`
	// See is the command that lists every failure.
	See string `json:"see,omitempty"`
}

// newAdmissionNote is the note of a campaign named name (the argument the
// user gave; "" for the embedded campaign) with the given admission
// failures (pipeline.AdmissionFailures).
func newAdmissionNote(name string, failures []*verr.Error) *admissionNote {
	n := &admissionNote{Checked: true, Admitted: len(failures) == 0, Failures: len(failures), Reasons: []verr.Reason{}}
	for _, f := range failures {
		if !slices.Contains(n.Reasons, f.Reason) {
			n.Reasons = append(n.Reasons, f.Reason)
		}
	}
	slices.Sort(n.Reasons)
	if !n.Admitted {
		n.See = "verdict check"
		if name != "" {
			n.See += " " + name
		}
	}
	return n
}

// uncheckedAdmission is the note of a command given no campaign to check.
func uncheckedAdmission() *admissionNote {
	return &admissionNote{Reasons: []verr.Reason{}}
}

// warn writes the note's warning on w (stderr) for a command that
// produced what (for example "the bundles"): nothing when the campaign is
// admitted; a "warning: … NOT ADMITTED" line naming the count, the reason
// codes and `verdict check` otherwise; for an unchecked note, the hint.
func (n *admissionNote) warn(w io.Writer, what, hint string) {
	switch {
	case !n.Checked:
		fmt.Fprintf(w, "verdict: note: campaign admission not checked: %s\n", hint)
	case !n.Admitted:
		count := plural.Count(n.Failures, "admission failure", "admission failures")
		if n.Refused {
			count = "refused by the strict loader, " + plural.Count(n.Failures, "refusal", "refusals")
		}
		fmt.Fprintf(w, "verdict: warning: the campaign is NOT ADMITTED: %s (%s); list them with: %s\n"+
			"verdict: warning: %s are for a dry run only, not evidence for a result (CONTRACT §5: only an admitted campaign is scored)\n",
			count, reasonList(n.Reasons), n.See, what)
	}
}

// reasonList joins reason codes with ", ", at most five and "…" after.
func reasonList(rs []verr.Reason) string {
	var s string
	for i, r := range rs {
		if i == 5 {
			return s + ", …"
		}
		if i > 0 {
			s += ", "
		}
		s += string(r)
	}
	return s
}

// campaignAdmission is the admission note of the campaign directory dir
// (pipeline.AdmissionFailuresOf), for export and reveal --campaign; a
// campaign the strict loader refuses is not admitted, its refusals
// counted instead.
func campaignAdmission(dir string) *admissionNote {
	fails, err := pipeline.AdmissionFailuresOf(pipeline.DirFS(dir))
	for _, e := range verr.Flatten(err) {
		var ve *verr.Error
		if !errors.As(e, &ve) {
			ve = &verr.Error{Reason: verr.ReasonError, Detail: e.Error()}
		}
		fails = append(fails, ve)
	}
	n := newAdmissionNote(dir, fails)
	n.Refused = err != nil
	return n
}
