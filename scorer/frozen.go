package scorer

import (
	"bytes"
	"fmt"
	"strings"

	"verdict/campaign"
	"verdict/verr"
)

// Rules of the frozen identities of contract 741-v1.0.
const (
	// RuleReferenceCard names the frozen reference pricing rule.
	RuleReferenceCard = "CONTRACT §5 reference pricing frozen to the token-USD rate card checked 5 September 2026"
	// RuleFrozenDocuments names the frozen document table.
	RuleFrozenDocuments = "CONTRACT Frozen document identities (741-v1.0)"
	// RulePromptsFrozen names the frozen prompt rule.
	RulePromptsFrozen = "PROMPTS.md frozen prompt texts; CONTRACT §5 (only B's instruction may be revised once, before round 2)"
)

// Reason codes of the frozen identities (CONTRACT "Frozen document
// identities", §5, PROMPTS.md). Each fails manifest admission.
const (
	// ReasonPriceCardNotReference: the manifest's reference price card has
	// other rates than the frozen card of CONTRACT §5 (US$4 uncached input,
	// US$0.40 cached input, US$20 output per million tokens, checked 5
	// September 2026). A cheaper card would hide a cost-ratio failure and
	// stretch the US$30 cap; the actual billing basis is recorded apart
	// (receipts' actual_charge_micro_usd) and never stands in for it.
	ReasonPriceCardNotReference verr.Reason = "price-card-not-reference"
	// ReasonFrozenDocumentDigest: a frozen document of the table is bound
	// with another SHA-256.
	ReasonFrozenDocumentDigest verr.Reason = "frozen-document-digest"
	// ReasonFrozenDocumentMissing: a document of the table is not bound.
	ReasonFrozenDocumentMissing verr.Reason = "frozen-document-missing"
	// ReasonFrozenDocumentExtra: a bound document is not in the table, or
	// is bound twice.
	ReasonFrozenDocumentExtra verr.Reason = "frozen-document-extra"
	// ReasonPromptNotFrozen: a bound prompt text is not byte-identical to
	// the frozen PROMPTS.md text (campaign.FrozenPrompt); B's instruction
	// may differ only as the one revision of round discipline.
	ReasonPromptNotFrozen verr.Reason = "prompt-not-frozen"
)

// FrozenIdentityIssues checks a 741-v1.0 campaign against the frozen
// identities and returns one *verr.Error per violation, in a fixed
// order: the reference price card (ReferenceCardIssue), the frozen
// documents (ReasonFrozenDocumentDigest, -Missing, -Extra, in table and
// manifest order) and the prompt texts (ReasonPromptNotFrozen, in
// manifest order). B's instruction is exempt when the manifest records a
// previous round (round discipline decides it). A campaign of another
// contract version is refused by the loader and not checked here.
func FrozenIdentityIssues(c *campaign.Campaign) []*verr.Error {
	m := &c.Manifest
	if m.ContractVersion != campaign.ContractVersion {
		return nil
	}
	var out []*verr.Error
	if e := ReferenceCardIssue(m); e != nil {
		out = append(out, e)
	}
	want := map[string]string{}
	for _, d := range campaign.FrozenDocuments() {
		want[d.Name] = d.SHA256
	}
	seen := map[string]bool{}
	for i, d := range m.FrozenDocuments {
		p := fmt.Sprintf("/frozen_documents/%d", i)
		w, known := want[d.Name]
		switch {
		case !known || seen[d.Name]:
			out = append(out, verr.Newf(ReasonFrozenDocumentExtra, campaign.ManifestFile, p, RuleFrozenDocuments, "document %q is not one of the five frozen documents of %s, or is bound twice", d.Name, campaign.ContractVersion))
		case d.SHA256 != w:
			out = append(out, verr.Newf(ReasonFrozenDocumentDigest, campaign.ManifestFile, p+"/sha256", RuleFrozenDocuments, "%s is bound as %s; the frozen table says %s", d.Name, d.SHA256, w))
		}
		seen[d.Name] = true
	}
	for _, d := range campaign.FrozenDocuments() {
		if !seen[d.Name] {
			out = append(out, verr.Newf(ReasonFrozenDocumentMissing, campaign.ManifestFile, "/frozen_documents", RuleFrozenDocuments, "%s (SHA-256 %s) is not bound", d.Name, d.SHA256))
		}
	}
	for _, k := range campaign.PromptKeys() {
		if k == campaign.PromptReviewB && m.PreviousRound != nil {
			continue // round discipline decides B's one revision
		}
		got, ok := c.Prompts[k]
		if !ok {
			continue // an unbound or unreadable prompt is refused by the loader
		}
		if line, differs := firstDifferentLine(got, campaign.FrozenPrompt(k)); differs {
			out = append(out, &verr.Error{Reason: ReasonPromptNotFrozen, File: m.Prompts.PromptPath(k), Rule: RulePromptsFrozen,
				Detail: fmt.Sprintf("prompt %s is not byte-identical to the frozen PROMPTS.md text (first difference on line %d)", k, line)})
		}
	}
	return out
}

// firstDifferentLine reports whether a and b differ and, if so, the
// 1-based number of the first line where they do.
func firstDifferentLine(a, b []byte) (int, bool) {
	if bytes.Equal(a, b) {
		return 0, false
	}
	n := min(len(a), len(b))
	i := 0
	for i < n && a[i] == b[i] {
		i++
	}
	return bytes.Count(a[:i], []byte{'\n'}) + 1, true
}

// ReferenceCardIssue returns a *verr.Error with
// ReasonPriceCardNotReference when a manifest of contract 741-v1.0 binds a
// price card whose rates differ from ContractPriceCard's (the card's id is
// free); nil when the rates are exactly the frozen ones or the card is
// null (a null card is a missing identity, ReasonMissingIdentity).
func ReferenceCardIssue(m *campaign.Manifest) *verr.Error {
	pc := m.Execution.PriceCard
	if pc == nil || m.ContractVersion != campaign.ContractVersion {
		return nil
	}
	ref := ContractPriceCard()
	var diff []string
	for _, r := range []struct {
		name      string
		got, want int64
	}{
		{"uncached_input_micro_usd_per_mtok", pc.UncachedInputMicroUSDPerMTok, ref.UncachedInputMicroUSDPerMTok},
		{"cached_input_micro_usd_per_mtok", pc.CachedInputMicroUSDPerMTok, ref.CachedInputMicroUSDPerMTok},
		{"output_micro_usd_per_mtok", pc.OutputMicroUSDPerMTok, ref.OutputMicroUSDPerMTok},
	} {
		if r.got != r.want {
			diff = append(diff, fmt.Sprintf("%s %d (frozen %d)", r.name, r.got, r.want))
		}
	}
	if len(diff) == 0 {
		return nil
	}
	return verr.Newf(ReasonPriceCardNotReference, campaign.ManifestFile, "/execution/price_card", RuleReferenceCard, "price card %q is not the frozen reference card of contract %s (US$4 / 0.40 / 20 per million uncached input, cached input, output tokens): %s",
		pc.ID, campaign.ContractVersion, strings.Join(diff, ", "))
}
