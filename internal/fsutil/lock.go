package fsutil

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/gofrs/flock"
)

// ErrLocked is returned by Lock when another writer (in this process or
// another one) holds the lock.
var ErrLocked = errors.New("another writer holds the lock")

// ErrLockNotFile is returned by Lock when path+LockSuffix exists and is
// not a regular file (a symbolic link, a directory, a FIFO, a socket):
// the lock file is never made through a link, at a place the user did
// not name.
var ErrLockNotFile = errors.New("the lock file exists and is not a regular file")

// LockSuffix is appended to a file's path to name its lock file.
const LockSuffix = ".lock"

// Lock takes an exclusive, non-blocking lock for the file at path. The lock
// is held on a separate file, path+LockSuffix (created with perm if absent),
// because on Windows a lock is mandatory and would stop the writer's own
// handle from writing the locked bytes. The lock is released by Unlock on
// the returned value, or when the process ends; the lock file itself stays
// (removing it after release would let two writers hold locks on two
// different files of the same name). A lock already held gives an error
// that matches ErrLocked; a lock file that is not a regular file (a
// symbolic link, dangling or not, a directory, a FIFO), one that matches
// ErrLockNotFile.
func Lock(path string, perm fs.FileMode) (*flock.Flock, error) {
	if fi, err := os.Lstat(path + LockSuffix); err == nil && !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: %w", path+LockSuffix, ErrLockNotFile)
	}
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
