package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"verdict/adjudication"
	"verdict/blinding"
	"verdict/tui"
)

func init() { register(newAdjudicateCmd) }

func newAdjudicateCmd(a *app) *cobra.Command {
	var allowed, out string
	var sf signingFlags
	c := &cobra.Command{
		Use:   "adjudicate BUNDLE SHEET SHEET --allowed-signers FILE --key KEYFILE --name NAME [--out ADJUDICATION.json]",
		Short: "Resolve the disputed fields of two frozen sheets in the terminal UI",
		Long: `adjudicate shows only the fields on which the two frozen rating sheets differ,
their values side by side as "first rating" and "second rating" (never the
raters' names), with the item's obligation, answer and evidence from BUNDLE.
1 or 2 takes a rating's value; v chooses another value, which needs a note.
When every dispute is resolved, S then y writes the adjudication (--out,
default: adjudication.json beside the first sheet) signed with --key as --name
(namespace verdict-adjudication). Both sheets must verify against
--allowed-signers. Decisions are kept in memory until signed.`,
		Args: cobra.ExactArgs(3),
	}
	c.Flags().StringVar(&allowed, "allowed-signers", "", "allowed_signers file (required; config: allowed_signers)")
	c.Flags().StringVar(&out, "out", "", "adjudication file to write")
	addSigningFlags(c, &sf, string(adjudication.RoleAdjudicator))
	c.RunE = func(cmd *cobra.Command, args []string) error {
		if allowed == "" {
			allowed = a.cfg.GetString("allowed_signers")
		}
		if allowed == "" {
			return usagef("--allowed-signers is required")
		}
		if _, err := sf.resolve(a); err != nil {
			return err
		}
		if out == "" {
			out = filepath.Join(filepath.Dir(args[1]), "adjudication.json")
		}
		if _, err := os.Stat(out); err == nil {
			return refusal(a, fmt.Errorf("%s exists; a signed record is never overwritten", out))
		}
		b, _, err := blinding.LoadBundle(args[0])
		if err != nil {
			return refusal(a, err)
		}
		key, err := adjudication.LoadKey(sf.key)
		if err != nil {
			return refusal(a, err)
		}
		fs, err := loadFrozenSheets(a, allowed, args[1:])
		if err != nil {
			return err
		}
		ord := adjudication.OrderSheets(fs[0], fs[1])
		for _, s := range ord {
			if s.Sheet.ContentDigest != b.ContentDigest {
				return refusal(a, fmt.Errorf("%s rates another bundle content (%s), not %s", args[0], s.Sheet.ContentDigest, b.ContentDigest))
			}
		}
		ds, err := adjudication.Disagreements(ord[0].Sheet, ord[1].Sheet)
		if err != nil {
			return refusal(a, err)
		}
		in := tui.AdjudicateInput{Bundle: b, Signer: tui.Signer{Name: sf.name, Fingerprint: adjudication.Fingerprint(key.PublicKey())}, Meaning: adjudication.AdjudicationMeaning}
		for _, d := range ds {
			in.Disputes = append(in.Disputes, tui.Dispute{Field: d.Field, Values: d.Values, Notes: d.Notes})
		}
		in.Check = func(d tui.Dispute, final, note string) error {
			return adjudication.CheckResolution(adjudication.Disagreement{Field: d.Field, Values: d.Values, Notes: d.Notes}, final, note)
		}
		in.Sign = func(decisions []tui.Decision) (string, error) {
			at, err := sf.resolve(a)
			if err != nil {
				return "", err
			}
			var choices []adjudication.Choice
			for _, d := range decisions {
				choices = append(choices, adjudication.Choice{Field: d.Field, Final: d.Final, Note: d.Note})
			}
			adj, err := adjudication.NewAdjudication(fs[0], fs[1], choices, sf.name, adjudication.Role(sf.role), key.PublicKey(), at)
			if err != nil {
				return "", err
			}
			rec, sig, err := adjudication.SignRecord(adj, key, adjudication.NamespaceAdjudication)
			if err != nil {
				return "", err
			}
			if err := writeSignedRecord(out, rec, sig); err != nil {
				return "", err
			}
			return out + " (sha256 " + blinding.Digest(rec)[:16] + "…)", nil
		}
		res, err := tui.Adjudicate(cmd.Context(), in, tui.Options{})
		if err != nil && !errors.Is(err, context.Canceled) {
			return err
		}
		if b.Synthetic {
			fmt.Fprintln(a.stdout, blinding.SyntheticNotice)
		}
		fmt.Fprintf(a.stdout, "%d/%d disputes resolved\n", res.Resolved, res.Total)
		if res.Signed {
			fmt.Fprintf(a.stdout, "adjudication signed: %s\n", res.Record)
		} else if res.Total > 0 {
			return failed("adjudication not signed: %d/%d disputes resolved; decisions are not saved", res.Resolved, res.Total)
		}
		return nil
	}
	return c
}
