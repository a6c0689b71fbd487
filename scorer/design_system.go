package scorer

import (
	"io/fs"

	"verdict/blinding"
	"verdict/campaign"
	"verdict/verr"
)

// systemComparison is the second experiment's Design (CONTRACT §6;
// PROMPTS.md "Conditional system comparison"): Native, Madar and Serena,
// each workflow an investigation over the system's tools and a fresh
// review of the raw-observation packet, recall R_sys over the frozen
// repository-answerable denominator, Madar's comparative gates. Its
// methods are the scorer's system functions (SystemMissingIdentities,
// DeliveredIdentityFindings, SystemReceiptFindings, SystemSessionAccount,
// AdmitSystems, PrepareSystemScoreInput, EvaluateSystemComparison).
type systemComparison struct{}

// SystemLoaded is a strictly loaded system-comparison campaign as its
// design's Load returns it: the campaign and the files it was loaded from
// (the frozen repository snapshot under sources/ is read again by
// packet-supported coverage, CONTRACT §6).
type SystemLoaded struct {
	*campaign.SystemCampaign
	// FS is the campaign's file system.
	FS fs.FS
}

// investigationLimit and reviewLimit are CONTRACT §6's per-session bounds.
var (
	investigationLimit = Limits{WallNS: SystemInvestigationMaxNS, InputTokens: SessionMaxInputTokens, OutputTokens: SessionMaxOutputTokens}
	reviewLimit        = Limits{WallNS: SystemReviewMaxNS, InputTokens: SessionMaxInputTokens, OutputTokens: SessionMaxOutputTokens}
)

// systemRoles are the roles of one system workflow in dispatch order.
var systemRoles = []campaign.Role{campaign.RoleInvestigation, campaign.RoleReview}

// systemComparisonShape is systemComparison's Shape.
var systemComparisonShape = Shape{
	Name: campaign.DesignSystemComparison,
	Rule: "CONTRACT §6",
	Workflows: []WorkflowShape{
		{Arm: Arm(campaign.SystemNative), Roles: systemRoles},
		{Arm: Arm(campaign.SystemMadar), Roles: systemRoles},
		{Arm: Arm(campaign.SystemSerena), Roles: systemRoles},
	},
	ScoredRoles: []campaign.Role{campaign.RoleReview},
	PromptRoles: systemRoles,
	PacketKind:  campaign.PacketKindRawObservation,
	Recall: Recall{Name: "R_sys", Denominator: "the task's frozen repository-answerable obligations, shared by the three systems",
		Rule: "CONTRACT §6 R_sys"},
	Ceilings:      SystemCeilings(),
	CeilingsRule:  RuleSystemCeilings,
	SessionLimits: map[campaign.Role]Limits{campaign.RoleInvestigation: investigationLimit, campaign.RoleReview: reviewLimit},
	WorkflowLimit: Limits{WallNS: SystemWorkflowMaxNS, Operations: SystemWorkflowMaxOperations},
	Outcomes:      SystemOutcomes(),
}

// Shape returns the system comparison's facts (CONTRACT §6).
func (systemComparison) Shape() Shape { return systemComparisonShape }

// Load is campaign.LoadSystemComparison; the options (the fixed-evidence
// loader's validator choice) do not apply: every system file is decided
// by the reference validator.
func (systemComparison) Load(fsys fs.FS, _ campaign.LoadOptions) (campaign.Loaded, error) {
	c, err := campaign.LoadSystemComparison(fsys)
	if err != nil {
		return nil, err
	}
	return &SystemLoaded{SystemCampaign: c, FS: fsys}, nil
}

// system is the system-comparison campaign l: a *SystemLoaded, the only
// type systemComparison.Load returns.
func system(l campaign.Loaded) *SystemLoaded { return l.(*SystemLoaded) }

// MissingIdentities is SystemMissingIdentities (CONTRACT §6, §7).
func (systemComparison) MissingIdentities(l campaign.Loaded) []string {
	return SystemMissingIdentities(&system(l).Manifest)
}

// ManifestAdmission is DeliveredIdentityFindings: the frozen sample (six
// tasks in three repositories, two repetitions, the balanced provider
// order, the frozen provider identities and allowlists) is refused by
// the strict load already; what is left is every delivered identity that
// differs from the manifest's (CONTRACT §6 "A configuration mismatch stops
// admission").
func (systemComparison) ManifestAdmission(l campaign.Loaded) []*verr.Error {
	return DeliveredIdentityFindings(system(l).SystemCampaign)
}

// Blinding is blinding.SystemSource: every answered review, no evidence
// (a raw-observation packet names the system), the provider vocabulary
// in the leak scan (SystemLeakTokens).
func (systemComparison) Blinding(l campaign.Loaded) *blinding.Source {
	return blinding.SystemSource(system(l).SystemCampaign)
}

// Validity is SystemReceiptFindings as execution validity: every receipt
// checked against the prompt, draft, packet and answer it describes
// (CONTRACT §5 "Required records", §6). Investigation-stage failures and
// evidence_budget_exceeded are valid failures, scored, never findings.
func (systemComparison) Validity(l campaign.Loaded) ValidityReport {
	c := system(l).SystemCampaign
	digests := map[string]string{}
	for _, f := range c.Manifest.Files {
		digests[f.Path] = f.SHA256
	}
	v := ValidityReport{Findings: []ValidityFinding{}, Replaced: []ValidityFinding{}, Triplets: []TripletValidity{}, ScoredFailures: []ScoredFailure{}}
	for _, e := range SystemReceiptFindings(c, func(w string) string { return digests[campaign.PacketFile(w)] }) {
		v.Findings = append(v.Findings, ValidityFinding{Reason: e.Reason, File: e.File, Pointer: e.Pointer, Rule: e.Rule, Detail: e.Detail})
	}
	v.Valid = len(v.Findings) == 0
	return v
}

// Accounting is every session's account at the manifest's price card
// (SystemSessionAccount). The system comparison's cost and time gates
// (Madar against Native and Serena, cold setup charged per system and
// repository) are decided by Evaluate over the prepared input, not here.
func (systemComparison) Accounting(l campaign.Loaded) AccountingReport {
	c := system(l).SystemCampaign
	rep := AccountingReport{Sessions: []SessionAccount{}, Pairs: []PairAccount{}, Tasks: []TaskAccount{}, Gates: []Gate{}}
	for _, w := range c.Workflows {
		for _, s := range []*campaign.SystemSession{&w.Investigation, &w.Review} {
			rep.Sessions = append(rep.Sessions, SystemSessionAccount(s, w.Workflow, c.Manifest.Execution.PriceCard))
		}
	}
	return rep
}

// Replay is AdmitSystems (CONTRACT §6: the same reservation and
// missing-price stops, no automatic reruns, a review launched only after
// a successful investigation).
func (systemComparison) Replay(l campaign.Loaded, _ AccountingReport, _ ValidityReport, prior Budget, plan []Dispatch) AdmissionReplay {
	return AdmitSystems(system(l).SystemCampaign, prior, plan)
}

// Prepare is the system comparison's side of the score input: the
// prepared input keeps the campaign and joins it with the bound items
// and settled grades (PrepareSystemScoreInput) in PreparedInput.Join.
// The findings are the answered reviews' final-answer structural findings
// (SystemFinalFindings) and review-B ledger findings
// (SystemLedgerFindings), listed in the report's automatic validation as
// the first experiment's structural findings are; in the join each final
// finding also fails its review's source gate and each ledger finding its
// protocol gate.
func (systemComparison) Prepare(l campaign.Loaded) (*PreparedInput, []Finding) {
	s := system(l)
	p := &PreparedInput{in: ScoreInput{CampaignID: s.Manifest.CampaignID, Synthetic: s.Manifest.Synthetic}, unscored: map[string]bool{}, system: s}
	found, _ := SystemLedgerFindings(s.SystemCampaign)
	return p, append(SystemFinalFindings(s.SystemCampaign), found...)
}

// ScoreContext lists every session without a receipt as planned (the
// campaign is in progress: CONTRACT §5 every start ends in a receipt) and
// counts the decoded review answers; the system report has no page 1
// (its scorecard names the systems) and the review prompt is the one the
// first experiment selected, never revised here.
func (systemComparison) ScoreContext(l campaign.Loaded) ScoreContext {
	ctx := ScoreContext{}
	for _, w := range system(l).Workflows {
		for _, s := range []*campaign.SystemSession{&w.Investigation, &w.Review} {
			if s.Receipt == nil {
				ctx.Planned = append(ctx.Planned, s.ID)
			}
		}
		if w.Review.Response != nil {
			ctx.Responses++
		}
	}
	return ctx
}

// Evaluate is EvaluateSystemComparison (CONTRACT §6).
func (systemComparison) Evaluate(in ScoreInput) (*Scorecard, error) {
	return EvaluateSystemComparison(in)
}
