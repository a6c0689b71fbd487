package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"golang.org/x/crypto/ssh"

	"verdict/adjudication"
	"verdict/blinding"
	"verdict/tui"
	"verdict/verr"
)

func newAdjudicateCmd(a *app) *cobra.Command {
	var allowed, out, decisions string
	var bundles []string
	var sf signingFlags
	c := &cobra.Command{
		Use:   "adjudicate BUNDLE SHEET SHEET --allowed-signers FILE --key KEYFILE --name NAME [--out ADJUDICATION.json] [--decisions FILE]",
		Short: "Resolve the disputed fields of two frozen sheets in the terminal UI",
		Long: `adjudicate shows only the fields on which the two frozen rating sheets differ,
their values side by side as "first rating" and "second rating" (never the
raters' names; first and second are the SHEET arguments in the order given,
as verdict disagreements lists them), with the item's obligation, answer and evidence from BUNDLE.
1 or 2 takes a rating's value; v chooses another value, which needs a note.
When every dispute is resolved, S then y writes the adjudication (--out,
default: adjudication.json beside the first sheet) signed with --key as --name
(namespace verdict-adjudication). Both sheets must verify against
allowed_signers: --allowed-signers, else the config key allowed_signers,
never a file found beside BUNDLE or the sheets (allowed-signers-missing
without either).

Every decision is appended to the decision log (--decisions, default: the
--out path with the extension .decisions.jsonl) and fsync'd before the screen
shows it as saved; q or ctrl+c leaves at any time, and starting again resumes
at the first dispute without a saved decision. Leaving before signing is not
a failure: adjudicate exits 0 and says where the decision log is. It exits 1
only for a refusal (bad bundle, sheet, key, log or existing --out) or when
a decision was still being saved as the program ended. The log is bound to the two
sheets by their SHA-256; a log of other sheets, a damaged log or one that
another adjudicate holds is refused and left unchanged. Signing at the end
refuses, writing nothing, when verify would refuse the adjudication (a key
allowed_signers does not let adjudicate, or a rater of these sheets).

adjudicate needs a terminal on standard input and output; without one it
refuses (exit 1, reason no-terminal) before creating the decision log:
verdict disagreements and verdict resolve --from do the same without one.`,
		Args: cobra.ExactArgs(3),
	}
	addAllowedSignersFlag(c, &allowed, "allowed_signers file (required)")
	c.Flags().StringVar(&out, "out", "", "adjudication file to write")
	c.Flags().StringArrayVar(&bundles, "bundle", nil, "the other sheet's bundle when it is not BUNDLE (repeatable; default: the bundle-*.json files beside the sheets); each sheet is checked against its bundle")
	c.Flags().StringVar(&decisions, "decisions", "", "decision log (default: --out with extension .decisions.jsonl)")
	var theme string
	addThemeFlag(c, &theme)
	addSigningFlags(c, &sf, string(adjudication.RoleAdjudicator))
	c.RunE = func(cmd *cobra.Command, args []string) (err error) {
		uiOpts, err := uiOptions(a, theme)
		if err != nil {
			return err
		}
		if allowed, _, err = trustedSigning(a, allowed, &sf); err != nil {
			return err
		}
		if out == "" {
			out = filepath.Join(filepath.Dir(args[1]), "adjudication.json")
		}
		if decisions == "" {
			decisions = strings.TrimSuffix(out, filepath.Ext(out)) + ".decisions.jsonl"
		}
		if _, err := os.Lstat(out); err == nil {
			return refusal(a, &verr.Error{Reason: adjudication.ReasonRecordExists, File: out, Rule: ruleNeverReplace, Detail: "the adjudication already exists; a signed record is never overwritten"})
		}
		b, _, err := blinding.LoadBundle(args[0])
		if err != nil {
			return refusal(a, err)
		}
		key, err := adjudication.LoadKey(sf.key)
		if err != nil {
			return refusal(a, err)
		}
		fs, as, sheetFiles, err := loadFrozenSheetFiles(a, allowed, args[1:], append([]string{args[0]}, bundles...), true)
		if err != nil {
			return err
		}
		// Checked before any dispute is shown: a refusal costs no work.
		if err := checkAdjudicator(as, allowed, sf, key, fs, args[1:]); err != nil {
			return refusal(a, err)
		}
		ord := adjudication.OrderSheets(fs[0], fs[1])
		for _, s := range ord {
			if s.Sheet.ContentDigest != b.ContentDigest {
				return refusal(a, fmt.Errorf("%s rates another bundle content (%s), not %s", args[0], s.Sheet.ContentDigest, b.ContentDigest))
			}
		}
		if _, err := adjudication.Disagreements(ord[0].Sheet, ord[1].Sheet); err != nil {
			return refusal(a, err)
		}
		// Everything that can refuse is checked above, so that a refusal
		// creates no decision log.
		if err := a.requireTerminal("adjudicate", "`verdict disagreements` and `verdict resolve --from CHOICES.json`"); err != nil {
			return err
		}
		log, err := adjudication.OpenDecisions(decisions, fs[0], fs[1])
		if err != nil {
			return openRefusal(a, err, "verdict adjudicate has this decision log")
		}
		defer closeInto(&err, log)
		in := tui.AdjudicateInput{Bundle: b, Signer: tui.Signer{Name: sf.name, Fingerprint: adjudication.Fingerprint(key.PublicKey())}, Meaning: adjudication.AdjudicationMeaning}
		in.UseDecisionLog(log)
		// The adjudicator sees the two sheets' agreement as verdict
		// agreement prints it (the one definition, AgreementOf).
		ag := agreementFor(ord, b).Agreement
		in.Agreement = &ag
		in.Disputes = inGivenOrder(in.Disputes, fs[0].SHA256 != ord[0].SHA256)
		in.Sign = func([]tui.Decision) (string, error) {
			at, err := sf.resolve(a)
			if err != nil {
				return "", err
			}
			// Sign exactly what the decision log holds on disk.
			adj, err := adjudication.NewAdjudication(fs[0], fs[1], log.Choices(), sf.name, adjudication.Role(sf.role), key.PublicKey(), at)
			if err != nil {
				return "", err
			}
			// Refused before writing, exactly as resolve does, when verify
			// would refuse it (a key not allowed to adjudicate, or a rater).
			rec, err := adjudication.SignCheckWrite(adj, key, adjudication.NamespaceAdjudication, as, sheetFiles, out)
			if err != nil {
				return "", err
			}
			return out + " (sha256 " + blinding.Digest(rec)[:16] + "…)", nil
		}
		res, err := tui.Adjudicate(cmd.Context(), in, uiOpts)
		if err != nil && !errors.Is(err, context.Canceled) {
			return err
		}
		if b.Synthetic {
			fmt.Fprintln(a.stdout, blinding.SyntheticNotice)
		}
		saved := log.Choices()
		unsaved := 0
		for _, d := range res.Pending {
			if !slices.ContainsFunc(saved, func(c adjudication.Choice) bool { return c.Field == d.Field && c.Final == d.Final && c.Note == d.Note }) {
				unsaved++
			}
		}
		fmt.Fprintf(a.stdout, "%d/%d disputes resolved and saved; decision log %s\n", len(saved), res.Total, decisions)
		switch {
		case res.Signed:
			fmt.Fprintf(a.stdout, "adjudication signed: %s\n", res.Record)
		case unsaved > 0:
			return failed("%d decision(s) made on screen were not saved when adjudicate ended and are missing from %s; run adjudicate again to see what is saved and resume", unsaved, decisions)
		case res.Total > 0:
			fmt.Fprintf(a.stdout, "adjudication not signed yet: every decision made is saved in %s; run the same adjudicate command again to resume at the first dispute without a saved decision\n", decisions)
		}
		return nil
	}
	return c
}

// inGivenOrder returns ds with each dispute's two values and notes in the
// order the SHEET arguments were given: the decision log lists them in the
// adjudication's canonical order (adjudication.OrderSheets), which is the
// reverse of the given order when swapped is true. "first rating" then
// means the same sheet as in verdict disagreements. Decisions record the
// final value, not a side, so the order shown changes nothing recorded.
func inGivenOrder(ds []tui.Dispute, swapped bool) []tui.Dispute {
	if !swapped {
		return ds
	}
	out := make([]tui.Dispute, len(ds))
	for i, d := range ds {
		d.Values[0], d.Values[1] = d.Values[1], d.Values[0]
		d.Notes[0], d.Notes[1] = d.Notes[1], d.Notes[0]
		d.NoteFindings[0], d.NoteFindings[1] = d.NoteFindings[1], d.NoteFindings[0]
		out[i] = d
	}
	return out
}

// checkAdjudicator refuses, before the adjudication is made, an
// adjudicator the signed record would be refused for (with the reason
// verify gives it): a bad name or role, a key allowed_signers (file
// allowedPath, parsed as) does not let f.name sign in verdict-adjudication,
// or the name or key of a
// rater of the two frozen sheets fs (files paths).
func checkAdjudicator(as []adjudication.AllowedSigner, allowedPath string, f signingFlags, key ssh.Signer, fs [2]adjudication.FrozenSheet, paths []string) error {
	if err := checkSigner(as, allowedPath, f, adjudication.RoleAdjudicator, key.PublicKey()); err != nil {
		return err
	}
	for i, s := range fs {
		if err := adjudication.CheckAdjudicator(adjudication.Signer{Name: f.name, KeyFingerprint: adjudication.Fingerprint(key.PublicKey())}, s.Sheet, paths[i]); err != nil {
			return err
		}
	}
	return nil
}
