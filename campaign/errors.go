package campaign

import "verdict/verr"

// Reason is a reason code of a refusal or a finding (verr.Reason, the one
// error package's type; campaign's own codes are declared beside its rules).
type Reason = verr.Reason

// Error is a refusal of campaign input (verr.Error, the program's one
// error type): reason code, campaign-relative file, JSON pointer, rule and
// sentence. errors.Is(err, r) reports true when err.Reason == r.
type Error = verr.Error
