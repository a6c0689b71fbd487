package adjudication

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/hiddeco/sshsig"
	"golang.org/x/crypto/ssh"

	"verdict/blinding"
	"verdict/internal/par"
	"verdict/verr"
)

// Verification refusals, one reason per way a record can fail
// (issue "verdict verify"; DESIGN "Signed records").
const (
	// ReasonSignatureMissing: no detached FILE.sig beside the record.
	ReasonSignatureMissing verr.Reason = "signature-missing"
	// ReasonSignatureMalformed: the .sig is not an armored SSH signature.
	ReasonSignatureMalformed verr.Reason = "signature-malformed"
	// ReasonBadSignature: the signature does not verify over the record's
	// bytes (a changed byte).
	ReasonBadSignature verr.Reason = "bad-signature"
	// ReasonWrongNamespace: the signature's namespace is not the record
	// kind's namespace.
	ReasonWrongNamespace verr.Reason = "wrong-namespace"
	// ReasonFingerprintMismatch: the record's key fingerprint is not the
	// signing key's.
	ReasonFingerprintMismatch verr.Reason = "fingerprint-mismatch"
	// ReasonSignerNotAllowed: no allowed_signers line has the record's
	// signer name as principal with the signing key.
	ReasonSignerNotAllowed verr.Reason = "signer-not-allowed"
	// ReasonKeyNotAllowedForRole: the signer's key is listed but its
	// namespaces option does not allow the record's role, or the record
	// claims a role its kind cannot have.
	ReasonKeyNotAllowedForRole verr.Reason = "key-not-allowed-for-role"
	// ReasonSharedKey: two rating sheets (two raters) signed with one key
	// or by one name.
	ReasonSharedKey verr.Reason = "raters-share-key"
	// ReasonAdjudicatorIsRater: the adjudication is signed with the key or
	// under the name of one of the two raters whose sheets it resolves; the
	// adjudicator is a third person (CONTRACT §5 "a documented third
	// adjudicator").
	ReasonAdjudicatorIsRater verr.Reason = "adjudicator-is-rater"
	// ReasonBadAllowedSigners: an allowed_signers line does not parse or
	// uses an option verdict does not support.
	ReasonBadAllowedSigners verr.Reason = "bad-allowed-signers"
	// ReasonAllowedSignersMissing: no allowed_signers file was named. It is
	// the trust root every signed record is checked against, so it comes
	// only from whoever checks (verdict: --allowed-signers or the config
	// key allowed_signers), never from the directory of the records it
	// checks, where whoever writes a record could also write a key.
	ReasonAllowedSignersMissing verr.Reason = "allowed-signers-missing"
)

// RecordFile is one record to verify: its name (for reports), its exact
// bytes and its detached signature bytes (nil when the .sig is missing).
type RecordFile struct {
	Name string
	Data []byte
	Sig  []byte
}

// Check is the verification result of one record. Kind is "sheet",
// "adjudication", "reveal" or "" when it could not be told; OK is true
// only when Reason is "".
type Check struct {
	File   string      `json:"file"`
	Kind   string      `json:"kind"`
	Signer Signer      `json:"signer"`
	SHA256 string      `json:"sha256"`
	OK     bool        `json:"ok"`
	Reason verr.Reason `json:"reason,omitempty"`
	// Pointer is the JSON pointer of the refused member ("" when the
	// refusal is about the whole record).
	Pointer string `json:"pointer,omitempty"`
	Detail  string `json:"detail,omitempty"`

	sheet *Sheet
	adj   *Adjudication
	rev   *Reveal
}

// Sheet returns the rating sheet Verify decoded for this record (nil when
// the record is not a sheet or did not decode). Only a Check with OK true
// is verified; callers use this instead of decoding the bytes again.
func (c Check) Sheet() *Sheet { return c.sheet }

// Adjudication returns the adjudication Verify decoded for this record
// (nil when it is not one or did not decode); see Sheet.
func (c Check) Adjudication() *Adjudication { return c.adj }

// Reveal returns the reveal record Verify decoded for this record (nil
// when it is not one or did not decode); see Sheet.
func (c Check) Reveal() *Reveal { return c.rev }

// Err is the refusal of a record that did not verify, in the one error
// form: its reason, its file, the signed-records rule and the detail (nil
// when the record verified).
func (c Check) Err() *verr.Error {
	if c.OK {
		return nil
	}
	return &verr.Error{Reason: c.Reason, File: c.File, Pointer: c.Pointer, Rule: ruleRecords, Detail: c.Detail}
}

// failErr records err as the check's refusal: a *verr.Error keeps its
// reason, pointer and detail; any other error is ReasonMalformedRecord.
func (c *Check) failErr(err error) {
	var e *verr.Error
	if !asCampaignError(err, &e) {
		c.fail(ReasonMalformedRecord, "%v", err)
		return
	}
	if c.Reason == "" {
		c.fail(e.Reason, "%s", e.Detail)
		c.Pointer = e.Pointer
	}
}

func (c *Check) fail(r verr.Reason, format string, a ...any) {
	if c.Reason == "" {
		c.Reason, c.Detail, c.OK = r, fmt.Sprintf(format, a...), false
	}
}

var kindOf = map[string]struct {
	kind string
	ns   string
	role Role
}{
	SheetFormat:        {"sheet", NamespaceRating, RoleRater},
	AdjudicationFormat: {"adjudication", NamespaceAdjudication, RoleAdjudicator},
	RevealFormat:       {"reveal", NamespaceReveal, RoleCoordinator},
}

// VerifyOptions are the cross-checks of Verify. Bundles maps a bundle
// digest to its bundle; when non-empty, every sheet must be for one of them
// and is checked against its bundle's fields (CheckSheetFields): those of
// Fields under the same digest when given (for a bundle held without its
// items), else those of the bundle's items (NewFieldSet).
//
// RatedEnd, when set (the campaign at hand: verify --campaign, score), is
// the latest end of the rated sessions' receipts: every sheet,
// adjudication and reveal is dated after it (checkAfterSessions,
// ReasonBadRecordTime), after the checks across records.
type VerifyOptions struct {
	Bundles  map[string]*blinding.Bundle
	Fields   map[string]*FieldSet
	RatedEnd SessionEnd
}

// Verify checks every record as git checks a signed object, then the
// records against each other. Per record, in order: the .sig exists and
// parses; it verifies over the exact bytes with its embedded key in its
// own namespace (ReasonBadSignature: a changed byte); the record decodes
// (ReasonMalformedRecord); the namespace is the record kind's
// (ReasonWrongNamespace); the role is the kind's and the fingerprint is
// the key's; an allowed_signers line names the signer with this key
// (ReasonSignerNotAllowed) and allows this namespace
// (ReasonKeyNotAllowedForRole). Across records: two sheets with one key
// or one signer (ReasonSharedKey); a sheet for another bundle or content
// (ReasonOtherBundle); an adjudication signed by either rater's key or
// name (ReasonAdjudicatorIsRater); an adjudication or reveal that does not name the
// exact sheets/adjudication given, or a reveal over an incomplete
// adjudication (ReasonSheetMismatch, ReasonUnresolved); a sheet without
// the item_times entry of an item it grades (ReasonBadItemTimes); a sheet
// whose directory holds journals of its bundle, none with the digest its
// journal_digest names (CheckJournalBeside, ReasonJournalMismatch); with
// opt.RatedEnd, a record dated before the rated sessions ended
// (ReasonBadRecordTime). Each record gets its first failing reason. The
// result is in input order.
//
// Verify is VerifyRecord of every file followed by CrossCheck; a caller
// that reads large records from disk calls those two itself, so that only
// one record's bytes are held at a time.
func Verify(allowed []AllowedSigner, files []RecordFile, opt VerifyOptions) []Check {
	checks := make([]Check, len(files))
	for i, f := range files {
		checks[i] = VerifyRecord(allowed, f)
	}
	return CrossCheck(checks, opt)
}

// VerifyRecord runs the per-record checks of Verify on one record (the
// signature, namespace, role, fingerprint and allowed_signers line) and
// decodes it. The Check keeps the decoded record, never f's bytes, so the
// caller may drop them once it returns. Its OK is not set: only CrossCheck
// decides a record verified.
// Every step reads the same bytes, f.Data.
func VerifyRecord(allowed []AllowedSigner, f RecordFile) Check {
	name, sigBytes, data := f.Name, f.Sig, f.Data
	c := Check{File: name}
	c.SHA256 = blinding.Digest(data)
	if sigBytes == nil {
		c.fail(ReasonSignatureMissing, "no detached signature %s.sig", name)
		return c
	}
	sig, err := Unarmor(sigBytes)
	if err != nil {
		c.fail(ReasonSignatureMalformed, "%v", err)
		return c
	}
	if err := sshsig.Verify(bytes.NewReader(data), sig, sig.PublicKey, sig.HashAlgorithm, sig.Namespace); err != nil {
		c.fail(ReasonBadSignature, "signature does not verify over the record bytes: %v", err)
		return c
	}
	var head struct {
		Format string `json:"format"`
		Signer Signer `json:"signer"`
	}
	// A sheet in canonical layout is decoded with its grades array read
	// once (spliceSheet); its head is read from the bytes without that
	// array, which recordHead would only have skipped.
	sheet, rest, spliced := spliceSheet(name, data)
	if spliced {
		recordHead(rest, &head)
	} else {
		recordHead(data, &head)
	}
	parse := func(v any) error { return blinding.UnmarshalStrict(name, data, v) }
	k, ok := kindOf[head.Format]
	if !ok {
		c.fail(ReasonMalformedRecord, "format %q is not a verdict record", head.Format)
		return c
	}
	c.Kind = k.kind
	switch head.Format {
	case SheetFormat:
		c.sheet = sheet
		if !spliced {
			c.sheet, err = parseSheetWhole(name, data)
		}
	case AdjudicationFormat:
		c.adj, err = parseAdjudication(name, parse)
	case RevealFormat:
		c.rev, err = parseReveal(name, parse)
	}
	if err != nil {
		c.failErr(err)
		return c
	}
	if c.sheet != nil {
		// What the sheet alone says (as ParseSheet checks it); the decoded
		// sheet is kept, so that a record naming it is refused for its reason.
		if err := checkSheetGrades(name, c.sheet); err != nil {
			c.failErr(err)
			return c
		}
		if err := checkItemTimes(c.sheet); err != nil {
			c.failErr(err)
			return c
		}
	}
	if err := checkRecordNotes(c.sheet, c.adj); err != nil {
		c.fail(ReasonBadNote, "%v", err)
		return c
	}
	c.Signer = head.Signer
	if sig.Namespace != k.ns {
		c.fail(ReasonWrongNamespace, "signed in namespace %q; a %s is signed in %q", sig.Namespace, k.kind, k.ns)
		return c
	}
	if head.Signer.Role != k.role {
		c.fail(ReasonKeyNotAllowedForRole, "a %s is signed by a %s, not a %s", k.kind, k.role, head.Signer.Role)
		return c
	}
	if fp := Fingerprint(sig.PublicKey); head.Signer.KeyFingerprint != fp {
		c.fail(ReasonFingerprintMismatch, "record names key %s but was signed with %s", head.Signer.KeyFingerprint, fp)
		return c
	}
	if err := CheckSigner(allowed, head.Signer.Name, k.ns, sig.PublicKey); err != nil {
		c.failErr(err)
		return c
	}
	checkRecordFields(&c)
	return c
}

// CheckAdjudicator refuses (ReasonAdjudicatorIsRater) an adjudicator
// signer who has the key or the name of the signer of sheet (file names
// the sheet): the adjudicator is a third person (CONTRACT §5).
func CheckAdjudicator(adj Signer, sheet *Sheet, file string) error {
	if adj.KeyFingerprint == sheet.Signer.KeyFingerprint || adj.Name == sheet.Signer.Name {
		return &verr.Error{Reason: ReasonAdjudicatorIsRater, Rule: ruleRecords, Detail: fmt.Sprintf(
			"adjudication signed by %s (%s), who also signed the rating sheet %s; the adjudicator must be a third person", adj.Name, adj.KeyFingerprint, file)}
	}
	return nil
}

// CheckNewSigner refuses, before a record is made, a signer its record would
// be refused for: first what signing itself refuses (ReasonBadRole unless
// role is want, the role of the record kind; ReasonBadSignerName), then
// what verify refuses (CheckSigner in want's namespace). Every signing
// command calls it before the work it would sign.
func CheckNewSigner(allowed []AllowedSigner, name string, role, want Role, key ssh.PublicKey) error {
	if _, err := signerFor(name, role, want, key); err != nil {
		return err
	}
	for _, k := range kindOf {
		if k.role == want {
			return CheckSigner(allowed, name, k.ns, key)
		}
	}
	return &verr.Error{Reason: ReasonBadRole, Rule: ruleRecords, Detail: fmt.Sprintf("no record is signed by a %q", want)}
}

// CheckSigner reports whether allowed_signers lets name sign with key in
// namespace ns, as ssh-keygen -Y verify -I name -n ns would: nil when a
// line lists name with this key and allows ns; ReasonKeyNotAllowedForRole
// when such a line does not allow ns (its message prints the line to
// write); else ReasonSignerNotAllowed (no line names name with this key:
// an unlisted key, or one rater's key used under another's name).
func CheckSigner(allowed []AllowedSigner, name, ns string, key ssh.PublicKey) error {
	role := ns
	if r, ok := RoleOf(ns); ok {
		role = string(r)
	}
	listed, line := false, 0
	for _, a := range allowed {
		if a.matches(name) && bytes.Equal(a.Key.Marshal(), key.Marshal()) {
			listed, line = true, a.Line
			if a.allows(ns) {
				return nil
			}
		}
	}
	if listed {
		return &verr.Error{Reason: ReasonKeyNotAllowedForRole, Rule: ruleRecords, Detail: fmt.Sprintf(
			"%s's key is not allowed to sign in %q (role %s): allowed_signers line %d does not list that namespace; "+
				"verdict reads namespaces as roles and a line without namespaces= allows none. A %s's line reads: %s namespaces=%q %s",
			name, ns, role, line, role, name, ns, strings.TrimSpace(string(ssh.MarshalAuthorizedKey(key))))}
	}
	return &verr.Error{Reason: ReasonSignerNotAllowed, Rule: ruleRecords, Detail: fmt.Sprintf("no allowed_signers line for principal %q with key %s", name, Fingerprint(key))}
}

// CrossCheck runs the checks of Verify across records on the results of
// VerifyRecord (in input order): shared keys, sheets for another bundle,
// an adjudicator who is a rater, and an adjudication or reveal that does
// not name the sheets given. It records each record's first failing
// reason, sets OK on every check without one and returns checks.
func CrossCheck(checks []Check, opt VerifyOptions) []Check {
	crossCheck(checks, opt)
	checkAfterSessions(checks, opt.RatedEnd)
	for i := range checks {
		checks[i].OK = checks[i].Reason == ""
	}
	return checks
}

func crossCheck(checks []Check, opt VerifyOptions) {
	var sheets []*Check
	for i := range checks {
		if checks[i].sheet != nil {
			sheets = append(sheets, &checks[i])
		}
	}
	for i, a := range sheets {
		for _, b := range sheets[i+1:] {
			if a.sheet.Signer.KeyFingerprint == b.sheet.Signer.KeyFingerprint || a.sheet.Signer.Name == b.sheet.Signer.Name {
				a.fail(ReasonSharedKey, "sheets %s and %s are signed with one key or by one rater", a.File, b.File)
				b.fail(ReasonSharedKey, "sheets %s and %s are signed with one key or by one rater", a.File, b.File)
			}
		}
	}
	// Each sheet's check against its bundle, the costly part (a sheet of
	// 10,000 sessions grades hundreds of thousands of fields), runs side by
	// side first; the loop below applies the results in its order.
	var found []bundleFinding
	if len(opt.Bundles) > 0 {
		found = make([]bundleFinding, len(sheets))
		par.For(len(sheets), func(_, i int) { found[i] = againstBundle(sheets[i], opt) })
	}
	for i, s := range sheets {
		if s.sheet.BundleRater != s.sheet.Signer.Name {
			s.fail(ReasonOtherBundle, "the sheet is signed by %s but rates the bundle made for %s; a sheet binds its own signer's bundle", s.sheet.Signer.Name, s.sheet.BundleRater)
		}
		for _, o := range sheets[i+1:] {
			if s.sheet.BundleDigest == o.sheet.BundleDigest {
				s.fail(ReasonOtherBundle, "sheets %s and %s rate one bundle; the two sheets bind the two different bundles of one blinding", s.File, o.File)
				o.fail(ReasonOtherBundle, "sheets %s and %s rate one bundle; the two sheets bind the two different bundles of one blinding", s.File, o.File)
			}
		}
		if found != nil {
			switch f := found[i]; {
			case f.reason != "":
				s.fail(f.reason, "%s", f.detail)
			case f.err != nil:
				s.failErr(f.err)
			}
		}
		if s.sheet.ContentDigest != sheets[0].sheet.ContentDigest || s.sheet.ObligationsDigest != sheets[0].sheet.ObligationsDigest {
			s.fail(ReasonOtherBundle, "sheet rates other bundle content than %s", sheets[0].File)
		}
		if s.Reason == "" {
			if err := checkItemTimesComplete(s.File, s.sheet); err != nil {
				s.failErr(err)
			}
		}
	}
	// The journal beside each sheet, last of a sheet's checks (a sheet for
	// another bundle is refused as such first); journals are hashed side
	// by side.
	journal := make([]error, len(sheets))
	par.For(len(sheets), func(_, i int) {
		if sheets[i].Reason == "" {
			journal[i] = CheckJournalBeside(sheets[i].File, sheets[i].sheet)
		}
	})
	for i, s := range sheets {
		if journal[i] != nil {
			s.failErr(journal[i])
		}
	}
	for i := range checks {
		c := &checks[i]
		if c.adj == nil {
			continue
		}
		for _, s := range sheets {
			if err := CheckAdjudicator(c.adj.Signer, s.sheet, s.File); err != nil {
				c.failErr(err)
			}
		}
	}
	bySHA := map[string]*Check{}
	for i := range checks {
		bySHA[checks[i].SHA256] = &checks[i]
	}
	for i := range checks {
		c := &checks[i]
		for _, sh := range sheets {
			if c.Reason == "" && (c.adj != nil && c.adj.Synthetic != sh.sheet.Synthetic || c.rev != nil && c.rev.Synthetic != sh.sheet.Synthetic) {
				c.fail(ReasonSyntheticMismatch, "the %s's synthetic flag differs from the sheet %s's", c.Kind, sh.File)
			}
		}
		if c.adj != nil {
			checkNamesSheets(c, c.adj.Sheets, sheets, bySHA)
			for _, r := range c.adj.Sheets {
				if s := bySHA[r.SHA256]; c.Reason == "" && s != nil && s.sheet != nil {
					checkNamed(c, r, s, c.adj.ContentDigest, c.adj.ObligationsDigest, c.adj.MapCommitment)
				}
			}
			if c.Reason == "" && len(sheets) == 2 {
				if err := CheckAdjudication(c.adj, FrozenSheet{sheets[0].sheet, sheets[0].SHA256}, FrozenSheet{sheets[1].sheet, sheets[1].SHA256}); err != nil {
					c.fail(reasonOf(err), "%v", err)
				}
			}
		}
		if c.rev != nil {
			checkNamesSheets(c, c.rev.Sheets, sheets, bySHA)
			a, ok := bySHA[c.rev.Adjudication.SHA256]
			if c.Reason == "" && (!ok || a.adj == nil) {
				c.fail(ReasonSheetMismatch, "the reveal names adjudication %s, which is not among the records given", c.rev.Adjudication.SHA256)
			} else if c.Reason == "" && a.Reason != "" {
				c.fail(a.Reason, "the adjudication it names is refused: %s", a.Detail)
			}
			for _, s := range sheets {
				if c.Reason == "" && s.sheet.MapCommitment != c.rev.MapCommitment {
					c.fail(ReasonSheetMismatch, "the reveal's map commitment is not the sheets' bundles' commitment")
				}
			}
			for _, r := range c.rev.Sheets {
				if s := bySHA[r.SHA256]; c.Reason == "" && s != nil && s.sheet != nil {
					checkNamed(c, r, s, c.rev.ContentDigest, "", c.rev.MapCommitment)
				}
			}
			if a, ok := bySHA[c.rev.Adjudication.SHA256]; c.Reason == "" && ok && a.adj != nil {
				if c.rev.Adjudication.Name != a.adj.Signer.Name {
					c.fail(ReasonBadRecordLabel, "labels the adjudication as %q; it is signed by %q", c.rev.Adjudication.Name, a.adj.Signer.Name)
				}
				checkAfter(c, a)
			}
			if c.Reason == "" {
				var others []*Check
				for k := range checks {
					if checks[k].sheet != nil || checks[k].adj != nil {
						others = append(others, &checks[k])
					}
				}
				checkRoles(c, others)
			}
		}
	}
}

// bundleFinding is what is wrong with a sheet against its bundle
// (againstBundle): a refusal reason with its detail, or the field check's
// error, or nothing.
type bundleFinding struct {
	reason verr.Reason
	detail string
	err    error
}

// againstBundle checks the sheet of s against its bundle among
// opt.Bundles: the bundle is given, has the sheet's content, obligations
// and rater, the same synthetic flag, and fields the sheet grades exactly
// (CheckSheetFields); the first that fails is the finding. It reads s
// only, so that crossCheck runs it for every sheet side by side.
func againstBundle(s *Check, opt VerifyOptions) bundleFinding {
	sh := s.sheet
	bd, ok := opt.Bundles[sh.BundleDigest]
	switch {
	case !ok:
		return bundleFinding{reason: ReasonOtherBundle, detail: fmt.Sprintf("sheet is for bundle %s, which is not among the bundles given", sh.BundleDigest)}
	case bd.ContentDigest != sh.ContentDigest || bd.ObligationsDigest != sh.ObligationsDigest || bd.Rater != sh.BundleRater:
		return bundleFinding{reason: ReasonOtherBundle, detail: "sheet's content or obligations digest differs from its bundle's"}
	case bd.Synthetic != sh.Synthetic:
		return bundleFinding{reason: ReasonSyntheticMismatch, detail: fmt.Sprintf("the sheet says synthetic %t, its bundle says synthetic %t", sh.Synthetic, bd.Synthetic)}
	}
	fs := fieldsOf(opt, sh.BundleDigest, bd)
	if fs == nil {
		return bundleFinding{reason: ReasonOtherBundle, detail: fmt.Sprintf("bundle %s is given without its items or fields: the sheet cannot be checked against it", sh.BundleDigest)}
	}
	return bundleFinding{err: CheckSheetFields(s.File, sh, fs)}
}

// fieldsOf returns the fields a sheet for bundle bd (digest d) is checked
// against: opt.Fields[d], else those of bd's items (nil when bd is held
// without items and no fields are given).
func fieldsOf(opt VerifyOptions, d string, bd *blinding.Bundle) *FieldSet {
	if fs := opt.Fields[d]; fs != nil {
		return fs
	}
	if len(bd.Items) == 0 {
		return nil
	}
	return NewFieldSet(bd)
}

// checkNamesSheets requires that the record names exactly the sheets given
// (by SHA-256), that they verified, and that no other sheet was given.
func checkNamesSheets(c *Check, named [2]RecordRef, sheets []*Check, bySHA map[string]*Check) {
	for _, r := range named {
		s, ok := bySHA[r.SHA256]
		if !ok || s.sheet == nil {
			c.fail(ReasonSheetMismatch, "%s names sheet %s, which is not among the records given", c.Kind, r.SHA256)
			return
		}
		if s.Reason != "" {
			c.fail(s.Reason, "the sheet it names (%s) is refused: %s", s.File, s.Detail)
			return
		}
	}
	for _, s := range sheets {
		if !slices.ContainsFunc(named[:], func(r RecordRef) bool { return r.SHA256 == s.SHA256 }) {
			c.fail(ReasonSheetMismatch, "%s does not name sheet %s (%s) that is used with it", c.Kind, s.File, s.SHA256)
			return
		}
	}
}

func reasonOf(err error) verr.Reason {
	var e *verr.Error
	if ok := asCampaignError(err, &e); ok {
		return e.Reason
	}
	return ReasonMalformedRecord
}

// checkRecordNotes applies the note rules (checkNote: trimmed, at most
// MaxNote scalar values, no control or format character) to every note of
// a signed sheet or adjudication, so that a note signed outside `verdict
// grade` or `verdict resolve` is refused as those commands refuse it.
func checkRecordNotes(s *Sheet, a *Adjudication) error {
	if s != nil {
		for i, g := range s.Grades {
			if err := checkNote(g.Note); err != nil {
				return fmt.Errorf("/grades/%d/note (%s): %w", i, g.Field, err)
			}
		}
	}
	if a != nil {
		for i, r := range a.Resolutions {
			if err := checkNote(r.Note); err != nil {
				return fmt.Errorf("/resolutions/%d/note (%s): %w", i, r.Field, err)
			}
		}
	}
	return nil
}
