package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"
	"golang.org/x/crypto/ssh"

	"verdict/adjudication"
	"verdict/blinding"
	"verdict/internal/plural"
	"verdict/tui"
	"verdict/verr"
)

func newRateCmd(a *app) *cobra.Command {
	var journal, out, theme, allowed string
	var sf signingFlags
	c := &cobra.Command{
		Use:   "rate BUNDLE [--journal FILE] [--key KEYFILE --name NAME --allowed-signers FILE] [--out SHEET.json]",
		Short: "Grade a rater bundle in the terminal UI (rater mode)",
		Long: `rate opens the rater's terminal UI on BUNDLE. Every grade is appended to
the journal (--journal, default: BUNDLE with the extension .journal.jsonl)
and fsync'd before the screen shows it as saved; starting again resumes at
the first ungraded field. When every field is graded, F shows the freeze
screen; y freezes the journal into a rating sheet (--out, default:
sheet-NAME.json beside the bundle) signed with --key as --name (namespace
verdict-rating). Without --key and --name, grading works and freezing is
refused. q or ctrl+c leaves at any time: every saved grade is on disk.
Once the sheet is frozen the journal takes no more entries (grades, notes
or flags; reason journal-frozen), so the sheet's journal_digest stays the
journal's digest. A --name other than the bundle's rater is refused at
start (exit 1, reason other-bundle), before anything is graded, and so is a
--key that allowed_signers (--allowed-signers or the config key, never a
file found beside the bundle) does not list for --name in verdict-rating
(signer-not-allowed, key-not-allowed-for-role; allowed-signers-missing
without the file).

A bad bundle, an unreadable key or a journal that another rate holds is
reported in one line and changes nothing on disk. rate needs a terminal on
standard input and output; without one it refuses (exit 1, reason
no-terminal) before creating the journal: verdict grade --from and verdict
freeze do the same without a terminal.`,
		Args: cobra.ExactArgs(1),
	}
	c.Flags().StringVar(&journal, "journal", "", "grade journal (default: BUNDLE with extension .journal.jsonl)")
	c.Flags().StringVar(&out, "out", "", "sheet file written when freezing (default: sheet-NAME.json beside the bundle)")
	addAllowedSignersFlag(c, &allowed, "allowed_signers file the sheet must verify against (required with --key)")
	addThemeFlag(c, &theme)
	addSigningFlags(c, &sf, string(adjudication.RoleRater))
	c.RunE = func(cmd *cobra.Command, args []string) (err error) {
		bundlePath := args[0]
		uiOpts, err := uiOptions(a, theme)
		if err != nil {
			return err
		}
		if sf.key == "" {
			sf.key = a.configPath("key")
		}
		if sf.name == "" {
			sf.name = a.cfg.GetString("name")
		}
		if journal == "" {
			journal = strings.TrimSuffix(bundlePath, filepath.Ext(bundlePath)) + ".journal.jsonl"
		}
		// The bundle and the journal are loaded with the collector held
		// off (released before the first frame is drawn).
		releaseGC := holdGC(bundlePath)
		defer releaseGC()
		// Everything that can refuse is checked before the journal is
		// created, so that a refusal changes nothing on disk.
		b, digest, err := blinding.LoadBundle(bundlePath)
		if err != nil {
			return refusal(a, err)
		}
		var key ssh.Signer
		if sf.key != "" {
			if sf.name == "" {
				return usagef("--key needs --name (the allowed_signers principal)")
			}
			if key, err = adjudication.LoadKey(sf.key); err != nil {
				return refusal(a, err)
			}
		}
		// Only the bundle's own rater can freeze a sheet on it: a wrong
		// --name is refused now, with the reason the freeze would give,
		// not after the last field is graded.
		if sf.name != "" {
			if err := adjudication.CheckBundleRater(b, sf.name); err != nil {
				var ve *verr.Error
				if errors.As(err, &ve) {
					ve.File, ve.Pointer = bundlePath, "/rater"
				}
				return refusal(a, err)
			}
		}
		// A key allowed_signers does not list for --name as a rater is
		// refused now, as freeze and score would refuse its sheet.
		var allowedList []adjudication.AllowedSigner
		if key != nil {
			if allowed, err = trustedSigners(a, allowed); err != nil {
				return refusal(a, err)
			}
			if allowedList, err = adjudication.LoadAllowedSigners(allowed); err != nil {
				return refusal(a, err)
			}
			if err := checkSigner(allowedList, allowed, sf, adjudication.RoleRater, key.PublicKey()); err != nil {
				return refusal(a, err)
			}
		}
		if out == "" && sf.name != "" {
			out = filepath.Join(filepath.Dir(bundlePath), "sheet-"+sf.name+".json")
		}
		if out != "" {
			if _, err := os.Lstat(out); err == nil {
				return refusal(a, &verr.Error{Reason: adjudication.ReasonRecordExists, File: out, Rule: ruleNeverReplace, Detail: "this bundle's sheet is already frozen; a signed record is never overwritten"})
			}
		}
		if err := a.requireTerminal("rate", "`verdict grade BUNDLE --from GRADES.json` and `verdict freeze`"); err != nil {
			return err
		}
		j, err := adjudication.Open(journal, b)
		if err != nil {
			return openRefusal(a, err, "verdict rate has this journal")
		}
		defer closeInto(&err, j)
		in := tui.RateInput{Bundle: b, Journal: j, Signer: tui.Signer{Name: sf.name}, Meaning: adjudication.SheetMeaning}
		if key != nil {
			in.Signer.Fingerprint = adjudication.Fingerprint(key.PublicKey())
			in.Freeze = func() (string, error) {
				at, err := sf.resolve(a)
				if err != nil {
					return "", err
				}
				_, data, err := adjudication.FreezeSheet(j, b, digest, sf.name, adjudication.Role(sf.role), key, at, allowedList, out)
				if err != nil {
					return "", err
				}
				return out + " (sha256 " + blinding.Digest(data)[:16] + "…, signature " + filepath.Base(out) + ".sig)", nil
			}
		}
		releaseGC()
		res, err := tui.Rate(cmd.Context(), in, uiOpts)
		if err != nil && !errors.Is(err, context.Canceled) {
			return err
		}
		if b.Synthetic {
			fmt.Fprintln(a.stdout, blinding.SyntheticNotice)
		}
		fmt.Fprintf(a.stdout, "%d/%d fields graded; journal %s\n", res.Graded, res.Total, journal)
		if res.Flagged > 0 {
			fmt.Fprintf(a.stdout, "%s flagged to come back to (saved in the journal; l lists them in rate)\n", plural.Count(res.Flagged, "item", "items"))
		}
		if res.Frozen {
			fmt.Fprintf(a.stdout, "frozen and signed: %s\n", res.Sheet)
		}
		if res.DraftNotes > 0 {
			fmt.Fprintf(a.stdout, "%s not saved: a note is saved with its field's grade, and the field was left ungraded\n", plural.Count(res.DraftNotes, "draft note", "draft notes"))
		}
		return nil
	}
	return c
}

// holdGC turns the garbage collector off while a command loads the bundle
// at path and what it needs before its first frame: that start-up
// allocates mostly what it keeps (the bundle's bytes, the decoded items,
// the journal), so collections during it find little to free, and on a
// shared machine they cost the start-up a third of its CPU time. A memory
// limit of 256 MiB plus 8 times the bundle's size (or a lower one the
// user set with GOMEMLIMIT) still starts a collection if the heap grows
// past it. The returned function restores both settings; calling it again
// does nothing.
func holdGC(path string) (release func()) {
	limit := int64(256 << 20)
	if fi, err := os.Stat(path); err == nil {
		limit += 8 * fi.Size()
	}
	prevLimit := debug.SetMemoryLimit(-1)
	if prevLimit < limit {
		limit = prevLimit
	}
	debug.SetMemoryLimit(limit)
	prevPercent := debug.SetGCPercent(-1)
	done := false
	return func() {
		if !done {
			done = true
			debug.SetGCPercent(prevPercent)
			debug.SetMemoryLimit(prevLimit)
		}
	}
}
