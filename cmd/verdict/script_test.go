package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain lets the transcripts of testdata/script run `verdict` as a
// command: the test binary itself, entering run with the process's
// streams.
func TestMain(m *testing.M) {
	testscript.Main(removeShared{m}, map[string]func(){
		"verdict": func() { os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
	})
}

// removeShared runs the tests, then removes the directory they shared
// (sharedDir: the built binary, demo campaigns), if one was made.
type removeShared struct{ m *testing.M }

// Run runs every test and returns the exit code.
func (r removeShared) Run() int {
	code := r.m.Run()
	if shared.dir != "" {
		os.RemoveAll(shared.dir)
	}
	return code
}

// TestScripts runs the CLI transcripts of testdata/script (testscript
// .txtar files: commands, their exit status, and what they print), each in
// its own temporary directory and in parallel. A transcript finds the
// repository's fixtures directory in $FIXTURES and this package's testdata
// in $TESTDATA (both absolute, read only).
func TestScripts(t *testing.T) {
	t.Parallel()
	fixtures, err := filepath.Abs(filepath.Join("..", "..", "fixtures"))
	if err != nil {
		t.Fatal(err)
	}
	testdata, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{Dir: "testdata/script", Setup: func(e *testscript.Env) error {
		e.Setenv("FIXTURES", fixtures)
		e.Setenv("TESTDATA", testdata)
		return nil
	}})
}
