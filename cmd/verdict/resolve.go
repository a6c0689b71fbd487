package main

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"verdict/adjudication"
	"verdict/blinding"
	"verdict/campaign"
	"verdict/verr"
)

// loadFrozenSheets reads two sheets with their signatures and verifies them
// against allowed_signers and their bundles (sheetBundles: bundles given
// or beside the sheets; with required a sheet's bundle must be found): a
// sheet that does not verify is not frozen.
func loadFrozenSheets(a *app, allowedPath string, paths, bundles []string, required bool) ([2]adjudication.FrozenSheet, error) {
	out, _, _, err := loadFrozenSheetFiles(a, allowedPath, paths, bundles, required)
	return out, err
}

// loadDisputes is loadFrozenSheets followed by the sheets'
// disagreements, in the sheets' order as given.
func loadDisputes(a *app, allowedPath string, paths, bundles []string, required bool) ([2]adjudication.FrozenSheet, []adjudication.Disagreement, error) {
	fs, err := loadFrozenSheets(a, allowedPath, paths, bundles, required)
	if err != nil {
		return fs, nil, err
	}
	ds, err := adjudication.Disagreements(fs[0].Sheet, fs[1].Sheet)
	if err != nil {
		return fs, nil, refusal(a, err)
	}
	return fs, ds, nil
}

// loadFrozenSheetFiles is loadFrozenSheets that also returns the parsed
// allowed_signers and the sheets' record files (bytes and signatures).
func loadFrozenSheetFiles(a *app, allowedPath string, paths, bundles []string, required bool) ([2]adjudication.FrozenSheet, []adjudication.AllowedSigner, []adjudication.RecordFile, error) {
	var out [2]adjudication.FrozenSheet
	allowed, err := adjudication.LoadAllowedSigners(allowedPath)
	if err != nil {
		return out, nil, nil, refusal(a, err)
	}
	var files []adjudication.RecordFile
	for _, p := range paths {
		f, err := adjudication.ReadRecordFile(p)
		if err != nil {
			return out, nil, nil, err
		}
		files = append(files, f)
	}
	bs, err := sheetBundles(bundles, files, required)
	if err != nil {
		return out, nil, nil, refusal(a, err)
	}
	checks := adjudication.Verify(allowed, files, adjudication.VerifyOptions{Bundles: bs})
	for i, ch := range checks {
		if !ch.OK {
			return out, nil, nil, refusal(a, &verr.Error{Reason: ch.Reason, File: ch.File, Pointer: ch.Pointer, Rule: "DESIGN Signed records", Detail: "not a frozen sheet: " + ch.Detail})
		}
		if ch.Kind != "sheet" {
			return out, nil, nil, refusal(a, &verr.Error{Reason: ReasonNotASheet, File: ch.File, Rule: "DESIGN Signed records", Detail: fmt.Sprintf("a %s, not a rating sheet", ch.Kind)})
		}
		s, err := adjudication.ParseSheet(ch.File, files[i].Data)
		if err != nil {
			return out, nil, nil, refusal(a, err)
		}
		out[i] = adjudication.FrozenSheet{Sheet: s, SHA256: ch.SHA256}
	}
	return out, allowed, files, nil
}

// ReasonNotASheet: a record given where a rating sheet is needed is
// another kind of record (an adjudication or a reveal).
const ReasonNotASheet verr.Reason = "not-a-sheet"

// signedRecordResult turns an error of adjudication.SignCheckWrite into the command's
// result: a refusal prints one "REFUSED:" line and exits 1 with its reason.
func signedRecordResult(a *app, err error) error {
	var r *adjudication.RecordRefusal
	if errors.As(err, &r) {
		return refusal(a, &verr.Error{Reason: verr.Reason(r.Reason), File: r.Out, Rule: "DESIGN Signed records", Detail: "would not verify, nothing written: " + r.Detail})
	}
	return refusal(a, err)
}

// ratingLabels name the two sheets as adjudication shows them: by the
// order the SHEET arguments were given, never by rater.
var ratingLabels = [2]string{"first rating", "second rating"}

// disagreementsReport is the --format json output of disagreements: the
// SYNTHETIC notice for synthetic sheets (DESIGN "Defaults and embedded
// input"), the labels of the two sheets in the order given (Values[i] and
// Notes[i] are Ratings[i]'s), the raters' names only with --show-raters
// (adjudication is blind to who rated what), and every disputed field in
// canonical field order.
type disagreementsReport struct {
	Notice        string                      `json:"notice,omitempty"`
	Synthetic     bool                        `json:"synthetic"`
	Ratings       [2]string                   `json:"ratings"`
	Raters        *[2]string                  `json:"raters,omitempty"`
	Disagreements []adjudication.Disagreement `json:"disagreements"`
}

func newDisagreementsCmd(a *app) *cobra.Command {
	var allowed string
	var showRaters bool
	var bundles []string
	c := &cobra.Command{
		Use:   "disagreements SHEET SHEET --allowed-signers FILE [--show-raters]",
		Short: "List the disputed fields of two frozen rating sheets",
		Long: `disagreements verifies both sheets against allowed_signers and lists every
disputed field with the two values as "first rating" and "second rating", in
the order the SHEET arguments are given. Adjudication is blind to who rated
what, so the raters' names are not shown; --show-raters (for the
coordinator) adds them, in text and in JSON ("raters").

Each rater's note is shown as written, never changed, and scanned with the
leak scan's rules (the arm, cost and token-count vocabulary blind looks for
in answers): every finding is listed under its note ("leak scan: KIND
"TOKEN" (RULE)"; in JSON, note_findings[i] beside notes[i]), so the
adjudicator knows a note may reveal an arm before weighing it.

allowed_signers is --allowed-signers, else the config key allowed_signers,
never a file found beside the sheets (whoever can write a sheet there could
write a key too); with neither, allowed-signers-missing.`,
		Args: cobra.ExactArgs(2),
	}
	format := formatFlag(c, "text", "json")
	c.Flags().BoolVar(&showRaters, "show-raters", false, "also show which rater signed each sheet (coordinator only; adjudication is blind to raters)")
	c.Flags().StringArrayVar(&bundles, "bundle", nil, "bundle a sheet is for (repeatable; default: the bundle-*.json files beside the sheets); each sheet is checked against its bundle")
	addAllowedSignersFlag(c, &allowed, "allowed_signers file (required)")
	c.RunE = func(cmd *cobra.Command, args []string) error {
		allowed, err := trustedSigners(a, allowed)
		if err != nil {
			return refusal(a, err)
		}
		// Sheet order as given: the labels say nothing about the raters.
		fs, ds, err := loadDisputes(a, allowed, args, bundles, false)
		if err != nil {
			return err
		}
		if ds == nil {
			ds = []adjudication.Disagreement{}
		}
		raters := [2]string{fs[0].Sheet.Signer.Name, fs[1].Sheet.Signer.Name}
		synthetic := fs[0].Sheet.Synthetic || fs[1].Sheet.Synthetic
		if *format == "json" {
			rep := disagreementsReport{Synthetic: synthetic, Ratings: ratingLabels, Disagreements: ds}
			if showRaters {
				rep.Raters = &raters
			}
			if rep.Synthetic {
				rep.Notice = blinding.SyntheticNotice
			}
			return writeJSON(a.stdout, rep)
		}
		if synthetic {
			fmt.Fprintln(a.stdout, blinding.SyntheticNotice)
		}
		labels := ratingLabels
		if showRaters {
			for i := range labels {
				labels[i] += " (" + raters[i] + ")"
			}
		}
		fmt.Fprintf(a.stdout, "%d disputed field(s) between the %s and the %s (sheet order as given)\n", len(ds), labels[0], labels[1])
		for _, d := range ds {
			fmt.Fprintf(a.stdout, "  %s: %s=%q %s=%q\n", d.Field, labels[0], d.Values[0], labels[1], d.Values[1])
			for i, n := range d.Notes {
				if n != "" {
					fmt.Fprintf(a.stdout, "    note of the %s: %q\n", labels[i], n)
				}
				for _, f := range d.NoteFindings[i] {
					fmt.Fprintf(a.stdout, "      leak scan: %s %q (%s)\n", f.Kind, f.Token, f.Rule)
				}
			}
		}
		return nil
	}
	return c
}

func newResolveCmd(a *app) *cobra.Command {
	var allowed, from, out string
	var template bool
	var bundles []string
	var sf signingFlags
	c := &cobra.Command{
		Use:   "resolve SHEET SHEET --from CHOICES.json --allowed-signers FILE --key KEYFILE --name NAME --out ADJUDICATION.json",
		Short: "Record the adjudication of two frozen sheets from a file (non-interactive adjudicate)",
		Long: `resolve reads CHOICES.json, a JSON array of {"item","kind","target","final","note"},
one per disputed field (see "verdict disagreements"), and writes the signed
adjudication (namespace verdict-adjudication). A final value neither rater chose
needs a note; confirming an oracle defect needs a reason note. Both sheets must
verify against allowed_signers and against their bundles (--bundle, else the
bundle-*.json files beside the sheets; refused bundle-missing when not found):
every grade names an item and field of its bundle and every required field
has a grade (sheet-incomplete). allowed_signers is --allowed-signers, else
the config key allowed_signers, never a file found beside the sheets; with
neither, allowed-signers-missing.

resolve SHEET SHEET --template --allowed-signers FILE [--out CHOICES.json]
writes that choices file for the open disputes instead (to stdout without
--out; an existing --out file is never replaced, the file appears whole and a
second writer of it is refused, output-locked): every disputed field with
"final" and "note" empty, in the order "verdict disagreements" lists them,
and beside each, read only, what the adjudicator decides from: "ratings",
the two raters' values and notes (with the leak scan's findings in each
note) labelled "first rating" and "second rating" in the order the SHEET
arguments were given (never the raters' names), and "allowed", the field's
allowed values with their codebook definitions. Fill in each final (and a
note where one is needed) and pass it to --from with the sheets in the same
order: "ratings" and "allowed" may be kept or removed, are never recorded,
and when kept must be what the template showed (template-mismatch
otherwise: the file was made from other sheets, or from these in the other
order).`,
		Args: cobra.ExactArgs(2),
	}
	addAllowedSignersFlag(c, &allowed, "allowed_signers file (required)")
	c.Flags().StringVar(&from, "from", "", "JSON file of choices")
	c.Flags().StringVar(&out, "out", "", "adjudication file to write (with --template: the new choices file)")
	c.Flags().BoolVar(&template, "template", false, "write the choices file for the open disputes (final and note empty) instead of resolving")
	c.Flags().StringArrayVar(&bundles, "bundle", nil, "bundle a sheet is for (repeatable; default: the bundle-*.json files beside the sheets); each sheet is checked against its bundle")
	addSigningFlags(c, &sf, string(adjudication.RoleAdjudicator))
	format := formatFlag(c, "text", "json")
	c.RunE = func(cmd *cobra.Command, args []string) error {
		if template {
			if from != "" {
				return usagef("resolve: --template and --from exclude each other")
			}
			allowed, err := trustedSigners(a, allowed)
			if err != nil {
				return refusal(a, err)
			}
			return writeChoiceTemplate(a, allowed, args, bundles, out)
		}
		if err := sf.required(a, "resolve", flagGiven{"--from", from != ""}, flagGiven{"--out", out != ""}); err != nil {
			return err
		}
		allowed, at, err := trustedSigning(a, allowed, &sf)
		if err != nil {
			return err
		}
		key, err := adjudication.LoadKey(sf.key)
		if err != nil {
			return refusal(a, err)
		}
		fs, as, sheetFiles, err := loadFrozenSheetFiles(a, allowed, args, bundles, true)
		if err != nil {
			return err
		}
		if err := checkAdjudicator(as, allowed, sf, key, fs, args); err != nil {
			return refusal(a, err)
		}
		data, err := campaign.ReadRegular(from, campaign.FileChoices)
		if err != nil {
			return refusal(a, err)
		}
		var choices []adjudication.Choice
		if err := blinding.DecodeStrict(from, data, &choices); err != nil {
			return refusal(a, err)
		}
		adj, err := adjudication.NewAdjudication(fs[0], fs[1], choices, sf.name, adjudication.Role(sf.role), key.PublicKey(), at)
		if err != nil {
			var ve *verr.Error
			if errors.As(err, &ve) && ve.File == "" && choiceReasons[ve.Reason] {
				ve.File = from
			}
			return refusal(a, err)
		}
		rec, err := adjudication.SignCheckWrite(adj, key, adjudication.NamespaceAdjudication, as, sheetFiles, out)
		if err != nil {
			return signedRecordResult(a, err)
		}
		return printSigned(a, *format, adj.Synthetic, out, rec, adj.Signer, adjudication.NamespaceAdjudication,
			fmt.Sprintf("resolved %d disputed field(s)", len(adj.Resolutions)))
	}
	return c
}

// writeChoiceTemplate verifies the two sheets and writes the choices file
// of their open disputes (adjudication.ChoiceTemplate) to out, a new file
// (an existing one is refused, never replaced), or to stdout when out is
// "". The SYNTHETIC notice of synthetic sheets goes to stderr, so the file
// keeps the exact shape --from reads.
func writeChoiceTemplate(a *app, allowed string, sheets, bundles []string, out string) error {
	const why = "a choices template never replaces a file"
	if out != "" {
		if err := newOutputFile(out, "--out", why); err != nil {
			return refusal(a, err)
		}
	}
	fs, ds, err := loadDisputes(a, allowed, sheets, bundles, true)
	if err != nil {
		return err
	}
	if fs[0].Sheet.Synthetic || fs[1].Sheet.Synthetic {
		fmt.Fprintln(a.stderr, blinding.SyntheticNotice)
	}
	b, err := campaign.MarshalJSON(adjudication.ChoiceTemplate(ds))
	if err != nil {
		return err
	}
	if out == "" {
		_, err = a.stdout.Write(b)
		return err
	}
	// One writer, and the file appears whole: locked, refused again under
	// the lock if it exists by now, staged beside out and renamed.
	if err := writeOutputFile(a, out, "--out", why, b, 0o600); err != nil {
		return err
	}
	fmt.Fprintf(a.stderr, "choices template for %d disputed field(s) written to %s\n", len(ds), out)
	return nil
}

// choiceReasons are the refusals of one entry of a choices file
// (adjudication.NewAdjudication), which resolve --from names the file of.
var choiceReasons = map[verr.Reason]bool{
	adjudication.ReasonTemplateMismatch:                  true,
	adjudication.ReasonNotDisputed:                       true,
	adjudication.ReasonBadValue:                          true,
	adjudication.ReasonTruthfulUnknownOutsideObligations: true,
	adjudication.ReasonNoteRequired:                      true,
	adjudication.ReasonBadNote:                           true,
}
