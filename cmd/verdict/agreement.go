package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"verdict/adjudication"
	"verdict/blinding"
	"verdict/verr"
)

// agreementReport is what `verdict agreement` prints: the sheets and the
// one agreement definition (adjudication.AgreementOf), the same object
// report.json records under "agreement".
type agreementReport struct {
	Notice    string                 `json:"notice,omitempty"`
	Raters    [2]string              `json:"raters"`
	Sheets    [2]string              `json:"sheets_sha256"`
	Agreement adjudication.Agreement `json:"agreement"`
}

func newAgreementCmd(a *app) *cobra.Command {
	var allowed, bundle string
	c := &cobra.Command{
		Use:   "agreement SHEET SHEET [--bundle BUNDLE] --allowed-signers FILE",
		Short: "Percent agreement, Cohen's kappa and Krippendorff's alpha of two rating sheets",
		Long: `agreement compares two frozen rating sheets field by field: per grade kind,
per truth obligation (with --bundle, which groups the items that share one
frozen obligation) and over all fields, each with n. A statistic that cannot be
computed (fewer than two paired values, no variation) is shown as undefined with
its reason, never as 0. Both sheets are verified first against allowed_signers
(--allowed-signers, else the config key allowed_signers; never a file found
beside the sheets: without either, allowed-signers-missing); a sheet that does
not verify is refused.`,
		Args: cobra.ExactArgs(2),
	}
	format := formatFlag(c, "text", "json")
	c.Flags().StringVar(&bundle, "bundle", "", "a bundle of the rated content, for per-obligation agreement")
	addAllowedSignersFlag(c, &allowed, "allowed_signers file the sheets are verified against (required)")
	c.RunE = func(cmd *cobra.Command, args []string) error {
		// Statistics of sheets that do not verify are not evidence
		// (DESIGN "Signed records"): both sheets are always verified.
		allowed, err := trustedSigners(a, allowed)
		if err != nil {
			return refusal(a, err)
		}
		var given []string
		if bundle != "" {
			given = []string{bundle}
		}
		sh, err := loadFrozenSheets(a, allowed, args, given, false)
		if err != nil {
			return err
		}
		// Two sheets naming one rater or one key are never two raters.
		if a0, a1 := sh[0].Sheet.Signer, sh[1].Sheet.Signer; a0.Name == a1.Name || a0.KeyFingerprint == a1.KeyFingerprint {
			return refusal(a, verr.Newf(adjudication.ReasonSharedKey, args[1], "/signer", "DESIGN Signed records", "sheets %s and %s are signed by one rater or with one key (%s, %s)", args[0], args[1], a1.Name, a1.KeyFingerprint))
		}
		ord := adjudication.OrderSheets(sh[0], sh[1])
		if _, err := adjudication.Disagreements(ord[0].Sheet, ord[1].Sheet); err != nil {
			return refusal(a, err)
		}
		var b *blinding.Bundle
		if bundle != "" {
			var err error
			if b, _, err = blinding.LoadBundle(bundle); err != nil {
				return refusal(a, err)
			}
			if b.ContentDigest != ord[0].Sheet.ContentDigest {
				return refusal(a, fmt.Errorf("bundle %s is not the rated content", bundle))
			}
		}
		rep := agreementFor(ord, b)
		if *format == "json" {
			return writeJSON(a.stdout, rep)
		}
		printAgreement(a.stdout, rep)
		return nil
	}
	return c
}

// agreementFor computes the report of two ordered sheets; with a bundle
// it groups the obligation fields by frozen obligation.
func agreementFor(ord [2]adjudication.FrozenSheet, b *blinding.Bundle) agreementReport {
	rep := agreementReport{Raters: [2]string{ord[0].Sheet.Signer.Name, ord[1].Sheet.Signer.Name}, Sheets: [2]string{ord[0].SHA256, ord[1].SHA256}}
	rep.Notice = syntheticNotice(ord[0].Sheet.Synthetic)
	var group adjudication.ObligationGroup
	if b != nil {
		group = obligationKeys(b)
	}
	rep.Agreement = adjudication.AgreementOf(ord[0].Sheet.Grades, ord[1].Sheet.Grades, group)
	return rep
}

// obligationKeys groups the items that share one frozen obligation: the
// key is the obligation ID plus the SHA-256 of its canonical JSON, so the
// same obligation of the same task groups across that task's items.
func obligationKeys(b *blinding.Bundle) adjudication.ObligationGroup {
	keys := map[[2]string][2]string{}
	if b != nil {
		for _, it := range b.Items {
			for _, o := range it.Obligations {
				data, _ := blinding.MarshalCanonical(o)
				text := o.Text
				if r := []rune(text); len(r) > 60 {
					text = string(r[:60]) + "…"
				}
				keys[[2]string{it.ID, o.ID}] = [2]string{o.ID + "@" + blinding.Digest(data)[:12], text}
			}
		}
	}
	return func(f adjudication.Field) (string, string) {
		k := keys[[2]string{f.Item, f.Target}]
		return k[0], k[1]
	}
}

func printAgreement(w io.Writer, rep agreementReport) {
	if rep.Notice != "" {
		fmt.Fprintln(w, rep.Notice)
	}
	ag := rep.Agreement
	fmt.Fprintf(w, "agreement between %s and %s\n(%s)\n", rep.Raters[0], rep.Raters[1], ag.FieldsCounted)
	row := func(r adjudication.AgreementRow) {
		name := r.Group
		if r.Label != "" {
			name += " " + fmt.Sprintf("%q", r.Label)
		}
		fmt.Fprintf(w, "%s  fields=%d\n    percent agreement  %s\n    Cohen's kappa      %s\n    Krippendorff alpha %s\n",
			name, r.Fields, r.Percent, r.Kappa, r.Alpha)
	}
	fmt.Fprintln(w, "\nper grade kind:")
	for _, r := range ag.ByKind {
		row(r)
	}
	fmt.Fprintln(w, "\noracle-defect flags (not among all fields):")
	row(ag.OracleDefect)
	fmt.Fprintln(w, "\nper obligation:")
	if len(ag.ByObligation) == 0 {
		fmt.Fprintln(w, "  (give --bundle to group fields by frozen obligation)")
	}
	for _, r := range ag.ByObligation {
		row(r)
	}
	fmt.Fprintln(w, "\n"+strings.Repeat("-", 20))
	row(ag.All)
}
