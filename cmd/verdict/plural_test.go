package main

import (
	"testing"
	"verdict/verr"
)

// TestCheckSummaryPlural: check's refusal summary says "1 refusal" and
// "1 admission failure", never "1 refusals".
func TestCheckSummaryPlural(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		r    checkReport
		want string
	}{
		{checkReport{Refusals: make([]verr.Problem, 1)}, "1 refusal"},
		{checkReport{Refusals: make([]verr.Problem, 2)}, "2 refusals"},
		{checkReport{Refusals: make([]verr.Problem, 1), MissingIdentities: []string{"model"}}, "1 refusal; missing identities: model"},
		{checkReport{Admission: make([]verr.Problem, 1)}, "1 admission failure"},
		{checkReport{}, "0 admission failures"},
	} {
		if got := c.r.summary(); got != c.want {
			t.Errorf("summary = %q, want %q", got, c.want)
		}
	}
}
