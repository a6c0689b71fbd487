//go:build !unix

package adjudication

import (
	"errors"
	"os"
)

// lockFile is not supported on this platform: a journal refuses to open
// rather than risk two writers.
func lockFile(f *os.File) error {
	return errors.New("journal locking is supported on Unix systems only")
}
