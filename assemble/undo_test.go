package assemble

import (
	"os"
	"path/filepath"
	"testing"

	"verdict/blinding"
	"verdict/campaign"
	"verdict/internal/fsutil"
)

// TestUndoImportStaysInCampaign: the undo of a journal works through an
// os.Root of the campaign, so a receipts/ directory that is a symbolic
// link out of it (here made after recoverImport's own check, as a swap
// during a long undo would) is refused and the file outside stays, as
// does the leftover-looking file beside it.
func TestUndoImportStaysInCampaign(t *testing.T) {
	camp := t.TempDir()
	victim := t.TempDir()
	user := []byte("SYNTHETIC user file\n")
	os.WriteFile(filepath.Join(victim, "notes.json"), user, 0o644)
	os.WriteFile(filepath.Join(victim, ".notes.json123456789"), user, 0o644)
	os.WriteFile(filepath.Join(camp, campaign.ManifestFile), []byte(`{"files": []}`), 0o644)
	if err := os.Symlink(victim, filepath.Join(camp, campaign.ReceiptsDir)); err != nil {
		t.Fatal(err)
	}
	lock, err := fsutil.LockOutput(filepath.Join(camp, ".verdict-write"))
	if err != nil {
		t.Fatal(err)
	}
	lock.Unlock()
	if lock, err = fsutil.LockOutput(filepath.Join(camp, ".verdict-write")); err != nil || !lock.Prior() {
		t.Fatalf("second lock: %v, prior %v", err, lock.Prior())
	}
	defer lock.Unlock()
	err = undoImport(lock, camp, []campaign.FileDigest{{Path: "receipts/notes.json", SHA256: blinding.Digest(user)}})
	if err == nil {
		t.Error("the undo through a receipts/ link out of the campaign was not refused")
	}
	for _, n := range []string{"notes.json", ".notes.json123456789"} {
		if _, err := os.Lstat(filepath.Join(victim, n)); err != nil {
			t.Errorf("the undo removed %s outside the campaign", n)
		}
	}
}

// TestUndoImportNeedsManifest: with a manifest that does not decode,
// which of the journal's files are bound is unknown, and nothing is
// removed.
func TestUndoImportNeedsManifest(t *testing.T) {
	camp := t.TempDir()
	data := []byte("SYNTHETIC receipt\n")
	os.Mkdir(filepath.Join(camp, campaign.ReceiptsDir), 0o755)
	os.WriteFile(filepath.Join(camp, "receipts", "S1.json"), data, 0o644)
	os.WriteFile(filepath.Join(camp, campaign.ManifestFile), []byte(`{"files": [}`), 0o644)
	err := undoImport(nil, camp, []campaign.FileDigest{{Path: "receipts/S1.json", SHA256: blinding.Digest(data)}})
	if err == nil {
		t.Error("the undo with a manifest that does not decode was not refused")
	}
	if _, err := os.Lstat(filepath.Join(camp, "receipts", "S1.json")); err != nil {
		t.Error("the undo removed receipts/S1.json without knowing whether it is bound")
	}
}

// TestUndoImportNoInCampaignLink: a result directory that is a symbolic
// link inside the campaign (receipts -> .) cannot lead the undo to the
// manifest or another directory's files: the journal's
// "receipts/manifest.json", with the manifest's digest, is refused and the
// manifest stays.
func TestUndoImportNoInCampaignLink(t *testing.T) {
	camp := t.TempDir()
	manifest := []byte(`{"files": []}`)
	os.WriteFile(filepath.Join(camp, campaign.ManifestFile), manifest, 0o644)
	if err := os.Symlink(".", filepath.Join(camp, campaign.ReceiptsDir)); err != nil {
		t.Fatal(err)
	}
	err := undoImport(nil, camp, []campaign.FileDigest{{Path: "receipts/manifest.json", SHA256: blinding.Digest(manifest)}})
	if err == nil {
		t.Error("the undo through receipts -> . was not refused")
	}
	if _, err := os.Lstat(filepath.Join(camp, campaign.ManifestFile)); err != nil {
		t.Error("the undo removed the manifest")
	}
}
