package main

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"verdict/campaign"
	"verdict/fixtures"
	"verdict/scorer"
)

// newFixturesCmd is `verdict fixtures`, the SYNTHETIC fixture tools.
func newFixturesCmd(a *app) *cobra.Command {
	c := &cobra.Command{
		Use:   "fixtures",
		Short: "SYNTHETIC fixture campaigns: generate large structurally valid campaigns for benchmarks",
	}
	c.AddCommand(newFixturesGenerateCmd(a))
	return c
}

// newFixturesGenerateCmd is `verdict fixtures generate --tasks N
// --repetitions R --out DIR [--passing] [--specimen ID]`: it writes a
// SYNTHETIC campaign of N tasks × R repetitions × 3 sessions to DIR.
func newFixturesGenerateCmd(a *app) *cobra.Command {
	var (
		tasks, reps int
		out         string
		passing     bool
		specimen    string
		design      string
		outcome     string
		review      string
	)
	c := &cobra.Command{
		Use:   "generate --out DIR [--design fixed-evidence|system-comparison [--outcome DECISION] [--review review-a|review-b]] [--tasks N] [--repetitions R] [--passing] [--specimen ID]",
		Short: "Write a SYNTHETIC campaign (N tasks × R repetitions × 3 sessions) to DIR",
		Long: "Writes a deterministic SYNTHETIC campaign. More than 8 tasks cycle the eight task templates over\n" +
			"further synthetic repositories (e.g. --tasks 1112 --repetitions 3 gives 10,008 sessions). Without\n" +
			"--passing the default specimen sessions (C09, C12, C13, C14, C16) are mixed in where they fit: each\n" +
			"changes one task template's run at one repetition (C12 and C14 repetition 1, C09 repetition 2, C13\n" +
			"repetition 3, C16 repetitions 2 and 3), so fewer than 8 tasks or 3 repetitions leave out the\n" +
			"specimens whose run is missing; the command lists those it placed. --specimen applies one control\n" +
			"specimen to the passing campaign and is refused (exit 2) when its run is missing; every specimen fits\n" +
			"8 or more tasks × 3 or more repetitions. DIR must not exist or be empty (otherwise refused:\n" +
			"output-not-empty, exit 1). The campaign appears whole: it is written into a staging directory\n" +
			"beside DIR and renamed into place as one; a second generate to DIR while one runs is refused\n" +
			"(output-locked), and what a killed run left beside DIR is removed by the next.\n\n" +
			"--design system-comparison writes the SYNTHETIC system comparison of CONTRACT §6 instead: three\n" +
			"systems (Native, Madar, Serena) with the contract's frozen provider identities, six tasks from three\n" +
			"repositories, two repetitions, 36 workflows in balanced provider order, observation logs, packets built\n" +
			"by the neutral packetizer and setup.json; `verdict check` admits it. --review names the review\n" +
			"instruction the first experiment selected, the same for every system: review-b (the default) writes\n" +
			"a valid reconciliation ledger over each workflow's packet E1..EN, review-a writes none.\n\n" +
			systemOutcomeHelp + "\n\n" +
			"Every campaign written is structurally valid (check refuses none of it), but check admits only\n" +
			"the evaluation shape of 8 tasks × 3 repetitions: other shapes are for benchmarks and fail\n" +
			"admission, as does, by design, a specimen that makes the execution invalid (e.g. C17).\n\n" +
			"Specimen IDs (each named after the EVALUATOR-CONTROLS check it exercises; C18 means C18-equal):\n  " +
			strings.Join(fixtures.SpecimenIDs(), ", "),
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if out == "" {
				return usagef("--out DIR is required")
			}
			o, err := systemOutcomeFlag(cmd, design, outcome)
			if err != nil {
				return err
			}
			switch campaign.Design(design) {
			case campaign.DesignFixedEvidence:
			case campaign.DesignSystemComparison:
				for _, f := range []string{"tasks", "repetitions", "passing", "specimen"} {
					if cmd.Flags().Changed(f) {
						return usagef("--%s does not apply to --design system-comparison (its shape is fixed: CONTRACT §6)", f)
					}
				}
				if review != string(campaign.RoleReviewA) && review != string(campaign.RoleReviewB) {
					return usagef("--review %q: review-a or review-b", review)
				}
				return generateSystemComparison(a, out, o, campaign.Role(review))
			default:
				return usagef("--design %q: fixed-evidence or system-comparison", design)
			}
			if cmd.Flags().Changed("review") {
				return usagef("--review applies only to --design system-comparison (a fixed-evidence campaign runs both reviews)")
			}
			if tasks < 1 || reps < 1 {
				return usagef("--tasks and --repetitions must be positive")
			}
			start := time.Now()
			opts := fixtures.Options{Passing: passing, Specimen: specimen, Tasks: tasks, Repetitions: reps}
			placed, err := fixtures.PlacedSpecimens(opts)
			if err != nil {
				return usagef("%v", err)
			}
			fsys, err := fixtures.Generate(opts)
			if err != nil {
				return usagef("%v", err)
			}
			if err := writeOutputDir(a, out, func(dir string) error { return fixtures.WriteDir(fsys, dir) }); err != nil {
				return err
			}
			abs, _ := filepath.Abs(out)
			fmt.Fprintf(a.stdout, "SYNTHETIC campaign written: %d tasks × %d repetitions = %d sessions, %d files, %s (%s)\n",
				tasks, reps, tasks*reps*3, len(fsys), abs, time.Since(start).Round(time.Millisecond))
			if !passing || specimen != "" {
				list := strings.Join(placed, ", ")
				if list == "" {
					list = "none (this shape lacks every default specimen's run)"
				}
				fmt.Fprintf(a.stdout, "specimens placed: %s\n", list)
			}
			return nil
		},
	}
	c.Flags().IntVar(&tasks, "tasks", 8, "number of tasks (templates cycle over further synthetic repositories)")
	c.Flags().IntVar(&reps, "repetitions", 3, "repetitions per task")
	c.Flags().StringVar(&out, "out", "", "output directory (created; must be empty)")
	c.Flags().BoolVar(&passing, "passing", false, "write the passing campaign without specimen sessions")
	c.Flags().StringVar(&design, "design", string(campaign.DesignFixedEvidence), "campaign design: fixed-evidence or system-comparison (CONTRACT §6: 6 tasks, 36 workflows, 72 sessions)")
	c.Flags().StringVar(&review, "review", string(campaign.RoleReviewB), "system comparison: the review the first experiment selected, review-a or review-b (CONTRACT §6)")
	c.Flags().StringVar(&specimen, "specimen", "", "apply one control specimen (ID listed above, e.g. C09) to the passing campaign")
	addOutcomeFlag(c, &outcome)
	return c
}

// systemOutcomeHelp says what --outcome does, for generate and demo.
var systemOutcomeHelp = "--outcome DECISION (system comparison only) builds the SYNTHETIC answers and\n" +
	"charges so that check, blinding, grading from the fixture's answer key and\n" +
	"score reach that CONTRACT §6 decision: " + strings.Join(fixtures.SystemOutcomeNames(), ", ") + ".\n" +
	"The default, " + string(fixtures.DefaultSystemOutcome) + ", is the campaign written without the flag.\n" +
	"Another decision, or --outcome with the fixed-evidence design, is a usage error (exit 2)."

// addOutcomeFlag declares --outcome on c.
func addOutcomeFlag(c *cobra.Command, outcome *string) {
	c.Flags().StringVar(outcome, "outcome", string(fixtures.DefaultSystemOutcome),
		"with --design system-comparison: the CONTRACT §6 decision the SYNTHETIC campaign is built to reach ("+strings.Join(fixtures.SystemOutcomeNames(), "|")+")")
}

// systemOutcomeFlag checks --outcome against --design: a usage error when
// it names no CONTRACT §6 decision, or is given with another design.
func systemOutcomeFlag(cmd *cobra.Command, design, outcome string) (scorer.DecisionKind, error) {
	if !cmd.Flags().Changed("outcome") {
		return fixtures.DefaultSystemOutcome, nil
	}
	if campaign.Design(design) != campaign.DesignSystemComparison {
		return "", usagef("--outcome applies only to --design %s (the fixed-evidence campaign has its own decision)", campaign.DesignSystemComparison)
	}
	if !slices.Contains(fixtures.SystemOutcomeNames(), outcome) {
		return "", usagef("--outcome %q: want one of %s (CONTRACT §6)", outcome, strings.Join(fixtures.SystemOutcomeNames(), ", "))
	}
	return scorer.DecisionKind(outcome), nil
}

// generateSystemComparison writes to out the SYNTHETIC system comparison
// built to reach outcome, whose selected review is review.
func generateSystemComparison(a *app, out string, outcome scorer.DecisionKind, review campaign.Role) error {
	fsys, err := fixtures.GenerateSystemComparison(fixtures.SystemOptions{Outcome: outcome, Review: review})
	if err != nil {
		return err
	}
	if err := writeOutputDir(a, out, func(dir string) error { return fixtures.WriteDir(fsys, dir) }); err != nil {
		return err
	}
	abs, _ := filepath.Abs(out)
	fmt.Fprintf(a.stdout, "SYNTHETIC system-comparison campaign written: %d tasks × %d repetitions × 3 systems = %d workflows, %d sessions, %d files, %s\n",
		campaign.SystemTasks, campaign.SystemRepetitions, campaign.SystemWorkflows, campaign.SystemPlannedSessions, len(fsys), abs)
	if outcome != fixtures.DefaultSystemOutcome {
		fmt.Fprintf(a.stdout, "built to reach the CONTRACT §6 decision: %s\n", outcome)
	}
	if review == campaign.RoleReviewA {
		fmt.Fprintf(a.stdout, "selected review: %s (no reconciliation ledgers)\n", review)
	}
	return nil
}
