package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"verdict/adjudication"
	"verdict/blinding"
)

func newFreezeCmd(a *app) *cobra.Command {
	var journal, bundle, out, allowed string
	var sf signingFlags
	c := &cobra.Command{
		Use:   "freeze --journal FILE --bundle BUNDLE --allowed-signers FILE --key KEYFILE --name NAME --role rater --out SHEET.json",
		Short: "Freeze a complete journal into a signed rating sheet (namespace verdict-rating)",
		Long: `freeze turns a complete journal into a rating sheet (rater name, role, key
fingerprint, UTC time, meaning of the signature, bundle, content and
obligations digests, every grade) and writes SHEET.json with a detached
SHEET.json.sig in the ssh-keygen -Y sign format. It refuses while any field is
ungraded and never overwrites an existing sheet.

The new sheet is verified against allowed_signers (--allowed-signers, the
config key allowed_signers; never a file found beside the bundle)
before anything is written, exactly as verify and score will check it: a key
that no line lists for --name (signer-not-allowed, also a rater's key used
under another rater's name), or whose line does not allow verdict-rating
(key-not-allowed-for-role), is refused and nothing is frozen. Without an
allowed_signers file freeze refuses (allowed-signers-missing).`,
		Args: cobra.NoArgs,
	}
	c.Flags().StringVar(&journal, "journal", "", "the rater's journal")
	c.Flags().StringVar(&bundle, "bundle", "", "the rater's bundle")
	c.Flags().StringVar(&out, "out", "", "sheet file to write")
	addAllowedSignersFlag(c, &allowed, "allowed_signers file the new sheet must verify against (required)")
	addSigningFlags(c, &sf, string(adjudication.RoleRater))
	format := formatFlag(c, "text", "json")
	c.RunE = func(cmd *cobra.Command, args []string) (err error) {
		if err := sf.required(a, "freeze", flagGiven{"--journal", journal != ""}, flagGiven{"--bundle", bundle != ""}, flagGiven{"--out", out != ""}); err != nil {
			return err
		}
		at, err := sf.resolve(a)
		if err != nil {
			return err
		}
		b, digest, err := blinding.LoadBundle(bundle)
		if err != nil {
			return refusal(a, err)
		}
		key, err := adjudication.LoadKey(sf.key)
		if err != nil {
			return refusal(a, err)
		}
		allowed, err = trustedSigners(a, allowed)
		if err != nil {
			return refusal(a, err)
		}
		as, err := adjudication.LoadAllowedSigners(allowed)
		if err != nil {
			return refusal(a, err)
		}
		// The key must be the one allowed_signers lists for --name in the
		// rating namespace: checked before the journal is frozen, so that
		// a refused freeze leaves the journal open for the right signer.
		if err := checkSigner(as, allowed, sf, adjudication.RoleRater, key.PublicKey()); err != nil {
			return refusal(a, err)
		}
		if _, err := os.Stat(journal); err != nil {
			return refusal(a, err)
		}
		j, err := adjudication.Open(journal, b)
		if err != nil {
			return refusal(a, err)
		}
		defer closeInto(&err, j)
		sheet, data, err := adjudication.FreezeSheet(j, b, digest, sf.name, adjudication.Role(sf.role), key, at, as, out)
		if err != nil {
			return signedRecordResult(a, err)
		}
		return printSigned(a, *format, sheet.Synthetic, out, data, sheet.Signer, adjudication.NamespaceRating,
			fmt.Sprintf("froze %d grade(s)", len(sheet.Grades)))
	}
	return c
}
