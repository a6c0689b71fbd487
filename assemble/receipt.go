package assemble

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	jsonv2 "github.com/go-json-experiment/json"

	"verdict/blinding"
	"verdict/campaign"
	"verdict/internal/fsutil"
	"verdict/verr"
)

// Refusals of importing a receipt.
const (
	// ReasonSessionUnknown: the manifest lists no run with that session.
	ReasonSessionUnknown verr.Reason = "session-unknown"
	// ReasonTimingMalformed: the runner's timing file is not valid.
	ReasonTimingMalformed verr.Reason = "timing-malformed"
	// ReasonLogInconsistent: the log contradicts itself (total tokens not
	// input plus output, cached above input, reasoning above output).
	ReasonLogInconsistent verr.Reason = "log-inconsistent"
	// ReasonCampaignUnloadable: the delivered input must be computed from
	// the campaign, and the campaign does not load.
	ReasonCampaignUnloadable verr.Reason = "campaign-unloadable"
	// ReasonDraftNotImported: a review's prompt quotes its shared draft,
	// whose response is not imported yet.
	ReasonDraftNotImported verr.Reason = "draft-not-imported"
	// ReasonLogIdentityMismatch: the log is not the session's own: its
	// response ID or model is not the one the timing file records, or the
	// provider created it outside the session's recorded start and end
	// (LogClockTolerance).
	ReasonLogIdentityMismatch verr.Reason = "log-identity-mismatch"
)

// LogClockTolerance is how far, inclusive, a log's creation time (the
// provider's clock, whole seconds) may lie outside the session's recorded
// start and end (the recording host's clock) and still be the session's
// own: 30 seconds, room for the truncation to seconds and for two clocks
// kept by NTP, far less than the gap between two sessions of one host
// that run serially for minutes each.
const LogClockTolerance = 30 * time.Second

const ruleTiming = "CONTRACT §5 Required records: UTC and monotonic request start/end, request IDs, input hashes and byte counts"

// Timing is the small file a runner writes beside each session's log,
// since no log format records monotonic time: every member but
// ValidationNS and AssemblyNS may be null or absent (unknown), and an
// unknown value stays null in the receipt.
type Timing struct {
	// SessionID, when given, must be the imported session.
	SessionID *string `json:"session_id"`
	// RequestID is the provider's request ID (for example the
	// x-request-id response header).
	RequestID *string `json:"request_id"`
	// StartedUTC and EndedUTC are RFC 3339 UTC times of the request.
	StartedUTC *string `json:"started_utc"`
	EndedUTC   *string `json:"ended_utc"`
	// StartMonotonicNS and EndMonotonicNS are monotonic clock readings in
	// nanoseconds from one origin of the recording host.
	StartMonotonicNS *int64 `json:"start_monotonic_ns"`
	EndMonotonicNS   *int64 `json:"end_monotonic_ns"`
	// InputSHA256 and InputBytes identify the exact prompt bytes sent.
	// Optional: when absent, Import computes them from the prompt
	// `verdict prompts` renders for the session's role; when given, they
	// are the runner's record of what it sent and admission compares them
	// with that prompt (delivered-input-mismatch).
	InputSHA256 *string `json:"input_sha256"`
	InputBytes  *int64  `json:"input_bytes"`
	// Host is the recorded host/OS/CPU/RAM.
	Host *string `json:"host"`
	// PermissionPolicy is the session's recorded permission policy.
	PermissionPolicy *string `json:"permission_policy"`
	// Model is the model identifier the provider returned, as the runner
	// recorded it (a log that reports the model must agree).
	Model *string `json:"model"`
	// ResponseID is the response ID (or codex thread ID) the runner
	// recorded for the session; when given, the log's own ID must be it
	// (ReasonLogIdentityMismatch).
	ResponseID *string `json:"response_id"`
	// TaskSHA256 and PacketSHA256 are the digests of the task text and
	// packet bytes the runner delivered. Optional: when absent, Import
	// computes them from the campaign's task.md and packet.json.
	TaskSHA256   *string `json:"task_sha256"`
	PacketSHA256 *string `json:"packet_sha256"`
	// ActualChargeMicroUSD is the session's attributable actual charge in
	// micro-USD (10^-6 USD) when the provider billed it; optional (null or
	// absent: unknown, held at the reference price against the ceiling,
	// never counted as 0).
	ActualChargeMicroUSD *int64 `json:"actual_charge_micro_usd"`
	// ValidationNS and AssemblyNS are the runner's own validation and
	// prompt-assembly durations. Unlike every other member they are
	// required: the receipt format has no unknown for them.
	ValidationNS *int64 `json:"validation_ns"`
	AssemblyNS   *int64 `json:"assembly_ns"`
}

// ParseTiming strictly decodes a timing file: one JSON object with only
// Timing's members (unknown members and duplicate names are refused).
func ParseTiming(data []byte, file string) (*Timing, error) {
	var t Timing
	if err := jsonv2.Unmarshal(data, &t, jsonv2.RejectUnknownMembers(true)); err != nil {
		return nil, &verr.Error{Reason: ReasonTimingMalformed, File: file, Rule: ruleTiming, Detail: err.Error(), Err: err}
	}
	return &t, nil
}

// ImportRequest is one session to import.
type ImportRequest struct {
	// Session is the session ID ("S4").
	Session string
	// Log is the run log; LogFormat its format (LogCodexExec or
	// LogResponsesAPI); LogFile its name for refusals.
	Log       []byte
	LogFormat string
	LogFile   string
	// Timing is the runner's timing file; TimingFile its name.
	Timing     []byte
	TimingFile string
	// ErrorKind is the coordinator's classification of a failed session
	// (never inferred from the log); "" leaves it null.
	ErrorKind campaign.ErrorKind
	// Prior are sessions imported earlier in the same batch and not
	// written yet: the campaign is read as if they were (AfterImport), so
	// a review's prompt quotes the draft imported before it.
	Prior []*Imported
}

// Imported is the result of Import: the two files and what stayed
// unknown.
type Imported struct {
	Receipt      campaign.Receipt
	ReceiptBytes []byte
	// Response is the exact final message (nil when the log holds none,
	// then no response file is written).
	Response []byte
	// Unknown lists, one sentence each, every receipt value the log and
	// the timing file did not give (left null).
	Unknown []string
	// Notes are further facts (modifiers found, an incomplete response).
	Notes []string
	// Files are what WriteImport wrote.
	Files []Written
}

// Import builds responses/S.json and receipts/S.json for one session of
// the campaign in dir from its run log and the runner's timing file. Role,
// task and repetition come from the manifest's run that lists the session
// (ReasonSessionUnknown otherwise), the price card ID from the manifest's
// execution.price_card. The status is the log's: a completed turn is a
// response, a failed one an error (its error_kind stays null unless the
// coordinator gives one; the importer never labels an error itself, least
// of all as infrastructure), a log with neither has no terminal receipt.
// The meter is recorded only when the log gives all four counts
// (input including cached, cached, output including reasoning,
// reasoning); otherwise it is null and admission refuses it
// (meter-incomplete). Priced modifiers the log reports are recorded in
// priced_modifiers and never priced (unsupported-modifier at admission).
// The receipt is decoded again with the strict receipt decoder.
func Import(dir string, req ImportRequest) (*Imported, error) {
	m, err := importManifest(dir)
	if err != nil {
		return nil, err
	}
	var run *campaign.Run
	var role campaign.Role
	for i := range m.Runs {
		s := m.Runs[i].Sessions
		for _, x := range []struct {
			id   string
			role campaign.Role
		}{{s.Draft, campaign.RoleDraft}, {s.ReviewA, campaign.RoleReviewA}, {s.ReviewB, campaign.RoleReviewB}} {
			if x.id == req.Session {
				run, role = &m.Runs[i], x.role
			}
		}
	}
	if run == nil {
		return nil, verr.Newf(ReasonSessionUnknown, campaign.ManifestFile, "/runs", campaign.RuleManifest, "no run lists session %s; write the run into the manifest first", req.Session)
	}
	log, err := ParseRunLog(req.LogFormat, req.Log, req.LogFile)
	if err != nil {
		return nil, err
	}
	tm, err := ParseTiming(req.Timing, req.TimingFile)
	if err != nil {
		return nil, err
	}
	if tm.SessionID != nil && *tm.SessionID != req.Session {
		return nil, verr.Newf(ReasonTimingMalformed, req.TimingFile, "/session_id", ruleTiming, "the timing file is for session %s, not %s", *tm.SessionID, req.Session)
	}
	if err := checkLogCounts(log, req.LogFile); err != nil {
		return nil, err
	}
	out := &Imported{Notes: append([]string(nil), log.Notes...)}
	if err := computeInputs(dir, req, run, role, tm, out); err != nil {
		return nil, err
	}
	unknown := func(format string, a ...any) { out.Unknown = append(out.Unknown, fmt.Sprintf(format, a...)) }
	r := campaign.Receipt{
		SessionID: req.Session, Role: role, Task: run.Task, Repetition: run.Repetition,
		Status: log.Terminal, StartedUTC: tm.StartedUTC, EndedUTC: tm.EndedUTC,
		StartMonotonicNS: tm.StartMonotonicNS, EndMonotonicNS: tm.EndMonotonicNS,
		InputSHA256: tm.InputSHA256, InputBytes: tm.InputBytes, Model: log.Model,
		PermissionPolicy: tm.PermissionPolicy, Host: tm.Host, TaskSHA256: tm.TaskSHA256, PacketSHA256: tm.PacketSHA256,
		OrdinaryCalls: log.OrdinaryCalls, MCPCalls: log.MCPCalls, PricedModifiers: log.Modifiers, ResponseID: log.ResponseID,
	}
	if err := checkLogIdentity(log, tm, req); err != nil {
		return nil, err
	}
	if log.ResponseID == "" {
		unknown("response_id: the %s log carries no response or thread ID (omitted)", log.Format)
	}
	if tm.RequestID != nil {
		r.RequestID = *tm.RequestID
	} else {
		unknown("request_id: not in the timing file (left empty)")
	}
	for _, f := range []struct {
		name string
		null bool
	}{{"started_utc", tm.StartedUTC == nil}, {"ended_utc", tm.EndedUTC == nil}, {"start_monotonic_ns", tm.StartMonotonicNS == nil},
		{"end_monotonic_ns", tm.EndMonotonicNS == nil}, {"input_sha256", tm.InputSHA256 == nil}, {"input_bytes", tm.InputBytes == nil},
		{"host", tm.Host == nil}, {"permission_policy", tm.PermissionPolicy == nil},
		{"task_sha256", tm.TaskSHA256 == nil}, {"packet_sha256", tm.PacketSHA256 == nil}} {
		if f.null {
			unknown("%s: not in the timing file", f.name)
		}
	}
	// The receipt format has no unknown for these two durations, and 0
	// would be an invented value: the timing file must give them.
	for _, f := range []struct {
		name string
		v    *int64
		dst  *int64
	}{{"validation_ns", tm.ValidationNS, &r.ValidationNS}, {"assembly_ns", tm.AssemblyNS, &r.AssemblyNS}} {
		if f.v == nil || *f.v < 0 {
			return nil, verr.Newf(ReasonTimingMalformed, req.TimingFile, "/"+f.name, ruleTiming, "%s is required: the receipt records it as a count, and verdict never writes 0 for a value it does not know", f.name)
		}
		*f.dst = *f.v
	}
	switch {
	case log.Model == nil && tm.Model != nil:
		r.Model = tm.Model
	case log.Model == nil:
		unknown("model: neither the %s log nor the timing file reports it", log.Format)
	}
	switch log.Terminal {
	case campaign.StatusError:
		out.Notes = append(out.Notes, "the log reports a failed turn: "+log.ErrorMessage)
		if log.ErrorKind != "" {
			// The log states the kind (a refusal, an incomplete response):
			// a coordinator's other kind contradicts it.
			if req.ErrorKind != "" && req.ErrorKind != log.ErrorKind {
				return nil, &verr.Error{Reason: ReasonLogInconsistent, File: req.LogFile, Rule: ruleLog,
					Detail: fmt.Sprintf("the error kind given (%s) is not the one the log states (%s: %s)", req.ErrorKind, log.ErrorKind, log.ErrorMessage)}
			}
			k := log.ErrorKind
			r.ErrorKind = &k
			out.Notes = append(out.Notes, fmt.Sprintf("error_kind %s: stated by the log (a valid scored failure, C16; its output is kept)", k))
		} else if req.ErrorKind != "" {
			k := req.ErrorKind
			r.ErrorKind = &k
		} else {
			unknown("error_kind: the log does not classify the error and the importer never does (give --error-kind)")
		}
	case "":
		unknown("status: the log ends without a completed or failed turn (no terminal receipt, C15)")
	}
	if log.Terminal != campaign.StatusError && req.ErrorKind != "" {
		return nil, &verr.Error{Reason: ReasonLogInconsistent, File: req.LogFile, Rule: ruleLog,
			Detail: fmt.Sprintf("an error kind (%s) was given but the log reports no failed turn", req.ErrorKind)}
	}
	// A refused or cut-short answer's output is kept as the raw output of
	// a valid scored failure (CONTRACT §5: retain its raw output and cost).
	if log.Terminal == campaign.StatusResponse || (log.ErrorKind != "" && log.Final != nil) {
		out.Response = log.Final
		if out.Response == nil {
			out.Response = []byte{}
			out.Notes = append(out.Notes, "the log holds no final message: the response file is empty (a malformed answer is a valid scored failure, C16)")
		}
		sha, n := blinding.Digest(out.Response), int64(len(out.Response))
		r.OutputSHA256, r.OutputBytes = &sha, &n
	}
	if log.InputTokens != nil && log.CachedInputTokens != nil && log.OutputTokens != nil && log.ReasoningTokens != nil {
		r.Meter = &campaign.Meter{InputTokens: *log.InputTokens, CachedInputTokens: *log.CachedInputTokens,
			OutputTokens: *log.OutputTokens, ReasoningTokens: *log.ReasoningTokens, InputIncludesCached: true, OutputIncludesReasoning: true}
	} else {
		var missing []string
		for _, c := range []struct {
			name string
			v    *int64
		}{{"input", log.InputTokens}, {"cached input", log.CachedInputTokens}, {"output", log.OutputTokens}, {"reasoning", log.ReasoningTokens}} {
			if c.v == nil {
				missing = append(missing, c.name)
			}
		}
		unknown("meter: the log does not report %s tokens (the meter is left null: incomplete metering fails admission)", joinAnd(missing))
	}
	if m.Execution.PriceCard != nil {
		id := m.Execution.PriceCard.ID
		r.PriceCardID = &id
	} else {
		unknown("price_card_id: the manifest has no price card")
	}
	if tm.ActualChargeMicroUSD != nil {
		if *tm.ActualChargeMicroUSD < 0 {
			return nil, verr.Newf(ReasonTimingMalformed, req.TimingFile, "/actual_charge_micro_usd", ruleTiming, "actual_charge_micro_usd %d is negative", *tm.ActualChargeMicroUSD)
		}
		r.ActualChargeMicroUSD = tm.ActualChargeMicroUSD
	} else {
		unknown("actual_charge_micro_usd: not in the timing file (the provider's bill, when there is one)")
	}
	if r.MCPCalls == 0 {
		zero := int64(0)
		r.MCPCostMicroUSD = &zero
	} else {
		unknown("mcp_cost_micro_usd: %d MCP call(s) and no metered MCP charge in the log", r.MCPCalls)
	}
	for _, mod := range log.Modifiers {
		out.Notes = append(out.Notes, "priced modifier "+mod+": recorded in priced_modifiers, never priced (unsupported-modifier at admission)")
	}
	file := campaign.ReceiptPath(req.Session)
	if out.ReceiptBytes, err = blinding.MarshalCanonical(r); err != nil {
		return nil, err
	}
	if _, err := campaign.DecodeReceipt(out.ReceiptBytes, file); err != nil {
		return nil, err
	}
	out.Receipt = r
	return out, nil
}

// WriteImport writes the imported response (when there is one) and
// receipt into the campaign dir, both or neither: under the import
// journal, as a batch is (writeJournaled), so a writer killed between the
// two files leaves a journal the next campaign writer undoes. The
// manifest is not bound (`verdict manifest` binds). The caller holds the
// campaign's write lock (lock, from LockCampaign) from before Import read
// the campaign; leftovers beside a destination are removed as
// CommitImports removes them. A file already there with other bytes is refused
// (ReasonFileDiffers) and nothing is written.
func WriteImport(lock *fsutil.Output, dir string, im *Imported) error {
	files, err := importFiles(dir, im)
	if err != nil {
		return err
	}
	w, err := compareExisting(dir, files, ruleResults)
	if err != nil {
		return err
	}
	if err := writeJournaled(lock, dir, files, w, nil); err != nil {
		return err
	}
	im.Files = w
	return nil
}

// importFiles are the files WriteImport writes for im, or
// ReasonFileDiffers when the log holds no response but dir has one.
func importFiles(dir string, im *Imported) ([]fileBytes, error) {
	var files []fileBytes
	if im.Response != nil {
		files = append(files, fileBytes{campaign.ResponsePath(im.Receipt.SessionID), im.Response})
	} else if _, err := readRegular(filepath.Join(dir, filepath.FromSlash(campaign.ResponsePath(im.Receipt.SessionID)))); !errors.Is(err, fs.ErrNotExist) {
		return nil, &verr.Error{Reason: ReasonFileDiffers, File: campaign.ResponsePath(im.Receipt.SessionID), Rule: ruleResults,
			Detail: "a response file exists but the log holds no response"}
	}
	return append(files, fileBytes{campaign.ReceiptPath(im.Receipt.SessionID), im.ReceiptBytes}), nil
}

// checkLogIdentity refuses a log that is not the session's own
// (ReasonLogIdentityMismatch): its response ID or model differs from the
// one the timing file records, or it was created more than
// LogClockTolerance outside the timing file's started_utc and ended_utc.
// A value either file leaves out is not compared; the model is compared
// with the manifest at admission (wrong-model), and a response ID with
// every other receipt's (response-id-reused).
func checkLogIdentity(l *RunLog, tm *Timing, req ImportRequest) error {
	bad := func(pointer, format string, a ...any) error {
		return verr.Newf(ReasonLogIdentityMismatch, req.LogFile, pointer, ruleTiming,
			"the log is not session %s's: "+format, append([]any{req.Session}, a...)...)
	}
	if tm.ResponseID != nil && *tm.ResponseID != l.ResponseID {
		return bad("/id", "its response ID is %q, the timing file records %q", l.ResponseID, *tm.ResponseID)
	}
	if l.Model != nil && tm.Model != nil && *l.Model != *tm.Model {
		return bad("/model", "it reports model %q, the timing file records %q", *l.Model, *tm.Model)
	}
	if l.CreatedAt == nil {
		return nil
	}
	created := time.Unix(*l.CreatedAt, 0).UTC()
	for _, b := range []struct {
		name  string
		v     *string
		after bool
	}{{"started_utc", tm.StartedUTC, false}, {"ended_utc", tm.EndedUTC, true}} {
		if b.v == nil {
			continue
		}
		t, err := time.Parse(time.RFC3339Nano, *b.v)
		if err != nil {
			continue // admission refuses the time itself (receipt-record-missing)
		}
		if (!b.after && created.Before(t.Truncate(time.Second).Add(-LogClockTolerance))) || (b.after && created.After(t.Add(LogClockTolerance))) {
			return bad("/created_at", "it was created at %s, more than %s outside the session's %s %s",
				created.Format(time.RFC3339), LogClockTolerance, b.name, *b.v)
		}
	}
	return nil
}

// checkLogCounts refuses a log whose counts contradict one another.
func checkLogCounts(l *RunLog, file string) error {
	bad := func(format string, a ...any) error {
		return verr.Newf(ReasonLogInconsistent, file, "/usage", ruleLog, format, a...)
	}
	if l.InputTokens != nil && l.CachedInputTokens != nil && *l.CachedInputTokens > *l.InputTokens {
		return bad("cached input %d exceeds input %d, which includes it", *l.CachedInputTokens, *l.InputTokens)
	}
	if l.OutputTokens != nil && l.ReasoningTokens != nil && *l.ReasoningTokens > *l.OutputTokens {
		return bad("reasoning %d exceeds output %d, which includes it", *l.ReasoningTokens, *l.OutputTokens)
	}
	if l.TotalTokens != nil && l.InputTokens != nil && l.OutputTokens != nil && *l.TotalTokens != *l.InputTokens+*l.OutputTokens {
		return bad("total %d is not input %d plus output %d", *l.TotalTokens, *l.InputTokens, *l.OutputTokens)
	}
	return nil
}

// joinAnd joins words as "a, b and c".
func joinAnd(w []string) string {
	switch len(w) {
	case 0:
		return ""
	case 1:
		return w[0]
	}
	s := w[0]
	for _, x := range w[1 : len(w)-1] {
		s += ", " + x
	}
	return s + " and " + w[len(w)-1]
}

// computeInputs fills, for each of input_sha256 with input_bytes,
// task_sha256 and packet_sha256 that the timing file tm leaves out, the
// value the campaign gives: the SHA-256 and size of the prompt `verdict
// prompts` renders for the session's role (a review's quotes its run's
// shared draft, imported before it), the SHA-256 of the task's task.md
// and of its packet.json. A value the timing file gives is kept as the
// runner's record (admission compares it). Each computed value is noted.
// The campaign must load (campaign.Load of dir as it reads with
// req.Prior imported and every file bound); a campaign that does not is
// refused with the loader's reasons, and a review whose draft is not
// imported yet is ReasonDraftNotImported.
func computeInputs(dir string, req ImportRequest, run *campaign.Run, role campaign.Role, tm *Timing, out *Imported) error {
	if tm.InputSHA256 != nil && tm.InputBytes != nil && tm.TaskSHA256 != nil && tm.PacketSHA256 != nil {
		return nil
	}
	if (tm.InputSHA256 == nil) != (tm.InputBytes == nil) {
		return verr.Newf(ReasonTimingMalformed, req.TimingFile, "/input_sha256", ruleTiming, "input_sha256 and input_bytes are given together or not at all")
	}
	fsys, err := AfterImport(dir, req.Prior...)
	if err != nil {
		return err
	}
	c, err := campaign.Load(fsys)
	if err != nil {
		return &verr.Error{Reason: ReasonCampaignUnloadable, File: campaign.ManifestFile, Rule: ruleTiming,
			Detail: "the campaign does not load, so the delivered input cannot be computed (give input_sha256, input_bytes, task_sha256 and packet_sha256 in the timing file, or correct the campaign; verdict check lists why): " + err.Error(), Err: err}
	}
	var task *campaign.Task
	for _, t := range c.Tasks {
		if t.Entry.ID == run.Task {
			task = t
		}
	}
	if task == nil {
		return verr.Newf(ReasonSessionUnknown, campaign.ManifestFile, "/tasks", campaign.RuleManifest, "task %s of session %s is not in the campaign", run.Task, req.Session)
	}
	note := func(name, v string) {
		out.Notes = append(out.Notes, fmt.Sprintf("%s computed: %s", name, v))
	}
	if tm.TaskSHA256 == nil {
		d := blinding.Digest(task.Text)
		tm.TaskSHA256 = &d
		note("task_sha256", "SHA-256 of "+campaign.TaskTextPath(run.Task)+" "+d)
	}
	if tm.PacketSHA256 == nil {
		b, err := campaign.ReadRegularFS(fsys, campaign.PacketPath(run.Task), campaign.FileKindOf(campaign.PacketPath(run.Task)))
		if err != nil {
			return err
		}
		d := blinding.Digest(b)
		tm.PacketSHA256 = &d
		note("packet_sha256", "SHA-256 of "+campaign.PacketPath(run.Task)+" "+d)
	}
	if tm.InputSHA256 == nil {
		var draft []byte
		if role != campaign.RoleDraft {
			for _, s := range c.Sessions {
				if s.ID == run.Sessions.Draft {
					if draft, err = c.RawResponse(s); err != nil {
						return err
					}
				}
			}
			if draft == nil {
				return verr.Newf(ReasonDraftNotImported, campaign.ResponsePath(run.Sessions.Draft), "", ruleTiming,
					"session %s is a review of shared draft %s, whose response is not in the campaign yet: import %s first (a review's prompt quotes the draft)", req.Session, run.Sessions.Draft, run.Sessions.Draft)
			}
		}
		p, err := campaign.RenderPrompt(role, c.Prompts, task, draft)
		if err != nil {
			return err
		}
		d, n := blinding.Digest(p), int64(len(p))
		tm.InputSHA256, tm.InputBytes = &d, &n
		note("input_sha256", fmt.Sprintf("the %s prompt verdict prompts renders, %s (%d bytes)", role, d, n))
	}
	return nil
}

// ReasonBatchFileUnknown: a file of a batch import's log directory is
// neither S<n>.json, S<n>.jsonl nor S<n>.timing.json, a session has a log
// and no timing file (or two logs), or names no session of the manifest.
const ReasonBatchFileUnknown verr.Reason = "batch-file-unknown"

// BatchSession is one session of a batch import: its log and timing
// file, and (an index file's fourth column only) the coordinator's
// classification of a failed turn, "" for none.
type BatchSession struct {
	Session   string
	Log       string
	Timing    string
	ErrorKind campaign.ErrorKind
}

// BatchSessions lists the sessions of the log directory logs (S<n>.json
// or S<n>.jsonl with S<n>.timing.json) in the dispatch order of the
// campaign dir's manifest: run by run, the shared draft, then the review
// dispatched first, then the other, so that each review follows its
// draft. A file of another name, a session with two logs or without a
// timing file, and a session no run lists are ReasonBatchFileUnknown.
func BatchSessions(dir, logs string) ([]BatchSession, error) {
	m, err := importManifest(dir)
	if err != nil {
		return nil, err
	}
	ents, err := os.ReadDir(logs)
	if err != nil {
		return nil, err
	}
	found := map[string]*BatchSession{}
	bad := func(name, format string, a ...any) error {
		return verr.Newf(ReasonBatchFileUnknown, filepath.Join(logs, name), "", ruleTiming, format, a...)
	}
	for _, e := range ents {
		id, ext, _ := strings.Cut(e.Name(), ".")
		if !campaign.ValidID('S', id) || (ext != "json" && ext != "jsonl" && ext != "timing.json") || !e.Type().IsRegular() {
			return nil, bad(e.Name(), "not a session's log (S<n>.json or S<n>.jsonl) or timing file (S<n>.timing.json); nothing is skipped in silence: move it out of the directory")
		}
		b := found[id]
		if b == nil {
			b = &BatchSession{Session: id}
			found[id] = b
		}
		p := filepath.Join(logs, e.Name())
		switch {
		case ext == "timing.json":
			b.Timing = p
		case b.Log != "":
			return nil, bad(e.Name(), "session %s has two logs (%s and %s)", id, filepath.Base(b.Log), e.Name())
		default:
			b.Log = p
		}
	}
	out, unlisted := dispatchOrder(m, found)
	if len(unlisted) > 0 {
		return nil, bad(unlisted[0]+".*", "no run of the manifest lists session %s", unlisted[0])
	}
	for _, b := range out {
		switch {
		case b.Log == "":
			return nil, bad(b.Session+".timing.json", "session %s has a timing file and no log (%s.json or %s.jsonl)", b.Session, b.Session, b.Session)
		case b.Timing == "":
			return nil, bad(filepath.Base(b.Log), "session %s has a log and no timing file (%s.timing.json)", b.Session, b.Session)
		}
	}
	return out, nil
}

// importManifest decodes the manifest of the campaign dir receipts are
// imported into (one session or a batch).
func importManifest(dir string) (*campaign.Manifest, error) {
	raw, err := readManifest(dir)
	if err != nil {
		return nil, err
	}
	return decodeImportManifest(raw)
}

// ReasonImportDesign: receipt import was given a campaign whose manifest
// names a design other than fixed-evidence. Import renders and checks the
// first experiment's draft and review sessions; a system comparison's
// investigator and review sessions (CONTRACT §6) are not imported by it.
const ReasonImportDesign verr.Reason = "import-design"

// decodeImportManifest decodes raw, a campaign's manifest.json, for
// import: a manifest naming another design than fixed-evidence is refused
// (ReasonImportDesign, at "/design") before its strict decoding, which
// would refuse its design member as an unknown key; an unknown design is
// campaign.ReasonDesign.
func decodeImportManifest(raw []byte) (*campaign.Manifest, error) {
	d, err := campaign.ManifestDesign(raw, campaign.ManifestFile)
	if err != nil {
		return nil, err
	}
	if d != campaign.DesignFixedEvidence {
		return nil, verr.Newf(ReasonImportDesign, campaign.ManifestFile, "/design", "CONTRACT §6",
			"the campaign is a %s; receipt import records the sessions of a %s campaign only", d, campaign.DesignFixedEvidence)
	}
	return campaign.DecodeManifest(raw, campaign.ManifestFile)
}

// dispatchOrder returns the sessions of found in the manifest's dispatch
// order (run by run: the shared draft, then the review dispatched first,
// then the other), and the IDs of found that no run lists, sorted.
func dispatchOrder(m *campaign.Manifest, found map[string]*BatchSession) (ordered []BatchSession, unlisted []string) {
	rest := maps.Clone(found)
	for _, run := range m.Runs {
		first, second := run.Sessions.ReviewA, run.Sessions.ReviewB
		if run.Order == campaign.OrderBFirst {
			first, second = second, first
		}
		for _, id := range []string{run.Sessions.Draft, first, second} {
			if b, ok := rest[id]; ok {
				ordered = append(ordered, *b)
				delete(rest, id)
			}
		}
	}
	return ordered, slices.Sorted(maps.Keys(rest))
}
