package pipeline

import (
	"io/fs"

	"verdict/campaign"
	"verdict/scorer"
	"verdict/verr"
)

// SystemCheck is the check of a system-comparison campaign (CONTRACT §6):
// its strict load and its admission (Admit through the design), with each
// workflow against its own ceilings.
type SystemCheck struct {
	// Campaign is nil when the load refused the campaign (Refusals).
	Campaign *campaign.SystemCampaign
	Refusals []error
	// Admission is the campaign's admission (Admit), nil when refused.
	Admission *Admission
	// Limits is every workflow against its per-workflow and per-session
	// ceilings (an exceeded one is a valid failure of that workflow).
	Limits []scorer.SystemWorkflowLimit
	// Ceilings, Consumed and CeilingsExceeded are the global allowance
	// (Admission's).
	Ceilings         scorer.Budget
	Consumed         scorer.Budget
	CeilingsExceeded []*verr.Error
	// MissingIdentities, DeliveredIdentity (the design's manifest
	// admission) and Receipts (its execution validity findings) are the
	// admission findings: any one stops admission.
	MissingIdentities []string
	DeliveredIdentity []*verr.Error
	Receipts          []*verr.Error
	// NextDispatch is the decision for one more worst-case investigation.
	NextDispatch scorer.DispatchDecision
	// FinalFindings are the structural findings of the answered reviews'
	// final answers against each workflow's own packet
	// (scorer.SystemFinalFindings) and Citations their citation findings
	// (scorer.SystemCitationFindings): not admission findings, each fails
	// its review's source gate when the campaign is scored (CONTRACT §6).
	FinalFindings []scorer.Finding
	Citations     []*verr.Error
	// LedgerRefusals are the review-B ledgers the strict loader refused
	// (missing, null or malformed) beside a valid final answer, and
	// LedgerFindings the structural findings of the decoded ones against
	// each workflow's own packet (scorer.SystemLedgerFindings): not
	// admission findings, each fails its review's protocol gate when the
	// campaign is scored (CONTRACT §4 condition 4, §6). Both empty when
	// the selected review is A.
	LedgerRefusals []*verr.Error
	LedgerFindings []scorer.Finding
}

// Admitted reports whether the campaign loaded and its admission admits
// it: no identity is missing or contradicted, every receipt matches what
// it describes and no global ceiling is exceeded.
func (s *SystemCheck) Admitted() bool {
	return s.Campaign != nil && len(s.Refusals) == 0 && s.Admission.Admitted()
}

// CheckSystem is the check of the system-comparison campaign at fsys:
// Check's load (its design's loader) and systemCheckOf.
func CheckSystem(fsys fs.FS) *SystemCheck {
	l, _, err := loadDesign(fsys, campaign.LoadOptions{})
	return systemCheckOf(l, err)
}

// systemCheckOf is the SystemCheck of a system-comparison campaign loaded
// (l) or refused (err) by its design's loader: Admit, the workflow
// limits (scorer.SystemWorkflowLimits), the final-answer structural
// findings and citation findings of every answered review
// (scorer.SystemFinalFindings, scorer.SystemCitationFindings) and its
// review-B ledger refusals and findings (scorer.SystemLedgerFindings);
// none is an admission finding.
func systemCheckOf(l campaign.Loaded, err error) *SystemCheck {
	out := &SystemCheck{Ceilings: scorer.SystemCeilings()}
	if err != nil {
		out.Refusals = verr.Flatten(err)
		return out
	}
	s, ok := l.(*scorer.SystemLoaded)
	if !ok {
		out.Refusals = []error{&verr.Error{Reason: campaign.ReasonDesign, File: campaign.ManifestFile, Pointer: "/design", Rule: scorer.RuleDesign,
			Detail: "design " + string(l.Design()) + " is not a system comparison"}}
		return out
	}
	a := Admit(l, nil)
	out.Campaign, out.Admission = s.SystemCampaign, a
	out.Limits = scorer.SystemWorkflowLimits(s.SystemCampaign)
	out.Ceilings, out.Consumed, out.CeilingsExceeded = a.Ceilings, a.Consumed, a.CeilingsExceeded
	out.MissingIdentities, out.DeliveredIdentity, out.NextDispatch = a.MissingIdentities, a.Manifest, a.NextDispatch
	for _, f := range a.Validity.Findings {
		out.Receipts = append(out.Receipts, f.Error())
	}
	out.FinalFindings = scorer.SystemFinalFindings(s.SystemCampaign)
	out.LedgerFindings, out.LedgerRefusals = scorer.SystemLedgerFindings(s.SystemCampaign)
	if out.Citations, err = scorer.SystemCitationFindings(s.SystemCampaign, s.FS); err != nil {
		out.Refusals = verr.Flatten(err)
	}
	return out
}
