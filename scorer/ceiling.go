package scorer

import (
	"fmt"
	"strings"

	"verdict/campaign"
	"verdict/verr"
)

// RuleCeilings is the rule cited by ceiling and dispatch-admission decisions.
const RuleCeilings = "CONTRACT §5 first-campaign ceilings; EVALUATOR-CONTROLS C18"

// Reason codes of dispatch admission (CONTRACT §5, EVALUATOR-CONTROLS C18).
// A dispatch that fits is admitted with ReasonFits.
const (
	// ReasonFits: the dispatch's worst case fits every remaining allowance.
	ReasonFits verr.Reason = "fits"
	// ReasonReservationUnenforced: execution.reservation_enforced is not
	// true; no dispatch may start (CONTRACT §5).
	ReasonReservationUnenforced verr.Reason = "reservation-unenforced"
	// ReasonCampaignStopped: a second invalid triplet stopped the campaign.
	ReasonCampaignStopped verr.Reason = "campaign-stopped"
	// ReasonCeilingSessions: 120 model sessions would be exceeded.
	ReasonCeilingSessions verr.Reason = "ceiling-sessions"
	// ReasonCeilingReplacements: more than one replacement triplet (3 sessions).
	ReasonCeilingReplacements verr.Reason = "ceiling-replacements"
	// ReasonCeilingWallTime: 8 hours of execution wall time would be exceeded.
	ReasonCeilingWallTime verr.Reason = "ceiling-wall-time"
	// ReasonCeilingInput: 3,000,000 input tokens would be exceeded.
	ReasonCeilingInput verr.Reason = "ceiling-input-tokens"
	// ReasonCeilingOutput: 600,000 output tokens would be exceeded.
	ReasonCeilingOutput verr.Reason = "ceiling-output-tokens"
	// ReasonCeilingReferenceCost: US$30 reference-priced cost would be exceeded.
	ReasonCeilingReferenceCost verr.Reason = "ceiling-reference-cost"
	// ReasonCeilingActualCost: US$30 attributable actual charges would be exceeded.
	ReasonCeilingActualCost verr.Reason = "ceiling-actual-cost"
	// ReasonInvalidDispatch: a planned dispatch names no valid role.
	ReasonInvalidDispatch verr.Reason = "invalid-dispatch"
	// ReasonDispatchUnknownRun: a planned dispatch names a task and
	// repetition the manifest has no run of (CONTRACT §5 "No automatic
	// reruns": nothing is dispatched beyond the frozen design).
	ReasonDispatchUnknownRun verr.Reason = "dispatch-unknown-run"
	// ReasonDispatchRerun: a planned dispatch (not a replacement) of a
	// session that already has a receipt, or planned twice: an automatic
	// rerun (CONTRACT §5).
	ReasonDispatchRerun verr.Reason = "dispatch-rerun"
)

// Budget is an amount of every campaign-limited resource: model sessions,
// replacement sessions, execution wall time (ns), input and billed output
// tokens, reference-priced cost and attributable actual charges (pico-USD).
// It is used for ceilings, consumption and one dispatch's reservation.
type Budget struct {
	Sessions            int64 `json:"sessions"`
	ReplacementSessions int64 `json:"replacement_sessions"`
	WallNS              int64 `json:"wall_ns"`
	InputTokens         int64 `json:"input_tokens"`
	OutputTokens        int64 `json:"output_tokens"`
	ReferencePico       int64 `json:"reference_pico_usd"`
	// ActualPico is the attributable actual charge counted against the
	// actual-charge ceiling. For a session whose receipt recorded no
	// actual charge it holds that session's reference price (or its worst
	// case) so that the ceiling is never under-counted; ActualUnrecorded
	// counts those sessions, and while it is positive the actual charge
	// itself is unknown (String says so; it is never shown as the
	// reference cost).
	ActualPico       int64 `json:"actual_pico_usd"`
	ActualUnrecorded int64 `json:"actual_unrecorded_sessions"`
}

// Plus returns b+o field by field.
func (b Budget) Plus(o Budget) Budget {
	return Budget{b.Sessions + o.Sessions, b.ReplacementSessions + o.ReplacementSessions, b.WallNS + o.WallNS,
		b.InputTokens + o.InputTokens, b.OutputTokens + o.OutputTokens, b.ReferencePico + o.ReferencePico, b.ActualPico + o.ActualPico,
		b.ActualUnrecorded + o.ActualUnrecorded}
}

// Minus returns b−o field by field; the unrecorded-session counts add up
// (an allowance left after an unknown charge is itself uncertain).
func (b Budget) Minus(o Budget) Budget {
	return Budget{b.Sessions - o.Sessions, b.ReplacementSessions - o.ReplacementSessions, b.WallNS - o.WallNS,
		b.InputTokens - o.InputTokens, b.OutputTokens - o.OutputTokens, b.ReferencePico - o.ReferencePico, b.ActualPico - o.ActualPico,
		b.ActualUnrecorded + o.ActualUnrecorded}
}

// String renders the budget with units. An actual charge that no receipt
// recorded is printed as unknown with the amount held against the ceiling
// for it, never as a charge (CONTRACT §5 "actual subscription billing is
// marked unavailable when it cannot be attributed").
func (b Budget) String() string {
	actual := "US$" + Of[PicoUSD](b.ActualPico).String()
	if b.ActualUnrecorded > 0 {
		actual = fmt.Sprintf("unknown (%d sessions without a recorded charge; US$%s held against the ceiling)", b.ActualUnrecorded, Of[PicoUSD](b.ActualPico))
	}
	return fmt.Sprintf("sessions %d, replacement sessions %d, wall %s, input %s, output %s, reference US$%s, actual %s",
		b.Sessions, b.ReplacementSessions, Of[Nanosecond](b.WallNS), Of[Token](b.InputTokens), Of[Token](b.OutputTokens),
		Of[PicoUSD](b.ReferencePico), actual)
}

// ContractCeilings are the inclusive first-campaign ceilings of CONTRACT §5:
// 120 model sessions, one three-session infrastructure replacement, 8 hours,
// 3,000,000 input and 600,000 output tokens, US$30 reference-priced and
// US$30 attributable actual.
func ContractCeilings() Budget {
	return Budget{Sessions: 120, ReplacementSessions: 3, WallNS: 8 * 3600 * 1_000_000_000,
		InputTokens: 3_000_000, OutputTokens: 600_000, ReferencePico: 30 * PicoPerUSD, ActualPico: 30 * PicoPerUSD}
}

// WorstCase is one session's reservation before dispatch (CONTRACT §5
// "Reserve each request's supported worst-case token/price bound"): one
// session, 4 minutes, 90,000 input and 8,000 output tokens, priced at the
// card with all input uncached (the highest input rate). The same price is
// reserved against the actual-charge ceiling, the only supported bound on
// it. card must not be nil (a missing tariff prohibits dispatch first).
func WorstCase(card *campaign.PriceCard, replacement bool) Budget {
	in := card.UncachedInputMicroUSDPerMTok
	if card.CachedInputMicroUSDPerMTok > in {
		in = card.CachedInputMicroUSDPerMTok
	}
	price := SessionMaxInputTokens*in + SessionMaxOutputTokens*card.OutputMicroUSDPerMTok
	b := Budget{Sessions: 1, WallNS: SessionMaxNS, InputTokens: SessionMaxInputTokens, OutputTokens: SessionMaxOutputTokens, ReferencePico: price, ActualPico: price}
	if replacement {
		b.ReplacementSessions = 1
	}
	return b
}

// Consumed is the campaign's recorded consumption: every dispatched
// session (superseded attempts and failed drafts included) counted once.
// A value that is unknown keeps that session's worst-case reservation
// (never zero): a missing meter keeps 90,000/8,000 tokens and their price,
// an unknown duration 4 minutes. An unattributed actual charge is held at
// the session's metered usage priced at the card (the basis its
// reservation was made on), or at the worst case when that is unknown. Unknown lists the reason codes that forced this, in
// session order; a missing meter also prohibits the next dispatch.
func Consumed(c *campaign.Campaign) (Budget, []verr.Reason) {
	return consumed(c, Accounting(c))
}

// consumed is Consumed with the campaign's accounting report already made.
func consumed(c *campaign.Campaign, rep AccountingReport) (Budget, []verr.Reason) {
	var b Budget
	var unknown []verr.Reason
	card := c.Manifest.Execution.PriceCard
	worst := Budget{Sessions: 1, WallNS: SessionMaxNS, InputTokens: SessionMaxInputTokens, OutputTokens: SessionMaxOutputTokens}
	if card != nil {
		worst = WorstCase(card, false)
	}
	replacement := map[string]bool{}
	for _, r := range c.Manifest.Runs {
		if r.Replaces != nil {
			replacement[r.Sessions.Draft], replacement[r.Sessions.ReviewA], replacement[r.Sessions.ReviewB] = true, true, true
		}
	}
	note := func(r verr.Reason) {
		if r != "" {
			unknown = append(unknown, r)
		}
	}
	for _, s := range rep.Sessions {
		b.consume(s, worst, replacement[s.Session], note)
	}
	return b, unknown
}

// consume adds one session's recorded consumption to b (nothing when it
// was not dispatched): a value that is unknown keeps worst's (never zero)
// and note receives the reason; an unattributed actual charge is held at
// the session's cost, or worst's, and counted as unrecorded.
func (b *Budget) consume(s SessionAccount, worst Budget, replacement bool, note func(verr.Reason)) {
	if !s.Dispatched {
		return
	}
	b.Sessions++
	if replacement {
		b.ReplacementSessions++
	}
	b.WallNS += s.Duration.Or(worst.WallNS) + s.Validation.Add(s.Assembly).Or(0)
	note(s.Duration.Why)
	if s.InputTokens.Known && s.BilledOutputTokens.Known {
		b.InputTokens += s.InputTokens.Or(0)
		b.OutputTokens += s.BilledOutputTokens.Or(0)
	} else {
		b.InputTokens += worst.InputTokens
		b.OutputTokens += worst.OutputTokens
		note(s.InputTokens.Why)
	}
	b.ReferencePico += s.Cost.Or(worst.ReferencePico)
	note(s.Cost.Why)
	b.ActualPico += s.ActualCharge.Or(s.Cost.Or(worst.ActualPico))
	if !s.ActualCharge.Known {
		b.ActualUnrecorded++
	}
}

// ceilingLimits are the ceilings of a Budget in fixed order: each one's
// reason code, its name in a refusal's detail, its member of a Budget
// and how an amount of it is shown.
var ceilingLimits = []struct {
	reason verr.Reason
	name   string
	of     func(Budget) int64
	show   func(int64) string
}{
	{ReasonCeilingSessions, "sessions", func(b Budget) int64 { return b.Sessions }, groupDigits},
	{ReasonCeilingReplacements, "replacement sessions", func(b Budget) int64 { return b.ReplacementSessions }, groupDigits},
	{ReasonCeilingWallTime, "wall time", func(b Budget) int64 { return b.WallNS }, func(v int64) string { return Of[Nanosecond](v).String() }},
	{ReasonCeilingInput, "input tokens", func(b Budget) int64 { return b.InputTokens }, groupDigits},
	{ReasonCeilingOutput, "output tokens", func(b Budget) int64 { return b.OutputTokens }, groupDigits},
	{ReasonCeilingReferenceCost, "reference cost", func(b Budget) int64 { return b.ReferencePico }, usdPico},
	{ReasonCeilingActualCost, "actual charges", func(b Budget) int64 { return b.ActualPico }, usdPico},
}

// usdPico shows an amount of pico-USD as "US$" and its decimal.
func usdPico(v int64) string { return "US$" + Of[PicoUSD](v).String() }

// exceeded returns the reason codes of every ceiling that used+reserve
// would exceed (inclusive ceilings: equal fits), in fixed order.
func exceeded(ceil, used, reserve Budget) []verr.Reason {
	after := used.Plus(reserve)
	var out []verr.Reason
	for _, l := range ceilingLimits {
		if l.of(after) > l.of(ceil) {
			out = append(out, l.reason)
		}
	}
	return out
}

// Fits reports whether reserving r on top of used stays within every
// inclusive ceiling; when not, it returns the exceeded ceilings' reasons.
func Fits(ceil, used, r Budget) (bool, []verr.Reason) {
	ex := exceeded(ceil, used, r)
	return len(ex) == 0, ex
}

// Dispatch is one planned model session of an admission plan.
type Dispatch struct {
	// ID is the plan's free identifier of the dispatch ("P1").
	ID string `json:"id"`
	// Task and Repetition name the run; Role is draft, review-a or
	// review-b (fixed evidence), investigation or review (system
	// comparison).
	Task       string `json:"task"`
	Repetition int    `json:"repetition"`
	// Workflow names a system comparison's workflow ("W<n>"; CONTRACT §6),
	// empty for fixed evidence (a plan names it instead of the run).
	Workflow string        `json:"workflow,omitempty"`
	Role     campaign.Role `json:"role"`
	// Replacement marks a session of the one permitted replacement triplet.
	Replacement bool `json:"replacement"`
	// Probe marks the budget probe "one more worst-case session"
	// (EVALUATOR-CONTROLS C18) that check and admit report: it names no
	// planned session, so only the prohibitions and ceilings decide it,
	// never the rerun rules (PlanRefusal). A plan file cannot set it.
	Probe bool `json:"probe,omitempty"`
}

// DispatchDecision is the admission decision for one planned dispatch.
type DispatchDecision struct {
	Dispatch Dispatch `json:"dispatch"`
	Admitted bool     `json:"admitted"`
	// Reason is ReasonFits when admitted, else the first refusal reason;
	// Reasons lists every refusal reason.
	Reason  verr.Reason   `json:"reason"`
	Reasons []verr.Reason `json:"reasons"`
	Detail  string        `json:"detail"`
	// Before is the consumption (recorded + admitted reservations) before
	// this dispatch; Reserved its worst case; Remaining the allowance left
	// after it (unchanged when refused).
	Before    Budget `json:"before"`
	Reserved  Budget `json:"reserved"`
	Remaining Budget `json:"remaining"`
}

// AdmissionReplay is the replay of a planned dispatch sequence.
type AdmissionReplay struct {
	Ceilings Budget `json:"ceilings"`
	// Recorded is the campaign's recorded consumption; Prior the plan's
	// declared consumption outside the campaign (preparation, adjudication).
	Recorded Budget `json:"recorded"`
	Prior    Budget `json:"prior"`
	// Prohibited lists the reasons that prohibit every dispatch (missing
	// tariff, unverified tariff, unenforced reservation, missing meter,
	// missing identity, stopped campaign), empty when none.
	Prohibited []verr.Reason      `json:"prohibited"`
	Decisions  []DispatchDecision `json:"decisions"`
	Refused    int                `json:"refused"`
	Identities []string           `json:"missing_identities"`
}

// Admit replays plan against the campaign's remaining allowance (CONTRACT
// §5, EVALUATOR-CONTROLS C18). First, before any budget is looked at, a
// dispatch that would be an automatic rerun is refused with its reason
// (PlanRefusal rules: dispatch-unknown-run, dispatch-rerun,
// replacement-without-invalid-original, replacement-limit-exceeded); only
// the one allowed replacement of an infrastructure-invalid triplet passes.
// Then before each dispatch its worst case is
// reserved and the dispatch is refused if that does not fit every
// inclusive ceiling; an admitted dispatch keeps its reservation. Every
// dispatch is refused while a prohibition holds: no price card
// (tariff-missing), tariff not verified, reservation not enforced, a
// recorded session without a meter, a missing execution identity, or a
// stopped campaign.
func Admit(c *campaign.Campaign, prior Budget, plan []Dispatch) AdmissionReplay {
	return AdmitWith(c, Accounting(c), ExecutionValidity(c), prior, plan)
}

// AdmitWith is Admit with the campaign's accounting report (rep, made by
// Accounting(c)) and execution validity (v, made by ExecutionValidity(c))
// already made, so a caller that also reports them computes each once
// (verdict check). Given other values than those of c, its result is
// meaningless.
func AdmitWith(c *campaign.Campaign, rep AccountingReport, v ValidityReport, prior Budget, plan []Dispatch) AdmissionReplay {
	ex := c.Manifest.Execution
	out := AdmissionReplay{Ceilings: ContractCeilings(), Prior: prior, Identities: MissingIdentities(&c.Manifest)}
	recorded, unknown := consumed(c, rep)
	out.Recorded = recorded
	pro := newProhibitions(ex, unknown, out.Identities)
	if v.Stopped {
		pro.add(ReasonCampaignStopped, "a second invalid triplet stopped the campaign")
	}
	out.Prohibited = pro.reasons
	used := recorded.Plus(prior)
	rules := newPlanRules(c, v)
	for _, d := range plan {
		dec := DispatchDecision{Dispatch: d, Before: used}
		refusal, why := rules.refusal(d)
		switch {
		case pro.refuse(&dec, refusal, why):
		case d.Role != campaign.RoleDraft && d.Role != campaign.RoleReviewA && d.Role != campaign.RoleReviewB:
			dec.Reasons = []verr.Reason{ReasonInvalidDispatch}
			dec.Detail = fmt.Sprintf("role %q is not draft, review-a or review-b", d.Role)
		default:
			reserve(&dec, out.Ceilings, &used, WorstCase(ex.PriceCard, d.Replacement))
		}
		out.decide(dec, used)
	}
	return out
}

// prohibitions are the reasons that prohibit every dispatch, each with its
// detail, in the order found (CONTRACT §5, §6).
type prohibitions struct {
	reasons []verr.Reason
	details []string
}

// newProhibitions returns the prohibitions both designs share: no price
// card, tariff unverified, reservation unenforced, recorded consumption
// incomplete (unknown holds the reasons Consumed met) and missing identities.
func newProhibitions(ex campaign.Execution, unknown []verr.Reason, identities []string) *prohibitions {
	p := &prohibitions{}
	if ex.PriceCard == nil {
		p.add(ReasonTariffMissing, "no price card: never invent a tariff")
	}
	if ex.TariffVerified == nil || !*ex.TariffVerified {
		p.add(ReasonTariffUnverified, "tariff not verified for the exact model")
	}
	if ex.ReservationEnforced == nil || !*ex.ReservationEnforced {
		p.add(ReasonReservationUnenforced, "maximum-cost reservation is not enforced")
	}
	for _, r := range unknown {
		if r == ReasonMeterMissing || r == ReasonMeterInconsistent || r == ReasonMissingTerminalReceipt {
			p.add(r, "recorded consumption incomplete ("+string(r)+")")
		}
	}
	if len(identities) > 0 {
		p.add(ReasonMissingIdentity, "missing identities: "+strings.Join(identities, ", "))
	}
	return p
}

// add records r once.
func (p *prohibitions) add(r verr.Reason, detail string) {
	for _, x := range p.reasons {
		if x == r {
			return
		}
	}
	p.reasons = append(p.reasons, r)
	p.details = append(p.details, detail)
}

// refuse decides dec before any budget is looked at and reports whether it
// did: refusal, the dispatch's own rule refusal (CONTRACT §5 "No
// automatic reruns"), with its detail why, comes first; otherwise every
// prohibition that holds refuses it.
func (p *prohibitions) refuse(dec *DispatchDecision, refusal verr.Reason, why string) bool {
	switch {
	case refusal != "":
		dec.Reasons, dec.Detail = []verr.Reason{refusal}, why
	case len(p.reasons) > 0:
		dec.Reasons = append(dec.Reasons, p.reasons...)
		dec.Detail = strings.Join(p.details, "; ")
	default:
		return false
	}
	return true
}

// reserve decides a dispatch that no rule or prohibition refused: its
// worst case w is reserved on top of used when it fits every inclusive
// ceiling (used grows), else it is refused with every exceeded ceiling.
func reserve(dec *DispatchDecision, ceil Budget, used *Budget, w Budget) {
	dec.Reserved = w
	ok, why := Fits(ceil, *used, w)
	if ok {
		dec.Admitted = true
		*used = used.Plus(w)
		dec.Detail = "worst case fits the remaining allowance"
		return
	}
	dec.Reasons = nil
	after := used.Plus(w)
	var parts []string
	for _, r := range why {
		dec.Reasons = append(dec.Reasons, r)
		parts = append(parts, ceilingDetail(r, *used, w, after, ceil))
	}
	dec.Detail = strings.Join(parts, "; ")
}

// decide completes a decision (its reason, the refusal count, the
// remaining allowance after used) and appends it.
func (out *AdmissionReplay) decide(dec DispatchDecision, used Budget) {
	if dec.Admitted {
		dec.Reason = ReasonFits
	} else {
		dec.Reason = dec.Reasons[0]
		out.Refused++
	}
	dec.Remaining = out.Ceilings.Minus(used)
	out.Decisions = append(out.Decisions, dec)
}

// ceilingDetail explains one exceeded ceiling: used + reserved > ceiling.
func ceilingDetail(r verr.Reason, used, res, after, ceil Budget) string {
	for _, l := range ceilingLimits {
		if l.reason != r {
			continue
		}
		d := fmt.Sprintf("%s: used %s + reserved %s = %s > ceiling %s", l.name, l.show(l.of(used)), l.show(l.of(res)), l.show(l.of(after)), l.show(l.of(ceil)))
		if r == ReasonCeilingActualCost && used.ActualUnrecorded > 0 {
			d += fmt.Sprintf(" (the charge of %d sessions is unknown: held at their reference price)", used.ActualUnrecorded)
		}
		return d
	}
	return string(r)
}

// CeilingFindings reports every ceiling the campaign's recorded
// consumption already exceeds (consumption above an inclusive ceiling), as
// *verr.Error values for the admission section of verdict check.
func CeilingFindings(c *campaign.Campaign) []*verr.Error {
	return CeilingFindingsWith(c, Accounting(c))
}

// CeilingFindingsWith is CeilingFindings with the campaign's accounting
// report (rep, made by Accounting(c)) already made, so a caller that also
// reports it computes it once (verdict check, the score input).
func CeilingFindingsWith(c *campaign.Campaign, rep AccountingReport) []*verr.Error {
	used, _ := consumed(c, rep)
	return ExceededCeilings(ContractCeilings(), used, RuleCeilings)
}

// ExceededCeilings is one *verr.Error citing rule for each inclusive
// ceiling of ceil that the recorded consumption used exceeds (CONTRACT §5
// RuleCeilings; §6 RuleSystemCeilings for the system comparison's), in
// Budget field order; none when used fits.
func ExceededCeilings(ceil, used Budget, rule string) []*verr.Error {
	var out []*verr.Error
	for _, r := range exceeded(ceil, used, Budget{}) {
		out = append(out, &verr.Error{Reason: r, File: campaign.ReceiptsDir, Rule: rule,
			Detail: ceilingDetail(r, used, Budget{}, used, ceil)})
	}
	return out
}

// planRules decides the rerun rules of planned dispatches (CONTRACT §5 "No
// automatic reruns. One infrastructure-invalid complete triplet may be
// replaced"), in plan order: what earlier dispatches of the plan claimed
// counts for later ones.
type planRules struct {
	m *campaign.Manifest
	v ValidityReport
	// hasReceipt records the sessions that have a receipt.
	hasReceipt map[string]bool
	// planned are the (task, repetition, role, replacement) keys the plan
	// already dispatched; replacing is the triplet the plan replaces.
	planned   map[string]bool
	replacing *runKey
}

func newPlanRules(c *campaign.Campaign, v ValidityReport) *planRules {
	p := &planRules{m: &c.Manifest, v: v, hasReceipt: map[string]bool{}, planned: map[string]bool{}}
	for _, s := range c.Sessions {
		if s.Receipt != nil {
			p.hasReceipt[s.ID] = true
		}
	}
	return p
}

// refusal returns the reason and detail that refuse d before any budget,
// or "" when d may go on to the prohibitions and ceilings.
func (p *planRules) refusal(d Dispatch) (verr.Reason, string) {
	if d.Probe {
		return "", ""
	}
	latest := -1
	for i, r := range p.m.Runs {
		if r.Task == d.Task && r.Repetition == d.Repetition {
			latest = i
		}
	}
	if latest < 0 {
		return ReasonDispatchUnknownRun, fmt.Sprintf("the manifest has no run of task %s repetition %d", d.Task, d.Repetition)
	}
	run := p.m.Runs[latest]
	var sid string
	switch d.Role {
	case campaign.RoleDraft:
		sid = run.Sessions.Draft
	case campaign.RoleReviewA:
		sid = run.Sessions.ReviewA
	case campaign.RoleReviewB:
		sid = run.Sessions.ReviewB
	default:
		return ReasonInvalidDispatch, fmt.Sprintf("role %q is not draft, review-a or review-b", d.Role)
	}
	key := fmt.Sprintf("%s#%d#%s#%t", d.Task, d.Repetition, d.Role, d.Replacement)
	if p.planned[key] {
		return ReasonDispatchRerun, fmt.Sprintf("the plan already dispatches %s of task %s repetition %d", d.Role, d.Task, d.Repetition)
	}
	if !d.Replacement {
		if p.hasReceipt[sid] {
			return ReasonDispatchRerun, fmt.Sprintf("session %s (%s of task %s repetition %d) already has a receipt: no automatic reruns", sid, d.Role, d.Task, d.Repetition)
		}
		p.planned[key] = true
		return "", ""
	}
	k := runKey{d.Task, d.Repetition}
	tv := p.v.Triplets[latest]
	switch {
	case p.v.ReplacementTriplets > 0 || run.Replaces != nil:
		return ReasonReplacementLimit, "the campaign already holds its one replacement triplet"
	case p.replacing != nil && *p.replacing != k:
		return ReasonReplacementLimit, fmt.Sprintf("the plan already replaces task %s repetition %d; one replacement triplet at most", p.replacing.task, p.replacing.rep)
	case !tv.Invalid:
		return ReasonReplacementWithoutInvalid, fmt.Sprintf("the triplet of task %s repetition %d is valid: no automatic reruns", d.Task, d.Repetition)
	case !replaceable(tv.Reasons):
		return ReasonReplacementWithoutInvalid, fmt.Sprintf("the triplet of task %s repetition %d is invalid for %s, which is not verified infrastructure", d.Task, d.Repetition, joinReasons(nonReplaceable(tv.Reasons)))
	}
	p.replacing = &k
	p.planned[key] = true
	return "", ""
}
