//go:build !windows

package fsutil

import (
	"io/fs"
	"os"

	"github.com/google/renameio/v2"
)

// pending is a temporary file that replaces its target on commit.
type pending struct{ t *renameio.PendingFile }

func newPending(path string, perm fs.FileMode) (*pending, error) {
	t, err := renameio.NewPendingFile(path, renameio.WithPermissions(perm))
	if err != nil {
		return nil, err
	}
	return &pending{t}, nil
}

func (p *pending) file() *os.File { return p.t.File }
func (p *pending) commit() error  { return p.t.CloseAtomicallyReplace() }
func (p *pending) cleanup()       { p.t.Cleanup() }

// SyncDir fsyncs the directory dir so that a file created or renamed in it
// is durable; the error of the fsync, or else of the close, is returned.
func SyncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}
