package main

import (
	"io"
	"os"
	"testing"
)

// mustClose closes a journal, decision log or file the test wrote and
// fails the test when the close fails: a failed close of a written file
// can mean lost data, so it is never dropped.
func mustClose(t testing.TB, c io.Closer) {
	t.Helper()
	if err := c.Close(); err != nil {
		t.Error(err)
	}
}

// appendFile appends s to the existing file path, checking the write and
// the close.
func appendFile(t testing.TB, path, s string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(s); err != nil {
		f.Close()
		t.Fatal(err)
	}
	mustClose(t, f)
}
