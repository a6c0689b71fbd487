package main

import (
	"strings"
	"testing"

	"verdict/campaign"
	"verdict/fixtures"
	"verdict/scorer"
)

// TestSystemLedgers: `verdict check` on a system comparison whose first
// experiment selected review B checks every review's ledger against its
// own workflow's packet with the fixed design's rules and lists what it
// finds (CONTRACT §4 condition 4, §6): an obligation naming an E ID
// outside the packet (W1), a disposition of an invented E ID (W2), a
// null ledger (W3) and a disposition status that is not the contract's
// (W4). None is an admission finding: the campaign is admitted, the text
// report names each.
func TestSystemLedgers(t *testing.T) {
	t.Parallel()
	dir, rep, rp := sysCheckEdited(t, []func(*campaign.Response){
		func(r *campaign.Response) { r.Reconciliation.Obligations[0].EvidenceIDs = []string{"E3"} },
		func(r *campaign.Response) {
			d := r.Reconciliation.EvidenceDispositions
			r.Reconciliation.EvidenceDispositions = append(d, campaign.Disposition{EvidenceID: "E7", Status: d[0].Status, FinalIDs: d[0].FinalIDs})
		},
		func(r *campaign.Response) { r.Reconciliation = nil },
		func(r *campaign.Response) { r.Reconciliation.EvidenceDispositions[1].Status = "ignored" },
	})
	got := findingKeys(rep.LedgerFindings)
	want := []string{
		rp(0) + "/reconciliation/obligations/0/evidence_ids/0=evidence-not-in-packet/protocol",
		rp(1) + "/reconciliation/evidence_dispositions/2/evidence_id=disposition-invented/protocol",
		rp(1) + "/reconciliation/evidence_dispositions/2/final_ids=used-disposition-uncited/protocol",
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("ledger findings\n%v\nwant\n%v", got, want)
	}
	got = nil
	for _, p := range rep.LedgerRefusals {
		got = append(got, p.File+p.Pointer+"="+string(p.Reason))
	}
	want = []string{rp(2) + "/reconciliation=reconciliation-role", rp(3) + "/reconciliation/evidence_dispositions/1/status=enum"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("ledger refusals %v, want %v", got, want)
	}
	code, out, _ := runCLI(t, "check", dir)
	for _, s := range []string{
		"ledger refusals (valid final answers whose review-B ledger was refused; protocol gate fails, CONTRACT §4): 2\n  " + rp(2),
		"ledger findings (scored: each fails its review's protocol gate): 3\n  " + rp(0),
		"admitted: true",
	} {
		if code != 0 || !strings.Contains(out, s) {
			t.Fatalf("text report: exit %d, want %q\n%s", code, s, out)
		}
	}
}

// sysCheckEdited generates the SYNTHETIC system campaign with the review
// of workflow i (manifest order) edited by edits[i], runs `verdict check
// --format json` on it, requires it admitted with no admission finding,
// and returns its directory, the report and a function naming workflow
// i's review response file.
func sysCheckEdited(t *testing.T, edits []func(*campaign.Response)) (string, systemCheckReport, func(int) string) {
	t.Helper()
	var ws []campaign.Workflow
	dir := sysCampaign(t, func(f *fixtures.SystemFixture) error {
		ws = f.Manifest.Workflows
		for i, edit := range edits {
			if err := f.EditReview(ws[i], edit); err != nil {
				return err
			}
		}
		return nil
	})
	code, rep := sysCheck(t, dir)
	if code != 0 || !rep.Admitted || len(rep.Admission) != 0 {
		t.Fatalf("exit %d, admitted %t: %s", code, rep.Admitted, reasonsOf(rep))
	}
	return dir, rep, func(i int) string { return campaign.ResponsePath(ws[i].Sessions.Review) }
}

// findingKeys names each finding as FILE+POINTER=CODE/SCOPE, in order.
func findingKeys(fs []scorer.Finding) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.File+f.Pointer+"="+string(f.Code)+"/"+string(f.Scope))
	}
	return out
}
