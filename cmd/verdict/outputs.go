package main

import (
	"errors"
	"os"

	"verdict/campaign"
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
