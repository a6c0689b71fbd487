package main

import (
	"errors"
	"io"
	"strings"
	"testing"
)

// TestUnknownSubcommandIsUsageError: a word that names no subcommand of a
// parent command is a usage error (exit 2) that names the word, at the root
// and below it; a parent command alone prints its help (exit 0).
func TestUnknownSubcommandIsUsageError(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{"bogus"}, {"fixtures", "bogus"}, {"fixtures", "bogus", "more"}} {
		if code, _ := chkRunCaptured(t, args...); code != 2 {
			t.Errorf("verdict %s: exit %d, want 2", strings.Join(args, " "), code)
		}
		root := newRootCmd(newApp(strings.NewReader(""), io.Discard, io.Discard))
		root.SetArgs(args)
		root.SetOut(io.Discard)
		err := root.Execute()
		var ue *usageError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), `"bogus"`) {
			t.Errorf("verdict %s: %v, want a usage error naming bogus", strings.Join(args, " "), err)
		}
	}
	for _, args := range [][]string{{}, {"fixtures"}, {"fixtures", "--help"}} {
		if code, out := chkRunCaptured(t, args...); code != 0 || !strings.Contains(out, "Usage:") {
			t.Errorf("verdict %s: exit %d\n%s", strings.Join(args, " "), code, out)
		}
	}
}
