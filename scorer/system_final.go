package scorer

import "verdict/campaign"

// SystemFinalFindings is the structural check of the final answer of
// every answered review of a system comparison (ValidateFinal against its
// workflow's own raw-observation packet E1..EN), in workflow order, each
// review's findings sorted; nil when none has a finding. A review without
// a decoded answer, or over a packet that was not delivered (an
// investigation-stage failure: the review is not scored), is not checked.
// Each finding fails that review's source gate when the campaign is
// scored, as a fixed-evidence final finding does (CONTRACT §6 "the same
// absolute source/safety and final-plan floors"; PROMPTS.md Additional
// constraints; EVALUATOR-CONTROLS C12). The citations' own checks are
// SystemCitationFindings'.
func SystemFinalFindings(c *campaign.SystemCampaign) []Finding {
	var out []Finding
	for _, w := range c.Workflows {
		out = append(out, workflowFinalFindings(w)...)
	}
	return out
}

// workflowFinalFindings is ValidateFinal of one workflow's review; none
// when the review has no answer or its packet was not delivered.
func workflowFinalFindings(w *campaign.SystemWorkflow) []Finding {
	if w.Review.Response == nil || w.Packet == nil || w.Packet.Status != campaign.PacketDelivered {
		return nil
	}
	return ValidateFinal(w.Review.Response, packetEvidence(w.Packet), campaign.ResponsePath(w.Review.ID))
}
