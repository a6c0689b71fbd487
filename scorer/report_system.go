package scorer

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strings"

	"verdict/campaign"
)

// SystemReportFormat names the report.json format of a system comparison.
const SystemReportFormat = "verdict-system-report-v1"

// Chart file names written beside a system comparison's report.md.
const (
	ChartSystemMedianR = "system-median-r-sys.svg"
	ChartSystemRatios  = "system-cost-time-ratios.svg"
	ChartSystemPairs   = "system-paired-ratios.svg"
)

// SystemReport is report.json of a system comparison (CONTRACT §6): the
// notice, format, design, provenance, the system scorecard, and the
// automatic and human sections built as for the first experiment.
type SystemReport struct {
	Notice     string           `json:"notice,omitempty"`
	Format     string           `json:"format"`
	Design     campaign.Design  `json:"design"`
	Provenance Provenance       `json:"provenance"`
	Scorecard  *SystemScorecard `json:"system_scorecard"`
	Automatic  AutomaticSection `json:"automatic_validation"`
	Human      HumanSection     `json:"recorded_human_decisions"`
}

// SystemSourceFailuresIntro opens report.md's table of the answered
// reviews that fail their source gate (one row a review: workflow,
// system, task, repetition and its source failures, e.g.
// "structural:source-backed-claim-without-evidence:/final/claims/0/evidence_ids").
const SystemSourceFailuresIntro = "Answered reviews failing their source gate, with each reason: final-answer structural and citation findings (structural:code:pointer) and the semantic failures of their grades."

// BuildSystemReport assembles a SystemReport from a system scorecard and
// its context; it copies and sorts every list it is handed.
func BuildSystemReport(sc *SystemScorecard, ctx ReportContext) *SystemReport {
	r := &SystemReport{Format: SystemReportFormat, Design: campaign.DesignSystemComparison, Scorecard: sc}
	r.Provenance, r.Notice = reportHead(ctx.Provenance, sc.Synthetic)
	r.Automatic = automaticSection(ctx)
	var defects []string
	for _, w := range sc.Workflows {
		for _, o := range w.Review.OracleDefects {
			defects = append(defects, w.Task+"/"+o)
		}
	}
	slices.Sort(defects)
	r.Human = humanSection(ctx, slices.Compact(defects))
	return r
}

// WriteJSON streams report.json to w as Report.WriteJSON does.
func (r *SystemReport) WriteJSON(w io.Writer) error { return campaign.EncodeJSON(w, r) }

// WriteText renders report.md for a terminal as Report.WriteText does:
// laid out for width (every table whose cells do not fit whole becomes one
// paragraph per row, so no line is wider than width).
func (r *SystemReport) WriteText(w io.Writer, style string, width int) error {
	return writeMarkdownText(w, r.markdown(false, width-textMargin(style)), style, width)
}

// charge renders a charge as "0.0408 USD, 12.5s".
func charge(c SystemCharge) string { return usd(c.Cost) + ", " + c.Time.String() }

// Markdown renders a system comparison's report.md: the decision, the
// prerequisites, every gate and check, one scorecard per system (R_sys,
// the U set, truthful unknowns, packet-supported coverage, failures,
// warm, setup and whole-suite charges), per-task R_sys, the paired results
// against each comparator, every startup cost and cold first task, every
// failure, the automatic and human sections, every workflow and the
// provenance. Counts keep their denominators; "unknown" marks what was not
// measured. With charts it links ChartSystemMedianR, ChartSystemRatios and
// ChartSystemPairs.
func (r *SystemReport) Markdown(charts bool) []byte { return r.markdown(charts, 0) }

// markdown renders the system report's Markdown; width 0 is report.md, a
// terminal width lays out every table to fit it (table.write), as
// Report.markdown does for the first experiment.
func (r *SystemReport) markdown(charts bool, width int) []byte {
	sc := r.Scorecard
	var b bytes.Buffer
	p := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	markdownTitle(&b, r.Notice, sc.CampaignID)
	p("Design: %s (CONTRACT §6). Format: %s.\n\n", r.Design, r.Format)
	p("## Decision\n\n**%s**: %s\n\n", sc.Decision.Kind, sc.Decision.Summary)
	markdownFailing(&b, sc.Decision.FailingGates, sc.Decision.FailedPrerequisites)
	p("Every gate is evaluated on its own; the decision is the AND of all of them (EVALUATOR-CONTROLS C21). No patch-success claim is made.\n\n")

	markdownGates(&b, sc.Prerequisites, sc.Gates, "Gates (Madar stable core)", width)
	p("\n## System scorecards\n\n")
	p("R_sys = correctly addressed repository-answerable obligations / all repository-answerable obligations: one frozen denominator shared by the three systems, never reduced by what a system returned. Truthful unknowns (repository-answerable obligations settled truthful_unknown: the answer truthfully could not tell them) earn U credit only and are counted apart: they stay in the denominator, never count as addressed, and a critical one fails critical completion. The U set credited column is the separately frozen U set. Packet-supported coverage is reported, not gated.\n\n")
	cards := table{keys: 1, head: []string{"system", "workflows", "macro task-median R_sys", "U set credited", "truthful unknowns", "packet-supported coverage", "investigation failures", "review failures", "floors"}}
	for _, s := range sc.Systems {
		floors := "pass"
		if !s.MeetsRequiredQuality {
			var bad []string
			for _, g := range s.Floors {
				if !g.Pass {
					bad = append(bad, g.ID)
				}
			}
			floors = "FAIL: " + strings.Join(bad, ", ")
		}
		cards.row(SystemTitle(s.System), fmt.Sprint(s.Workflows), fr(s.MacroMedianRSys, "unknown"),
			fmt.Sprintf("%d of %d", s.UncertaintyCredited, s.UncertaintyCases), fmt.Sprint(s.TruthfulUnknowns), fr(s.PacketSupported, "unknown"),
			fmt.Sprintf("%d of %d", s.InvestigationFailures, s.Workflows), fmt.Sprintf("%d of %d", s.ValidFailures, s.Workflows), floors)
	}
	cards.write(&b, width)
	charges := table{keys: 1, head: []string{"system", "warm (investigation + review)", "setup, index, startup, readiness", "whole-suite total"}}
	for _, s := range sc.Systems {
		charges.row(SystemTitle(s.System), charge(s.Warm), charge(s.Setup), charge(s.Suite))
	}
	charges.write(&b, width)
	if charts {
		p("![Per-task median R_sys of each system](%s)\n\n", ChartSystemMedianR)
	}
	p("### Per-task R_sys\n\n")
	perTask := table{keys: 2, head: []string{"task", "repository"}}
	for _, s := range sc.Systems {
		perTask.head = append(perTask.head, SystemTitle(s.System)+" median R_sys (min)")
	}
	if len(sc.Systems) > 0 {
		for i, t := range sc.Systems[0].Tasks {
			cells := []string{t.Task, t.Repository}
			for _, s := range sc.Systems {
				st := s.Tasks[i]
				cells = append(cells, fmt.Sprintf("%s (%s)", fr(st.MedianRSys, "unknown"), fr(st.MinRSys, "unknown")))
			}
			perTask.row(cells...)
		}
	}
	perTask.write(&b, width)

	p("## Paired results\n\n")
	if charts {
		p("![Madar against each comparator: whole-suite and task-median ratios](%s)\n\n", ChartSystemRatios)
		p("![Every paired complete-workflow ratio against 1.25](%s)\n\n", ChartSystemPairs)
	}
	for _, c := range sc.Comparisons {
		name := SystemTitle(c.Comparator)
		p("### Madar against %s\n\n", name)
		p("Whole-suite Madar/%s (setup included): cost %s, time %s. Macro R_sys loss against %s: %s.\n\n", name, c.SuiteCostRatio, c.SuiteTimeRatio, name, fr(c.MacroLoss, "unknown"))
		tasks := table{keys: 1, head: []string{"task", "ΔR_sys median", "cost ratio", "time ratio"}}
		for _, t := range c.Tasks {
			tasks.row(t.Task, fr(t.DeltaMedianRSys, "unknown"), fmt.Sprint(t.CostRatio), fmt.Sprint(t.TimeRatio))
		}
		tasks.write(&b, width)
		pairs := table{keys: 2, head: []string{"task", "repetition", "Madar R_sys", name + " R_sys", "ΔR_sys", "Madar critical", name + " critical", "cost ratio", "time ratio"}}
		for _, x := range c.Pairs {
			pairs.row(x.Task, fmt.Sprint(x.Repetition), frCount(x.MadarRSys), frCount(x.OtherRSys), x.DeltaRSys.Decimal(),
				fmt.Sprint(x.MadarCritical), fmt.Sprint(x.OtherCritical), fmt.Sprint(x.CostRatio), fmt.Sprint(x.TimeRatio))
		}
		pairs.write(&b, width)
	}

	p("## Startup costs\n\nEvery cold setup, index, startup, readiness and refresh charge, per system and repository, charged in full and never amortised; the Serena initial_instructions call is setup overhead, never evidence.\n\n")
	if len(sc.Setup) == 0 {
		p("No setup charge was recorded.\n\n")
	} else {
		setup := table{keys: 2, head: []string{"system", "repository", "attributed workflow", "kind", "cost", "time"}}
		for _, x := range sc.Setup {
			repo, wf := x.Repository, x.Workflow
			if repo == "" {
				repo = "(system-wide)"
			}
			if wf == "" {
				wf = "(none: whole-suite total only)"
			}
			setup.row(SystemTitle(x.System), repo, wf, mdEscape(x.Kind), usd(x.Cost), fmt.Sprint(x.Time))
		}
		setup.write(&b, width)
	}
	cold := table{keys: 2, head: []string{"system", "repository", "cold first task", "complete charge (setup included)"}}
	for _, s := range sc.Systems {
		for _, c := range s.ColdFirst {
			cold.row(SystemTitle(s.System), c.Repository, fmt.Sprintf("%s r%d", c.Task, c.Repetition), charge(c.Charge))
		}
	}
	cold.write(&b, width)

	p("## Failures\n\nInvestigation-stage failures keep every charge; their review is not launched; R_sys and U are zero and critical completion fails.\n\n")
	failures := table{keys: 1, head: []string{"workflow", "system", "task", "repetition", "outcome", "charge"}}
	for _, w := range sc.Workflows {
		if w.Review.Outcome == OutcomeAnswered {
			continue
		}
		outcome := string(w.Review.Outcome)
		if w.Review.FailureKind != "" {
			outcome += " (" + w.Review.FailureKind + ")"
		}
		failures.row(w.ID, SystemTitle(w.System), w.Task, fmt.Sprint(w.Repetition), outcome, charge(w.Complete))
	}
	if len(failures.rows) == 0 {
		p("No workflow failed.\n\n")
	} else {
		failures.write(&b, width)
	}

	// A selected review B: each answered review whose ledger was refused
	// or has a finding fails its own protocol gate (CONTRACT §4, §6).
	broken := table{keys: 1, head: []string{"workflow", "system", "task", "repetition", "protocol failures"}}
	for _, w := range sc.Workflows {
		if x := w.Review; x.Outcome == OutcomeAnswered && x.ProtocolGate != nil && !*x.ProtocolGate {
			broken.row(w.ID, SystemTitle(w.System), w.Task, fmt.Sprint(w.Repetition), mdEscape(strings.Join(x.ProtocolFailures, ", ")))
		}
	}
	if len(broken.rows) > 0 {
		p("Answered reviews whose review-B ledger was refused or has a structural finding: each keeps its graded final answer and fails only its own protocol gate.\n\n")
		broken.write(&b, width)
	}

	// Each answered review failing its source gate, with the reasons:
	// final-answer structural and citation findings, and the semantic
	// failures of its grades (CONTRACT §4, §6).
	unsourced := table{keys: 1, head: []string{"workflow", "system", "task", "repetition", "source failures"}}
	for _, w := range sc.Workflows {
		if x := w.Review; x.Outcome == OutcomeAnswered && !x.SourceGate {
			unsourced.row(w.ID, SystemTitle(w.System), w.Task, fmt.Sprint(w.Repetition), mdEscape(strings.Join(x.SourceFailures, ", ")))
		}
	}
	if len(unsourced.rows) > 0 {
		p(SystemSourceFailuresIntro + "\n\n")
		unsourced.write(&b, width)
	}

	markdownAutomaticHuman(&b, r.Automatic, r.Human, width)

	p("## Every workflow\n\n")
	every := table{keys: 1, head: []string{"workflow", "task", "rep", "position", "system", "outcome", "R_sys", "U", "packet-supported", "truthful unknowns", "critical failed", "source gate", "protocol gate", "complete charge", "cold"}}
	for _, w := range sc.Workflows {
		x := w.Review
		outcome := string(x.Outcome)
		if x.FailureKind != "" {
			outcome += " (" + x.FailureKind + ")"
		}
		pg := "not applicable"
		if x.ProtocolGate != nil {
			pg = yes(*x.ProtocolGate)
		}
		every.row(w.ID, w.Task, fmt.Sprint(w.Repetition), fmt.Sprint(w.Position), SystemTitle(w.System), outcome,
			frCount(w.RSys), fr(x.U, "undefined"), fr(w.PacketSupported, "unknown"), fmt.Sprint(w.TruthfulUnknowns), fmt.Sprint(x.CriticalCompletionFailed), yes(x.SourceGate), pg, charge(w.Complete), fmt.Sprint(w.Cold))
	}
	every.write(&b, width)
	markdownProvenance(&b, r.Provenance, width)
	return b.Bytes()
}
