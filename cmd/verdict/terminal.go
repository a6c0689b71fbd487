package main

import (
	"os"

	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"

	"verdict/campaign"
	"verdict/tui"
)

// tuiOptions are the options ledger, rate and adjudicate run their program
// with: the zero value (the process's terminal). Tests replace it to drive
// a program through a pipe.
var tuiOptions tui.Options

// addThemeFlag adds --theme to a terminal-UI command.
func addThemeFlag(c *cobra.Command, theme *string) {
	c.Flags().StringVar(theme, "theme", "", "colours: light, dark or auto (ask the terminal for its background; default; config key theme); NO_COLOR removes every colour")
}

// uiOptions returns the options a terminal-UI command runs with: tuiOptions
// and the theme of --theme (or the config key theme). A theme that is not
// light, dark or auto is a usage error.
func uiOptions(a *app, theme string) (tui.Options, error) {
	if theme == "" {
		theme = a.cfg.GetString("theme")
	}
	th, err := tui.ParseTheme(theme)
	if err != nil {
		return tui.Options{}, usagef("--theme: %v", err)
	}
	o := tuiOptions
	o.Theme = th
	return o, nil
}

// ReasonNoTerminal refuses a terminal-UI command (ledger, rate, adjudicate)
// when standard input or standard output is not a terminal: the UI cannot
// run, and the refusal names the non-interactive command that gives the
// same result instead.
const ReasonNoTerminal campaign.Reason = "no-terminal"

// stdioIsTerminal reports whether both standard input and standard output
// are terminals. Tests replace it to exercise both answers.
var stdioIsTerminal = func() bool {
	return term.IsTerminal(os.Stdin.Fd()) && term.IsTerminal(os.Stdout.Fd())
}

// requireTerminal returns nil when stdin and stdout are terminals, else an
// exit-1 error whose one-line summary says that `verdict name` is a terminal
// UI and which command (instead) works without one. It is called before the
// UI starts and before anything is written, so a refusal changes nothing
// on disk.
func requireTerminal(name, instead string) error {
	if stdioIsTerminal() {
		return nil
	}
	return failed("%s: verdict %s is a terminal UI and standard input or output is not a terminal; without a terminal use %s", ReasonNoTerminal, name, instead)
}
