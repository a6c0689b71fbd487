package main

import (
	"os"

	"verdict/pipeline"
	"verdict/verr"
)

// ruleNeverReplace is the rule every refusal to overwrite names.
const ruleNeverReplace = "DESIGN quality bar: never destroy a file the user owns"

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
