package scorer

import (
	"bytes"
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"
)

var (
	colorA      = color.RGBA{R: 0x4c, G: 0x72, B: 0xb0, A: 0xff}
	colorB      = color.RGBA{R: 0xdd, G: 0x84, B: 0x52, A: 0xff}
	colorBound  = color.RGBA{R: 0xc4, G: 0x4e, B: 0x52, A: 0xff}
	colorFail   = color.RGBA{R: 0xb0, G: 0x00, B: 0x20, A: 0xff}
	colorBound2 = color.RGBA{R: 0x55, G: 0x55, B: 0x55, A: 0xff}
	colorDotA   = color.RGBA{R: 0x1f, G: 0x3a, B: 0x66, A: 0xff}
	colorDotB   = color.RGBA{R: 0x8a, G: 0x45, B: 0x1f, A: 0xff}
)

// chartHeight is the height of every chart, in points.
const chartHeight = 300

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

// chart is a plot whose legend is drawn in its own column right of the
// plot area, so it never covers data, and whose categories have room on
// both sides for their labels.
type chart struct {
	p      *plot.Plot
	legend plot.Legend
	texts  []string // legend entry texts, for the legend column's width
	n      int      // categories
}

// add adds a legend entry.
func (c *chart) add(label string, t plot.Thumbnailer) {
	c.legend.Add(label, t)
	c.texts = append(c.texts, label)
}

func newChart(title string, synthetic bool) *chart {
	p := plot.New()
	p.Title.Text = title
	if synthetic {
		p.Title.Text = "SYNTHETIC: " + title
	}
	return &chart{p: p, legend: plot.NewLegend()}
}

// bound is a horizontal bound line of a chart: its value, its legend
// label, and whether it is the chart's second kind of bound (grey and
// dotted instead of red and dashed).
type bound struct {
	y      float64
	label  string
	second bool
}

// newRatioChart is a chart of ratios: its y axis, labelled yLabel,
// starts at zero.
func newRatioChart(title, yLabel string, synthetic bool) *chart {
	c := newChart(title, synthetic)
	c.p.Y.Label.Text = yLabel
	c.p.Y.Min = 0
	return c
}

// boundLine draws a horizontal dashed line at b.y across the categories;
// a second bound on the same chart (b.second) is grey and dotted.
func (c *chart) boundLine(b bound) error {
	l, err := plotter.NewLine(plotter.XYs{{X: -0.5, Y: b.y}, {X: float64(c.n) - 0.5, Y: b.y}})
	if err != nil {
		return err
	}
	l.Color = colorBound
	l.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
	if b.second {
		l.Color = colorBound2
		l.Dashes = []vg.Length{vg.Points(1), vg.Points(2)}
		l.Width = vg.Points(1.5)
	}
	c.p.Add(l)
	c.add(b.label, l)
	return nil
}

// finish draws the bound lines, in order, across the named categories
// and renders the chart (svg).
func (c *chart) finish(names []string, bounds ...bound) ([]byte, error) {
	c.n = len(names)
	for _, b := range bounds {
		if err := c.boundLine(b); err != nil {
			return nil, err
		}
	}
	return c.svg(names)
}

// ratioTop is the top of a ratio chart's axis: at least top, and a tenth
// above the largest value drawn.
func ratioTop(top float64, series ...plotter.Values) float64 {
	for _, vs := range series {
		for _, v := range vs {
			top = max(top, v+0.1)
		}
	}
	return top
}

// pairedPoints sorts paired complete-workflow ratios into the points
// within the 1.25 bound (CONTRACT §4 and §6, PairBoundNum/PairBoundDen)
// and the failing points above it, each labelled with its value, and
// keeps the axis top 0.15 above the largest.
type pairedPoints struct {
	fail   plotter.XYs
	labels []string
	top    float64
	// low is the least ratio drawn (at most 1, the zero value counts as
	// unset); the axis starts at ratioBottom(low, top).
	low    float64
	lowSet bool
}

// add places the ratio v at x: on *within when it is within the paired
// bound, else among the failing points labelled "what value". An unknown
// ratio is left out.
func (pp *pairedPoints) add(v Ratio, x float64, within *plotter.XYs, what string) {
	if !v.Known {
		return
	}
	y := ratioFloat(v)
	pp.top = max(pp.top, y+0.15)
	if !pp.lowSet || y < pp.low {
		pp.low, pp.lowSet = min(y, 1), true
	}
	pt := plotter.XY{X: x, Y: y}
	if !v.AtMost(PairBoundNum, PairBoundDen) {
		pp.fail = append(pp.fail, pt)
		pp.labels = append(pp.labels, fmt.Sprintf("%s %.2f", what, y))
		return
	}
	*within = append(*within, pt)
}

// groupedBars adds two bar series side by side.
func (c *chart) groupedBars(a, b plotter.Values, la, lb string) error {
	return c.bars([]plotter.Values{a, b}, []string{la, lb}, []color.Color{colorA, colorB})
}

// bars adds len(series) bar series side by side, centred on each category,
// each with its label and colour.
func (c *chart) bars(series []plotter.Values, labels []string, colors []color.Color) error {
	w := vg.Points(12)
	n := len(series)
	for i, v := range series {
		bc, err := plotter.NewBarChart(v, w)
		if err != nil {
			return err
		}
		bc.Color, bc.Offset, bc.LineStyle.Width = colors[i], w*vg.Length(2*i-(n-1))/2, 0
		c.p.Add(bc)
		c.add(labels[i], bc)
	}
	return nil
}

// dots adds a scatter of points with one glyph style and a legend entry.
func (c *chart) dots(xy plotter.XYs, shape draw.GlyphDrawer, col color.Color, radius vg.Length, label string) error {
	if len(xy) == 0 {
		return nil
	}
	s, err := plotter.NewScatter(xy)
	if err != nil {
		return err
	}
	s.GlyphStyle = draw.GlyphStyle{Color: col, Radius: radius, Shape: shape}
	c.p.Add(s)
	if label != "" {
		c.add(label, s)
	}
	return nil
}

// dotSeries is one scatter of a chart: its points, glyph, colour, radius
// and legend label ("" for none).
type dotSeries struct {
	xy     plotter.XYs
	shape  draw.GlyphDrawer
	col    color.Color
	radius vg.Length
	label  string
}

// dotSeries adds each scatter in order (dots).
func (c *chart) dotSeries(series ...dotSeries) error {
	for _, s := range series {
		if err := c.dots(s.xy, s.shape, s.col, s.radius, s.label); err != nil {
			return err
		}
	}
	return nil
}

// svg renders the chart: the plot area on the left, with half a category
// of room beyond the first and last so no tick label is cut, and the
// legend in a column on the right sized to its longest entry.
func (c *chart) svg(names []string) ([]byte, error) {
	c.p.NominalX(names...)
	c.p.X.Min, c.p.X.Max = -0.8, float64(len(names))-0.2
	width := vg.Points(float64(max(360, 100+len(names)*48)))
	c.legend.Top, c.legend.Left = true, true
	c.legend.Padding = vg.Points(4)
	c.legend.TextStyle = c.p.Legend.TextStyle
	var textW vg.Length
	for _, e := range c.legendTexts() {
		textW = max(textW, c.legend.TextStyle.Width(e))
	}
	// The viewer's serif font may be wider than the metrics of the font
	// the plot measures with: leave a quarter more.
	legW := textW*5/4 + c.legend.ThumbnailWidth + vg.Points(32)
	canvas := vgsvg.New(width+legW, vg.Points(chartHeight))
	dc := draw.New(canvas)
	c.p.Draw(draw.Crop(dc, 0, -legW, 0, 0))
	c.legend.XOffs = vg.Points(8)
	lc := draw.Crop(dc, width, 0, 0, -vg.Points(28))
	c.legendBackground(dc, lc, legW)
	c.legend.Draw(lc)
	var b bytes.Buffer
	if _, err := canvas.WriteTo(&b); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// colorLegendBg and colorLegendEdge are the legend's own background and
// its frame, so the legend reads as a key apart from the plot.
var (
	colorLegendBg   = color.RGBA{R: 0xf3, G: 0xf3, B: 0xf0, A: 0xff}
	colorLegendEdge = color.RGBA{R: 0xbb, G: 0xbb, B: 0xbb, A: 0xff}
)

// legendBackground fills and frames the box the legend's entries take in
// lc (the legend column, legW wide) on dc, before the legend is drawn.
func (c *chart) legendBackground(dc draw.Canvas, lc draw.Canvas, legW vg.Length) {
	r := c.legend.Rectangle(lc)
	h := r.Max.Y - r.Min.Y
	pad := vg.Points(6)
	x0 := lc.Min.X + c.legend.XOffs - pad
	x1 := lc.Min.X + legW - vg.Points(4)
	y1 := lc.Max.Y + pad
	y0 := lc.Max.Y - h - pad
	box := []vg.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}}
	dc.FillPolygon(colorLegendBg, box)
	dc.StrokeLines(draw.LineStyle{Color: colorLegendEdge, Width: vg.Points(0.75)}, append(box, box[0]))
}

// legendTexts are the texts of the legend's entries, recorded as they are
// added (plot.Legend does not expose them).
func (c *chart) legendTexts() []string { return c.texts }

// MedianRChartSVG draws the per-task median R of A and B as grouped bars,
// each repetition's R as a dot beside its arm's bar (the spread a median
// hides) and the 0.80 per-task threshold (CONTRACT §4 condition 2), as
// SVG. Unknown medians are drawn as empty bars.
func (r *Report) MedianRChartSVG() ([]byte, error) {
	c := newChart("Per-task median R (A and B), repetitions as dots", r.Notice != "")
	c.p.Y.Label.Text = "R"
	c.p.Y.Min, c.p.Y.Max = 0, 1.05
	var a, b plotter.Values
	var dotsA, dotsB plotter.XYs
	var names []string
	for i, t := range r.Scorecard.Tasks {
		a = append(a, ratFloat(t.A.MedianR))
		b = append(b, ratFloat(t.B.MedianR))
		names = append(names, t.Task)
		for j, f := range t.A.R {
			dotsA = append(dotsA, plotter.XY{X: float64(i) - 0.26 - 0.04*float64(j%3), Y: ratFloat(&f)})
		}
		for j, f := range t.B.R {
			dotsB = append(dotsB, plotter.XY{X: float64(i) + 0.26 + 0.04*float64(j%3), Y: ratFloat(&f)})
		}
	}
	if len(names) == 0 {
		a, b, names = plotter.Values{0}, plotter.Values{0}, []string{"no task"}
	}
	if err := c.groupedBars(a, b, "A median R", "B median R"); err != nil {
		return nil, err
	}
	if err := c.dotSeries(
		dotSeries{dotsA, draw.CircleGlyph{}, colorDotA, vg.Points(2.5), "A repetition R"},
		dotSeries{dotsB, draw.CircleGlyph{}, colorDotB, vg.Points(2.5), "B repetition R"},
	); err != nil {
		return nil, err
	}
	// The 0.80 per-task bound is B's alone (CONTRACT §4 Gate 2): it is
	// drawn over B's half of each task, never across A's bars.
	c.n = len(names)
	var seg plotter.XYs
	for i := range names {
		seg = append(seg, plotter.XY{X: float64(i) - 0.02, Y: 0.8}, plotter.XY{X: float64(i) + 0.42, Y: 0.8}, plotter.XY{X: math.NaN(), Y: math.NaN()})
	}
	if err := c.segments(seg, "B's per-task bound 0.80 (A has none)"); err != nil {
		return nil, err
	}
	return c.svg(names)
}

// segments draws separate horizontal bound segments (points in pairs,
// each pair followed by a NaN point that breaks the line) in the bound
// style, with one legend entry.
func (c *chart) segments(xy plotter.XYs, label string) error {
	for i := 0; i+1 < len(xy); i += 3 {
		l, err := plotter.NewLine(xy[i : i+2])
		if err != nil {
			return err
		}
		l.Color = colorBound
		l.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
		l.Width = vg.Points(1.5)
		c.p.Add(l)
		if i == 0 {
			c.add(label, l)
		}
	}
	return nil
}

// ratioBottom is the bottom of a ratio axis whose values and bounds lie
// in [lo, hi]: a little below lo (a multiple of 0.05), so that values
// crowded near 1 are not squeezed into a sliver at the top of an axis
// that starts at zero; zero when that margin would reach down to a
// quarter of hi anyway.
func ratioBottom(lo, hi float64) float64 {
	b := lo - max(0.05, (hi-lo)/8)
	if hi <= 0 || b <= hi/4 {
		return 0
	}
	return math.Floor(b*20+1e-9) / 20
}

// ratioTicks marks a ratio axis on round values with two-decimal labels,
// so a bound such as 1.15 sits on its own labelled value instead of a
// rounded one: the label step is the smallest of 0.05, 0.1, 0.25, 0.5
// and 1 that gives at most 12 labels, with an unlabelled mark halfway.
func ratioTicks(lo, hi float64) []plot.Tick {
	step := 1.0
	for _, s := range []float64{0.05, 0.1, 0.25, 0.5} {
		if (hi-lo)/s <= 12 {
			step = s
			break
		}
	}
	half := step / 2
	var ts []plot.Tick
	for k := math.Ceil(lo/half - 1e-9); k*half <= hi+1e-9; k++ {
		t := plot.Tick{Value: k * half}
		if t.Value == 0 {
			t.Value = 0 // not -0, which would print as "-0.00"
		}
		if math.Mod(k, 2) == 0 {
			t.Label = fmt.Sprintf("%.2f", t.Value)
		}
		ts = append(ts, t)
	}
	return ts
}

// ratioAxis sets a ratio chart's y axis to [ratioBottom(lo, hi), top]
// with ratioTicks.
func (c *chart) ratioAxis(lo, hi, top float64) {
	c.p.Y.Min, c.p.Y.Max = ratioBottom(lo, hi), top
	c.p.Y.Tick.Marker = plot.TickerFunc(func(min, max float64) []plot.Tick { return ratioTicks(min, max) })
}

// RatiosChartSVG draws each task-median B/A cost and time ratio and the
// aggregate ratios as grouped bars against their bounds (1.15 per task,
// 1.10 aggregate; CONTRACT §4), as SVG. Unknown ratios are drawn as empty
// bars; report.md names them "unknown".
func (r *Report) RatiosChartSVG() ([]byte, error) {
	c := newRatioChart("Complete cost and time, B/A task-median and aggregate ratios", "B/A", r.Notice != "")
	cost := dotSeries{shape: draw.CircleGlyph{}, col: colorA, radius: vg.Points(3.5), label: "cost B/A"}
	tm := dotSeries{shape: draw.TriangleGlyph{}, col: colorB, radius: vg.Points(4), label: "time B/A"}
	var names []string
	lo, hi := 1.0, 1.15
	put := func(v Ratio, x float64, s *dotSeries) {
		if !v.Known {
			return
		}
		y := ratioFloat(v)
		lo, hi = min(lo, y), max(hi, y)
		s.xy = append(s.xy, plotter.XY{X: x, Y: y})
	}
	if acct := r.Scorecard.Accounting; acct != nil {
		for i, ta := range acct.Tasks {
			put(ta.CostRatio, float64(i)-0.12, &cost)
			put(ta.TimeRatio, float64(i)+0.12, &tm)
			names = append(names, ta.Task)
		}
		put(acct.CostRatio, float64(len(names))-0.12, &cost)
		put(acct.TimeRatio, float64(len(names))+0.12, &tm)
		names = append(names, "aggregate")
	}
	if len(names) == 0 {
		names = []string{"unknown"}
	}
	c.ratioAxis(lo, hi, hi+max(0.05, (hi-ratioBottom(lo, hi))/10))
	if err := c.dotSeries(cost, tm); err != nil {
		return nil, err
	}
	return c.finish(names, bound{y: 1.15, label: "per-task bound 1.15"}, bound{1.10, "aggregate bound 1.10", true})
}

// PairedRatiosChartSVG draws every paired complete-workflow B/A ratio, cost
// and time, one column per pair (task and repetition), against the 1.25
// bound no individual pair may exceed (CONTRACT §4), as SVG. A ratio above
// the bound is drawn in the failure colour and labelled with its value, so
// the chart shows what fails. Unknown ratios are left out; report.md names
// them "unknown".
func (r *Report) PairedRatiosChartSVG() ([]byte, error) {
	c := newRatioChart("Paired complete-workflow B/A ratios against the 1.25 bound", "B/A", r.Notice != "")
	cost := dotSeries{shape: draw.CircleGlyph{}, col: colorA, radius: vg.Points(3), label: "cost B/A"}
	tm := dotSeries{shape: draw.TriangleGlyph{}, col: colorB, radius: vg.Points(3.5), label: "time B/A"}
	pp := pairedPoints{top: 1.4}
	var names []string
	if acct := r.Scorecard.Accounting; acct != nil {
		for i, pa := range acct.Pairs {
			names = append(names, fmt.Sprintf("%s r%d", pa.Task, pa.Repetition))
			pp.add(pa.CostRatio, float64(i)-0.15, &cost.xy, "cost")
			pp.add(pa.TimeRatio, float64(i)+0.15, &tm.xy, "time")
		}
	}
	return c.pairedFinish(names, &pp, cost, tm)
}

// pairedFinish draws a paired-ratio chart's series, its failing points and
// the 1.25 paired bound across the named categories ("unknown" alone when
// there are none) and renders it.
func (c *chart) pairedFinish(names []string, pp *pairedPoints, series ...dotSeries) ([]byte, error) {
	if len(names) == 0 {
		names = []string{"unknown"}
	}
	c.ratioAxis(pp.low, pp.top, pp.top)
	if err := c.dotSeries(series...); err != nil {
		return nil, err
	}
	if err := c.failing(pp.fail, pp.labels); err != nil {
		return nil, err
	}
	return c.finish(names, bound{y: 1.25, label: "paired bound 1.25"})
}

// failing draws the points above the 1.25 paired bound in the failure
// colour, each labelled with its value, and their legend entry.
func (c *chart) failing(fail plotter.XYs, labels []string) error {
	if err := c.dots(fail, draw.BoxGlyph{}, colorFail, vg.Points(3.5), "above 1.25: fails"); err != nil {
		return err
	}
	if len(fail) == 0 {
		return nil
	}
	l, err := plotter.NewLabels(plotter.XYLabels{XYs: fail, Labels: labels})
	if err != nil {
		return err
	}
	for i := range l.TextStyle {
		l.TextStyle[i].Color = colorFail
	}
	l.Offset = vg.Point{X: vg.Points(6), Y: vg.Points(-3)}
	c.p.Add(l)
	return nil
}

// ChartFile is one chart written beside report.md.
type ChartFile struct {
	Name string
	SVG  []byte
}

// Charts renders every chart report.md links: ChartMedianR, ChartRatios
// and ChartPairs.
func (r *Report) Charts() ([]ChartFile, error) {
	return drawCharts([]string{ChartMedianR, ChartRatios, ChartPairs}, r.MedianRChartSVG, r.RatiosChartSVG, r.PairedRatiosChartSVG)
}

// drawCharts draws each chart under its name, in order.
func drawCharts(names []string, draws ...func() ([]byte, error)) ([]ChartFile, error) {
	out := make([]ChartFile, 0, len(names))
	for i, draw := range draws {
		b, err := draw()
		if err != nil {
			return nil, err
		}
		out = append(out, ChartFile{names[i], b})
	}
	return out, nil
}
