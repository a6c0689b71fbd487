package adjudication

import (
	"time"

	"verdict/blinding"
	"verdict/verr"
)

// syntheticNoticeOf is the notice a record with this synthetic flag
// carries: the SYNTHETIC notice, or none.
func syntheticNoticeOf(synthetic bool) string {
	if synthetic {
		return blinding.SyntheticNotice
	}
	return ""
}

// Refusals of a signed record's own statements (DESIGN "Chain of custody":
// every field of a signed record is checked; issue "signed records hold
// statements nobody checks").
const (
	// ReasonBadRecordTime: time_utc is not RFC 3339 UTC in whole seconds
	// ("2026-03-04T05:06:07Z"), or the records are out of causal order: an
	// adjudication dated before a sheet it resolves, a reveal dated before
	// a record it binds, a record dated more than ClockTolerance after the
	// moment it is checked, or a sheet dated before a session it rates
	// ended (VerifyOptions.RatedEnd).
	ReasonBadRecordTime verr.Reason = "bad-record-time"
	// ReasonBadRecordMeaning: the meaning statement is not the fixed text
	// of the record's role (SheetMeaning, AdjudicationMeaning,
	// RevealMeaning).
	ReasonBadRecordMeaning verr.Reason = "bad-record-meaning"
	// ReasonBadRecordDigest: a digest member is not 64 lowercase hex
	// digits, or is not the digest of the record or content it names (an
	// adjudication's or reveal's content, obligations or map digest that is
	// not its sheets').
	ReasonBadRecordDigest verr.Reason = "bad-record-digest"
	// ReasonBadRecordLabel: an adjudication or reveal labels a sheet (or
	// the adjudication) with another name than the signer of the record it
	// names by digest.
	ReasonBadRecordLabel verr.Reason = "bad-record-label"
	// ReasonRoleReused: one person or one key holds two roles of a
	// campaign: the coordinator who signs the reveal is one of the raters
	// or the adjudicator (CONTRACT §5 "a documented third adjudicator";
	// the coordinator is none of them).
	ReasonRoleReused verr.Reason = "role-reused"
	// ReasonBadRecordNotice: a record's notice is not the notice of its
	// synthetic flag (blinding.SyntheticNotice exactly when synthetic,
	// none otherwise).
	ReasonBadRecordNotice verr.Reason = "bad-record-notice"
)

// ClockTolerance is how far a record's time_utc may lie after the moment
// it is checked (clocks of the signer's and the checker's machines
// differ by a little): a record dated later is refused with
// ReasonBadRecordTime, as a record from the future.
const ClockTolerance = 5 * time.Minute

// checkNow is the clock the time checks compare against (the moment the
// record is checked).
var checkNow = time.Now

// ParseRecordTime parses a record's time_utc: RFC 3339 in UTC ("Z") in
// whole seconds, exactly as FormatTime writes it. Any other form is
// refused with ReasonBadRecordTime.
func ParseRecordTime(s string) (time.Time, error) {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil || FormatTime(t) != s {
		return time.Time{}, verr.Newf(ReasonBadRecordTime, "", "/time_utc", ruleRecords, "time_utc %q is not an RFC 3339 UTC time in whole seconds such as 2026-03-04T05:06:07Z", s)
	}
	return t, nil
}

// isDigest reports whether s is a SHA-256 digest as verdict writes them:
// 64 lowercase hex digits.
func isDigest(s string) bool {
	if len(s) != 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// ReasonSyntheticMismatch: a signed record's synthetic flag differs from
// that of the bundle or sheets it binds (a record made from a synthetic
// campaign may not pass as real, nor the reverse).
const ReasonSyntheticMismatch verr.Reason = "synthetic-mismatch"

// checkRecordFields checks one decoded record's own statements: its time,
// its meaning and the form of every digest it carries.
func checkRecordFields(c *Check) {
	type digest struct{ member, value string }
	var at, meaning, want, notice string
	var synthetic bool
	var ds []digest
	switch {
	case c.sheet != nil:
		s := c.sheet
		at, meaning, want = s.TimeUTC, s.Meaning, SheetMeaning
		notice, synthetic = s.Notice, s.Synthetic
		ds = []digest{{"bundle_digest", s.BundleDigest}, {"content_digest", s.ContentDigest}, {"obligations_digest", s.ObligationsDigest},
			{"map_commitment", s.MapCommitment}, {"journal_digest", s.JournalDigest}}
	case c.adj != nil:
		a := c.adj
		at, meaning, want = a.TimeUTC, a.Meaning, AdjudicationMeaning
		notice, synthetic = a.Notice, a.Synthetic
		ds = []digest{{"content_digest", a.ContentDigest}, {"obligations_digest", a.ObligationsDigest}, {"map_commitment", a.MapCommitment},
			{"sheets/0/sha256", a.Sheets[0].SHA256}, {"sheets/1/sha256", a.Sheets[1].SHA256}}
	case c.rev != nil:
		r := c.rev
		at, meaning, want = r.TimeUTC, r.Meaning, RevealMeaning
		notice, synthetic = r.Notice, r.Synthetic
		ds = []digest{{"map_commitment", r.MapCommitment}, {"content_digest", r.ContentDigest},
			{"sheets/0/sha256", r.Sheets[0].SHA256}, {"sheets/1/sha256", r.Sheets[1].SHA256}, {"adjudication/sha256", r.Adjudication.SHA256}}
	default:
		return
	}
	t, err := ParseRecordTime(at)
	if err != nil {
		c.fail(ReasonBadRecordTime, "time_utc %q is not an RFC 3339 UTC time in whole seconds", at)
		return
	}
	if now := checkNow(); t.After(now.Add(ClockTolerance)) {
		c.fail(ReasonBadRecordTime, "the %s is dated %s, after the moment it is checked (%s, with a tolerance of %s): a record cannot be signed in the future",
			c.Kind, at, FormatTime(now), ClockTolerance)
		return
	}
	if wantNotice := syntheticNoticeOf(synthetic); notice != wantNotice {
		c.fail(ReasonBadRecordNotice, "notice %q is not the notice of a record with synthetic %t (%q)", notice, synthetic, wantNotice)
		return
	}
	if meaning != want {
		c.fail(ReasonBadRecordMeaning, "meaning %q is not the fixed meaning of a %s: %q", meaning, c.Kind, want)
		return
	}
	for _, d := range ds {
		if !isDigest(d.value) {
			c.fail(ReasonBadRecordDigest, "%s %q is not a SHA-256 digest (64 lowercase hex digits)", d.member, d.value)
			return
		}
	}
}

// recordTime returns the parsed time of a verified record (zero when it is
// not one of the three kinds or does not parse: checkRecordFields refused
// it then).
func (c *Check) recordTime() time.Time {
	var s string
	switch {
	case c.sheet != nil:
		s = c.sheet.TimeUTC
	case c.adj != nil:
		s = c.adj.TimeUTC
	case c.rev != nil:
		s = c.rev.TimeUTC
	}
	t, _ := ParseRecordTime(s)
	return t
}

// checkAfter refuses c (ReasonBadRecordTime) when it is dated before the
// record it names, other.
func checkAfter(c, other *Check) {
	if c.recordTime().Before(other.recordTime()) {
		c.fail(ReasonBadRecordTime, "the %s is dated %s, before the %s %s it names (dated %s)", c.Kind, FormatTime(c.recordTime()), other.Kind, other.File, FormatTime(other.recordTime()))
	}
}

// checkNamed checks what an adjudication or reveal states about one sheet
// it names: the label is the sheet's signer, the record is not dated
// before it, and its content (and obligations and map) digests are the
// sheet's.
func checkNamed(c *Check, ref RecordRef, s *Check, content, obligations, mapCommitment string) {
	if ref.Name != s.sheet.Signer.Name {
		c.fail(ReasonBadRecordLabel, "labels sheet %s as %q; it is signed by %q", ref.SHA256, ref.Name, s.sheet.Signer.Name)
	}
	checkAfter(c, s)
	if content != s.sheet.ContentDigest || (obligations != "" && obligations != s.sheet.ObligationsDigest) || mapCommitment != s.sheet.MapCommitment {
		c.fail(ReasonBadRecordDigest, "its content, obligations or map digest is not that of the sheet %s it names", s.File)
	}
}

// checkRoles refuses a reveal signed by a rater or the adjudicator, by
// name or by key (ReasonRoleReused).
func checkRoles(rev *Check, others []*Check) {
	for _, o := range others {
		if o.Signer.Name == rev.Signer.Name || o.Signer.KeyFingerprint == rev.Signer.KeyFingerprint {
			rev.fail(ReasonRoleReused, "the reveal is signed by %s (%s), who also signed %s as %s; the coordinator holds no other role",
				rev.Signer.Name, rev.Signer.KeyFingerprint, o.File, o.Signer.Role)
			return
		}
	}
}

// SessionEnd is when one rated session's receipt says it ended.
type SessionEnd struct {
	Session string
	Ended   time.Time
}

// LatestEnd returns the latest of ends (the zero SessionEnd when there is
// none).
func LatestEnd(ends []SessionEnd) SessionEnd {
	var last SessionEnd
	for _, e := range ends {
		if e.Ended.After(last.Ended) {
			last = e
		}
	}
	return last
}

// checkAfterSessions refuses (ReasonBadRecordTime) every record among
// checks dated before the last rated session ended (last, the campaign at
// hand): a sheet grades answers that existed, so it is signed after every
// rated session's receipt ended; the adjudication resolves the sheets and
// the reveal binds them, so both come later still (crossCheck orders them
// after the records they name, this anchors the chain in the campaign). A
// receipt ended more than ClockTolerance after the moment it is checked
// refuses every record: nothing can be dated after a session from the
// future. A zero last checks nothing.
func checkAfterSessions(checks []Check, last SessionEnd) {
	if last.Ended.IsZero() {
		return
	}
	now := checkNow()
	for i := range checks {
		c := &checks[i]
		if c.sheet == nil && c.adj == nil && c.rev == nil {
			continue
		}
		if last.Ended.After(now.Add(ClockTolerance)) {
			c.fail(ReasonBadRecordTime, "session %s's receipt ended at %s, after the moment it is checked (%s, with a tolerance of %s): no %s can be dated after it",
				last.Session, FormatTime(last.Ended), FormatTime(now), ClockTolerance, c.Kind)
			continue
		}
		if t := c.recordTime(); t.Before(last.Ended.Truncate(time.Second)) {
			c.fail(ReasonBadRecordTime, "the %s signed by %s is dated %s, before session %s it rates ended (%s): %s",
				c.Kind, c.Signer.Name, FormatTime(t), last.Session, FormatTime(last.Ended), afterWhy[c.Kind])
			c.Pointer = "/time_utc"
		}
	}
}

// afterWhy says why each record kind comes after the rated sessions ended.
var afterWhy = map[string]string{
	"sheet":        "a sheet is signed after every rated session's receipt ended",
	"adjudication": "an adjudication is signed after both sheets, so after every rated session ended",
	"reveal":       "a reveal is signed after the adjudication, so after every rated session ended",
}
