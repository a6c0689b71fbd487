package pipeline

import (
	"io/fs"

	"verdict/campaign"
	"verdict/scorer"
	"verdict/verr"
)

// SystemCheck is the check of a system-comparison campaign (CONTRACT §6):
// its strict load and its admission.
type SystemCheck struct {
	// Campaign is nil when the load refused the campaign (Refusals).
	Campaign *campaign.SystemCampaign
	Refusals []error
	// Limits is every workflow against its per-workflow and per-session
	// ceilings (an exceeded one is a valid failure of that workflow).
	Limits []scorer.SystemWorkflowLimit
	// Ceilings, Consumed and CeilingsExceeded are the global allowance.
	Ceilings         scorer.Budget
	Consumed         scorer.Budget
	CeilingsExceeded []*verr.Error
	// MissingIdentities, DeliveredIdentity and Receipts are the admission
	// findings: any one stops admission.
	MissingIdentities []string
	DeliveredIdentity []*verr.Error
	Receipts          []*verr.Error
	// NextDispatch is the decision for one more worst-case investigation.
	NextDispatch scorer.DispatchDecision
}

// Admitted reports whether the campaign loaded, no identity is missing or
// contradicted, every receipt matches what it describes and no global
// ceiling is exceeded.
func (s *SystemCheck) Admitted() bool {
	return s.Campaign != nil && len(s.MissingIdentities) == 0 && len(s.DeliveredIdentity) == 0 && len(s.Receipts) == 0 && len(s.CeilingsExceeded) == 0
}

// CheckSystem strictly loads the system-comparison campaign at fsys
// (campaign.LoadSystemComparison) and, when it loads, makes its admission:
// workflow limits, global consumption against SystemCeilings (setup
// included), missing and delivered identities, receipts against the
// prompts and files they describe, and the worst-case probe.
func CheckSystem(fsys fs.FS) *SystemCheck {
	out := &SystemCheck{Ceilings: scorer.SystemCeilings()}
	c, err := campaign.LoadSystemComparison(fsys)
	if err != nil {
		out.Refusals = verr.Flatten(err)
		return out
	}
	out.Campaign = c
	out.Limits = scorer.SystemWorkflowLimits(c)
	out.Consumed, _ = scorer.SystemConsumed(c)
	out.CeilingsExceeded = scorer.SystemCeilingFindings(c)
	out.MissingIdentities = scorer.SystemMissingIdentities(&c.Manifest)
	out.DeliveredIdentity = scorer.DeliveredIdentityFindings(c)
	digests := map[string]string{}
	for _, f := range c.Manifest.Files {
		digests[f.Path] = f.SHA256
	}
	out.Receipts = scorer.SystemReceiptFindings(c, func(w string) string { return digests[campaign.PacketFile(w)] })
	probe := scorer.AdmitSystems(c, scorer.Budget{}, []scorer.SystemDispatch{{ID: "probe", Role: campaign.RoleInvestigation, Probe: true}})
	out.NextDispatch = probe.Decisions[0]
	return out
}
