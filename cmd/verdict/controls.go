package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"verdict/campaign"
	"verdict/fixtures"
	"verdict/scorer"
)

func newControlsCmd(a *app) *cobra.Command {
	c := &cobra.Command{
		Use:   "controls",
		Short: "Run every control C01–C23 and every mutation through check and score; print expected and observed results",
		Long: `controls runs the expected-result table of EVALUATOR-CONTROLS (package
fixtures): the passing SYNTHETIC campaign, every control C01–C23 (with the
variants of C17 and C18) and every mutation of the passing campaign. Each
row runs through the same functions as ` + "`verdict check`" + ` and ` + "`verdict score`" + `
(signed TEST ONLY ratings are written to a temporary directory and removed
afterwards) and must produce exactly its expected reason codes: the
intended failure and nothing else. The passing campaign must pass (a
verifier that rejects everything fails this command).

For each row it prints the control, the expected structural and semantic
results, the expected and observed codes, the owning control and PASS or
FAIL.

Exit status: 0 when every row behaves as specified; 1 otherwise; 2 usage error.`,
		Args: cobra.NoArgs,
	}
	format := formatFlag(c, "text", "json")
	c.RunE = func(cmd *cobra.Command, args []string) error {
		return runControls(a, fixtures.PipelineEvaluator{}, *format)
	}
	return c
}

// controlsOutput is what `verdict controls --format json` prints.
type controlsOutput struct {
	Notice string `json:"notice"`
	// Pass is true when every row behaved as specified.
	Pass bool `json:"pass"`
	// PassingCampaignPasses reports the row PASS separately: a verifier
	// that rejects everything fails it.
	PassingCampaignPasses bool                     `json:"passing_campaign_passes"`
	Rows                  int                      `json:"rows"`
	Failed                []string                 `json:"failed"`
	Results               []fixtures.ControlResult `json:"results"`
}

// runControls runs the control suite with ev and prints the result.
func runControls(a *app, ev fixtures.Evaluator, format string) error {
	work, err := os.MkdirTemp("", "verdict-controls-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	res, err := fixtures.RunControls(ev, work)
	if err != nil {
		return err
	}
	out := controlsOutput{Notice: scorer.SyntheticNotice, Pass: true, Rows: len(res), Failed: []string{}, Results: res}
	for _, r := range res {
		if !r.Pass {
			out.Pass = false
			out.Failed = append(out.Failed, r.Row.ID)
		}
		if r.Row.Kind == fixtures.KindPassing {
			out.PassingCampaignPasses = r.Pass
		}
	}
	if format == "json" {
		b, err := campaign.MarshalJSON(out)
		if err != nil {
			return err
		}
		if _, err := a.stdout.Write(b); err != nil {
			return err
		}
	} else if err := writeControlsText(a.stdout, out); err != nil {
		return err
	}
	if !out.PassingCampaignPasses {
		return failed("controls: the passing campaign does not pass (a verifier that rejects everything is not acceptable)")
	}
	if !out.Pass {
		return failed("controls: %d of %d rows did not behave as specified: %s", len(out.Failed), out.Rows, strings.Join(out.Failed, ", "))
	}
	return nil
}

func writeControlsText(w io.Writer, out controlsOutput) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n\n", out.Notice)
	list := func(xs []string) string {
		if len(xs) == 0 {
			return "(none)"
		}
		return strings.Join(xs, " ")
	}
	for _, r := range out.Results {
		mark := "PASS"
		if !r.Pass {
			mark = "FAIL"
		}
		fmt.Fprintf(&b, "%s  %-26s owning control %-5s %s\n", mark, r.Row.ID, r.Row.Control, r.Row.Kind)
		fmt.Fprintf(&b, "      specimen:            %s\n", r.Row.Specimen)
		fmt.Fprintf(&b, "      expected structural: %s\n", r.Row.Structural)
		fmt.Fprintf(&b, "      expected semantic:   %s\n", r.Row.Semantic)
		fmt.Fprintf(&b, "      entry point:         %s\n", r.Row.Exercise)
		fmt.Fprintf(&b, "      expected codes:      %s\n", list(r.Row.Expect))
		fmt.Fprintf(&b, "      result:              %s\n", list(r.Observed))
		if !r.Pass {
			fmt.Fprintf(&b, "      missing:             %s\n      unexpected:          %s\n", list(r.Missing), list(r.Unexpected))
		}
	}
	passing := "passes"
	if !out.PassingCampaignPasses {
		passing = "DOES NOT PASS"
	}
	fmt.Fprintf(&b, "\npassing campaign: %s\n", passing)
	fmt.Fprintf(&b, "rows: %d, behaving as specified: %d, not: %d %s\n", out.Rows, out.Rows-len(out.Failed), len(out.Failed), list(out.Failed))
	_, err := io.WriteString(w, b.String())
	return err
}
