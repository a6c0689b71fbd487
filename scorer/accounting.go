package scorer

import (
	"fmt"
	"strings"

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

// Gate names of the complete cost-and-time scorecard (CONTRACT §4). Each is
// its own gate; none is ever OR'ed with another (EVALUATOR-CONTROLS C21).
const (
	GateCostBasis          = "cost-basis"
	GateCostAggregate      = "cost-aggregate-ratio"
	GateCostTaskMedian     = "cost-task-median-ratio"
	GateCostPairedWorkflow = "cost-paired-workflow-ratio"
	GateTimeBasis          = "time-basis"
	GateTimeAggregate      = "time-aggregate-ratio"
	GateTimeTaskMedian     = "time-task-median-ratio"
	GateTimePairedWorkflow = "time-paired-workflow-ratio"
	GateSessionDuration    = "session-duration-limit"
	GateSessionInput       = "session-input-token-limit"
	GateSessionOutput      = "session-output-token-limit"
	GateSharedDraftBilling = "shared-draft-billed-once"
)

// Reason codes of failing cost-and-time gates (CONTRACT §4–§5,
// EVALUATOR-CONTROLS C14, C20).
const (
	// ReasonTariffUnverified: the manifest's rate card is not verified for
	// the exact model; the cost gate cannot pass (CONTRACT §5).
	ReasonTariffUnverified verr.Reason = "tariff-unverified"
	// ReasonCostAggregateExceeded: Σ B / Σ A task-median cost > 1.10 (C14).
	ReasonCostAggregateExceeded verr.Reason = "cost-aggregate-ratio-exceeded"
	// ReasonCostTaskExceeded: a task-median cost ratio > 1.15 (C14).
	ReasonCostTaskExceeded verr.Reason = "cost-task-ratio-exceeded"
	// ReasonCostPairExceeded: a paired complete-workflow cost ratio > 1.25 (C14).
	ReasonCostPairExceeded verr.Reason = "cost-pair-ratio-exceeded"
	// ReasonTimeAggregateExceeded: Σ B / Σ A task-median time > 1.10 (C14).
	ReasonTimeAggregateExceeded verr.Reason = "time-aggregate-ratio-exceeded"
	// ReasonTimeTaskExceeded: a task-median time ratio > 1.15 (C14).
	ReasonTimeTaskExceeded verr.Reason = "time-task-ratio-exceeded"
	// ReasonTimePairExceeded: a paired complete-workflow time ratio > 1.25 (C14).
	ReasonTimePairExceeded verr.Reason = "time-pair-ratio-exceeded"
	// ReasonSessionTimeExceeded: a session ran longer than 4 minutes.
	ReasonSessionTimeExceeded verr.Reason = "session-time-exceeded"
	// ReasonSessionInputExceeded: a session used more than 90,000 input tokens.
	ReasonSessionInputExceeded verr.Reason = "session-input-exceeded"
	// ReasonSessionOutputExceeded: a session billed more than 8,000 output tokens.
	ReasonSessionOutputExceeded verr.Reason = "session-output-exceeded"
	// ReasonSharedDraftBilledTwice: a session (typically the shared draft D)
	// or request is billed more than once in physical campaign billing (C20).
	ReasonSharedDraftBilledTwice verr.Reason = "shared-draft-billed-twice"
	// ReasonNotDispatched: a review-only ratio is undefined because the
	// review was not dispatched after a failed shared draft (C23).
	ReasonNotDispatched verr.Reason = "not-dispatched"
	// ReasonMissingTerminalReceipt: a session has no receipt file or a
	// receipt without a terminal status (C15).
	ReasonMissingTerminalReceipt verr.Reason = "missing-terminal-receipt"
)

// Gate is one named pass/fail rule. Reason is the reason code of a failing
// gate ("" when it passes); Detail says which values broke it.
type Gate struct {
	Name   string      `json:"name"`
	Pass   bool        `json:"pass"`
	Reason verr.Reason `json:"reason"`
	Detail string      `json:"detail"`
}

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
	Task            string         `json:"task"`
	Repetition      int            `json:"repetition"`
	Order           campaign.Order `json:"order"`
	DraftSession    string         `json:"draft_session"`
	A               Workflow       `json:"a"`
	B               Workflow       `json:"b"`
	CostRatio       Ratio          `json:"cost_ratio"`
	TimeRatio       Ratio          `json:"time_ratio"`
	ReviewCostRatio Ratio          `json:"review_cost_ratio"`
	ReviewTimeRatio Ratio          `json:"review_time_ratio"`
}

// TaskAccount holds one task's medians over its compared repetitions and
// the exact task-median ratios (CONTRACT §4).
type TaskAccount struct {
	Task        string `json:"task"`
	Repetitions int    `json:"repetitions"`
	// MedianCostA/B are the task medians of complete-workflow cost in
	// pico-USD, MedianTimeA/B of complete-workflow time in nanoseconds;
	// half a unit when the repetition count is even.
	MedianCostA     Fractional[PicoUSD]    `json:"median_cost_a_pico_usd"`
	MedianCostB     Fractional[PicoUSD]    `json:"median_cost_b_pico_usd"`
	MedianTimeA     Fractional[Nanosecond] `json:"median_time_a_ns"`
	MedianTimeB     Fractional[Nanosecond] `json:"median_time_b_ns"`
	CostRatio       Ratio                  `json:"cost_ratio"`
	TimeRatio       Ratio                  `json:"time_ratio"`
	ReviewCostRatio Ratio                  `json:"review_cost_ratio"`
	ReviewTimeRatio Ratio                  `json:"review_time_ratio"`
}

// Aggregate holds Σ task medians per arm and their exact ratios.
type Aggregate struct {
	SumCostA        Fractional[PicoUSD]    `json:"sum_median_cost_a_pico_usd"`
	SumCostB        Fractional[PicoUSD]    `json:"sum_median_cost_b_pico_usd"`
	SumTimeA        Fractional[Nanosecond] `json:"sum_median_time_a_ns"`
	SumTimeB        Fractional[Nanosecond] `json:"sum_median_time_b_ns"`
	CostRatio       Ratio                  `json:"cost_ratio"`
	TimeRatio       Ratio                  `json:"time_ratio"`
	ReviewCostRatio Ratio                  `json:"review_cost_ratio"`
	ReviewTimeRatio Ratio                  `json:"review_time_ratio"`
	CostLabel       string                 `json:"cost_label"`
	TimeLabel       string                 `json:"time_label"`
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

// sessionAccount measures one session from its receipt.
func sessionAccount(s *campaign.Session, card *campaign.PriceCard) SessionAccount {
	a := SessionAccount{Session: s.ID, Task: s.Run.Task, Repetition: s.Run.Repetition, Role: s.Role}
	r := s.Receipt
	unknownAll := func(why verr.Reason) {
		t, m, d := Unknown[Token](why), Unknown[PicoUSD](why), Unknown[Nanosecond](why)
		a.InputTokens, a.UncachedInputTokens, a.CachedInputTokens, a.BilledOutputTokens = t, t, t, t
		a.ReferenceCost, a.MCPCost, a.Cost, a.ActualCharge = m, m, m, m
		a.Duration, a.Validation, a.Assembly = d, d, d
	}
	if Planned(s) {
		// Planned, not started: nothing consumed yet, nothing known.
		unknownAll(ReasonSessionPlanned)
		return a
	}
	if r == nil {
		a.Dispatched = true // a response without a receipt: it started
		unknownAll(ReasonMissingTerminalReceipt)
		return a
	}
	a.Status = r.Status
	a.OrdinaryCalls, a.MCPCalls = r.OrdinaryCalls, r.MCPCalls
	if r.Status == campaign.StatusNotDispatched {
		t, m, d := Of[Token](0), Of[PicoUSD](0), Of[Nanosecond](0)
		a.InputTokens, a.UncachedInputTokens, a.CachedInputTokens, a.BilledOutputTokens = t, t, t, t
		a.ReferenceCost, a.MCPCost, a.Cost, a.ActualCharge = m, m, m, m
		a.Duration, a.Validation, a.Assembly = d, d, d
		return a
	}
	a.Dispatched = true
	// Tokens.
	if t, err := DeriveTokens(r.Meter); err != nil {
		why := err.(*verr.Error).Reason
		t := Unknown[Token](why)
		a.InputTokens, a.UncachedInputTokens, a.CachedInputTokens, a.BilledOutputTokens = t, t, t, t
		a.ReferenceCost = Unknown[PicoUSD](why)
	} else {
		a.InputTokens, a.UncachedInputTokens = Of[Token](t.InputTotal), Of[Token](t.Uncached)
		a.CachedInputTokens, a.BilledOutputTokens = Of[Token](t.Cached), Of[Token](t.BilledOutput)
		switch {
		case len(r.PricedModifiers) > 0:
			a.ReferenceCost = Unknown[PicoUSD](ReasonUnsupportedModifier)
		case card == nil:
			a.ReferenceCost = Unknown[PicoUSD](ReasonTariffMissing)
		case r.PriceCardID == nil || *r.PriceCardID != card.ID:
			a.ReferenceCost = Unknown[PicoUSD](ReasonTariffMismatch)
		default:
			a.ReferenceCost = PriceTokens(t, card)
		}
	}
	// MCP cost: zero only when no MCP call was made.
	switch {
	case r.MCPCostMicroUSD != nil:
		a.MCPCost = MicroUSD(*r.MCPCostMicroUSD)
	case r.MCPCalls > 0:
		a.MCPCost = Unknown[PicoUSD](ReasonMCPCostMissing)
	default:
		a.MCPCost = Of[PicoUSD](0)
	}
	a.Cost = a.ReferenceCost.Add(a.MCPCost)
	if r.ActualChargeMicroUSD != nil {
		a.ActualCharge = MicroUSD(*r.ActualChargeMicroUSD)
	} else {
		a.ActualCharge = Unknown[PicoUSD](ReasonActualChargeUnattributed)
	}
	// Time from monotonic readings; a start without a terminal receipt has
	// no end.
	switch {
	case r.Status == "":
		a.Duration = Unknown[Nanosecond](ReasonMissingTerminalReceipt)
	case r.StartMonotonicNS == nil || r.EndMonotonicNS == nil || *r.EndMonotonicNS < *r.StartMonotonicNS:
		a.Duration = Unknown[Nanosecond](ReasonTimeMissing)
	default:
		a.Duration = Of[Nanosecond](*r.EndMonotonicNS - *r.StartMonotonicNS)
	}
	if r.Status == "" {
		a.Cost = Unknown[PicoUSD](ReasonMissingTerminalReceipt)
	}
	a.Validation, a.Assembly = Of[Nanosecond](r.ValidationNS), Of[Nanosecond](r.AssemblyNS)
	return a
}

// runKey identifies a repetition of a task.
type runKey struct {
	task string
	rep  int
}

// comparedRuns returns the indexes of manifest runs used for comparison and
// the set of superseded run indexes: when several runs share a task and
// repetition, the last one that replaces another (runs[].replaces) is
// compared and the others are superseded (billed, not compared;
// CONTRACT §5 "preserving and charging the original attempt").
func comparedRuns(m *campaign.Manifest) (compared []int, superseded map[int]bool) {
	superseded = map[int]bool{}
	groups := map[runKey][]int{}
	var order []runKey
	for i, r := range m.Runs {
		k := runKey{r.Task, r.Repetition}
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], i)
	}
	chosen := map[int]bool{}
	for _, k := range order {
		idx := groups[k]
		pick := idx[0]
		for _, i := range idx {
			if m.Runs[i].Replaces != nil {
				pick = i
			}
		}
		chosen[pick] = true
		for _, i := range idx {
			if i != pick {
				superseded[i] = true
			}
		}
	}
	for i := range m.Runs {
		if chosen[i] {
			compared = append(compared, i)
		}
	}
	return compared, superseded
}

// sessionsByRun maps each manifest run index to its D, A and B sessions
// (nil when the loader produced no session for that ID).
func sessionsByRun(c *campaign.Campaign) map[int][3]*campaign.Session {
	byID := map[string][]*campaign.Session{}
	for _, s := range c.Sessions {
		byID[s.ID] = append(byID[s.ID], s)
	}
	out := map[int][3]*campaign.Session{}
	for i, r := range c.Manifest.Runs {
		pick := func(id string, role campaign.Role) *campaign.Session {
			for _, s := range byID[id] {
				if s.Role == role && s.Run.Task == r.Task && s.Run.Repetition == r.Repetition {
					return s
				}
			}
			if len(byID[id]) > 0 {
				return byID[id][0]
			}
			return nil
		}
		out[i] = [3]*campaign.Session{
			pick(r.Sessions.Draft, campaign.RoleDraft),
			pick(r.Sessions.ReviewA, campaign.RoleReviewA),
			pick(r.Sessions.ReviewB, campaign.RoleReviewB),
		}
	}
	return out
}

// missingSession returns the account of a session listed in the manifest
// for which the campaign holds nothing (no receipt): unknown throughout.
func missingSession(id string, r campaign.Run, role campaign.Role) *campaign.Session {
	return &campaign.Session{ID: id, Role: role, Run: r}
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

// accountingGates evaluates every gate separately, in fixed order.
func accountingGates(c *campaign.Campaign, rep *AccountingReport, doubles []string) []Gate {
	ex := c.Manifest.Execution
	var gates []Gate

	// Cost basis: a defensible, verified tariff and every compared cost known.
	basis := Gate{Name: GateCostBasis, Pass: true}
	switch {
	case ex.PriceCard == nil:
		basis = Gate{Name: GateCostBasis, Reason: ReasonTariffMissing, Detail: "manifest execution.price_card is null: no reference pricing basis (CONTRACT §5)"}
	case ex.TariffVerified == nil || !*ex.TariffVerified:
		basis = Gate{Name: GateCostBasis, Reason: ReasonTariffUnverified, Detail: "manifest execution.tariff_verified is not true (CONTRACT §5)"}
	default:
		if why, where := firstUnknownCost(rep); why != "" {
			basis = Gate{Name: GateCostBasis, Reason: why, Detail: "cost unknown for " + where}
		}
	}
	if basis.Pass {
		basis.Detail = "verified price card " + ex.PriceCard.ID + "; every compared session cost known"
	}
	gates = append(gates, basis)
	gates = append(gates, ratioGates("cost", rep,
		func(p PairAccount) Ratio { return p.CostRatio }, func(t TaskAccount) Ratio { return t.CostRatio }, rep.Aggregate.CostRatio,
		GateCostAggregate, GateCostTaskMedian, GateCostPairedWorkflow,
		ReasonCostAggregateExceeded, ReasonCostTaskExceeded, ReasonCostPairExceeded)...)

	tb := Gate{Name: GateTimeBasis, Pass: true, Detail: "every compared session time known"}
	for _, s := range rep.Sessions {
		if s.Superseded {
			continue
		}
		if !s.Duration.Known {
			tb = Gate{Name: GateTimeBasis, Reason: s.Duration.Why, Detail: "duration unknown for session " + s.Session}
			break
		}
	}
	gates = append(gates, tb)
	gates = append(gates, ratioGates("time", rep,
		func(p PairAccount) Ratio { return p.TimeRatio }, func(t TaskAccount) Ratio { return t.TimeRatio }, rep.Aggregate.TimeRatio,
		GateTimeAggregate, GateTimeTaskMedian, GateTimePairedWorkflow,
		ReasonTimeAggregateExceeded, ReasonTimeTaskExceeded, ReasonTimePairExceeded)...)

	// Absolute per-session limits, every dispatched session.
	gates = append(gates,
		sessionGate(rep, GateSessionDuration, ReasonSessionTimeExceeded,
			func(s SessionAccount) Nanos { return s.Duration }, Of[Nanosecond](SessionMaxNS), ""),
		sessionGate(rep, GateSessionInput, ReasonSessionInputExceeded,
			func(s SessionAccount) Tokens { return s.InputTokens }, Of[Token](SessionMaxInputTokens), " input tokens"),
		sessionGate(rep, GateSessionOutput, ReasonSessionOutputExceeded,
			func(s SessionAccount) Tokens { return s.BilledOutputTokens }, Of[Token](SessionMaxOutputTokens), " output tokens"),
	)

	// Shared D billed once (C20): no session or request billed twice, and
	// allocations equal physical billing of compared runs plus one extra D each.
	sd := Gate{Name: GateSharedDraftBilling, Pass: true}
	if len(doubles) > 0 {
		sd = Gate{Name: GateSharedDraftBilling, Reason: ReasonSharedDraftBilledTwice, Detail: strings.Join(doubles, "; ")}
	} else {
		sd.Detail = fmt.Sprintf("physical billing %s counts each shared draft once; comparative allocations A %s and B %s each include it",
			rep.PhysicalBilling.Cost, rep.AllocatedCostA, rep.AllocatedCostB)
	}
	gates = append(gates, sd)
	return gates
}

// firstUnknownCost names the first compared session whose cost is unknown.
func firstUnknownCost(rep *AccountingReport) (verr.Reason, string) {
	for _, s := range rep.Sessions {
		if !s.Superseded && !s.Cost.Known {
			return s.Cost.Why, "session " + s.Session
		}
	}
	return "", ""
}

// ratioGates builds the aggregate, task-median and paired-workflow gates
// of one quantity. An unknown or undefined ratio fails its gate with the
// reason it is unknown; one outlier fails its gate even when the aggregate
// passes (C14).
func ratioGates(what string, rep *AccountingReport, pair func(PairAccount) Ratio, task func(TaskAccount) Ratio, agg Ratio,
	aggName, taskName, pairName string, aggReason, taskReason, pairReason verr.Reason) []Gate {
	var out []Gate
	g := Gate{Name: aggName, Pass: agg.AtMost(AggregateBoundNum, AggregateBoundDen)}
	g.Detail = fmt.Sprintf("Σ B task medians / Σ A task medians = %s (bound 1.10)", agg)
	if l := agg.Label(what); l != "" {
		g.Detail += "; " + l
	}
	if !g.Pass {
		g.Reason = aggReason
		if !agg.Known {
			g.Reason = agg.Why
		}
	}
	out = append(out, g)

	out = append(out, boundGate(taskName, len(rep.Tasks), func(i int) (string, Ratio) {
		return rep.Tasks[i].Task, task(rep.Tasks[i])
	}, TaskBoundNum, TaskBoundDen, taskReason, "task-median", "1.15", "no task"))
	out = append(out, boundGate(pairName, len(rep.Pairs), func(i int) (string, Ratio) {
		p := rep.Pairs[i]
		return fmt.Sprintf("%s r%d", p.Task, p.Repetition), pair(p)
	}, PairBoundNum, PairBoundDen, pairReason, "paired complete-workflow", "1.25", "no pair"))
	return out
}

// boundGate is the gate that each of n ratios (at(i): its label and
// ratio) is at most num/den, bound written as a decimal; what names the
// ratios ("task-median"), over is the reason of the first ratio above the
// bound (an unknown ratio fails with the reason it is unknown) and none
// the detail when there is no ratio at all (ReasonRatioUndefined): every
// outlier is listed (CONTRACT §4 "each task-median ratio must be ≤1.15;
// no individual paired complete-workflow ratio may exceed 1.25"; C14).
func boundGate(name string, n int, at func(i int) (string, Ratio), num, den int64, over verr.Reason, what, bound, none string) Gate {
	g := Gate{Name: name, Pass: n > 0}
	var bad []string
	var why verr.Reason
	for i := range n {
		label, r := at(i)
		if !r.AtMost(num, den) {
			bad = append(bad, label+" "+r.String())
			if why == "" {
				why = over
				if !r.Known {
					why = r.Why
				}
			}
		}
	}
	switch {
	case len(bad) > 0:
		g.Pass, g.Reason = false, why
		g.Detail = what + " B/A above " + bound + " or unknown: " + strings.Join(bad, ", ")
	case g.Pass:
		g.Detail = fmt.Sprintf("all %d %s ratios ≤ %s", n, what, bound)
	default:
		g.Reason, g.Detail = ReasonRatioUndefined, none
	}
	return g
}

// sessionGate checks one inclusive per-session limit over every dispatched
// session; an unknown value fails the gate with its reason. Amounts are
// shown with what after them (" input tokens").
func sessionGate[U Unit](rep *AccountingReport, name string, reason verr.Reason, get func(SessionAccount) Exact[U], limit Exact[U], what string) Gate {
	g := Gate{Name: name, Pass: true}
	var bad []string
	show := func(q Exact[U]) string { return q.String() + what }
	for _, s := range rep.Sessions {
		if !s.Dispatched {
			continue
		}
		q := get(s)
		switch {
		case !q.Known:
			bad = append(bad, s.Session+" unknown")
			if g.Pass {
				g.Reason = q.Why
			}
			g.Pass = false
		case q.Cmp(limit) > 0:
			bad = append(bad, s.Session+" "+show(q))
			if g.Pass {
				g.Reason = reason
			}
			g.Pass = false
		}
	}
	if g.Pass {
		g.Detail = "every dispatched session ≤ " + show(limit)
	} else {
		g.Detail = "limit " + show(limit) + " exceeded or unknown: " + strings.Join(bad, ", ")
	}
	return g
}
