package fsutil_test

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"verdict/internal/fsutil"
)

func TestLockExcludesSecondWriter(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	l, err := fsutil.Lock(path, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fsutil.Lock(path, 0o600); !errors.Is(err, fsutil.ErrLocked) {
		t.Fatalf("second lock: %v, want ErrLocked", err)
	}
	if err := l.Unlock(); err != nil {
		t.Fatal(err)
	}
	l2, err := fsutil.Lock(path, 0o600)
	if err != nil {
		t.Fatalf("lock after unlock: %v", err)
	}
	l2.Unlock()
}

func TestWriteFileReplacesWhole(t *testing.T) {
	path := filepath.Join(t.TempDir(), "report.json")
	if err := fsutil.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := fsutil.WriteFile(path, []byte("new bytes"), 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil || string(got) != "new bytes" {
		t.Fatalf("got %q, %v", got, err)
	}
}

func TestWriteWithErrorLeavesTargetAndNoTemporary(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "report.json")
	if err := fsutil.WriteFile(path, []byte("kept"), 0o644); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	err := fsutil.WriteWith(path, 0o644, func(w io.Writer) error {
		io.WriteString(w, "partial")
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("err = %v", err)
	}
	got, _ := os.ReadFile(path)
	if string(got) != "kept" {
		t.Fatalf("target changed to %q", got)
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 {
		t.Fatalf("directory holds %d entries, want only the target", len(ents))
	}
}

// TestSyncDirReportsFailure: SyncDir succeeds on a directory and, where a
// directory fsync exists (not Windows), returns the error of one that
// cannot be opened instead of dropping it.
func TestSyncDirReportsFailure(t *testing.T) {
	dir := t.TempDir()
	if err := fsutil.SyncDir(dir); err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS == "windows" {
		return
	}
	if err := fsutil.SyncDir(filepath.Join(dir, "missing")); err == nil {
		t.Fatal("SyncDir of a missing directory returned nil")
	}
}
