// Command verdict is the command-line entry point. See doc.go for the manual.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"verdict/internal/visible"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run executes the command line args with the given standard streams and
// returns the process exit code: a function of its arguments only.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return runApp(newApp(stdin, stdout, stderr), args)
}

// runApp executes args with a (run, or a test's app with its own terminal
// answer and UI options). Exit codes are decided here only (DESIGN
// "Command line"; the table is exitCodesHelp): 0 success; 1 the input was
// refused or a gate failed; 2 usage error; 3 the campaign is incomplete.
//
// Everything a command prints goes through visible.Writer (DESIGN "Text
// shown on any screen renders control characters visibly"): a string that
// came from a file cannot act on the terminal in any command or format
// (inertOutput).
func runApp(a *app, args []string) int {
	out, errw := inertOutput(a)
	root := newRootCmd(a)
	root.SetArgs(args)
	cmd, err := root.ExecuteC()
	if err != nil && isCobraUsage(err) {
		err = &usageError{err}
	}
	code := exitCode(err, formatOf(cmd), a.stdout, a.stderr)
	out.Flush()
	errw.Flush()
	return code
}

// inertOutput puts a's standard output and error behind visible.Writer
// filters (plain notation; JSON escapes once a command's --format is json
// or jsonl, see outputMode) and returns the filters.
func inertOutput(a *app) (out, errw *visible.Writer) {
	out, errw = visible.NewWriter(a.stdout, visible.Plain), visible.NewWriter(a.stderr, visible.Plain)
	a.stdout, a.stderr = out, errw
	return out, errw
}

// outputMode sets the filters of a's output for the command cmd about to
// run: JSON escapes for --format json or jsonl; and, for the one output
// that must be the exact bytes of a file (prompts --raw, a prompt to be
// sent as it is), standard output unfiltered.
func (a *app) outputMode(cmd *cobra.Command) {
	mode := visible.Plain
	if f := formatOf(cmd); f == "json" || f == "jsonl" {
		mode = visible.JSON
	}
	for _, w := range []io.Writer{a.stdout, a.stderr} {
		if v, ok := w.(*visible.Writer); ok {
			v.SetMode(mode)
		}
	}
	if f := cmd.Flags().Lookup("raw"); f != nil && f.Value.String() != "" && cmd.Name() == "prompts" {
		if v, ok := a.stdout.(*visible.Writer); ok {
			a.stdout = v.Underlying()
		}
	}
}

// exitCode maps an error returned by a command to the process exit code,
// printing a refusal in the command's output format (printRefusal).
func exitCode(err error, format string, stdout, stderr io.Writer) int {
	if err == nil {
		return 0
	}
	var ue *usageError
	if errors.As(err, &ue) {
		fmt.Fprintln(stderr, "verdict:", err)
		return exitUsage
	}
	var fe *failedError
	if errors.As(err, &fe) {
		// The report already said which gate or refusal; print the summary.
		if fe.msg != "" {
			fmt.Fprintln(stderr, "verdict:", fe.msg)
		}
		if fe.code != 0 {
			return fe.code
		}
		return exitFailed
	}
	printRefusal(stdout, stderr, format, err)
	var re *refusedError
	if errors.As(err, &re) && onlyIncomplete(re.err) {
		return exitIncomplete
	}
	return exitFailed
}

// isCobraUsage reports whether err is one of cobra's own command-line
// errors (unknown command or flag), which are usage errors.
func isCobraUsage(err error) bool {
	var ue *usageError
	if errors.As(err, &ue) {
		return false
	}
	m := err.Error()
	return strings.HasPrefix(m, "unknown command") || strings.HasPrefix(m, "unknown flag") ||
		strings.HasPrefix(m, "unknown shorthand flag") || strings.Contains(m, "requires at least") ||
		strings.Contains(m, "accepts ")
}
