package scorer

import (
	"bytes"
	"slices"
	"testing"
)

// TestChartRules: every chart's legend has its own background; the 0.80
// bound of the median-R chart is B's alone; a ratio axis starts near its
// values when zero would squeeze them, at zero otherwise, and labels its
// bounds with two decimals.
func TestChartRules(t *testing.T) {
	r := goldenReport(t)
	charts, err := r.Charts()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range charts {
		if !bytes.Contains(c.SVG, []byte("fill:#F3F3F0")) {
			t.Errorf("%s: the legend has no background of its own", c.Name)
		}
	}
	if m := charts[0].SVG; !bytes.Contains(m, []byte("B&#39;s per-task bound 0.80 (A has none)")) && !bytes.Contains(m, []byte("B's per-task bound 0.80 (A has none)")) {
		t.Errorf("%s: no B-only bound in the legend", charts[0].Name)
	}
	for _, c := range []struct{ lo, hi, want float64 }{
		{0.95, 1.15, 0.90}, {0.56, 1.45, 0.40}, {1, 1.4, 0.95}, {0.1, 1.3, 0}, {0.3, 1.25, 0}, {0, 0, 0},
	} {
		if got := ratioBottom(c.lo, c.hi); got < c.want-1e-9 || got > c.want+1e-9 {
			t.Errorf("ratioBottom(%v, %v) = %v, want %v", c.lo, c.hi, got, c.want)
		}
	}
	var labels []string
	for _, tk := range ratioTicks(0.9, 1.2) {
		if tk.Label != "" {
			labels = append(labels, tk.Label)
		}
	}
	if !slices.Contains(labels, "1.15") || !slices.Contains(labels, "0.90") || len(labels) != 7 {
		t.Errorf("ticks of [0.9, 1.2] are labelled %q", labels)
	}
	for _, tk := range ratioTicks(0, 4.1) {
		if tk.Label == "-0.00" {
			t.Error("a tick is labelled -0.00")
		}
	}
	if n := len(ratioTicks(0, 4.1)); n > 26 {
		t.Errorf("an axis up to 4.1 has %d ticks", n)
	}
}
