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
