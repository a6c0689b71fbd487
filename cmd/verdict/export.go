package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"verdict/export"
	"verdict/internal/fsutil"
	"verdict/pipeline"
	"verdict/scorer"
)

func newExportCmd(a *app) *cobra.Command {
	c := &cobra.Command{
		Use:   "export",
		Short: "Export grades, runs, pairs, tasks, sessions, obligations (or all of them) as CSV and JSONL; workflows, systems, system-pairs for a system comparison",
		Long: `Export writes one table as CSV (RFC 4180) or JSONL (one JSON object per row,
members in column order, each value of its JSON type: counts, numerators,
denominators, decimals, tokens and pico-USD are numbers, flags are booleans,
text is a string, an unknown value is null). export all --out DIR writes
every table in both formats at once. A system comparison (CONTRACT §6)
has the tables grades, workflows, systems and system-pairs; a table of the
other design is refused (table-not-in-design).

An unknown or undefined value is never written as 0: its cell is empty (null
in JSONL) and the column X_unknown beside it says why. A fraction is
X_num, X_den and X_decimal; a ratio X_exact and X_decimal; money X_pico_usd
and X_usd. An export made from a synthetic campaign says so on stderr.

In CSV a cell that begins with =, +, -, @, a tab or a carriage return (which a
spreadsheet would run as a formula, e.g. a note "=HYPERLINK(…)") is written
with a leading single quote, so that spreadsheets show it as text; a plain
number such as -0.5 is left as it is. JSONL values are never changed.

An export of a campaign that verdict check does not admit is still written
(exit 0), with a warning on stderr naming the count and reason codes of the
admission failures and "verdict check CAMPAIGN", which lists them.`,
	}
	for _, name := range append(append([]string{"grades"}, export.ReportTables()...), export.SystemReportTables()...) {
		c.AddCommand(newExportTableCmd(a, name))
	}
	c.AddCommand(newExportAllCmd(a))
	return c
}

// newExportAllCmd is `verdict export all CAMPAIGN --ratings DIR --out OUT`:
// every table (grades and every report table) as NAME.csv and NAME.jsonl,
// written together into a new or empty directory.
func newExportAllCmd(a *app) *cobra.Command {
	var ratings, allowed, mapPath, out string
	c := &cobra.Command{
		Use:   "all CAMPAIGN --ratings DIR --allowed-signers FILE --out OUT",
		Short: "Export every table (grades, runs, pairs, tasks, sessions, obligations) as CSV and JSONL into OUT",
		Long: `Export all verifies and scores the campaign once, as verdict score does, and
writes every table in both formats into the new or empty directory OUT:
grades.csv, grades.jsonl (blinded columns before the reveal, as export grades
writes them), runs, pairs, tasks, sessions and obligations (one row per
task, obligation and arm: how many of the arm's answers met it, and every
miss of a critical obligation by session). The files appear together: they
are written into a staging directory beside OUT and renamed into place as
one. OUT holding anything is refused (output-not-empty), a second export to
OUT while one runs is refused (output-locked).

Exit codes: 0 written; 1 refused; 2 usage error.`,
		Args: cobra.ExactArgs(1),
	}
	c.Flags().StringVar(&ratings, "ratings", "", "ratings directory: bundles, sheets, adjudication, reveal (required)")
	addAllowedSignersFlag(c, &allowed, "allowed_signers file (required; never read from DIR)")
	c.Flags().StringVar(&mapPath, "map", "", "sealed unblinding map (default: DIR/sealed-map.json)")
	c.Flags().StringVar(&out, "out", "", "new or empty directory to write the tables into (required)")
	c.RunE = func(cmd *cobra.Command, args []string) error {
		if ratings == "" || out == "" {
			return usagef("export all: --ratings DIR and --out OUT are required")
		}
		as, err := trustedSigners(a, allowed)
		if err != nil {
			return refusal(a, err)
		}
		lock, err := lockNewOutputDir(a, out)
		if err != nil {
			return err
		}
		defer lock.Unlock()
		r := pipeline.RatingsIn(ratings, as)
		if mapPath != "" {
			r.Map = mapPath
		}
		grades, err := export.Grades(export.GradesRequest{Campaign: args[0], Ratings: r.Dir, AllowedSigners: r.AllowedSigners, Map: r.Map})
		if err != nil {
			return refusal(a, err)
		}
		tables := map[string]*export.Table{"grades": grades}
		names := []string{"grades"}
		rep, err := pipeline.ScoreReport(pipeline.DirFS(args[0]), r, pipeline.ScoreOptions{})
		if err != nil {
			return refusal(a, err)
		}
		for _, name := range export.ReportTablesOf(rep) {
			t, err := export.DesignReportTable(rep, name)
			if err != nil {
				return refusal(a, err)
			}
			tables[name] = t
			names = append(names, name)
		}
		if grades.Synthetic {
			fmt.Fprintln(a.stderr, scorer.SyntheticNotice)
		}
		campaignAdmission(args[0]).warn(a.stderr, "these rows", "")
		st, err := fsutil.StageDir(out)
		if err != nil {
			return err
		}
		defer st.Cleanup()
		for _, name := range names {
			t := tables[name]
			if err := st.WriteWith(name+".csv", 0o644, t.WriteCSV); err != nil {
				return err
			}
			if err := st.WriteWith(name+".jsonl", 0o644, t.WriteJSONL); err != nil {
				return err
			}
		}
		if err := st.Commit(); err != nil {
			return err
		}
		for _, name := range names {
			fmt.Fprintf(a.stdout, "%-12s %5d row(s)  %s.csv  %s.jsonl\n", name, len(tables[name].Rows), name, name)
		}
		fmt.Fprintf(a.stdout, "%d tables written to %s\n", len(names), out)
		return nil
	}
	return c
}

func newExportTableCmd(a *app, name string) *cobra.Command {
	var ratings, allowed, mapPath, out string
	var unblinded, blinded bool
	long := `Export ` + name + ` flattens the scorer's report (the same verification and scoring
as verdict score, so the reveal must exist) into one row per ` + map[string]string{
		export.TableRuns: "scored review", export.TablePairs: "A/B pair of a repetition",
		export.TableTasks: "task", export.TableSessions: "session of the accounting (shared drafts included)",
		export.TableObligations: "task, obligation and arm (how many of the arm's answers met the obligation, and every miss of a critical one by session)",
		export.TableWorkflows:   "scored workflow of a system comparison (R_sys over the frozen denominator, U, packet-supported coverage, warm, cold-setup and complete charges)",
		export.TableSystems:     "system of a system comparison (macro median R_sys, U, packet support, failures, setup, warm and whole-suite charges)",
		export.TableSystemPairs: "paired result of Madar against a comparator in a system comparison"}[name] + `.`
	if name == "grades" {
		long = `Export grades writes one row per graded field of the two frozen rating sheets:
item, field kind and target; each rater's name, value, note and time spent
on the field's item in milliseconds (from the frozen sheet's item_times,
which has an entry for every item, 0 when the journal recorded no time); whether the field was agreed, adjudicated or is still open; the final
value and the adjudicator's note; and the SHA-256 of both sheets and of the
adjudication. The ratings directory is checked first exactly as verdict score
checks it: with the sealed map, the campaign's blinding is derived again and
every bundle must be the derived one (map-other-campaign,
campaign-changed-after-blinding, map-mismatch, bundle-item-mismatch); every
signed record is verified and each sheet checked against its bundle's fields
(unknown-item, unknown-field, sheet-incomplete). A refusal refuses the export
with score's reason code. Without a sealed map file, the sheets are checked
against the bundles found in DIR.

Before the reveal only blinded columns are written, and --unblinded is refused
(not-revealed). Once a verified reveal names both sheets and the adjudication
and commits to the sealed map, the columns task, repetition, order, arm and
session are added (--blinded leaves them out).`
	}
	c := &cobra.Command{
		Use:   name + " CAMPAIGN --ratings DIR --allowed-signers FILE [--format csv|jsonl] [--out FILE]",
		Short: "Export " + name + " as CSV or JSONL",
		Long:  long + "\n\nExit codes: 0 written; 1 refused (also --out naming an existing file: output-exists, or a file another export is writing: output-locked); 2 usage error.",
		Args:  cobra.ExactArgs(1),
	}
	format := formatFlag(c, "csv", "jsonl")
	c.Flags().StringVar(&ratings, "ratings", "", "ratings directory: bundles, sheets, adjudication, reveal (required)")
	addAllowedSignersFlag(c, &allowed, "allowed_signers file (required; never read from DIR)")
	c.Flags().StringVar(&mapPath, "map", "", "sealed unblinding map (default: DIR/sealed-map.json)")
	c.Flags().StringVar(&out, "out", "", "write to this new file instead of stdout (an existing file is refused)")
	if name == "grades" {
		c.Flags().BoolVar(&unblinded, "unblinded", false, "require the unblinded columns (refused before the reveal)")
		c.Flags().BoolVar(&blinded, "blinded", false, "leave out the unblinded columns even after the reveal")
	}
	c.RunE = func(cmd *cobra.Command, args []string) error {
		if ratings == "" {
			return usagef("export %s: --ratings DIR is required", name)
		}
		if unblinded && blinded {
			return usagef("export grades: --unblinded and --blinded exclude each other")
		}
		as, err := trustedSigners(a, allowed)
		if err != nil {
			return refusal(a, err)
		}
		if out != "" {
			// One writer per output: a second export to the same --out
			// is refused (output-locked) rather than replacing the first.
			lock, err := fsutil.LockOutput(out)
			if err != nil {
				return refusal(a, err)
			}
			defer lock.Unlock()
			if err := newOutputFile(out, "--out", "an export never replaces a file"); err != nil {
				return refusal(a, err)
			}
		}
		r := pipeline.RatingsIn(ratings, as)
		if mapPath != "" {
			r.Map = mapPath
		}
		var t *export.Table
		if name == "grades" {
			t, err = export.Grades(export.GradesRequest{Campaign: args[0], Ratings: r.Dir, AllowedSigners: r.AllowedSigners, Map: r.Map, Unblinded: unblinded, Blinded: blinded})
		} else {
			rep, serr := pipeline.ScoreReport(pipeline.DirFS(args[0]), r, pipeline.ScoreOptions{})
			if serr != nil {
				return refusal(a, serr)
			}
			t, err = export.DesignReportTable(rep, name)
		}
		if err != nil {
			return refusal(a, err)
		}
		if t.Synthetic {
			fmt.Fprintln(a.stderr, scorer.SyntheticNotice)
		}
		campaignAdmission(args[0]).warn(a.stderr, "these rows", "")
		write := t.WriteCSV
		if *format == "jsonl" {
			write = t.WriteJSONL
		}
		if out == "" {
			return write(a.stdout)
		}
		return fsutil.WriteWith(out, 0o644, write)
	}
	return c
}
