package main

import (
	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"

	"verdict/tui"
	"verdict/verr"
)

// addThemeFlag adds --theme to a terminal-UI command.
func addThemeFlag(c *cobra.Command, theme *string) {
	c.Flags().StringVar(theme, "theme", "", "colours: light, dark or auto (ask the terminal for its background; default; config key theme); NO_COLOR removes every colour")
}

// uiOptions returns the options a terminal-UI command runs with: a.tui
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
	o := a.tui
	o.Theme = th
	return o, nil
}

// ReasonNoTerminal refuses a terminal-UI command (ledger, rate, adjudicate)
// when standard input or standard output is not a terminal: the UI cannot
// run, and the refusal names the non-interactive command that gives the
// same result instead.
const ReasonNoTerminal verr.Reason = "no-terminal"

// isTerminalFile reports whether s is a file that is a terminal.
func isTerminalFile(s any) bool {
	f, ok := s.(interface{ Fd() uintptr })
	return ok && term.IsTerminal(f.Fd())
}

// requireTerminal returns nil when stdin and stdout are terminals, else an
// exit-1 error whose one-line summary says that `verdict name` is a terminal
// UI and which command (instead) works without one. It is called before the
// UI starts and before anything is written, so a refusal changes nothing
// on disk.
func (a *app) requireTerminal(name, instead string) error {
	if a.isTerminal != nil && a.isTerminal() {
		return nil
	}
	return failed("%s: verdict %s is a terminal UI and standard input or output is not a terminal; without a terminal use %s", ReasonNoTerminal, name, instead)
}
