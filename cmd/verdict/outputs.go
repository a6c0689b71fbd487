package main

import (
	"errors"
	"os"

	"verdict/campaign"
	"verdict/internal/fsutil"
	"verdict/pipeline"
	"verdict/verr"
)

// ruleNeverReplace is the rule every refusal to overwrite names.
const ruleNeverReplace = "DESIGN quality bar: never destroy a file the user owns"

// readFlagFile reads the file that flag names through the one bounded
// reader (campaign.ReadRegular under kind's cap): a FIFO, device, socket
// or directory is refused without being read (not-regular-file) and a
// file over the cap before it is read whole (file-too-large), both exit 1
// (refusal); a file that cannot be opened is a usage error naming flag.
func readFlagFile(a *app, flag, path string, kind campaign.FileKind) ([]byte, error) {
	b, err := campaign.ReadRegular(path, kind)
	var e *verr.Error
	switch {
	case errors.As(err, &e):
		return nil, refusal(a, err)
	case err != nil:
		return nil, usagef("%s: %v", flag, err)
	}
	return b, nil
}

// newOutputFile returns nil when path does not exist (not even as a
// dangling symbolic link), and otherwise a pipeline.ReasonOutputExists
// refusal (exit 1, like every refusal to overwrite: output-exists,
// output-not-empty, record-exists) whose detail is flag, "names an
// existing file; " and why (for example "an export never replaces a
// file").
func newOutputFile(path, flag, why string) error {
	if _, err := os.Lstat(path); err != nil {
		return nil
	}
	return &verr.Error{Reason: pipeline.ReasonOutputExists, File: path, Rule: ruleNeverReplace, Detail: flag + " names an existing file; " + why}
}

// lockNewOutputDir takes the output lock of the directory out
// (fsutil.LockOutput: a second writer is refused output-locked, and what
// a killed writer of out left beside it is removed) and, under it,
// refuses an out that exists and is not an empty directory
// (emptyOutputDir: output-not-empty). Refusals come through refusal
// (exit 1). The caller holds the lock until its output is in place.
func lockNewOutputDir(a *app, out string) (*fsutil.Output, error) {
	lock, err := fsutil.LockOutput(out)
	if err != nil {
		return nil, refusal(a, err)
	}
	if err := emptyOutputDir(out); err != nil {
		lock.Unlock()
		return nil, refusal(a, err)
	}
	return lock, nil
}

// writeOutputDir writes the directory output out as one whole, or
// refuses: it takes out's output lock under which out must be new or
// empty (lockNewOutputDir), lets write lay out every file in a staging directory beside out and renames
// that directory into place (fsutil.StageDir): a reader finds all of the
// output or none of it, and a write killed before the rename leaves only
// the staging directory, which the next writer of out removes. A refusal
// is returned through refusal (exit 1); write's own error as it is.
func writeOutputDir(a *app, out string, write func(dir string) error) error {
	lock, err := lockNewOutputDir(a, out)
	if err != nil {
		return err
	}
	defer lock.Unlock()
	st, err := fsutil.StageDir(out)
	if err != nil {
		return err
	}
	defer st.Cleanup()
	if err := write(st.Path()); err != nil {
		return err
	}
	return st.Commit()
}

// writeOutputFile writes the new file out (data, mode perm) or refuses: it
// takes out's output lock (fsutil.LockOutput: output-locked while another
// writer holds it; a killed writer's temporary file beside out is
// removed), refuses under the lock an out that exists (newOutputFile with
// flag and why: output-exists) and writes data staged beside out and
// renamed into place (fsutil.WriteFile): a reader never sees part of it.
// A refusal is returned through refusal (exit 1).
func writeOutputFile(a *app, out, flag, why string, data []byte, perm os.FileMode) error {
	lock, err := fsutil.LockOutput(out)
	if err != nil {
		return refusal(a, err)
	}
	defer lock.Unlock()
	if err := newOutputFile(out, flag, why); err != nil {
		return refusal(a, err)
	}
	return fsutil.WriteFile(out, data, perm)
}
