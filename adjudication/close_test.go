package adjudication_test

import (
	"io"
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
