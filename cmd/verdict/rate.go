package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"verdict/adjudication"
	"verdict/blinding"
	"verdict/tui"
)

func init() { register(newRateCmd) }

// rateFlags are the rater's identity and files (flags or config keys
// rate.journal, rater.name, rater.key; env VERDICT_RATER_NAME, ...).
type rateFlags struct {
	journal, name, key string
}

func newRateCmd(a *app) *cobra.Command {
	var f rateFlags
	c := &cobra.Command{
		Use:   "rate BUNDLE",
		Short: "Grade a rater bundle in the terminal UI (rater mode)",
		Long: `rate opens the rater's terminal UI on BUNDLE. Every grade is appended to
the journal (--journal, default BUNDLE with the extension .journal.jsonl)
and fsync'd before the screen shows it as saved; starting again resumes at
the first ungraded field. When every field is graded, F freezes the journal
into a rating sheet signed with --key as --name.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			f.fill(a, args[0])
			b, _, err := blinding.LoadBundle(args[0])
			if err != nil {
				return failed("%s", describe(err))
			}
			j, err := adjudication.Open(f.journal, b)
			if err != nil {
				return failed("%s", describe(err))
			}
			defer j.Close()
			in := tui.RateInput{Bundle: b, Journal: j, Signer: tui.Signer{Name: f.name}}
			if err := wireFreeze(&in, args[0], f); err != nil {
				return failed("%s", describe(err))
			}
			res, err := tui.Rate(cmd.Context(), in, tui.Options{})
			if err != nil && err != context.Canceled {
				return err
			}
			fmt.Fprintf(a.stdout, "%d/%d fields graded; journal %s\n", res.Graded, res.Total, f.journal)
			if res.Frozen {
				fmt.Fprintf(a.stdout, "frozen and signed: %s\n", res.Sheet)
			}
			return nil
		},
	}
	c.Flags().StringVar(&f.journal, "journal", "", "grade journal (default: BUNDLE with extension .journal.jsonl)")
	c.Flags().StringVar(&f.name, "name", "", "rater name that signs the sheet (config rater.name)")
	c.Flags().StringVar(&f.key, "key", "", "SSH private key that signs the sheet (config rater.key)")
	return c
}

// fill completes the flags from the configuration and defaults.
func (f *rateFlags) fill(a *app, bundle string) {
	if f.name == "" {
		f.name = a.cfg.GetString("rater.name")
	}
	if f.key == "" {
		f.key = a.cfg.GetString("rater.key")
	}
	if f.journal == "" {
		f.journal = a.cfg.GetString("rate.journal")
	}
	if f.journal == "" {
		f.journal = strings.TrimSuffix(bundle, filepath.Ext(bundle)) + ".journal.jsonl"
	}
}

// describe turns an error into one clear line (the refusal's file,
// pointer, reason and rule), never a stack trace.
func describe(err error) string {
	if adjudication.ErrLocked(err) {
		return err.Error() + " (another verdict rate has this journal open; close it first)"
	}
	return err.Error()
}
