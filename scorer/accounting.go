package scorer

import (
	"fmt"

	"verdict/campaign"
	"verdict/verr"
)

// Per-session absolute limits of CONTRACT §5 ("4 minutes per experimental
// session … 90,000 cumulative input tokens and 8,000 generated/billed
// output tokens per session"). All are inclusive.
const (
	// SessionMaxNS is the per-session time limit: 4 minutes in nanoseconds.
	SessionMaxNS int64 = 4 * 60 * 1_000_000_000
	// SessionMaxInputTokens is the per-session cumulative input limit
	// (uncached + cached).
	SessionMaxInputTokens int64 = 90_000
	// SessionMaxOutputTokens is the per-session billed output limit
	// (reasoning included once).
	SessionMaxOutputTokens int64 = 8_000
)

// Ratio bounds of CONTRACT §4 "Complete cost and time", as exact fractions;
// each is inclusive (a ratio equal to the bound passes).
const (
	AggregateBoundNum, AggregateBoundDen int64 = 11, 10 // Σ B task medians / Σ A task medians ≤ 1.10
	TaskBoundNum, TaskBoundDen           int64 = 23, 20 // each task-median ratio ≤ 1.15
	PairBoundNum, PairBoundDen           int64 = 5, 4   // each paired complete-workflow ratio ≤ 1.25
)

// SessionAccount is the measured accounting of one session (CONTRACT §5
// "Required records"). Values that were not measured are unknown, never 0.
type SessionAccount struct {
	Session    string                 `json:"session"`
	Task       string                 `json:"task"`
	Repetition int                    `json:"repetition"`
	Role       campaign.Role          `json:"role"`
	Status     campaign.ReceiptStatus `json:"status"`
	// Dispatched is false for a not-dispatched review (C23) and for a
	// planned session that has not started (Planned).
	Dispatched bool `json:"dispatched"`
	// Superseded marks an invalid original triplet replaced by the one
	// permitted infrastructure replacement: billed, not compared.
	Superseded bool `json:"superseded"`
	// InputTokens is uncached + cached input; BilledOutputTokens includes
	// reasoning once (CONTRACT §5).
	InputTokens         Tokens `json:"input_tokens"`
	UncachedInputTokens Tokens `json:"uncached_input_tokens"`
	CachedInputTokens   Tokens `json:"cached_input_tokens"`
	BilledOutputTokens  Tokens `json:"billed_output_tokens"`
	// ReferenceCost is the token cost at the manifest's price card.
	ReferenceCost Money `json:"reference_cost"`
	// MCPCost is the metered MCP charge (0 only when no MCP call was made).
	MCPCost Money `json:"mcp_cost"`
	// Cost is ReferenceCost + MCPCost: the session's comparative cost.
	Cost Money `json:"cost"`
	// ActualCharge is the attributable actual charge, unknown when not attributed.
	ActualCharge Money `json:"actual_charge"`
	// Duration is request start → terminal receipt from monotonic readings.
	Duration Nanos `json:"duration_ns"`
	// Validation and Assembly are this session's own deterministic
	// validation and prompt-assembly durations.
	Validation    Nanos `json:"validation_ns"`
	Assembly      Nanos `json:"assembly_ns"`
	OrdinaryCalls int   `json:"ordinary_calls"`
	MCPCalls      int   `json:"mcp_calls"`
}

// Workflow is one arm's complete workflow of one repetition (CONTRACT §4):
// shared draft D + that arm's review + the review's own validation and
// assembly. D is allocated to both arms here and billed once in
// PhysicalBilling (EVALUATOR-CONTROLS C20).
type Workflow struct {
	Arm string `json:"arm"`
	// Cost = D cost + review cost.
	Cost Money `json:"cost"`
	// Time = D duration + review duration + review validation + review
	// assembly; waiting for the sibling arm is not included.
	Time Nanos `json:"time_ns"`
	// ReviewCost and ReviewTime are the review-only parts.
	ReviewCost Money `json:"review_cost"`
	ReviewTime Nanos `json:"review_time_ns"`
	// ReviewDispatched is false when the shared draft failed (C23): the
	// workflow then costs exactly D and is a shared-draft failure.
	ReviewDispatched bool `json:"review_dispatched"`
	// Calls is the review's ordinary + MCP call count; reported only, it
	// never excuses a cost or time failure (C14).
	Calls int `json:"calls"`
}

// PairAccount is one repetition's paired outcome: workflows A and B and
// their exact B/A ratios (CONTRACT §4 "paired complete-workflow ratio").
type PairAccount struct {
	Task         string         `json:"task"`
	Repetition   int            `json:"repetition"`
	Order        campaign.Order `json:"order"`
	DraftSession string         `json:"draft_session"`
	A            Workflow       `json:"a"`
	B            Workflow       `json:"b"`
	ArmRatios    `json:",inline"`
}

// ArmRatios are the exact B/A ratios of complete-workflow cost and time
// and of review-only cost and time (CONTRACT §4) of one paired workflow,
// one task's medians or their sums.
type ArmRatios struct {
	CostRatio       Ratio `json:"cost_ratio"`
	TimeRatio       Ratio `json:"time_ratio"`
	ReviewCostRatio Ratio `json:"review_cost_ratio"`
	ReviewTimeRatio Ratio `json:"review_time_ratio"`
}

// TaskAccount holds one task's medians over its compared repetitions and
// the exact task-median ratios (CONTRACT §4).
type TaskAccount struct {
	Task        string `json:"task"`
	Repetitions int    `json:"repetitions"`
	// MedianCostA/B are the task medians of complete-workflow cost in
	// pico-USD, MedianTimeA/B of complete-workflow time in nanoseconds;
	// half a unit when the repetition count is even.
	MedianCostA Fractional[PicoUSD]    `json:"median_cost_a_pico_usd"`
	MedianCostB Fractional[PicoUSD]    `json:"median_cost_b_pico_usd"`
	MedianTimeA Fractional[Nanosecond] `json:"median_time_a_ns"`
	MedianTimeB Fractional[Nanosecond] `json:"median_time_b_ns"`
	ArmRatios   `json:",inline"`
}

// Aggregate holds Σ task medians per arm and their exact ratios.
type Aggregate struct {
	SumCostA  Fractional[PicoUSD]    `json:"sum_median_cost_a_pico_usd"`
	SumCostB  Fractional[PicoUSD]    `json:"sum_median_cost_b_pico_usd"`
	SumTimeA  Fractional[Nanosecond] `json:"sum_median_time_a_ns"`
	SumTimeB  Fractional[Nanosecond] `json:"sum_median_time_b_ns"`
	ArmRatios `json:",inline"`
	CostLabel string `json:"cost_label"`
	TimeLabel string `json:"time_label"`
}

// Billing is a total over sessions. PhysicalBilling counts each session
// once (shared D once); the allocation totals count D in both arms.
type Billing struct {
	Sessions      int    `json:"sessions"`
	InputTokens   Tokens `json:"input_tokens"`
	OutputTokens  Tokens `json:"output_tokens"`
	ReferenceCost Money  `json:"reference_cost"`
	Cost          Money  `json:"cost"`
	ActualCharge  Money  `json:"actual_charge"`
	ExecutionTime Nanos  `json:"execution_time_ns"`
}

// AccountingReport is the complete cost-and-time scorecard input of a
// campaign (CONTRACT §4–§5): per session, per paired workflow, per task,
// aggregate, physical billing versus comparative allocation, and each gate
// separately. It is deterministic: manifest order throughout.
type AccountingReport struct {
	Phase    campaign.Phase   `json:"phase"`
	Sessions []SessionAccount `json:"sessions"`
	Pairs    []PairAccount    `json:"pairs"`
	Tasks    []TaskAccount    `json:"tasks"`
	Aggregate
	// PhysicalBilling counts every session exactly once, including
	// superseded attempts and failed drafts (C20).
	PhysicalBilling Billing `json:"physical_billing"`
	// AllocatedCostA and AllocatedCostB are the sums of complete-workflow
	// costs of compared pairs; each includes every shared D (C20).
	AllocatedCostA Money `json:"allocated_cost_a"`
	AllocatedCostB Money `json:"allocated_cost_b"`
	// Gates are the named gates in fixed order; never OR'ed (C21).
	Gates []Gate `json:"gates"`
}

// Pass reports whether every gate passes.
func (r AccountingReport) Pass() bool {
	for _, g := range r.Gates {
		if !g.Pass {
			return false
		}
	}
	return true
}

// Gate returns the named gate and whether it exists.
func (r AccountingReport) Gate(name string) (Gate, bool) {
	for _, g := range r.Gates {
		if g.Name == name {
			return g, true
		}
	}
	return Gate{}, false
}

// workflow builds one arm's complete workflow from D and the review.
func workflow(arm string, d, rv SessionAccount) Workflow {
	w := Workflow{Arm: arm, ReviewDispatched: rv.Dispatched, Calls: rv.OrdinaryCalls + rv.MCPCalls}
	w.ReviewCost = rv.Cost
	w.ReviewTime = rv.Duration.Add(rv.Validation).Add(rv.Assembly)
	w.Cost = d.Cost.Add(w.ReviewCost)
	w.Time = d.Duration.Add(w.ReviewTime)
	return w
}

// Accounting computes the complete cost-and-time accounting and its gates
// for a loaded campaign (CONTRACT §4 "Complete cost and time", §5;
// EVALUATOR-CONTROLS C14, C20, C23). Unknown meters, tariffs or times make
// the values that depend on them unknown and fail the gates that read
// them; nothing unknown is counted as zero.
func Accounting(c *campaign.Campaign) AccountingReport {
	m := &c.Manifest
	card := m.Execution.PriceCard
	rep := AccountingReport{Phase: m.Phase, Sessions: make([]SessionAccount, 0, 3*len(m.Runs))}
	byRun := sessionsByRun(c)
	compared, superseded := comparedRuns(m)

	// Per-session accounts, manifest order, each session ID once in
	// physical billing; a repeated session or request ID is a double bill.
	var doubles []string
	seenSession := make(map[string]bool, 3*len(m.Runs))
	seenRequest := make(map[string]string, 3*len(m.Runs))
	acct := make([][3]SessionAccount, len(m.Runs))
	phys := Billing{InputTokens: Of[Token](0), OutputTokens: Of[Token](0), ReferenceCost: Of[PicoUSD](0), Cost: Of[PicoUSD](0), ActualCharge: Of[PicoUSD](0), ExecutionTime: Of[Nanosecond](0)}
	for i, r := range m.Runs {
		ids := [3]string{r.Sessions.Draft, r.Sessions.ReviewA, r.Sessions.ReviewB}
		roles := [3]campaign.Role{campaign.RoleDraft, campaign.RoleReviewA, campaign.RoleReviewB}
		var trio [3]SessionAccount
		for j := range 3 {
			s := byRun[i][j]
			if s == nil {
				s = missingSession(ids[j], r, roles[j])
			}
			a := sessionAccount(s, card)
			a.Superseded = superseded[i]
			trio[j] = a
			if seenSession[ids[j]] {
				doubles = append(doubles, fmt.Sprintf("session %s (%s) billed in more than one run", ids[j], roles[j]))
				continue
			}
			seenSession[ids[j]] = true
			if s.Receipt != nil && s.Receipt.RequestID != "" && s.Receipt.Status != campaign.StatusNotDispatched {
				if prev, ok := seenRequest[s.Receipt.RequestID]; ok {
					doubles = append(doubles, fmt.Sprintf("request %s billed by sessions %s and %s", s.Receipt.RequestID, prev, ids[j]))
				} else {
					seenRequest[s.Receipt.RequestID] = ids[j]
				}
			}
			rep.Sessions = append(rep.Sessions, a)
			if a.Dispatched {
				phys.Sessions++
			}
			phys.InputTokens = phys.InputTokens.Add(a.InputTokens)
			phys.OutputTokens = phys.OutputTokens.Add(a.BilledOutputTokens)
			phys.ReferenceCost = phys.ReferenceCost.Add(a.ReferenceCost)
			phys.Cost = phys.Cost.Add(a.Cost)
			phys.ActualCharge = phys.ActualCharge.Add(a.ActualCharge)
			phys.ExecutionTime = phys.ExecutionTime.Add(a.Duration).Add(a.Validation).Add(a.Assembly)
		}
		acct[i] = trio
	}
	rep.PhysicalBilling = phys

	// Paired workflows of compared runs.
	rep.AllocatedCostA, rep.AllocatedCostB = Of[PicoUSD](0), Of[PicoUSD](0)
	if len(compared) > 0 { // no compared run leaves Pairs nil, as it reports
		rep.Pairs = make([]PairAccount, 0, len(compared))
	}
	taskPairs := map[string][]int{} // indices into rep.Pairs
	for _, i := range compared {
		r := m.Runs[i]
		t := acct[i]
		p := PairAccount{Task: r.Task, Repetition: r.Repetition, Order: r.Order, DraftSession: r.Sessions.Draft}
		p.A = workflow("A", t[0], t[1])
		p.B = workflow("B", t[0], t[2])
		p.CostRatio = RatioOf(p.B.Cost, p.A.Cost)
		p.TimeRatio = RatioOf(p.B.Time, p.A.Time)
		if p.A.ReviewDispatched && p.B.ReviewDispatched {
			p.ReviewCostRatio = RatioOf(p.B.ReviewCost, p.A.ReviewCost)
			p.ReviewTimeRatio = RatioOf(p.B.ReviewTime, p.A.ReviewTime)
		} else {
			why := undispatchedWhy(p)
			p.ReviewCostRatio = Ratio{Why: why}
			p.ReviewTimeRatio = Ratio{Why: why}
		}
		rep.AllocatedCostA = rep.AllocatedCostA.Add(p.A.Cost)
		rep.AllocatedCostB = rep.AllocatedCostB.Add(p.B.Cost)
		rep.Pairs = append(rep.Pairs, p)
		taskPairs[r.Task] = append(taskPairs[r.Task], len(rep.Pairs)-1)
	}

	// Task medians in manifest task order.
	sumCA, sumCB, sumRCA, sumRCB := Of[PicoUSD](0), Of[PicoUSD](0), Of[PicoUSD](0), Of[PicoUSD](0)
	sumTA, sumTB, sumRTA, sumRTB := Of[Nanosecond](0), Of[Nanosecond](0), Of[Nanosecond](0), Of[Nanosecond](0)
	cost := func(_ *PairAccount, w *Workflow) Money { return w.Cost }
	dur := func(_ *PairAccount, w *Workflow) Nanos { return w.Time }
	reviewCost := reviewOnly(func(w *Workflow) Money { return w.ReviewCost })
	reviewTime := reviewOnly(func(w *Workflow) Nanos { return w.ReviewTime })
	for _, te := range m.Tasks {
		ps := taskPairs[te.ID]
		ta := TaskAccount{Task: te.ID, Repetitions: len(ps)}
		ca, cb := medianOf(rep.Pairs, ps, "A", cost), medianOf(rep.Pairs, ps, "B", cost)
		tma, tmb := medianOf(rep.Pairs, ps, "A", dur), medianOf(rep.Pairs, ps, "B", dur)
		rca, rcb := medianOf(rep.Pairs, ps, "A", reviewCost), medianOf(rep.Pairs, ps, "B", reviewCost)
		rta, rtb := medianOf(rep.Pairs, ps, "A", reviewTime), medianOf(rep.Pairs, ps, "B", reviewTime)
		ta.MedianCostA, ta.MedianCostB = Fractional[PicoUSD]{ca}, Fractional[PicoUSD]{cb}
		ta.MedianTimeA, ta.MedianTimeB = Fractional[Nanosecond]{tma}, Fractional[Nanosecond]{tmb}
		ta.CostRatio = RatioOf(cb, ca)
		ta.TimeRatio = RatioOf(tmb, tma)
		ta.ReviewCostRatio = RatioOf(rcb, rca)
		ta.ReviewTimeRatio = RatioOf(rtb, rta)
		sumCA, sumCB = sumCA.Add(ca), sumCB.Add(cb)
		sumTA, sumTB = sumTA.Add(tma), sumTB.Add(tmb)
		sumRCA, sumRCB, sumRTA, sumRTB = sumRCA.Add(rca), sumRCB.Add(rcb), sumRTA.Add(rta), sumRTB.Add(rtb)
		rep.Tasks = append(rep.Tasks, ta)
	}
	rep.SumCostA, rep.SumCostB = Fractional[PicoUSD]{sumCA}, Fractional[PicoUSD]{sumCB}
	rep.SumTimeA, rep.SumTimeB = Fractional[Nanosecond]{sumTA}, Fractional[Nanosecond]{sumTB}
	rep.Aggregate.CostRatio = RatioOf(sumCB, sumCA)
	rep.Aggregate.TimeRatio = RatioOf(sumTB, sumTA)
	rep.Aggregate.ReviewCostRatio = RatioOf(sumRCB, sumRCA)
	rep.Aggregate.ReviewTimeRatio = RatioOf(sumRTB, sumRTA)
	rep.CostLabel = rep.Aggregate.CostRatio.Label("cost")
	rep.TimeLabel = rep.Aggregate.TimeRatio.Label("time")

	rep.Gates = accountingGates(c, &rep, doubles)
	return rep
}

// reviewOnly makes a pair's review-only amount of one workflow (its
// cost or time) unknown, with undispatchedWhy, when either review of the
// pair was not dispatched.
func reviewOnly[U Unit](f func(*Workflow) Exact[U]) func(*PairAccount, *Workflow) Exact[U] {
	return func(p *PairAccount, w *Workflow) Exact[U] {
		if !p.A.ReviewDispatched || !p.B.ReviewDispatched {
			return Unknown[U](undispatchedWhy(*p))
		}
		return f(w)
	}
}

// undispatchedWhy is why a pair with an undispatched review has no
// review-only value: session-planned when a review is planned, not started
// (a campaign in progress), otherwise not-dispatched (C23).
func undispatchedWhy(p PairAccount) verr.Reason {
	for _, w := range []Workflow{p.A, p.B} {
		if !w.ReviewDispatched && w.ReviewCost.Why == ReasonSessionPlanned {
			return ReasonSessionPlanned
		}
	}
	return ReasonNotDispatched
}

// medianOf is the exact median over the pairs at indices idx of f applied
// to one arm's workflow.
func medianOf[U Unit](pairs []PairAccount, idx []int, arm string, f func(*PairAccount, *Workflow) Exact[U]) Exact[U] {
	qs := make([]Exact[U], len(idx))
	for i, k := range idx {
		p := &pairs[k]
		w := &p.A
		if arm == "B" {
			w = &p.B
		}
		qs[i] = f(p, w)
	}
	return Median(qs)
}
