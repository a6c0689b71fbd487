// Command verdict is the command-line entry point. See doc.go for the manual.
package main

import (
	"errors"
	"fmt"
	"os"
	"strings"
)

func main() {
	os.Exit(run(os.Args[1:]))
}

// run executes the command line and returns the process exit code. Exit
// codes are decided here only (DESIGN "Command line"): 0 success; 1 the
// input was refused or a gate failed; 2 usage error.
func run(args []string) int {
	root := newRootCmd()
	root.SetArgs(args)
	cmd, err := root.ExecuteC()
	if err != nil && isCobraUsage(err) {
		err = &usageError{err}
	}
	return exitCode(err, formatOf(cmd))
}

// exitCode maps an error returned by a command to the process exit code,
// printing a refusal in the command's output format (printRefusal).
func exitCode(err error, format string) int {
	if err == nil {
		return 0
	}
	var ue *usageError
	if errors.As(err, &ue) {
		fmt.Fprintln(os.Stderr, "verdict:", err)
		return 2
	}
	var fe *failedError
	if errors.As(err, &fe) {
		// The report already said which gate or refusal; print the summary.
		if fe.msg != "" {
			fmt.Fprintln(os.Stderr, "verdict:", fe.msg)
		}
		return 1
	}
	printRefusal(os.Stdout, os.Stderr, format, err)
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
