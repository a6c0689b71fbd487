package scorer

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"verdict/campaign"
	"verdict/verr"
)

// Rules cited by the receipt checks (CONTRACT §2, §5; EVALUATOR-CONTROLS
// C17; CLI-HANDOFF 2 "actual input identity").
const (
	RuleDeliveredInputs = "CONTRACT §5 Required records: input/output hashes and byte counts; EVALUATOR-CONTROLS C17"
	RuleSerialHost      = "CONTRACT §2 Run sessions serially on one recorded host; counterbalanced order"
	RuleMetering        = "CONTRACT §5 Unsupported modifiers or incomplete metering fail admission"
	RuleSessionBounds   = "CONTRACT §4 review timeout/budget exhaustion is a scored failure; §5 per-session limits"
)

// Reason codes of the receipt checks (ReceiptIssues). Each makes its
// triplet an invalid execution.
const (
	// ReasonReceiptRecordMissing: a record the receipt's status requires is
	// null or empty (see RequiredRecords), or a time is not RFC 3339 UTC.
	ReasonReceiptRecordMissing verr.Reason = "receipt-record-missing"
	// ReasonReceiptRecordUnexpected: a not-dispatched receipt carries a
	// record that only a dispatched session can have (RequiredRecords).
	ReasonReceiptRecordUnexpected verr.Reason = "receipt-record-unexpected"
	// ReasonReceiptEndBeforeStart: the UTC or monotonic end is before its start.
	ReasonReceiptEndBeforeStart verr.Reason = "receipt-end-before-start"
	// ReasonReceiptClocksDisagree: the receipt's UTC duration (ended_utc −
	// started_utc) and monotonic duration (end_monotonic_ns −
	// start_monotonic_ns) differ by more than ClockTolerance: a clock jump,
	// a contradicted record (CONTRACT §5 Required records).
	ReasonReceiptClocksDisagree verr.Reason = "receipt-clocks-disagree"
	// ReasonDeliveredInputMismatch: input_sha256/input_bytes differ from
	// the exact prompt bytes `verdict prompts` renders for the session's
	// role (wrong delivered input, C17).
	ReasonDeliveredInputMismatch verr.Reason = "delivered-input-mismatch"
	// ReasonOutputMismatch: output_sha256/output_bytes differ from the
	// session's response file, or name an output the campaign does not hold
	// (a misattributed output).
	ReasonOutputMismatch verr.Reason = "output-mismatch"
	// ReasonMeterIncomplete: a dispatched session's token meter is missing
	// or inconsistent (its detail says which: meter-missing or
	// meter-inconsistent). The cost stays unknown, never zero.
	ReasonMeterIncomplete verr.Reason = "meter-incomplete"
	// ReasonUnsupportedModifier: a receipt records a priced modifier the
	// contract excludes from Codex accounting (priced_modifiers: API
	// cache-write tokens, a Fast service tier); the session is never
	// priced.
	ReasonUnsupportedModifier verr.Reason = "unsupported-modifier"
	// ReasonReviewBeforeDraftEnded: a review started before its shared
	// draft's terminal receipt ended (it is given D's output).
	ReasonReviewBeforeDraftEnded verr.Reason = "review-before-draft-ended"
	// ReasonSessionsOverlap: two sessions of the campaign ran at the same
	// time (the later-starting one is named).
	ReasonSessionsOverlap verr.Reason = "sessions-overlap"
	// ReasonArmOrderViolated: within a pair the arm the run declares first
	// (order) did not start first.
	ReasonArmOrderViolated verr.Reason = "arm-order-violated"
	// ReasonHostMismatch: a receipt's host is not the manifest's execution.host.
	ReasonHostMismatch verr.Reason = "host-mismatch"
	// ReasonResponseIDReused: two receipts record one response ID (the
	// provider's identity of the run's log, response_id): one log imported
	// for two sessions, so at least one of them holds another session's
	// record. The later one in manifest order is named.
	ReasonResponseIDReused verr.Reason = "response-id-reused"
)

// ClockTolerance is the largest difference, inclusive, between one
// receipt's UTC duration and its monotonic duration that still agrees: 2
// seconds, room for a UTC clock read at whole seconds and a slow NTP slew.
// A larger difference is a clock jump (ReasonReceiptClocksDisagree).
const ClockTolerance = 2 * time.Second

// Record names of RequiredRecords, as receipt JSON members. "input" stands
// for input_sha256 and input_bytes, "output" for output_sha256 and
// output_bytes, "start" for started_utc and start_monotonic_ns, "end" for
// ended_utc and end_monotonic_ns.
const (
	RecordRequestID = "request_id"
	RecordStart     = "start"
	RecordEnd       = "end"
	RecordInput     = "input"
	RecordOutput    = "output"
	RecordMeter     = "meter"
	RecordHost      = "host"
)

// Requirement says whether a status must, may or must not carry a record.
type Requirement string

// The three requirements of RequiredRecords.
const (
	Required   Requirement = "required"
	MayBeNull  Requirement = "may be null"
	MustBeNull Requirement = "must be null"
)

// RequiredRecords is the table of CONTRACT §5 "Required records" by
// receipt status: which records each status requires, may leave null, or
// must leave null. Every dispatched session (response, error,
// interruption) records its request ID, start and end, input identity,
// meter and host; only a response must record its output (an error or
// interruption may have none; when a response file exists its identity is
// required all the same). A start without a terminal receipt ("") has
// recorded its start and input but may lack the rest: its absence is
// itself the C15 finding (missing-terminal-receipt). A not-dispatched
// receipt (C23) has none of them (request_id "").
func RequiredRecords(status campaign.ReceiptStatus) map[string]Requirement {
	all := func(r Requirement) map[string]Requirement {
		return map[string]Requirement{RecordRequestID: r, RecordStart: r, RecordEnd: r, RecordInput: r, RecordOutput: r, RecordMeter: r, RecordHost: r}
	}
	switch status {
	case campaign.StatusResponse:
		return all(Required)
	case campaign.StatusError, campaign.StatusInterruption:
		t := all(Required)
		t[RecordOutput] = MayBeNull
		return t
	case "":
		t := all(Required)
		t[RecordEnd], t[RecordOutput], t[RecordMeter] = MayBeNull, MayBeNull, MayBeNull
		return t
	default: // not_dispatched
		return all(MustBeNull)
	}
}

// receiptRecords reports which records a receipt carries (present) and
// which it half-carries (a digest without its byte count, a UTC time
// without its monotonic reading, or the reverse: partial).
func receiptRecords(r *campaign.Receipt) (present, partial map[string]bool) {
	present, partial = map[string]bool{}, map[string]bool{}
	pair := func(name string, a, b bool) {
		present[name] = a && b
		partial[name] = a != b
	}
	present[RecordRequestID] = r.RequestID != ""
	pair(RecordStart, r.StartedUTC != nil, r.StartMonotonicNS != nil)
	pair(RecordEnd, r.EndedUTC != nil, r.EndMonotonicNS != nil)
	pair(RecordInput, r.InputSHA256 != nil, r.InputBytes != nil)
	pair(RecordOutput, r.OutputSHA256 != nil, r.OutputBytes != nil)
	present[RecordMeter] = r.Meter != nil
	present[RecordHost] = r.Host != nil && *r.Host != ""
	return present, partial
}

// recordPointer is the JSON pointer of a record's first member.
func recordPointer(name string) string {
	switch name {
	case RecordStart:
		return "/started_utc"
	case RecordEnd:
		return "/ended_utc"
	case RecordInput:
		return "/input_sha256"
	case RecordOutput:
		return "/output_sha256"
	}
	return "/" + name
}

// recordNames lists the record names in receipt member order.
var recordNames = []string{RecordRequestID, RecordStart, RecordEnd, RecordInput, RecordOutput, RecordMeter, RecordHost}

// SessionBound reports whether a dispatched session ran past an absolute
// per-session limit of CONTRACT §5 (4 minutes by its monotonic readings,
// 90,000 input or 8,000 billed output tokens by its meter; each limit
// inclusive): the kind is model_timeout for time and budget_exhausted for
// tokens (time first), "" within the limits or when the value is not
// recorded (an unknown value is never a bound; it fails its own rule).
func SessionBound(r *campaign.Receipt) (campaign.ErrorKind, string) {
	if r == nil {
		return "", ""
	}
	if r.StartMonotonicNS != nil && r.EndMonotonicNS != nil {
		if d := *r.EndMonotonicNS - *r.StartMonotonicNS; d > SessionMaxNS {
			return campaign.ErrorTimeout, fmt.Sprintf("ran %s, past the 4-minute limit", Of[Nanosecond](d))
		}
	}
	if t, err := DeriveTokens(r.Meter); err == nil {
		if t.InputTotal > SessionMaxInputTokens {
			return campaign.ErrorBudget, fmt.Sprintf("used %s input tokens, more than 90,000", Of[Token](t.InputTotal))
		}
		if t.BilledOutput > SessionMaxOutputTokens {
			return campaign.ErrorBudget, fmt.Sprintf("billed %s output tokens, more than 8,000", Of[Token](t.BilledOutput))
		}
	}
	return "", ""
}

// dispatched reports whether a receipt's session was dispatched (it has a
// status other than not_dispatched; "" is a start without a terminal receipt).
func dispatched(r *campaign.Receipt) bool {
	return r != nil && r.Status != campaign.StatusNotDispatched
}

// utcOf parses an RFC 3339 UTC time of a receipt; ok is false when it is
// null or not a valid time.
func utcOf(s *string) (time.Time, bool) {
	if s == nil {
		return time.Time{}, false
	}
	t, err := time.Parse(time.RFC3339Nano, *s)
	if err != nil || !strings.HasSuffix(*s, "Z") {
		return time.Time{}, false
	}
	return t, true
}

// interval is one dispatched session's UTC start and end.
type interval struct {
	run, role  int
	session    string
	start, end time.Time
	hasEnd     bool
}

// ReceiptIssues checks every receipt against what it describes and
// returns one finding per broken rule, each naming the receipt file, the
// JSON pointer and the rule (CONTRACT §2, §5; EVALUATOR-CONTROLS C15, C17;
// CLI-HANDOFF 2), in manifest run order:
//
//   - required records by status (RequiredRecords): receipt-record-missing,
//     receipt-record-unexpected; an end before its start (UTC or
//     monotonic): receipt-end-before-start; UTC and monotonic durations
//     that differ by more than ClockTolerance: receipt-clocks-disagree;
//   - delivered input: input_sha256 and input_bytes equal the SHA-256 and
//     length of the exact prompt bytes campaign.RenderPrompt (the bytes
//     `verdict prompts` prints) renders for the session's role from the
//     campaign's prompt texts, task, packet and, for a review, the raw
//     output of its run's shared draft: delivered-input-mismatch;
//   - output: output_sha256 and output_bytes equal the response file's
//     SHA-256 and length, and a receipt names no output the campaign does
//     not hold: output-mismatch;
//   - metering: a dispatched session's meter is present and consistent
//     (DeriveTokens): meter-incomplete;
//   - order in time, from the UTC times: a review starts when its draft
//     has ended or later (review-before-draft-ended); no two sessions of
//     the campaign overlap (sessions-overlap, naming the later-starting
//     session; a review overlapping its own draft is reported as
//     review-before-draft-ended only); the arm the run declares first
//     starts first (arm-order-violated);
//   - host: each dispatched receipt's host equals execution.host (host-mismatch);
//   - one log, one session: no two dispatched receipts record one
//     response_id (response-id-reused, naming the later one).
//
// A review that started while its shared draft is planned (Planned) is
// review-before-draft-ended; an arm that started while the arm declared
// first is planned is arm-order-violated. Sessions without a receipt are
// left to ExecutionValidity (planned, or C15).
func ReceiptIssues(c *campaign.Campaign) []ValidityFinding {
	return receiptIssues(c, sessionsByRun(c))
}

func receiptIssues(c *campaign.Campaign, byRun map[int][3]*campaign.Session) []ValidityFinding {
	m := &c.Manifest
	tasks := map[string]*campaign.Task{}
	for _, t := range c.Tasks {
		tasks[t.Entry.ID] = t
	}
	var out []ValidityFinding
	addWith := func(with string, run campaign.Run, s *campaign.Session, r verr.Reason, pointer, rule, format string, a ...any) {
		out = append(out, ValidityFinding{Reason: r, Session: s.ID, Task: run.Task, Repetition: run.Repetition,
			File: campaign.ReceiptPath(s.ID), Pointer: pointer, Rule: rule, Detail: fmt.Sprintf(format, a...), With: with})
	}
	add := func(run campaign.Run, s *campaign.Session, r verr.Reason, pointer, rule, format string, a ...any) {
		addWith("", run, s, r, pointer, rule, format, a...)
	}
	responseIDs := map[string]string{} // response_id → the first session recording it
	var spans []interval
	render := campaign.NewPromptRenderer(c.Prompts)
	drafts := map[string]promptIdentity{} // the draft prompt of a task: one per task
	var rawBuf []byte                     // each run's shared draft is read into it
	for i, run := range m.Runs {
		trio := byRun[i]
		var draftRaw []byte
		var draftRawErr error
		if d := trio[0]; d != nil {
			draftRaw, draftRawErr = c.RawResponseInto(d, rawBuf)
			if d.Raw == nil && cap(draftRaw) > cap(rawBuf) { // read, not the session's own bytes
				rawBuf = draftRaw[:0]
			}
		}
		var starts [3]time.Time
		var started [3]bool
		var draftEnd time.Time
		var draftEnded bool
		for j, s := range trio {
			if s == nil || s.Receipt == nil {
				continue
			}
			r := s.Receipt
			// Required records by status.
			present, partial := receiptRecords(r)
			req := RequiredRecords(r.Status)
			outFile := outputOf(s)
			for _, name := range recordNames {
				switch {
				case req[name] == MustBeNull && (present[name] || partial[name]):
					add(run, s, ReasonReceiptRecordUnexpected, recordPointer(name), RuleRequiredRecords,
						"a %s receipt records %s, which only a dispatched session has", statusName(r.Status), name)
				case name == RecordMeter:
					// Metering has its own rule below.
				case req[name] == Required && !present[name],
					partial[name],
					name == RecordOutput && outFile.present && !present[name] && req[name] != MustBeNull:
					add(run, s, ReasonReceiptRecordMissing, recordPointer(name), RuleRequiredRecords,
						"session %s (%s, status %s) has no complete %s record", s.ID, s.Role, statusName(r.Status), name)
				}
			}
			if !dispatched(r) {
				continue
			}
			// Times: valid UTC, end not before start.
			st, okS := utcOf(r.StartedUTC)
			en, okE := utcOf(r.EndedUTC)
			if r.StartedUTC != nil && !okS {
				add(run, s, ReasonReceiptRecordMissing, "/started_utc", RuleRequiredRecords, "started_utc %q is not an RFC 3339 UTC time", *r.StartedUTC)
			}
			if r.EndedUTC != nil && !okE {
				add(run, s, ReasonReceiptRecordMissing, "/ended_utc", RuleRequiredRecords, "ended_utc %q is not an RFC 3339 UTC time", *r.EndedUTC)
			}
			switch {
			case okS && okE && en.Before(st):
				add(run, s, ReasonReceiptEndBeforeStart, "/ended_utc", RuleRequiredRecords, "ended_utc %s is before started_utc %s", *r.EndedUTC, *r.StartedUTC)
			case r.StartMonotonicNS != nil && r.EndMonotonicNS != nil && *r.EndMonotonicNS < *r.StartMonotonicNS:
				add(run, s, ReasonReceiptEndBeforeStart, "/end_monotonic_ns", RuleRequiredRecords, "end_monotonic_ns %d is before start_monotonic_ns %d", *r.EndMonotonicNS, *r.StartMonotonicNS)
			}
			if d, ok := clockDisagreement(r, st, en, okS, okE); ok {
				add(run, s, ReasonReceiptClocksDisagree, "/ended_utc", RuleRequiredRecords,
					"the UTC times span %s but the monotonic readings %s: they differ by %s, more than the %s tolerance (a clock jump)",
					en.Sub(st), time.Duration(*r.EndMonotonicNS-*r.StartMonotonicNS), d, ClockTolerance)
			}
			if okS {
				starts[j], started[j] = st, true
				spans = append(spans, interval{run: i, role: j, session: s.ID, start: st, end: en, hasEnd: okE && !en.Before(st)})
			}
			if j == 0 && okE && r.Status != "" {
				draftEnd, draftEnded = en, true
			}
			// Delivered input.
			if r.InputSHA256 != nil && r.InputBytes != nil {
				var p promptIdentity
				if s.Role == campaign.RoleDraft {
					var ok bool
					if p, ok = drafts[run.Task]; !ok {
						p = renderedInput(render, tasks[run.Task], s.Role, nil, nil)
						drafts[run.Task] = p
					}
				} else {
					p = renderedInput(render, tasks[run.Task], s.Role, draftRaw, draftRawErr)
				}
				want, size, why := p.sha, p.size, p.why
				// A review's prompt quotes its draft's output: the finding
				// compares the review with its draft.
				with := ""
				if s.Role != campaign.RoleDraft {
					with = run.Sessions.Draft
				}
				switch {
				case why != "":
					addWith(with, run, s, ReasonDeliveredInputMismatch, "/input_sha256", RuleDeliveredInputs, "the receipt records input %s (%d bytes), but no prompt can be rendered for it: %s", *r.InputSHA256, *r.InputBytes, why)
				case *r.InputSHA256 != want || *r.InputBytes != size:
					addWith(with, run, s, ReasonDeliveredInputMismatch, "/input_sha256", RuleDeliveredInputs,
						"the receipt records input %s (%d bytes); the %s prompt `verdict prompts` renders is %s (%d bytes)", *r.InputSHA256, *r.InputBytes, s.Role, want, size)
				}
			}
			// Output.
			if r.OutputSHA256 != nil && r.OutputBytes != nil {
				switch {
				case !outFile.present:
					add(run, s, ReasonOutputMismatch, "/output_sha256", RuleDeliveredInputs, "the receipt records output %s (%d bytes), but the campaign holds no response file %s", *r.OutputSHA256, *r.OutputBytes, campaign.ResponsePath(s.ID))
				case *r.OutputSHA256 != outFile.sha || *r.OutputBytes != outFile.size:
					add(run, s, ReasonOutputMismatch, "/output_sha256", RuleDeliveredInputs, "the receipt records output %s (%d bytes); %s is %s (%d bytes)", *r.OutputSHA256, *r.OutputBytes, campaign.ResponsePath(s.ID), outFile.sha, outFile.size)
				}
			}
			// Metering.
			if r.Status != "" {
				if _, err := DeriveTokens(r.Meter); err != nil {
					ce := err.(*verr.Error)
					add(run, s, ReasonMeterIncomplete, "/meter", RuleMetering, "%s: %s; the cost stays unknown, never zero", ce.Reason, ce.Detail)
				}
				if len(r.PricedModifiers) > 0 {
					add(run, s, ReasonUnsupportedModifier, "/priced_modifiers", RuleMetering, "the run's log reports %s, which the contract excludes from Codex accounting; the session is never priced", strings.Join(r.PricedModifiers, ", "))
				}
			}
			// Host.
			if h := m.Execution.Host; h != nil && r.Host != nil && *r.Host != *h {
				add(run, s, ReasonHostMismatch, "/host", RuleSerialHost, "session ran on host %q; the manifest records %q", *r.Host, *h)
			}
			// One log, one session.
			if r.ResponseID != "" {
				if first, ok := responseIDs[r.ResponseID]; ok {
					addWith(first, run, s, ReasonResponseIDReused, "/response_id", RuleRequiredRecords,
						"response ID %q is also the response ID of session %s: one run's log was imported for two sessions", r.ResponseID, first)
				} else {
					responseIDs[r.ResponseID] = s.ID
				}
			}
		}
		// A review starts after its draft ended.
		for j := 1; j < 3; j++ {
			if s := trio[j]; started[j] && draftEnded && starts[j].Before(draftEnd) {
				addWith(trio[0].ID, run, s, ReasonReviewBeforeDraftEnded, "/started_utc", RuleSerialHost, "review %s started at %s, before its shared draft %s ended at %s",
					s.ID, *s.Receipt.StartedUTC, trio[0].ID, *trio[0].Receipt.EndedUTC)
			}
		}
		// A review may not start while its shared draft is planned, not started.
		if Planned(trio[0]) {
			for j := 1; j < 3; j++ {
				if s := trio[j]; started[j] {
					addWith(run.Sessions.Draft, run, s, ReasonReviewBeforeDraftEnded, "/started_utc", RuleSerialHost, "review %s started at %s, but its shared draft %s has not started (planned: no receipt, no response)",
						s.ID, *s.Receipt.StartedUTC, run.Sessions.Draft)
				}
			}
		}
		// The declared first arm starts first.
		first, second := 1, 2
		if run.Order == campaign.OrderBFirst {
			first, second = 2, 1
		}
		if started[second] && Planned(trio[first]) {
			s := trio[second]
			firstID := [3]string{run.Sessions.Draft, run.Sessions.ReviewA, run.Sessions.ReviewB}[first]
			addWith(firstID, run, s, ReasonArmOrderViolated, "/started_utc", RuleSerialHost, "run order is %s but %s (%s) started at %s while %s, the arm declared first, has not started (planned)",
				run.Order, s.ID, s.Role, *s.Receipt.StartedUTC, firstID)
		}
		if started[first] && started[second] && !starts[first].Before(starts[second]) {
			s := trio[second]
			addWith(trio[first].ID, run, s, ReasonArmOrderViolated, "/started_utc", RuleSerialHost, "run order is %s but %s (%s) started at %s, not after %s (%s) started at %s",
				run.Order, s.ID, s.Role, *s.Receipt.StartedUTC, trio[first].ID, trio[first].Role, *trio[first].Receipt.StartedUTC)
		}
	}
	// No two sessions overlap: sweep by start time (manifest order breaks
	// ties); the later-starting session of an overlap is named.
	slices.SortStableFunc(spans, func(a, b interval) int { return a.start.Compare(b.start) })
	var last *interval
	for k := range spans {
		sp := &spans[k]
		if last != nil && sp.start.Before(last.end) && !(sp.run == last.run && (last.role == 0 || sp.role == 0)) {
			run := m.Runs[sp.run]
			s := byRun[sp.run][sp.role]
			addWith(last.session, run, s, ReasonSessionsOverlap, "/started_utc", RuleSerialHost, "session %s started at %s, before session %s ended at %s",
				sp.session, sp.start.Format(time.RFC3339Nano), last.session, last.end.Format(time.RFC3339Nano))
		}
		if sp.hasEnd && (last == nil || sp.end.After(last.end)) {
			last = sp
		}
	}
	return out
}

// clockDisagreement returns how far a receipt's UTC duration and its
// monotonic duration differ, and whether that is more than ClockTolerance.
// It decides nothing (ok false) when a time is missing or invalid, or an
// end is before its start: those records have their own rules.
func clockDisagreement(r *campaign.Receipt, st, en time.Time, okS, okE bool) (time.Duration, bool) {
	if !okS || !okE || r.StartMonotonicNS == nil || r.EndMonotonicNS == nil || en.Before(st) || *r.EndMonotonicNS < *r.StartMonotonicNS {
		return 0, false
	}
	d := en.Sub(st) - time.Duration(*r.EndMonotonicNS-*r.StartMonotonicNS)
	if d < 0 {
		d = -d
	}
	return d, d > ClockTolerance
}

// statusName renders a receipt status; "" is a start without a terminal receipt.
func statusName(s campaign.ReceiptStatus) string {
	if s == "" {
		return `"" (no terminal receipt)`
	}
	return string(s)
}

// outputFile is the identity of a session's response file.
type outputFile struct {
	present bool
	sha     string
	size    int64
}

// outputOf returns the SHA-256 and length of a session's response file.
func outputOf(s *campaign.Session) outputFile {
	switch {
	case s.RawSHA256 != "":
		return outputFile{true, s.RawSHA256, int64(s.RawSize)}
	case s.Raw != nil:
		return outputFile{true, hexSHA256(s.Raw), int64(len(s.Raw))}
	}
	return outputFile{}
}

// promptIdentity is the SHA-256 and length of a rendered prompt, or why
// none can be rendered.
type promptIdentity struct {
	sha  string
	size int64
	why  string
}

// renderedInput returns the identity of the exact prompt bytes of role
// (campaign.RenderPrompt, through render).
func renderedInput(render *campaign.PromptRenderer, t *campaign.Task, role campaign.Role, draftRaw []byte, draftErr error) promptIdentity {
	if t == nil {
		return promptIdentity{why: "the run's task is not loaded"}
	}
	if role != campaign.RoleDraft && draftErr != nil {
		return promptIdentity{why: draftErr.Error()}
	}
	sha, size, err := render.Identity(role, t, draftRaw)
	if err != nil {
		return promptIdentity{why: err.Error()}
	}
	return promptIdentity{sha: sha, size: size}
}
