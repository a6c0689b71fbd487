package scorer

import "io"

// ScoreReport is the report of one score run of either design: a Report
// (fixed evidence, CONTRACT §4) or a SystemReport (the system comparison,
// CONTRACT §6). The score command, demo and export write and print it
// through these methods alone.
type ScoreReport interface {
	// WriteJSON streams report.json to w.
	WriteJSON(w io.Writer) error
	// Markdown is report.md; charts links the SVG charts beside it.
	Markdown(charts bool) []byte
	// WriteText renders the report for a terminal width columns wide in
	// the glamour style given.
	WriteText(w io.Writer, style string, width int) error
	// Charts are the SVG charts written beside report.md.
	Charts() ([]ChartFile, error)
	// Outcome is the decision the report states (one of the design's
	// Shape.Outcomes).
	Outcome() Decision
}

// BuildDesignReport is the report of a scorecard of either design:
// BuildSystemReport of sc.Systems for a system comparison (CONTRACT §6),
// else BuildReport.
func BuildDesignReport(sc *Scorecard, ctx ReportContext) ScoreReport {
	if sc.Systems != nil {
		return BuildSystemReport(sc.Systems, ctx)
	}
	return BuildReport(sc, ctx)
}

// Outcome is the scorecard's decision.
func (r *Report) Outcome() Decision { return r.Scorecard.Decision }

// Outcome is the system scorecard's decision (its comparators that are
// simpler and cheaper are in the report itself).
func (r *SystemReport) Outcome() Decision {
	return Decision{DecisionCore: r.Scorecard.Decision.DecisionCore}
}
