package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"

	"github.com/spf13/cobra"

	"verdict/campaign"
	"verdict/verr"
)

// ReasonFileUnreadable: a file the user named cannot be read for a reason
// other than its absence (permissions, an I/O error).
const ReasonFileUnreadable verr.Reason = "file-unreadable"

// refusedError marks a refusal of the user's input (exit 1). run prints it
// in the command's output format (printRefusal); the command itself prints
// nothing about it.
type refusedError struct{ err error }

// Error returns the refusal's sentence.
func (e *refusedError) Error() string { return e.err.Error() }

// Unwrap returns the refusal.
func (e *refusedError) Unwrap() error { return e.err }

// refusal returns err as a refusal of the input, for run to print in the
// command's --format (text: "REFUSED: …" lines; json: one array of
// problem objects, one per refusal). An error that is neither a *verr.Error nor a file the
// user named that cannot be read is returned unchanged.
func refusal(_ *app, err error) error {
	var ce *verr.Error
	var pe *fs.PathError
	if errors.As(err, &ce) || errors.As(err, &pe) {
		return &refusedError{err}
	}
	return err
}

// refusalProblem returns the one JSON form of a refusal (verr.Problem)
// of one error: a *verr.Error as it is, a file that cannot be read
// (*fs.PathError) as file-missing or file-unreadable naming that file,
// anything else as verr.ProblemOf does.
func refusalProblem(err error) verr.Problem {
	var ce *verr.Error
	if errors.As(err, &ce) {
		return verr.ProblemOf(ce)
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		r := ReasonFileUnreadable
		if errors.Is(err, fs.ErrNotExist) {
			r = campaign.ReasonFileMissing
		}
		return verr.Problem{Reason: r, File: pe.Path, Rule: "the files named on the command line must be readable", Message: pe.Op + ": " + pe.Err.Error()}
	}
	return verr.ProblemOf(err)
}

// problemJSON is the compact JSON of refusalProblem(e).
func problemJSON(e error) []byte {
	b, err := json.Marshal(refusalProblem(e))
	if err != nil {
		return []byte(fmt.Sprintf(`{"reason":"internal-error","file":"","pointer":"","rule":"","message":%q}`, err.Error()))
	}
	return b
}

// formatOf returns the value of cmd's --format flag ("" when it has none).
func formatOf(cmd *cobra.Command) string {
	if cmd == nil {
		return ""
	}
	if f := cmd.Flags().Lookup("format"); f != nil {
		return f.Value.String()
	}
	return ""
}

// printRefusal prints err, a refusal or another failure of a command, in
// format: with "json" one JSON document on stdout, an array of the
// compact problem objects (verr.Problem), one per refusal and line, so a
// script parses several refusals as it parses one; with "jsonl" (export)
// one compact problem object per line, JSON Lines like the rows; otherwise a "REFUSED: " line per refusal on stdout and
// the first reason code on stderr, or, for an error that is not a refusal,
// "verdict: " and the error on stderr.
func printRefusal(stdout, stderr io.Writer, format string, err error) {
	var re *refusedError
	inner := err
	if errors.As(err, &re) {
		inner = re.err
	}
	errs := verr.Flatten(inner)
	if format == "jsonl" {
		// JSON Lines output (export --format jsonl): one problem object
		// per line, as the rows would have been.
		for _, e := range errs {
			b := problemJSON(e)
			fmt.Fprintf(stdout, "%s\n", b)
		}
		return
	}
	if format == "json" {
		fmt.Fprint(stdout, "[\n")
		for i, e := range errs {
			b := problemJSON(e)
			sep := ",\n"
			if i == len(errs)-1 {
				sep = "\n"
			}
			fmt.Fprintf(stdout, "  %s%s", b, sep)
		}
		fmt.Fprint(stdout, "]\n")
		return
	}
	if re == nil {
		fmt.Fprintln(stderr, "verdict:", err)
		return
	}
	for _, e := range errs {
		fmt.Fprintln(stdout, "REFUSED:", e.Error())
	}
	fmt.Fprintln(stderr, "verdict:", refusalProblem(errs[0]).Reason)
}
