package scorer

import (
	"bytes"
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

var (
	colorA     = color.RGBA{R: 0x4c, G: 0x72, B: 0xb0, A: 0xff}
	colorB     = color.RGBA{R: 0xdd, G: 0x84, B: 0x52, A: 0xff}
	colorBound = color.RGBA{R: 0xc4, G: 0x4e, B: 0x52, A: 0xff}
)

func ratFloat(f *Fraction) float64 {
	if f == nil {
		return 0
	}
	v, _ := f.Rat().Float64()
	return v
}

func ratioFloat(r Ratio) float64 {
	if !r.Known {
		return 0
	}
	v, _ := r.Rat().Float64()
	return v
}

// boundLine draws a horizontal dashed line at y across n categories.
func boundLine(p *plot.Plot, n int, y float64, label string) error {
	l, err := plotter.NewLine(plotter.XYs{{X: -0.5, Y: y}, {X: float64(n) - 0.5, Y: y}})
	if err != nil {
		return err
	}
	l.Color = colorBound
	l.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
	p.Add(l)
	p.Legend.Add(label, l)
	return nil
}

// groupedBars adds two bar series side by side over n categories.
func groupedBars(p *plot.Plot, a, b plotter.Values, la, lb string) error {
	w := vg.Points(12)
	ba, err := plotter.NewBarChart(a, w)
	if err != nil {
		return err
	}
	ba.Color, ba.Offset, ba.LineStyle.Width = colorA, -w/2, 0
	bb, err := plotter.NewBarChart(b, w)
	if err != nil {
		return err
	}
	bb.Color, bb.Offset, bb.LineStyle.Width = colorB, w/2, 0
	p.Add(ba, bb)
	p.Legend.Add(la, ba)
	p.Legend.Add(lb, bb)
	return nil
}

func svgBytes(p *plot.Plot, width int) ([]byte, error) {
	wt, err := p.WriterTo(vg.Points(float64(width)), vg.Points(300), "svg")
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if _, err := wt.WriteTo(&b); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

func chartWidth(n int) int { return max(360, 80+n*48) }

// MedianRChartSVG draws the per-task median R of A and B as grouped bars
// with the 0.80 per-task threshold (CONTRACT §4 condition 2), as SVG.
// Unknown medians are drawn as empty bars.
func (r *Report) MedianRChartSVG() ([]byte, error) {
	p := plot.New()
	p.Title.Text = "Per-task median R (A and B)"
	if r.Notice != "" {
		p.Title.Text = "SYNTHETIC: " + p.Title.Text
	}
	p.Y.Label.Text = "median R"
	p.Y.Min, p.Y.Max = 0, 1.05
	var a, b plotter.Values
	var names []string
	for _, t := range r.Scorecard.Tasks {
		a = append(a, ratFloat(t.A.MedianR))
		b = append(b, ratFloat(t.B.MedianR))
		names = append(names, t.Task)
	}
	if len(names) == 0 {
		a, b, names = plotter.Values{0}, plotter.Values{0}, []string{"no task"}
	}
	if err := groupedBars(p, a, b, "A", "B"); err != nil {
		return nil, err
	}
	if err := boundLine(p, len(names), 0.8, "0.80 per-task bound"); err != nil {
		return nil, err
	}
	p.NominalX(names...)
	p.Legend.Top = true
	return svgBytes(p, chartWidth(len(names)))
}

// RatiosChartSVG draws each task-median B/A cost and time ratio and the
// aggregate ratios as grouped bars against their bounds (1.15 per task,
// 1.10 aggregate; CONTRACT §4), as SVG. Unknown ratios are drawn as empty
// bars; report.md names them "unknown".
func (r *Report) RatiosChartSVG() ([]byte, error) {
	p := plot.New()
	p.Title.Text = "Complete cost and time, B/A ratios"
	if r.Notice != "" {
		p.Title.Text = "SYNTHETIC: " + p.Title.Text
	}
	p.Y.Label.Text = "B/A"
	p.Y.Min = 0
	var c, t plotter.Values
	var names []string
	top := 1.3
	if acct := r.Scorecard.Accounting; acct != nil {
		for _, ta := range acct.Tasks {
			c = append(c, ratioFloat(ta.CostRatio))
			t = append(t, ratioFloat(ta.TimeRatio))
			names = append(names, ta.Task)
		}
		c = append(c, ratioFloat(acct.CostRatio))
		t = append(t, ratioFloat(acct.TimeRatio))
		names = append(names, "aggregate")
	}
	if len(names) == 0 {
		c, t, names = plotter.Values{0}, plotter.Values{0}, []string{"unknown"}
	}
	for _, v := range append(append(plotter.Values{}, c...), t...) {
		top = max(top, v+0.1)
	}
	p.Y.Max = top
	if err := groupedBars(p, c, t, "cost", "time"); err != nil {
		return nil, err
	}
	if err := boundLine(p, len(names), 1.15, "1.15 task bound"); err != nil {
		return nil, err
	}
	if err := boundLine(p, len(names), 1.10, "1.10 aggregate bound"); err != nil {
		return nil, err
	}
	p.NominalX(names...)
	p.Legend.Top = true
	return svgBytes(p, chartWidth(len(names)))
}
