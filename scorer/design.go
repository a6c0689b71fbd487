package scorer

import (
	"fmt"
	"io/fs"
	"slices"
	"strings"

	"verdict/blinding"
	"verdict/campaign"
	"verdict/verr"
)

// Design is everything that differs between the contract's two
// experiments, in one place: the fixed-evidence ablation (CONTRACT §1–§5)
// and the conditional system comparison (CONTRACT §6; PROMPTS.md
// "Conditional system comparison"). A campaign's manifest names its design
// (campaign.ManifestDesign); LookupDesign finds its implementation.
//
// Everything else is shared and written once, outside this interface:
// strict loading, receipts as evidence, blinding, grading, signing,
// custody, consensus, agreement, reports and exports. pipeline calls a
// design's methods (every command's load: Load; Check and Admit:
// ManifestAdmission, Validity, Accounting, Replay; Score: Prepare, then
// EvaluateDesign), and reads its Shape for the ceilings, the next
// dispatch's role and the scored roles. A method receives a campaign its
// own Load returned (a design asserts its own concrete type).
type Design interface {
	// Shape is the design's frozen facts: run shape, packet kind, prompt
	// roles, recall quantity, ceilings, session and workflow limits and
	// decision outcomes. It is a constant of the design.
	Shape() Shape
	// Load strictly loads a campaign of this design from fsys (the
	// fixed-evidence loader is campaign.LoadWith); every refusal is a
	// *verr.Error or a join of them.
	Load(fsys fs.FS, opts campaign.LoadOptions) (campaign.Loaded, error)
	// MissingIdentities names every execution identity the manifest
	// leaves unset (CONTRACT §7; §6 adds each system's configuration,
	// runtime, advertised-tools digests, permission policy and Madar's
	// package integrity). None: nil.
	MissingIdentities(c campaign.Loaded) []string
	// ManifestAdmission lists every violation of the design's frozen
	// sample (tasks, repositories, categories, repetitions, order balance,
	// packet and truth sizes, identities): CONTRACT §2–§3, §5, §7 for
	// fixed evidence, §6 (six tasks in three repositories, two
	// repetitions, provider order balanced over the six permutations,
	// provider identities) for the system comparison. None: admitted.
	ManifestAdmission(c campaign.Loaded) []*verr.Error
	// Blinding is the campaign side of the blinding (CONTRACT §5 blinded
	// quality review; §6 "Raters grade system answers blinded exactly as
	// today"): the bundled answers, each task's item template and the
	// leak scan's tokens. Bundles, the sealed map and the scan are shared
	// (blinding.BuildSource, DeriveSource).
	Blinding(c campaign.Loaded) *blinding.Source
	// Validity is the execution validity of the recorded sessions: every
	// receipt checked against what it describes, bounds, replacements and
	// scored failures (CONTRACT §5 "Required records", "No automatic
	// reruns"; §6's investigation-stage failures and
	// evidence_budget_exceeded for the system comparison).
	Validity(c campaign.Loaded) ValidityReport
	// Accounting is the complete cost-and-time accounting and its gates
	// (CONTRACT §4 "Complete cost and time": B/A ratios with the shared
	// draft allocated to both workflows; §6: Madar against Native and
	// Serena, cold setup charged per system and repository).
	Accounting(c campaign.Loaded) AccountingReport
	// Replay decides planned dispatches against the remaining ceilings
	// (Shape.Ceilings) with each dispatch's worst-case reservation, and the
	// design's rerun rules (CONTRACT §5; EVALUATOR-CONTROLS C18). rep and
	// v are this design's Accounting(c) and Validity(c).
	Replay(c campaign.Loaded, rep AccountingReport, v ValidityReport, prior Budget, plan []Dispatch) AdmissionReplay
	// Prepare is the campaign's side of the score input: every scored
	// session as a RunInput over the design's recall denominator (the
	// packet-answerable obligations for R, CONTRACT §4; the frozen
	// repository-answerable set for R_sys, §6), the accounting and the
	// prerequisites, with the structural findings.
	Prepare(c campaign.Loaded) (*PreparedInput, []Finding)
	// ScoreContext is what score reads of the campaign besides Prepare:
	// the sessions still planned (a campaign in progress is refused,
	// CONTRACT §5), report page 1, the number of decoded responses and the
	// scored review prompt's revision (ScoreContext).
	ScoreContext(c campaign.Loaded) ScoreContext
	// Ledgers are the campaign's review-B reconciliation ledgers, each
	// with the E IDs of the packet its review received (LedgerSource):
	// the protocol checker's screen and the system comparison's ledger
	// check read them, and ValidateLedger checks each by the one set of
	// rules (PROMPTS.md Additional constraints; EVALUATOR-CONTROLS C13).
	// A system comparison whose selected review is A has none and is
	// refused (ReasonLedgerReviewA).
	Ledgers(c campaign.Loaded) ([]LedgerSource, error)
	// Evaluate scores every run with the design's recall quantity,
	// evaluates every gate independently and takes one of Shape.Outcomes
	// (CONTRACT §4 "Decision"; §6). Callers use EvaluateDesign, which
	// holds it to its outcomes.
	Evaluate(in ScoreInput) (*Scorecard, error)
}

// ScoreContext is a design's campaign-side context of a score run: what
// the score command refuses on (Planned) and reports beside the
// scorecard (ReportContext.Identity, Responses, Provenance.PromptRevision).
type ScoreContext struct {
	// Planned are the sessions the manifest lists that have not started,
	// in manifest order (IncompleteError refuses them).
	Planned []string
	// Identity is report page 1 (IdentityOf); nil when the design's
	// report has no page 1 (the system comparison's report states its
	// systems' identities in its own scorecard).
	Identity *CampaignIdentity
	// Responses counts the decoded responses of the scored roles.
	Responses int
	// PromptRevision is the scored review prompt's revision (BRevision),
	// nil when the frozen prompt is used.
	PromptRevision *PromptRevision
}

// Shape is a design's frozen facts (CONTRACT §2, §5 and §6), read by the
// shared pipeline and reported as they are.
type Shape struct {
	// Name is the design's manifest name.
	Name campaign.Design
	// Rule cites the contract sections that fix the design.
	Rule string
	// Workflows are the complete workflows of one run (one task and
	// repetition), each with the roles of its sessions in dispatch order.
	// Fixed evidence: A = draft, review-a and B = draft, review-b, the
	// draft shared (SharedRoles). System comparison: one workflow per
	// system, each an investigation and a fresh review.
	Workflows []WorkflowShape
	// SharedRoles are the roles whose one session belongs to every
	// workflow of its run: billed once, allocated to each workflow
	// (CONTRACT §4); a failure there fails every workflow (C23).
	SharedRoles []campaign.Role
	// ScoredRoles are the roles whose final answers are bundled, graded
	// by the raters and scored (the reviews).
	ScoredRoles []campaign.Role
	// PromptRoles are the roles whose exact prompt bytes verdict renders
	// (`verdict prompts`) and checks against each receipt's input digest.
	PromptRoles []campaign.Role
	// PacketKind is the kind of packet every review receives:
	// campaign.PacketKindExcerpt or campaign.PacketKindRawObservation.
	PacketKind string
	// Recall is the scored recall quantity: R or R_sys.
	Recall Recall
	// Ceilings are the inclusive campaign ceilings (CONTRACT §5: 120
	// sessions; §6: 90 sessions, no replacement triplet).
	Ceilings Budget
	// CeilingsRule is the rule an exceeded ceiling cites.
	CeilingsRule string
	// SessionLimits are the per-session bounds by role (CONTRACT §5: 4
	// minutes, 90,000 input, 8,000 output tokens; §6: investigation 8,
	// review 4 minutes).
	SessionLimits map[campaign.Role]Limits
	// WorkflowLimit bounds one complete workflow; zero fields are no bound
	// (fixed evidence has none; §6: 12 minutes and 60 operations, cold
	// setup included).
	WorkflowLimit Limits
	// Outcomes are the decision outcomes the design can take, in the
	// contract's order (CONTRACT §4 "Decision"; §6 adds "Serena or Native
	// gives the required quality more simply and cheaply").
	Outcomes []DecisionKind
}

// WorkflowShape is one complete workflow of a run: the arm or system it
// measures and its sessions' roles in dispatch order.
type WorkflowShape struct {
	Arm   Arm
	Roles []campaign.Role
}

// Recall names a design's recall quantity and its denominator (CONTRACT
// §4 R; §6 R_sys).
type Recall struct {
	// Name is "R" or "R_sys".
	Name string
	// Denominator says which obligations the quantity divides by; it never
	// shrinks with what an answer or a provider returns.
	Denominator string
	// Rule cites the contract.
	Rule string
}

// Limits bound one session or one workflow; a zero field is no bound.
type Limits struct {
	// WallNS is wall time in nanoseconds.
	WallNS int64
	// InputTokens and OutputTokens are cumulative input and billed output.
	InputTokens, OutputTokens int64
	// Operations counts ordinary and MCP operations.
	Operations int64
}

// designs are the designs this build scores: a second design registers by
// adding its value here (and its manifest schema in campaign). Each name
// appears once.
var designs = []Design{fixedEvidence{}, systemComparison{}}

// RuleDesign is the rule cited when a manifest names a design this build
// does not score.
const RuleDesign = "CONTRACT §1–§5 and §6 campaign designs"

// RuleDesignOutcome is the rule cited when a design decides an outcome it
// does not declare.
const RuleDesignOutcome = "CONTRACT §4 Decision; §6"

// ReasonDesignOutcome: a design's Evaluate took a decision outside its
// Shape.Outcomes.
const ReasonDesignOutcome verr.Reason = "design-outcome"

// LookupDesign returns the registered design named name ("" is
// fixed-evidence, the design of a manifest without the member). A name no
// registered design has is refused with campaign.ReasonDesign
// ("design-unknown", a *verr.Error), naming the designs there are. The
// error is an error interface value, so a nil result compares nil.
func LookupDesign(name campaign.Design) (Design, error) {
	if name == "" {
		name = campaign.DesignFixedEvidence
	}
	var names []string
	for _, d := range designs {
		if d.Shape().Name == name {
			return d, nil
		}
		names = append(names, string(d.Shape().Name))
	}
	return nil, &verr.Error{Reason: campaign.ReasonDesign, File: campaign.ManifestFile, Pointer: "/design", Rule: RuleDesign,
		Detail: fmt.Sprintf("no design %q is registered (registered: %s)", name, strings.Join(names, ", "))}
}

// DesignOf is LookupDesign of a loaded campaign's design.
func DesignOf(c campaign.Loaded) (Design, error) { return LookupDesign(c.Design()) }

// EvaluateDesign is d.Evaluate(in) held to the design's declared outcomes:
// a decision outside d.Shape().Outcomes is refused (ReasonDesignOutcome)
// rather than reported.
func EvaluateDesign(d Design, in ScoreInput) (*Scorecard, error) {
	sc, err := d.Evaluate(in)
	if err != nil {
		return nil, err
	}
	sh := d.Shape()
	if !slices.Contains(sh.Outcomes, sc.Decision.Kind) {
		return nil, &verr.Error{Reason: ReasonDesignOutcome, Rule: RuleDesignOutcome,
			Detail: fmt.Sprintf("design %s decided %q, which is not one of its outcomes", sh.Name, sc.Decision.Kind)}
	}
	return sc, nil
}
