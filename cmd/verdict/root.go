package main

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"verdict/campaign"
	"verdict/fixtures"
	"verdict/internal/visible"
	"verdict/tui"

	"github.com/spf13/cobra"
	"github.com/spf13/viper"
)

// usageError marks a command-line usage error (exit code 2).
type usageError struct{ err error }

// Error returns the usage problem as a sentence.
func (e *usageError) Error() string { return e.err.Error() }

// Unwrap returns the underlying error.
func (e *usageError) Unwrap() error { return e.err }

// usagef returns a usage error (exit code 2).
func usagef(format string, a ...any) error { return &usageError{fmt.Errorf(format, a...)} }

// failedError marks a completed command whose report says the input was
// refused or a gate failed (exit code 1, or code when it is set: see
// exitCodesHelp). msg is an optional one-line summary for stderr; the
// report itself was already written to stdout.
type failedError struct {
	msg  string
	code int
}

// Error returns "failed: " and the one-line summary.
func (e *failedError) Error() string { return "failed: " + e.msg }

// failed returns a failedError with a one-line summary.
func failed(format string, a ...any) error { return &failedError{msg: fmt.Sprintf(format, a...)} }

// commands is every subcommand of verdict, listed in one place. Each is
// built for one run from a (its streams, configuration and defaults): no
// command keeps state between runs.
func commands(a *app) []*cobra.Command {
	return []*cobra.Command{
		newAdjudicateCmd(a),
		newAdmitCmd(a),
		newAgreementCmd(a),
		newBlindCmd(a),
		newCheckCmd(a),
		newControlsCmd(a),
		newDemoCmd(a),
		newDisagreementsCmd(a),
		newExportCmd(a),
		newFixturesCmd(a),
		newFreezeCmd(a),
		newGradeCmd(a),
		newLedgerCmd(a),
		newManifestCmd(a),
		newPacketCmd(a),
		newPacketizeCmd(a),
		newPromptsCmd(a),
		newRateCmd(a),
		newReceiptCmd(a),
		newResolveCmd(a),
		newRevealCmd(a),
		newScoreCmd(a),
		newSignersCmd(a),
		newServeCmd(a),
		newStatusCmd(a),
		newValidateCmd(a),
		newVerifyCmd(a),
		newVersionCmd(a),
	}
}

// app carries what every command of one run shares: configuration, the
// standard streams and the defaults a test may replace. It is made per
// run (newApp); nothing of it lives in package variables.
type app struct {
	cfg *viper.Viper
	// cfgFile is the configuration file read ("" when none was): a
	// relative path it names is read from its directory (configPath).
	cfgFile string
	stdin   io.Reader
	stdout  io.Writer
	stderr  io.Writer
	// clock, when set, stamps journal entries instead of the real clock
	// (the SYNTHETIC demo injects a fixed clock for reproducible bytes).
	clock func() time.Time
	// embedded is the default campaign of check, blind and ledger (the
	// embedded SYNTHETIC campaign, DESIGN "Defaults and embedded input");
	// nil in a build without one.
	embedded func() fs.FS
	// tui are the options ledger, rate and adjudicate run their program
	// with: the zero value is the process's terminal; a test drives a
	// program through a pipe.
	tui tui.Options
	// isTerminal reports whether standard input and output are terminals
	// (the terminal UIs refuse otherwise).
	isTerminal func() bool
}

// newApp is the app of one run with the given standard streams: a new
// configuration, the embedded campaign, and isTerminal true only when
// both stdin and stdout are terminal files.
func newApp(stdin io.Reader, stdout, stderr io.Writer) *app {
	return &app{cfg: viper.New(), stdin: stdin, stdout: stdout, stderr: stderr, embedded: fixtures.Campaign,
		isTerminal: func() bool { return isTerminalFile(stdin) && isTerminalFile(stdout) }}
}

// newRootCmd is the root command of one run of a.
func newRootCmd(a *app) *cobra.Command {
	if a.cfg == nil {
		a.cfg = viper.New()
	}
	var cfgFile string
	root := &cobra.Command{
		Use:           "verdict",
		Short:         "Blinded human semantic adjudication of LLM-agent answers, and a deterministic scorer",
		Long:          campaignSummary + "\n\n" + exitCodesHelp,
		SilenceUsage:  true,
		SilenceErrors: true,
		PersistentPreRunE: func(cmd *cobra.Command, args []string) error {
			a.outputMode(cmd)
			return a.loadConfig(cfgFile)
		},
	}
	root.PersistentFlags().StringVar(&cfgFile, "config", "", "config file (default: $XDG_CONFIG_HOME/verdict/verdict.yaml)")
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error { return &usageError{err} })
	root.AddCommand(commands(a)...)
	wrapArgs(root)
	root.SetIn(a.stdin)
	root.SetOut(a.stdout)
	root.SetErr(a.stderr)
	return root
}

// wrapArgs makes positional-argument validation failures usage errors, for
// c and every command below it. A parent command (one with subcommands and
// no run function of its own) accepts no positional argument: a word that
// names none of its subcommands is a usage error naming that word (exit 2),
// and the parent alone prints its help.
func wrapArgs(c *cobra.Command) {
	if c.HasSubCommands() && !c.Runnable() {
		if c.SuggestionsMinimumDistance <= 0 {
			c.SuggestionsMinimumDistance = 2
		}
		c.Args = unknownSubcommand
		c.RunE = func(cmd *cobra.Command, args []string) error { return cmd.Help() }
	}
	if c.Args != nil {
		orig, parent := c.Args, c.HasSubCommands()
		c.Args = func(cmd *cobra.Command, args []string) error {
			err := orig(cmd, args)
			switch {
			case err == nil:
				return nil
			case parent:
				return &usageError{err}
			}
			// cobra says only how many arguments it wanted; the use line
			// names them.
			_, name, _ := strings.Cut(cmd.CommandPath(), " ")
			return &usageError{fmt.Errorf("%s: %v; usage: %s", name, err, cmd.UseLine())}
		}
	}
	for _, sub := range c.Commands() {
		wrapArgs(sub)
	}
}

// unknownSubcommand is the Args of a parent command: any positional
// argument is an unknown subcommand.
func unknownSubcommand(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	msg := fmt.Sprintf("unknown command %q for %q", args[0], cmd.CommandPath())
	if s := cmd.SuggestionsFor(args[0]); len(s) > 0 {
		msg += "; did you mean " + strings.Join(s, " or ") + "?"
	}
	var subs []string
	for _, sub := range cmd.Commands() {
		if sub.IsAvailableCommand() {
			subs = append(subs, sub.Name())
		}
	}
	return usagef("%s (subcommands: %s)", msg, strings.Join(subs, ", "))
}

// loadConfig reads verdict.yaml from --config or the XDG config dir, and
// VERDICT_* environment variables. A missing default file is not an error.
// The file is read through the one bounded reader (readConfigFile).
func (a *app) loadConfig(explicit string) error {
	v := a.cfg
	v.SetEnvPrefix("VERDICT")
	v.SetEnvKeyReplacer(strings.NewReplacer("-", "_", ".", "_"))
	v.AutomaticEnv()
	if explicit != "" {
		a.cfgFile = explicit
		return readConfigFile(v, explicit)
	}
	dir := os.Getenv("XDG_CONFIG_HOME")
	if dir == "" {
		if home, err := os.UserHomeDir(); err == nil {
			dir = filepath.Join(home, ".config")
		}
	}
	if dir == "" {
		return nil
	}
	path := filepath.Join(dir, "verdict", "verdict.yaml")
	if _, err := os.Lstat(path); err != nil {
		return nil
	}
	a.cfgFile = path
	return readConfigFile(v, path)
}

// configPath is the file the config key key names: a relative path written
// in the configuration file is relative to that file's directory, never
// to the directory a command is run from (a coordinator running score
// inside a ratings directory must not read an allowed_signers a rater put
// there); from VERDICT_<KEY> it is relative to the working directory, as a
// flag is. "" when the key is not set.
func (a *app) configPath(key string) string {
	p := a.cfg.GetString(key)
	if p == "" || filepath.IsAbs(p) || a.cfgFile == "" || !a.cfg.InConfig(key) {
		return p
	}
	if _, env := os.LookupEnv("VERDICT_" + strings.ToUpper(key)); env {
		return p
	}
	return filepath.Join(filepath.Dir(a.cfgFile), p)
}

// readConfigFile reads the configuration file at path into v: a regular
// file of at most campaign.FileConfig's cap (a FIFO there is refused
// without blocking, a device without being read), in the format its
// extension names (YAML without one). Every failure is a usage error
// (exit 2) naming the file.
func readConfigFile(v *viper.Viper, path string) error {
	b, err := campaign.ReadRegular(path, campaign.FileConfig)
	if err != nil {
		return usagef("reading config %s: %v", visible.Text(path), err)
	}
	typ := strings.TrimPrefix(filepath.Ext(path), ".")
	if typ == "" {
		typ = "yaml"
	}
	v.SetConfigType(typ)
	if err := v.ReadConfig(bytes.NewReader(b)); err != nil {
		return usagef("reading config %s: %v", visible.Text(path), err)
	}
	return nil
}

// formatFlag adds the --format flag with the allowed values and returns a
// pointer to its value; checkFormat validates it.
func formatFlag(c *cobra.Command, allowed ...string) *string {
	var f string
	c.Flags().StringVar(&f, "format", allowed[0], "output format: "+strings.Join(allowed, "|"))
	c.PreRunE = chainPreRun(c.PreRunE, func(cmd *cobra.Command, args []string) error {
		for _, x := range allowed {
			if f == x {
				return nil
			}
		}
		return usagef("--format %q: want one of %s", f, strings.Join(allowed, ", "))
	})
	return &f
}

func chainPreRun(prev, next func(*cobra.Command, []string) error) func(*cobra.Command, []string) error {
	if prev == nil {
		return next
	}
	return func(c *cobra.Command, args []string) error {
		if err := prev(c, args); err != nil {
			return err
		}
		return next(c, args)
	}
}

// campaignSummary opens `verdict help`: what a campaign compares, its
// scorecards, gates and decisions, in a few paragraphs (README "What a
// campaign compares" says the same at more length).
const campaignSummary = `verdict decides whether asking a model to reconcile its evidence makes its
code-investigation answers better, at an acceptable cost. It never calls a
model: it reads a campaign that others ran, lets two people grade it
blind, and scores it.

For each task (a read-only question about a repository, with a fixed packet
of authenticated source excerpts E1..En) a repetition runs three sessions.
The shared draft D answers from the packet alone. Review A (ordinary
review) and review B (review with an evidence reconciliation ledger: B
must say, for every evidence item, whether it used, excluded or left it
unresolved) each revise that same draft. D is billed once but counted in
both complete workflows (D+A and D+B), so the two arms differ only in the
review instruction.

Two raters grade every final answer without knowing its arm, against the
task's frozen obligations; a third person settles where they differ. The
scorer then fills three scorecards: source and protocol correctness (no
wrong citation, no critical miss, B's ledger complete), final evidence and
plan correctness (R, the share of answerable obligations addressed, and U,
uncertainty handled honestly, per task and on average), and complete cost
and time (B against A for the whole workflow, per task and per pair).
Every gate must pass on its own; none makes up for another.

The decision is one of: all-gates-pass (B improves R by at least 0.10 and
every gate passes); quality-improves-gate-fails (the gain is there, a
named gate fails); no-gain (no 0.10 gain); execution-invalid (a
prerequisite failed, so there is no verdict); no-decision (development
round 1: inspected, never decided). The rules cite CONTRACT, PROMPTS and
EVALUATOR-CONTROLS by section; docs/contract.md says, rule by rule, what
each one requires.`
