package scorer

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"verdict/campaign"
	"verdict/verr"
)

// Contract rule names carried by findings.
const (
	ruleConstraints = "PROMPTS.md Additional constraints"
	ruleContract    = "PROMPTS.md Exact response contract"
	ruleC09         = "EVALUATOR-CONTROLS C09"
	ruleC12         = "EVALUATOR-CONTROLS C12"
	ruleC13         = "EVALUATOR-CONTROLS C13"
)

// Reason codes of structural findings. Each names the rule it enforces.
const (
	// ReasonEvidenceNotInPacket: an E ID of the final answer or of an
	// obligation in the ledger is not an item of the supplied packet
	// (PROMPTS.md Additional constraints: "Every E ID refers to an actual
	// supplied item").
	ReasonEvidenceNotInPacket verr.Reason = "evidence-not-in-packet"

	// ReasonDanglingLink: a link (claim or verification uncertainty_id,
	// action verification_ids, citation supports, ledger final_ids) names
	// an ID that does not exist in the revised final answer, for example a
	// draft-only ID that survived renumbering or deletion (PROMPTS.md
	// Additional constraints: "All final links resolve within the current
	// revised answer"; EVALUATOR-CONTROLS C12).
	ReasonDanglingLink verr.Reason = "dangling-link"

	// ReasonLinkWrongType: a link names an ID of a type the field does not
	// allow, e.g. a U ID in citation supports (PROMPTS.md Exact response
	// contract: supports are C/A/V/X IDs; final_ids are C/A/V/U/X IDs;
	// uncertainty_id is a U ID; verification_ids are V IDs).
	ReasonLinkWrongType verr.Reason = "link-wrong-type"

	// ReasonSourceBackedWithoutEvidence: a source_backed claim has empty
	// evidence_ids (PROMPTS.md Additional constraints: "A source_backed
	// claim requires evidence and citations").
	ReasonSourceBackedWithoutEvidence verr.Reason = "source-backed-claim-without-evidence"

	// ReasonSourceBackedWithoutCitation: no citation lists a source_backed
	// claim in its supports (PROMPTS.md Additional constraints: "A
	// source_backed claim requires evidence and citations").
	ReasonSourceBackedWithoutCitation verr.Reason = "source-backed-claim-without-citation"

	// ReasonInferenceWithoutPremises: an inference claim has empty
	// evidence_ids (PROMPTS.md Additional constraints: "An inference
	// requires its source premises"; a claim without source premises must
	// be expressed as unknown).
	ReasonInferenceWithoutPremises verr.Reason = "inference-without-premises"

	// ReasonUnknownWithoutUncertainty: an unknown claim has a null
	// uncertainty_id (PROMPTS.md Additional constraints: "An unknown
	// requires a U link").
	ReasonUnknownWithoutUncertainty verr.Reason = "unknown-claim-without-uncertainty"

	// ReasonSourceBasisWithoutEvidence: an action or verification with
	// support_basis "source" has empty evidence_ids (PROMPTS.md Additional
	// constraints: "A source-based action/verification requires nonempty
	// evidence and citations").
	ReasonSourceBasisWithoutEvidence verr.Reason = "source-basis-without-evidence"

	// ReasonSourceBasisWithoutCitation: no citation lists a source-based
	// action or verification in its supports (PROMPTS.md Additional
	// constraints: "A source-based action/verification requires nonempty
	// evidence and citations").
	ReasonSourceBasisWithoutCitation verr.Reason = "source-basis-without-citation"

	// ReasonMissingSourceWithoutUncertainty: a verification with
	// support_basis "missing_source" has a null uncertainty_id (PROMPTS.md
	// Additional constraints: "A missing_source verification requires a U
	// link").
	ReasonMissingSourceWithoutUncertainty verr.Reason = "missing-source-without-uncertainty"

	// ReasonActionWithoutVerification: an action has no verification_ids
	// and a null verification_limitation (PROMPTS.md Additional
	// constraints: "Every action has a V link or a nonnull, concrete
	// verification_limitation").
	ReasonActionWithoutVerification verr.Reason = "action-without-verification"

	// ReasonCitationPathMismatch: a citation's path differs from the path
	// of its evidence item (EVALUATOR-CONTROLS C09; PROMPTS.md Additional
	// constraints: "A citation must lie within authentic physical source
	// lines represented by that supplied evidence item").
	ReasonCitationPathMismatch verr.Reason = "citation-path-mismatch"

	// ReasonCitationOutsideLines: a citation's start_line..end_line is not
	// inside its evidence item's start_line..end_line, or is inverted. The
	// item's lines are the file's physical lines (a final newline makes no
	// extra line), so one line past the excerpt is a phantom line
	// (EVALUATOR-CONTROLS C09).
	ReasonCitationOutsideLines verr.Reason = "citation-outside-lines"

	// ReasonAddressedWithoutLinks: an addressed ledger obligation has
	// neither (a C/A link and a V link) nor (an A link whose action has a
	// non-null verification_limitation) among links that resolve
	// (PROMPTS.md Additional constraints: "An addressed obligation has a
	// C/A link and a V link, or an A link with a visible
	// verification_limitation").
	ReasonAddressedWithoutLinks verr.Reason = "addressed-obligation-without-links"

	// ReasonAddressedWithoutEvidence: an addressed ledger obligation with
	// basis "source" has empty evidence_ids (PROMPTS.md Additional
	// constraints: "A source-based addressed obligation requires nonempty
	// evidence").
	ReasonAddressedWithoutEvidence verr.Reason = "addressed-obligation-without-evidence"

	// ReasonUnresolvedObligationWithoutUncertainty: an unresolved ledger
	// obligation has no U link that resolves (PROMPTS.md Additional
	// constraints: "An unresolved obligation has a U link").
	ReasonUnresolvedObligationWithoutUncertainty verr.Reason = "unresolved-obligation-without-uncertainty"

	// ReasonExcludedObligationWithoutExclusion: an excluded ledger
	// obligation has no X link that resolves (PROMPTS.md Additional
	// constraints: "an excluded obligation has an X link").
	ReasonExcludedObligationWithoutExclusion verr.Reason = "excluded-obligation-without-exclusion"

	// ReasonUsedDispositionUncited: a used disposition has no C/A/V link
	// that some citation of that same E ID supports (PROMPTS.md Additional
	// constraints: "A used evidence disposition has a C/A/V link supported
	// by a citation to that E ID").
	ReasonUsedDispositionUncited verr.Reason = "used-disposition-uncited"

	// ReasonExcludedDispositionWithoutExclusion: an excluded disposition
	// has no X link whose evidence_ids include its E ID (PROMPTS.md
	// Additional constraints: "An excluded disposition has an X link whose
	// evidence_ids include that E ID").
	ReasonExcludedDispositionWithoutExclusion verr.Reason = "excluded-disposition-without-exclusion"

	// ReasonUnresolvedDispositionWithoutUncertainty: an unresolved
	// disposition has no U link that resolves (PROMPTS.md Additional
	// constraints: "An unresolved disposition has a U link").
	ReasonUnresolvedDispositionWithoutUncertainty verr.Reason = "unresolved-disposition-without-uncertainty"

	// ReasonDispositionMissing: a packet E ID has no disposition
	// (EVALUATOR-CONTROLS C13; PROMPTS.md: "the disposition E-ID set must
	// equal the packet E-ID set exactly").
	ReasonDispositionMissing verr.Reason = "disposition-missing"

	// ReasonDispositionDuplicate: a packet E ID has more than one
	// disposition; each later one is reported (EVALUATOR-CONTROLS C13;
	// PROMPTS.md: "exactly one record per packet E ID"; used, excluded and
	// unresolved are exclusive).
	ReasonDispositionDuplicate verr.Reason = "disposition-duplicate"

	// ReasonDispositionInvented: a disposition names an E ID that is not
	// in the packet; a substituted ID shows as one missing plus one
	// invented disposition (EVALUATOR-CONTROLS C13).
	ReasonDispositionInvented verr.Reason = "disposition-invented"
)

// ValidateResponse runs every structural rule of PROMPTS.md "Additional
// constraints" and EVALUATOR-CONTROLS C09, C12 and C13 over one strictly
// decoded response and returns its findings, sorted (see SortFindings);
// nil means structurally valid. file is the response file named in the
// findings. The packet is the session's evidence packet; a nil packet is
// treated as an empty one (every E ID is then reported as not in the
// packet).
//
// Findings about "final" have Scope "final"; findings about B's
// "reconciliation" have Scope "protocol". The ledger is checked only for
// role review-b: a reconciliation for draft or review-a, or a null one for
// review-b, is a refusal of the strict loader, not a finding.
//
// ValidateResponse does not judge semantics (whether a citation supports
// its statement, whether an exclusion is justified): that is the raters'
// work (C10, C11).
func ValidateResponse(resp *campaign.Response, role campaign.Role, packet *campaign.Packet, file string) []Finding {
	if resp == nil {
		return nil
	}
	v := newValidator(resp, packet, file)
	defer v.release()
	v.final()
	if role == campaign.RoleReviewB && resp.Reconciliation != nil {
		v.ledger(resp.Reconciliation)
	}
	return v.findings()
}

// ValidateFinal runs the final-answer rules of PROMPTS.md "Additional
// constraints" and EVALUATOR-CONTROLS C12 over one decoded answer of a
// system comparison's review (CONTRACT §6 "the same absolute
// source/safety and final-plan floors") against evidence, the E IDs of the
// workflow's raw-observation packet E1..EN: every E ID a claim, action,
// verification or exclusion names is in the packet
// (ReasonEvidenceNotInPacket); every link resolves in the revised answer
// and has its type (ReasonDanglingLink, ReasonLinkWrongType, citation
// supports included); a source_backed claim has evidence and a citation;
// an inference has premises; an unknown claim and a missing_source
// verification have a U link; a source-based action or verification has
// evidence and a citation; every action has a V link or a
// verification_limitation. It is the same check ValidateResponse applies
// to a fixed-evidence final answer, less the citation's evidence ID, path
// and lines against an excerpt item: a raw observation has no excerpt
// lines, and CitationSupport checks each citation against the frozen
// repository and the observation instead (a citation is reported once).
// Findings have Scope "final", name file and are sorted (SortFindings);
// each fails the review's source gate. A nil answer has none.
func ValidateFinal(resp *campaign.Response, evidence []string, file string) []Finding {
	if resp == nil {
		return nil
	}
	v := newValidatorOf(resp, evidence, file)
	defer v.release()
	v.final()
	return v.findings()
}

// ValidateCampaign validates every session of c that has a decoded
// Response, against the packet of the session's task, naming the file
// campaign.ResponsePath(session ID). The result is sorted by file, JSON
// pointer and code; nil means no findings.
func ValidateCampaign(c *campaign.Campaign) []Finding {
	if c == nil {
		return nil
	}
	packets := make(map[string]*campaign.Packet, len(c.Tasks))
	for _, t := range c.Tasks {
		if t != nil {
			packets[t.Entry.ID] = &t.Packet
		}
	}
	var out []Finding
	for _, s := range c.Sessions {
		if s == nil || s.Response == nil {
			continue
		}
		out = append(out, ValidateResponse(s.Response, s.Role, packets[s.Run.Task], campaign.ResponsePath(s.ID))...)
	}
	if len(out) == 0 {
		return nil
	}
	SortFindings(out)
	return out
}

// validator holds the indexes of one response.
type validator struct {
	resp  *campaign.Response
	file  string
	items map[string]*campaign.EvidenceItem
	// known holds the E IDs of the supplied packet: the keys of items, or
	// the IDs ValidateLedger and ValidateFinal are given for a packet of
	// another kind.
	known map[string]bool
	// excerpts is true when the packet's items are excerpts whose path and
	// lines bound a citation (the fixed-evidence design, C09): final()
	// then checks each citation's evidence ID, path and lines against its
	// item. It is false for a system comparison's raw-observation packet,
	// whose citations CitationSupport checks against the frozen
	// repository and the observation.
	excerpts bool
	// ids holds every final ID by type letter: 'C', 'A', 'V', 'U', 'X'.
	ids     map[string]bool
	actions map[string]*campaign.Action
	excl    map[string]*campaign.Exclusion
	// supported maps a final ID to the E IDs of the citations supporting it.
	supported map[string][]string
	out       []Finding
}

// validatorPool keeps validators between responses, so that their index
// maps keep their buckets (ValidateCampaign validates thousands).
var validatorPool = sync.Pool{New: func() any {
	return &validator{
		items:     map[string]*campaign.EvidenceItem{},
		known:     map[string]bool{},
		ids:       map[string]bool{},
		actions:   map[string]*campaign.Action{},
		excl:      map[string]*campaign.Exclusion{},
		supported: map[string][]string{},
	}
}}

// release empties v and returns it to validatorPool; v.out, handed to the
// caller, is dropped, not reused.
func (v *validator) release() {
	clear(v.items)
	clear(v.known)
	clear(v.ids)
	clear(v.actions)
	clear(v.excl)
	clear(v.supported)
	v.resp, v.file, v.out, v.excerpts = nil, "", nil, false
	validatorPool.Put(v)
}

func newValidator(resp *campaign.Response, packet *campaign.Packet, file string) *validator {
	v := validatorPool.Get().(*validator)
	v.resp, v.file, v.excerpts = resp, file, true
	if packet != nil {
		for i := range packet.Items {
			it := &packet.Items[i]
			v.items[it.ID] = it
			v.known[it.ID] = true
		}
	}
	f := &resp.Final
	for _, c := range f.Claims {
		v.ids[c.ID] = true
	}
	for i := range f.ImplementationPlan {
		a := &f.ImplementationPlan[i]
		v.ids[a.ID] = true
		v.actions[a.ID] = a
	}
	for _, x := range f.VerificationPlan {
		v.ids[x.ID] = true
	}
	for _, u := range f.Uncertainties {
		v.ids[u.ID] = true
	}
	for i := range f.Exclusions {
		x := &f.Exclusions[i]
		v.ids[x.ID] = true
		v.excl[x.ID] = x
	}
	for _, c := range f.Citations {
		for _, s := range c.Supports {
			v.supported[s] = append(v.supported[s], c.EvidenceID)
		}
	}
	return v
}

// newValidatorOf is newValidator for a packet of another kind than the
// fixed-evidence excerpts (a system comparison's raw observations): its
// E IDs are evidence, and no citation is checked against an excerpt.
func newValidatorOf(resp *campaign.Response, evidence []string, file string) *validator {
	v := newValidator(resp, nil, file)
	v.excerpts = false
	for _, id := range evidence {
		v.known[id] = true
	}
	return v
}

// findings returns what v found, sorted (SortFindings); nil when nothing.
func (v *validator) findings() []Finding {
	if len(v.out) == 0 {
		return nil
	}
	SortFindings(v.out)
	return v.out
}

func (v *validator) add(code verr.Reason, scope Scope, rule, pointer, format string, a ...any) {
	v.out = append(v.out, Finding{
		Code:    code,
		File:    v.file,
		Pointer: pointer,
		Scope:   scope,
		Rule:    rule,
		Message: fmt.Sprintf(format, a...),
	})
}

// evidence reports every E ID of ids that is not in the packet.
func (v *validator) evidence(scope Scope, pointer string, ids []string) {
	for i, e := range ids {
		if !v.known[e] {
			v.add(ReasonEvidenceNotInPacket, scope, ruleConstraints, pointer+"/"+strconv.Itoa(i),
				"evidence ID %s is not an item of the supplied packet", e)
		}
	}
}

// link checks that id has one of the allowed type letters and exists in
// the revised final answer; it reports a finding and returns false when
// not. The finding's pointer is base, followed by "/index" when index is
// not negative; it is built only for a finding.
func (v *validator) link(scope Scope, base string, index int, id, allowed string) bool {
	if id != "" && strings.Contains(allowed, id[:1]) && v.ids[id] {
		return true
	}
	pointer := base
	if index >= 0 {
		pointer += "/" + strconv.Itoa(index)
	}
	if id == "" || !strings.Contains(allowed, id[:1]) {
		v.add(ReasonLinkWrongType, scope, ruleContract, pointer,
			"link %q is not a %s ID", id, strings.Join(strings.Split(allowed, ""), "/"))
		return false
	}
	v.add(ReasonDanglingLink, scope, ruleC12, pointer,
		"link %s does not resolve to an ID of the revised final answer", id)
	return false
}

// cited reports whether some citation lists id in its supports.
func (v *validator) cited(id string) bool { return len(v.supported[id]) > 0 }

func (v *validator) final() {
	f := &v.resp.Final
	for i, c := range f.Claims {
		p := "/final/claims/" + strconv.Itoa(i)
		v.evidence(ScopeFinal, p+"/evidence_ids", c.EvidenceIDs)
		if c.UncertaintyID != nil {
			v.link(ScopeFinal, p+"/uncertainty_id", -1, *c.UncertaintyID, "U")
		}
		switch c.Status {
		case campaign.ClaimSourceBacked:
			if len(c.EvidenceIDs) == 0 {
				v.add(ReasonSourceBackedWithoutEvidence, ScopeFinal, ruleConstraints, p+"/evidence_ids",
					"source_backed claim %s has no evidence IDs", c.ID)
			}
			if !v.cited(c.ID) {
				v.add(ReasonSourceBackedWithoutCitation, ScopeFinal, ruleConstraints, p,
					"source_backed claim %s is not supported by any citation", c.ID)
			}
		case campaign.ClaimInference:
			if len(c.EvidenceIDs) == 0 {
				v.add(ReasonInferenceWithoutPremises, ScopeFinal, ruleConstraints, p+"/evidence_ids",
					"inference claim %s names no source premises; a claim without premises must be unknown", c.ID)
			}
		case campaign.ClaimUnknown:
			if c.UncertaintyID == nil {
				v.add(ReasonUnknownWithoutUncertainty, ScopeFinal, ruleConstraints, p+"/uncertainty_id",
					"unknown claim %s has no uncertainty link", c.ID)
			}
		}
	}
	for i, a := range f.ImplementationPlan {
		p := "/final/implementation_plan/" + strconv.Itoa(i)
		v.evidence(ScopeFinal, p+"/evidence_ids", a.EvidenceIDs)
		for j, id := range a.VerificationIDs {
			v.link(ScopeFinal, p+"/verification_ids", j, id, "V")
		}
		if a.SupportBasis == campaign.BasisSource {
			v.sourceBasis(p, "action", a.ID, a.EvidenceIDs)
		}
		if len(a.VerificationIDs) == 0 && a.VerificationLimitation == nil {
			v.add(ReasonActionWithoutVerification, ScopeFinal, ruleConstraints, p+"/verification_ids",
				"action %s has neither a verification link nor a verification_limitation", a.ID)
		}
	}
	for i, x := range f.VerificationPlan {
		p := "/final/verification_plan/" + strconv.Itoa(i)
		v.evidence(ScopeFinal, p+"/evidence_ids", x.EvidenceIDs)
		if x.UncertaintyID != nil {
			v.link(ScopeFinal, p+"/uncertainty_id", -1, *x.UncertaintyID, "U")
		}
		switch x.SupportBasis {
		case campaign.BasisSource:
			v.sourceBasis(p, "verification", x.ID, x.EvidenceIDs)
		case campaign.BasisMissingSource:
			if x.UncertaintyID == nil {
				v.add(ReasonMissingSourceWithoutUncertainty, ScopeFinal, ruleConstraints, p+"/uncertainty_id",
					"missing_source verification %s has no uncertainty link", x.ID)
			}
		}
	}
	for i, x := range f.Exclusions {
		v.evidence(ScopeFinal, "/final/exclusions/"+strconv.Itoa(i)+"/evidence_ids", x.EvidenceIDs)
	}
	for i, c := range f.Citations {
		p := "/final/citations/" + strconv.Itoa(i)
		for j, s := range c.Supports {
			v.link(ScopeFinal, p+"/supports", j, s, "CAVX")
		}
		if !v.excerpts {
			continue
		}
		it := v.items[c.EvidenceID]
		if it == nil {
			v.add(ReasonEvidenceNotInPacket, ScopeFinal, ruleConstraints, p+"/evidence_id",
				"citation evidence ID %s is not an item of the supplied packet", c.EvidenceID)
			continue
		}
		if c.Path != it.Path {
			v.add(ReasonCitationPathMismatch, ScopeFinal, ruleC09, p+"/path",
				"citation of %s names path %q but the evidence item is %q", c.EvidenceID, c.Path, it.Path)
		}
		switch {
		case c.StartLine > c.EndLine:
			v.add(ReasonCitationOutsideLines, ScopeFinal, ruleC09, p+"/start_line",
				"citation of %s has start line %d after end line %d", c.EvidenceID, c.StartLine, c.EndLine)
		case c.StartLine < it.StartLine:
			v.add(ReasonCitationOutsideLines, ScopeFinal, ruleC09, p+"/start_line",
				"citation of %s starts at line %d, before the evidence item's lines %d-%d", c.EvidenceID, c.StartLine, it.StartLine, it.EndLine)
		case c.EndLine > it.EndLine:
			v.add(ReasonCitationOutsideLines, ScopeFinal, ruleC09, p+"/end_line",
				"citation of %s ends at line %d, past the evidence item's physical lines %d-%d", c.EvidenceID, c.EndLine, it.StartLine, it.EndLine)
		}
	}
}

// sourceBasis applies the source-based action/verification rule.
func (v *validator) sourceBasis(p, kind, id string, evidence []string) {
	if len(evidence) == 0 {
		v.add(ReasonSourceBasisWithoutEvidence, ScopeFinal, ruleConstraints, p+"/evidence_ids",
			"source-based %s %s has no evidence IDs", kind, id)
	}
	if !v.cited(id) {
		v.add(ReasonSourceBasisWithoutCitation, ScopeFinal, ruleConstraints, p,
			"source-based %s %s is not supported by any citation", kind, id)
	}
}

// resolved returns the links of ids that are of an allowed type and exist
// in the final answer, reporting the others.
func (v *validator) resolved(pointer string, ids []string) []string {
	var ok []string
	for j, id := range ids {
		if v.link(ScopeProtocol, pointer, j, id, "CAVUX") {
			ok = append(ok, id)
		}
	}
	return ok
}

func hasType(ids []string, letters string) bool {
	return slices.ContainsFunc(ids, func(id string) bool { return strings.Contains(letters, id[:1]) })
}

func (v *validator) ledger(r *campaign.Reconciliation) {
	for i, o := range r.Obligations {
		p := "/reconciliation/obligations/" + strconv.Itoa(i)
		v.evidence(ScopeProtocol, p+"/evidence_ids", o.EvidenceIDs)
		links := v.resolved(p+"/final_ids", o.FinalIDs)
		switch o.Status {
		case campaign.ObligationAddressed:
			limited := slices.ContainsFunc(links, func(id string) bool {
				a := v.actions[id]
				return a != nil && a.VerificationLimitation != nil
			})
			if !(hasType(links, "CA") && hasType(links, "V")) && !limited {
				v.add(ReasonAddressedWithoutLinks, ScopeProtocol, ruleConstraints, p+"/final_ids",
					"addressed obligation %s needs a C/A link and a V link, or an A link with a verification_limitation", o.ID)
			}
			if o.Basis == campaign.BasisSource && len(o.EvidenceIDs) == 0 {
				v.add(ReasonAddressedWithoutEvidence, ScopeProtocol, ruleConstraints, p+"/evidence_ids",
					"source-based addressed obligation %s has no evidence IDs", o.ID)
			}
		case campaign.ObligationUnresolved:
			if !hasType(links, "U") {
				v.add(ReasonUnresolvedObligationWithoutUncertainty, ScopeProtocol, ruleConstraints, p+"/final_ids",
					"unresolved obligation %s has no uncertainty link", o.ID)
			}
		case campaign.ObligationExcluded:
			if !hasType(links, "X") {
				v.add(ReasonExcludedObligationWithoutExclusion, ScopeProtocol, ruleConstraints, p+"/final_ids",
					"excluded obligation %s has no exclusion link", o.ID)
			}
		}
	}

	seen := map[string]bool{}
	for i, d := range r.EvidenceDispositions {
		p := "/reconciliation/evidence_dispositions/" + strconv.Itoa(i)
		switch {
		case !v.known[d.EvidenceID]:
			v.add(ReasonDispositionInvented, ScopeProtocol, ruleC13, p+"/evidence_id",
				"disposition names evidence ID %s, which is not in the packet", d.EvidenceID)
		case seen[d.EvidenceID]:
			v.add(ReasonDispositionDuplicate, ScopeProtocol, ruleC13, p+"/evidence_id",
				"evidence ID %s has more than one disposition", d.EvidenceID)
		}
		seen[d.EvidenceID] = true
		links := v.resolved(p+"/final_ids", d.FinalIDs)
		switch d.Status {
		case campaign.DispositionUsed:
			ok := slices.ContainsFunc(links, func(id string) bool {
				return strings.Contains("CAV", id[:1]) && slices.Contains(v.supported[id], d.EvidenceID)
			})
			if !ok {
				v.add(ReasonUsedDispositionUncited, ScopeProtocol, ruleConstraints, p+"/final_ids",
					"used disposition of %s has no C/A/V link supported by a citation of %s", d.EvidenceID, d.EvidenceID)
			}
		case campaign.DispositionExcluded:
			ok := slices.ContainsFunc(links, func(id string) bool {
				x := v.excl[id]
				return x != nil && slices.Contains(x.EvidenceIDs, d.EvidenceID)
			})
			if !ok {
				v.add(ReasonExcludedDispositionWithoutExclusion, ScopeProtocol, ruleConstraints, p+"/final_ids",
					"excluded disposition of %s has no exclusion link whose evidence IDs include %s", d.EvidenceID, d.EvidenceID)
			}
		case campaign.DispositionUnresolved:
			if !hasType(links, "U") {
				v.add(ReasonUnresolvedDispositionWithoutUncertainty, ScopeProtocol, ruleConstraints, p+"/final_ids",
					"unresolved disposition of %s has no uncertainty link", d.EvidenceID)
			}
		}
	}
	var missing []string
	for id := range v.known {
		if !seen[id] {
			missing = append(missing, id)
		}
	}
	slices.SortFunc(missing, compareIDs)
	for _, id := range missing {
		v.add(ReasonDispositionMissing, ScopeProtocol, ruleC13, "/reconciliation/evidence_dispositions",
			"packet evidence ID %s has no disposition", id)
	}
}

// compareIDs orders IDs like E2 before E10: by prefix, then by length,
// then lexically (IDs have no leading zeros).
func compareIDs(a, b string) int {
	if len(a) != len(b) && a[:1] == b[:1] {
		return len(a) - len(b)
	}
	return strings.Compare(a, b)
}
