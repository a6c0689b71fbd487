package scorer

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode"

	udiff "github.com/aymanbagabas/go-udiff"
	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"

	"verdict/campaign"
	"verdict/internal/buildinfo"
	"verdict/verr"
)

// RuleRounds names the round discipline of CONTRACT §5.
const RuleRounds = "CONTRACT §5 development rounds: one revision of B's instruction only, frozen before round 2; round 2 is the only development admission check; no third round; evaluation uses the frozen prompt"

// Reason codes of round discipline (CONTRACT §5). Each fails admission.
const (
	// ReasonPreviousRoundMissing: a real (non-synthetic) round-2 or
	// evaluation manifest has no previous_round, or `check --previous` was
	// given for a manifest that names none.
	ReasonPreviousRoundMissing verr.Reason = "previous-round-missing"
	// ReasonRoundOrder: the previous round is not the one before this
	// phase (a round 1 with a previous round, a second round 2 or a round
	// 3, an evaluation not after round 2).
	ReasonRoundOrder verr.Reason = "round-order"
	// ReasonPreviousRoundReport: previous_round.report_sha256 is null for
	// an evaluation, or set for a round 2.
	ReasonPreviousRoundReport verr.Reason = "previous-round-report"
	// ReasonPreviousRoundDigest: the previous campaign's manifest.json does
	// not hash to previous_round.manifest_sha256, or names another
	// campaign_id or phase.
	ReasonPreviousRoundDigest verr.Reason = "previous-round-digest"
	// ReasonPreviousRoundRefused: the previous campaign is refused by the
	// strict loader.
	ReasonPreviousRoundRefused verr.Reason = "previous-round-refused"
	// ReasonPreviousRoundUnverified: a manifest names a previous round but
	// check was not given that round (--previous DIR), so B's exemption
	// from the frozen prompt check (FrozenIdentityIssues) rests on an
	// unverified claim. It fails admission of a real manifest and is
	// reported for a synthetic one.
	ReasonPreviousRoundUnverified verr.Reason = "previous-round-unverified"
	// ReasonRoundChanged: something other than B's instruction changed
	// between the rounds (A, D and common texts, schemas, frozen documents,
	// execution and consumer identities, tasks, packets, truth, sample
	// counts), or an evaluation's B text differs from round 2's.
	ReasonRoundChanged verr.Reason = "round-changed"
	// ReasonRevisionLeak: the revised B instruction contains a task ID, a
	// sentence of a task text, a repository name, a source path, an
	// evidence ID, or the text of an obligation or accepted alternative
	// (compared case-insensitively after NFKC normalisation).
	ReasonRevisionLeak verr.Reason = "revision-leak"
	// ReasonPreviousReportMissing: an evaluation is checked against its
	// round 2 without the round-2 report.json (--previous-report).
	ReasonPreviousReportMissing verr.Reason = "previous-report-missing"
	// ReasonPreviousReportDigest: the round-2 report.json does not hash to
	// previous_round.report_sha256, or was made from another manifest.
	ReasonPreviousReportDigest verr.Reason = "previous-report-digest"
	// ReasonRound2NotPassed: the round-2 report's decision is not
	// all-gates-pass, so evaluation may not start.
	ReasonRound2NotPassed verr.Reason = "round-2-not-passed"
	// ReasonEvaluatorChanged: the round-2 report was made with other
	// schema digests or by another known evaluator build revision.
	ReasonEvaluatorChanged verr.Reason = "evaluator-changed"
)

// PromptRevisionLabel labels B's one permitted revision (CONTRACT §5
// "Record both rounds and any v1.1 prompt diff").
const PromptRevisionLabel = "v1.1"

// PromptRevision is B's revised instruction as a unified diff against the
// frozen v1.0 text (or the previous round's text).
type PromptRevision struct {
	// Label is PromptRevisionLabel.
	Label string `json:"label"`
	// File is the campaign's path of B's instruction.
	File string `json:"file"`
	// Diff is the unified diff, old text labelled v1.0, new text v1.1.
	Diff string `json:"diff"`
}

// BRevision returns B's instruction as a v1.1 revision of the frozen v1.0
// text (campaign.FrozenPrompt) when the campaign binds a different text;
// nil when B's instruction is the frozen one.
func BRevision(c *campaign.Campaign) *PromptRevision {
	return revision(campaign.FrozenPrompt(campaign.PromptReviewB), c.Prompts[campaign.PromptReviewB], "frozen PROMPTS.md", c.Manifest.Prompts.ReviewB)
}

func revision(old, cur []byte, oldName, file string) *PromptRevision {
	if cur == nil || string(old) == string(cur) {
		return nil
	}
	return &PromptRevision{Label: PromptRevisionLabel, File: file,
		Diff: udiff.Unified("review-b v1.0 ("+oldName+")", "review-b "+PromptRevisionLabel+" ("+file+")", string(old), string(cur))}
}

// RoundIssues checks the previous_round binding of a manifest alone
// (CONTRACT §5): a round 1 names no previous round; a round 2 names a
// round 1 without a report; an evaluation names a round 2 and the digest
// of its report.json. A synthetic manifest may stand without
// previous_round; a real round-2 or evaluation manifest may not.
func RoundIssues(m *campaign.Manifest) []*verr.Error {
	var out []*verr.Error
	add := func(r verr.Reason, pointer, format string, a ...any) {
		out = append(out, verr.Newf(r, campaign.ManifestFile, pointer, RuleRounds, format, a...))
	}
	p := m.PreviousRound
	var want campaign.Phase
	switch m.Phase {
	case campaign.PhaseDevelopmentRound1:
		if p != nil {
			add(ReasonRoundOrder, "/previous_round", "development round 1 is the first round; it names no previous round")
		}
		return out
	case campaign.PhaseDevelopmentRound2:
		want = campaign.PhaseDevelopmentRound1
	case campaign.PhaseEvaluation:
		want = campaign.PhaseDevelopmentRound2
	default:
		return out
	}
	if p == nil {
		if !m.Synthetic {
			add(ReasonPreviousRoundMissing, "/previous_round", "a %s manifest names its %s campaign (manifest digest%s)", m.Phase, want,
				map[bool]string{true: " and the digest of the report.json whose decision admitted it", false: ""}[m.Phase == campaign.PhaseEvaluation])
		}
		return out
	}
	if p.Phase != want {
		add(ReasonRoundOrder, "/previous_round/phase", "a %s follows %s, not %s (no second round 2, no third round)", m.Phase, want, p.Phase)
	}
	switch {
	case m.Phase == campaign.PhaseEvaluation && p.ReportSHA256 == nil:
		add(ReasonPreviousRoundReport, "/previous_round/report_sha256", "an evaluation names the round-2 report.json whose decision admitted it")
	case m.Phase == campaign.PhaseDevelopmentRound2 && p.ReportSHA256 != nil:
		add(ReasonPreviousRoundReport, "/previous_round/report_sha256", "round 1 is inspected, not decided: a round-2 manifest binds no round-1 report")
	}
	return out
}

// UnverifiedRound is the issue of a round-2 or evaluation manifest that
// names a previous round when that round is not checked (no --previous):
// B's instruction is exempt from the frozen check only because of
// previous_round (FrozenIdentityIssues), so the exemption holds only once
// RoundDiscipline has verified the round. nil when the manifest names no
// previous round (RoundIssues decides whether it must).
func UnverifiedRound(m *campaign.Manifest) *verr.Error {
	p := m.PreviousRound
	if p == nil {
		return nil
	}
	flags := "--previous DIR"
	if m.Phase == campaign.PhaseEvaluation {
		flags = "--previous DIR --previous-report FILE"
	}
	return verr.Newf(ReasonPreviousRoundUnverified, campaign.ManifestFile, "/previous_round", RuleRounds, "the manifest names a previous round (%s %q, manifest %s) that was not verified, so B's instruction is not checked against the frozen text; give check %s to verify it",
		p.Phase, p.CampaignID, p.ManifestSHA256, flags)
}

// RoundInput is the previous round a campaign is checked against.
type RoundInput struct {
	// Previous is the strictly loaded previous campaign; nil when it was
	// refused (PreviousRefusal says why).
	Previous        *campaign.Campaign
	PreviousRefusal error
	// PreviousManifest is the previous campaign's manifest.json bytes.
	PreviousManifest []byte
	// Report is the round-2 report.json bytes (evaluation only); nil when
	// not given. ReportFile names it in refusals.
	Report     []byte
	ReportFile string
	// Build is the running evaluator's build (buildinfo.Read()).
	Build buildinfo.Build
}

// RoundCheck is the outcome of RoundDiscipline.
type RoundCheck struct {
	// Issues are the violations, each with its own reason; empty when the
	// rounds are disciplined.
	Issues []*verr.Error `json:"-"`
	// Revision is B's change from the previous round, labelled v1.1; nil
	// when B's instruction did not change.
	Revision *PromptRevision `json:"revision"`
}

// RoundDiscipline checks a round-2 campaign against its round 1, or an
// evaluation campaign against its round 2 and the round-2 report
// (CONTRACT §5): the previous manifest's digest, campaign and phase; that
// nothing but B's instruction changed (and, for an evaluation, not B's
// either); and for an evaluation that the round-2 report is the
// bound one, decided all-gates-pass, and was made with the same schema
// digests and evaluator build.
func RoundDiscipline(cur *campaign.Campaign, in RoundInput) RoundCheck {
	var rc RoundCheck
	m := &cur.Manifest
	add := func(r verr.Reason, file, pointer, format string, a ...any) {
		rc.Issues = append(rc.Issues, verr.Newf(r, file, pointer, RuleRounds, format, a...))
	}
	p := m.PreviousRound
	if p == nil {
		add(ReasonPreviousRoundMissing, campaign.ManifestFile, "/previous_round", "a previous round was given but the manifest names none")
		return rc
	}
	if got := hexSHA256(in.PreviousManifest); got != p.ManifestSHA256 {
		add(ReasonPreviousRoundDigest, campaign.ManifestFile, "/previous_round/manifest_sha256", "the previous campaign's manifest.json hashes to %s, the manifest binds %s", got, p.ManifestSHA256)
	}
	if in.Previous == nil {
		add(ReasonPreviousRoundRefused, campaign.ManifestFile, "/previous_round", "the previous campaign is refused by the strict loader: %v", in.PreviousRefusal)
		return rc
	}
	pm := &in.Previous.Manifest
	if pm.CampaignID != p.CampaignID || pm.Phase != p.Phase {
		add(ReasonPreviousRoundDigest, campaign.ManifestFile, "/previous_round", "the previous campaign is %s (%s), the manifest names %s (%s)", pm.CampaignID, pm.Phase, p.CampaignID, p.Phase)
	}
	changed := func(pointer, what string) {
		add(ReasonRoundChanged, campaign.ManifestFile, pointer, "%s changed between %s and %s", what, pm.Phase, m.Phase)
	}
	if pm.ContractVersion != m.ContractVersion || pm.Synthetic != m.Synthetic {
		changed("/contract_version", "the contract version or synthetic flag")
	}
	if pm.ResponseSchemaSHA256 != m.ResponseSchemaSHA256 {
		changed("/response_schema_sha256", "the response schema")
	}
	if !slices.Equal(pm.FrozenDocuments, m.FrozenDocuments) {
		changed("/frozen_documents", "the frozen documents")
	}
	for _, f := range executionFields(&pm.Execution, &m.Execution) {
		changed("/execution/"+f, "execution identity "+f)
	}
	for _, k := range campaign.PromptKeys() {
		if k == campaign.PromptReviewB && m.Phase == campaign.PhaseDevelopmentRound2 {
			continue // the one permitted revision
		}
		if string(in.Previous.Prompts[k]) != string(cur.Prompts[k]) {
			what := "prompt " + k
			if k == campaign.PromptReviewB {
				what = "B's instruction (evaluation uses the frozen round-2 prompt)"
			}
			add(ReasonRoundChanged, m.Prompts.PromptPath(k), "", "%s changed between %s and %s", what, pm.Phase, m.Phase)
		}
	}
	if m.Phase == campaign.PhaseDevelopmentRound2 {
		if !slices.Equal(pm.Tasks, m.Tasks) {
			changed("/tasks", "the development tasks")
		}
		prev := map[string]string{}
		for _, f := range pm.Files {
			prev[f.Path] = f.SHA256
		}
		for i, t := range m.Tasks {
			for _, path := range []string{campaign.TaskTextPath(t.ID), campaign.PacketPath(t.ID), campaign.TruthPath(t.ID)} {
				if d, ok := prev[path]; !ok || d != fileDigest(m, path) {
					changed(fmt.Sprintf("/tasks/%d", i), path)
				}
			}
		}
		if len(pm.Runs) != len(m.Runs) {
			changed("/runs", "the sample count (runs per round)")
		}
		rc.Revision = revision(in.Previous.Prompts[campaign.PromptReviewB], cur.Prompts[campaign.PromptReviewB], pm.CampaignID, m.Prompts.ReviewB)
		// RevisionLeaks is part of manifest admission (it needs no previous round).
	}
	if m.Phase == campaign.PhaseEvaluation {
		rc.Issues = append(rc.Issues, reportIssues(p, in)...)
	}
	return rc
}

// fileDigest returns the manifest's SHA-256 of a bound path ("" when unbound).
func fileDigest(m *campaign.Manifest, path string) string {
	for _, f := range m.Files {
		if f.Path == path {
			return f.SHA256
		}
	}
	return ""
}

// executionFields lists the execution identities (manifest JSON names)
// that differ between a and b.
func executionFields(a, b *campaign.Execution) []string {
	var ma, mb map[string]json.RawMessage
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	_ = json.Unmarshal(ja, &ma)
	_ = json.Unmarshal(jb, &mb)
	var out []string
	for k, v := range ma {
		if string(mb[k]) != string(v) {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

// roundReport is what RoundDiscipline reads of a round-2 report.json.
type roundReport struct {
	Provenance Provenance `json:"provenance"`
	Scorecard  struct {
		CampaignID string         `json:"campaign_id"`
		Phase      campaign.Phase `json:"phase"`
		Decision   struct {
			Kind DecisionKind `json:"kind"`
		} `json:"decision"`
	} `json:"scorecard"`
}

func reportIssues(p *campaign.PreviousRound, in RoundInput) []*verr.Error {
	var out []*verr.Error
	add := func(r verr.Reason, file, pointer, format string, a ...any) {
		out = append(out, verr.Newf(r, file, pointer, RuleRounds, format, a...))
	}
	if in.Report == nil {
		add(ReasonPreviousReportMissing, campaign.ManifestFile, "/previous_round/report_sha256", "an evaluation is checked with the round-2 report.json that admitted it (--previous-report)")
		return out
	}
	if got := hexSHA256(in.Report); p.ReportSHA256 == nil || got != *p.ReportSHA256 {
		add(ReasonPreviousReportDigest, campaign.ManifestFile, "/previous_round/report_sha256", "%s hashes to %s, the manifest binds %v", in.ReportFile, got, derefOr(p.ReportSHA256, "null"))
	}
	var r roundReport
	if err := json.Unmarshal(in.Report, &r); err != nil {
		add(ReasonPreviousReportDigest, in.ReportFile, "", "not a report.json: %v", err)
		return out
	}
	if r.Provenance.ManifestSHA256 != p.ManifestSHA256 || r.Scorecard.CampaignID != p.CampaignID || r.Scorecard.Phase != campaign.PhaseDevelopmentRound2 {
		add(ReasonPreviousReportDigest, in.ReportFile, "/provenance/manifest_sha256", "the report was made from %s (%s, manifest %s), not from the bound round 2 %s (manifest %s)",
			r.Scorecard.CampaignID, r.Scorecard.Phase, r.Provenance.ManifestSHA256, p.CampaignID, p.ManifestSHA256)
	}
	if r.Scorecard.Decision.Kind != DecisionAllGatesPass {
		add(ReasonRound2NotPassed, in.ReportFile, "/scorecard/decision/kind", "round 2 decided %s; evaluation starts only after a round 2 that passes every condition", r.Scorecard.Decision.Kind)
	}
	if !slices.Equal(r.Provenance.Schemas, campaign.SchemaDigests()) {
		add(ReasonEvaluatorChanged, in.ReportFile, "/provenance/schemas", "the round-2 report was made with other schema digests than this evaluator's")
	}
	if a, b := r.Provenance.Build.Revision, in.Build.Revision; a != nil && b != nil && *a != *b {
		add(ReasonEvaluatorChanged, in.ReportFile, "/provenance/build/vcs_revision", "the round-2 report was made by evaluator revision %s, this is %s", *a, *b)
	}
	return out
}

func derefOr(s *string, or string) string {
	if s == nil {
		return or
	}
	return *s
}

// foldText is the form revision texts are compared in: NFKC, full case
// folding, every run of white space one space.
func foldText(s string) string {
	s = cases.Fold().String(norm.NFKC.String(s))
	return strings.Join(strings.FieldsFunc(s, unicode.IsSpace), " ")
}

// sentenceSplit splits a task text into sentences (at . ! ? and line
// breaks); sentences of fewer than four words are not matched (they are
// too common to identify a task).
var sentenceSplit = regexp.MustCompile(`[.!?]+(\s|$)|\n+`)

// RevisionLeaks refuses a revised B instruction (one that differs from the
// frozen v1.0 text) that contains, compared case-insensitively after NFKC
// normalisation, a task ID or evidence ID of the campaign (as a whole
// word), a sentence of a task text (four words or more), a repository name
// (owner/name, or the name alone when it has four characters or more), an
// evidence item's source path, or the text of a truth obligation or of an
// accepted alternative (CONTRACT §5: "without task names, source
// identifiers, oracle facts or task-trigger logic"). Each match is one
// *verr.Error naming what matched.
func RevisionLeaks(c *campaign.Campaign) []*verr.Error {
	b := c.Prompts[campaign.PromptReviewB]
	if b == nil || string(b) == string(campaign.FrozenPrompt(campaign.PromptReviewB)) {
		return nil
	}
	text := foldText(string(b))
	type needle struct{ kind, value string }
	var needles []needle
	word := map[string]string{}
	for _, t := range c.Tasks {
		word[foldText(t.Entry.ID)] = "task ID " + t.Entry.ID
		repo := t.Entry.Repository
		needles = append(needles, needle{"repository name", repo})
		if _, name, ok := strings.Cut(repo, "/"); ok && len(name) >= 4 {
			needles = append(needles, needle{"repository name", name})
		}
		for _, s := range sentenceSplit.Split(string(t.Text), -1) {
			if len(strings.Fields(s)) >= 4 {
				needles = append(needles, needle{"sentence of task " + t.Entry.ID, strings.TrimSpace(s)})
			}
		}
		for _, it := range t.Packet.Items {
			word[foldText(it.ID)] = "evidence ID " + it.ID
			needles = append(needles, needle{"source path", it.Path})
		}
		for _, o := range t.Truth.Obligations {
			needles = append(needles, needle{"obligation " + t.Entry.ID + "/" + o.ID, o.Text})
			for _, a := range o.AcceptedAlternatives {
				needles = append(needles, needle{"accepted alternative of " + t.Entry.ID + "/" + o.ID, a})
			}
		}
	}
	found := map[string]string{}
	for _, n := range needles {
		if f := foldText(n.value); f != "" && strings.Contains(text, f) {
			found[n.kind+": "+n.value] = n.kind
		}
	}
	for _, w := range strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if what, ok := word[w]; ok {
			found[what] = what
		}
	}
	keys := make([]string, 0, len(found))
	for k := range found {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var out []*verr.Error
	for _, k := range keys {
		out = append(out, &verr.Error{Reason: ReasonRevisionLeak, File: c.Manifest.Prompts.ReviewB, Rule: RuleRounds,
			Detail: fmt.Sprintf("the revised B instruction contains %q (compared case-insensitively after NFKC)", k)})
	}
	return out
}
