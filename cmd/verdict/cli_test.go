package main

import (
	"bytes"
	"strings"
	"sync"
	"testing"
)

// lockedBuffer is a bytes.Buffer safe for the concurrent writes of a
// terminal UI's goroutines and the test reading it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

// Write appends p.
func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// String returns everything written so far.
func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// runCLI runs the real command line (run) with an empty standard input
// and returns the exit code, standard output and standard error. It
// touches no process state, so tests that use it may run in parallel.
func runCLI(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	return runCLIWith(t, nil, args...)
}

// runCLIWith is runCLI with the run's app changed by set first (what the
// terminal check answers, the terminal UI's input and size).
func runCLIWith(t *testing.T, set func(*app), args ...string) (int, string, string) {
	t.Helper()
	var out, errb lockedBuffer
	a := newApp(strings.NewReader(""), &out, &errb)
	if set != nil {
		set(a)
	}
	code := runApp(a, args)
	return code, out.String(), errb.String()
}
