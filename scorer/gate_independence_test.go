package scorer

import (
	"errors"
	"testing"
)

// TestGateIndependenceRefusesORCombinedGate: a paired time gate recorded
// as passing while one pair's own ratio is above 1.25 (the gate was OR'ed
// with another) is refused by Evaluate; recording it as failing is accepted.
func TestGateIndependenceRefusesORCombinedGate(t *testing.T) {
	acct := passingAccounting()
	acct.Pairs = []PairAccount{{Task: "T1", Repetition: 1, ArmRatios: ArmRatios{TimeRatio: RatioOf(Of[Nanosecond](130), Of[Nanosecond](100)), CostRatio: RatioOf(Of[PicoUSD](1), Of[PicoUSD](1))}}}
	if errs := CheckGateIndependence(acct); len(errs) != 1 || !errors.Is(errs[0], ReasonGateOrEscape) {
		t.Fatalf("got %v, want one gate-or-escape", errs)
	}
	in := testInput("evaluation", 8, 3, 4, 3, 4)
	in.Accounting = acct
	if _, err := Evaluate(*in); !errors.Is(err, ReasonGateOrEscape) {
		t.Fatalf("Evaluate: %v, want gate-or-escape", err)
	}
	for i := range acct.Gates {
		if acct.Gates[i].Name == GateTimePairedWorkflow {
			acct.Gates[i].Pass, acct.Gates[i].Reason = false, ReasonTimePairExceeded
		}
	}
	if errs := CheckGateIndependence(acct); len(errs) != 0 {
		t.Fatalf("a failing gate was refused: %v", errs)
	}
}
