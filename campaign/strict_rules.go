package campaign

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
	"verdict/verr"
)

// rules applies, in document order, the rules a JSON Schema cannot say
// (or says without a precise reason), and keeps the first refusal. On a
// record they accept they allocate nothing: pointers are kept as loc
// values and rendered, with the detail, only when a refusal is made.
type rules struct {
	file string
	rule string
	err  *verr.Error
}

// loc is an RFC 6901 JSON pointer kept as its parts until a refusal
// renders it: base, then "/i" when i ≥ 0, then leaf, then "/j" when j ≥ 0.
// base and leaf are constant member paths ("/final/claims", "/id") whose
// tokens need no escaping.
type loc struct {
	base string
	i    int
	leaf string
	j    int
}

// at is the pointer p.
func at(p string) loc { return loc{base: p, i: -1, j: -1} }

// elem is l followed by the array index n. The rules use pointers of at
// most two indexes; a deeper one is a programming error.
func (l loc) elem(n int) loc {
	switch {
	case l.i < 0 && l.leaf == "":
		l.i = n
	case l.j < 0:
		l.j = n
	default:
		panic("campaign: pointer with a third index")
	}
	return l
}

// field is l followed by the member path m ("/id", "/sessions/draft"),
// before its second index.
func (l loc) field(m string) loc {
	if l.j >= 0 {
		panic("campaign: member after a second index")
	}
	if l.leaf == "" {
		l.leaf = m
	} else {
		l.leaf += m
	}
	return l
}

// String renders the pointer.
func (l loc) String() string {
	p := l.base
	if l.i >= 0 {
		p = ptr(p, l.i)
	}
	p += l.leaf
	if l.j >= 0 {
		p = ptr(p, l.j)
	}
	return p
}

func (r *rules) fail(reason verr.Reason, p loc, format string, a ...any) {
	if r.err == nil {
		r.err = &verr.Error{Reason: reason, File: r.file, Pointer: p.String(), Rule: r.rule, Detail: fmt.Sprintf(format, a...)}
	}
}

// text checks a text: nonempty, trimmed, at most MaxTextScalars scalar values.
func (r *rules) text(p loc, s string) {
	switch {
	case s == "":
		r.fail(ReasonTextEmpty, p, "text is empty")
	case strings.TrimSpace(s) != s:
		r.fail(ReasonTextNotTrimmed, p, "text starts or ends with white space")
	case len(s) > MaxTextScalars && utf8.RuneCountInString(s) > MaxTextScalars:
		r.fail(ReasonTextTooLong, p, "text has %d Unicode scalar values, maximum %d", utf8.RuneCountInString(s), MaxTextScalars)
	}
}

// MaxLabelBytes is the longest request_id, response_id or host a receipt
// may record, in bytes (ReasonLabel).
const MaxLabelBytes = 512

// label checks a runner's or provider's identifier (ReasonLabel); the
// empty string is left to the rules that say when one is required.
func (r *rules) label(p loc, s string) {
	switch {
	case s == "":
	case strings.TrimSpace(s) != s:
		r.fail(ReasonLabel, p, "starts or ends with white space")
	case len(s) > MaxLabelBytes:
		r.fail(ReasonLabel, p, "%d bytes, maximum %d", len(s), MaxLabelBytes)
	default:
		if i := strings.IndexFunc(s, unicode.IsControl); i >= 0 {
			c, _ := utf8.DecodeRuneInString(s[i:])
			r.fail(ReasonLabel, p, "holds control character %U at byte %d", c, i)
		}
	}
}

// optText checks a nullable text.
func (r *rules) optText(p loc, s *string) {
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

// validIDOf reports whether id is a valid ID of one of the prefixes.
func validIDOf(prefixes, id string) bool {
	for i := 0; i < len(prefixes); i++ {
		if ValidID(prefixes[i], id) {
			return true
		}
	}
	return false
}

// id checks one ID against the prefixes its position allows.
func (r *rules) id(p loc, prefixes, id string) {
	if !validIDOf(prefixes, id) {
		r.badID(p, prefixes, id)
	}
}

// badID refuses an ID that is not one of the prefixes' IDs.
func (r *rules) badID(p loc, prefixes, id string) {
	r.fail(ReasonIDGrammar, p, "%q is not an ID with prefix %s and a nonzero decimal integer", id, strings.Join(strings.Split(prefixes, ""), "/"))
}

// declare checks a declared ID at p: its grammar, and that no earlier
// record of its type declares it (dup, at first).
func (r *rules) declare(p loc, prefix, id string, first loc, dup bool) {
	r.id(p, prefix, id)
	if dup {
		r.fail(ReasonDuplicateID, p, "ID %s is already declared at %s", id, first)
	}
}

// declareIn declares the ID of record i of recs, an array at base whose
// records hold their ID at "/id" (id reads it): the earlier records are
// searched, so a record array of a few dozen entries needs no map.
func declareIn[T any](r *rules, base loc, prefix string, recs []T, i int, id func(*T) string) {
	own := id(&recs[i])
	first := -1
	for k := range i {
		if id(&recs[k]) == own {
			first = k
			break
		}
	}
	r.declare(base.elem(i).field("/id"), prefix, own, base.elem(first).field("/id"), first >= 0)
}

// declareMap declares id at p against the IDs seen so far (with where
// each was first declared), for arrays too long to search.
func (r *rules) declareMap(seen map[string]loc, p loc, prefix, id string) {
	first, dup := seen[id]
	r.declare(p, prefix, id, first, dup)
	if !dup {
		seen[id] = p
	}
}

// searchRepeats is the longest ID array checked for repeated strings by
// searching the earlier entries; a longer one uses a map.
const searchRepeats = 64

// idArray checks an ID array: grammar of each, no repeated string, length
// bounds (min, max; max < 0 means unbounded).
func (r *rules) idArray(p loc, prefixes string, ids []string, min, max int) {
	r.bounds(p, len(ids), min, max)
	var seen map[string]bool
	if len(ids) > searchRepeats {
		seen = make(map[string]bool, len(ids))
	}
	for i, s := range ids {
		if !validIDOf(prefixes, s) {
			r.badID(p.elem(i), prefixes, s)
		}
		repeated := false
		if seen != nil {
			repeated = seen[s]
			seen[s] = true
		} else {
			for _, t := range ids[:i] {
				// Equal lengths and last bytes first: most IDs of one
				// array differ there.
				if len(t) == len(s) && (s == "" || t[len(t)-1] == s[len(s)-1]) && t == s {
					repeated = true
					break
				}
			}
		}
		if repeated {
			r.fail(ReasonRepeatedString, p.elem(i), "%q is repeated in the array", s)
		}
	}
}

// bounds checks an array length against its minimum and maximum.
func (r *rules) bounds(p loc, n, min, max int) {
	if max >= 0 && n > max {
		r.fail(ReasonArrayTooLong, p, "array holds %d records, maximum %d", n, max)
	}
	if n < min {
		r.fail(ReasonArrayTooShort, p, "array holds %d records, minimum %d", n, min)
	}
}

// CheckPath reports why p is not a POSIX repository-relative path (empty,
// absolute, an empty segment or a ".." segment: PROMPTS.md "Exact response
// contract"), naming the offending segment, or "" when it is one. It
// allocates only to say why.
func CheckPath(path string) string {
	switch {
	case path == "":
		return "path is empty"
	case strings.HasPrefix(path, "/"):
		return "path is absolute"
	}
	for i, rest := 1, path; ; i++ {
		seg, tail, more := strings.Cut(rest, "/")
		switch seg {
		case "":
			return fmt.Sprintf("path has an empty segment (segment %d)", i)
		case "..":
			return fmt.Sprintf(`path has a ".." segment (segment %d)`, i)
		}
		if !more {
			return ""
		}
		rest = tail
	}
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
	for i, rest := 1, path; ; i++ {
		seg, tail, more := strings.Cut(rest, "/")
		switch {
		case seg == ".":
			return fmt.Sprintf(`path has a "." segment (segment %d)`, i)
		case strings.Contains(seg, `\`):
			return fmt.Sprintf(`path has a backslash in segment %d %q`, i, seg)
		}
		if !more {
			return ""
		}
		rest = tail
	}
}

// path checks a repository-relative path.
func (r *rules) path(p loc, s string) {
	if why := CheckPath(s); why != "" {
		r.fail(ReasonPath, p, "%s: %q", why, s)
	}
}

// filePath checks a path that names a campaign file (CheckFilePath).
func (r *rules) filePath(p loc, s string) {
	if why := CheckFilePath(s); why != "" {
		r.fail(ReasonPath, p, "%s: %q", why, s)
	}
}

// lines checks the inclusive 1-based line range of the record at p.
func (r *rules) lines(p loc, start, end int) {
	if start < 1 {
		r.fail(ReasonLineNotPositive, p.field("/start_line"), "line %d is not positive", start)
	}
	if end < 1 {
		r.fail(ReasonLineNotPositive, p.field("/end_line"), "line %d is not positive", end)
	}
	if start > end {
		r.fail(ReasonLineOrder, p.field("/start_line"), "start line %d is after end line %d", start, end)
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
			r.fail(ReasonReconciliationRole, at("/reconciliation"), "reconciliation must be null for role %s", role)
		}
	case RoleReviewB:
		if v.Reconciliation == nil {
			r.fail(ReasonReconciliationRole, at("/reconciliation"), "reconciliation must be an object for role %s", role)
		}
	default:
		r.fail(ReasonUnknownRole, at(""), "role %q is not draft, review-a or review-b", role)
	}
	f := &v.Final
	claims, actions, verifications := at("/final/claims"), at("/final/implementation_plan"), at("/final/verification_plan")
	uncertainties, exclusions, citations := at("/final/uncertainties"), at("/final/exclusions"), at("/final/citations")
	r.bounds(claims, len(f.Claims), 0, MaxClaims)
	r.bounds(actions, len(f.ImplementationPlan), 0, MaxImplementationPlan)
	r.bounds(verifications, len(f.VerificationPlan), 0, MaxVerificationPlan)
	r.bounds(uncertainties, len(f.Uncertainties), 0, MaxUncertainties)
	r.bounds(exclusions, len(f.Exclusions), 0, MaxExclusions)
	r.bounds(citations, len(f.Citations), 0, MaxCitations)
	for i := range f.Claims {
		c, p := &f.Claims[i], claims.elem(i)
		declareIn(r, claims, "C", f.Claims, i, func(c *Claim) string { return c.ID })
		r.text(p.field("/text"), c.Text)
		r.idArray(p.field("/evidence_ids"), "E", c.EvidenceIDs, 0, -1)
		if c.UncertaintyID != nil {
			r.id(p.field("/uncertainty_id"), "U", *c.UncertaintyID)
		}
	}
	for i := range f.ImplementationPlan {
		a, p := &f.ImplementationPlan[i], actions.elem(i)
		declareIn(r, actions, "A", f.ImplementationPlan, i, func(a *Action) string { return a.ID })
		r.text(p.field("/action"), a.Action)
		r.text(p.field("/rationale"), a.Rationale)
		r.idArray(p.field("/evidence_ids"), "E", a.EvidenceIDs, 0, -1)
		r.idArray(p.field("/verification_ids"), "V", a.VerificationIDs, 0, -1)
		r.optText(p.field("/verification_limitation"), a.VerificationLimitation)
	}
	for i := range f.VerificationPlan {
		v, p := &f.VerificationPlan[i], verifications.elem(i)
		declareIn(r, verifications, "V", f.VerificationPlan, i, func(v *Verification) string { return v.ID })
		r.text(p.field("/expected_behavior"), v.ExpectedBehavior)
		r.text(p.field("/method"), v.Method)
		r.idArray(p.field("/evidence_ids"), "E", v.EvidenceIDs, 0, -1)
		if v.UncertaintyID != nil {
			r.id(p.field("/uncertainty_id"), "U", *v.UncertaintyID)
		}
	}
	for i := range f.Uncertainties {
		u, p := &f.Uncertainties[i], uncertainties.elem(i)
		declareIn(r, uncertainties, "U", f.Uncertainties, i, func(u *Uncertainty) string { return u.ID })
		r.text(p.field("/missing_information"), u.MissingInformation)
		r.text(p.field("/consequence"), u.Consequence)
		r.text(p.field("/verification_step"), u.VerificationStep)
	}
	for i := range f.Exclusions {
		x, p := &f.Exclusions[i], exclusions.elem(i)
		declareIn(r, exclusions, "X", f.Exclusions, i, func(x *Exclusion) string { return x.ID })
		r.text(p.field("/scope_item"), x.ScopeItem)
		r.text(p.field("/reason"), x.Reason)
		r.idArray(p.field("/evidence_ids"), "E", x.EvidenceIDs, 0, -1)
	}
	for i := range f.Citations {
		c, p := &f.Citations[i], citations.elem(i)
		r.id(p.field("/evidence_id"), "E", c.EvidenceID)
		r.path(p.field("/path"), c.Path)
		r.lines(p, c.StartLine, c.EndLine)
		r.idArray(p.field("/supports"), "CAVX", c.Supports, 1, -1)
	}
	if rec := v.Reconciliation; rec != nil {
		obligations, dispositions := at("/reconciliation/obligations"), at("/reconciliation/evidence_dispositions")
		r.bounds(obligations, len(rec.Obligations), 1, MaxLedgerObligations)
		for i := range rec.Obligations {
			o, p := &rec.Obligations[i], obligations.elem(i)
			declareIn(r, obligations, "O", rec.Obligations, i, func(o *LedgerObligation) string { return o.ID })
			r.text(p.field("/text"), o.Text)
			r.idArray(p.field("/evidence_ids"), "E", o.EvidenceIDs, 0, -1)
			r.idArray(p.field("/final_ids"), "CAVUX", o.FinalIDs, 1, -1)
		}
		for i := range rec.EvidenceDispositions {
			d, p := &rec.EvidenceDispositions[i], dispositions.elem(i)
			r.id(p.field("/evidence_id"), "E", d.EvidenceID)
			r.idArray(p.field("/final_ids"), "CAVUX", d.FinalIDs, 1, -1)
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
	r := rules{file: file, rule: RuleResponseContract}
	r.response(&v, role)
	if r.err != nil {
		return nil, r.err
	}
	return &v, nil
}

// boundFiles checks the manifest's files[] of either design: each path a
// campaign-relative file path, none bound twice (ReasonDuplicateFile).
func (r *rules) boundFiles(files []FileDigest) {
	seen := map[string]loc{}
	for i, f := range files {
		p := at("/files").elem(i).field("/path")
		r.filePath(p, f.Path)
		if first, dup := seen[f.Path]; dup {
			r.fail(ReasonDuplicateFile, p, "path %s is already bound at %s", f.Path, first)
		}
		seen[f.Path] = p
	}
}
