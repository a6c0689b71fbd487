package scorer

import (
	"bytes"
	"cmp"
	"io"
	"slices"
	"verdict/adjudication"

	"verdict/campaign"
	"verdict/internal/buildinfo"
)

// ReportFormat names the report.json format version.
const ReportFormat = "verdict-report-v1"

// SyntheticNotice is the first line of every report made from a synthetic
// campaign (DESIGN "Defaults and embedded input").
const SyntheticNotice = "SYNTHETIC: made from a synthetic campaign; not an experiment result."

// RecordRef names one verified signed record (rating sheet, adjudication or
// reveal): kind, signer, role, key fingerprint and the SHA-256 of its bytes.
type RecordRef struct {
	Kind        string `json:"kind"`
	Signer      string `json:"signer"`
	Role        string `json:"role"`
	Fingerprint string `json:"fingerprint"`
	SHA256      string `json:"sha256"`
}

// FindingCount counts automatic findings of one reason code and scope.
type FindingCount struct {
	Code  string `json:"code"`
	Scope Scope  `json:"scope"`
	Count int    `json:"count"`
}

// AutomaticSection is everything decided by the machine without a human:
// structural findings (PROMPTS.md "Additional constraints", C09, C12, C13)
// and the blinding leak scan. It is kept apart from recorded human
// decisions (EVALUATOR-CONTROLS: "distinguish automatic validation from
// recorded human semantic decisions").
type AutomaticSection struct {
	Responses     int            `json:"responses_validated"`
	FindingCounts []FindingCount `json:"finding_counts"`
	Findings      []Finding      `json:"findings"`
	LeakFindings  []string       `json:"leak_findings"`
}

// HumanSection is everything recorded by people: the settled fields (agreed
// or adjudicated), the agreement statistics of the two frozen sheets, the
// confirmed oracle defects and the verified signed records.
type HumanSection struct {
	Fields        int                     `json:"fields"`
	Agreed        int                     `json:"agreed"`
	Adjudicated   int                     `json:"adjudicated"`
	Agreement     *adjudication.Agreement `json:"agreement"`
	OracleDefects []string                `json:"oracle_defects"`
	Records       []RecordRef             `json:"records"`
}

// Provenance says what a report was made from and by: the verdict build,
// the SHA-256 of the campaign's manifest.json bytes, and the name and
// SHA-256 of every embedded JSON Schema. The digest of every signed record
// used is in the human section's records (RecordRef.SHA256). An unknown
// build value is null, never guessed.
type Provenance struct {
	Build          buildinfo.Build         `json:"build"`
	ManifestSHA256 string                  `json:"manifest_sha256"`
	Schemas        []campaign.SchemaDigest `json:"schemas"`
	// PromptRevision is B's instruction as a unified diff labelled v1.1
	// against the frozen v1.0 text (BRevision); omitted when B's
	// instruction is the frozen one (CONTRACT §5 "Record both rounds and
	// any v1.1 prompt diff").
	PromptRevision *PromptRevision `json:"prompt_revision,omitempty"`
}

// ReportContext is what the caller adds to a Scorecard to make a report.
type ReportContext struct {
	// Responses is the number of responses the structural validator saw.
	Responses int
	// Findings are the campaign's automatic structural findings.
	Findings []Finding
	// LeakFindings are the leak-scan findings, one line each.
	LeakFindings []string
	// Consensus are the settled grades of every bundled item.
	Consensus []ConsensusGrade
	// Agreement is the agreement of the two frozen sheets
	// (adjudication.AgreementOf); nil when no sheets were handed over.
	Agreement *adjudication.Agreement
	// Records are the verified signed records the scores rest on.
	Records []RecordRef
	// Provenance is the build, manifest digest and schema digests.
	Provenance Provenance
	// Identity is report page 1 (IdentityOf the campaign); nil when the
	// report is made without its campaign (then page 1 says unknown).
	Identity *CampaignIdentity
}

// Report is report.json: the notice, format, page 1 (what was compared:
// Campaign, null when unknown), the provenance, the scorecard, and the
// automatic and human sections. Every slice is sorted, every key is in a
// fixed order, so the same inputs give the same bytes.
type Report struct {
	Notice     string            `json:"notice,omitempty"`
	Format     string            `json:"format"`
	Campaign   *CampaignIdentity `json:"campaign"`
	Provenance Provenance        `json:"provenance"`
	Scorecard  *Scorecard        `json:"scorecard"`
	Automatic  AutomaticSection  `json:"automatic_validation"`
	Human      HumanSection      `json:"recorded_human_decisions"`
}

// BuildReport assembles a Report from a scorecard and its context; it
// copies and sorts every list it is handed.
func BuildReport(sc *Scorecard, ctx ReportContext) *Report {
	r := &Report{Format: ReportFormat, Scorecard: sc, Campaign: ctx.Identity}
	r.Provenance, r.Notice = reportHead(ctx.Provenance, sc.Synthetic)
	r.Automatic = automaticSection(ctx)
	var defects []string
	for _, t := range sc.Tasks {
		for _, o := range t.OracleDefects {
			defects = append(defects, t.Task+"/"+o)
		}
	}
	r.Human = humanSection(ctx, defects)
	return r
}

// JSON renders report.json: two-space indented, fixed key order, a final
// newline. The bytes depend only on the report's content. It is WriteJSON
// into memory; a caller writing a file or a terminal uses WriteJSON.
func (r *Report) JSON() ([]byte, error) {
	var b bytes.Buffer
	if err := r.WriteJSON(&b); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// WriteJSON streams report.json to w: the exact bytes of encoding/json's
// Encoder with SetIndent("", "  ") and SetEscapeHTML(false) (v1 semantics
// of go-json-experiment/json, encoded as the value is walked), so the
// report of a 10,000-session campaign (tens of megabytes) is never held
// whole. Errors are w's write errors or an unencodable value.
func (r *Report) WriteJSON(w io.Writer) error {
	return campaign.EncodeJSON(w, r)
}

// reportHead returns a copy of the provenance with its schema list cloned
// (empty, never null) and the report's notice: SyntheticNotice for a
// synthetic campaign, "" otherwise.
func reportHead(pv Provenance, synthetic bool) (Provenance, string) {
	pv.Schemas = slices.Clone(pv.Schemas)
	if pv.Schemas == nil {
		pv.Schemas = []campaign.SchemaDigest{}
	}
	if synthetic {
		return pv, SyntheticNotice
	}
	return pv, ""
}

// automaticSection builds the automatic validation section of either
// design's report from its context: sorted findings, their counts by code
// and scope, and the sorted leak-scan findings.
func automaticSection(ctx ReportContext) AutomaticSection {
	fs := slices.Clone(ctx.Findings)
	SortFindings(fs)
	if fs == nil {
		fs = []Finding{}
	}
	counts := map[FindingCount]int{}
	for _, f := range fs {
		counts[FindingCount{Code: string(f.Code), Scope: f.Scope}]++
	}
	fc := make([]FindingCount, 0, len(counts))
	for k, n := range counts {
		k.Count = n
		fc = append(fc, k)
	}
	slices.SortFunc(fc, func(a, b FindingCount) int {
		if c := cmp.Compare(a.Code, b.Code); c != 0 {
			return c
		}
		return cmp.Compare(a.Scope, b.Scope)
	})
	leaks := slices.Clone(ctx.LeakFindings)
	slices.Sort(leaks)
	if leaks == nil {
		leaks = []string{}
	}
	return AutomaticSection{Responses: ctx.Responses, FindingCounts: fc, Findings: fs, LeakFindings: leaks}
}

// humanSection builds the recorded human decisions of either design's
// report: settled fields, agreement, the confirmed oracle defects
// ("task/obligation") and the signed records, sorted.
func humanSection(ctx ReportContext, defects []string) HumanSection {
	h := HumanSection{Agreement: ctx.Agreement, Records: slices.Clone(ctx.Records), OracleDefects: []string{}}
	for _, g := range ctx.Consensus {
		h.Fields++
		if g.Source == SourceAgreed {
			h.Agreed++
		} else {
			h.Adjudicated++
		}
	}
	h.OracleDefects = append(h.OracleDefects, defects...)
	if h.Records == nil {
		h.Records = []RecordRef{}
	}
	slices.SortFunc(h.Records, func(a, b RecordRef) int {
		if c := cmp.Compare(a.Kind, b.Kind); c != 0 {
			return c
		}
		return cmp.Compare(a.Signer, b.Signer)
	})
	return h
}
