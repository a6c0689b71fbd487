package main

import (
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain lets the transcripts of testdata/script run `verdict` as a
// command: the test binary itself, entering run with the process's
// streams.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"verdict": func() { os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
	})
}

// TestScripts runs the CLI transcripts of testdata/script (testscript
// .txtar files: commands, their exit status, and what they print), each in
// its own temporary directory and in parallel.
func TestScripts(t *testing.T) {
	t.Parallel()
	testscript.Run(t, testscript.Params{Dir: "testdata/script"})
}
