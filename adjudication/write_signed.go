package adjudication

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"verdict/internal/fsutil"
	"verdict/verr"
)

// Refusals of WriteSigned.
const (
	// ReasonRecordExists: the output record already exists; a signed
	// record is never overwritten.
	ReasonRecordExists verr.Reason = "record-exists"
)

const ruleWriteSigned = "DESIGN Chain of custody: a record and its signature are written so that a crash leaves both or neither"

// WriteSigned writes the record data to path and its detached signature
// sig to path+".sig" so that a crash at any instant leaves either no
// record (a retry then succeeds) or the complete verifying pair:
//
//  1. It takes the output's exclusive, non-blocking lock on path+".lock"
//     (fsutil.LockOutput); a second writer of the same output is refused
//     with fsutil.ReasonOutputLocked while the first holds it, and the
//     temporary files of a killed earlier write are removed. The lock file
//     stays (empty) after the write; it is never a record.
//  2. Under the lock, an existing path is refused (ReasonRecordExists).
//     A path+".sig" without path is what a crash between the two renames
//     below leaves: a signature over a record that was never written. It
//     is replaced.
//  3. The signature, then the record, are each written to a temporary
//     file, fsynced and renamed into place (fsutil.WriteFile), and the directory
//     fsynced after each rename. The record appears last, so whenever
//     path exists its signature is already beside it.
func WriteSigned(path string, data, sig []byte) error {
	lock, err := fsutil.LockOutput(path)
	if err != nil {
		return err
	}
	defer lock.Unlock()
	if _, err := os.Lstat(path); err == nil {
		return &verr.Error{Reason: ReasonRecordExists, File: path, Rule: ruleWriteSigned, Detail: fmt.Sprintf("%s exists; a signed record is never overwritten", path)}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if fi, err := os.Lstat(path + ".sig"); err == nil && !fi.Mode().IsRegular() {
		return &verr.Error{Reason: ReasonRecordExists, File: path + ".sig", Rule: ruleWriteSigned, Detail: "exists and is not a regular file"}
	}
	// The signature is written under the record's lock: what a killed
	// write of it left is removed with the record's own (RemoveStale).
	if lock.Prior() {
		if err := fsutil.RemoveStale(path + ".sig"); err != nil {
			return err
		}
	}
	dir := filepath.Dir(path)
	if err := fsutil.WriteFile(path+".sig", sig, 0o644); err != nil {
		return err
	}
	if err := fsutil.SyncDir(dir); err != nil {
		return err
	}
	if err := fsutil.WriteFile(path, data, 0o644); err != nil {
		return err
	}
	return fsutil.SyncDir(dir)
}
