package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"

	"github.com/spf13/cobra"

	"verdict/campaign"
	"verdict/internal/plural"
	"verdict/scorer"
	"verdict/verr"
)

// validateReport is the output of "verdict validate" (--format json): the
// inputs, the role, the strict loader's refusal of the packet or of the
// whole response (null when none), the refusal of B's reconciliation
// record alone (null when none), and the structural findings.
//
// FinalValid is true when the final object is accepted by the strict
// loader and has no finding of scope final. LedgerValid is null when the
// role has no ledger (draft, review-a) or when the whole answer was
// refused (the ledger's links cannot be checked without a final answer);
// otherwise it is true when B's reconciliation record is accepted and has
// no finding of scope protocol. A valid final with an invalid ledger keeps
// its semantic score; only the review's protocol gate fails (CONTRACT §4).
// Valid is true only when there is no refusal and no finding.
type validateReport struct {
	Response      string           `json:"response"`
	Packet        string           `json:"packet"`
	Role          campaign.Role    `json:"role"`
	RoleInferred  bool             `json:"role_inferred"`
	Valid         bool             `json:"valid"`
	Refusal       *verr.Problem    `json:"refusal"`
	FinalValid    bool             `json:"final_valid"`
	LedgerValid   *bool            `json:"ledger_valid"`
	LedgerRefusal *verr.Problem    `json:"ledger_refusal"`
	Findings      []scorer.Finding `json:"findings"`
}

func newValidateCmd(a *app) *cobra.Command {
	var packetPath, role string
	cmd := &cobra.Command{
		Use:   "validate RESPONSE --packet PACKET [--role draft|review-a|review-b]",
		Short: "Strictly load one response and run the structural validator against its packet",
		Long: `Validate strictly decodes one response file (PROMPTS.md "Exact response
contract") and its evidence packet, then runs the structural validator
(PROMPTS.md "Additional constraints", EVALUATOR-CONTROLS C09, C12, C13).
It prints the loader's refusal, or every finding with its reason code, JSON
pointer, scope (final answer or protocol ledger), rule and sentence.

B's reconciliation record is decided apart from the final answer
(CONTRACT §4): when the final object is valid and only the record is null,
outside the schema or against a loader rule, the report says final valid,
ledger invalid, and names the ledger's refusal; the answer is then graded
as any other and only that review's protocol gate fails. A top level that
is not one object with exactly "final" and "reconciliation" refuses the
whole answer.

Without --role, the role is review-b when the response's reconciliation is
an object and review-a otherwise (draft and review-a share one contract).

Exit codes: 0 valid; 1 refused or structurally invalid; 2 usage error.`,
		Args: cobra.ExactArgs(1),
	}
	format := formatFlag(cmd, "text", "json")
	cmd.Flags().StringVar(&packetPath, "packet", "", "the task's evidence packet (packet.json); required")
	cmd.Flags().StringVar(&role, "role", "", "draft|review-a|review-b (default: inferred from the reconciliation)")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if packetPath == "" {
			return usagef("validate: --packet PACKET is required")
		}
		switch campaign.Role(role) {
		case "", campaign.RoleDraft, campaign.RoleReviewA, campaign.RoleReviewB:
		default:
			return usagef("validate: --role %q: want draft, review-a or review-b", role)
		}
		rep, err := runValidate(args[0], packetPath, campaign.Role(role))
		if err != nil {
			return err
		}
		if *format == "json" {
			if err := writeValidateJSON(a.stdout, rep); err != nil {
				return err
			}
		} else {
			writeValidateText(a.stdout, rep)
		}
		switch {
		case rep.Refusal != nil:
			return failed("%s refused: %s", rep.Refusal.File, rep.Refusal.Reason)
		case rep.LedgerRefusal != nil && len(rep.Findings) == 0:
			return failed("%s: the reconciliation record is refused (%s); the final answer is valid", rep.Response, rep.LedgerRefusal.Reason)
		case !rep.Valid:
			return failed("%s is structurally invalid: %s", rep.Response, plural.Count(len(rep.Findings), "finding", "findings"))
		}
		return nil
	}
	return cmd
}

// runValidate reads and checks the files. It returns an error only when a
// file cannot be read; refusals and findings are in the report.
func runValidate(responsePath, packetPath string, role campaign.Role) (*validateReport, error) {
	rep := &validateReport{
		Response: filepath.ToSlash(responsePath),
		Packet:   filepath.ToSlash(packetPath),
		Role:     role,
		Findings: []scorer.Finding{},
	}
	pdata, err := campaign.ReadRegular(packetPath, campaign.FileTask)
	if err != nil {
		return nil, fmt.Errorf("reading packet: %w", err)
	}
	rdata, err := campaign.ReadRegular(responsePath, campaign.FileResponse)
	if err != nil {
		return nil, fmt.Errorf("reading response: %w", err)
	}
	if rep.Role == "" {
		rep.Role, rep.RoleInferred = inferValidateRole(rdata), true
	}
	packet, err := campaign.DecodePacket(pdata, rep.Packet)
	if err != nil {
		rep.Refusal = validateRefusal(err, rep.Packet)
		return rep, nil
	}
	resp, ledger, err := campaign.DecodeAnswer(rdata, rep.Response, rep.Role)
	if err != nil {
		rep.Refusal = validateRefusal(err, rep.Response)
		return rep, nil
	}
	if fs := scorer.ValidateResponse(resp, rep.Role, packet, rep.Response); fs != nil {
		rep.Findings = fs
	}
	rep.FinalValid = true
	ledgerValid := ledger == nil
	if ledger != nil {
		rep.LedgerRefusal = validateRefusal(ledger, rep.Response)
	}
	for _, f := range rep.Findings {
		if f.Scope == scorer.ScopeFinal {
			rep.FinalValid = false
		} else {
			ledgerValid = false
		}
	}
	if rep.Role == campaign.RoleReviewB {
		rep.LedgerValid = &ledgerValid
	}
	rep.Valid = len(rep.Findings) == 0 && ledger == nil
	return rep, nil
}

// inferValidateRole returns review-b when the top-level "reconciliation" is a JSON
// object and review-a otherwise (including bytes that do not parse; the
// strict decoder then reports the real refusal).
func inferValidateRole(data []byte) campaign.Role {
	var top struct {
		Reconciliation json.RawMessage `json:"reconciliation"`
	}
	if json.Unmarshal(data, &top) == nil && len(top.Reconciliation) > 0 && top.Reconciliation[0] == '{' {
		return campaign.RoleReviewB
	}
	return campaign.RoleReviewA
}

func validateRefusal(err error, file string) *verr.Problem {
	var e *verr.Error
	if errors.As(err, &e) {
		p := verr.ProblemOf(e)
		return &p
	}
	return &verr.Problem{Reason: verr.ReasonError, File: file, Message: err.Error()}
}

func writeValidateText(w io.Writer, rep *validateReport) {
	fmt.Fprintf(w, "response: %s\n", rep.Response)
	fmt.Fprintf(w, "packet:   %s\n", rep.Packet)
	inferred := ""
	if rep.RoleInferred {
		inferred = " (inferred)"
	}
	fmt.Fprintf(w, "role:     %s%s\n", rep.Role, inferred)
	if r := rep.Refusal; r != nil {
		fmt.Fprintf(w, "result:   REFUSED by the strict loader\n")
		fmt.Fprintf(w, "  %s#%s: %s: %s [%s]\n", r.File, r.Pointer, r.Reason, r.Message, r.Rule)
		return
	}
	var final, protocol int
	for _, f := range rep.Findings {
		if f.Scope == scorer.ScopeFinal {
			final++
		} else {
			protocol++
		}
	}
	if rep.Valid {
		fmt.Fprintf(w, "result:   VALID (structural checks only; semantic correctness is graded by raters)\n")
		return
	}
	fmt.Fprintf(w, "final:    %s\n", validWord(rep.FinalValid))
	if rep.LedgerValid != nil {
		fmt.Fprintf(w, "ledger:   %s\n", validWord(*rep.LedgerValid))
	}
	if r := rep.LedgerRefusal; r != nil {
		fmt.Fprintf(w, "result:   LEDGER REFUSED by the strict loader; the final answer is scored normally, the protocol gate fails (CONTRACT §4)\n")
		fmt.Fprintf(w, "  [protocol] %s#%s: %s: %s [%s]\n", r.File, r.Pointer, r.Reason, r.Message, r.Rule)
		if len(rep.Findings) == 0 {
			return
		}
	}
	fmt.Fprintf(w, "result:   INVALID: %s (final answer %d, protocol ledger %d)\n", plural.Count(len(rep.Findings), "finding", "findings"), final, protocol)
	for _, f := range rep.Findings {
		fmt.Fprintf(w, "  [%s] %s#%s: %s: %s [%s]\n", f.Scope, f.File, f.Pointer, f.Code, f.Message, f.Rule)
	}
}

// validWord renders a validity flag.
func validWord(ok bool) string {
	if ok {
		return "valid"
	}
	return "invalid"
}

// writeValidateJSON writes v as indented JSON with a final newline. Struct fields
// keep their declared order, so the bytes are deterministic.
func writeValidateJSON(w io.Writer, v any) error { return writeJSON(w, v) }
