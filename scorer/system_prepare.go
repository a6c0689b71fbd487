package scorer

import (
	"io/fs"

	"verdict/campaign"
	"verdict/verr"
)

// PrepareSystemScoreInput is the campaign side of a system comparison's
// score input (CONTRACT §6), from a strictly loaded campaign, its files
// (for the frozen repository snapshot under sources/), the opaque bundled
// item of each answered review session (items: session → item) and the
// settled grades of those items:
//
//   - each task's obligations: the repository-answerable ones (the R_sys
//     denominator) and the separately frozen U set;
//   - each workflow's review, scored from its settled grades as a system
//     comparison's (RunInput.SystemComparison: a settled truthful_unknown
//     on a U-set obligation earns U credit; on a repository-answerable
//     obligation it is counted as a truthful unknown with U credit only,
//     never addressed, so the R_sys denominator stays the frozen
//     repository-answerable set; the settled grades are the only source
//     of that count); an investigation-stage failure (review not dispatched, or a packet that
//     is absent, empty or over the evidence budget) keeps its charges and
//     gets R_sys and U zero; a review without a valid answer is a valid
//     failure;
//   - packet-supported coverage from the delivered packet (PacketSupport);
//   - when the selected review is B, each answered review's ledger
//     refusal and ledger findings against its own packet (ValidateLedger):
//     each fails that review's protocol gate;
//   - each answered review's final-answer structural findings against
//     its own packet (ValidateFinal) and its citation findings
//     (CitationSupport) as its final findings: each fails the review's
//     source gate;
//   - the charges of both sessions from their receipts at the manifest's
//     price card, as the first experiment's accounting reads them;
//   - each cold setup at its attributable charge and its phases' monotonic
//     time, attributed to the setup record's workflow, and each fresh
//     server's startup in a workflow ("session-startup", time only).
//
// Preparation sessions are campaign-level charges, not a system's, and are
// left to the campaign ceilings. Prerequisites are the caller's.
func PrepareSystemScoreInput(c *campaign.SystemCampaign, fsys fs.FS, items map[string]string, grades []ConsensusGrade) (SystemScoreInput, error) {
	in := SystemScoreInput{CampaignID: c.Manifest.CampaignID, Synthetic: c.Manifest.Synthetic, Thresholds: ContractSystemThresholds()}
	card := c.Manifest.Execution.PriceCard
	byItem := map[string][]ConsensusGrade{}
	for _, g := range grades {
		byItem[g.Field.Item] = append(byItem[g.Field.Item], g)
	}
	for _, t := range c.Tasks {
		in.Tasks = append(in.Tasks, TaskInput{ID: t.Entry.ID, Repository: t.Entry.Repository, Obligations: t.Truth.TruthObligations()})
	}
	for _, w := range c.Workflows {
		wf := w.Workflow
		task := c.Task(wf.Task)
		if task == nil {
			return in, verr.Newf(ReasonUnexpectedGrade, "manifest.json", "/workflows", "CONTRACT §6", "workflow %s names unknown task %s", wf.ID, wf.Task)
		}
		account := func(s campaign.SystemSession) (SessionAccount, campaign.ReceiptStatus) {
			cs := &campaign.Session{ID: s.ID, Role: s.Role, Run: campaign.Run{Task: wf.Task, Repetition: wf.Repetition}, RawSHA256: s.RawSHA256, RawSize: s.RawSize}
			if s.Receipt != nil {
				cs.Receipt = &s.Receipt.Receipt
			}
			a := sessionAccount(cs, card)
			return a, a.Status
		}
		inv, _ := account(w.Investigation)
		rev, revStatus := account(w.Review)
		in0 := SystemWorkflowInput{SystemWorkflowKey: SystemWorkflowKey{ID: wf.ID, System: wf.System, Task: wf.Task, Repository: task.Entry.Repository, Repetition: wf.Repetition,
			Position: wf.Position}, InvestigationSession: w.Investigation.ID, Operations: inv.OrdinaryCalls + inv.MCPCalls,
			Investigation: SystemCharge{Cost: inv.Cost, Time: inv.Duration}, ReviewCharge: SystemCharge{Cost: rev.Cost, Time: rev.Duration},
			Review: RunInput{Task: wf.Task, Repetition: wf.Repetition, Arm: selectedArm(c), Session: w.Review.ID, PacketIdentityOK: true, SystemComparison: true}}
		switch {
		case revStatus == campaign.StatusNotDispatched || w.Packet == nil || w.Packet.Status != campaign.PacketDelivered:
			in0.Review.Outcome = OutcomeInvestigationFailure
			in0.Review.FailureKind = "investigation_failed"
			if w.Packet != nil && w.Packet.Status != campaign.PacketDelivered {
				in0.Review.FailureKind = w.Packet.Status
			}
			in0.PacketSupported = []string{}
		case !campaign.Answered(w.Review.Receipt.Inner(), w.Review.Response):
			in0.Review.Outcome = OutcomeValidFailure
			in0.Review.FailureKind = string(revStatus)
			if w.Review.Failure != nil {
				in0.Review.FailureKind = string(w.Review.Failure.Reason)
			}
		default:
			in0.Review.Outcome = OutcomeAnswered
			in0.Review.Final = &w.Review.Response.Final
			in0.Review.ReconciliationPresent = w.Review.Response.Reconciliation != nil
			if c.Manifest.SelectedReview == campaign.RoleReviewB {
				// B's ledger against this workflow's packet (CONTRACT §4
				// condition 4, §6): a refusal or a finding fails only this
				// review's protocol gate.
				if l := w.Review.LedgerFailure; l != nil {
					in0.Review.LedgerRefusal = string(l.Reason) + ":" + l.Pointer
				}
				for _, f := range ValidateLedger(w.Review.Response, packetEvidence(w.Packet), campaign.ResponsePath(w.Review.ID)) {
					in0.Review.ProtocolFindings = append(in0.Review.ProtocolFindings, string(f.Code)+":"+f.Pointer)
				}
			}
			in0.Review.Item = items[w.Review.ID]
			in0.Review.Grades = byItem[in0.Review.Item]
		}
		if in0.Review.Outcome != OutcomeInvestigationFailure {
			supported, err := PacketSupport(&task.Truth, w.Packet, RepositorySource(fsys, task.Entry.Repository))
			if err != nil {
				return in, err
			}
			in0.PacketSupported = supported
		}
		if in0.Review.Outcome == OutcomeAnswered {
			// The final answer's structural rules against this workflow's
			// packet, then its citations against the frozen repository
			// and the observations: each finding fails the source gate.
			for _, f := range workflowFinalFindings(w) {
				in0.Review.FinalFindings = append(in0.Review.FinalFindings, string(f.Code)+":"+f.Pointer)
			}
			found, err := workflowCitationFindings(c, fsys, w)
			if err != nil {
				return in, err
			}
			for _, f := range found {
				in0.Review.FinalFindings = append(in0.Review.FinalFindings, string(f.Reason)+":"+f.Pointer)
			}
		}
		in.Workflows = append(in.Workflows, in0)
	}
	for _, s := range c.Setup.Cold {
		cost := Unknown[PicoUSD](ReasonActualChargeUnattributed)
		if s.ChargeMicroUSD != nil {
			cost = MicroUSD(*s.ChargeMicroUSD)
		}
		for _, p := range s.Phases {
			in.Setup = append(in.Setup, SetupCharge{System: s.System, Repository: s.Repository, Workflow: s.Workflow, Kind: p.Phase,
				SystemCharge: SystemCharge{Cost: cost, Time: phaseTime(p)}})
			cost = Of[PicoUSD](0) // the charge is the cold setup's, once
		}
	}
	for _, s := range c.Setup.SessionStartup {
		sys, repo := workflowSystem(c, s.Workflow)
		for _, p := range s.Phases {
			in.Setup = append(in.Setup, SetupCharge{System: sys, Repository: repo, Workflow: s.Workflow, Kind: "session-startup:" + p.Phase,
				SystemCharge: SystemCharge{Cost: Of[PicoUSD](0), Time: phaseTime(p)}})
		}
	}
	return in, nil
}

// phaseTime is a setup phase's monotonic duration, unknown when its
// readings are out of order.
func phaseTime(p campaign.SetupPhase) Nanos {
	if p.EndMonotonicNS < p.StartMonotonicNS {
		return Unknown[Nanosecond](ReasonTimeMissing)
	}
	return Of[Nanosecond](p.EndMonotonicNS - p.StartMonotonicNS)
}

// workflowSystem returns the system and repository of workflow id.
func workflowSystem(c *campaign.SystemCampaign, id string) (campaign.SystemName, string) {
	for _, w := range c.Workflows {
		if w.Workflow.ID == id {
			if t := c.Task(w.Workflow.Task); t != nil {
				return w.Workflow.System, t.Entry.Repository
			}
			return w.Workflow.System, ""
		}
	}
	return "", ""
}

// selectedArm is the review protocol the first experiment selected: B's
// reconciliation review (its protocol gate applies) or A's ordinary one.
func selectedArm(c *campaign.SystemCampaign) Arm {
	if c.Manifest.SelectedReview == campaign.RoleReviewB {
		return ArmB
	}
	return ArmA
}

// packetEvidence is the E IDs of a delivered raw-observation packet, in
// packet order; none for an absent or undelivered packet.
func packetEvidence(p *campaign.ObservationPacket) []string {
	out := []string{}
	if p == nil || p.Status != campaign.PacketDelivered {
		return out
	}
	for _, it := range p.Items {
		out = append(out, it.ID)
	}
	return out
}
