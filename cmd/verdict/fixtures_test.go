package main

import (
	"path/filepath"
	"strings"
	"testing"

	"verdict/fixtures"
)

// TestFixturesGenerateSmallShapes: a default campaign smaller than the
// evaluation shape is written (the default specimens that do not fit are
// left out and the output lists those placed); a requested specimen whose
// run is missing is a usage error naming it.
func TestFixturesGenerateSmallShapes(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ tasks, reps, placed string }{
		{"3", "1", "specimens placed: none"},
		{"8", "2", "specimens placed: C09, C12, C14\n"},
	} {
		out := filepath.Join(t.TempDir(), "c")
		code, stdout := chkRunCaptured(t, "fixtures", "generate", "--out", out, "--tasks", c.tasks, "--repetitions", c.reps)
		if code != 0 || !strings.Contains(stdout, c.placed) {
			t.Errorf("%s×%s: exit %d\n%s", c.tasks, c.reps, code, stdout)
		}
	}
	out := filepath.Join(t.TempDir(), "c")
	if code, _ := chkRunCaptured(t, "fixtures", "generate", "--out", out, "--tasks", "3", "--repetitions", "1", "--specimen", "C09"); code != 2 {
		t.Errorf("C09 in 3×1: exit %d, want 2", code)
	}
}

// TestFixturesGenerateHelpWording: the help lists every specimen ID in
// user words (no Go identifier) and says the campaigns are structurally
// valid while check admits only the 8 tasks × 3 repetitions shape.
func TestFixturesGenerateHelpWording(t *testing.T) {
	t.Parallel()
	code, out, errOut := runCapture(t, "fixtures", "generate", "--help")
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	if strings.Contains(out, "fixtures.") || strings.Contains(out, "valid campaigns") {
		t.Errorf("help names a Go identifier or says plain \"valid campaigns\":\n%s", out)
	}
	for _, want := range append(fixtures.SpecimenIDs(), "structurally valid", "8 tasks × 3 repetitions") {
		if !strings.Contains(out, want) {
			t.Errorf("help lacks %q", want)
		}
	}
}
