package campaign

import (
	"errors"
	"io/fs"
)

// ReasonOutsideCampaign: a path of the campaign resolves outside the
// campaign directory (a symbolic link to a file or directory outside it).
// verdict reads only the files inside the campaign directory; a campaign
// opened with os.OpenRoot(dir).FS() cannot read past its root, and Load
// reports such a file with this reason instead of "file-missing"
// (CONTRACT §7: the execution manifest binds every file of the campaign).
const ReasonOutsideCampaign Reason = "path-escapes-campaign"

// escapesRoot reports whether err is os.Root's refusal of a path that
// leaves the root. The os package does not export that error, so it is
// recognised by its fixed text inside the *fs.PathError.
func escapesRoot(err error) bool {
	var pe *fs.PathError
	return errors.As(err, &pe) && pe.Err != nil && pe.Err.Error() == "path escapes from parent"
}

// refuseUnreadable records why path could not be read: a path leaving the
// campaign is refused with ReasonOutsideCampaign; any other failure with
// reason r and the given sentence.
func (l *loader) refuseUnreadable(err error, r Reason, path, rule, format string, a ...any) {
	if escapesRoot(err) {
		l.refuse(ReasonOutsideCampaign, path, "", RuleFileIdentity,
			"the path leaves the campaign directory (a symbolic link to outside it); only files inside the campaign are read")
		return
	}
	l.refuse(r, path, "", rule, format, a...)
}
