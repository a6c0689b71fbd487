package main

import (
	"strings"
	"testing"

	"verdict/campaign"
)

// TestSystemFinalFindings: `verdict check` on a system comparison checks
// every answered review's final answer against its own workflow's packet
// with the fixed design's final-answer rules (CONTRACT §6 "the same
// absolute source/safety and final-plan floors"; PROMPTS.md Additional
// constraints; EVALUATOR-CONTROLS C12) and lists what it finds beside the
// citation findings: a source_backed claim without evidence (W1), a claim
// naming an E ID outside the packet (W2), a citation supporting an ID the
// answer lacks (W3) and an action with neither a verification nor a
// limitation (W4). A citation naming an E ID outside the packet (W5) is
// reported once, by the citation check. None is an admission finding.
func TestSystemFinalFindings(t *testing.T) {
	t.Parallel()
	dir, rep, rp := sysCheckEdited(t, []func(*campaign.Response){
		func(r *campaign.Response) { r.Final.Claims[0].EvidenceIDs = []string{} },
		func(r *campaign.Response) { r.Final.Claims[1].EvidenceIDs = []string{"E9"} },
		func(r *campaign.Response) { r.Final.Citations[0].Supports = []string{"C1", "C3"} },
		func(r *campaign.Response) {
			r.Final.ImplementationPlan = append(r.Final.ImplementationPlan, campaign.Action{ID: "A1", Action: "SYNTHETIC: handle a trailing slash.",
				Rationale: "SYNTHETIC: the task asks for it.", SupportBasis: campaign.BasisTask, EvidenceIDs: []string{}, VerificationIDs: []string{}})
		},
		func(r *campaign.Response) { r.Final.Citations[0].EvidenceID = "E9" },
	})
	got := findingKeys(rep.FinalFindings)
	want := []string{
		rp(0) + "/final/claims/0/evidence_ids=source-backed-claim-without-evidence/final",
		rp(1) + "/final/claims/1/evidence_ids/0=evidence-not-in-packet/final",
		rp(2) + "/final/citations/0/supports/1=dangling-link/final",
		rp(3) + "/final/implementation_plan/0/verification_ids=action-without-verification/final",
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("final findings\n%v\nwant\n%v", got, want)
	}
	got = nil
	for _, p := range rep.Citations {
		got = append(got, p.File+p.Pointer+"="+string(p.Reason))
	}
	if want := []string{rp(4) + "/final/citations/0/evidence_id=evidence-not-in-packet"}; strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("citation findings %v, want %v", got, want)
	}
	code, out, _ := runCLI(t, "check", dir)
	for _, s := range []string{
		"final-answer findings (scored: each fails its review's source gate): 4\n  " + rp(0) + "#/final/claims/0/evidence_ids: source-backed-claim-without-evidence",
		"citation findings (scored: each fails its review's source gate): 1\n  " + rp(4),
		"admitted: true",
	} {
		if code != 0 || !strings.Contains(out, s) {
			t.Fatalf("text report: exit %d, want %q\n%s", code, s, out)
		}
	}
}
