package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"verdict/assemble"
	"verdict/campaign"
)

// receiptImportReport is `verdict receipt import --format json`.
type receiptImportReport struct {
	Session string             `json:"session"`
	Status  string             `json:"status"`
	Files   []assemble.Written `json:"files"`
	Unknown []string           `json:"unknown"`
	Notes   []string           `json:"notes"`
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
	var session, logFile, logFormat, timingFile, errorKind string
	c := &cobra.Command{
		Use:   "import CAMPAIGN --session S --log FILE --log-format FORMAT --timing FILE [--error-kind KIND]",
		Short: "Write responses/S.json and receipts/S.json from a run's log and the runner's timing file",
		Long: `Import reads the log of one real session and the small timing file its runner
wrote, and writes responses/S.json (the exact bytes of the final message)
and receipts/S.json into the campaign. verdict never calls a model; it only
reads what a runner recorded.

--log-format is one of:
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

The timing file is JSON with request_id, started_utc, ended_utc,
start_monotonic_ns, end_monotonic_ns, input_sha256, input_bytes (the bytes
verdict prompts renders for the session's role), host, validation_ns and
assembly_ns (required: the receipt has no unknown for them), and optionally
session_id, model, permission_policy, task_sha256 and packet_sha256. No log
format records monotonic time.

Every receipt value neither file gives stays null and is listed; verdict check
then refuses what the contract requires. A priced modifier the log reports
(cache-write tokens, a service tier other than the standard one) is recorded
in priced_modifiers and never priced: admission refuses it
(unsupported-modifier). A failed turn is an error whose error_kind stays null
unless --error-kind gives the coordinator's classification: the importer never
labels an error, least of all as infrastructure.

A response or receipt already in the campaign with other bytes is refused
(file-differs). Bind the new files with verdict manifest afterwards.

Exit codes: 0 written; 1 refused; 2 usage error.`,
		Args: cobra.ExactArgs(1),
	}
	format := formatFlag(c, "text", "json")
	c.Flags().StringVar(&session, "session", "", "session ID, e.g. S4 (required)")
	c.Flags().StringVar(&logFile, "log", "", "the run's log (required)")
	c.Flags().StringVar(&logFormat, "log-format", assemble.LogCodexExec, "log format: "+assemble.LogCodexExec+"|"+assemble.LogResponsesAPI)
	c.Flags().StringVar(&timingFile, "timing", "", "the runner's timing file (required)")
	c.Flags().StringVar(&errorKind, "error-kind", "", "the coordinator's classification of a failed turn (model_timeout, refusal, malformed_output, budget_exhausted, infrastructure)")
	c.RunE = func(cmd *cobra.Command, args []string) error {
		if session == "" || logFile == "" || timingFile == "" {
			return usagef("receipt import: --session, --log and --timing are required")
		}
		if !campaign.ValidID('S', session) {
			return usagef("receipt import: --session %q is not a session ID (S1, S2, …)", session)
		}
		switch campaign.ErrorKind(errorKind) {
		case "", campaign.ErrorTimeout, campaign.ErrorRefusal, campaign.ErrorMalformed, campaign.ErrorBudget, campaign.ErrorInfrastructure:
		default:
			return usagef("receipt import: --error-kind %q is not an error kind", errorKind)
		}
		if logFormat != assemble.LogCodexExec && logFormat != assemble.LogResponsesAPI {
			return usagef("receipt import: --log-format %q: want %s or %s", logFormat, assemble.LogCodexExec, assemble.LogResponsesAPI)
		}
		logBytes, err := os.ReadFile(logFile)
		if err != nil {
			return usagef("receipt import: --log: %v", err)
		}
		timing, err := os.ReadFile(timingFile)
		if err != nil {
			return usagef("receipt import: --timing: %v", err)
		}
		im, err := assemble.Import(args[0], assemble.ImportRequest{Session: session, Log: logBytes, LogFormat: logFormat, LogFile: logFile,
			Timing: timing, TimingFile: timingFile, ErrorKind: campaign.ErrorKind(errorKind)})
		if err != nil {
			return refusal(a, err)
		}
		if err := assemble.WriteImport(args[0], im); err != nil {
			return refusal(a, err)
		}
		rep := receiptImportReport{Session: session, Status: string(im.Receipt.Status), Files: im.Files, Unknown: im.Unknown, Notes: im.Notes}
		if rep.Status == "" {
			rep.Status = "no terminal receipt"
		}
		if rep.Unknown == nil {
			rep.Unknown = []string{}
		}
		if rep.Notes == nil {
			rep.Notes = []string{}
		}
		if *format == "json" {
			return writeJSON(a.stdout, rep)
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
		return nil
	}
	return c
}
