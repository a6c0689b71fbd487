package main

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"verdict/campaign"
	"verdict/internal/plural"
	"verdict/pipeline"
	"verdict/scorer"
	"verdict/verr"
)

func newCheckCmd(a *app) *cobra.Command {
	var format *string
	var previous, previousReport string
	var reference bool
	cmd := &cobra.Command{
		Use:   "check [CAMPAIGN]",
		Short: "Strictly load a campaign, print counts, schema digests, refusals, structural findings and admission",
		Long: `check strictly loads the campaign directory CAMPAIGN (default: the embedded
SYNTHETIC campaign): manifest, file digests, tasks, packets against their
source files, truth, responses and receipts. It prints the counts, the
SHA-256 of every embedded JSON Schema, every refusal, the scored failures
of model answers (EVALUATOR-CONTROLS C16), the structural findings and the
admission report.

Round discipline (CONTRACT §5): with --previous DIR (the round-1 campaign
of a round-2 campaign, or the round-2 campaign of an evaluation, with
--previous-report FILE its report.json) check refuses when anything but
B's instruction changed, when the revised B text names a task, source or
oracle fact, when the evaluation's round 2 did not pass, and when the
previous_round binding does not match. B's change is shown as a unified
diff labelled v1.1 (without --previous, against the frozen v1.0 text).

With --reference every file is decided by the reference validator only
(the strict JSON tree and santhosh-tekuri/jsonschema), without the fast
accept pass: slower, and the same output. It is for an auditor who wants
the independent validator to decide.

Exit status: 0 admitted; 1 refused or not admitted; 2 usage error; 3
incomplete (sessions still planned, nothing else wrong: result INCOMPLETE).

` + exitCodesHelp,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var fsys fs.FS
			name := "embedded"
			if len(args) == 1 {
				name = args[0]
				st, err := os.Stat(name)
				if err != nil || !st.IsDir() {
					return usagef("check: %s is not a campaign directory", name)
				}
				fsys = pipeline.DirFS(name)
			} else {
				if a.embedded == nil {
					return usagef("check: this build has no embedded campaign; name a campaign directory")
				}
				fsys = a.embedded()
			}
			opts := pipeline.CheckOptions{PreviousDir: previous, Load: campaign.LoadOptions{ReferenceOnly: reference}}
			if previousReport != "" {
				if previous == "" {
					return usagef("check: --previous-report needs --previous DIR")
				}
				b, err := readFlagFile(a, "check: --previous-report", previousReport, campaign.FileReport)
				if err != nil {
					return err
				}
				opts.Report, opts.ReportFile = b, filepath.ToSlash(previousReport)
			}
			if previous != "" {
				if st, err := os.Stat(previous); err != nil || !st.IsDir() {
					return usagef("check: --previous %s is not a campaign directory", previous)
				}
			}
			ch := pipeline.CheckWith(fsys, opts)
			if ch.System != nil {
				if previous != "" {
					return usagef("check: --previous applies to fixed-evidence rounds (CONTRACT §5); this campaign is a system comparison")
				}
				return runSystemCheck(a, ch.System, name, *format)
			}
			rep := checkReportOf(ch, name, opts)
			var err error
			if *format == "json" {
				err = rep.writeJSON(a.stdout)
			} else {
				err = rep.writeText(a.stdout)
			}
			if err != nil {
				return err
			}
			if !rep.Admitted {
				f := &failedError{msg: fmt.Sprintf("check: campaign %s is not admitted: %s", name, rep.summary())}
				if rep.incomplete() {
					f.code = exitIncomplete
				}
				return f
			}
			return nil
		},
	}
	format = formatFlag(cmd, "text", "json")
	cmd.Flags().StringVar(&previous, "previous", "", "the previous round's campaign directory: round 1 for a round-2 campaign, round 2 for an evaluation (CONTRACT §5)")
	cmd.Flags().StringVar(&previousReport, "previous-report", "", "the round-2 report.json whose decision admitted this evaluation (with --previous)")
	cmd.Flags().BoolVar(&reference, "reference", false, "decide every file with the reference validator only (slower, same result)")
	return cmd
}

// problemOf is the JSON form of a refusal, admission failure or scored
// failure (verr.Problem).
func problemOf(e *verr.Error) verr.Problem { return verr.ProblemOf(e) }

// checkCounts are the campaign's counts. A count that could not be
// determined (the campaign was refused before it) is null.
type checkCounts struct {
	Tasks            int  `json:"tasks"`
	Runs             int  `json:"runs"`
	Sessions         int  `json:"sessions"`
	ResponsesValid   *int `json:"responses_valid"`
	ResponsesFailed  *int `json:"responses_failed"`
	ResponsesAbsent  *int `json:"responses_absent"`
	Receipts         *int `json:"receipts"`
	ReceiptsMissing  *int `json:"receipts_missing"`
	StructuralIssues *int `json:"structural_findings"`
}

// checkReport is what `verdict check` prints, in sections. Each section is
// deterministic (sorted, no times). New sections are added as fields and
// written by writeText in their place.
type checkReport struct {
	// Notice is the SYNTHETIC notice of a synthetic campaign (omitted
	// otherwise), first in the JSON object as in every command's report.
	Notice          string                  `json:"notice,omitempty"`
	Synthetic       bool                    `json:"synthetic"`
	Campaign        string                  `json:"campaign"`
	CampaignID      string                  `json:"campaign_id"`
	Phase           campaign.Phase          `json:"phase"`
	ContractVersion string                  `json:"contract_version"`
	Admitted        bool                    `json:"admitted"`
	Counts          *checkCounts            `json:"counts"`
	Schemas         []campaign.SchemaDigest `json:"schemas"`
	// Refusals are the strict loader's refusals (the campaign is refused).
	Refusals []verr.Problem `json:"refusals"`
	// ScoredFailures are model answers refused by the strict loader: valid
	// scored failures (EVALUATOR-CONTROLS C16), not refusals.
	ScoredFailures []verr.Problem `json:"scored_failures"`
	// LedgerRefusals are B reconciliation records refused by the strict
	// loader while their final answers are valid: the answers are graded
	// and only those reviews' protocol gates fail (CONTRACT §4).
	LedgerRefusals []verr.Problem `json:"ledger_refusals"`
	// Findings are the automatic structural findings of decoded answers.
	Findings []scorer.Finding `json:"structural_findings"`
	// Admission holds manifest admission, campaign ceilings and execution
	// validity failures; any of them fails admission.
	Admission []verr.Problem `json:"admission"`
	// MissingIdentities names every execution identity the manifest leaves
	// unset, also when the strict loader refused the manifest (CONTRACT §7).
	MissingIdentities []string `json:"missing_identities"`
	// NextDispatch is the admission decision for one more worst-case
	// session against the remaining ceilings (EVALUATOR-CONTROLS C18).
	NextDispatch *scorer.DispatchDecision `json:"next_dispatch"`
	// CostTimeGates are the cost-and-time scorecard gates (CONTRACT §4;
	// C14, C20); reported here, decided by score, not part of admission.
	CostTimeGates []scorer.Gate `json:"cost_time_gates"`
	// PreviousRound is the previous campaign directory checked with
	// --previous ("" when none was given).
	PreviousRound string `json:"previous_round_checked"`
	// PromptRevision is B's instruction as a unified diff labelled v1.1
	// (against the previous round with --previous, else against the frozen
	// v1.0 text); null when B's instruction is unchanged (CONTRACT §5).
	PromptRevision *scorer.PromptRevision `json:"prompt_revision"`
	// RoundNotes are round-discipline issues reported without failing
	// admission (a synthetic manifest's unverified previous round).
	RoundNotes []verr.Problem `json:"round_notes"`
	// Replacements are the replacement triplets, each naming the triplet
	// it replaces, why that one was invalid and the infrastructure claims
	// of its receipts, which verdict cannot verify against the platform.
	Replacements []scorer.Replacement `json:"replacements"`
}

// buildCheckReport is the report of `verdict check` on the campaign fsys
// named name: pipeline.Check in the report's JSON shape.
func buildCheckReport(fsys fs.FS, name string) *checkReport {
	return buildCheckReportWith(fsys, name, pipeline.CheckOptions{})
}

// buildCheckReportWith is buildCheckReport with round discipline against
// a previous round (pipeline.CheckWith); its violations are admission
// failures.
func buildCheckReportWith(fsys fs.FS, name string, opts pipeline.CheckOptions) *checkReport {
	return checkReportOf(pipeline.CheckWith(fsys, opts), name, opts)
}

// checkReportOf is the report of the fixed-evidence check ch (made with
// opts) of the campaign named name.
func checkReportOf(ch *pipeline.Checked, name string, opts pipeline.CheckOptions) *checkReport {
	rep := &checkReport{Campaign: name, Schemas: campaign.SchemaDigests(),
		Refusals: []verr.Problem{}, ScoredFailures: []verr.Problem{}, LedgerRefusals: []verr.Problem{}, Findings: []scorer.Finding{}, Admission: []verr.Problem{},
		MissingIdentities: []string{}, CostTimeGates: []scorer.Gate{}, RoundNotes: []verr.Problem{}, Replacements: []scorer.Replacement{}}
	rep.PreviousRound = opts.PreviousDir
	if ch.MissingIdentities != nil {
		rep.MissingIdentities = ch.MissingIdentities
	}
	if m := ch.Manifest; m != nil {
		rep.Synthetic, rep.CampaignID, rep.Phase, rep.ContractVersion = m.Synthetic, m.CampaignID, m.Phase, m.ContractVersion
		rep.Notice = syntheticNotice(m.Synthetic)
		rep.Counts = &checkCounts{Tasks: len(m.Tasks), Runs: len(m.Runs), Sessions: 3 * len(m.Runs)}
	}
	if len(ch.Refusals) > 0 {
		for _, e := range ch.Refusals {
			rep.Refusals = append(rep.Refusals, verr.ProblemOf(e))
		}
		return rep
	}
	for _, f := range ch.ScoredFailures {
		rep.ScoredFailures = append(rep.ScoredFailures, problemOf(f))
	}
	for _, f := range ch.LedgerRefusals {
		rep.LedgerRefusals = append(rep.LedgerRefusals, problemOf(f))
	}
	if ch.Findings != nil {
		rep.Findings = ch.Findings
	}
	n := len(rep.Findings)
	k := ch.Counts
	rep.Counts.ResponsesValid, rep.Counts.ResponsesFailed, rep.Counts.ResponsesAbsent = &k.ResponsesValid, &k.ResponsesFailed, &k.ResponsesAbsent
	rep.Counts.Receipts, rep.Counts.ReceiptsMissing, rep.Counts.StructuralIssues = &k.Receipts, &k.ReceiptsMissing, &n
	for _, e := range ch.Admission.Failures() {
		rep.Admission = append(rep.Admission, problemOf(e))
	}
	for _, e := range ch.RoundIssues {
		rep.Admission = append(rep.Admission, problemOf(e))
	}
	if ch.Replacements != nil {
		rep.Replacements = ch.Replacements
	}
	for _, e := range ch.RoundNotes {
		rep.RoundNotes = append(rep.RoundNotes, problemOf(e))
	}
	rep.PromptRevision = ch.Revision
	rep.Admitted = len(rep.Admission) == 0
	rep.NextDispatch = &ch.Admission.NextDispatch
	rep.CostTimeGates = ch.Admission.Accounting.Gates
	return rep
}

// incomplete reports whether the campaign's only failure is sessions still
// planned (campaign-incomplete): INCOMPLETE, exit 3.
func (r *checkReport) incomplete() bool {
	return len(r.Refusals) == 0 && !r.Admitted && len(r.Admission) == 1 && r.Admission[0].Reason == scorer.ReasonCampaignIncomplete
}

func (r *checkReport) summary() string {
	if len(r.Refusals) > 0 {
		if len(r.MissingIdentities) > 0 {
			return fmt.Sprintf("%s; missing identities: %s", plural.Count(len(r.Refusals), "refusal", "refusals"), strings.Join(r.MissingIdentities, ", "))
		}
		return plural.Count(len(r.Refusals), "refusal", "refusals")
	}
	return plural.Count(len(r.Admission), "admission failure", "admission failures")
}

func (r *checkReport) writeJSON(w io.Writer) error {
	b, err := campaign.MarshalJSON(r)
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

func (r *checkReport) writeText(w io.Writer) error {
	var b strings.Builder
	if r.Synthetic {
		b.WriteString("SYNTHETIC campaign: inert synthetic inputs, not a real experiment\n")
	}
	fmt.Fprintf(&b, "campaign %s (%s)", r.Campaign, orUnknown(r.CampaignID))
	if r.Phase != "" {
		fmt.Fprintf(&b, ", phase %s", r.Phase)
	}
	fmt.Fprintf(&b, "\ncontract version %s (this build: %s)\n", orUnknown(r.ContractVersion), campaign.ContractVersion)
	if c := r.Counts; c != nil {
		fmt.Fprintf(&b, "tasks %d, runs %d, sessions %d\n", c.Tasks, c.Runs, c.Sessions)
		fmt.Fprintf(&b, "responses: %s valid, %s scored failures, %s absent; receipts: %s present, %s missing\n",
			count(c.ResponsesValid), count(c.ResponsesFailed), count(c.ResponsesAbsent), count(c.Receipts), count(c.ReceiptsMissing))
	} else {
		b.WriteString("counts: unknown (the manifest was refused)\n")
	}
	b.WriteString("schemas (SHA-256):\n")
	for _, s := range r.Schemas {
		fmt.Fprintf(&b, "  %-14s %s\n", s.Name, s.SHA256)
	}
	section := func(title string, lines []string) {
		fmt.Fprintf(&b, "%s: %d\n", title, len(lines))
		for _, l := range lines {
			fmt.Fprintf(&b, "  %s\n", l)
		}
	}
	strs := func(ps []verr.Problem) []string {
		out := make([]string, len(ps))
		for i, p := range ps {
			out[i] = p.String()
		}
		return out
	}
	section("refusals", strs(r.Refusals))
	section("scored failures (model answers refused by the strict loader, EVALUATOR-CONTROLS C16)", strs(r.ScoredFailures))
	section("ledger refusals (valid final answers whose B reconciliation record was refused; protocol gate fails, CONTRACT §4)", strs(r.LedgerRefusals))
	fl := make([]string, len(r.Findings))
	for i, f := range r.Findings {
		fl[i] = f.String()
	}
	section("structural findings", fl)
	section("admission failures", strs(r.Admission))
	rl := make([]string, len(r.Replacements))
	for i, x := range r.Replacements {
		rl[i] = x.String()
	}
	section("replacement triplets (infrastructure claims come from the receipts; verdict cannot verify them against the platform)", rl)
	if len(r.RoundNotes) > 0 {
		section("round notes (not admission failures: synthetic campaign)", strs(r.RoundNotes))
	}
	if r.PreviousRound != "" {
		fmt.Fprintf(&b, "round discipline checked against the previous round %s\n", r.PreviousRound)
	}
	if rv := r.PromptRevision; rv != nil {
		fmt.Fprintf(&b, "B instruction %s (%s), unified diff:\n", rv.Label, rv.File)
		for _, l := range strings.SplitAfter(strings.TrimSuffix(rv.Diff, "\n"), "\n") {
			b.WriteString("  " + strings.TrimSuffix(l, "\n") + "\n")
		}
	} else {
		b.WriteString("B instruction: v1.0 (the frozen PROMPTS.md text)\n")
	}
	section("missing identities", r.MissingIdentities)
	if d := r.NextDispatch; d != nil {
		// The budget's verdict on one more dispatch only; whether the
		// campaign is admitted is the admission line.
		state := "within the budget ceilings (budget only; campaign admission is the admission line)"
		if !d.Admitted {
			state = "PROHIBITED"
		}
		fmt.Fprintf(&b, "next dispatch: %s (%s) %s\n", state, d.Reason, d.Detail)
	}
	gl := make([]string, len(r.CostTimeGates))
	for i, g := range r.CostTimeGates {
		mark := "PASS"
		if !g.Pass {
			mark = "FAIL"
		}
		if g.Reason != "" {
			gl[i] = fmt.Sprintf("%s %s (%s): %s", mark, g.Name, g.Reason, g.Detail)
		} else {
			gl[i] = fmt.Sprintf("%s %s: %s", mark, g.Name, g.Detail)
		}
	}
	section("cost and time gates (scorecard input, decided by score)", gl)
	switch {
	case len(r.Refusals) > 0:
		b.WriteString("result: REFUSED\n")
	case r.incomplete():
		b.WriteString("result: INCOMPLETE (sessions planned, not started; not admitted for scoring)\n")
	case !r.Admitted:
		b.WriteString("result: NOT ADMITTED\n")
	default:
		b.WriteString("result: ADMITTED\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}

func count(n *int) string {
	if n == nil {
		return "unknown"
	}
	return fmt.Sprint(*n)
}
