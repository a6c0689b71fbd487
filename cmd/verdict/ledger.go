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

A system comparison (CONTRACT §6) whose first experiment selected review B
shows every workflow's review, its ledger checked against that workflow's
own raw-observation packet E1..EN; e shows the returned observation bytes
(numbered from 1: a citation's lines are the repository's, not marked
there). One whose selected review is A writes no ledger and is refused
(exit 1, reason ledger-review-a).

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
// that is not a directory is a usage error; a campaign that does not load
// is a refusal. A fixed-evidence campaign shows its review-b sessions
// with ValidateCampaign's findings; a system comparison whose first
// experiment selected review B shows every workflow's review over its own
// raw-observation packet with its ledger findings and refusals
// (scorer.SystemLedgerFindings), its final-answer findings
// (scorer.SystemFinalFindings) and its citation findings; one whose
// selected review is A writes no ledger and is refused
// (scorer.ReasonLedgerReviewA, from its design's Ledgers).
func ledgerInput(a *app, args []string) (tui.LedgerInput, error) {
	var l campaign.Loaded
	var d scorer.Design
	var err error
	if len(args) == 1 {
		st, serr := os.Stat(args[0])
		if serr != nil || !st.IsDir() {
			return tui.LedgerInput{}, usagef("ledger: %s is not a campaign directory", args[0])
		}
		l, d, err = pipeline.LoadDesign(args[0])
	} else {
		if a.embedded == nil {
			return tui.LedgerInput{}, usagef("ledger: this build has no embedded campaign; name a campaign directory")
		}
		var c *campaign.Campaign
		if c, err = campaign.Load(a.embedded()); err == nil {
			l, d = c, nil
		}
	}
	if err != nil {
		return tui.LedgerInput{}, refusal(a, err)
	}
	if d != nil {
		// The design's own ledgers: a system comparison whose selected
		// review is A has none and is refused here.
		if _, err := d.Ledgers(l); err != nil {
			return tui.LedgerInput{}, refusal(a, err)
		}
	}
	if s, ok := l.(*scorer.SystemLoaded); ok {
		return systemLedgerInput(s)
	}
	c := l.(*campaign.Campaign)
	in := tui.LedgerInput{Campaign: c}
	for _, f := range scorer.ValidateCampaign(c) {
		in.Findings = append(in.Findings, tuiFinding(f))
	}
	return in, nil
}

// systemLedgerInput is the ledger screen's input for a review-B system
// comparison: its ledger findings (protocol scope), final-answer findings
// and citation findings (final scope), each beside its review.
func systemLedgerInput(s *scorer.SystemLoaded) (tui.LedgerInput, error) {
	in := tui.LedgerInput{System: s.SystemCampaign}
	found, _ := scorer.SystemLedgerFindings(s.SystemCampaign)
	for _, f := range append(scorer.SystemFinalFindings(s.SystemCampaign), found...) {
		in.Findings = append(in.Findings, tuiFinding(f))
	}
	cites, err := scorer.SystemCitationFindings(s.SystemCampaign, s.FS)
	if err != nil {
		return tui.LedgerInput{}, err
	}
	for _, e := range cites {
		in.Findings = append(in.Findings, tui.Finding{Code: string(e.Reason), File: e.File, Pointer: e.Pointer, Scope: string(scorer.ScopeFinal), Rule: e.Rule, Message: e.Detail})
	}
	return in, nil
}

// tuiFinding is a structural finding as the ledger screen shows it.
func tuiFinding(f scorer.Finding) tui.Finding {
	return tui.Finding{Code: string(f.Code), File: f.File, Pointer: f.Pointer, Scope: string(f.Scope), Rule: f.Rule, Message: f.Message}
}
