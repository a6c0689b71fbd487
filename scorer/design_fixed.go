package scorer

import (
	"io/fs"

	"verdict/blinding"
	"verdict/campaign"
	"verdict/verr"
)

// fixedEvidence is the first experiment's Design (CONTRACT §1–§5): the
// shared draft D and reviews A and B over authenticated excerpt packets,
// recall R, the four conditions and the B/A cost-and-time gates. Its
// methods are the scorer's fixed-evidence functions (ManifestAdmission,
// ExecutionValidity, Accounting, AdmitWith, PrepareScoreInput, Evaluate).
type fixedEvidence struct{}

// sessionLimit is CONTRACT §5's bound on every fixed-evidence session.
var sessionLimit = Limits{WallNS: SessionMaxNS, InputTokens: SessionMaxInputTokens, OutputTokens: SessionMaxOutputTokens}

// fixedEvidenceShape is fixedEvidence's Shape.
var fixedEvidenceShape = Shape{
	Name: campaign.DesignFixedEvidence,
	Rule: "CONTRACT §1–§5",
	Workflows: []WorkflowShape{
		{Arm: ArmA, Roles: []campaign.Role{campaign.RoleDraft, campaign.RoleReviewA}},
		{Arm: ArmB, Roles: []campaign.Role{campaign.RoleDraft, campaign.RoleReviewB}},
	},
	SharedRoles: []campaign.Role{campaign.RoleDraft},
	ScoredRoles: []campaign.Role{campaign.RoleReviewA, campaign.RoleReviewB},
	PromptRoles: []campaign.Role{campaign.RoleDraft, campaign.RoleReviewA, campaign.RoleReviewB},
	PacketKind:  campaign.PacketKindExcerpt,
	Recall: Recall{Name: "R", Denominator: "the task's answerable obligations (answerable from the packet)",
		Rule: "CONTRACT §4 Final evidence and plan correctness"},
	Ceilings:      ContractCeilings(),
	CeilingsRule:  RuleCeilings,
	SessionLimits: map[campaign.Role]Limits{campaign.RoleDraft: sessionLimit, campaign.RoleReviewA: sessionLimit, campaign.RoleReviewB: sessionLimit},
	Outcomes: []DecisionKind{DecisionAllGatesPass, DecisionQualityImprovesGateFails, DecisionNoGain, DecisionExecutionInvalid,
		DecisionNoDecision},
}

// Shape returns the fixed-evidence facts (CONTRACT §2, §4, §5).
func (fixedEvidence) Shape() Shape { return fixedEvidenceShape }

// Load is campaign.LoadWith.
func (fixedEvidence) Load(fsys fs.FS, opts campaign.LoadOptions) (campaign.Loaded, error) {
	c, err := campaign.LoadWith(fsys, opts)
	if err != nil {
		return nil, err
	}
	return c, nil
}

// MissingIdentities is MissingIdentities (CONTRACT §7).
func (fixedEvidence) MissingIdentities(l campaign.Loaded) []string {
	return MissingIdentities(&fixed(l).Manifest)
}

// fixed is the fixed-evidence campaign l: a *campaign.Campaign, the only
// type fixedEvidence.Load returns.
func fixed(l campaign.Loaded) *campaign.Campaign { return l.(*campaign.Campaign) }

// ManifestAdmission is ManifestAdmission (CONTRACT §2–§3, §5, §7).
func (fixedEvidence) ManifestAdmission(l campaign.Loaded) []*verr.Error {
	return ManifestAdmission(fixed(l))
}

// Blinding is blinding.FixedSource: every review answer, the packet's
// excerpts, DefaultLeakTokens.
func (fixedEvidence) Blinding(l campaign.Loaded) *blinding.Source {
	return blinding.FixedSource(fixed(l))
}

// Validity is ExecutionValidity (CONTRACT §5).
func (fixedEvidence) Validity(l campaign.Loaded) ValidityReport { return ExecutionValidity(fixed(l)) }

// Accounting is Accounting (CONTRACT §4 "Complete cost and time").
func (fixedEvidence) Accounting(l campaign.Loaded) AccountingReport { return Accounting(fixed(l)) }

// Replay is AdmitWith (CONTRACT §5 ceilings and reservation; C18).
func (fixedEvidence) Replay(l campaign.Loaded, rep AccountingReport, v ValidityReport, prior Budget, plan []Dispatch) AdmissionReplay {
	return AdmitWith(fixed(l), rep, v, prior, plan)
}

// Prepare is PrepareScoreInput (CONTRACT §4: the review sessions over R's
// denominator).
func (fixedEvidence) Prepare(l campaign.Loaded) (*PreparedInput, []Finding) {
	return PrepareScoreInput(fixed(l))
}

// Evaluate is Evaluate (CONTRACT §4 conditions 1–4, gates, decision).
func (fixedEvidence) Evaluate(in ScoreInput) (*Scorecard, error) { return Evaluate(in) }

// ScoreContext is PlannedSessions, IdentityOf, the decoded responses and
// BRevision (CONTRACT §5, §7).
func (fixedEvidence) ScoreContext(l campaign.Loaded) ScoreContext {
	c := fixed(l)
	id := IdentityOf(c)
	ctx := ScoreContext{Planned: PlannedSessions(c), Identity: &id, PromptRevision: BRevision(c)}
	for _, s := range c.Sessions {
		if s.Response != nil {
			ctx.Responses++
		}
	}
	return ctx
}
