package tui

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestTmuxEndToEnd runs scripts/tmux-e2e.sh: the real verdict binary in
// tmux rates the embedded SYNTHETIC campaign's bundle, is killed with
// SIGKILL mid-item, starts again and finds every grade the screen showed
// as saved; `verdict ledger` opens the embedded campaign; `verdict
// adjudicate` on the demo's sheets keeps a saved decision across SIGKILL
// and resumes at the next dispute. It skips only when tmux is not
// installed.
func TestTmuxEndToEnd(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("tmux is required in CI (.ci/run installs it): the end-to-end check must run")
		}
		t.Skip("tmux is not installed")
	}
	script, err := filepath.Abs(filepath.Join("..", "scripts", "tmux-e2e.sh"))
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("bash", script).CombinedOutput()
	t.Logf("%s", out)
	if err != nil {
		t.Fatalf("tmux end-to-end check failed: %v", err)
	}
}
