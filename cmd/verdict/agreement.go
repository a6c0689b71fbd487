package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"verdict/adjudication"
	"verdict/blinding"
	"verdict/campaign"
)

func init() { register(newAgreementCmd) }

// agreementRow is one group of fields (a grade kind, an obligation, or all
// fields) with its three statistics.
type agreementRow struct {
	Group       string                 `json:"group"`
	Label       string                 `json:"label,omitempty"`
	Fields      int                    `json:"fields"`
	Percent     adjudication.Statistic `json:"percent_agreement"`
	Kappa       adjudication.Statistic `json:"cohens_kappa"`
	Alpha       adjudication.Statistic `json:"krippendorff_alpha_nominal"`
	groupValues [2][]string
}

type agreementReport struct {
	Notice       string         `json:"notice,omitempty"`
	Raters       [2]string      `json:"raters"`
	Sheets       [2]string      `json:"sheets_sha256"`
	ByKind       []agreementRow `json:"by_kind"`
	ByObligation []agreementRow `json:"by_obligation"`
	All          agreementRow   `json:"all_fields"`
}

// notFlagged stands for "no oracle-defect flag" when agreement on the
// oracle_defect kind is computed over every obligation of every item.
const notFlagged = "not_flagged"

func newAgreementCmd(a *app) *cobra.Command {
	var allowed, bundle string
	c := &cobra.Command{
		Use:   "agreement SHEET SHEET [--bundle BUNDLE] [--allowed-signers FILE]",
		Short: "Percent agreement, Cohen's kappa and Krippendorff's alpha of two rating sheets",
		Long: `agreement compares two frozen rating sheets field by field: per grade kind,
per truth obligation (with --bundle, which groups the items that share one
frozen obligation) and over all fields, each with n. A statistic that cannot be
computed (fewer than two paired values, no variation) is shown as undefined with
its reason, never as 0. With --allowed-signers the sheets are verified first.`,
		Args: cobra.ExactArgs(2),
	}
	format := formatFlag(c, "text", "json")
	c.Flags().StringVar(&bundle, "bundle", "", "a bundle of the rated content, for per-obligation agreement")
	c.Flags().StringVar(&allowed, "allowed-signers", "", "verify both sheets against this allowed_signers file first")
	c.RunE = func(cmd *cobra.Command, args []string) error {
		var fs [2]adjudication.FrozenSheet
		if allowed != "" {
			var err error
			if fs, err = loadFrozenSheets(a, allowed, args); err != nil {
				return err
			}
		} else {
			for i, p := range args {
				data, err := campaign.ReadRegular(p, campaign.FileRecord)
				if err != nil {
					return err
				}
				s, err := adjudication.ParseSheet(p, data)
				if err != nil {
					return refusal(a, err)
				}
				fs[i] = adjudication.FrozenSheet{Sheet: s, SHA256: blinding.Digest(data)}
			}
			// Without allowed_signers the signers are unverified, but two
			// sheets naming one rater or one key are never two raters.
			if a0, a1 := fs[0].Sheet.Signer, fs[1].Sheet.Signer; a0.Name == a1.Name || a0.KeyFingerprint == a1.KeyFingerprint {
				return refusal(a, &campaign.Error{Reason: adjudication.ReasonSharedKey, File: args[1], Pointer: "/signer", Rule: "DESIGN Signed records",
					Detail: fmt.Sprintf("sheets %s and %s are signed by one rater or with one key (%s, %s)", args[0], args[1], a1.Name, a1.KeyFingerprint)})
			}
		}
		ord := adjudication.OrderSheets(fs[0], fs[1])
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

// agreementFor computes the report; pairs are over the union of both
// sheets' fields in canonical order. oracle_defect is compared over every
// obligation of every item (absent flag = not_flagged).
func agreementFor(ord [2]adjudication.FrozenSheet, b *blinding.Bundle) agreementReport {
	rep := agreementReport{Raters: [2]string{ord[0].Sheet.Signer.Name, ord[1].Sheet.Signer.Name}, Sheets: [2]string{ord[0].SHA256, ord[1].SHA256}}
	rep.Notice = syntheticNotice(ord[0].Sheet.Synthetic)
	va, vb := ord[0].Sheet.Values(), ord[1].Sheet.Values()
	var fields []adjudication.Field
	for f := range va {
		if f.Kind != adjudication.KindOracleDefect {
			fields = append(fields, f)
		}
	}
	for f := range vb {
		if _, ok := va[f]; !ok && f.Kind != adjudication.KindOracleDefect {
			fields = append(fields, f)
		}
	}
	// Oracle-defect fields: every obligation target of every item.
	for _, f := range slices.Clone(fields) {
		if f.Kind == adjudication.KindObligation || f.Kind == adjudication.KindUncertainty {
			fields = append(fields, adjudication.Field{Item: f.Item, Kind: adjudication.KindOracleDefect, Target: f.Target})
		}
	}
	slices.SortFunc(fields, adjudication.CompareFields)
	value := func(m map[adjudication.Field]adjudication.Grade, f adjudication.Field) string {
		g, ok := m[f]
		if f.Kind == adjudication.KindOracleDefect && (!ok || g.Value == "") {
			return notFlagged
		}
		return g.Value
	}
	byKind := map[adjudication.Kind]*agreementRow{}
	byOb := map[string]*agreementRow{}
	var obOrder []string
	rep.All.Group = "all"
	obKey := obligationKeys(b)
	for _, f := range fields {
		x, y := value(va, f), value(vb, f)
		add := func(r *agreementRow) {
			r.Fields++
			r.groupValues[0] = append(r.groupValues[0], x)
			r.groupValues[1] = append(r.groupValues[1], y)
		}
		r := byKind[f.Kind]
		if r == nil {
			r = &agreementRow{Group: string(f.Kind)}
			byKind[f.Kind] = r
		}
		add(r)
		add(&rep.All)
		if b != nil && (f.Kind == adjudication.KindObligation || f.Kind == adjudication.KindUncertainty) {
			k, label := obKey(f)
			o := byOb[k]
			if o == nil {
				o = &agreementRow{Group: k, Label: label}
				byOb[k] = o
				obOrder = append(obOrder, k)
			}
			add(o)
		}
	}
	for _, k := range adjudication.Kinds {
		if r := byKind[k]; r != nil {
			rep.ByKind = append(rep.ByKind, finish(*r))
		}
	}
	slices.Sort(obOrder)
	for _, k := range obOrder {
		rep.ByObligation = append(rep.ByObligation, finish(*byOb[k]))
	}
	if rep.ByObligation == nil {
		rep.ByObligation = []agreementRow{}
	}
	rep.All = finish(rep.All)
	return rep
}

func finish(r agreementRow) agreementRow {
	a, b := r.groupValues[0], r.groupValues[1]
	r.Percent = adjudication.PercentAgreement(a, b)
	r.Kappa = adjudication.CohensKappa(a, b)
	units := make([][]string, len(a))
	for i := range a {
		units[i] = []string{a[i], b[i]}
	}
	r.Alpha = adjudication.KrippendorffAlphaNominal(units)
	return r
}

// obligationKeys groups the items that share one frozen obligation: the
// key is the obligation ID plus the SHA-256 of its canonical JSON, so the
// same obligation of the same task groups across that task's items.
func obligationKeys(b *blinding.Bundle) func(adjudication.Field) (string, string) {
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

func statText(s adjudication.Statistic) string {
	if !s.Defined {
		return fmt.Sprintf("undefined (%s; n=%d)", s.Reason, s.N)
	}
	return fmt.Sprintf("%.3f (n=%d)", s.Value, s.N)
}

func printAgreement(w io.Writer, rep agreementReport) {
	if rep.Notice != "" {
		fmt.Fprintln(w, rep.Notice)
	}
	fmt.Fprintf(w, "agreement between %s and %s\n", rep.Raters[0], rep.Raters[1])
	row := func(r agreementRow) {
		name := r.Group
		if r.Label != "" {
			name += " " + fmt.Sprintf("%q", r.Label)
		}
		fmt.Fprintf(w, "%s  fields=%d\n    percent agreement  %s\n    Cohen's kappa      %s\n    Krippendorff alpha %s\n",
			name, r.Fields, statText(r.Percent), statText(r.Kappa), statText(r.Alpha))
	}
	fmt.Fprintln(w, "\nper grade kind:")
	for _, r := range rep.ByKind {
		row(r)
	}
	fmt.Fprintln(w, "\nper obligation:")
	if len(rep.ByObligation) == 0 {
		fmt.Fprintln(w, "  (give --bundle to group fields by frozen obligation)")
	}
	for _, r := range rep.ByObligation {
		row(r)
	}
	fmt.Fprintln(w, "\n"+strings.Repeat("-", 20))
	row(rep.All)
}
