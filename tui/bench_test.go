package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"verdict/adjudication"
	"verdict/blinding"
	"verdict/campaign"
	"verdict/fixtures"
)

// maxItem is a SYNTHETIC maximum-size answer: 32 claims, 128 citations
// over a 12-item packet, 8 obligations, 32 plan steps, 32 verifications,
// 32 uncertainties and 64 exclusions (PROMPTS.md maxima).
func maxItem(id string) blinding.Item {
	t := synthTask("T1", 12)
	for i := 4; i <= 8; i++ {
		t.Truth.Obligations = append(t.Truth.Obligations, campaign.TruthObligation{ID: fmt.Sprintf("O%d", i), Text: "Synthetic obligation text that is long enough to wrap across the grading pane at eighty columns.", Answerable: i%2 == 0, EvidenceIDs: []string{"E3"}})
	}
	var f campaign.Final
	for i := 1; i <= 32; i++ {
		f.Claims = append(f.Claims, campaign.Claim{ID: fmt.Sprintf("C%d", i), Text: fmt.Sprintf("Synthetic claim %d states a fact about widget counting that spans a long line of text.", i), Status: campaign.ClaimSourceBacked, EvidenceIDs: []string{fmt.Sprintf("E%d", i%12+1)}})
		f.ImplementationPlan = append(f.ImplementationPlan, campaign.Action{ID: fmt.Sprintf("A%d", i), Action: "Synthetic action.", Rationale: "Synthetic rationale.", SupportBasis: campaign.BasisSource, EvidenceIDs: []string{"E1"}, VerificationIDs: []string{fmt.Sprintf("V%d", i)}})
		f.VerificationPlan = append(f.VerificationPlan, campaign.Verification{ID: fmt.Sprintf("V%d", i), ExpectedBehavior: "Synthetic expectation.", Method: "test", SupportBasis: campaign.BasisSource, EvidenceIDs: []string{"E1"}})
		f.Uncertainties = append(f.Uncertainties, campaign.Uncertainty{ID: fmt.Sprintf("U%d", i), MissingInformation: "Synthetic unknown.", Consequence: "Synthetic consequence.", VerificationStep: "Synthetic step."})
	}
	for i := 1; i <= 64; i++ {
		f.Exclusions = append(f.Exclusions, campaign.Exclusion{ID: fmt.Sprintf("X%d", i), ScopeItem: "Synthetic scope.", Reason: "Synthetic reason.", EvidenceIDs: []string{"E2"}})
	}
	for i := 1; i <= 128; i++ {
		e := i%12 + 1
		f.Citations = append(f.Citations, campaign.Citation{EvidenceID: fmt.Sprintf("E%d", e), Path: fmt.Sprintf("pkg/count%d.go", e), StartLine: 10 * e, EndLine: 10*e + 2, Supports: []string{fmt.Sprintf("C%d", (i-1)%32+1)}})
	}
	return bundleItem(id, t, f)
}

// BenchmarkRateKeyPress measures Update+View of one key press (moving
// between fields, and grading without the journal write, which runs as a
// command outside Update) on a maximum-size answer after the first frame.
// It reports the median in ms/key.
func BenchmarkRateKeyPress(b *testing.B) {
	for _, sz := range []struct{ w, h int }{{80, 24}, {120, 40}} {
		b.Run(fmt.Sprintf("%dx%d", sz.w, sz.h), func(b *testing.B) {
			bd := synthBundle(0)
			bd.Items = []blinding.Item{maxItem("item-00000000000000ff")}
			e := newRateEnv(b, bd)
			m, _ := newTestRater(b, e, sz.w, sz.h)
			_ = m.View() // first render (glamour) is not measured
			keys := []tea.KeyPressMsg{keyMsg("j"), keyMsg("j"), keyMsg("k"), keyMsg("1"), keyMsg("k"), keyMsg("tab")}
			d := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for i := 0; b.Loop(); i++ {
				start := time.Now()
				m, _ = m.Update(keys[i%len(keys)])
				_ = m.View()
				d = append(d, time.Since(start))
			}
			b.StopTimer()
			slices.Sort(d)
			if len(d) > 0 {
				b.ReportMetric(float64(d[len(d)/2].Nanoseconds())/1e6, "ms-median/key")
			}
		})
	}
}

// BenchmarkRateFirstFrame100 measures building the rater model of a
// 100-item bundle and rendering its first frame (journal already open).
func BenchmarkRateFirstFrame100(b *testing.B) {
	bd := synthBundle(0)
	for i := range 100 {
		bd.Items = append(bd.Items, maxItem(fmt.Sprintf("item-%016x", i+1)))
	}
	e := newRateEnv(b, bd)
	for b.Loop() {
		m, _ := newTestRater(b, e, 120, 40)
		_ = m.View()
	}
}

// BenchmarkRateStartup measures what `verdict rate` does before its first
// frame on a SYNTHETIC bundle of 100 maximum-size items
// (fixtures.MaxBundle, about 14.6 MB): read and verify the bundle file
// (blinding.LoadBundle), create the journal (adjudication.Open), build the
// rater and render the first frame. Profile it with
// `go test ./tui -run '^$' -bench RateStartup -benchtime 10x -cpuprofile cpu.out`;
// the whole process is measured by scripts/first-frame.sh.
func BenchmarkRateStartup(b *testing.B) {
	data, err := fixtures.MaxBundle(100)
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	path := filepath.Join(dir, "bundle.json")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		b.Fatal(err)
	}
	for i := 0; b.Loop(); i++ {
		bd, _, err := blinding.LoadBundle(path)
		if err != nil {
			b.Fatal(err)
		}
		j, err := adjudication.Open(filepath.Join(dir, fmt.Sprintf("journal-%d.jsonl", i)), bd)
		if err != nil {
			b.Fatal(err)
		}
		m := NewRateModel(RateInput{Bundle: bd, Journal: j}, testOptions(120, 40))
		if v := m.View(); !strings.Contains(ansi.Strip(v.Content), "Task of item 1/100") {
			b.Fatalf("the first frame is not the first item's task:\n%s", v.Content)
		}
		if err := j.Close(); err != nil {
			b.Fatal(err)
		}
	}
}
