package adjudication

import (
	"os"
	"syscall"

	"github.com/gofrs/flock"

	"verdict/campaign"
	"verdict/internal/fsutil"
)

// lockedFile is an append-only log file held under its exclusive lock
// (fsutil.Lock, a PATH.lock file beside it); Close releases both.
type lockedFile struct {
	*os.File
	lock *flock.Flock
}

// openLocked locks path and then opens (or creates, mode 0600) it for
// appending. A lock held by another writer gives an error matching
// fsutil.ErrLocked, and path is not opened. It is opened without
// blocking, and a path that is not a regular file within the journal cap
// is refused (campaign.CheckRegular): a FIFO never hangs the rater.
func openLocked(path string) (*lockedFile, error) {
	l, err := fsutil.Lock(path, 0o600)
	if err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_APPEND|syscall.O_NONBLOCK, 0o600)
	if err != nil {
		l.Unlock()
		return nil, err
	}
	fi, err := f.Stat()
	if err == nil {
		err = campaign.CheckRegular(path, fi, campaign.FileJournal)
	}
	if err != nil {
		f.Close()
		l.Unlock()
		return nil, err
	}
	return &lockedFile{File: f, lock: l}, nil
}

// Close closes the file and then releases its lock.
func (f *lockedFile) Close() error {
	err := f.File.Close()
	if uerr := f.lock.Unlock(); err == nil {
		err = uerr
	}
	return err
}
