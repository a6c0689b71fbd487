package serve_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"verdict/serve"
)

// TestServedDirIgnoresLockFiles: the lock files one-writer locking leaves
// in a served directory (README: FILE.lock beside every file one writer
// may touch) are never records: a served directory holding them, even the
// lock of a sheet or bundle that does not exist, passes serve's check of
// the directory (CheckServedDir, which reads every file) with the same
// raters, and no lock is read as a bundle or a sheet.
func TestServedDirIgnoresLockFiles(t *testing.T) {
	dir := writeRatingsDir(t)
	for _, n := range []string{"bundle-ann.journal.jsonl.lock", "bundle-ann.json.lock", "sheet-ann.json.lock", "sheet-eve.json.lock",
		"bundle-eve.json.lock", "adjudication.json.lock", "adjudication.decisions.jsonl.lock", "reveal.json.lock"} {
		if err := os.WriteFile(filepath.Join(dir, n), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	layout, err := serve.CheckServedDir(dir)
	if err != nil {
		t.Fatalf("a served directory with lock files is refused: %v", err)
	}
	if !slices.Equal(layout.Raters, []string{"ann", "bob"}) {
		t.Fatalf("raters %v, want [ann bob]: a lock file was read as a bundle", layout.Raters)
	}
	for _, r := range layout.Raters {
		if _, err := os.Stat(layout.SheetPath(r)); err == nil {
			t.Fatalf("%s has a sheet", r)
		}
	}
}
