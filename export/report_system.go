package export

import (
	"fmt"
	"slices"
	"strings"

	"verdict/scorer"
	"verdict/verr"
)

// ReasonNoSuchTable: a table was asked of a report whose design has no
// such table (a fixed-evidence table of a system comparison, or the
// reverse).
const ReasonNoSuchTable verr.Reason = "table-not-in-design"

// Tables of a system comparison's report (CONTRACT §6; `verdict export
// NAME` on a system-comparison campaign).
const (
	// TableWorkflows: one row per scored workflow (system, task,
	// repetition): R_sys over the frozen denominator, U, packet-supported
	// coverage and the workflow's warm, cold-setup and complete charges.
	TableWorkflows = "workflows"
	// TableSystems: one row per system: macro median R_sys, U, packet
	// support, failures, setup, warm and whole-suite charges.
	TableSystems = "systems"
	// TableSystemPairs: one row per paired result of Madar against a
	// comparator (task and repetition).
	TableSystemPairs = "system-pairs"
)

// SystemReportTables lists every table of a system report, in the order
// `verdict export all` writes them.
func SystemReportTables() []string {
	return []string{TableWorkflows, TableSystems, TableSystemPairs}
}

// ReportTablesOf lists the tables of a report of either design:
// SystemReportTables for a SystemReport, else ReportTables.
func ReportTablesOf(rep scorer.ScoreReport) []string {
	if _, ok := rep.(*scorer.SystemReport); ok {
		return SystemReportTables()
	}
	return ReportTables()
}

// DesignReportTable flattens one table of a report of either design:
// ReportTable of a fixed-evidence Report, SystemReportTable of a
// SystemReport. A system table of a fixed-evidence report is refused
// with ReasonNoSuchTable, as is a fixed-evidence table of a system report.
func DesignReportTable(rep scorer.ScoreReport, name string) (*Table, error) {
	switch r := rep.(type) {
	case *scorer.Report:
		if slices.Contains(SystemReportTables(), name) {
			return nil, &verr.Error{Reason: ReasonNoSuchTable, Rule: "CONTRACT §4 report tables",
				Detail: fmt.Sprintf("table %q is a system comparison's; a fixed-evidence report's tables: %s", name, strings.Join(ReportTables(), ", "))}
		}
		return ReportTable(r, name)
	case *scorer.SystemReport:
		return SystemReportTable(r, name)
	}
	return nil, fmt.Errorf("export: no tables for a report of type %T", rep)
}

// charge writes a system charge's cost and time columns.
func charge(r *row, x string, c scorer.SystemCharge) {
	quantity(r, x+"_cost", c.Cost)
	quantity(r, x+"_time_ns", c.Time)
}

// chargeCols are a system charge's columns.
func chargeCols(x string) []string {
	return cols(quantityCols[scorer.PicoUSD](x+"_cost"), quantityCols[scorer.Nanosecond](x+"_time_ns"))
}

// SystemReportTable flattens one table of a system report (CONTRACT §6):
// workflows, systems or system-pairs. Another name is refused.
func SystemReportTable(rep *scorer.SystemReport, name string) (*Table, error) {
	sc := rep.Scorecard
	var t *Table
	switch name {
	case TableWorkflows:
		t = &Table{Columns: cols("workflow", "system", "task", "repository", "repetition", "position", "investigation_session", "review_session", "item",
			"outcome", "failure_kind", fracCols("r_sys"), fracCols("u"), fracCols("packet_supported"), "truthful_unknowns",
			"critical_completion_failed", "source_gate", "cold", "operations", chargeCols("warm"), chargeCols("cold_setup"), chargeCols("complete"))}
		for _, w := range sc.Workflows {
			r := t.newRow()
			r.set("workflow", w.ID)
			r.set("system", string(w.System))
			r.set("task", w.Task)
			r.set("repository", w.Repository)
			r.int("repetition", int64(w.Repetition))
			r.int("position", int64(w.Position))
			r.set("investigation_session", w.InvestigationSession)
			r.set("review_session", w.Review.Session)
			r.set("item", w.Review.Item)
			r.set("outcome", string(w.Review.Outcome))
			r.set("failure_kind", w.Review.FailureKind)
			r.frac("r_sys", &w.RSys, "")
			r.frac("u", w.Review.U, "undefined: the task has no obligation in its frozen U set")
			r.frac("packet_supported", w.PacketSupported, "not determined: the workflow's packet support could not be decided")
			r.int("truthful_unknowns", int64(w.TruthfulUnknowns))
			r.bool("critical_completion_failed", w.Review.CriticalCompletionFailed)
			r.bool("source_gate", w.Review.SourceGate)
			r.bool("cold", w.Cold)
			r.int("operations", int64(w.Operations))
			charge(r, "warm", w.Warm)
			charge(r, "cold_setup", w.ColdSetup)
			charge(r, "complete", w.Complete)
			r.done()
		}
	case TableSystems:
		t = &Table{Columns: cols("system", fracCols("macro_median_r_sys"), "uncertainty_credited", "uncertainty_cases", "truthful_unknowns",
			fracCols("packet_supported"), "workflows", "investigation_failures", "valid_failures", "meets_required_quality",
			chargeCols("setup"), chargeCols("warm"), chargeCols("suite"))}
		for _, s := range sc.Systems {
			r := t.newRow()
			r.set("system", string(s.System))
			r.frac("macro_median_r_sys", s.MacroMedianRSys, "undefined: the system has no eligible task")
			r.int("uncertainty_credited", int64(s.UncertaintyCredited))
			r.int("uncertainty_cases", int64(s.UncertaintyCases))
			r.int("truthful_unknowns", int64(s.TruthfulUnknowns))
			r.frac("packet_supported", s.PacketSupported, "not determined: a workflow's packet support could not be decided")
			r.int("workflows", int64(s.Workflows))
			r.int("investigation_failures", int64(s.InvestigationFailures))
			r.int("valid_failures", int64(s.ValidFailures))
			r.bool("meets_required_quality", s.MeetsRequiredQuality)
			charge(r, "setup", s.Setup)
			charge(r, "warm", s.Warm)
			charge(r, "suite", s.Suite)
			r.done()
		}
	case TableSystemPairs:
		t = &Table{Columns: cols("comparator", "task", "repetition", fracCols("madar_r_sys"), fracCols("other_r_sys"), fracCols("delta_r_sys"),
			"madar_critical", "other_critical", ratioCols("cost_ratio"), ratioCols("time_ratio"))}
		for _, c := range sc.Comparisons {
			for _, p := range c.Pairs {
				r := t.newRow()
				r.set("comparator", string(c.Comparator))
				r.set("task", p.Task)
				r.int("repetition", int64(p.Repetition))
				r.frac("madar_r_sys", &p.MadarRSys, "")
				r.frac("other_r_sys", &p.OtherRSys, "")
				r.frac("delta_r_sys", &p.DeltaRSys, "")
				r.bool("madar_critical", p.MadarCritical)
				r.bool("other_critical", p.OtherCritical)
				r.ratio("cost_ratio", p.CostRatio)
				r.ratio("time_ratio", p.TimeRatio)
				r.done()
			}
		}
	default:
		return nil, &verr.Error{Reason: ReasonNoSuchTable, Rule: "CONTRACT §6 system comparison report",
			Detail: fmt.Sprintf("a system comparison's report has no table %q (its tables: %s)", name, strings.Join(SystemReportTables(), ", "))}
	}
	t.Synthetic = sc.Synthetic
	return t, nil
}
