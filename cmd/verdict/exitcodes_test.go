package main

import (
	"strings"
	"testing"

	"verdict/scorer"
)

// TestExitCodesTable: every decision kind has the exit code the one table
// documents (no-decision of development round 1 is not a failure), and
// the table is what `verdict help`, `help score` and `help check` print.
func TestExitCodesTable(t *testing.T) {
	t.Parallel()
	for k, want := range map[scorer.DecisionKind]int{
		scorer.DecisionAllGatesPass: 0, scorer.DecisionNoDecision: 0,
		scorer.DecisionQualityImprovesGateFails: 1, scorer.DecisionNoGain: 1, scorer.DecisionExecutionInvalid: 1,
		scorer.DecisionMadarAdvantage: 0, scorer.DecisionComparatorSimpler: 1, scorer.DecisionNoMadarAdvantage: 1,
	} {
		if got := decisionExit(k); got != want {
			t.Errorf("%s: exit %d, want %d", k, got, want)
		}
		if !strings.Contains(exitCodesHelp, string(k)) {
			t.Errorf("the exit code table does not name %s", k)
		}
	}
	for _, args := range [][]string{{"help"}, {"help", "score"}, {"help", "check"}} {
		code, out, _ := runCLI(t, args...)
		if code != 0 || !strings.Contains(out, exitCodesHelp) {
			t.Errorf("%v: exit %d, the table is missing:\n%s", args, code, out)
		}
	}
}
