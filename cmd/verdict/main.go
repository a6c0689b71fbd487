// Command verdict is the command-line entry point. See doc.go for the manual.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
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
// "Command line"): 0 success; 1 the input was refused or a gate failed;
// 2 usage error.
func runApp(a *app, args []string) int {
	root := newRootCmd(a)
	root.SetArgs(args)
	cmd, err := root.ExecuteC()
	if err != nil && isCobraUsage(err) {
		err = &usageError{err}
	}
	return exitCode(err, formatOf(cmd), a.stdout, a.stderr)
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
		return 2
	}
	var fe *failedError
	if errors.As(err, &fe) {
		// The report already said which gate or refusal; print the summary.
		if fe.msg != "" {
			fmt.Fprintln(stderr, "verdict:", fe.msg)
		}
		return 1
	}
	printRefusal(stdout, stderr, format, err)
	return 1
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
