package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestBlindNeedsTwoDistinctRaters: blind accepts exactly two distinct
// raters (CONTRACT §5: two source-based ratings); one, three, or one name
// twice is a usage error (exit 2) and writes nothing.
func TestBlindNeedsTwoDistinctRaters(t *testing.T) {
	for _, raters := range []string{"ann", "ann,bob,cy", "ann,ann"} {
		out := filepath.Join(t.TempDir(), "out")
		if code, _ := chkRunCaptured(t, "blind", "--out", out, "--raters", raters); code != 2 {
			t.Errorf("--raters %s: exit %d, want 2", raters, code)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("--raters %s: %s was written", raters, out)
		}
	}
}
