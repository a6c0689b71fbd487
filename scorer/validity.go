package scorer

import (
	"fmt"
	"slices"
	"strings"

	"verdict/campaign"
	"verdict/verr"
)

// Rules cited by execution-validity findings.
const (
	RuleRequiredRecords = "CONTRACT §5 Required records"
	RuleInvalidity      = "CONTRACT §5 No automatic reruns"
	RuleSharedDraft     = "CONTRACT §2 shared draft failure"
	RuleIdentity        = "CONTRACT §4 wrong packet/model/permissions"
	RuleFixedEvidence   = "CONTRACT §2 no tools in fixed-evidence sessions"
)

// Reason codes of execution validity (CONTRACT §2, §4–§5;
// EVALUATOR-CONTROLS C15, C16, C17, C23).
const (
	// ReasonReceiptMismatch: a receipt's session, role, task or repetition
	// differs from the manifest run it belongs to.
	ReasonReceiptMismatch verr.Reason = "receipt-mismatch"
	// ReasonWrongModel: the delivered model differs from the manifest (C17).
	ReasonWrongModel verr.Reason = "wrong-model"
	// ReasonWrongPermissions: the delivered permission policy differs (C17).
	ReasonWrongPermissions verr.Reason = "wrong-permissions"
	// ReasonWrongTaskBytes: the delivered task text hash differs (C17).
	ReasonWrongTaskBytes verr.Reason = "wrong-task-bytes"
	// ReasonWrongSourceHash: the delivered packet hash differs from the
	// manifest's binding of tasks/<T>/packet.json (C17).
	ReasonWrongSourceHash verr.Reason = "wrong-source-hash"
	// ReasonArmStateLeaked: cross-arm state leaked into a session (C17).
	ReasonArmStateLeaked verr.Reason = "arm-state-leaked"
	// ReasonToolCalls: ordinary or MCP calls in a fixed-evidence session.
	ReasonToolCalls verr.Reason = "tool-calls-in-fixed-evidence"
	// ReasonErrorKindMissing: an error or interruption receipt without an error kind.
	ReasonErrorKindMissing verr.Reason = "error-kind-missing"
	// ReasonInfrastructureUnverified: an infrastructure error without one of
	// the verified infrastructure reasons of CONTRACT §5.
	ReasonInfrastructureUnverified verr.Reason = "infrastructure-unverified"
	// ReasonTimeoutRelabelled: a session that reached the 4-minute deadline
	// is labelled infrastructure; a model timeout is a valid scored failure,
	// never an infrastructure rerun (C16, mutation "relabel a model timeout
	// as infrastructure").
	ReasonTimeoutRelabelled verr.Reason = "timeout-relabelled-infrastructure"
	// ReasonInfrastructureInvalid: a verified infrastructure invalidity
	// (recorder loss, wrong inputs, undeclared permissions, cross-arm
	// leakage, platform outage) makes the triplet invalid, retained and charged.
	ReasonInfrastructureInvalid verr.Reason = "infrastructure-invalid"
	// ReasonReviewsAfterFailedDraft: A or B was dispatched although the
	// shared draft failed (C23).
	ReasonReviewsAfterFailedDraft verr.Reason = "reviews-dispatched-after-failed-draft"
	// ReasonNotDispatchedWithoutFailure: a review is not dispatched although
	// the shared draft succeeded, or the draft itself is not dispatched.
	ReasonNotDispatchedWithoutFailure verr.Reason = "not-dispatched-without-draft-failure"
	// ReasonReplacementLimit: more than one replacement triplet (CONTRACT §5).
	ReasonReplacementLimit verr.Reason = "replacement-limit-exceeded"
	// ReasonReplacementWithoutInvalid: a replacement triplet
	// (runs[].replaces) whose original is valid, or invalid for a reason
	// that is not verified infrastructure (CONTRACT §5: a model timeout,
	// malformed answer, wrong model or order is never replaced).
	ReasonReplacementWithoutInvalid verr.Reason = "replacement-without-invalid-original"
	// ReasonReplacementOrderChanged: a replacement triplet's order differs
	// from the original's (the replacement keeps the counterbalancing).
	ReasonReplacementOrderChanged verr.Reason = "replacement-order-changed"
	// ReasonInvalidNotReplaced: an invalid triplet is compared (not replaced):
	// no product verdict from it.
	ReasonInvalidNotReplaced verr.Reason = "invalid-triplet-not-replaced"
	// ReasonSecondInvalidTriplet: a second invalid triplet stops the campaign.
	ReasonSecondInvalidTriplet verr.Reason = "campaign-stopped-second-invalid-triplet"
)

// Verified infrastructure reasons a receipt's infrastructure_invalid may
// hold (CONTRACT §5 "Infrastructure invalidity means verified recorder
// loss, wrong delivered inputs, undeclared permissions, cross-arm leakage
// or external platform outage").
var InfrastructureReasons = []string{"recorder_loss", "wrong_inputs", "undeclared_permissions", "cross_arm_leakage", "platform_outage"}

// ValidityFinding is one execution-validity result. Invalid findings make
// their triplet an invalid execution (retained and charged); refused
// findings reject a record that contradicts the contract (for example a
// relabelled model timeout). Both fail admission.
type ValidityFinding struct {
	Reason     verr.Reason `json:"reason"`
	Session    string      `json:"session"`
	Task       string      `json:"task"`
	Repetition int         `json:"repetition"`
	File       string      `json:"file"`
	Pointer    string      `json:"pointer"`
	Rule       string      `json:"rule"`
	Detail     string      `json:"detail"`
	// With is the other session a finding compares this one with (the
	// session it overlaps, the draft a review started before or whose
	// output the review's recorded input quotes, the arm declared first,
	// the session whose response ID it repeats); "" for a finding on this
	// session alone. A finding whose With is planned waits
	// for that session (receipt import defers it); any other is decided.
	With string `json:"-"`
}

// Error converts the finding to a *verr.Error.
func (f ValidityFinding) Error() *verr.Error {
	return &verr.Error{Reason: f.Reason, File: f.File, Pointer: f.Pointer, Rule: f.Rule, Detail: f.Detail}
}

// ScoredFailure is a valid scored failure (C16, C23): R=0, U=0,
// critical_completion_failed, kept in every denominator; never an
// infrastructure rerun.
type ScoredFailure struct {
	Session    string             `json:"session"`
	Task       string             `json:"task"`
	Repetition int                `json:"repetition"`
	Role       campaign.Role      `json:"role"`
	Kind       campaign.ErrorKind `json:"kind"`
	// Detail says why: the error receipt, the strict loader's refusal, the
	// bound a response ran past, or the failed shared draft.
	Detail string `json:"detail"`
}

// TripletValidity is the validity of one manifest run (D, A, B).
type TripletValidity struct {
	Task        string        `json:"task"`
	Repetition  int           `json:"repetition"`
	Sessions    [3]string     `json:"sessions"`
	Invalid     bool          `json:"invalid"`
	Replacement bool          `json:"replacement"`
	Superseded  bool          `json:"superseded"`
	Reasons     []verr.Reason `json:"reasons"`
}

// ValidityReport is the execution validity of a campaign (CONTRACT §4–§5).
type ValidityReport struct {
	// Valid is true when Findings is empty: no record is refused, no
	// compared triplet is invalid, at most one triplet was replaced, and
	// that of verified infrastructure invalidity, and the campaign did not
	// stop.
	Valid bool `json:"valid"`
	// Stopped is true after a second invalid triplet (CONTRACT §5).
	Stopped             bool `json:"stopped"`
	InvalidTriplets     int  `json:"invalid_triplets"`
	ReplacementTriplets int  `json:"replacement_triplets"`
	// Findings make the execution invalid (each fails admission).
	Findings []ValidityFinding `json:"findings"`
	// Replaced are the findings of an original triplet replaced by the one
	// permitted replacement (verified infrastructure invalidity): retained
	// and reported with its cost and time, not compared, not a failure.
	Replaced       []ValidityFinding `json:"replaced_findings"`
	Triplets       []TripletValidity `json:"triplets"`
	ScoredFailures []ScoredFailure   `json:"scored_failures"`
	// Planned are the sessions the manifest lists that have not started
	// (Planned: no receipt, no response), in manifest order. They are not
	// findings; while any is planned the campaign is incomplete
	// (IncompleteError) and not admitted for scoring.
	Planned []string `json:"planned_sessions"`
}

// modelSideKind reports whether an error kind is a model outcome, a valid
// scored failure (C16).
func modelSideKind(k campaign.ErrorKind) bool {
	switch k {
	case campaign.ErrorTimeout, campaign.ErrorRefusal, campaign.ErrorMalformed, campaign.ErrorBudget:
		return true
	}
	return false
}

// ExecutionValidity checks every session's receipt against the manifest
// and the contract's validity rules: a session with neither receipt nor
// response is planned, not started (Planned; listed in Planned, not a
// finding); a start without a terminal receipt is invalid (C15); every receipt is checked against what it describes
// (ReceiptIssues: required records, delivered input and output identity,
// metering, order in time, host); wrong model, source hash, task bytes,
// permissions or leaked arm state is invalid, retained and charged (C17);
// tool calls in a fixed-evidence session are invalid; a model timeout,
// malformed or refused answer, and a response past a per-session bound
// (SessionBound), is a valid scored failure, and a receipt relabelling a
// timeout as infrastructure is refused (C16); a shared draft that failed
// or ran past a bound needs not-dispatched receipts for A and B and fails
// both workflows (C23); at most one replacement triplet (runs[].replaces),
// of a triplet whose invalidity is verified infrastructure, under the same
// order; a second invalid triplet stops the campaign (CONTRACT §5).
func ExecutionValidity(c *campaign.Campaign) ValidityReport {
	m := &c.Manifest
	var rep ValidityReport
	byRun := sessionsByRun(c)
	_, superseded := comparedRuns(m)
	tasks := map[string]*campaign.Task{}
	for _, t := range c.Tasks {
		tasks[t.Entry.ID] = t
	}
	packetSHA := map[string]string{}
	for _, f := range m.Files {
		packetSHA[f.Path] = f.SHA256
	}
	ex := m.Execution
	issues := map[string][]ValidityFinding{}
	for _, f := range receiptIssues(c, byRun) {
		issues[f.Session] = append(issues[f.Session], f)
	}

	for i, run := range m.Runs {
		ids := [3]string{run.Sessions.Draft, run.Sessions.ReviewA, run.Sessions.ReviewB}
		roles := [3]campaign.Role{campaign.RoleDraft, campaign.RoleReviewA, campaign.RoleReviewB}
		tv := TripletValidity{Task: run.Task, Repetition: run.Repetition, Sessions: ids, Superseded: superseded[i], Replacement: run.Replaces != nil}
		note := func(f ValidityFinding) {
			rep.Findings = append(rep.Findings, f)
			if !slices.Contains(tv.Reasons, f.Reason) {
				tv.Reasons = append(tv.Reasons, f.Reason)
			}
			tv.Invalid = true
		}
		add := func(j int, r verr.Reason, pointer, rule, format string, a ...any) {
			note(ValidityFinding{Reason: r, Session: ids[j], Task: run.Task, Repetition: run.Repetition,
				File: campaign.ReceiptPath(ids[j]), Pointer: pointer, Rule: rule, Detail: fmt.Sprintf(format, a...)})
		}
		failure := func(j int, k campaign.ErrorKind, why string) {
			rep.ScoredFailures = append(rep.ScoredFailures, ScoredFailure{Session: ids[j], Task: run.Task, Repetition: run.Repetition, Role: roles[j], Kind: k, Detail: why})
		}
		var sess [3]*campaign.Session
		for j := range 3 {
			sess[j] = byRun[i][j]
		}
		// Draft outcome decides whether reviews may be dispatched (C23): a
		// model-side error, a malformed answer or a response past a bound.
		var draftFailed bool
		var draftWhy string
		if d := sess[0]; d != nil && d.Receipt != nil {
			r := d.Receipt
			switch r.Status {
			case campaign.StatusError, campaign.StatusInterruption:
				draftFailed = r.ErrorKind != nil && modelSideKind(*r.ErrorKind)
				if draftFailed {
					draftWhy = string(*r.ErrorKind)
				}
			case campaign.StatusResponse:
				if k, why := SessionBound(r); k != "" {
					draftFailed, draftWhy = true, string(k)+": "+why
				} else if d.Response == nil {
					draftFailed, draftWhy = true, string(campaign.ErrorMalformed)
				}
			}
		}
		for j := range 3 {
			s := sess[j]
			if Planned(s) {
				// Planned, not started: neither receipt nor response.
				rep.Planned = append(rep.Planned, ids[j])
				continue
			}
			if s.Receipt == nil {
				add(j, ReasonMissingTerminalReceipt, "", RuleRequiredRecords, "session %s (%s) has a response file but no receipt: a start without a response/error/interruption receipt is an invalid execution (C15)", ids[j], roles[j])
				continue
			}
			r := s.Receipt
			if r.SessionID != ids[j] || r.Role != roles[j] || r.Task != run.Task || r.Repetition != run.Repetition {
				add(j, ReasonReceiptMismatch, "", RuleRequiredRecords, "receipt names session %s role %s task %s repetition %d; the manifest run has %s %s %s %d",
					r.SessionID, r.Role, r.Task, r.Repetition, ids[j], roles[j], run.Task, run.Repetition)
			}
			for _, f := range issues[ids[j]] {
				note(f)
			}
			if r.Status == "" {
				add(j, ReasonMissingTerminalReceipt, "/status", RuleRequiredRecords, "session started without a terminal response/error/interruption receipt (C15)")
				continue
			}
			if r.Status == campaign.StatusNotDispatched {
				switch {
				case j == 0:
					add(j, ReasonNotDispatchedWithoutFailure, "/status", RuleSharedDraft, "the shared draft itself is not dispatched")
				case !draftFailed:
					add(j, ReasonNotDispatchedWithoutFailure, "/status", RuleSharedDraft, "review not dispatched although the shared draft did not fail")
				default:
					failure(j, campaign.ErrorSharedDraft, "shared draft "+ids[0]+" failed ("+draftWhy+")")
				}
				continue
			}
			if j > 0 && draftFailed {
				add(j, ReasonReviewsAfterFailedDraft, "/status", RuleSharedDraft, "review dispatched although shared draft %s failed (%s); A and B need not-dispatched receipts (C23)", ids[0], draftWhy)
			}
			// Delivered identities (C17).
			if ex.Model != nil && (r.Model == nil || *r.Model != *ex.Model) {
				add(j, ReasonWrongModel, "/model", RuleIdentity, "delivered model %s, manifest %s", strOr(r.Model), *ex.Model)
			}
			if ex.PermissionPolicy != nil && (r.PermissionPolicy == nil || *r.PermissionPolicy != *ex.PermissionPolicy) {
				add(j, ReasonWrongPermissions, "/permission_policy", RuleIdentity, "delivered permission policy %s, manifest %s", strOr(r.PermissionPolicy), *ex.PermissionPolicy)
			}
			if t := tasks[run.Task]; t != nil {
				if want := hexSHA256(t.Text); r.TaskSHA256 == nil || *r.TaskSHA256 != want {
					add(j, ReasonWrongTaskBytes, "/task_sha256", RuleIdentity, "delivered task bytes %s, frozen task text %s", strOr(r.TaskSHA256), want)
				}
			}
			if want, ok := packetSHA[campaign.PacketPath(run.Task)]; ok && (r.PacketSHA256 == nil || *r.PacketSHA256 != want) {
				add(j, ReasonWrongSourceHash, "/packet_sha256", RuleIdentity, "delivered packet %s, manifest binds %s", strOr(r.PacketSHA256), want)
			}
			if r.ArmStateLeaked {
				add(j, ReasonArmStateLeaked, "/arm_state_leaked", RuleIdentity, "cross-arm state leaked into this session")
			}
			if r.OrdinaryCalls > 0 || r.MCPCalls > 0 {
				add(j, ReasonToolCalls, "/ordinary_calls", RuleFixedEvidence, "%d ordinary and %d MCP calls in a fixed-evidence session (must be zero)", r.OrdinaryCalls, r.MCPCalls)
			}
			// Outcome classification (C16 and infrastructure).
			switch r.Status {
			case campaign.StatusError, campaign.StatusInterruption:
				if r.ErrorKind == nil {
					add(j, ReasonErrorKindMissing, "/error_kind", RuleInvalidity, "%s receipt without an error kind", r.Status)
					break
				}
				k := *r.ErrorKind
				switch {
				case modelSideKind(k):
					failure(j, k, string(r.Status)+" receipt")
				case k == campaign.ErrorInfrastructure:
					reached := r.StartMonotonicNS != nil && r.EndMonotonicNS != nil && *r.EndMonotonicNS-*r.StartMonotonicNS >= SessionMaxNS
					switch {
					case reached:
						add(j, ReasonTimeoutRelabelled, "/error_kind", RuleInvalidity, "session reached the 4-minute deadline: a model timeout is a valid scored failure, not infrastructure (C16)")
					case r.InfrastructureInvalid == nil || !slices.Contains(InfrastructureReasons, *r.InfrastructureInvalid):
						add(j, ReasonInfrastructureUnverified, "/infrastructure_invalid", RuleInvalidity, "infrastructure error with unverified reason %s; allowed: %v", strOr(r.InfrastructureInvalid), InfrastructureReasons)
					default:
						add(j, ReasonInfrastructureInvalid, "/infrastructure_invalid", RuleInvalidity, "verified infrastructure invalidity %s: triplet retained and charged", *r.InfrastructureInvalid)
					}
				default:
					add(j, ReasonErrorKindMissing, "/error_kind", RuleInvalidity, "error kind %s is not valid for a dispatched session", k)
				}
			case campaign.StatusResponse:
				// A response past a bound is a timeout or budget exhaustion:
				// a valid scored failure whatever the answer (CONTRACT §4).
				if k, why := SessionBound(r); k != "" {
					failure(j, k, "response receipt, but the session "+why)
				} else if s.Response == nil {
					failure(j, campaign.ErrorMalformed, "response refused by the strict loader")
				}
			}
		}
		if tv.Invalid {
			rep.InvalidTriplets++
		}
		if tv.Replacement {
			rep.ReplacementTriplets++
		}
		rep.Triplets = append(rep.Triplets, tv)
	}
	runFinding := func(i int, r verr.Reason, pointer, rule, format string, a ...any) {
		f := ValidityFinding{Reason: r, File: campaign.ManifestFile, Pointer: pointer, Rule: rule, Detail: fmt.Sprintf(format, a...)}
		if i >= 0 {
			f.Task, f.Repetition = m.Runs[i].Task, m.Runs[i].Repetition
		}
		rep.Findings = append(rep.Findings, f)
	}
	for i, tv := range rep.Triplets {
		run := m.Runs[i]
		if run.Replaces != nil {
			orig := replacedRun(m, i)
			switch {
			case orig < 0:
				// The loader refuses a replaces that names no earlier run.
			case !rep.Triplets[orig].Invalid:
				runFinding(i, ReasonReplacementWithoutInvalid, fmt.Sprintf("/runs/%d/replaces", i), RuleInvalidity,
					"run %d replaces the triplet of %s, which is valid: no automatic reruns", i, *run.Replaces)
			case !replaceable(rep.Triplets[orig].Reasons):
				runFinding(i, ReasonReplacementWithoutInvalid, fmt.Sprintf("/runs/%d/replaces", i), RuleInvalidity,
					"run %d replaces the triplet of %s, whose invalidity (%s) is not verified infrastructure (recorder loss, wrong delivered inputs, undeclared permissions, cross-arm leakage, platform outage)",
					i, *run.Replaces, joinReasons(nonReplaceable(rep.Triplets[orig].Reasons)))
			}
			if orig >= 0 && m.Runs[orig].Order != run.Order {
				runFinding(i, ReasonReplacementOrderChanged, fmt.Sprintf("/runs/%d/order", i), RuleInvalidity,
					"the replacement runs %s; the triplet it replaces was declared %s (counterbalancing is kept)", run.Order, m.Runs[orig].Order)
			}
		}
		if tv.Invalid && !tv.Superseded {
			runFinding(i, ReasonInvalidNotReplaced, fmt.Sprintf("/runs/%d", i), RuleInvalidity, "invalid triplet %s r%d is not replaced: no verdict from it", tv.Task, tv.Repetition)
		}
	}
	if rep.ReplacementTriplets > 1 {
		runFinding(-1, ReasonReplacementLimit, "/runs", RuleInvalidity, "%d replacement triplets; at most one is permitted", rep.ReplacementTriplets)
	}
	if rep.InvalidTriplets >= 2 {
		rep.Stopped = true
		runFinding(-1, ReasonSecondInvalidTriplet, "/runs", RuleInvalidity, "%d invalid triplets: the campaign stops after the second", rep.InvalidTriplets)
	}
	// The replaced original's verified infrastructure findings are
	// retained and reported, never an admission failure; every other
	// finding makes the execution invalid.
	kept := rep.Findings[:0:0]
	for _, f := range rep.Findings {
		if f.Session != "" && isSuperseded(rep.Triplets, f.Task, f.Repetition, f.Session) && replaceable([]verr.Reason{f.Reason}) {
			rep.Replaced = append(rep.Replaced, f)
			continue
		}
		kept = append(kept, f)
	}
	rep.Findings = kept
	rep.Valid = len(rep.Findings) == 0
	return rep
}

// replaceableReasons are the findings that make a triplet infrastructure
// invalid in the sense of CONTRACT §5: verified recorder loss (a missing,
// incomplete or contradicted record or meter), wrong delivered inputs,
// undeclared permissions (including tool calls), cross-arm leakage and a
// verified platform outage. Any other finding (wrong model, host, order,
// overlap, a relabelled or unverified error, a review dispatched after a
// failed draft) is not replaceable.
var replaceableReasons = []verr.Reason{
	ReasonMissingTerminalReceipt, ReasonReceiptRecordMissing, ReasonReceiptRecordUnexpected, ReasonReceiptEndBeforeStart, ReasonReceiptClocksDisagree,
	ReasonMeterIncomplete, ReasonOutputMismatch, ReasonDeliveredInputMismatch, ReasonWrongTaskBytes, ReasonWrongSourceHash,
	ReasonWrongPermissions, ReasonToolCalls, ReasonArmStateLeaked, ReasonInfrastructureInvalid,
}

// replaceable reports whether every reason is a verified infrastructure
// invalidity (replaceableReasons) and there is at least one.
func replaceable(rs []verr.Reason) bool {
	return len(rs) > 0 && len(nonReplaceable(rs)) == 0
}

func nonReplaceable(rs []verr.Reason) []verr.Reason {
	var out []verr.Reason
	for _, r := range rs {
		if !slices.Contains(replaceableReasons, r) {
			out = append(out, r)
		}
	}
	return out
}

func joinReasons(rs []verr.Reason) string {
	parts := make([]string, len(rs))
	for i, r := range rs {
		parts[i] = string(r)
	}
	return strings.Join(parts, ", ")
}

// replacedRun returns the index of the run that run i replaces (the
// earlier run of the same task and repetition whose shared draft its
// replaces names), or -1.
func replacedRun(m *campaign.Manifest, i int) int {
	r := m.Runs[i]
	if r.Replaces == nil {
		return -1
	}
	for k := range i {
		o := m.Runs[k]
		if o.Task == r.Task && o.Repetition == r.Repetition && o.Sessions.Draft == *r.Replaces {
			return k
		}
	}
	return -1
}

// isSuperseded reports whether session belongs to a superseded triplet.
func isSuperseded(ts []TripletValidity, task string, rep int, session string) bool {
	for _, t := range ts {
		if t.Task == task && t.Repetition == rep && slices.Contains(t.Sessions[:], session) {
			return t.Superseded
		}
	}
	return false
}

func strOr(s *string) string {
	if s == nil {
		return "null"
	}
	return *s
}

// Replacement is one replacement triplet (runs[].replaces) as check shows
// it: which run replaces which triplet, and why the original was invalid
// (CONTRACT §5: one replacement, of a triplet whose invalidity is verified
// infrastructure).
type Replacement struct {
	// Run is the replacement's index in manifest runs[]; Task and
	// Repetition name the triplet.
	Run        int    `json:"run"`
	Task       string `json:"task"`
	Repetition int    `json:"repetition"`
	// Sessions are the replacement's draft, review A and review B.
	Sessions [3]string `json:"sessions"`
	// Replaces is the shared draft the manifest names; Original is the
	// index of the replaced run (-1 when none matches) and
	// OriginalSessions its sessions.
	Replaces         string    `json:"replaces"`
	Original         int       `json:"original_run"`
	OriginalSessions [3]string `json:"original_sessions"`
	// Reasons are the validity reasons of the original triplet (empty when
	// it is valid: then the replacement is refused).
	Reasons []verr.Reason `json:"original_invalid_reasons"`
	// Claims are the original sessions' receipts' infrastructure_invalid
	// statements, "SESSION: reason". verdict checks them against the
	// receipts and responses it holds, not against the platform: an
	// outage or recorder loss is the runner's claim.
	Claims []string `json:"infrastructure_claims"`
}

// Replacements lists every replacement triplet of the campaign with the
// triplet it replaces and the reasons that made that triplet invalid
// (rep is ExecutionValidity(c)).
func Replacements(c *campaign.Campaign, rep ValidityReport) []Replacement {
	m := &c.Manifest
	byID := map[string]*campaign.Session{}
	for _, s := range c.Sessions {
		byID[s.ID] = s
	}
	var out []Replacement
	for i, run := range m.Runs {
		if run.Replaces == nil {
			continue
		}
		r := Replacement{Run: i, Task: run.Task, Repetition: run.Repetition, Replaces: *run.Replaces, Original: replacedRun(m, i),
			Sessions: [3]string{run.Sessions.Draft, run.Sessions.ReviewA, run.Sessions.ReviewB}, Reasons: []verr.Reason{}, Claims: []string{}}
		if o := r.Original; o >= 0 {
			or := m.Runs[o].Sessions
			r.OriginalSessions = [3]string{or.Draft, or.ReviewA, or.ReviewB}
			if o < len(rep.Triplets) {
				r.Reasons = append(r.Reasons, rep.Triplets[o].Reasons...)
			}
			for _, id := range r.OriginalSessions {
				if s := byID[id]; s != nil && s.Receipt != nil && s.Receipt.InfrastructureInvalid != nil {
					r.Claims = append(r.Claims, id+": "+*s.Receipt.InfrastructureInvalid)
				}
			}
		}
		out = append(out, r)
	}
	return out
}

// String is the replacement in one line, as check prints it.
func (r Replacement) String() string {
	why := "the original triplet is valid"
	if len(r.Reasons) > 0 {
		why = "original invalid: " + joinReasons(r.Reasons)
	}
	claims := "no infrastructure claim"
	if len(r.Claims) > 0 {
		claims = "infrastructure claimed (not verifiable by verdict): " + strings.Join(r.Claims, ", ")
	}
	orig := "no earlier run"
	if r.Original >= 0 {
		orig = fmt.Sprintf("run %d (%s, %s, %s)", r.Original, r.OriginalSessions[0], r.OriginalSessions[1], r.OriginalSessions[2])
	}
	return fmt.Sprintf("run %d (%s r%d: %s, %s, %s) replaces %s; %s; %s", r.Run, r.Task, r.Repetition, r.Sessions[0], r.Sessions[1], r.Sessions[2], orig, why, claims)
}
