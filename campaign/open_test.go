package campaign_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	. "verdict/campaign"
	"verdict/internal/campaigntest"
)

// TestLoadRefusesSymlinkOutOfCampaign: a bound task text that is a symbolic
// link to a file outside the campaign directory (with the very bytes the
// manifest binds) is refused with ReasonOutsideCampaign naming the file
// when the campaign is opened with os.OpenRoot; an inside link still loads.
func TestLoadRefusesSymlinkOutOfCampaign(t *testing.T) {
	fsys := campaigntest.Campaign(t, campaigntest.Options{}, 2, 1)
	base := t.TempDir()
	dir := filepath.Join(base, "campaign")
	for p, f := range fsys {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	load := func() error {
		root, err := os.OpenRoot(dir)
		if err != nil {
			t.Fatal(err)
		}
		defer root.Close()
		_, err = Load(root.FS())
		return err
	}
	if err := load(); err != nil {
		t.Fatalf("before the link: %v", err)
	}
	task := TaskTextPath("T1")
	full := filepath.Join(dir, filepath.FromSlash(task))
	// A link inside the campaign is read like the file.
	inside := filepath.Join(dir, "tasks", "T1", "copy.txt")
	if err := os.Rename(full, inside); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("copy.txt", full); err != nil {
		t.Fatal(err)
	}
	if err := load(); err == nil || errors.Is(err, ReasonOutsideCampaign) {
		t.Fatalf("inside link: %v, want only the unlisted copy refused", err)
	}
	// A link to outside the campaign, with the bound bytes, is refused.
	outside := filepath.Join(base, "outside.md")
	if err := os.WriteFile(outside, fsys[task].Data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(inside); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(full); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, full); err != nil {
		t.Fatal(err)
	}
	err := load()
	var ce *Error
	found := false
	for _, e := range unjoin(err) {
		if errors.As(e, &ce) && ce.Reason == ReasonOutsideCampaign && ce.File == task {
			found = true
		}
	}
	if !found {
		t.Fatalf("outside link: %v, want %s on %s", err, ReasonOutsideCampaign, task)
	}
	if errors.Is(err, ReasonFileMissing) {
		t.Errorf("outside link also reported as missing: %v", err)
	}
}
