package main

import (
	"fmt"
	"io"
	"strings"

	"verdict/campaign"
	"verdict/pipeline"
	"verdict/scorer"
	"verdict/verr"
)

// systemCheckReport is what `verdict check` prints for a system-comparison
// campaign (CONTRACT §6): counts, the system schemas' digests, refusals,
// each workflow against its ceilings, the global consumption and the
// admission findings.
type systemCheckReport struct {
	Notice          string                  `json:"notice,omitempty"`
	Synthetic       bool                    `json:"synthetic"`
	Campaign        string                  `json:"campaign"`
	Design          campaign.Design         `json:"design"`
	CampaignID      string                  `json:"campaign_id"`
	ContractVersion string                  `json:"contract_version"`
	Admitted        bool                    `json:"admitted"`
	Schemas         []campaign.SchemaDigest `json:"schemas"`
	Counts          *systemCheckCounts      `json:"counts"`
	Refusals        []verr.Problem          `json:"refusals"`
	// WorkflowLimits lists only the workflows over a ceiling: valid
	// failures of those workflows, not admission failures.
	WorkflowLimits    []scorer.SystemWorkflowLimit `json:"workflow_limits_exceeded"`
	Ceilings          scorer.Budget                `json:"ceilings"`
	Consumed          scorer.Budget                `json:"consumed"`
	Admission         []verr.Problem               `json:"admission"`
	MissingIdentities []string                     `json:"missing_identities"`
	NextDispatch      *scorer.DispatchDecision     `json:"next_dispatch"`
	// FinalFindings are the answered reviews' final-answer structural
	// findings against their workflow's packet and Citations their
	// citation findings: scored failures (each fails its review's source
	// gate), not admission findings.
	FinalFindings []scorer.Finding `json:"final_findings"`
	Citations     []verr.Problem   `json:"citation_findings"`
	// LedgerRefusals are review-B ledgers refused beside a valid final
	// answer and LedgerFindings the structural findings of the others
	// against their workflow's packet: scored failures (each fails its
	// review's protocol gate), not admission findings; empty when the
	// selected review is A.
	LedgerRefusals []verr.Problem   `json:"ledger_refusals"`
	LedgerFindings []scorer.Finding `json:"ledger_findings"`
}

// systemCheckCounts are a loaded system comparison's counts.
type systemCheckCounts struct {
	Tasks                  int `json:"tasks"`
	Workflows              int `json:"workflows"`
	Sessions               int `json:"sessions"`
	PacketsDelivered       int `json:"packets_delivered"`
	PacketsEmpty           int `json:"packets_empty"`
	EvidenceBudgetExceeded int `json:"evidence_budget_exceeded"`
	EvidenceItems          int `json:"evidence_items"`
	SetupOverheadCalls     int `json:"setup_overhead_calls"`
	ReviewsValid           int `json:"reviews_valid"`
	ReviewsFailed          int `json:"reviews_failed"`
}

// buildSystemCheckReport is the report of the system check ch.
func buildSystemCheckReport(ch *pipeline.SystemCheck, name string) *systemCheckReport {
	rep := &systemCheckReport{Campaign: name, Design: campaign.DesignSystemComparison, Schemas: campaign.SystemSchemaDigests(), Refusals: []verr.Problem{},
		WorkflowLimits: []scorer.SystemWorkflowLimit{}, Ceilings: ch.Ceilings, Admission: []verr.Problem{}, MissingIdentities: []string{}, FinalFindings: []scorer.Finding{}, Citations: []verr.Problem{},
		LedgerRefusals: []verr.Problem{}, LedgerFindings: []scorer.Finding{}}
	for _, e := range ch.Refusals {
		rep.Refusals = append(rep.Refusals, verr.ProblemOf(e))
	}
	c := ch.Campaign
	if c == nil {
		return rep
	}
	m := c.Manifest
	rep.Synthetic, rep.CampaignID, rep.ContractVersion, rep.Notice = m.Synthetic, m.CampaignID, m.ContractVersion, syntheticNotice(m.Synthetic)
	n := &systemCheckCounts{Tasks: len(c.Tasks), Workflows: len(c.Workflows), Sessions: 2 * len(c.Workflows)}
	for _, w := range c.Workflows {
		if p := w.Packet; p != nil {
			switch p.Status {
			case campaign.PacketDelivered:
				n.PacketsDelivered++
			case campaign.PacketEmpty:
				n.PacketsEmpty++
			case campaign.PacketEvidenceBudgetExceeded:
				n.EvidenceBudgetExceeded++
			}
			n.EvidenceItems += len(p.Items)
			n.SetupOverheadCalls += len(p.SetupOverhead)
		}
		switch {
		case w.Review.Response != nil:
			n.ReviewsValid++
		case w.Review.Failure != nil:
			n.ReviewsFailed++
		}
	}
	rep.Counts = n
	for _, l := range ch.Limits {
		if len(l.Exceeded) > 0 {
			rep.WorkflowLimits = append(rep.WorkflowLimits, l)
		}
	}
	rep.Consumed = ch.Consumed
	for _, es := range [][]*verr.Error{ch.DeliveredIdentity, ch.Receipts, ch.CeilingsExceeded} {
		for _, e := range es {
			rep.Admission = append(rep.Admission, verr.ProblemOf(e))
		}
	}
	if ch.MissingIdentities != nil {
		rep.MissingIdentities = ch.MissingIdentities
	}
	if ch.FinalFindings != nil {
		rep.FinalFindings = ch.FinalFindings
	}
	for _, e := range ch.Citations {
		rep.Citations = append(rep.Citations, verr.ProblemOf(e))
	}
	for _, e := range ch.LedgerRefusals {
		rep.LedgerRefusals = append(rep.LedgerRefusals, verr.ProblemOf(e))
	}
	if ch.LedgerFindings != nil {
		rep.LedgerFindings = ch.LedgerFindings
	}
	rep.NextDispatch = &ch.NextDispatch
	rep.Admitted = ch.Admitted()
	return rep
}

// summary names what decided a refusal.
func (r *systemCheckReport) summary() string {
	switch {
	case len(r.Refusals) > 0:
		return fmt.Sprintf("%d refusals", len(r.Refusals))
	case len(r.MissingIdentities) > 0:
		return fmt.Sprintf("%d missing identities", len(r.MissingIdentities))
	}
	return fmt.Sprintf("%d admission findings", len(r.Admission))
}

func (r *systemCheckReport) writeText(w io.Writer) error {
	var b strings.Builder
	if r.Synthetic {
		b.WriteString("SYNTHETIC campaign: inert synthetic inputs, not a real experiment\n")
	}
	fmt.Fprintf(&b, "campaign %s (%s), design %s, contract %s\n", r.Campaign, orUnknown(r.CampaignID), r.Design, orUnknown(r.ContractVersion))
	if n := r.Counts; n != nil {
		fmt.Fprintf(&b, "counts: %d tasks, %d workflows, %d sessions; packets: %d delivered, %d empty, %d evidence_budget_exceeded; %d evidence items, %d setup-overhead calls; reviews: %d valid, %d scored failures\n",
			n.Tasks, n.Workflows, n.Sessions, n.PacketsDelivered, n.PacketsEmpty, n.EvidenceBudgetExceeded, n.EvidenceItems, n.SetupOverheadCalls, n.ReviewsValid, n.ReviewsFailed)
	}
	b.WriteString("schemas (system comparison):\n")
	for _, s := range r.Schemas {
		fmt.Fprintf(&b, "  %s %s\n", s.SHA256, s.Name)
	}
	section := func(title string, ps []verr.Problem) {
		fmt.Fprintf(&b, "%s: %d\n", title, len(ps))
		for _, p := range ps {
			fmt.Fprintf(&b, "  %s\n", p)
		}
	}
	section("refusals", r.Refusals)
	if r.Counts != nil {
		fmt.Fprintf(&b, "workflows over a ceiling (valid failures): %d\n", len(r.WorkflowLimits))
		for _, l := range r.WorkflowLimits {
			fmt.Fprintf(&b, "  %s: %s\n", l.Workflow, strings.Join(l.Details, "; "))
		}
		fmt.Fprintf(&b, "ceilings: %s\nconsumed: %s\n", r.Ceilings, r.Consumed)
		section("admission findings", r.Admission)
		fmt.Fprintf(&b, "missing identities: %d\n", len(r.MissingIdentities))
		for _, m := range r.MissingIdentities {
			fmt.Fprintf(&b, "  %s\n", m)
		}
		if d := r.NextDispatch; d != nil {
			fmt.Fprintf(&b, "next worst-case investigation: %s (%s)\n", map[bool]string{true: "admitted", false: "refused"}[d.Admitted], d.Reason)
		}
		fmt.Fprintf(&b, "final-answer findings (scored: each fails its review's source gate): %d\n", len(r.FinalFindings))
		for _, f := range r.FinalFindings {
			fmt.Fprintf(&b, "  %s\n", f.String())
		}
		section("citation findings (scored: each fails its review's source gate)", r.Citations)
		section("ledger refusals (valid final answers whose review-B ledger was refused; protocol gate fails, CONTRACT §4)", r.LedgerRefusals)
		fmt.Fprintf(&b, "ledger findings (scored: each fails its review's protocol gate): %d\n", len(r.LedgerFindings))
		for _, f := range r.LedgerFindings {
			fmt.Fprintf(&b, "  %s\n", f.String())
		}
	}
	fmt.Fprintf(&b, "admitted: %t\n", r.Admitted)
	_, err := io.WriteString(w, b.String())
	return err
}

// runSystemCheck is `verdict check` on a system-comparison campaign.
func runSystemCheck(a *app, ch *pipeline.SystemCheck, name, format string) error {
	rep := buildSystemCheckReport(ch, name)
	var err error
	if format == "json" {
		err = writeJSON(a.stdout, rep)
	} else {
		err = rep.writeText(a.stdout)
	}
	if err != nil {
		return err
	}
	if !rep.Admitted {
		return failed("check: campaign %s is not admitted: %s", name, rep.summary())
	}
	return nil
}
