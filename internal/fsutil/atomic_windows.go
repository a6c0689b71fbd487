//go:build windows

package fsutil

import (
	"io/fs"
	"os"
	"path/filepath"
)

// pending is a temporary file in the target's directory that replaces the
// target on commit (os.Rename uses MoveFileEx with
// MOVEFILE_REPLACE_EXISTING on Windows).
type pending struct {
	f      *os.File
	path   string
	perm   fs.FileMode
	closed bool
	done   bool
}

func newPending(path string, perm fs.FileMode) (*pending, error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+stagingInfix+"*")
	if err != nil {
		return nil, err
	}
	return &pending{f: f, path: path, perm: perm}, nil
}

func (p *pending) file() *os.File { return p.f }

func (p *pending) commit() error {
	if err := p.f.Sync(); err != nil {
		return err
	}
	p.closed = true
	if err := p.f.Close(); err != nil {
		return err
	}
	if err := os.Chmod(p.f.Name(), p.perm); err != nil {
		return err
	}
	beforeRename(p.path)
	if err := os.Rename(p.f.Name(), p.path); err != nil {
		return err
	}
	p.done = true
	return nil
}

func (p *pending) cleanup() {
	if p.done {
		return
	}
	if !p.closed {
		p.f.Close()
	}
	os.Remove(p.f.Name())
}

// SyncDir does nothing on Windows and returns nil: Windows has no
// directory fsync (FlushFileBuffers on a directory handle is refused with
// access denied), and NTFS journals the directory entries a create or
// MoveFileEx rename changes.
func SyncDir(dir string) error { return nil }

// syncFile is a no-op on Windows, like SyncDir: FlushFileBuffers needs a
// handle opened for writing, and the files of a staged tree are closed by
// the code that wrote them.
func syncFile(path string) error { return nil }
