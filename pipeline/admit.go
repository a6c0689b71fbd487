package pipeline

import (
	"errors"
	"io/fs"
	"sync"

	"verdict/campaign"
	"verdict/scorer"
	"verdict/verr"
)

// Admission is every admission rule evaluated on one loaded campaign
// (CONTRACT §2–§5; EVALUATOR-CONTROLS C14, C15, C17, C18, C20, C23): what
// `verdict check` lists under admission and `verdict admit` prints.
type Admission struct {
	// MissingIdentities names every execution identity the manifest leaves
	// unset (CONTRACT §7); nil when none is missing.
	MissingIdentities []string
	// Manifest are the manifest admission violations.
	Manifest []*verr.Error
	// Validity is the execution validity of the recorded sessions.
	Validity scorer.ValidityReport
	// Ceilings are the contract's inclusive campaign ceilings and Consumed
	// the recorded consumption counted against them.
	Ceilings, Consumed scorer.Budget
	// CeilingsExceeded names every ceiling the recorded consumption
	// already exceeds.
	CeilingsExceeded []*verr.Error
	// NextDispatch is the decision for one more worst-case session
	// (EVALUATOR-CONTROLS C18).
	NextDispatch scorer.DispatchDecision
	// Accounting is the campaign's accounting report; its Gates are the
	// cost-and-time scorecard gates (CONTRACT §4; C14, C20), decided by
	// score and not part of admission.
	Accounting scorer.AccountingReport
	// Replay is the replay of a planned dispatch sequence (Admit with a
	// plan), nil without one.
	Replay *scorer.AdmissionReplay
}

// Admitted reports whether the campaign is admitted: no identity is
// missing, the manifest design is admitted, execution is valid and no
// ceiling is exceeded, and no session is planned but not started (a
// campaign in progress is not admitted for scoring).
func (a *Admission) Admitted() bool {
	return len(a.MissingIdentities) == 0 && len(a.Manifest) == 0 && a.Validity.Valid && len(a.CeilingsExceeded) == 0 && len(a.Validity.Planned) == 0
}

// Failures lists the admission failures of `verdict check` in their fixed
// order: manifest admission, exceeded ceilings, execution validity
// findings, and last campaign-incomplete when sessions are planned but
// not started.
func (a *Admission) Failures() []*verr.Error {
	var out []*verr.Error
	out = append(out, a.Manifest...)
	out = append(out, a.CeilingsExceeded...)
	for _, f := range a.Validity.Findings {
		out = append(out, f.Error())
	}
	if e := scorer.IncompleteError(a.Validity.Planned); e != nil {
		out = append(out, e)
	}
	return out
}

// nextDispatch is the worst-case dispatch whose admission check and admit
// report: a budget probe (scorer.Dispatch.Probe) shaped as the first
// session of the design's first workflow (the fixed-evidence draft) of the
// first task's first repetition.
func nextDispatch(c campaign.Loaded, sh scorer.Shape) scorer.Dispatch {
	next := scorer.Dispatch{ID: "P1", Role: sh.Workflows[0].Roles[0], Repetition: 1, Probe: true}
	if f, ok := c.(*campaign.Campaign); ok && len(f.Manifest.Tasks) > 0 {
		next.Task = f.Manifest.Tasks[0].ID
	}
	return next
}

// Admit evaluates every admission rule of the loaded campaign c through
// its design (scorer.DesignOf) and, with a plan, replays its planned
// dispatches against the remaining ceilings (scorer.Design.Replay). The
// accounting report and the execution validity are made once and shared
// by the ceilings, the next-dispatch decision and the replay; the
// independent parts run side by side. A design this build does not score
// is the one manifest failure (campaign.ReasonDesignUnknown).
func Admit(c campaign.Loaded, plan *scorer.Plan) *Admission {
	a := &Admission{}
	d, err := scorer.DesignOf(c)
	if err != nil {
		var e *verr.Error
		if !errors.As(err, &e) {
			e = &verr.Error{Reason: campaign.ReasonDesign, File: campaign.ManifestFile, Pointer: "/design", Rule: scorer.RuleDesign, Detail: err.Error()}
		}
		a.Manifest = []*verr.Error{e}
		return a
	}
	a.MissingIdentities = d.MissingIdentities(c)
	sh := d.Shape()
	a.Ceilings = sh.Ceilings
	var wg sync.WaitGroup
	wg.Go(func() {
		a.Manifest = d.ManifestAdmission(c)
		a.Validity = d.Validity(c)
	})
	wg.Go(func() { a.Accounting = d.Accounting(c) })
	wg.Wait()
	next := d.Replay(c, a.Accounting, a.Validity, scorer.Budget{}, []scorer.Dispatch{nextDispatch(c, sh)})
	a.Consumed = next.Recorded
	a.CeilingsExceeded = scorer.ExceededCeilings(sh.Ceilings, next.Recorded, sh.CeilingsRule)
	if len(next.Decisions) == 1 {
		a.NextDispatch = next.Decisions[0]
	}
	if plan != nil {
		r := d.Replay(c, a.Accounting, a.Validity, plan.Prior, plan.Dispatches)
		a.Replay = &r
	}
	return a
}

// AdmitResult is the admission of a campaign on disk: either the strict
// loader's refusals (Admission nil) or the admission of the loaded
// campaign.
type AdmitResult struct {
	// Design is the campaign's design (empty when the manifest names none
	// this build scores).
	Design campaign.Design
	// Synthetic is the manifest's synthetic flag (false when refused).
	Synthetic bool
	// Refusals are the strict loader's refusals, flattened.
	Refusals []error
	// MissingIdentities are the missing execution identities: of the
	// loaded manifest, or of the refused manifest read leniently.
	MissingIdentities []string
	// Admission is nil when the campaign was refused.
	Admission *Admission
	// Replay is the replay of the plan (nil without a plan); for a refused
	// campaign every planned dispatch is refused (scorer.RefuseAll).
	Replay *scorer.AdmissionReplay
}

// AdmitDir loads the campaign in directory dir (LoadDir) and admits it
// with plan (nil for none). A campaign the strict loader refuses refuses
// every planned dispatch.
func AdmitDir(dir string, plan *scorer.Plan) *AdmitResult {
	c, d, err := LoadDesign(dir)
	if err != nil {
		out := &AdmitResult{Refusals: verr.Flatten(err)}
		ceilings := scorer.ContractCeilings()
		if d != nil {
			out.Design, ceilings = d.Shape().Name, d.Shape().Ceilings
		}
		_, out.MissingIdentities = missingIdentitiesRaw(DirFS(dir))
		if plan != nil {
			r := scorer.RefuseAll(plan.Dispatches, plan.Prior, ceilings, out.MissingIdentities, "the campaign was refused by the strict loader")
			out.Replay = &r
		}
		return out
	}
	a := Admit(c, plan)
	return &AdmitResult{Design: c.Design(), Synthetic: c.Synthetic(), MissingIdentities: a.MissingIdentities, Admission: a, Replay: a.Replay}
}

// AdmissionFailures are the admission failures of the loaded campaign c
// of either design, exactly the list `verdict check` prints under
// "admission failures" without a previous round (Admit(c, nil).Failures());
// none when c is admitted. The commands that go on with a campaign that is
// not admitted (blind, reveal --campaign, export) use it to say so.
func AdmissionFailures(c campaign.Loaded) []*verr.Error {
	return Admit(c, nil).Failures()
}

// AdmissionFailuresOf strictly loads the campaign fsys of either design
// (its design's loader) and returns its AdmissionFailures; the strict
// loader's refusal (a *verr.Error
// or a join of them) when it does not load.
func AdmissionFailuresOf(fsys fs.FS) ([]*verr.Error, error) {
	l, _, err := loadDesign(fsys, campaign.LoadOptions{})
	if err != nil {
		return nil, err
	}
	return AdmissionFailures(l), nil
}
