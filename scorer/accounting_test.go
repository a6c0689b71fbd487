package scorer

import (
	"encoding/json"
	"strings"
	"testing"

	"verdict/campaign"
)

func gateOf(t *testing.T, r AccountingReport, name string) Gate {
	t.Helper()
	g, ok := r.Gate(name)
	if !ok {
		t.Fatalf("no gate %s", name)
	}
	return g
}

func TestAccountingPassingCampaign(t *testing.T) {
	c := testCampaign(campaign.PhaseEvaluation, 8, 3)
	r := Accounting(c)
	for _, g := range r.Gates {
		if !g.Pass {
			t.Errorf("gate %s failed: %s %s", g.Name, g.Reason, g.Detail)
		}
	}
	if len(r.Pairs) != 24 || len(r.Tasks) != 8 || len(r.Sessions) != 72 {
		t.Fatalf("pairs %d tasks %d sessions %d", len(r.Pairs), len(r.Tasks), len(r.Sessions))
	}
	p := r.Pairs[0]
	// D 0.0407952 + A 0.0504 / + B 0.0564 exactly.
	if p.A.Cost != Of[PicoUSD](91_195_200_000) || p.B.Cost != Of[PicoUSD](97_195_200_000) {
		t.Fatalf("workflow costs %s %s", p.A.Cost, p.B.Cost)
	}
	// Time: D 60 s + review + its validation 1 s + assembly 0.5 s.
	if p.A.Time != Of[Nanosecond](111_500_000_000) || p.B.Time != Of[Nanosecond](116_500_000_000) {
		t.Fatalf("workflow times %s %s", p.A.Time, p.B.Time)
	}
	if p.CostRatio.Rat().RatString() != "20249/18999" {
		t.Fatalf("pair cost ratio %s", p.CostRatio.Rat().RatString())
	}
	if r.CostLabel != "increased cost by 6.58%" || r.TimeLabel != "increased time by 4.48%" {
		t.Fatalf("labels %q %q", r.CostLabel, r.TimeLabel)
	}
	if r.Aggregate.ReviewCostRatio.Rat().RatString() != "47/42" {
		t.Fatalf("review-only ratio %s", r.Aggregate.ReviewCostRatio.Rat().RatString())
	}
	// C20: physical billing counts each D once; allocations include it twice.
	phys := int64(24) * (40_795_200_000 + 50_400_000_000 + 56_400_000_000)
	if r.PhysicalBilling.Cost != Of[PicoUSD](phys) || r.PhysicalBilling.Sessions != 72 {
		t.Fatalf("physical %s sessions %d", r.PhysicalBilling.Cost, r.PhysicalBilling.Sessions)
	}
	if r.AllocatedCostA.Add(r.AllocatedCostB) != Of[PicoUSD](phys+24*40_795_200_000) {
		t.Fatalf("allocations %s %s", r.AllocatedCostA, r.AllocatedCostB)
	}
	if r.PhysicalBilling.ActualCharge.Known || r.PhysicalBilling.ActualCharge.String() != "unknown" {
		t.Fatal("unattributed actual charges must be unknown, not zero")
	}
	a, _ := json.Marshal(r)
	b, _ := json.Marshal(Accounting(testCampaign(campaign.PhaseEvaluation, 8, 3)))
	if string(a) != string(b) {
		t.Fatal("accounting JSON not deterministic")
	}
}

// C14: one outlier pair fails its own gate although aggregate and task
// medians pass; fewer calls never enter a gate.
func TestAccountingC14OutlierPair(t *testing.T) {
	c := testCampaign(campaign.PhaseEvaluation, 8, 3)
	setSpec(session(c, "T1", 2, campaign.RoleReviewB), meterSpec{23000, 16000, 7000, 55})
	r := Accounting(c)
	if g := gateOf(t, r, GateCostPairedWorkflow); g.Pass || g.Reason != ReasonCostPairExceeded || !strings.Contains(g.Detail, "T1 r2") {
		t.Fatalf("pair gate %+v", g)
	}
	for _, n := range []string{GateCostAggregate, GateCostTaskMedian, GateTimePairedWorkflow} {
		if g := gateOf(t, r, n); !g.Pass {
			t.Fatalf("%s should pass: %+v", n, g)
		}
	}
	if r.Pass() {
		t.Fatal("report passes with a failing gate")
	}
}

// Exact inclusive bounds: a paired time ratio of exactly 1.25 passes and
// one nanosecond more fails; exact task bound 1.15 likewise.
func TestAccountingExactBounds(t *testing.T) {
	c := testCampaign(campaign.PhaseEvaluation, 8, 3)
	// A workflow time = 60 + 50 + 1.5 = 111.5 s; B = 1.25 × that = 139.375 s
	// → B review duration = 139.375 − 60 − 1.5 = 77.875 s.
	b := session(c, "T1", 1, campaign.RoleReviewB)
	*b.Receipt.EndMonotonicNS = *b.Receipt.StartMonotonicNS + 77_875_000_000
	if g := gateOf(t, Accounting(c), GateTimePairedWorkflow); !g.Pass {
		t.Fatalf("ratio exactly 1.25 must pass: %+v", g)
	}
	*b.Receipt.EndMonotonicNS++
	if g := gateOf(t, Accounting(c), GateTimePairedWorkflow); g.Pass || g.Reason != ReasonTimePairExceeded {
		t.Fatalf("ratio just above 1.25 must fail: %+v", g)
	}
	*b.Receipt.EndMonotonicNS -= 2
	if g := gateOf(t, Accounting(c), GateTimePairedWorkflow); !g.Pass {
		t.Fatalf("ratio just below 1.25 must pass: %+v", g)
	}
}

// Aggregate exactly 1.10 passes; just above fails (one observation per
// task as in development round 2).
func TestAccountingAggregateBound(t *testing.T) {
	c := testCampaign(campaign.PhaseDevelopmentRound2, 4, 1)
	// A workflow time 111.5 s per task; B must total 1.1 × 111.5 = 122.65 s
	// → B review duration 122.65 − 61.5 = 61.15 s on every task.
	for _, task := range []string{"T1", "T2", "T3", "T4"} {
		b := session(c, task, 1, campaign.RoleReviewB)
		*b.Receipt.EndMonotonicNS = *b.Receipt.StartMonotonicNS + 61_150_000_000
	}
	r := Accounting(c)
	if g := gateOf(t, r, GateTimeAggregate); !g.Pass || r.Aggregate.TimeRatio.Rat().RatString() != "11/10" {
		t.Fatalf("exact 1.10 must pass: %+v %s", g, r.Aggregate.TimeRatio)
	}
	if !strings.Contains(gateOf(t, r, GateTimeAggregate).Detail, "increased time by 10.00%") {
		t.Fatal(gateOf(t, r, GateTimeAggregate).Detail)
	}
	b := session(c, "T4", 1, campaign.RoleReviewB)
	*b.Receipt.EndMonotonicNS++
	if g := gateOf(t, Accounting(c), GateTimeAggregate); g.Pass || g.Reason != ReasonTimeAggregateExceeded {
		t.Fatalf("just above 1.10 must fail: %+v", g)
	}
}

func TestAccountingUnknownNeverZero(t *testing.T) {
	c := testCampaign(campaign.PhaseEvaluation, 8, 3)
	session(c, "T3", 1, campaign.RoleReviewA).Receipt.Meter = nil
	r := Accounting(c)
	for _, n := range []string{GateCostBasis, GateCostAggregate, GateCostTaskMedian, GateCostPairedWorkflow, GateSessionInput, GateSessionOutput} {
		if g := gateOf(t, r, n); g.Pass || g.Reason != ReasonMeterMissing {
			t.Fatalf("%s: %+v", n, g)
		}
	}
	if r.PhysicalBilling.Cost.String() != "unknown" {
		t.Fatal("physical cost must be unknown")
	}
	// Time gates do not depend on the meter.
	if g := gateOf(t, r, GateTimeAggregate); !g.Pass {
		t.Fatalf("%+v", g)
	}
	c = testCampaign(campaign.PhaseEvaluation, 8, 3)
	c.Manifest.Execution.PriceCard = nil
	if g := gateOf(t, Accounting(c), GateCostBasis); g.Pass || g.Reason != ReasonTariffMissing {
		t.Fatalf("%+v", g)
	}
	c = testCampaign(campaign.PhaseEvaluation, 8, 3)
	c.Manifest.Execution.TariffVerified = bp(false)
	if g := gateOf(t, Accounting(c), GateCostBasis); g.Pass || g.Reason != ReasonTariffUnverified {
		t.Fatalf("%+v", g)
	}
	c = testCampaign(campaign.PhaseEvaluation, 8, 3)
	s := session(c, "T2", 1, campaign.RoleReviewB)
	s.Receipt.MCPCalls = 2
	if g := gateOf(t, Accounting(c), GateCostBasis); g.Pass || g.Reason != ReasonMCPCostMissing {
		t.Fatalf("MCP calls without metered cost: %+v", g)
	}
}

// C20: a shared draft billed in two runs fails its gate.
func TestAccountingC20DoubleBilledDraft(t *testing.T) {
	c := testCampaign(campaign.PhaseEvaluation, 8, 3)
	c.Manifest.Runs[1].Sessions.Draft = c.Manifest.Runs[0].Sessions.Draft
	g := gateOf(t, Accounting(c), GateSharedDraftBilling)
	if g.Pass || g.Reason != ReasonSharedDraftBilledTwice {
		t.Fatalf("%+v", g)
	}
}

// C23: a failed shared draft charges D to both workflows, keeps every pair
// in the denominators and invents no review charge.
func TestAccountingC23FailedDraft(t *testing.T) {
	c := testCampaign(campaign.PhaseEvaluation, 8, 3)
	failDraft(c, "T5", 2)
	r := Accounting(c)
	if len(r.Pairs) != 24 || r.Tasks[4].Repetitions != 3 {
		t.Fatalf("denominators shrank: %d pairs", len(r.Pairs))
	}
	var p PairAccount
	for _, x := range r.Pairs {
		if x.Task == "T5" && x.Repetition == 2 {
			p = x
		}
	}
	if p.A.ReviewDispatched || p.A.Cost != Of[PicoUSD](40_795_200_000) || p.B.Cost != Of[PicoUSD](40_795_200_000) || p.A.Time != Of[Nanosecond](60_000_000_000) {
		t.Fatalf("failed-draft workflows %+v", p)
	}
	if p.ReviewCostRatio.Known || p.ReviewCostRatio.Why != ReasonNotDispatched {
		t.Fatalf("review-only ratio %+v", p.ReviewCostRatio)
	}
	if r.PhysicalBilling.Sessions != 70 {
		t.Fatalf("physical sessions %d", r.PhysicalBilling.Sessions)
	}
}
