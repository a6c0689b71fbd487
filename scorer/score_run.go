package scorer

import (
	"fmt"
	"slices"
	"strconv"

	"verdict/adjudication"
	"verdict/campaign"
	"verdict/verr"
)

// Arm is a review arm of a complete workflow (CONTRACT §2): A (ordinary
// review) or B (reconciliation review).
type Arm string

// The two arms.
const (
	ArmA Arm = "A"
	ArmB Arm = "B"
)

// ReasonLedgerRefused: the strict loader refused B's reconciliation record
// (null, outside the schema, or against a loader rule) while the final
// answer is valid. The final is scored normally; the review's protocol gate
// fails and the mechanism does not advance (CONTRACT §4, condition 4).
const ReasonLedgerRefused verr.Reason = "ledger-refused"

// RunOutcome says how a review session ended for scoring (CONTRACT §4–§5).
type RunOutcome string

// The scored outcomes of a review. Invalid executions never reach
// run scoring: they make the whole execution invalid (C15, C17).
const (
	// OutcomeAnswered: a strictly valid response whose final answer was
	// bundled and graded by the raters.
	OutcomeAnswered RunOutcome = "answered"
	// OutcomeValidFailure: empty, malformed or refused answer, model timeout
	// or budget exhaustion; a valid scored failure, never rerun (C16).
	OutcomeValidFailure RunOutcome = "valid_failure"
	// OutcomeSharedDraftFailure: the shared draft D failed, so the review was
	// not dispatched and both complete workflows fail (C23).
	OutcomeSharedDraftFailure RunOutcome = "shared_draft_failure"
	// OutcomeInvestigationFailure: a system comparison's investigation was
	// empty, refused, timed out or exceeded the evidence budget, so its
	// review was not launched; a valid investigation-stage system failure
	// (R_sys = 0, U = 0, critical completion failed; CONTRACT §6, PROMPTS.md
	// packet procedure).
	OutcomeInvestigationFailure RunOutcome = "investigation_failure"
)

// RunInput is everything the scorer needs to score one review session (one
// arm of one repetition of one task): its identity, how it ended, the
// decoded final answer (nil unless answered), whether B's reconciliation
// record decoded, its structural findings, the packet identity check and the
// settled grades of its bundled item.
type RunInput struct {
	Task       string         `json:"task"`
	Repetition int            `json:"repetition"`
	Order      campaign.Order `json:"order"`
	Arm        Arm            `json:"arm"`
	// Session is the review session ID "S<n>".
	Session string `json:"session"`
	// Item is the opaque bundled item ID; "" when not bundled (failures).
	Item    string     `json:"item"`
	Outcome RunOutcome `json:"outcome"`
	// FailureKind names the failure for OutcomeValidFailure and
	// OutcomeSharedDraftFailure (e.g. "malformed_output", "model_timeout").
	FailureKind string `json:"failure_kind,omitempty"`
	// Final is the decoded final answer; required when Outcome is answered.
	// Evaluate reads only its claim and exclusion IDs and its number of
	// citations; BuildScoreInput and PrepareScoreInput set a copy holding
	// just those (no text).
	Final *campaign.Final `json:"-"`
	// ReconciliationPresent reports that B's reconciliation record decoded
	// as an object (PROMPTS.md); a missing or null record fails B's
	// protocol gate (CONTRACT §4).
	ReconciliationPresent bool `json:"-"`
	// LedgerRefusal labels the strict loader's refusal of B's
	// reconciliation record ("code:pointer") when the final answer is
	// valid (campaign.Session.LedgerFailure); "" otherwise. It fails only
	// this review's protocol gate (CONTRACT §4).
	LedgerRefusal string `json:"-"`
	// FinalFindings labels the structural findings of scope "final" of this
	// response ("code:pointer"); each fails the source gate.
	FinalFindings []string `json:"-"`
	// ProtocolFindings labels the structural findings of scope "protocol"
	// ("code:pointer"); each fails B's protocol gate.
	ProtocolFindings []string `json:"-"`
	// PacketIdentityOK reports that the delivered packet is byte-identical to
	// the frozen packet (CONTRACT §4 "Packet identity ... must be 100%").
	PacketIdentityOK bool `json:"-"`
	// Grades are the settled grades of Item (Consensus output filtered to Item).
	Grades []ConsensusGrade `json:"-"`
	// SystemComparison marks a system comparison's review (CONTRACT §6):
	// a settled truthful_unknown may stand on its task's obligations. On an
	// obligation of the separately frozen U set it earns U credit; on a
	// repository-answerable obligation it is a truthful unknown (counted
	// in RunScore.TruthfulUnknowns), never addressed, so never R. On any
	// other run, and on any other field, ScoreRun refuses a
	// truthful_unknown (adjudication.ReasonTruthfulUnknownOutsideObligations).
	SystemComparison bool `json:"-"`
}

// ClaimCounts counts a final answer's graded claims (CONTRACT §4, C08).
type ClaimCounts struct {
	Total       int `json:"total"`
	Supported   int `json:"supported"`
	Unsupported int `json:"unsupported"`
	Wrong       int `json:"wrong"`
	// CriticalWrong counts claims graded wrong and critical (condition 1).
	CriticalWrong int `json:"critical_wrong"`
	// CriticalUnsupported counts claims graded unsupported and critical: an
	// invented critical fact (C08) that fails the source gate.
	CriticalUnsupported int `json:"critical_unsupported"`
}

// RunScore is the score of one review session (CONTRACT §4 "For each run").
type RunScore struct {
	Task        string         `json:"task"`
	Repetition  int            `json:"repetition"`
	Order       campaign.Order `json:"order"`
	Arm         Arm            `json:"arm"`
	Session     string         `json:"session"`
	Item        string         `json:"item,omitempty"`
	Outcome     RunOutcome     `json:"outcome"`
	FailureKind string         `json:"failure_kind,omitempty"`
	// R is addressed answerable obligations / all answerable obligations; the
	// denominator never shrinks. Valid failures have R = 0/answerable.
	R Fraction `json:"r"`
	// U is credited unanswerable obligations / all unanswerable obligations;
	// nil (undefined, not 0) when the task has none. Valid failures have
	// U = 0/unanswerable.
	U *Fraction `json:"u"`
	// FalselyResolved counts unanswerable obligations graded falsely_resolved.
	FalselyResolved int `json:"falsely_resolved"`
	// TruthfulUnknowns counts the answerable (repository-answerable)
	// obligations settled truthful_unknown in a system comparison's review:
	// U credit only, never in R (CONTRACT §6). Always 0 in the first
	// experiment; the system scorecard reports it (SystemWorkflowScore).
	TruthfulUnknowns int `json:"-"`
	// CriticalCompletionFailed: a critical answerable obligation was not
	// addressed, a critical unanswerable one was not credited, or the
	// answer is a valid failure.
	CriticalCompletionFailed bool `json:"critical_completion_failed"`
	// CriticalObligationFailures lists the critical obligations that failed.
	CriticalObligationFailures []string `json:"critical_obligation_failures"`
	// Claims is nil (unscorable, not zero) when no valid answer exists.
	Claims *ClaimCounts `json:"claims"`
	// SourceGate is the run's source/citation gate (CONTRACT §4).
	SourceGate bool `json:"source_gate"`
	// SourceFailures names each reason the source gate failed, sorted.
	SourceFailures []string `json:"source_failures"`
	// ProtocolStructural is B's ledger structural success (no protocol-scope
	// finding, ledger present); nil for arm A (not applicable).
	ProtocolStructural *bool `json:"protocol_structural"`
	// WronglyExcluded lists exclusions graded wrongly_excludes: a semantic
	// failure even with a structurally valid ledger (C11).
	WronglyExcluded []string `json:"wrongly_excluded"`
	// ProtocolGate is B's protocol gate: structural success and no wrongly
	// excluded evidence (CONTRACT §4 condition 4, C11); nil for arm A.
	ProtocolGate *bool `json:"protocol_gate"`
	// ProtocolFailures names each reason the protocol gate failed, sorted.
	ProtocolFailures []string `json:"protocol_failures"`
	// OracleDefects lists obligations with a settled oracle_defect (C22).
	OracleDefects []string `json:"oracle_defects"`
	// Obligations is the settled outcome of every truth obligation, in
	// truth order, for the per-obligation export (not in report.json).
	Obligations []ObligationOutcome `json:"-"`
}

// ObligationOutcome is one truth obligation's settled outcome in one run:
// Value is the settled grade (addressed / not_addressed for an answerable
// obligation, credited / not_credited / falsely_resolved for one whose
// evidence is absent, and truthful_unknown for any obligation of a system
// comparison), or "" when the run is a failure with no answer to grade
// (it counts as not met, CONTRACT §4).
type ObligationOutcome struct {
	ID         string
	Critical   bool
	Answerable bool
	Value      string
	// Met is true when the value is addressed or credited, or
	// truthful_unknown on an obligation of the U set (not answerable): a
	// truthful unknown on a repository-answerable obligation is not
	// correctly addressed (CONTRACT §6).
	Met bool
}

// ScoreRun scores one review session against its task's frozen truth
// obligations (CONTRACT §4). An answered run must carry a settled grade for
// every field GRADES.md requires and none for a target the answer or truth
// lacks; otherwise it returns a *verr.Error with ReasonMissingGrade or
// ReasonUnexpectedGrade. On a system comparison's review
// (in.SystemComparison) a settled truthful_unknown earns U credit on an
// uncertainty field (the U set) and, on an obligation field
// (repository-answerable), counts in TruthfulUnknowns as not addressed:
// never R, the denominator never shrinks, and a critical one fails
// critical completion (CONTRACT §6). Anywhere else, or on a target that is
// none of the task's obligations, it is refused with
// adjudication.ReasonTruthfulUnknownOutsideObligations. Valid failures (C16) and shared-draft failures
// (C23) get R=0, U=0, critical_completion_failed, source and protocol gates
// false and unscorable claim counts; they keep their denominators.
func ScoreRun(truth []campaign.TruthObligation, in RunInput) (RunScore, error) {
	var answerable, unanswerable int
	for _, o := range truth {
		if o.Answerable {
			answerable++
		} else {
			unanswerable++
		}
	}
	rs := RunScore{
		Task: in.Task, Repetition: in.Repetition, Order: in.Order, Arm: in.Arm, Session: in.Session,
		Item: in.Item, Outcome: in.Outcome, FailureKind: in.FailureKind,
		CriticalObligationFailures: []string{}, SourceFailures: []string{}, ProtocolFailures: []string{},
		WronglyExcluded: []string{}, OracleDefects: []string{},
	}
	den := int64(answerable)
	if den == 0 {
		den = 1 // the loader refuses tasks with fewer than two answerable obligations
	}
	if unanswerable > 0 {
		u := Frac(0, int64(unanswerable))
		rs.U = &u
	}
	switch in.Outcome {
	case OutcomeValidFailure, OutcomeSharedDraftFailure, OutcomeInvestigationFailure:
		rs.R = Frac(0, den)
		rs.CriticalCompletionFailed = true
		label := "valid-failure"
		switch in.Outcome {
		case OutcomeSharedDraftFailure:
			label = "shared-draft-failure"
		case OutcomeInvestigationFailure:
			label = "investigation-failure"
		}
		for _, o := range truth {
			if o.Critical {
				rs.CriticalObligationFailures = append(rs.CriticalObligationFailures, o.ID)
			}
			rs.Obligations = append(rs.Obligations, ObligationOutcome{ID: o.ID, Critical: o.Critical, Answerable: o.Answerable})
		}
		rs.SourceFailures = []string{label}
		if in.Arm == ArmB {
			f := false
			rs.ProtocolStructural, rs.ProtocolGate = &f, &f
			rs.ProtocolFailures = []string{label}
		}
		return rs, nil
	case OutcomeAnswered:
	default:
		return rs, fmt.Errorf("scorer: run %s has unknown outcome %q", in.Session, in.Outcome)
	}
	if in.Final == nil {
		return rs, &verr.Error{Reason: ReasonMissingGrade, File: campaign.ResponsePath(in.Session), Rule: "CONTRACT §4",
			Detail: "an answered run has no decoded final answer"}
	}
	grades, err := checkRequiredGrades(truth, in)
	if err != nil {
		return rs, err
	}
	// Coverage R and uncertainty U.
	var addressed, credited int64
	for _, o := range truth {
		oc := ObligationOutcome{ID: o.ID, Critical: o.Critical, Answerable: o.Answerable}
		if o.Answerable {
			oc.Value = grades[fieldKey(adjudication.KindObligation, o.ID)]
		} else {
			oc.Value = grades[fieldKey(adjudication.KindUncertainty, o.ID)]
		}
		oc.Met = oc.Value == adjudication.ValueAddressed || oc.Value == adjudication.ValueCredited || (!o.Answerable && oc.Value == adjudication.ValueTruthfulUnknown)
		rs.Obligations = append(rs.Obligations, oc)
		if o.Answerable {
			v := grades[fieldKey(adjudication.KindObligation, o.ID)]
			if v == adjudication.ValueTruthfulUnknown {
				// A legitimate answer with U credit only: not correctly
				// addressed, so R keeps its whole denominator (§6).
				rs.TruthfulUnknowns++
			}
			if v == adjudication.ValueAddressed {
				addressed++
			} else if o.Critical {
				rs.CriticalObligationFailures = append(rs.CriticalObligationFailures, o.ID)
			}
			continue
		}
		switch grades[fieldKey(adjudication.KindUncertainty, o.ID)] {
		case adjudication.ValueCredited, adjudication.ValueTruthfulUnknown:
			// U credit only: a truthful unknown of the U set never
			// counts in R (checkRequiredGrades allowed it only there).
			credited++
			continue
		case adjudication.ValueFalselyResolved:
			rs.FalselyResolved++
			rs.SourceFailures = append(rs.SourceFailures, "falsely-resolved-uncertainty:"+o.ID)
		}
		if o.Critical {
			rs.CriticalObligationFailures = append(rs.CriticalObligationFailures, o.ID)
		}
	}
	rs.R = Frac(addressed, den)
	if unanswerable > 0 {
		u := Frac(credited, int64(unanswerable))
		rs.U = &u
	}
	rs.CriticalCompletionFailed = len(rs.CriticalObligationFailures) > 0
	// Claims.
	cc := &ClaimCounts{Total: len(in.Final.Claims)}
	for _, c := range in.Final.Claims {
		critical := grades[fieldKey(adjudication.KindClaimCritical, c.ID)] == adjudication.ValueCritical
		switch grades[fieldKey(adjudication.KindClaim, c.ID)] {
		case adjudication.ValueSupported:
			cc.Supported++
		case adjudication.ValueUnsupported:
			cc.Unsupported++
			if critical {
				cc.CriticalUnsupported++
				rs.SourceFailures = append(rs.SourceFailures, "invented-critical-fact:"+c.ID)
			}
		case adjudication.ValueWrong:
			cc.Wrong++
			if critical {
				cc.CriticalWrong++
				rs.SourceFailures = append(rs.SourceFailures, "invented-critical-fact:"+c.ID)
			}
		}
	}
	rs.Claims = cc
	// Source gate: packet identity, structural citation/link validity,
	// semantic citation support, no invented critical fact, no falsely
	// resolved uncertainty, no false completeness.
	if !in.PacketIdentityOK {
		rs.SourceFailures = append(rs.SourceFailures, "packet-identity")
	}
	for i := range in.Final.Citations {
		k := "K" + strconv.Itoa(i+1)
		if grades[fieldKey(adjudication.KindCitation, k)] == adjudication.ValueDoesNotSupport {
			rs.SourceFailures = append(rs.SourceFailures, "citation-does-not-support:"+k)
		}
	}
	if grades[fieldKey(adjudication.KindCompleteness, adjudication.TargetFinal)] == adjudication.ValueFalseClaim {
		rs.SourceFailures = append(rs.SourceFailures, "false-completeness")
	}
	structural := true
	for _, f := range in.FinalFindings {
		rs.SourceFailures = append(rs.SourceFailures, "structural:"+f)
	}
	for _, f := range in.ProtocolFindings {
		structural = false
		rs.ProtocolFailures = append(rs.ProtocolFailures, "structural:"+f)
	}
	for _, x := range in.Final.Exclusions {
		if grades[fieldKey(adjudication.KindExclusion, x.ID)] == adjudication.ValueWronglyExcludes {
			rs.WronglyExcluded = append(rs.WronglyExcluded, x.ID)
		}
	}
	if in.Arm == ArmB {
		switch {
		case in.LedgerRefusal != "":
			structural = false
			rs.ProtocolFailures = append(rs.ProtocolFailures, string(ReasonLedgerRefused)+":"+in.LedgerRefusal)
		case !in.ReconciliationPresent:
			structural = false
			rs.ProtocolFailures = append(rs.ProtocolFailures, "reconciliation-missing")
		}
		for _, x := range rs.WronglyExcluded {
			rs.ProtocolFailures = append(rs.ProtocolFailures, "wrongly-excludes:"+x)
		}
		s := structural
		g := structural && len(rs.WronglyExcluded) == 0
		rs.ProtocolStructural, rs.ProtocolGate = &s, &g
	}
	for _, o := range truth {
		if grades[fieldKey(adjudication.KindOracleDefect, o.ID)] == adjudication.ValueDefective {
			rs.OracleDefects = append(rs.OracleDefects, o.ID)
		}
	}
	slices.Sort(rs.SourceFailures)
	rs.SourceFailures = slices.Compact(rs.SourceFailures)
	slices.Sort(rs.ProtocolFailures)
	rs.ProtocolFailures = slices.Compact(rs.ProtocolFailures)
	rs.SourceGate = len(rs.SourceFailures) == 0
	return rs, nil
}

type kindTarget struct {
	kind   adjudication.Kind
	target string
}

func fieldKey(k adjudication.Kind, target string) kindTarget { return kindTarget{k, target} }

// runField is one field an answered run's item has (GRADES.md): its kind
// and target, and whether a settled grade must stand on it (an
// oracle-defect flag is optional).
type runField struct {
	kt       kindTarget
	required bool
}

// lookupRunField reports whether kt is among fields, and whether it is
// required there. An item has a few dozen fields at most, so a scan of
// the list in its order does what a map would, without building one for
// each of tens of thousands of runs.
func lookupRunField(fields []runField, kt kindTarget) (found, required bool) {
	for i := range fields {
		if fields[i].kt == kt {
			return true, fields[i].required
		}
	}
	return false, false
}

// citationTargets are the citation field targets K1… an answer's
// citations most often have, made once (citationTarget).
var citationTargets = func() []string {
	ts := make([]string, 64)
	for i := range ts {
		ts[i] = "K" + strconv.Itoa(i+1)
	}
	return ts
}()

// citationTarget is the field target of an answer's i-th citation
// (0-based): "K" and i+1 (GRADES.md).
func citationTarget(i int) string {
	if i < len(citationTargets) {
		return citationTargets[i]
	}
	return "K" + strconv.Itoa(i+1)
}

// checkRequiredGrades indexes an answered run's grades by kind and target and
// checks them against GRADES.md's required fields.
func checkRequiredGrades(truth []campaign.TruthObligation, in RunInput) (map[kindTarget]string, error) {
	f := in.Final // an answered run: not nil
	// The item's fields in GRADES.md order (the order RequiredFields
	// lists them, with each obligation's optional oracle-defect flag).
	var stack [48]runField
	fields := stack[:0]
	for _, o := range truth {
		k := adjudication.KindUncertainty
		if o.Answerable {
			k = adjudication.KindObligation
		}
		fields = append(fields, runField{fieldKey(k, o.ID), true}, runField{fieldKey(adjudication.KindOracleDefect, o.ID), false})
	}
	for _, c := range f.Claims {
		fields = append(fields, runField{fieldKey(adjudication.KindClaim, c.ID), true}, runField{fieldKey(adjudication.KindClaimCritical, c.ID), true})
	}
	for i := range f.Citations {
		fields = append(fields, runField{fieldKey(adjudication.KindCitation, citationTarget(i)), true})
	}
	for _, x := range f.Exclusions {
		fields = append(fields, runField{fieldKey(adjudication.KindExclusion, x.ID), true})
	}
	fields = append(fields, runField{fieldKey(adjudication.KindCompleteness, adjudication.TargetFinal), true})

	file := campaign.ResponsePath(in.Session)
	got := make(map[kindTarget]string, len(in.Grades))
	for _, g := range in.Grades {
		kt := fieldKey(g.Field.Kind, g.Field.Target)
		known, required := lookupRunField(fields, kt)
		if g.Field.Item == in.Item && g.Value == adjudication.ValueTruthfulUnknown && !required &&
			(g.Field.Kind == adjudication.KindObligation || g.Field.Kind == adjudication.KindUncertainty) {
			// Precise: the target is none of the task's obligations of
			// this kind (an obligation field must be repository-
			// answerable, an uncertainty field of the U set).
			return nil, verr.Newf(ReasonTruthfulUnknownOutsideObligations, file, g.Field.String(), "CONTRACT §6",
				"settled grade of review %s: truthful_unknown on %s, which is not a %s obligation of task %s", in.Session, g.Field, obligationSet(g.Field.Kind), in.Task)
		}
		if g.Field.Item != in.Item || !known {
			return nil, &verr.Error{Reason: ReasonUnexpectedGrade, File: file, Pointer: g.Field.String(), Rule: "GRADES.md",
				Detail: "a settled grade names a field this item does not have"}
		}
		if err := adjudication.CheckDesignValue(runDesign(in), g.Field, g.Value); err != nil {
			e := err.(*verr.Error)
			return nil, verr.Newf(e.Reason, file, e.Pointer, e.Rule, "settled grade of review %s: %s", in.Session, e.Detail)
		}
		got[kt] = g.Value
	}
	var missing []adjudication.Field
	for _, rf := range fields {
		if _, ok := got[rf.kt]; rf.required && !ok {
			missing = append(missing, adjudication.Field{Item: in.Item, Kind: rf.kt.kind, Target: rf.kt.target})
		}
	}
	if len(missing) > 0 {
		// Sorted, and each field once (as the set of required fields
		// counted them).
		SortFieldKeys(missing)
		missing = slices.Compact(missing)
		return nil, verr.Newf(ReasonMissingGrade, file, missing[0].String(), "GRADES.md", "%d required field(s) have no settled grade, first %s", len(missing), missing[0])
	}
	return got, nil
}

// obligationSet names the obligations a field of kind k grades: the
// repository-answerable ones (obligation) or the U set (uncertainty).
func obligationSet(k adjudication.Kind) string {
	if k == adjudication.KindUncertainty {
		return "U-set (not repository-answerable)"
	}
	return "repository-answerable"
}

// runDesign is the design whose grade values a run's settled grades are
// checked against (adjudication.CheckDesignValue).
func runDesign(in RunInput) campaign.Design {
	if in.SystemComparison {
		return campaign.DesignSystemComparison
	}
	return campaign.DesignFixedEvidence
}
