package scorer

import (
	"fmt"
	"slices"
	"strings"

	"verdict/campaign"
	"verdict/verr"
)

// RuleSystemCeilings is the rule of the system comparison's ceilings and
// dispatch admission.
const RuleSystemCeilings = "CONTRACT §6 ceilings: 12 min and 60 operations per workflow, 90 sessions, 8 h, 3,000,000/600,000 tokens, US$30"

// The per-workflow ceilings of CONTRACT §6 (inclusive).
const (
	// SystemWorkflowMaxNS is 12 minutes per complete system workflow,
	// attributed cold setup and per-session server startup included.
	SystemWorkflowMaxNS int64 = 12 * 60 * 1_000_000_000
	// SystemInvestigationMaxNS is 8 minutes per investigation session.
	SystemInvestigationMaxNS int64 = 8 * 60 * 1_000_000_000
	// SystemReviewMaxNS is 4 minutes per review session.
	SystemReviewMaxNS int64 = 4 * 60 * 1_000_000_000
	// SystemWorkflowMaxOperations is 60 ordinary + MCP operations per workflow.
	SystemWorkflowMaxOperations = 60
)

// Reasons of the system comparison's limits and admission.
const (
	// ReasonWorkflowTime: a workflow's setup + investigation + review
	// exceeds 12 minutes.
	ReasonWorkflowTime verr.Reason = "workflow-time-exceeded"
	// ReasonInvestigationTime: an investigation exceeds 8 minutes.
	ReasonInvestigationTime verr.Reason = "investigation-time-exceeded"
	// ReasonReviewTime: a review exceeds 4 minutes.
	ReasonReviewTime verr.Reason = "review-time-exceeded"
	// ReasonWorkflowOperations: a workflow exceeds 60 ordinary + MCP operations.
	ReasonWorkflowOperations verr.Reason = "workflow-operations-exceeded"
	// ReasonSessionInputTokens: a session's cumulative input exceeds 90,000 tokens.
	ReasonSessionInputTokens verr.Reason = "session-input-tokens-exceeded"
	// ReasonSessionOutputTokens: a session's billed output exceeds 8,000 tokens.
	ReasonSessionOutputTokens verr.Reason = "session-output-tokens-exceeded"
	// ReasonReviewUsedTools: a review recorded a tool operation (it has none).
	ReasonReviewUsedTools verr.Reason = "review-used-tools"
	// ReasonDeliveredIdentity: a receipt delivered another model, host,
	// permission policy or provider configuration/runtime/tool identity
	// than the manifest records (CONTRACT §6 "A configuration mismatch
	// stops admission").
	ReasonDeliveredIdentity verr.Reason = "delivered-identity-mismatch"
	// ReasonDispatchUnknownWorkflow: a planned dispatch names no workflow
	// of the manifest or a stage other than investigation or review.
	ReasonDispatchUnknownWorkflow verr.Reason = "dispatch-unknown-workflow"
	// ReasonReviewNotLaunched: a review dispatch of a workflow whose
	// investigation failed, returned no draft or exceeded the packet
	// budget, or has not ended (PROMPTS.md: its review is not launched).
	ReasonReviewNotLaunched verr.Reason = "review-not-launched"
)

// SystemCeilings are the inclusive campaign ceilings of CONTRACT §6: 90
// model sessions including retries and preparation, one replacement
// workflow (its two sessions), 8 hours, 3,000,000 input and 600,000 output
// tokens, US$30 reference-priced and US$30 attributable actual.
func SystemCeilings() Budget {
	c := ContractCeilings()
	c.Sessions, c.ReplacementSessions = 90, 2
	return c
}

// systemSession is the first experiment's session record of a system
// session, so that its account is the one sessionAccount makes.
func systemSession(s *campaign.SystemSession, w campaign.Workflow) *campaign.Session {
	cs := &campaign.Session{ID: s.ID, Role: s.Role, Run: campaign.Run{Task: w.Task, Repetition: w.Repetition}, RawSHA256: s.RawSHA256}
	if s.Receipt != nil {
		cs.Receipt = &s.Receipt.Receipt
	}
	return cs
}

// SystemSessionAccount is one system session's account: tokens, reference
// and MCP cost, actual charge and duration, exactly as the first
// experiment's accounting makes it (unknown, never zero, when a record is
// missing).
func SystemSessionAccount(s *campaign.SystemSession, w campaign.Workflow, card *campaign.PriceCard) SessionAccount {
	return sessionAccount(systemSession(s, w), card)
}

// phasesNS sums the durations of setup phases (monotonic readings).
func phasesNS(ph []campaign.SetupPhase) int64 {
	var n int64
	for _, p := range ph {
		n += p.EndMonotonicNS - p.StartMonotonicNS
	}
	return n
}

// WorkflowSetupNS returns the setup time attributed to each workflow: its
// cold setup (the first workflow of its system on its repository) and its
// fresh server's per-session startup.
func WorkflowSetupNS(c *campaign.SystemCampaign) map[string]int64 {
	out := map[string]int64{}
	for _, cs := range c.Setup.Cold {
		out[cs.Workflow] += phasesNS(cs.Phases)
	}
	for _, s := range c.Setup.SessionStartup {
		out[s.Workflow] += phasesNS(s.Phases)
	}
	return out
}

// SystemWorkflowLimit is one workflow against the per-workflow and
// per-session ceilings of CONTRACT §6.
type SystemWorkflowLimit struct {
	Workflow      string `json:"workflow"`
	SetupNS       int64  `json:"setup_ns"`
	Investigation Nanos  `json:"investigation_ns"`
	Review        Nanos  `json:"review_ns"`
	// Total is setup + investigation + review (unknown when a part is).
	Total      Nanos `json:"total_ns"`
	Operations int   `json:"operations"`
	// Exceeded lists the reasons of every ceiling exceeded, in fixed order;
	// an exceeded ceiling is a valid failure of the workflow (budget
	// exhaustion), never an invalid run.
	Exceeded []verr.Reason `json:"exceeded"`
	Details  []string      `json:"details"`
}

// SystemWorkflowLimits checks every workflow against its inclusive
// ceilings: 12 minutes for setup + investigation + review, 8 for the
// investigation, 4 for the review, 60 ordinary + MCP operations (the
// investigation's calls, Serena's initial_instructions included; a review
// has none), and 90,000 input / 8,000 output tokens per session.
func SystemWorkflowLimits(c *campaign.SystemCampaign) []SystemWorkflowLimit {
	card := c.Manifest.Execution.PriceCard
	setup := WorkflowSetupNS(c)
	out := make([]SystemWorkflowLimit, 0, len(c.Workflows))
	for _, w := range c.Workflows {
		inv := SystemSessionAccount(&w.Investigation, w.Workflow, card)
		rev := SystemSessionAccount(&w.Review, w.Workflow, card)
		lim := SystemWorkflowLimit{Workflow: w.Workflow.ID, SetupNS: setup[w.Workflow.ID], Investigation: inv.Duration, Review: rev.Duration,
			Exceeded: []verr.Reason{}, Details: []string{}}
		invNS := inv.Duration
		if !inv.Dispatched {
			invNS = Of[Nanosecond](0)
		}
		revNS := rev.Duration
		if !rev.Dispatched {
			revNS = Of[Nanosecond](0)
		}
		lim.Total = Of[Nanosecond](lim.SetupNS).Add(invNS).Add(revNS)
		lim.Operations = inv.OrdinaryCalls + inv.MCPCalls + rev.OrdinaryCalls + rev.MCPCalls
		over := func(r verr.Reason, format string, a ...any) {
			lim.Exceeded = append(lim.Exceeded, r)
			lim.Details = append(lim.Details, fmt.Sprintf(format, a...))
		}
		if lim.Total.Known && lim.Total.Or(0) > SystemWorkflowMaxNS {
			over(ReasonWorkflowTime, "setup %s + investigation + review = %s > 12 min", Of[Nanosecond](lim.SetupNS), lim.Total)
		}
		if inv.Duration.Known && inv.Duration.Or(0) > SystemInvestigationMaxNS {
			over(ReasonInvestigationTime, "investigation %s > 8 min", inv.Duration)
		}
		if rev.Duration.Known && rev.Duration.Or(0) > SystemReviewMaxNS {
			over(ReasonReviewTime, "review %s > 4 min", rev.Duration)
		}
		if lim.Operations > SystemWorkflowMaxOperations {
			over(ReasonWorkflowOperations, "%d ordinary + MCP operations > 60", lim.Operations)
		}
		if rev.OrdinaryCalls+rev.MCPCalls > 0 {
			over(ReasonReviewUsedTools, "the review recorded %d tool operations; it has no tools", rev.OrdinaryCalls+rev.MCPCalls)
		}
		for _, a := range []SessionAccount{inv, rev} {
			if a.InputTokens.Known && a.InputTokens.Or(0) > SessionMaxInputTokens {
				over(ReasonSessionInputTokens, "%s %s: %s input tokens > 90,000", a.Role, a.Session, a.InputTokens)
			}
			if a.BilledOutputTokens.Known && a.BilledOutputTokens.Or(0) > SessionMaxOutputTokens {
				over(ReasonSessionOutputTokens, "%s %s: %s output tokens > 8,000", a.Role, a.Session, a.BilledOutputTokens)
			}
		}
		out = append(out, lim)
	}
	return out
}

// SystemConsumed is a system comparison's recorded consumption against
// its global ceilings: every dispatched session (a missing value keeps its
// worst case, never zero), every setup phase's time (cold setup, index,
// startup, readiness, refresh and per-session startup: setup consumes the
// global budget even when no task completes), every cold setup charge and
// every preparation session. Unknown lists the reasons that forced a worst
// case, in order.
func SystemConsumed(c *campaign.SystemCampaign) (Budget, []verr.Reason) {
	card := c.Manifest.Execution.PriceCard
	var b Budget
	var unknown []verr.Reason
	replacement := map[string]bool{}
	for _, w := range c.Manifest.Workflows {
		if w.Replaces != nil {
			replacement[w.ID] = true
		}
	}
	note := func(r verr.Reason) {
		if r != "" {
			unknown = append(unknown, r)
		}
	}
	add := func(a SessionAccount, worst Budget, repl bool) { b.consume(a, worst, repl, note) }
	for _, w := range c.Workflows {
		repl := replacement[w.Workflow.ID]
		add(SystemSessionAccount(&w.Investigation, w.Workflow, card), systemWorstCase(card, campaign.RoleInvestigation), repl)
		add(SystemSessionAccount(&w.Review, w.Workflow, card), systemWorstCase(card, campaign.RoleReview), repl)
	}
	for _, ns := range WorkflowSetupNS(c) {
		b.WallNS += ns
	}
	for _, cs := range c.Setup.Cold {
		if cs.ChargeMicroUSD != nil {
			b.ActualPico += MicroUSD(*cs.ChargeMicroUSD).Or(0)
		} else if len(cs.Phases) > 0 {
			b.ActualUnrecorded++
		}
	}
	for _, p := range c.Setup.Preparation {
		r := campaign.Receipt{SessionID: "S1", Status: campaign.StatusResponse, Meter: p.Meter, ActualChargeMicroUSD: p.ChargeMicroUSD,
			StartMonotonicNS: new(int64), EndMonotonicNS: &p.DurationNS}
		if card != nil {
			r.PriceCardID = &card.ID
		}
		add(sessionAccount(&campaign.Session{ID: p.ID, Receipt: &r}, card), systemWorstCase(card, campaign.RoleInvestigation), false)
	}
	return b, unknown
}

// systemWorstCase is one system session's reservation before dispatch:
// the first experiment's worst case (90,000 input and 8,000 output tokens
// priced all uncached) with the stage's time limit: 8 minutes for an
// investigation (its workflow's attributed setup included: 12 minutes
// less the review's 4) and 4 for a review. Without a card it reserves the
// tokens and time only.
func systemWorstCase(card *campaign.PriceCard, role campaign.Role) Budget {
	b := Budget{Sessions: 1, InputTokens: SessionMaxInputTokens, OutputTokens: SessionMaxOutputTokens}
	if card != nil {
		b = WorstCase(card, false)
	}
	b.WallNS = SystemReviewMaxNS
	if role == campaign.RoleInvestigation {
		b.WallNS = SystemInvestigationMaxNS
	}
	return b
}

// SystemMissingIdentities lists every identity a system comparison lacks:
// the shared ones of MissingIdentities and, per system, a null
// configuration, runtime or advertised-tools digest, permission policy or
// (Madar) package integrity.
func SystemMissingIdentities(m *campaign.SystemManifest) []string {
	out := missingSharedIdentities(m.Seed, m.FrozenDocuments, m.ResponseSchemaSHA256, m.Execution)
	for i, s := range m.Systems {
		p := fmt.Sprintf("systems[%d](%s).", i, s.Name)
		for _, f := range []struct {
			name string
			v    *string
		}{{"configuration_sha256", s.ConfigurationSHA256}, {"runtime_sha256", s.RuntimeSHA256}, {"advertised_tools_sha256", s.AdvertisedToolsSHA256}, {"permission_policy", s.PermissionPolicy}} {
			if f.v == nil {
				out = append(out, p+f.name)
			}
		}
		if s.Name == campaign.SystemMadar && s.Provider != nil && s.Provider.Integrity == nil {
			out = append(out, p+"provider.integrity")
		}
	}
	return out
}

// DeliveredIdentityFindings compares every receipt's delivered identities
// with the manifest: model and host always; the permission policy of an
// investigation with its system's and of a review with the execution's;
// an investigation's configuration, runtime and advertised-tools digests
// with its system's. Each difference is one *verr.Error; any one stops
// admission (CONTRACT §6).
func DeliveredIdentityFindings(c *campaign.SystemCampaign) []*verr.Error {
	var out []*verr.Error
	x := c.Manifest.Execution
	eq := func(a, b *string) bool { return a != nil && b != nil && *a == *b }
	for _, w := range c.Workflows {
		sys := c.Manifest.Systems[slices.Index(campaign.SystemNames, w.Workflow.System)]
		for _, s := range []*campaign.SystemSession{&w.Investigation, &w.Review} {
			r := s.Receipt
			if r == nil || r.Status == campaign.StatusNotDispatched {
				continue
			}
			var bad []string
			check := func(name string, got, want *string) {
				if !eq(got, want) {
					bad = append(bad, name)
				}
			}
			check("model", r.Model, x.Model)
			check("host", r.Host, x.Host)
			if s.Role == campaign.RoleInvestigation {
				check("permission_policy", r.PermissionPolicy, sys.PermissionPolicy)
				check("configuration_sha256", r.ConfigurationSHA256, sys.ConfigurationSHA256)
				check("runtime_sha256", r.RuntimeSHA256, sys.RuntimeSHA256)
				check("advertised_tools_sha256", r.AdvertisedToolsSHA256, sys.AdvertisedToolsSHA256)
			} else {
				check("permission_policy", r.PermissionPolicy, x.PermissionPolicy)
			}
			if len(bad) > 0 {
				out = append(out, verr.Newf(ReasonDeliveredIdentity, campaign.ReceiptPath(s.ID), "", RuleSystemCeilings,
					"the %s session of %s (%s) delivered another %s than the manifest records", s.Role, w.Workflow.ID, w.Workflow.System, strings.Join(bad, ", ")))
			}
		}
	}
	return out
}

// reviewLaunchable reports whether a workflow's review may be launched:
// the investigation ended with a nonempty draft and a delivered packet.
func reviewLaunchable(w *campaign.SystemWorkflow) (bool, string) {
	r := w.Investigation.Receipt
	switch {
	case r == nil || r.Status == "":
		return false, "the investigation has not ended"
	case r.Status != campaign.StatusResponse:
		return false, fmt.Sprintf("the investigation ended with %s: an investigation-stage failure", r.Status)
	case len(strings.TrimSpace(string(w.Draft))) == 0:
		return false, "the investigation returned an empty draft: an investigation-stage failure"
	case w.Packet == nil:
		return false, "the workflow has no packet"
	case w.Packet.Status == campaign.PacketEvidenceBudgetExceeded:
		return false, fmt.Sprintf("the packet holds %d tokens > 60,000: evidence_budget_exceeded", w.Packet.Tokens)
	}
	return true, ""
}

// AdmitSystems replays a planned dispatch sequence of a system comparison
// against its remaining allowance (CONTRACT §6 "The same
// admission-reservation and missing-price stop apply"), with the first
// experiment's budget arithmetic (Fits, inclusive ceilings). A dispatch is
// refused first when it names no workflow, reruns a session that has a
// receipt, or launches a review whose investigation failed or has not
// ended; then while any prohibition holds (no tariff, tariff unverified,
// reservation unenforced, recorded consumption incomplete, a missing
// identity, a delivered identity that differs from the manifest); then
// when its worst case (systemWorstCase) does not fit.
func AdmitSystems(c *campaign.SystemCampaign, prior Budget, plan []Dispatch) AdmissionReplay {
	x := c.Manifest.Execution
	out := AdmissionReplay{Ceilings: SystemCeilings(), Prior: prior, Identities: SystemMissingIdentities(&c.Manifest)}
	recorded, unknown := SystemConsumed(c)
	out.Recorded = recorded
	pro := newProhibitions(x, unknown, out.Identities)
	if f := DeliveredIdentityFindings(c); len(f) > 0 {
		pro.add(ReasonDeliveredIdentity, f[0].Detail)
	}
	out.Prohibited = pro.reasons
	byID := map[string]*campaign.SystemWorkflow{}
	for _, w := range c.Workflows {
		byID[w.Workflow.ID] = w
	}
	planned := map[string]bool{}
	used := recorded.Plus(prior)
	for _, d := range plan {
		dec := DispatchDecision{Dispatch: Dispatch{ID: d.ID, Workflow: d.Workflow, Role: d.Role, Replacement: d.Replacement, Probe: d.Probe}, Before: used}
		w := byID[d.Workflow]
		var refusal verr.Reason
		var why string
		switch {
		case d.Probe:
		case w == nil || (d.Role != campaign.RoleInvestigation && d.Role != campaign.RoleReview):
			refusal, why = ReasonDispatchUnknownWorkflow, fmt.Sprintf("the manifest has no %s of workflow %q", d.Role, d.Workflow)
		default:
			dec.Dispatch.Task, dec.Dispatch.Repetition = w.Workflow.Task, w.Workflow.Repetition
			s := &w.Investigation
			if d.Role == campaign.RoleReview {
				s = &w.Review
			}
			key := d.Workflow + "#" + string(d.Role)
			switch {
			case s.Receipt != nil || planned[key]:
				refusal, why = ReasonDispatchRerun, fmt.Sprintf("session %s (%s of %s) is already dispatched: no automatic reruns", s.ID, d.Role, d.Workflow)
			case d.Role == campaign.RoleReview && !planned[d.Workflow+"#"+string(campaign.RoleInvestigation)]:
				if ok, reason := reviewLaunchable(w); !ok {
					refusal, why = ReasonReviewNotLaunched, reason
				}
			}
			if refusal == "" {
				planned[key] = true
			}
		}
		if !pro.refuse(&dec, refusal, why) {
			w := systemWorstCase(x.PriceCard, d.Role)
			if d.Replacement {
				w.ReplacementSessions = 1
			}
			reserve(&dec, out.Ceilings, &used, w)
		}
		out.decide(dec, used)
	}
	return out
}

// SystemReceiptFindings checks every system receipt against what it
// describes (CONTRACT §5 "Required records", §6): an investigation's input
// is the exact investigator prompt (RenderInvestigatorPrompt) and its
// output the draft; a review's input is the exact review prompt
// (RenderSystemReviewPrompt: the selected instruction, the task, the
// workflow's packet and the draft) and its output its raw answer; the
// review names its packet's SHA-256 and starts after its investigation
// ended; its task bytes are the task's. A review of a workflow whose
// investigation failed, returned an empty draft or exceeded the packet
// budget must not be dispatched (ReasonReviewNotLaunched). Each finding
// makes the execution invalid.
func SystemReceiptFindings(c *campaign.SystemCampaign, packetSHA256 func(workflow string) string) []*verr.Error {
	var out []*verr.Error
	add := func(r verr.Reason, s string, format string, a ...any) {
		out = append(out, verr.Newf(r, campaign.ReceiptPath(s), "", campaign.RuleReceipt, format, a...))
	}
	sha := hexSHA256
	for _, w := range c.Workflows {
		t := c.Task(w.Workflow.Task)
		if t == nil {
			continue
		}
		if r := w.Investigation.Receipt; r != nil && r.Status != "" && r.Status != campaign.StatusNotDispatched {
			if in, err := campaign.RenderInvestigatorPrompt(c.Prompts, t.Text); err == nil && !digestIs(r.InputSHA256, r.InputBytes, sha(in), len(in)) {
				add(ReasonDeliveredInputMismatch, w.Investigation.ID, "the input is not the investigator prompt verdict prompts renders (%d bytes, SHA-256 %s)", len(in), sha(in))
			}
			if w.Draft != nil && !digestIs(r.OutputSHA256, r.OutputBytes, sha(w.Draft), len(w.Draft)) {
				add(ReasonOutputMismatch, w.Investigation.ID, "the output is not the draft %s", campaign.DraftPath(w.Investigation.ID))
			}
			if r.TaskSHA256 == nil || *r.TaskSHA256 != sha(t.Text) {
				add(ReasonWrongTaskBytes, w.Investigation.ID, "the task bytes are not %s", campaign.TaskTextPath(t.Entry.ID))
			}
		}
		r := w.Review.Receipt
		if r == nil || r.Status == campaign.StatusNotDispatched {
			continue
		}
		if ok, why := reviewLaunchable(w); !ok {
			add(ReasonReviewNotLaunched, w.Review.ID, "the review was dispatched but %s", why)
			continue
		}
		if r.Status == "" {
			continue
		}
		if in, err := campaign.RenderSystemReviewPrompt(c.Manifest.SelectedReview, c.Prompts, t.Text, w.Packet, w.Draft); err == nil && !digestIs(r.InputSHA256, r.InputBytes, sha(in), len(in)) {
			add(ReasonDeliveredInputMismatch, w.Review.ID, "the input is not the review prompt verdict prompts renders (%d bytes, SHA-256 %s)", len(in), sha(in))
		}
		if w.Review.RawSHA256 != "" && (r.OutputSHA256 == nil || *r.OutputSHA256 != w.Review.RawSHA256 || r.OutputBytes == nil || *r.OutputBytes != int64(w.Review.RawSize)) {
			add(ReasonOutputMismatch, w.Review.ID, "the output is not the raw answer %s", campaign.ResponsePath(w.Review.ID))
		}
		if want := packetSHA256(w.Workflow.ID); r.PacketSHA256 == nil || *r.PacketSHA256 != want {
			add(ReasonReceiptMismatch, w.Review.ID, "the review does not name its packet %s (SHA-256 %s)", campaign.PacketFile(w.Workflow.ID), want)
		}
		if ir := w.Investigation.Receipt; ir.EndMonotonicNS != nil && r.StartMonotonicNS != nil && *r.StartMonotonicNS < *ir.EndMonotonicNS {
			add(ReasonReviewBeforeDraftEnded, w.Review.ID, "the review starts before its investigation ended")
		}
	}
	return out
}

// digestIs reports whether a recorded digest and size are exactly want.
func digestIs(sha *string, size *int64, want string, n int) bool {
	return sha != nil && size != nil && *sha == want && *size == int64(n)
}
