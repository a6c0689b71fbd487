package scorer

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"verdict/campaign"
	"verdict/verr"
)

// ItemBinding unblinds one bundled item: the opaque item ID and the review
// session it hides (from the sealed unblinding map, after the reveal).
type ItemBinding struct {
	Item    string `json:"item"`
	Session string `json:"session"`
}

// Reason codes of joining grades to a campaign.
const (
	// ReasonUnboundItem: a graded answered review has no bundled item, or a
	// bound item names no review session of the campaign.
	ReasonUnboundItem verr.Reason = "unbound-item"
)

// Prerequisite IDs produced by BuildScoreInput.
const (
	PrereqExecutionValidity = "execution-validity"
	PrereqManifestAdmission = "manifest-admission"
	PrereqCampaignCeilings  = "campaign-ceilings"
)

// BuildScoreInput joins a loaded campaign with the settled grades of its
// bundled items into Evaluate's input: every compared review session
// becomes a RunInput (answered, valid failure C16, or shared-draft failure
// C23), with its structural findings (ValidateCampaign), packet identity,
// and the grades of its item; the accounting report and the execution
// prerequisites (ExecutionValidity, ManifestAdmission, CeilingFindings) are
// attached. It refuses with ReasonUnboundItem when an answered review has no
// item, or an item names no review of the campaign. It is
// PrepareScoreInput followed by PreparedInput.Join.
func BuildScoreInput(c *campaign.Campaign, bindings []ItemBinding, grades []ConsensusGrade) (ScoreInput, []Finding, error) {
	p, findings := PrepareScoreInput(c)
	in, err := p.Join(bindings, grades)
	return in, findings, err
}

// PreparedInput is the campaign's side of a ScoreInput: everything
// BuildScoreInput computes before it joins grades (runs, findings,
// packet identity, accounting, prerequisites). It holds no reference to
// the campaign: an answered run keeps only the IDs of its final answer's
// claims and exclusions and the number of its citations (all Evaluate
// reads of it), so a caller may drop the loaded campaign (tens of
// megabytes for 10,000 sessions) before it reads the rating records.
type PreparedInput struct {
	in       ScoreInput
	answered []int // indices of answered runs in in.Runs, in run order
	// unscored are review sessions whose decoded answer is not scored: a
	// valid scored failure past a per-session bound, or a review of a
	// replaced (superseded) triplet. A bundle may hold them; their grades
	// are ignored, not stray.
	unscored map[string]bool
	// system is the system comparison's campaign (its design's Prepare),
	// nil for fixed evidence: Join then builds in.Systems
	// (PrepareSystemScoreInput).
	system *SystemLoaded
}

// PrepareScoreInput computes the campaign's side of BuildScoreInput and
// the campaign's structural findings (ValidateCampaign), once; Join adds
// the grades. A RunInput it prepares has Final set to a copy holding the
// claim and exclusion IDs and one empty citation per citation, never the
// answer's text (RunInput.Final is not part of any report).
func PrepareScoreInput(c *campaign.Campaign) (*PreparedInput, []Finding) {
	m := &c.Manifest
	p := &PreparedInput{in: ScoreInput{CampaignID: m.CampaignID, Synthetic: m.Synthetic, Phase: m.Phase}, unscored: map[string]bool{}}
	in := &p.in
	for _, t := range c.Tasks {
		in.Tasks = append(in.Tasks, TaskInput{ID: t.Entry.ID, Repository: t.Entry.Repository, Category: t.Entry.Category, Obligations: t.Truth.Obligations})
	}
	// The answers' structural checks and the accounting read the campaign
	// only; they run beside execution validity.
	var findings []Finding
	var acct AccountingReport
	var wg sync.WaitGroup
	wg.Go(func() { findings = ValidateCampaign(c) })
	wg.Go(func() { acct = Accounting(c) })
	v := ExecutionValidity(c)
	wg.Wait()
	byFile := map[string][]Finding{}
	for _, f := range findings {
		byFile[f.File] = append(byFile[f.File], f)
	}
	digest := map[string]string{}
	for _, f := range m.Files {
		digest[f.Path] = f.SHA256
	}
	byRun := sessionsByRun(c)
	compared, superseded := comparedRuns(m)
	for i := range superseded {
		p.unscored[m.Runs[i].Sessions.ReviewA], p.unscored[m.Runs[i].Sessions.ReviewB] = true, true
	}
	// Execution validity classifies every outcome once: a response past a
	// per-session bound is a valid scored failure (CONTRACT §4).
	bound := map[string]ScoredFailure{}
	for _, f := range v.ScoredFailures {
		bound[f.Session] = f
	}
	for _, i := range compared {
		run := m.Runs[i]
		for j, arm := range []Arm{ArmA, ArmB} {
			s := byRun[i][j+1]
			id := [2]string{run.Sessions.ReviewA, run.Sessions.ReviewB}[j]
			ri := RunInput{Task: run.Task, Repetition: run.Repetition, Order: run.Order, Arm: arm, Session: id}
			switch {
			case s == nil || s.Receipt == nil:
				// An invalid execution (C15): ExecutionValidity names it. Score
				// the review as failed so no denominator shrinks.
				ri.Outcome, ri.FailureKind = OutcomeValidFailure, string(ReasonMissingTerminalReceipt)
			case s.Receipt.Status == campaign.StatusNotDispatched:
				ri.Outcome, ri.FailureKind = OutcomeSharedDraftFailure, string(campaign.ErrorSharedDraft)
			case !campaign.Answered(s.Receipt, s.Response):
				ri.Outcome = OutcomeValidFailure
				switch {
				case s.Receipt.ErrorKind != nil:
					ri.FailureKind = string(*s.Receipt.ErrorKind)
				case s.Failure != nil:
					ri.FailureKind = string(s.Failure.Reason)
				default:
					ri.FailureKind = string(campaign.ErrorMalformed)
				}
			case bound[id].Kind == campaign.ErrorTimeout || bound[id].Kind == campaign.ErrorBudget:
				// A decoded answer past a bound: timeout or budget
				// exhaustion, scored as a failure; its item's grades (if
				// it was bundled) are not used.
				ri.Outcome, ri.FailureKind = OutcomeValidFailure, string(bound[id].Kind)
				p.unscored[id] = true
			default:
				ri.Outcome = OutcomeAnswered
				ri.Final = scoredFinal(&s.Response.Final)
				ri.ReconciliationPresent = s.Response.Reconciliation != nil
				if l := s.LedgerFailure; l != nil {
					ri.LedgerRefusal = string(l.Reason) + ":" + l.Pointer
				}
				want := digest[campaign.PacketPath(run.Task)]
				ri.PacketIdentityOK = s.Receipt.PacketSHA256 != nil && want != "" && *s.Receipt.PacketSHA256 == want
				for _, f := range byFile[campaign.ResponsePath(id)] {
					label := string(f.Code) + ":" + f.Pointer
					if f.Scope == ScopeProtocol {
						ri.ProtocolFindings = append(ri.ProtocolFindings, label)
					} else {
						ri.FinalFindings = append(ri.FinalFindings, label)
					}
				}
				p.answered = append(p.answered, len(in.Runs))
			}
			in.Runs = append(in.Runs, ri)
		}
	}
	in.Accounting = &acct
	in.Prerequisites = append(in.Prerequisites, Prerequisite{ID: PrereqExecutionValidity, OK: v.Valid, Detail: validityDetail(v)})
	adm := ManifestAdmission(c)
	in.Prerequisites = append(in.Prerequisites, Prerequisite{ID: PrereqManifestAdmission, OK: len(adm) == 0, Detail: errorsDetail(adm, "manifest admitted")})
	ceil := CeilingFindingsWith(c, acct) // the same report, not a second one
	in.Prerequisites = append(in.Prerequisites, Prerequisite{ID: PrereqCampaignCeilings, OK: len(ceil) == 0, Detail: errorsDetail(ceil, "within every campaign ceiling")})
	return p, findings
}

// scoredFinal copies what Evaluate reads of a final answer: the claim and
// exclusion IDs and the number of citations.
func scoredFinal(f *campaign.Final) *campaign.Final {
	out := &campaign.Final{Claims: make([]campaign.Claim, len(f.Claims)), Citations: make([]campaign.Citation, len(f.Citations)), Exclusions: make([]campaign.Exclusion, len(f.Exclusions))}
	for i, c := range f.Claims {
		out.Claims[i].ID = c.ID
	}
	for i, x := range f.Exclusions {
		out.Exclusions[i].ID = x.ID
	}
	return out
}

// Join binds the settled grades to the prepared runs and returns Evaluate's
// input: each answered run gets its item (from bindings, the sealed map's
// review items) and that item's grades. It refuses with ReasonUnboundItem
// when an answered review has no item (the first in run order), or a
// graded item is bound to no answered compared review. The returned
// ScoreInput shares the prepared runs: call Join once.
func (p *PreparedInput) Join(bindings []ItemBinding, grades []ConsensusGrade) (ScoreInput, error) {
	in := p.in
	if p.system != nil {
		return p.joinSystem(bindings, grades)
	}
	itemOf := map[string]string{}
	for _, b := range bindings {
		itemOf[b.Session] = b.Item
	}
	gradesOf := gradesByItem(grades)
	used := map[string]bool{}
	for _, i := range p.answered {
		ri := &in.Runs[i]
		item, ok := itemOf[ri.Session]
		if !ok {
			return in, &verr.Error{Reason: ReasonUnboundItem, File: campaign.ResponsePath(ri.Session), Rule: "CONTRACT §5 blinded quality review",
				Detail: fmt.Sprintf("answered %s review %s has no bundled item in the unblinding map", ri.Arm, ri.Session)}
		}
		used[item] = true
		ri.Item = item
		ri.Grades = gradesOf[item]
	}
	var stray []string
	bound := make(map[string]bool, len(bindings))
	for _, b := range bindings {
		bound[b.Item] = true
	}
	for _, b := range bindings {
		if !used[b.Item] && len(gradesOf[b.Item]) > 0 && !p.unscored[b.Session] {
			stray = append(stray, b.Item+"→"+b.Session)
		}
	}
	for item := range gradesOf {
		if !bound[item] {
			stray = append(stray, item+"→(no session)")
		}
	}
	if len(stray) > 0 {
		return in, strayItems(stray, "CONTRACT §5 blinded quality review", "answered compared review")
	}
	return in, nil
}

// strayItems is the refusal (ReasonUnboundItem) of graded items bound to
// no scored review (what names the reviews), listed sorted.
func strayItems(stray []string, rule, what string) *verr.Error {
	slices.Sort(stray)
	return &verr.Error{Reason: ReasonUnboundItem, Rule: rule, Detail: "graded item(s) bound to no " + what + ": " + strings.Join(stray, ", ")}
}

// gradesByItem groups grades by item, each group in input order. Consensus
// output holds each item's grades together, so each group is a capped
// sub-slice of grades (no copy of hundreds of thousands of grades); when
// an item's grades are not contiguous, the groups come from a stable sort
// of a copy.
func gradesByItem(grades []ConsensusGrade) map[string][]ConsensusGrade {
	out := map[string][]ConsensusGrade{}
	for i := 0; i < len(grades); {
		item := grades[i].Field.Item
		if _, seen := out[item]; seen {
			sorted := slices.Clone(grades)
			slices.SortStableFunc(sorted, func(a, b ConsensusGrade) int { return strings.Compare(a.Field.Item, b.Field.Item) })
			return gradesByItem(sorted)
		}
		j := i + 1
		for j < len(grades) && grades[j].Field.Item == item {
			j++
		}
		out[item] = grades[i:j:j]
		i = j
	}
	return out
}

func validityDetail(v ValidityReport) string {
	if v.Valid {
		return fmt.Sprintf("every session has a terminal receipt and the delivered identities; %d invalid triplet(s), %d replacement(s), %d valid scored failure(s)",
			v.InvalidTriplets, v.ReplacementTriplets, len(v.ScoredFailures))
	}
	var parts []string
	for _, f := range v.Findings {
		loc := f.File
		if f.Pointer != "" {
			loc += "#" + f.Pointer
		}
		if f.Session != "" {
			parts = append(parts, fmt.Sprintf("%s %s (%s)", f.Reason, f.Session, loc))
		} else {
			parts = append(parts, fmt.Sprintf("%s (%s)", f.Reason, loc))
		}
	}
	if v.Stopped {
		parts = append([]string{"campaign stopped after a second invalid triplet"}, parts...)
	}
	return strings.Join(parts, "; ")
}

func errorsDetail(errs []*verr.Error, ok string) string {
	if len(errs) == 0 {
		return ok
	}
	parts := make([]string, len(errs))
	for i, e := range errs {
		parts[i] = e.Error()
	}
	return strings.Join(parts, "; ")
}

// joinSystem is Join for a system comparison (CONTRACT §6): every bound
// review item and its settled grades go to PrepareSystemScoreInput; a
// graded item bound to no review of the sealed map is refused
// (ReasonUnboundItem), as for fixed evidence.
func (p *PreparedInput) joinSystem(bindings []ItemBinding, grades []ConsensusGrade) (ScoreInput, error) {
	in := p.in
	items := map[string]string{}
	bound := map[string]bool{}
	for _, b := range bindings {
		items[b.Session] = b.Item
		bound[b.Item] = true
	}
	var stray []string
	for item := range gradesByItem(grades) {
		if !bound[item] {
			stray = append(stray, item+"→(no session)")
		}
	}
	if len(stray) > 0 {
		return in, strayItems(stray, "CONTRACT §6 blinded quality review", "review of the system comparison")
	}
	sys, err := PrepareSystemScoreInput(p.system.SystemCampaign, p.system.FS, items, grades)
	if err != nil {
		return in, err
	}
	in.Systems = &sys
	return in, nil
}
