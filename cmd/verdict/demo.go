package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing/fstest"
	"time"

	"github.com/spf13/cobra"

	"verdict/adjudication"
	"verdict/blinding"
	"verdict/campaign"
	"verdict/fixtures"
	"verdict/pipeline"
	"verdict/scorer"
	"verdict/verr"
)

// demoItemKey is the fixed item-ID key of the demo's blinding, so the demo
// writes the same bytes every time. A real campaign draws a random key.
var demoItemKey = bytes.Repeat([]byte{0x5a}, 32)

// Fixed signing times of the demo records (reproducible bytes).
const (
	demoSheetTime  = "2026-10-01T10:00:00Z"
	demoAdjTime    = "2026-10-01T11:00:00Z"
	demoRevealTime = "2026-10-01T12:00:00Z"
	// demoJournalStart is the time before the demo journals' first entry;
	// each entry is stamped one millisecond after the one before (a million
	// entries stay before demoSheetTime).
	demoJournalStart = "2026-10-01T09:00:00Z"
)

// demoClock returns the demo's fixed journal clock: one millisecond past
// demoJournalStart at the first call, one millisecond more at each later
// call.
// Two demo runs therefore stamp the same journal entries with the same
// times (no wall-clock time in the demo's outputs).
func demoClock() func() time.Time {
	t, err := time.Parse(time.RFC3339, demoJournalStart)
	if err != nil {
		panic(err) // a constant
	}
	return func() time.Time {
		t = t.Add(time.Millisecond)
		return t
	}
}

func newDemoCmd(a *app) *cobra.Command {
	var out, design, outcome string
	var tasks, reps int
	c := &cobra.Command{
		Use:   "demo [--out DIR] [--tasks N --repetitions R | --design system-comparison [--outcome DECISION]]",
		Short: "Run the whole chain on the embedded SYNTHETIC campaign and print the decision",
		Long: `demo writes the embedded SYNTHETIC campaign to a temporary directory (or
--out), checks it, blinds it for two fixture raters, grades every item from
the fixture answer key (the second rater disagrees on a few fields), freezes
and signs both sheets, adjudicates every disagreement, signs the reveal,
scores, and prints the decision and where every file is. Every key used is a
TEST ONLY key. With --tasks N (N >= 1) and --repetitions R (R >= 1,
default 3) it runs the chain on a generated passing campaign of that size
instead (used by scripts/bench.sh); --tasks 0 (the default) is the embedded
campaign, and --repetitions is allowed only with --tasks. Every time in the
outputs is fixed, so two runs write the same bytes. --out must be new or
empty (output-not-empty); everything appears there at once (written into a
staging directory beside it and renamed into place), a second demo to the
same --out while one runs is refused (output-locked), and what a killed
run left beside it is removed by the next. With --design
system-comparison it runs the same chain on the SYNTHETIC system-comparison
campaign (CONTRACT §6: Native, Madar and Serena, 36 workflows), its
reviews graded from the fixture's system answer key, and prints the
comparison's decision and the system report's files. Exit 0 when the
chain ran, whatever the decision; 2 on a usage error.

` + systemOutcomeHelp,
		Args: cobra.NoArgs,
	}
	c.Flags().StringVar(&out, "out", "", "directory to write everything to (default: a new temporary directory)")
	c.Flags().IntVar(&tasks, "tasks", 0, "generate a passing campaign with this many tasks (>= 1) instead of the embedded one (0)")
	c.Flags().IntVar(&reps, "repetitions", 3, "repetitions per task (>= 1) with --tasks")
	c.Flags().StringVar(&design, "design", string(campaign.DesignFixedEvidence), "campaign design: fixed-evidence (the embedded campaign) or system-comparison (CONTRACT §6)")
	addOutcomeFlag(c, &outcome)
	c.RunE = func(cmd *cobra.Command, args []string) error {
		if tasks < 0 {
			return usagef("demo: --tasks %d: want 0 (the embedded campaign) or a positive number of tasks", tasks)
		}
		if reps < 1 {
			return usagef("demo: --repetitions %d: want at least 1", reps)
		}
		if tasks == 0 && cmd.Flags().Changed("repetitions") {
			return usagef("demo: --repetitions needs --tasks N (the embedded campaign has its own repetitions)")
		}
		system := campaign.Design(design) == campaign.DesignSystemComparison
		if !system && campaign.Design(design) != campaign.DesignFixedEvidence {
			return usagef("demo: --design %q: want %s or %s", design, campaign.DesignFixedEvidence, campaign.DesignSystemComparison)
		}
		if system && tasks > 0 {
			return usagef("demo: --tasks generates a fixed-evidence campaign; the system comparison has its own six tasks")
		}
		o, err := systemOutcomeFlag(cmd, design, outcome)
		if err != nil {
			return usagef("demo: %v", err)
		}
		if out == "" {
			d, err := os.MkdirTemp("", "verdict-demo-")
			if err != nil {
				return err
			}
			out = d
		}
		fsys := fixtures.Campaign()
		key, err := fixtures.CampaignAnswerKey()
		switch {
		case tasks > 0:
			var gen fstest.MapFS
			gen, key, err = fixtures.GenerateWithKey(fixtures.Options{Passing: true, Tasks: tasks, Repetitions: reps})
			fsys = gen
		case system:
			var gen fstest.MapFS
			if gen, err = fixtures.GenerateSystemComparison(fixtures.SystemOptions{Outcome: o}); err == nil {
				fsys = gen
				key, err = fixtures.SystemAnswerKey(gen)
			}
		}
		if err != nil {
			return err
		}
		// The whole chain's files appear at once (writeOutputDir: out
		// locked, new or empty, written in a staging directory beside it
		// and renamed into place).
		var rep scorer.ScoreReport
		if err := writeOutputDir(a, out, func(dir string) (err error) {
			rep, err = runChain(a, fsys, key, dir)
			return err
		}); err != nil {
			return err
		}
		// The chart files the design's report wrote beside report.md.
		drawn, err := rep.Charts()
		if err != nil {
			return err
		}
		var charts []string
		for _, c := range drawn {
			charts = append(charts, c.Name)
		}
		d := rep.Outcome()
		fmt.Fprintf(a.stdout, "%s\n\nDecision: %s\n%s\n\n", scorer.SyntheticNotice, d.Kind, d.Summary)
		fmt.Fprintf(a.stdout, "Files:\n  campaign        %s\n  bundles, map    %s\n  journals        %s\n  signed records  %s (sheet-ann.json, sheet-bob.json, adjudication.json, reveal.json, each with .sig)\n  TEST ONLY keys  %s\n  report          %s (report.json, report.md, %s)\n",
			filepath.Join(out, "campaign"), filepath.Join(out, "ratings"), filepath.Join(out, "ratings"), filepath.Join(out, "ratings"),
			filepath.Join(out, "keys"), filepath.Join(out, "report"), strings.Join(charts, ", "))
		fmt.Fprintf(a.stdout, "One person plays every role here, so the sealed map lies beside the bundles; in a real campaign keep it out of the raters' folder (blind --map-out; serve refuses a folder holding it).\n")
		fmt.Fprint(a.stdout, scoreAgainHint(filepath.Join(out, "campaign"), filepath.Join(out, "ratings")))
		fmt.Fprintf(a.stdout, "The directory %s is left for you to inspect; demo never deletes it: remove it when done.\n", out)
		return nil
	}
	return c
}

// scoreAgainHint is the demo's closing hint: the score command for the
// installed binary and, for a source checkout without it, the same command
// through `go run ./cmd/verdict`. It names the demo's TEST ONLY
// allowed_signers file explicitly, because score takes the trust root only
// from --allowed-signers or the config key and never from the ratings
// directory (allowed-signers-missing otherwise). It does not look at PATH,
// so the demo's output stays the same on every machine.
func scoreAgainHint(campaignDir, ratingsDir string) string {
	args := fmt.Sprintf("score %s --ratings %s --allowed-signers %s", campaignDir, ratingsDir, filepath.Join(ratingsDir, "allowed_signers"))
	return fmt.Sprintf("\nScore again with:\n  verdict %s\nor, from the source tree without the binary installed:\n  go run ./cmd/verdict %s\n", args, args)
}

// quietApp is an app whose output is discarded (sub-steps of the chain).
func quietApp(a *app, w io.Writer) *app {
	return &app{cfg: a.cfg, stdin: a.stdin, stdout: w, stderr: w, clock: a.clock, embedded: a.embedded, tui: a.tui, isTerminal: a.isTerminal}
}

// runSub runs one verdict subcommand in-process through the same public
// entry point as the command line.
func runSub(a *app, args ...string) error {
	root := &cobra.Command{Use: "verdict", SilenceUsage: true, SilenceErrors: true}
	for _, c := range commands(a) {
		wrapArgs(c)
		root.AddCommand(c)
	}
	root.SetArgs(args)
	root.SetOut(a.stdout)
	root.SetErr(a.stderr)
	if err := root.Execute(); err != nil {
		return fmt.Errorf("verdict %s: %w", args[0], err)
	}
	return nil
}

// copyFS writes every file of fsys under dir.
func copyFS(fsys fs.FS, dir string) error {
	return fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		full := filepath.Join(dir, filepath.FromSlash(p))
		if d.IsDir() {
			return os.MkdirAll(full, 0o755)
		}
		b, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		return os.WriteFile(full, b, 0o600)
	})
}

// ReasonOutputNotEmpty: demo --out or score --out names a directory that
// holds files (or a path that is not a directory); both write only into a
// new or empty directory, so nothing the user owns is replaced or deleted.
const ReasonOutputNotEmpty verr.Reason = "output-not-empty"

// emptyOutputDir returns nil when dir does not exist or is an empty
// directory, and a ReasonOutputNotEmpty refusal otherwise.
func emptyOutputDir(dir string) error {
	fi, err := os.Lstat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return &verr.Error{Reason: ReasonOutputNotEmpty, File: dir, Rule: "DESIGN quality bar: never destroy a file the user owns",
			Detail: "--out names an existing file, not a directory; give a new or empty directory"}
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	if len(ents) > 0 {
		return &verr.Error{Reason: ReasonOutputNotEmpty, File: dir, Rule: "DESIGN quality bar: never destroy a file the user owns",
			Detail: fmt.Sprintf("--out holds %d entries (first %q); verdict writes only into a new or empty directory and never replaces a file", len(ents), ents[0].Name())}
	}
	return nil
}

// runChain runs check, blinding, grading by two fixture raters, freezing,
// adjudication, reveal and score for the campaign fsys (either design)
// with answer key key, writing everything under out. It returns the score
// report.
func runChain(a *app, fsys fs.FS, key *fixtures.AnswerKey, out string) (scorer.ScoreReport, error) {
	var log bytes.Buffer
	q := quietApp(a, &log)
	q.clock = demoClock()
	campDir, ratings, keys, reportDir := filepath.Join(out, "campaign"), filepath.Join(out, "ratings"), filepath.Join(out, "keys"), filepath.Join(out, "report")
	for _, d := range []string{campDir, ratings, keys} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, err
		}
	}
	if err := copyFS(fsys, campDir); err != nil {
		return nil, err
	}
	if err := copyFS(fixtures.TestOnlyKeys(), keys); err != nil {
		return nil, err
	}
	res, err := pipeline.Blind(pipeline.DirFS(campDir), blinding.Options{Key: demoItemKey, Raters: []string{"ann", "bob"}}, nil)
	if err != nil {
		return nil, fmt.Errorf("blind: %w", err)
	}
	if err := pipeline.WriteBlinding(ratings, res); err != nil {
		return nil, err
	}
	p := func(n string) string { return filepath.Join(ratings, n) }
	lookup := key.Lookup()
	sessionOf := map[string]string{}
	for _, it := range res.Map.Items {
		sessionOf[it.Item] = it.Session
	}
	// The TEST ONLY allowed_signers, written beside the records for the
	// reader of the demo and passed explicitly to every command and to
	// score: no command looks for it in the ratings directory.
	allowedBytes, err := fs.ReadFile(fixtures.TestOnlyKeys(), "allowed_signers")
	if err != nil {
		return nil, err
	}
	allowed := p("allowed_signers")
	if err := os.WriteFile(allowed, allowedBytes, 0o600); err != nil {
		return nil, err
	}
	for i, rater := range []string{"ann", "bob"} {
		bundle := p("bundle-" + rater + ".json")
		grades, err := raterGrades(res.Bundles[i], sessionOf, lookup, rater == "bob")
		if err != nil {
			return nil, err
		}
		gf := p("grades-" + rater + ".json")
		if err := writeJSONFile(gf, grades); err != nil {
			return nil, err
		}
		journal := p("bundle-" + rater + ".journal.jsonl")
		if err := runSub(q, "grade", bundle, "--journal", journal, "--from", gf); err != nil {
			return nil, err
		}
		if err := runSub(q, "freeze", "--journal", journal, "--bundle", bundle, "--key", filepath.Join(keys, "rater-"+rater),
			"--name", rater, "--role", "rater", "--out", p("sheet-"+rater+".json"), "--time", demoSheetTime, "--allowed-signers", allowed); err != nil {
			return nil, err
		}
	}
	// The adjudicator takes the answer key's value on every disputed field.
	sa, err := readSheet(p("sheet-ann.json"))
	if err != nil {
		return nil, err
	}
	sb, err := readSheet(p("sheet-bob.json"))
	if err != nil {
		return nil, err
	}
	ds, err := adjudication.Disagreements(sa, sb)
	if err != nil {
		return nil, err
	}
	var choices []adjudication.Choice
	for _, d := range ds {
		want, ok := keyValue(lookup[sessionOf[d.Field.Item]], d.Field)
		if !ok {
			return nil, fmt.Errorf("adjudicate: no answer-key value for %s", d.Field)
		}
		choices = append(choices, adjudication.Choice{Field: d.Field, Final: want})
	}
	if err := writeJSONFile(p("choices.json"), choices); err != nil {
		return nil, err
	}
	if err := runSub(q, "resolve", p("sheet-ann.json"), p("sheet-bob.json"), "--from", p("choices.json"), "--allowed-signers", allowed,
		"--key", filepath.Join(keys, "adjudicator-cho"), "--name", "cho", "--out", p("adjudication.json"), "--time", demoAdjTime); err != nil {
		return nil, err
	}
	if err := runSub(q, "reveal", "--sheet", p("sheet-ann.json"), "--sheet", p("sheet-bob.json"), "--adjudication", p("adjudication.json"),
		"--map", p("sealed-map.json"), "--allowed-signers", allowed, "--key", filepath.Join(keys, "coordinator-dee"), "--name", "dee",
		"--out", p("reveal.json"), "--time", demoRevealTime, "--campaign", campDir); err != nil {
		return nil, err
	}
	rep, err := pipeline.ScoreReport(pipeline.DirFS(campDir), pipeline.Ratings{Dir: ratings, AllowedSigners: allowed, Map: p("sealed-map.json")}, pipeline.ScoreOptions{})
	if err != nil {
		return nil, fmt.Errorf("score: %w", err)
	}
	if err := writeReport(rep, reportDir); err != nil {
		return nil, err
	}
	return rep, nil
}

func readSheet(path string) (*adjudication.Sheet, error) {
	b, err := campaign.ReadRegular(path, campaign.FileRecord)
	if err != nil {
		return nil, err
	}
	return adjudication.ParseSheet(path, b)
}

func writeJSONFile(path string, v any) error {
	b, err := campaign.MarshalJSON(v)
	if err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o600)
}

func keyValue(gs []fixtures.KeyedGrade, f adjudication.Field) (string, bool) {
	for _, g := range gs {
		if g.Kind == string(f.Kind) && g.Target == f.Target {
			return g.Value, true
		}
	}
	return "", false
}

// raterGrades grades every required field of a bundle from the answer key.
// The second rater (disagree) gives a different allowed value on every 40th
// field in canonical order, so the adjudication has work to do.
func raterGrades(b *blinding.Bundle, sessionOf map[string]string, lookup map[string][]fixtures.KeyedGrade, disagree bool) ([]gradeInput, error) {
	fields := adjudication.BundleFields(b)
	slices.SortFunc(fields, adjudication.CompareFields)
	out := make([]gradeInput, 0, len(fields))
	for i, f := range fields {
		v, ok := keyValue(lookup[sessionOf[f.Item]], f)
		if !ok {
			return nil, fmt.Errorf("grade: no answer-key value for %s (session %s)", f, sessionOf[f.Item])
		}
		if disagree && i%40 == 7 {
			for _, alt := range adjudication.AllowedValues(f.Kind) {
				if alt != v {
					v = alt
					break
				}
			}
		}
		out = append(out, gradeInput{Item: f.Item, Kind: f.Kind, Target: f.Target, Value: v, SpentMS: 1000})
	}
	return out, nil
}
