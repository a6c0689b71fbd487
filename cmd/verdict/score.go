package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strconv"

	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"

	"verdict/internal/fsutil"
	"verdict/internal/visible"
	"verdict/pipeline"
	"verdict/scorer"
)

func newScoreCmd(a *app) *cobra.Command {
	var ratings, allowed, mapFile, out string
	c := &cobra.Command{
		Use:   "score CAMPAIGN --ratings DIR --allowed-signers FILE",
		Short: "Verify the signed records, settle grades and print the scorecards and the decision (fixed evidence or system comparison)",
		Long: `score verifies every signed record in the ratings directory (two frozen
rating sheets, the adjudication and the reveal, each with its detached .sig)
against allowed_signers: --allowed-signers FILE, else the config key
allowed_signers, never a file inside DIR, which whoever writes a record
could write too (allowed-signers-missing without either). It refuses if
any record fails or the reveal does not name the exact sheets and
adjudication used. It settles every field (agreed, or adjudicated),
unblinds items with the sealed map, combines them with the structural
findings and the accounting, and prints the report.
--width N lays the text report out for N columns, 40 to 1000 (outside
that range: a usage error, exit 2); without it the terminal's width, else
$COLUMNS, is used when it is within that range, else 80.
With --out DIR it writes report.json, report.md and the SVG charts there
(and still prints the report in the chosen --format, so a terminal run shows
the decision);
DIR must be new or empty (an existing file, or a directory that holds
anything, is refused: output-not-empty), so no file is replaced. The files
appear together: they are written into a staging directory beside DIR and
renamed into place as one, so a reader finds the whole report or no DIR
(a killed score leaves only .DIR.staging<digits>, removed by the next score
to DIR). A second score writing to the same DIR while one runs is refused
(output-locked, exit 1).
A system comparison (CONTRACT §6, the manifest's design) goes through the
same verification, custody and consensus and is scored with R_sys; its
report is the system report (report.json format verdict-system-report-v1,
report.md and the system-*.svg charts).
Exit 0 when every gate passes (madar-advantage for a system comparison),
and for no-decision (development round 1 is inspected, never decided: not
a failure); 1 for quality-improves-gate-fails, no-gain and
execution-invalid, and for no-madar-advantage and
comparator-simpler-cheaper (the report names each failing gate or
prerequisite); 3 when the campaign is incomplete (sessions still planned).

` + exitCodesHelp,
		Args: cobra.ExactArgs(1),
	}
	format := formatFlag(c, "text", "md", "json")
	c.Flags().StringVar(&ratings, "ratings", "", "directory with sheet-*.json, adjudication.json, reveal.json (each with .sig), sealed-map.json, bundle-*.json")
	addAllowedSignersFlag(c, &allowed, "allowed_signers file every record is verified against (required; never read from DIR)")
	c.Flags().StringVar(&mapFile, "map", "", "sealed unblinding map (default: DIR/sealed-map.json)")
	c.Flags().StringVar(&out, "out", "", "write report.json, report.md and charts to this new or empty directory")
	width := c.Flags().Int("width", 0, fmt.Sprintf("width of the text report in columns, %d to %d (default: the terminal's, else $COLUMNS, else 80)", minTextWidth, maxTextWidth))
	c.RunE = func(cmd *cobra.Command, args []string) error {
		if ratings == "" {
			return usagef("score: --ratings DIR is required")
		}
		if *width != 0 && *width < minTextWidth {
			return usagef("score: --width %d: the text report needs at least %d columns", *width, minTextWidth)
		}
		if *width > maxTextWidth {
			return usagef("score: --width %d: the text report is at most %d columns wide", *width, maxTextWidth)
		}
		allowed, err := trustedSigners(a, allowed)
		if err != nil {
			return refusal(a, err)
		}
		if mapFile == "" {
			mapFile = filepath.Join(ratings, "sealed-map.json")
		}
		if out != "" {
			// One writer per output directory: the lock is held until the
			// report set is renamed into place.
			lock, err := lockNewOutputDir(a, out)
			if err != nil {
				return err
			}
			defer lock.Unlock()
		}
		// The memory limit covers scoring and printing; the text view is
		// rendered one section at a time (Report.WriteText).
		afterLoad, restore := limitScoreMemory()
		defer restore()
		rep, err := pipeline.ScoreReport(pipeline.DirFS(args[0]), pipeline.Ratings{Dir: ratings, AllowedSigners: allowed, Map: mapFile}, pipeline.ScoreOptions{AfterLoad: afterLoad})
		if err != nil {
			return refusal(a, err)
		}
		if out != "" {
			if err := writeReport(rep, out); err != nil {
				return err
			}
		}
		if err := printReport(a, rep, *format, *width); err != nil {
			return err
		}
		if out != "" {
			fmt.Fprintf(a.stderr, "report written to %s\n", out)
		}
		if d := rep.Outcome(); decisionExit(d.Kind) != exitOK {
			return &failedError{msg: fmt.Sprintf("decision %s: %s", d.Kind, d.Summary), code: decisionExit(d.Kind)}
		}
		return nil
	}
	return c
}

// scoreMemoryFloor is the least soft memory limit (bytes) `verdict score`
// scores under once the campaign is loaded (limitScoreMemory): 160 MiB,
// so that scoring a campaign of 10,000 sessions stays within 200 MB of
// resident memory (the Go heap plus the program itself).
const scoreMemoryFloor = 160 << 20

// limitScoreMemory sets the Go runtime's soft memory limit
// (runtime/debug.SetMemoryLimit) for the scoring and printing of one
// `verdict score` run, from the loaded campaign on (afterLoad) until
// restore (when the command returns): the garbage
// collector then collects before the heap reaches its default target of
// twice the live heap, whenever that target would pass the limit.
// afterLoad collects once to measure the loaded campaign's live heap and
// sets the limit to scoreMemoryFloor, or to 7/4 of that live heap for a
// larger campaign (the scoring phases that follow hold the campaign plus
// less than half of it again; a limit near the live heap would make the
// collector run continuously). Loading itself runs without a limit, so a
// large campaign is never loaded under a limit it exceeds. restore puts
// the previous limit back. With GOMEMLIMIT set in the environment both do
// nothing: the user's limit stands.
func limitScoreMemory() (afterLoad, restore func()) {
	if os.Getenv("GOMEMLIMIT") != "" {
		return func() {}, func() {}
	}
	prev := debug.SetMemoryLimit(-1) // reads the current limit
	afterLoad = func() {
		runtime.GC()
		s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		metrics.Read(s)
		limit := int64(scoreMemoryFloor)
		if s[0].Value.Kind() == metrics.KindUint64 {
			limit = max(limit, int64(s[0].Value.Uint64())*7/4)
		}
		debug.SetMemoryLimit(limit)
	}
	return afterLoad, func() { debug.SetMemoryLimit(prev) }
}

// printReport prints the report in the chosen format; the text report
// is laid out for width columns (0: textWidth of the output).
func printReport(a *app, r scorer.ScoreReport, format string, width int) error {
	switch format {
	case "json":
		w := bufio.NewWriterSize(a.stdout, 1<<16)
		if err := r.WriteJSON(w); err != nil {
			return err
		}
		return w.Flush()
	case "md":
		_, err := a.stdout.Write(r.Markdown(false))
		return err
	}
	// Rendered and written one section at a time (Report.WriteText). The
	// colour style's escape sequences are glamour's own, written past the
	// visible filter; without colour (a pipe, a file, NO_COLOR) the text
	// goes through it.
	w, style := a.stdout, textStyle(a.stdout)
	if v, ok := w.(*visible.Writer); ok && style != "notty" {
		w = v.Underlying()
	}
	if width == 0 {
		width = textWidth(a.stdout)
	}
	return r.WriteText(w, style, width)
}

// minTextWidth and maxTextWidth bound the width of the text report, in
// columns: --width outside them is a usage error, and a terminal width or
// $COLUMNS outside them is ignored (80 is used), so no width a user or the
// environment gives makes the report allocate without bound.
const (
	minTextWidth = 40
	maxTextWidth = 1000
)

// textWidth is the width the text report is laid out for on w: the
// terminal's width when w is a terminal, else $COLUMNS when it is a number
// from minTextWidth to maxTextWidth, else 80.
func textWidth(w io.Writer) int {
	if v, ok := w.(*visible.Writer); ok {
		w = v.Underlying()
	}
	if f, ok := w.(interface{ Fd() uintptr }); ok && term.IsTerminal(f.Fd()) {
		if cols, _, err := term.GetSize(f.Fd()); err == nil && cols >= minTextWidth && cols <= maxTextWidth {
			return cols
		}
	}
	if n, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && n >= minTextWidth && n <= maxTextWidth {
		return n
	}
	return 80
}

// textStyle is the glamour style of `--format text` on w: "dark" (colour)
// only when w is a terminal and NO_COLOR is unset (no-color.org);
// otherwise "notty", plain text without escape codes for a pipe or a file.
func textStyle(w io.Writer) string {
	if v, ok := w.(*visible.Writer); ok {
		w = v.Underlying()
	}
	f, ok := w.(interface{ Fd() uintptr })
	if !ok || !term.IsTerminal(f.Fd()) || os.Getenv("NO_COLOR") != "" {
		return "notty"
	}
	return "dark"
}

// writeReport writes report.json, report.md and the SVG charts into the
// new or empty directory dir as one set: they are written into a staging
// directory beside dir and renamed into place together (fsutil.StageDir),
// so a reader finds all of them or no dir, and a killed score leaves only
// the staging directory. report.json is streamed to its file
// (Report.WriteJSON), never held whole. The caller holds dir's lock.
func writeReport(r scorer.ScoreReport, dir string) error {
	st, err := fsutil.StageDir(dir)
	if err != nil {
		return err
	}
	defer st.Cleanup()
	if err := st.WriteWith("report.json", 0o644, func(w io.Writer) error {
		bw := bufio.NewWriterSize(w, 1<<16)
		if err := r.WriteJSON(bw); err != nil {
			return err
		}
		return bw.Flush()
	}); err != nil {
		return err
	}
	charts, err := r.Charts()
	if err != nil {
		return err
	}
	if err := st.WriteFile("report.md", r.Markdown(true), 0o644); err != nil {
		return err
	}
	for _, f := range charts {
		if err := st.WriteFile(f.Name, f.SVG, 0o644); err != nil {
			return err
		}
	}
	return st.Commit()
}
