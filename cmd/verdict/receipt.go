package main

import (
	"errors"
	"fmt"
	"slices"

	"github.com/spf13/cobra"

	"verdict/assemble"
	"verdict/campaign"
	"verdict/verr"
)

// logFormatsHelp lists the --log-format values of receipt import and
// which can give a receipt that admission accepts (CONTRACT §5: the meter
// must count reasoning).
const logFormatsHelp = `  ` + assemble.LogResponsesAPI + `   one OpenAI Responses API response object: reports
                       reasoning tokens, so its receipt can be admitted
  ` + assemble.LogCodexExec + `     the JSONL events of codex exec --json: reports no
                       reasoning count, so its receipt is not admissible
                       (meter-incomplete) unless the log carries
                       reasoning_output_tokens`

// receiptImportReport is `verdict receipt import --format json`.
type receiptImportReport struct {
	Session string             `json:"session"`
	Status  string             `json:"status"`
	Files   []assemble.Written `json:"files"`
	Unknown []string           `json:"unknown"`
	Notes   []string           `json:"notes"`
	// Inadmissible are admission's findings on a receipt written with
	// --keep-inadmissible (omitted when there are none).
	Inadmissible []verr.Problem `json:"inadmissible,omitempty"`
}

// importReport is the report of session's import im, with admission's
// findings inadmissible: its status "no terminal receipt" when the log
// gave none, and its unknown and notes lists never null. Its files are
// set by the caller once they are written.
func importReport(session string, im *assemble.Imported, inadmissible []error) receiptImportReport {
	rep := receiptImportReport{Session: session, Status: string(im.Receipt.Status), Unknown: im.Unknown, Notes: im.Notes}
	for _, e := range inadmissible {
		rep.Inadmissible = append(rep.Inadmissible, refusalProblem(e))
	}
	if rep.Status == "" {
		rep.Status = "no terminal receipt"
	}
	if rep.Unknown == nil {
		rep.Unknown = []string{}
	}
	if rep.Notes == nil {
		rep.Notes = []string{}
	}
	return rep
}

func newReceiptCmd(a *app) *cobra.Command {
	c := &cobra.Command{
		Use:   "receipt",
		Short: "Receipts from the logs of real runs",
	}
	c.AddCommand(newReceiptImportCmd(a))
	return c
}

func newReceiptImportCmd(a *app) *cobra.Command {
	var session, logFile, logFormat, timingFile, errorKind, logsDir, index string
	var keep bool
	c := &cobra.Command{
		Use:   "import CAMPAIGN (--session S --log FILE --timing FILE | --logs DIR | --index FILE) --log-format FORMAT [--error-kind KIND]",
		Short: "Write responses/S.json and receipts/S.json from a run's log and the runner's timing file (one session, or many at once)",
		Long: `Import reads the log of one real session and the small timing file its runner
wrote, and writes responses/S.json (the exact bytes of the final message)
and receipts/S.json into the campaign, both or neither (an import killed
between the two is undone by the next command that writes the campaign;
run it again). verdict never calls a model; it only reads what a runner
recorded.

--log-format is required (there is no default: a log has one format, and
only one of the two can give an admissible receipt today); it is one of:
  codex-exec-jsonl     the JSONL event stream of codex exec --json: the last
                       completed agent_message item is the final message;
                       turn.completed carries usage {input_tokens,
                       cached_input_tokens, output_tokens}
  responses-api-json   one OpenAI Responses API response object: the last
                       message item's output_text is the final message;
                       usage {input_tokens, input_tokens_details.cached_tokens,
                       output_tokens, output_tokens_details.reasoning_tokens}
Both count cached input inside input_tokens (subtracted exactly once) and
reasoning inside output_tokens (not added again). codex exec --json reports no
reasoning count, so its meter stays null and admission refuses it
(meter-incomplete).

The timing file is one JSON object holding what only the runner knows:
  required by import (the receipt has no unknown for them):
    validation_ns, assembly_ns
  required for admission (CONTRACT §5 Required records; null fails it):
    request_id, started_utc, ended_utc, start_monotonic_ns,
    end_monotonic_ns, host
  required for admission, compared with the manifest (CONTRACT §2, C17):
    permission_policy (execution.permission_policy)
  optional:
    actual_charge_micro_usd  the provider's actual charge for the session
                             in micro-USD, when billed (absent: unknown,
                             held at the reference price, never 0)
    model          compared with execution.model; needed only when the log
                   does not report it (responses-api-json does, codex exec
                   --json does not)
    session_id     when given it must be the session imported
    response_id    the response ID (codex: thread ID) the runner saw; when
                   given the log's own ID must be it (log-identity-mismatch)
    input_sha256, input_bytes, task_sha256, packet_sha256
                   what the runner recorded sending; when absent, import
                   computes them from the campaign: the prompt verdict
                   prompts renders for the session's role (a review's
                   quotes its run's draft, so import the draft first), the
                   task's task.md and its packet.json. When given they are
                   kept as the runner's record and admission compares them.
No log format records monotonic time.

Many sessions at once: --logs DIR imports every session whose log is in DIR,
named by session: S4.json or S4.jsonl (the log) and S4.timing.json (its
timing file), in the manifest's dispatch order (run by run: the draft, then
the review dispatched first, then the other), so each review's prompt
quotes the draft imported before it. Every session is imported and checked
as a single import is, against the campaign as it reads with the sessions
before it; the first refusal stops the batch, names its session, and
nothing is written. When every session passes, all responses and receipts
are written and the manifest is bound once (verdict manifest), all or
nothing, under the one campaign lock held from the first read: a file that
cannot be written (write-failed) or a binding refused removes every file
of the batch, and a batch killed while writing is undone by the next
command that writes the campaign. One batch may hold the draft and both
reviews of a run (the draft is imported first). Any other file in DIR is
refused (batch-file-unknown), so that a misnamed log is never skipped in
silence.

--index FILE names the same batch in a small text file instead, for logs
that are not named by session or not in one directory: one line per
session, SESSION LOG TIMING [ERROR-KIND], fields separated by spaces or
tabs, a relative path read from FILE's directory; blank lines and lines
starting with # are skipped. The order of the lines does not matter (the
batch runs in dispatch order). ERROR-KIND is the coordinator's
classification of that session's failed turn, as --error-kind gives it for
one session. A line that is not of this form, a session listed twice or
listed by no run, and a file named twice are refused (batch-index, naming
the line) before anything is read:

  # session  log                      timing
  S1         runs/0901-draft.json     runs/0901-draft.timing.json
  S2         runs/0903-review.json    runs/0903-review.timing.json
  S3         runs/0905-review.json    runs/0905-review.timing.json  model_timeout

Every receipt value neither file gives stays null and is listed ("unknown
(left null)"); nothing is recorded as 0 for an unknown. A priced modifier the
log reports anywhere (cache-write or cache-creation tokens in any spelling:
cache_write_tokens, cached_write_tokens, cache_creation_input_tokens,
cache_creation {...}, cacheWriteInputTokens,
gen_ai.usage.input_tokens.cache_write; a service tier other than
"default", "auto" and "" included, which do not say what tier served the
response) is recorded in priced_modifiers and never priced
(unsupported-modifier at admission). A failed turn is an error whose
error_kind stays null unless --error-kind gives the coordinator's
classification: the importer never labels an error, least of all as
infrastructure. What the log itself states is recorded as such, an error
whose output is kept: a message with a "refusal" content part is the model
refusing (error_kind refusal), a response "incomplete" for
max_output_tokens is budget_exhausted and for content_filter refusal
(valid scored failures, C16); another --error-kind is refused
(log-inconsistent). A Responses API log without "id" or "created_at"
(log-malformed), an output message whose role is not "assistant"
(log-role-unexpected) and a content part other than output_text or
refusal (log-content-unknown) are refused.

Before writing, import runs admission's execution-validity rules on the
campaign as it will be once this receipt is written and bound. When the
receipt would fail admission it lists the reasons, writes nothing and exits
1 (receipt-inadmissible): correct the timing file (or the log) and import
again. A receipt once bound is never rebound, so --keep-inadmissible is for
a real run whose record must be kept as evidence: it writes the receipt,
lists the reasons and still exits 1; such a run is recovered only by one
replacement triplet (a new run with runs[].replaces), never by replacing
the receipt. Every rule whose inputs are present is decided at import: the
host against the manifest, overlap with any session that has run (of any
run), order against a sibling that has run, the model against the
manifest, a response ID another receipt already records. Only a finding
that needs a sibling still planned waits for it (a review imported before
its draft, an arm before the arm declared first).

The log must be the session's own: its response ID (or codex thread ID)
and model must be those the timing file records when it records them
(response_id, model), and a Responses API log must have been created
within the session's started_utc and ended_utc (30 s tolerance):
otherwise log-identity-mismatch. The response ID is recorded in the
receipt (response_id).

Tool use is counted from the log's item types: the known tool calls are
counted (ordinary or MCP) and the types known not to be tool calls
(message, reasoning; codex agent_message, reasoning, error) are not; any
other item type is refused (log-item-unknown), never counted as zero.

A response or receipt already in the campaign with other bytes is refused
(file-differs). Bind the new files of a single import with verdict manifest
afterwards (--logs and --index bind them themselves).

Exit codes: 0 written; 1 refused; 2 usage error.`,
		Args: cobra.ExactArgs(1),
	}
	format := formatFlag(c, "text", "json")
	c.Flags().StringVar(&session, "session", "", "session ID, e.g. S4 (required)")
	c.Flags().StringVar(&logFile, "log", "", "the run's log (required)")
	c.Flags().StringVar(&logFormat, "log-format", "", "the log's format (required): "+assemble.LogCodexExec+"|"+assemble.LogResponsesAPI)
	c.Flags().StringVar(&timingFile, "timing", "", "the runner's timing file (required)")
	c.Flags().StringVar(&logsDir, "logs", "", "import every session of DIR (S<n>.json or S<n>.jsonl with S<n>.timing.json) in dispatch order, then bind the manifest")
	c.Flags().StringVar(&index, "index", "", "import every session FILE lists (one line each: SESSION LOG TIMING [ERROR-KIND]) in dispatch order, then bind the manifest")
	c.Flags().BoolVar(&keep, "keep-inadmissible", false, "write the receipt even when admission will refuse it (a real run's record is evidence; exit 1 still)")
	c.Flags().StringVar(&errorKind, "error-kind", "", "the coordinator's classification of a failed turn (model_timeout, refusal, malformed_output, budget_exhausted, infrastructure)")
	c.RunE = func(cmd *cobra.Command, args []string) error {
		if logFormat != assemble.LogCodexExec && logFormat != assemble.LogResponsesAPI {
			given := "--log-format is required"
			if logFormat != "" {
				given = fmt.Sprintf("--log-format %q is not a log format", logFormat)
			}
			return usagef("receipt import: %s; give the format of --log:\n%s", given, logFormatsHelp)
		}
		if logsDir != "" && index != "" {
			return usagef("receipt import: give one batch, --logs DIR or --index FILE")
		}
		if logsDir != "" || index != "" {
			flag, from := "--logs", logsDir
			if index != "" {
				flag, from = "--index", index
			}
			if session != "" || logFile != "" || timingFile != "" || errorKind != "" {
				return usagef("receipt import: %s imports a batch; --session, --log, --timing and --error-kind are for one session", flag)
			}
			return importBatch(a, args[0], flag, from, logFormat, keep, *format)
		}
		if session == "" || logFile == "" || timingFile == "" {
			return usagef("receipt import: --session, --log and --timing (or --logs DIR, or --index FILE) are required")
		}
		if !campaign.ValidID('S', session) {
			return usagef("receipt import: --session %q is not a session ID (S1, S2, …)", session)
		}
		if errorKind != "" && !slices.Contains(assemble.ImportErrorKinds, campaign.ErrorKind(errorKind)) {
			return usagef("receipt import: --error-kind %q is not an error kind (%v)", errorKind, assemble.ImportErrorKinds)
		}
		logBytes, err := readFlagFile(a, "receipt import: --log", logFile, campaign.FileRunLog)
		if err != nil {
			return err
		}
		timing, err := readFlagFile(a, "receipt import: --timing", timingFile, campaign.FileTiming)
		if err != nil {
			return err
		}
		// The campaign's write lock is held from before the campaign is
		// read: a second import (or packet, manifest) running at once is
		// refused output-locked, never left to read this one's half-written
		// files.
		lock, err := assemble.LockCampaign(args[0])
		if err != nil {
			return refusal(a, err)
		}
		defer lock.Unlock()
		im, err := assemble.Import(args[0], assemble.ImportRequest{Session: session, Log: logBytes, LogFormat: logFormat, LogFile: logFile,
			Timing: timing, TimingFile: timingFile, ErrorKind: campaign.ErrorKind(errorKind)})
		if err != nil {
			return refusal(a, err)
		}
		// Admission's receipt rules on the receipt about to be written: once
		// bound it is never rebound, so say now that it would fail.
		inadmissible, err := assemble.ImportAdmission(args[0], im)
		if err != nil {
			return refusal(a, err)
		}
		if len(inadmissible) > 0 && !keep {
			head := &verr.Error{Reason: ReasonReceiptInadmissible, File: campaign.ReceiptPath(session), Rule: campaign.RuleReceipt,
				Detail: fmt.Sprintf("nothing written: admission would refuse this receipt for the %d reason(s) below. Correct the timing file and import again; "+
					"to keep this run's record as evidence use --keep-inadmissible (it is then bound for good, and the run is recovered by one replacement triplet, runs[].replaces)", len(inadmissible))}
			return refusal(a, errors.Join(append([]error{head}, inadmissible...)...))
		}
		if err := assemble.WriteImport(lock, args[0], im); err != nil {
			return refusal(a, err)
		}
		rep := importReport(session, im, inadmissible)
		rep.Files = im.Files
		if *format == "json" {
			if err := writeJSON(a.stdout, rep); err != nil {
				return err
			}
			return keptInadmissible(rep)
		}
		w := a.stdout
		fmt.Fprintf(w, "session %s: %s\n", session, rep.Status)
		for _, f := range rep.Files {
			state := "written"
			if f.Unchanged {
				state = "unchanged"
			}
			fmt.Fprintf(w, "%s %s sha256 %s\n", state, f.Path, f.SHA256)
		}
		for _, n := range rep.Notes {
			fmt.Fprintln(w, "note:", n)
		}
		fmt.Fprintf(w, "unknown (left null): %d\n", len(rep.Unknown))
		for _, u := range rep.Unknown {
			fmt.Fprintln(w, "  "+u)
		}
		for _, p := range rep.Inadmissible {
			fmt.Fprintf(w, "INADMISSIBLE: %s: %s\n", p.Reason, p.Message)
		}
		return keptInadmissible(rep)
	}
	return c
}

// ReasonReceiptInadmissible: receipt import kept (--keep-inadmissible) a
// receipt that admission will refuse; the findings say why.
const ReasonReceiptInadmissible verr.Reason = "receipt-inadmissible"

// keptInadmissible is the exit of an import that wrote a receipt admission
// will refuse: 1, with the reason code.
func keptInadmissible(rep receiptImportReport) error {
	if len(rep.Inadmissible) == 0 {
		return nil
	}
	return &failedError{msg: fmt.Sprintf("%s: receipts/%s.json was kept but will fail admission (%d finding(s)); replace the run (runs[].replaces) with one new triplet", ReasonReceiptInadmissible, rep.Session, len(rep.Inadmissible))}
}
