package scorer

import (
	"verdict/campaign"
	"verdict/verr"
)

// RuleLedgerReviewA is the rule cited when a campaign's reviews write no
// reconciliation ledger: the first experiment selected the ordinary
// review A for the system comparison (CONTRACT §6 "Apply the same selected
// review protocol to all three systems"; PROMPTS.md Ordinary review A sets
// reconciliation to null).
const RuleLedgerReviewA = "CONTRACT §6 selected review; PROMPTS.md Ordinary review A"

// ReasonLedgerReviewA: the protocol checker asked for the ledgers of a
// system comparison whose selected review is A, which writes none.
const ReasonLedgerReviewA verr.Reason = "ledger-review-a"

// LedgerSource is one review-B answer whose reconciliation ledger the
// protocol checker inspects and the structural validator checks, with the
// E IDs of the packet that review received (CONTRACT §4 condition 4;
// PROMPTS.md Reconciliation review B, Additional constraints;
// EVALUATOR-CONTROLS C13). A design lists its own (Design.Ledgers): the
// fixed-evidence review-b sessions over their task's excerpt packet, or,
// when the first experiment selected B, every system workflow's review
// over that workflow's raw-observation packet E1..EN (CONTRACT §6).
type LedgerSource struct {
	// Session is the review session ID "S<n>"; File its response file
	// (campaign.ResponsePath).
	Session, File string
	// Task and Repetition are the run the review belongs to.
	Task       string
	Repetition int
	// Order is the fixed-evidence pair's dispatch order; "" in a system
	// comparison.
	Order campaign.Order
	// Workflow and System name a system comparison's workflow; "" in the
	// fixed-evidence design.
	Workflow string
	System   campaign.SystemName
	// Response is the decoded answer (its Reconciliation nil when the
	// ledger was refused); nil when there is no valid answer.
	Response *campaign.Response
	// LedgerFailure is the strict loader's refusal of the ledger when the
	// final answer is valid (campaign.DecodeAnswer): missing, null or
	// malformed; it fails only this review's protocol gate (CONTRACT §4).
	LedgerFailure *verr.Error
	// Failure is the refusal of the whole answer (a valid scored failure).
	Failure *verr.Error
	// Evidence are the E IDs of the packet the review received, in packet
	// order; empty when no packet was delivered.
	Evidence []string
}

// ValidateLedger runs the reconciliation rules of PROMPTS.md "Additional
// constraints" and EVALUATOR-CONTROLS C13 over the ledger of one decoded
// review-B answer against evidence, the E IDs of the packet the review
// received: every E ID an obligation names is in the packet
// (ReasonEvidenceNotInPacket), every final link resolves in the revised
// answer, each status has its required link, and the disposition E-ID set
// equals evidence exactly (ReasonDispositionMissing, Duplicate,
// Invented). It is the same check ValidateResponse applies to a
// fixed-evidence review B; findings have Scope "protocol", name file and
// are sorted (SortFindings). A nil answer or ledger has no finding: its
// refusal is the loader's (LedgerSource.LedgerFailure).
func ValidateLedger(resp *campaign.Response, evidence []string, file string) []Finding {
	if resp == nil || resp.Reconciliation == nil {
		return nil
	}
	v := newValidatorOf(resp, evidence, file)
	defer v.release()
	v.ledger(resp.Reconciliation)
	return v.findings()
}

// ValidateLedgers is ValidateLedger over every source with an answer, in
// the order given (each source's findings sorted); nil when none has a
// finding.
func ValidateLedgers(ls []LedgerSource) []Finding {
	var out []Finding
	for _, l := range ls {
		out = append(out, ValidateLedger(l.Response, l.Evidence, l.File)...)
	}
	return out
}

// Ledgers is the fixed-evidence design's ledgers: every review-b session
// in manifest order, against its task's excerpt packet (CONTRACT §2).
func (fixedEvidence) Ledgers(l campaign.Loaded) ([]LedgerSource, error) {
	c := fixed(l)
	packets := map[string]*campaign.Packet{}
	for _, t := range c.Tasks {
		packets[t.Entry.ID] = &t.Packet
	}
	var out []LedgerSource
	for _, s := range c.Sessions {
		if s.Role != campaign.RoleReviewB {
			continue
		}
		src := LedgerSource{Session: s.ID, File: campaign.ResponsePath(s.ID), Task: s.Run.Task, Repetition: s.Run.Repetition, Order: s.Run.Order,
			Response: s.Response, LedgerFailure: s.LedgerFailure, Failure: s.Failure, Evidence: []string{}}
		if p := packets[s.Run.Task]; p != nil {
			for _, it := range p.Items {
				src.Evidence = append(src.Evidence, it.ID)
			}
		}
		out = append(out, src)
	}
	return out, nil
}

// Ledgers is the system comparison's ledgers: when the first experiment
// selected review B, every workflow's review in manifest order against
// that workflow's raw-observation packet E1..EN (none when the packet was
// not delivered: the review was not launched). A campaign whose selected
// review is A writes no ledger and is refused (ReasonLedgerReviewA at
// manifest.json /selected_review).
func (systemComparison) Ledgers(l campaign.Loaded) ([]LedgerSource, error) {
	c := system(l).SystemCampaign
	if c.Manifest.SelectedReview != campaign.RoleReviewB {
		return nil, verr.Newf(ReasonLedgerReviewA, campaign.ManifestFile, "/selected_review", RuleLedgerReviewA,
			"the selected review is %s, which writes no reconciliation ledger", c.Manifest.SelectedReview)
	}
	return systemLedgers(c), nil
}

// systemLedgers lists a review-B system comparison's ledgers (Ledgers).
func systemLedgers(c *campaign.SystemCampaign) []LedgerSource {
	var out []LedgerSource
	for _, w := range c.Workflows {
		wf := w.Workflow
		src := LedgerSource{Session: w.Review.ID, File: campaign.ResponsePath(w.Review.ID), Task: wf.Task, Repetition: wf.Repetition,
			Workflow: wf.ID, System: wf.System, Response: w.Review.Response, LedgerFailure: w.Review.LedgerFailure, Failure: w.Review.Failure,
			Evidence: packetEvidence(w.Packet)}
		out = append(out, src)
	}
	return out
}

// SystemLedgerFindings is the structural check of every review-B ledger
// of a system comparison (ValidateLedger against each workflow's packet)
// and the loader's ledger refusals, in workflow order, for every review
// whose packet was delivered; both nil when the selected review is A. Each fails its review's protocol gate when the
// campaign is scored (CONTRACT §4 condition 4, §6).
func SystemLedgerFindings(c *campaign.SystemCampaign) (findings []Finding, refusals []*verr.Error) {
	if c.Manifest.SelectedReview != campaign.RoleReviewB {
		return nil, nil
	}
	var scored []LedgerSource
	for i, l := range systemLedgers(c) {
		// A review over a packet that was not delivered is not scored
		// (an investigation-stage failure; launching it anyway is an
		// admission finding): its ledger is not checked.
		if p := c.Workflows[i].Packet; p == nil || p.Status != campaign.PacketDelivered {
			continue
		}
		if l.LedgerFailure != nil {
			refusals = append(refusals, l.LedgerFailure)
		}
		scored = append(scored, l)
	}
	return ValidateLedgers(scored), refusals
}
