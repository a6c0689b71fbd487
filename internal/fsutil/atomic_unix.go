//go:build !windows

package fsutil

import (
	"io/fs"
	"os"
	"path/filepath"

	"github.com/google/renameio/v2"
)

// pending is a temporary file that replaces its target on commit. It is
// staged in the target's own directory (renameio.WithTempDir): without
// that option renameio stages in $TMPDIR whenever $TMPDIR is on the same
// file system, and a killed write leaves a full copy of the output there.
type pending struct {
	t    *renameio.PendingFile
	path string
}

func newPending(path string, perm fs.FileMode) (*pending, error) {
	t, err := renameio.NewPendingFile(path, renameio.WithTempDir(filepath.Dir(path)), renameio.WithPermissions(perm))
	if err != nil {
		return nil, err
	}
	return &pending{t, path}, nil
}

func (p *pending) file() *os.File { return p.t.File }
func (p *pending) commit() error {
	beforeRename(p.path)
	return p.t.CloseAtomicallyReplace()
}
func (p *pending) cleanup() { p.t.Cleanup() }

// SyncDir fsyncs the directory dir so that a file created or renamed in it
// is durable; the error of the fsync, or else of the close, is returned.
func SyncDir(dir string) error { return syncFile(dir) }

// syncFile fsyncs the regular file or directory at path (opened
// read-only: fsync flushes a file's data whatever the descriptor's access
// mode); the error of the fsync, or else of the close, is returned.
func syncFile(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	err = f.Sync()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
