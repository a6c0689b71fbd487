package fsutil

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/gofrs/flock"
)

// ErrLocked is returned by Lock when another writer (in this process or
// another one) holds the lock.
var ErrLocked = errors.New("another writer holds the lock")

// LockSuffix is appended to a file's path to name its lock file.
const LockSuffix = ".lock"

// Lock takes an exclusive, non-blocking lock for the file at path. The lock
// is held on a separate file, path+LockSuffix (created with perm if absent),
// because on Windows a lock is mandatory and would stop the writer's own
// handle from writing the locked bytes. The lock is released by Unlock on
// the returned value, or when the process ends; the lock file itself stays
// (removing it after release would let two writers hold locks on two
// different files of the same name). A lock already held gives an error
// that matches ErrLocked.
func Lock(path string, perm fs.FileMode) (*flock.Flock, error) {
	l := flock.New(path+LockSuffix, flock.SetPermissions(perm))
	ok, err := l.TryLock()
	if err != nil {
		return nil, fmt.Errorf("locking %s: %w", path+LockSuffix, err)
	}
	if !ok {
		return nil, fmt.Errorf("%s: %w", path+LockSuffix, ErrLocked)
	}
	return l, nil
}
