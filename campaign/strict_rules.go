package campaign

import (
	"fmt"
	"strings"
	"unicode/utf8"
	"verdict/verr"
)

// rules applies, in document order, the rules a JSON Schema cannot say
// (or says without a precise reason). It keeps the first refusal.
type rules struct {
	file string
	rule string
	err  *verr.Error
}

func (r *rules) fail(reason verr.Reason, p, format string, a ...any) {
	if r.err == nil {
		r.err = &verr.Error{Reason: reason, File: r.file, Pointer: p, Rule: r.rule, Detail: fmt.Sprintf(format, a...)}
	}
}

// text checks a text: nonempty, trimmed, at most MaxTextScalars scalar values.
func (r *rules) text(p, s string) {
	switch {
	case s == "":
		r.fail(ReasonTextEmpty, p, "text is empty")
	case strings.TrimSpace(s) != s:
		r.fail(ReasonTextNotTrimmed, p, "text starts or ends with white space")
	case utf8.RuneCountInString(s) > MaxTextScalars:
		r.fail(ReasonTextTooLong, p, "text has %d Unicode scalar values, maximum %d", utf8.RuneCountInString(s), MaxTextScalars)
	}
}

// optText checks a nullable text.
func (r *rules) optText(p string, s *string) {
	if s != nil {
		r.text(p, *s)
	}
}

// ValidID reports whether id is prefix followed by a nonzero decimal
// integer without leading zeros, such as "C1" or "E12" (PROMPTS.md).
func ValidID(prefix byte, id string) bool {
	if len(id) < 2 || id[0] != prefix || id[1] == '0' {
		return false
	}
	for i := 1; i < len(id); i++ {
		if id[i] < '0' || id[i] > '9' {
			return false
		}
	}
	return true
}

// id checks one ID against the prefixes its position allows.
func (r *rules) id(p, prefixes, id string) {
	for i := 0; i < len(prefixes); i++ {
		if ValidID(prefixes[i], id) {
			return
		}
	}
	r.fail(ReasonIDGrammar, p, "%q is not an ID with prefix %s and a nonzero decimal integer", id, strings.Join(strings.Split(prefixes, ""), "/"))
}

// declare checks a declared ID and that it is unique within its type.
func (r *rules) declare(seen map[string]string, p, prefix, id string) {
	r.id(p, prefix, id)
	if first, dup := seen[id]; dup {
		r.fail(ReasonDuplicateID, p, "ID %s is already declared at %s", id, first)
		return
	}
	seen[id] = p
}

// idArray checks an ID array: grammar of each, no repeated string, length
// bounds (min, max; max < 0 means unbounded).
func (r *rules) idArray(p, prefixes string, ids []string, min, max int) {
	r.bounds(p, len(ids), min, max)
	seen := make(map[string]bool, len(ids))
	for i, s := range ids {
		ip := ptr(p, i)
		r.id(ip, prefixes, s)
		if seen[s] {
			r.fail(ReasonRepeatedString, ip, "%q is repeated in the array", s)
		}
		seen[s] = true
	}
}

// bounds checks an array length against its minimum and maximum.
func (r *rules) bounds(p string, n, min, max int) {
	if max >= 0 && n > max {
		r.fail(ReasonArrayTooLong, p, "array holds %d records, maximum %d", n, max)
	}
	if n < min {
		r.fail(ReasonArrayTooShort, p, "array holds %d records, minimum %d", n, min)
	}
}

// CheckPath reports why p is not a POSIX repository-relative path (empty,
// absolute, an empty segment or a ".." segment: PROMPTS.md "Exact response
// contract"), naming the offending segment, or "" when it is one.
func CheckPath(path string) string {
	switch {
	case path == "":
		return "path is empty"
	case strings.HasPrefix(path, "/"):
		return "path is absolute"
	}
	for i, seg := range strings.Split(path, "/") {
		switch seg {
		case "":
			return fmt.Sprintf("path has an empty segment (segment %d)", i+1)
		case "..":
			return fmt.Sprintf(`path has a ".." segment (segment %d)`, i+1)
		}
	}
	return ""
}

// CheckFilePath is CheckPath for a path that names a file of the campaign
// (a manifest file or prompt, a packet evidence item's source file): it
// must also be canonical, the one spelling under which the file is bound
// and read, so a "." segment and a backslash are refused as well. It
// returns why, naming the offending segment, or "" for a canonical path.
func CheckFilePath(path string) string {
	if why := CheckPath(path); why != "" {
		return why
	}
	for i, seg := range strings.Split(path, "/") {
		switch {
		case seg == ".":
			return fmt.Sprintf(`path has a "." segment (segment %d)`, i+1)
		case strings.Contains(seg, `\`):
			return fmt.Sprintf(`path has a backslash in segment %d %q`, i+1, seg)
		}
	}
	return ""
}

// path checks a repository-relative path.
func (r *rules) path(p, s string) {
	if why := CheckPath(s); why != "" {
		r.fail(ReasonPath, p, "%s: %q", why, s)
	}
}

// filePath checks a path that names a campaign file (CheckFilePath).
func (r *rules) filePath(p, s string) {
	if why := CheckFilePath(s); why != "" {
		r.fail(ReasonPath, p, "%s: %q", why, s)
	}
}

// lines checks an inclusive 1-based line range.
func (r *rules) lines(p string, start, end int) {
	if start < 1 {
		r.fail(ReasonLineNotPositive, ptr(p, "start_line"), "line %d is not positive", start)
	}
	if end < 1 {
		r.fail(ReasonLineNotPositive, ptr(p, "end_line"), "line %d is not positive", end)
	}
	if start > end {
		r.fail(ReasonLineOrder, ptr(p, "start_line"), "start line %d is after end line %d", start, end)
	}
}

// Array maxima of the final answer (PROMPTS.md "Exact response contract").
const (
	MaxClaims             = 32
	MaxImplementationPlan = 32
	MaxVerificationPlan   = 32
	MaxUncertainties      = 32
	MaxExclusions         = 64
	MaxCitations          = 128
	MaxLedgerObligations  = 16
)

// response applies the Go rules to a decoded response for a role.
func (r *rules) response(v *Response, role Role) {
	switch role {
	case RoleDraft, RoleReviewA:
		if v.Reconciliation != nil {
			r.fail(ReasonReconciliationRole, "/reconciliation", "reconciliation must be null for role %s", role)
		}
	case RoleReviewB:
		if v.Reconciliation == nil {
			r.fail(ReasonReconciliationRole, "/reconciliation", "reconciliation must be an object for role %s", role)
		}
	default:
		r.fail(ReasonUnknownRole, "", "role %q is not draft, review-a or review-b", role)
	}
	f := &v.Final
	const fp = "/final"
	r.bounds(fp+"/claims", len(f.Claims), 0, MaxClaims)
	r.bounds(fp+"/implementation_plan", len(f.ImplementationPlan), 0, MaxImplementationPlan)
	r.bounds(fp+"/verification_plan", len(f.VerificationPlan), 0, MaxVerificationPlan)
	r.bounds(fp+"/uncertainties", len(f.Uncertainties), 0, MaxUncertainties)
	r.bounds(fp+"/exclusions", len(f.Exclusions), 0, MaxExclusions)
	r.bounds(fp+"/citations", len(f.Citations), 0, MaxCitations)
	seen := map[string]string{}
	for i, c := range f.Claims {
		p := ptr(fp+"/claims", i)
		r.declare(seen, p+"/id", "C", c.ID)
		r.text(p+"/text", c.Text)
		r.idArray(p+"/evidence_ids", "E", c.EvidenceIDs, 0, -1)
		if c.UncertaintyID != nil {
			r.id(p+"/uncertainty_id", "U", *c.UncertaintyID)
		}
	}
	seen = map[string]string{}
	for i, a := range f.ImplementationPlan {
		p := ptr(fp+"/implementation_plan", i)
		r.declare(seen, p+"/id", "A", a.ID)
		r.text(p+"/action", a.Action)
		r.text(p+"/rationale", a.Rationale)
		r.idArray(p+"/evidence_ids", "E", a.EvidenceIDs, 0, -1)
		r.idArray(p+"/verification_ids", "V", a.VerificationIDs, 0, -1)
		r.optText(p+"/verification_limitation", a.VerificationLimitation)
	}
	seen = map[string]string{}
	for i, v := range f.VerificationPlan {
		p := ptr(fp+"/verification_plan", i)
		r.declare(seen, p+"/id", "V", v.ID)
		r.text(p+"/expected_behavior", v.ExpectedBehavior)
		r.text(p+"/method", v.Method)
		r.idArray(p+"/evidence_ids", "E", v.EvidenceIDs, 0, -1)
		if v.UncertaintyID != nil {
			r.id(p+"/uncertainty_id", "U", *v.UncertaintyID)
		}
	}
	seen = map[string]string{}
	for i, u := range f.Uncertainties {
		p := ptr(fp+"/uncertainties", i)
		r.declare(seen, p+"/id", "U", u.ID)
		r.text(p+"/missing_information", u.MissingInformation)
		r.text(p+"/consequence", u.Consequence)
		r.text(p+"/verification_step", u.VerificationStep)
	}
	seen = map[string]string{}
	for i, x := range f.Exclusions {
		p := ptr(fp+"/exclusions", i)
		r.declare(seen, p+"/id", "X", x.ID)
		r.text(p+"/scope_item", x.ScopeItem)
		r.text(p+"/reason", x.Reason)
		r.idArray(p+"/evidence_ids", "E", x.EvidenceIDs, 0, -1)
	}
	for i, c := range f.Citations {
		p := ptr(fp+"/citations", i)
		r.id(p+"/evidence_id", "E", c.EvidenceID)
		r.path(p+"/path", c.Path)
		r.lines(p, c.StartLine, c.EndLine)
		r.idArray(p+"/supports", "CAVX", c.Supports, 1, -1)
	}
	if rec := v.Reconciliation; rec != nil {
		const rp = "/reconciliation"
		r.bounds(rp+"/obligations", len(rec.Obligations), 1, MaxLedgerObligations)
		seen = map[string]string{}
		for i, o := range rec.Obligations {
			p := ptr(rp+"/obligations", i)
			r.declare(seen, p+"/id", "O", o.ID)
			r.text(p+"/text", o.Text)
			r.idArray(p+"/evidence_ids", "E", o.EvidenceIDs, 0, -1)
			r.idArray(p+"/final_ids", "CAVUX", o.FinalIDs, 1, -1)
		}
		for i, d := range rec.EvidenceDispositions {
			p := ptr(rp+"/evidence_dispositions", i)
			r.id(p+"/evidence_id", "E", d.EvidenceID)
			r.idArray(p+"/final_ids", "CAVUX", d.FinalIDs, 1, -1)
		}
	}
}

// DecodeResponse strictly decodes one session's raw answer bytes for role
// (PROMPTS.md "Exact response contract"): the strict JSON layer (no BOM,
// duplicate keys, invalid UTF-8, lone surrogates, non-finite, non-integer or
// negative-zero numbers, nesting over MaxDepth), the embedded response
// schema, then the rules the schema cannot say (trimmed text, ID grammar per
// type, duplicate IDs within a type, repeated strings in ID arrays, paths,
// line order, array maxima, and reconciliation null for draft/review-a and
// an object for review-b). file names the response in refusals. Every
// refusal is a *Error; match it with errors.Is(err, ReasonX). The
// evidence-item references are not resolved here (the scorer's structural
// validator does that against the packet).
func DecodeResponse(data []byte, file string, role Role) (*Response, error) {
	return decoder{}.response(data, file, role)
}

// response is DecodeResponse on d.
func (d decoder) response(data []byte, file string, role Role) (*Response, error) {
	var v Response
	if e := d.strict(data, file, SchemaResponse, &v); e != nil {
		return nil, e
	}
	if responseClean(&v, role) {
		return &v, nil // the rules below would find nothing (responseClean)
	}
	r := rules{file: file, rule: RuleResponseContract}
	r.response(&v, role)
	if r.err != nil {
		return nil, r.err
	}
	return &v, nil
}

// responseClean reports, without allocating, whether response would find
// no refusal in v for role: the same rules, only a yes or no. A false
// answer runs response for the first refusal, so false is always safe;
// true must imply that response finds nothing (tested on the fixtures and
// fuzzed).
func responseClean(v *Response, role Role) bool {
	switch role {
	case RoleDraft, RoleReviewA:
		if v.Reconciliation != nil {
			return false
		}
	case RoleReviewB:
		if v.Reconciliation == nil {
			return false
		}
	default:
		return false
	}
	f := &v.Final
	if len(f.Claims) > MaxClaims || len(f.ImplementationPlan) > MaxImplementationPlan ||
		len(f.VerificationPlan) > MaxVerificationPlan || len(f.Uncertainties) > MaxUncertainties ||
		len(f.Exclusions) > MaxExclusions || len(f.Citations) > MaxCitations {
		return false
	}
	for i, c := range f.Claims {
		if !ValidID('C', c.ID) || declaredBefore(f.Claims[:i], func(x Claim) string { return x.ID }, c.ID) ||
			!cleanText(c.Text) || !cleanIDs("E", c.EvidenceIDs, 0) ||
			c.UncertaintyID != nil && !ValidID('U', *c.UncertaintyID) {
			return false
		}
	}
	for i, a := range f.ImplementationPlan {
		if !ValidID('A', a.ID) || declaredBefore(f.ImplementationPlan[:i], func(x Action) string { return x.ID }, a.ID) ||
			!cleanText(a.Action) || !cleanText(a.Rationale) || !cleanIDs("E", a.EvidenceIDs, 0) ||
			!cleanIDs("V", a.VerificationIDs, 0) || a.VerificationLimitation != nil && !cleanText(*a.VerificationLimitation) {
			return false
		}
	}
	for i, x := range f.VerificationPlan {
		if !ValidID('V', x.ID) || declaredBefore(f.VerificationPlan[:i], func(x Verification) string { return x.ID }, x.ID) ||
			!cleanText(x.ExpectedBehavior) || !cleanText(x.Method) || !cleanIDs("E", x.EvidenceIDs, 0) ||
			x.UncertaintyID != nil && !ValidID('U', *x.UncertaintyID) {
			return false
		}
	}
	for i, u := range f.Uncertainties {
		if !ValidID('U', u.ID) || declaredBefore(f.Uncertainties[:i], func(x Uncertainty) string { return x.ID }, u.ID) ||
			!cleanText(u.MissingInformation) || !cleanText(u.Consequence) || !cleanText(u.VerificationStep) {
			return false
		}
	}
	for i, x := range f.Exclusions {
		if !ValidID('X', x.ID) || declaredBefore(f.Exclusions[:i], func(x Exclusion) string { return x.ID }, x.ID) ||
			!cleanText(x.ScopeItem) || !cleanText(x.Reason) || !cleanIDs("E", x.EvidenceIDs, 0) {
			return false
		}
	}
	for _, c := range f.Citations {
		if !ValidID('E', c.EvidenceID) || !cleanPath(c.Path) || c.StartLine < 1 || c.EndLine < 1 ||
			c.StartLine > c.EndLine || !cleanIDs("CAVX", c.Supports, 1) {
			return false
		}
	}
	if rec := v.Reconciliation; rec != nil {
		if len(rec.Obligations) < 1 || len(rec.Obligations) > MaxLedgerObligations {
			return false
		}
		for i, o := range rec.Obligations {
			if !ValidID('O', o.ID) || declaredBefore(rec.Obligations[:i], func(x LedgerObligation) string { return x.ID }, o.ID) ||
				!cleanText(o.Text) || !cleanIDs("E", o.EvidenceIDs, 0) || !cleanIDs("CAVUX", o.FinalIDs, 1) {
				return false
			}
		}
		for _, d := range rec.EvidenceDispositions {
			if !ValidID('E', d.EvidenceID) || !cleanIDs("CAVUX", d.FinalIDs, 1) {
				return false
			}
		}
	}
	return true
}

// declaredBefore reports whether one of the records before holds id.
func declaredBefore[T any](before []T, idOf func(T) string, id string) bool {
	for _, x := range before {
		if idOf(x) == id {
			return true
		}
	}
	return false
}

// cleanText reports whether text passes rules.text.
func cleanText(s string) bool {
	return s != "" && strings.TrimSpace(s) == s && utf8.RuneCountInString(s) <= MaxTextScalars
}

// cleanIDs reports whether ids passes rules.idArray with at least min
// entries and no maximum.
func cleanIDs(prefixes string, ids []string, min int) bool {
	if len(ids) < min {
		return false
	}
	for i, s := range ids {
		ok := false
		for j := 0; j < len(prefixes) && !ok; j++ {
			ok = ValidID(prefixes[j], s)
		}
		if !ok {
			return false
		}
		if len(ids) <= 16 {
			for _, t := range ids[:i] {
				if t == s {
					return false
				}
			}
		}
	}
	if len(ids) > 16 {
		seen := make(map[string]bool, len(ids))
		for _, s := range ids {
			if seen[s] {
				return false
			}
			seen[s] = true
		}
	}
	return true
}

// cleanPath reports whether CheckPath(s) is "" without allocating: not
// empty, not absolute, no empty or ".." segment.
func cleanPath(s string) bool {
	if s == "" || s[0] == '/' {
		return false
	}
	for rest := s; ; {
		seg, tail, more := strings.Cut(rest, "/")
		if seg == "" || seg == ".." {
			return false
		}
		if !more {
			return true
		}
		rest = tail
	}
}
