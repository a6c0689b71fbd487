package scorer

import (
	"fmt"
	"image/color"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"verdict/campaign"
)

// systemColor is each system's colour in the system comparison's charts
// (the candidate Madar in the first experiment's B colour).
func systemColor(s campaign.SystemName) color.Color {
	switch s {
	case campaign.SystemMadar:
		return colorB
	case campaign.SystemSerena:
		return color.RGBA{R: 0x55, G: 0xa8, B: 0x68, A: 0xff}
	}
	return colorA
}

// MedianRSysChartSVG draws each task's median R_sys of the three systems
// as grouped bars, each repetition's R_sys as a dot beside its system's bar
// and the 0.80 per-task floor (CONTRACT §6 with §4 condition 2), as SVG.
// Unknown medians are drawn as empty bars.
func (r *SystemReport) MedianRSysChartSVG() ([]byte, error) {
	c := newChart("Per-task median R_sys of each system, repetitions as dots", r.Notice != "")
	c.p.Y.Label.Text = "R_sys"
	c.p.Y.Min, c.p.Y.Max = 0, 1.05
	sc := r.Scorecard
	series := make([]plotter.Values, len(sc.Systems))
	labels := make([]string, len(sc.Systems))
	colors := make([]color.Color, len(sc.Systems))
	var names []string
	dots := make([]plotter.XYs, len(sc.Systems))
	n := len(sc.Systems)
	for k, s := range sc.Systems {
		labels[k], colors[k] = SystemTitle(s.System)+" median R_sys", systemColor(s.System)
		for i, t := range s.Tasks {
			series[k] = append(series[k], ratFloat(t.MedianRSys))
			if k == 0 {
				names = append(names, t.Task)
			}
			// 12-point bars on a 48-point category: a bar is 0.25 wide.
			x := float64(i) + 0.25*float64(2*k-(n-1))/2
			for j, f := range t.RSys {
				dots[k] = append(dots[k], plotter.XY{X: x + 0.05*float64(2*j-1), Y: ratFloat(&f)})
			}
		}
	}
	if len(names) == 0 {
		series, labels, colors, names = []plotter.Values{{0}}, []string{"no task"}, []color.Color{colorA}, []string{"no task"}
	}
	if err := c.bars(series, labels, colors); err != nil {
		return nil, err
	}
	reps := make([]dotSeries, len(dots))
	for k := range dots {
		reps[k] = dotSeries{xy: dots[k], shape: draw.CircleGlyph{}, col: colorBound2, radius: vg.Points(2)}
	}
	if len(reps) > 0 {
		reps[0].label = "repetition R_sys"
	}
	if err := c.dotSeries(reps...); err != nil {
		return nil, err
	}
	return c.finish(names, bound{y: 0.8, label: "per-task floor 0.80"})
}

// RatiosChartSVG draws Madar's task-median and whole-suite cost and time
// ratios against each comparator as grouped bars, with the 1.15 per-task
// bound and the whole-suite bounds (0.85 against Native, 1.05 against
// Serena; CONTRACT §6), as SVG. Unknown ratios are drawn as empty bars.
func (r *SystemReport) RatiosChartSVG() ([]byte, error) {
	c := newRatioChart("Madar's cost and time ratios against Native and Serena", "Madar / comparator", r.Notice != "")
	var series []plotter.Values
	var labels []string
	var colors []color.Color
	var names []string
	top := 1.3
	palette := []color.Color{colorA, colorDotA, color.RGBA{R: 0x55, G: 0xa8, B: 0x68, A: 0xff}, color.RGBA{R: 0x2d, G: 0x6a, B: 0x3e, A: 0xff}}
	for k, cmp := range r.Scorecard.Comparisons {
		var co, ti plotter.Values
		names = names[:0]
		for _, t := range cmp.Tasks {
			co = append(co, ratioFloat(t.CostRatio))
			ti = append(ti, ratioFloat(t.TimeRatio))
			names = append(names, t.Task)
		}
		co = append(co, ratioFloat(cmp.SuiteCostRatio))
		ti = append(ti, ratioFloat(cmp.SuiteTimeRatio))
		names = append(names, "whole suite")
		top = ratioTop(top, co, ti)
		name := SystemTitle(cmp.Comparator)
		series = append(series, co, ti)
		labels = append(labels, "cost vs "+name, "time vs "+name)
		colors = append(colors, palette[(2*k)%4], palette[(2*k+1)%4])
	}
	if len(names) == 0 {
		series, labels, colors, names = []plotter.Values{{0}}, []string{"unknown"}, []color.Color{colorA}, []string{"unknown"}
	}
	c.ratioAxis(0, top, top) // bars start at zero
	if err := c.bars(series, labels, colors); err != nil {
		return nil, err
	}
	return c.finish(names, bound{y: 1.15, label: "per-task bound 1.15"},
		bound{1.05, "suite bound vs Serena 1.05", true}, bound{0.85, "suite bound vs Native 0.85", true})
}

// PairedRatiosChartSVG draws every paired complete-workflow ratio of Madar
// against each comparator, cost and time, one column per task and
// repetition, against the 1.25 bound no individual pair may exceed
// (CONTRACT §6), as SVG. A ratio above the bound is drawn in the failure
// colour and labelled with its value. Unknown ratios are left out.
func (r *SystemReport) PairedRatiosChartSVG() ([]byte, error) {
	c := newRatioChart("Paired complete-workflow ratios of Madar against the 1.25 bound", "Madar / comparator", r.Notice != "")
	var names []string
	pp := pairedPoints{top: 1.4}
	var all []dotSeries
	for k, cmp := range r.Scorecard.Comparisons {
		name := SystemTitle(cmp.Comparator)
		cost := dotSeries{shape: draw.CircleGlyph{}, col: systemColor(cmp.Comparator), radius: vg.Points(3), label: "cost vs " + name}
		tm := dotSeries{shape: draw.TriangleGlyph{}, col: systemColor(cmp.Comparator), radius: vg.Points(3), label: "time vs " + name}
		names = names[:0]
		for i, pa := range cmp.Pairs {
			names = append(names, fmt.Sprintf("%s r%d", pa.Task, pa.Repetition))
			pp.add(pa.CostRatio, float64(i)+(-0.2+0.2*float64(k)), &cost.xy, "cost vs "+name)
			pp.add(pa.TimeRatio, float64(i)+(-0.1+0.2*float64(k)), &tm.xy, "time vs "+name)
		}
		all = append(all, cost, tm)
	}
	return c.pairedFinish(names, &pp, all...)
}

// Charts renders every chart a system comparison's report.md links.
func (r *SystemReport) Charts() ([]ChartFile, error) {
	return drawCharts([]string{ChartSystemMedianR, ChartSystemRatios, ChartSystemPairs}, r.MedianRSysChartSVG, r.RatiosChartSVG, r.PairedRatiosChartSVG)
}
