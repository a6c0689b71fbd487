package main

import (
	"context"
	"errors"
	"os"

	"github.com/spf13/cobra"

	"verdict/campaign"
	"verdict/pipeline"
	"verdict/scorer"
	"verdict/tui"
)

func newLedgerCmd(a *app) *cobra.Command {
	var theme string
	c := &cobra.Command{
		Use:   "ledger [CAMPAIGN]",
		Short: "Inspect review-B reconciliation ledgers with their structural findings (protocol checker, read-only)",
		Long: `ledger strictly loads CAMPAIGN (default: the embedded SYNTHETIC campaign, as
verdict check) and shows, for every review-B answer, the reconciliation
obligations with their links, the evidence dispositions (E ID, status, final
IDs, whether a supporting citation exists) and the automatic structural
findings beside the rows they concern. f filters to rows with findings; e
shows the evidence excerpt with its real line numbers and the cited lines
marked. It writes nothing and never shows semantic grades.

ledger needs a terminal on standard input and output; without one it
refuses (exit 1, reason no-terminal): verdict check --format json gives the
same structural findings.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			uiOpts, err := uiOptions(a, theme)
			if err != nil {
				return err
			}
			in, err := ledgerInput(a, args)
			if err != nil {
				return err
			}
			if err := a.requireTerminal("ledger", "`verdict check --format json` for the same structural findings"); err != nil {
				return err
			}
			if err := tui.Ledger(cmd.Context(), in, uiOpts); err != nil && !errors.Is(err, context.Canceled) {
				return err
			}
			return nil
		},
	}
	addThemeFlag(c, &theme)
	return c
}

// ledgerInput strictly loads the campaign directory args[0], or with no
// argument the embedded SYNTHETIC campaign (app.embedded, the default
// of `verdict check`), and runs the structural validator over it. A path
// that is not a directory is a usage error; a campaign that does not load,
// or is not a fixed-evidence campaign (campaign.ReasonDesign), is a
// refusal.
func ledgerInput(a *app, args []string) (tui.LedgerInput, error) {
	var c *campaign.Campaign
	var err error
	if len(args) == 1 {
		st, serr := os.Stat(args[0])
		if serr != nil || !st.IsDir() {
			return tui.LedgerInput{}, usagef("ledger: %s is not a campaign directory", args[0])
		}
		// A campaign of another design is refused by its design
		// (design-unknown), not by a member its strict loader lacks.
		c, err = pipeline.LoadDir(args[0])
	} else {
		if a.embedded == nil {
			return tui.LedgerInput{}, usagef("ledger: this build has no embedded campaign; name a campaign directory")
		}
		c, err = campaign.Load(a.embedded())
	}
	if err != nil {
		return tui.LedgerInput{}, refusal(a, err)
	}
	in := tui.LedgerInput{Campaign: c}
	for _, f := range scorer.ValidateCampaign(c) {
		in.Findings = append(in.Findings, tui.Finding{Code: string(f.Code), File: f.File, Pointer: f.Pointer, Scope: string(f.Scope), Rule: f.Rule, Message: f.Message})
	}
	return in, nil
}
