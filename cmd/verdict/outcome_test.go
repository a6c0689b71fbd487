package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSystemOutcomeUsage: --outcome is a usage error (exit 2, nothing
// written) when it names no CONTRACT §6 decision or is given with the
// fixed-evidence design, on fixtures generate and demo alike; a known
// outcome with the system design writes the campaign and says which
// decision it is built to reach.
func TestSystemOutcomeUsage(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"generate-unknown", []string{"fixtures", "generate", "--design", "system-comparison", "--outcome", "all-gates-pass"},
			`--outcome "all-gates-pass": want one of madar-advantage, comparator-simpler-cheaper, no-madar-advantage (CONTRACT §6)`},
		{"generate-empty", []string{"fixtures", "generate", "--design", "system-comparison", "--outcome", ""}, `--outcome "": want one of`},
		{"generate-fixed", []string{"fixtures", "generate", "--outcome", "madar-advantage"}, "--outcome applies only to --design system-comparison"},
		{"generate-fixed-default", []string{"fixtures", "generate", "--design", "fixed-evidence", "--outcome", "no-madar-advantage"},
			"--outcome applies only to --design system-comparison"},
		{"demo-unknown", []string{"demo", "--design", "system-comparison", "--outcome", "Madar-Advantage"}, `demo: --outcome "Madar-Advantage": want one of`},
		{"demo-fixed", []string{"demo", "--outcome", "comparator-simpler-cheaper"}, "demo: --outcome applies only to --design system-comparison"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			out := filepath.Join(t.TempDir(), "out")
			code, stdout, stderr := runCLI(t, append(c.args, "--out", out)...)
			if code != 2 || !strings.Contains(stderr, c.want) {
				t.Errorf("exit %d, stderr %q; want 2 and %q", code, stderr, c.want)
			}
			if _, err := os.Stat(out); err == nil || stdout != "" {
				t.Errorf("a usage error wrote %s or printed %q", out, stdout)
			}
		})
	}
	out := filepath.Join(t.TempDir(), "gen")
	code, stdout, stderr := runCLI(t, "fixtures", "generate", "--design", "system-comparison", "--outcome", "comparator-simpler-cheaper", "--out", out)
	if code != 0 || !strings.Contains(stdout, "built to reach the CONTRACT §6 decision: comparator-simpler-cheaper") {
		t.Fatalf("exit %d: %s %s", code, stdout, stderr)
	}
	if code, stdout, _ := runCLI(t, "check", out); code != 0 || !strings.Contains(stdout, "admitted: true") {
		t.Errorf("check of the generated outcome: exit %d\n%s", code, stdout)
	}
}
