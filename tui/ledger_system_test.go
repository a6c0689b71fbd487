package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"

	"verdict/campaign"
	"verdict/fixtures"
	"verdict/scorer"
)

// synthSystem is the SYNTHETIC system comparison (selected review B) with
// two broken ledgers: W1's disposes of E3, which its packet does not hold,
// and W2's is null; with the ledger findings the command shows.
func synthSystem(t testing.TB) (*campaign.SystemCampaign, []Finding) {
	t.Helper()
	fsys, err := fixtures.GenerateSystemComparison(fixtures.SystemOptions{Mutate: func(f *fixtures.SystemFixture) error {
		ws := f.Manifest.Workflows
		if err := f.EditReview(ws[0], func(r *campaign.Response) {
			r.Final.Uncertainties = append(r.Final.Uncertainties, campaign.Uncertainty{ID: "U1", MissingInformation: "SYNTHETIC: the call volume.",
				Consequence: "SYNTHETIC: the bound is unknown.", VerificationStep: "SYNTHETIC: ask the owners."})
			r.Reconciliation.EvidenceDispositions = append(r.Reconciliation.EvidenceDispositions,
				campaign.Disposition{EvidenceID: "E3", Status: campaign.DispositionUnresolved, FinalIDs: []string{"U1"}})
		}); err != nil {
			return err
		}
		return f.EditReview(ws[1], func(r *campaign.Response) { r.Reconciliation = nil })
	}})
	if err != nil {
		t.Fatal(err)
	}
	d, err := scorer.LookupDesign(campaign.DesignSystemComparison)
	if err != nil {
		t.Fatal(err)
	}
	l, err := d.Load(fsys, campaign.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	c := l.(*scorer.SystemLoaded).SystemCampaign
	found, _ := scorer.SystemLedgerFindings(c)
	var out []Finding
	for _, f := range found {
		out = append(out, Finding{Code: string(f.Code), File: f.File, Pointer: f.Pointer, Scope: string(f.Scope), Rule: f.Rule, Message: f.Message})
	}
	return c, out
}

func newSystemLedger(t testing.TB, w, h int) (tea.Model, *ledger) {
	c, f := synthSystem(t)
	m := NewLedgerModel(LedgerInput{System: c, Findings: f}, testOptions(w, h))
	return m, m.(*root).child.(*ledger)
}

// TestLedgerSystemGolden: the protocol checker's screen on a system
// comparison: the first workflow's review, its invented disposition with
// the finding beside it, and the evidence viewer on a returned
// observation.
func TestLedgerSystemGolden(t *testing.T) {
	for _, sz := range []struct{ w, h int }{{80, 24}, {120, 40}} {
		name := func(s string) string { return s + "_" + itoa(sz.w) + "x" + itoa(sz.h) }
		t.Run(name("system_start"), func(t *testing.T) {
			m, _ := newSystemLedger(t, sz.w, sz.h)
			golden.RequireEqual(t, screen(m))
		})
		t.Run(name("system_disposition_finding"), func(t *testing.T) {
			m, _ := newSystemLedger(t, sz.w, sz.h)
			m = press(m, "n")
			golden.RequireEqual(t, screen(m))
		})
		t.Run(name("system_observation"), func(t *testing.T) {
			m, _ := newSystemLedger(t, sz.w, sz.h)
			m = press(m, "j", "j", "e")
			golden.RequireEqual(t, screen(m))
		})
	}
}

// TestLedgerSystemModel: every workflow's review is a session row (36),
// each ledger's rows follow it, W1's invented disposition carries its
// finding and W2's null ledger is marked refused; the evidence viewer
// shows the observation's returned bytes, and an E ID outside the
// workflow's packet is named as missing.
func TestLedgerSystemModel(t *testing.T) {
	m, l := newSystemLedger(t, 120, 40)
	if l.nReviewB != 36 {
		t.Fatalf("%d review rows, want 36", l.nReviewB)
	}
	if !strings.Contains(l.title(), "SYNTHETIC-system-comparison (system comparison)") {
		t.Fatalf("title %q", l.title())
	}
	// W1: session, O1, E1, E2, E3 (invented).
	if r := l.rows[0]; r.kind != rowSession || r.e.wf.Workflow.ID != "W1" || len(r.findings) != 0 {
		t.Fatalf("row 0: %+v", r)
	}
	inv := l.rows[4]
	if inv.kind != rowDisposition || len(inv.findings) != 1 || inv.findings[0].Code != string(scorer.ReasonDispositionInvented) {
		t.Fatalf("row 4 (E3): kind %d, findings %+v", inv.kind, inv.findings)
	}
	if d := strings.Join(l.detail(&inv), "\n"); !strings.Contains(d, "E3 is not in the packet") {
		t.Fatalf("E3 detail:\n%s", d)
	}
	w2 := l.rows[5]
	if w2.kind != rowSession || w2.e.wf.Workflow.ID != "W2" || w2.refused() != "ledger refused: reconciliation-role" {
		t.Fatalf("row 5: W2 refused %q", w2.refused())
	}
	if d := strings.Join(l.detail(&l.rows[2]), "\n"); !strings.Contains(d, "observation E1: read_file") {
		t.Fatalf("E1 detail:\n%s", d)
	}
	// n visits the finding, then the refusal.
	m = press(m, "n")
	if l.current() != &l.rows[4] {
		t.Fatalf("n: cursor on %d", l.visible[l.cursor])
	}
	m = press(m, "n")
	if l.current() != &l.rows[5] {
		t.Fatalf("second n: cursor on %d", l.visible[l.cursor])
	}
	// The evidence viewer on E1 of W1 shows the bytes the tool returned.
	m = press(m, "g", "j", "j", "e")
	if l.viewer == nil {
		t.Fatal("e opened no viewer")
	}
	s := screen(m)
	if !strings.Contains(s, "E1 read_file") || !strings.Contains(s, "add(n: number)") || !strings.Contains(s, "response lines") {
		t.Fatalf("observation viewer:\n%s", s)
	}
	l.viewer = nil
	l.openEvidenceRefs([]evidenceRef{l.rows[0].e.ref("E9", nil)})
	if s := screen(m); !strings.Contains(s, "E9 is not an evidence item") {
		t.Fatalf("missing item:\n%s", s)
	}
}
