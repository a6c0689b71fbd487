package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"verdict/campaign"
	"verdict/internal/campaigntest"
)

// TestCheckRefusesSymlinkOutOfCampaign: `verdict check DIR` does not follow
// a symbolic link out of the campaign directory, even when the outside file
// has the bytes the manifest binds; it refuses the file with
// path-escapes-campaign (exit 1).
func TestCheckRefusesSymlinkOutOfCampaign(t *testing.T) {
	t.Parallel()
	fsys := campaigntest.Campaign(t, campaigntest.Options{Phase: campaign.PhaseDevelopmentRound1, Admissible: true}, 4, 1)
	dir := chkWriteDir(t, fsys)
	task := campaign.TaskTextPath("T1")
	outside := filepath.Join(t.TempDir(), "task.md")
	if err := os.WriteFile(outside, fsys[task].Data, 0o644); err != nil {
		t.Fatal(err)
	}
	full := filepath.Join(dir, filepath.FromSlash(task))
	if err := os.Remove(full); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, full); err != nil {
		t.Fatal(err)
	}
	code, out := chkRunCaptured(t, "check", dir)
	if code != 1 || !strings.Contains(out, string(campaign.ReasonOutsideCampaign)) || !strings.Contains(out, task) {
		t.Fatalf("exit %d, want 1 naming %s and %s\n%s", code, campaign.ReasonOutsideCampaign, task, out)
	}
}
