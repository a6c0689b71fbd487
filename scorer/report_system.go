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

// WriteText renders report.md for a terminal as Report.WriteText does.
func (r *SystemReport) WriteText(w io.Writer, style string, width int) error {
	return writeMarkdownText(w, r.Markdown(false), style, width)
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
func (r *SystemReport) Markdown(charts bool) []byte {
	sc := r.Scorecard
	var b bytes.Buffer
	p := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	if r.Notice != "" {
		p("%s\n\n", r.Notice)
	}
	p("# verdict report: %s\n\n", sc.CampaignID)
	p("Design: %s (CONTRACT §6). Format: %s.\n\n", r.Design, r.Format)
	p("## Decision\n\n**%s**: %s\n\n", sc.Decision.Kind, sc.Decision.Summary)
	markdownFailing(&b, sc.Decision.FailingGates, sc.Decision.FailedPrerequisites)
	p("Every gate is evaluated on its own; the decision is the AND of all of them (EVALUATOR-CONTROLS C21). No patch-success claim is made.\n\n")

	markdownGates(&b, sc.Prerequisites, sc.Gates, "Gates (Madar stable core)", 0)
	p("\n## System scorecards\n\n")
	p("R_sys = correctly addressed repository-answerable obligations / all repository-answerable obligations: one frozen denominator shared by the three systems, never reduced by what a system returned. Truthful unknowns earn U credit only. Packet-supported coverage is reported, not gated.\n\n")
	p("| system | workflows | macro task-median R_sys | U set credited | truthful unknowns | packet-supported coverage | investigation failures | review failures | floors |\n|---|---|---|---|---|---|---|---|---|\n")
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
		p("| %s | %d | %s | %d of %d | %d | %s | %d of %d | %d of %d | %s |\n", SystemTitle(s.System), s.Workflows, fr(s.MacroMedianRSys, "unknown"),
			s.UncertaintyCredited, s.UncertaintyCases, s.TruthfulUnknowns, fr(s.PacketSupported, "unknown"),
			s.InvestigationFailures, s.Workflows, s.ValidFailures, s.Workflows, floors)
	}
	p("\n| system | warm (investigation + review) | setup, index, startup, readiness | whole-suite total |\n|---|---|---|---|\n")
	for _, s := range sc.Systems {
		p("| %s | %s | %s | %s |\n", SystemTitle(s.System), charge(s.Warm), charge(s.Setup), charge(s.Suite))
	}
	if charts {
		p("\n![Per-task median R_sys of each system](%s)\n", ChartSystemMedianR)
	}
	p("\n### Per-task R_sys\n\n| task | repository |")
	for _, s := range sc.Systems {
		p(" %s median R_sys (min) |", SystemTitle(s.System))
	}
	p("\n|---|---|%s\n", strings.Repeat("---|", len(sc.Systems)))
	if len(sc.Systems) > 0 {
		for i, t := range sc.Systems[0].Tasks {
			p("| %s | %s |", t.Task, t.Repository)
			for _, s := range sc.Systems {
				st := s.Tasks[i]
				p(" %s (%s) |", fr(st.MedianRSys, "unknown"), fr(st.MinRSys, "unknown"))
			}
			p("\n")
		}
	}

	p("\n## Paired results\n\n")
	if charts {
		p("![Madar against each comparator: whole-suite and task-median ratios](%s)\n\n", ChartSystemRatios)
		p("![Every paired complete-workflow ratio against 1.25](%s)\n\n", ChartSystemPairs)
	}
	for _, c := range sc.Comparisons {
		name := SystemTitle(c.Comparator)
		p("### Madar against %s\n\n", name)
		p("Whole-suite Madar/%s (setup included): cost %s, time %s. Macro R_sys loss against %s: %s.\n\n", name, c.SuiteCostRatio, c.SuiteTimeRatio, name, fr(c.MacroLoss, "unknown"))
		p("| task | ΔR_sys median | cost ratio | time ratio |\n|---|---|---|---|\n")
		for _, t := range c.Tasks {
			p("| %s | %s | %s | %s |\n", t.Task, fr(t.DeltaMedianRSys, "unknown"), t.CostRatio, t.TimeRatio)
		}
		p("\n| task | repetition | Madar R_sys | %s R_sys | ΔR_sys | Madar critical | %s critical | cost ratio | time ratio |\n|---|---|---|---|---|---|---|---|---|\n", name, name)
		for _, x := range c.Pairs {
			p("| %s | %d | %s | %s | %s | %v | %v | %s | %s |\n", x.Task, x.Repetition, frCount(x.MadarRSys), frCount(x.OtherRSys), x.DeltaRSys.Decimal(),
				x.MadarCritical, x.OtherCritical, x.CostRatio, x.TimeRatio)
		}
		p("\n")
	}

	p("## Startup costs\n\nEvery cold setup, index, startup, readiness and refresh charge, per system and repository, charged in full and never amortised; the Serena initial_instructions call is setup overhead, never evidence.\n\n")
	if len(sc.Setup) == 0 {
		p("No setup charge was recorded.\n\n")
	} else {
		p("| system | repository | attributed workflow | kind | cost | time |\n|---|---|---|---|---|---|\n")
		for _, x := range sc.Setup {
			repo, wf := x.Repository, x.Workflow
			if repo == "" {
				repo = "(system-wide)"
			}
			if wf == "" {
				wf = "(none: whole-suite total only)"
			}
			p("| %s | %s | %s | %s | %s | %s |\n", SystemTitle(x.System), repo, wf, mdEscape(x.Kind), usd(x.Cost), x.Time)
		}
		p("\n")
	}
	p("| system | repository | cold first task | complete charge (setup included) |\n|---|---|---|---|\n")
	for _, s := range sc.Systems {
		for _, c := range s.ColdFirst {
			p("| %s | %s | %s r%d | %s |\n", SystemTitle(s.System), c.Repository, c.Task, c.Repetition, charge(c.Charge))
		}
	}

	p("\n## Failures\n\nInvestigation-stage failures keep every charge; their review is not launched; R_sys and U are zero and critical completion fails.\n\n")
	nf := 0
	for _, w := range sc.Workflows {
		if w.Review.Outcome == OutcomeAnswered {
			continue
		}
		if nf == 0 {
			p("| workflow | system | task | repetition | outcome | charge |\n|---|---|---|---|---|---|\n")
		}
		nf++
		outcome := string(w.Review.Outcome)
		if w.Review.FailureKind != "" {
			outcome += " (" + w.Review.FailureKind + ")"
		}
		p("| %s | %s | %s | %d | %s | %s |\n", w.ID, SystemTitle(w.System), w.Task, w.Repetition, outcome, charge(w.Complete))
	}
	if nf == 0 {
		p("No workflow failed.\n")
	}
	p("\n")

	markdownAutomaticHuman(&b, r.Automatic, r.Human, 0)

	p("## Every workflow\n\n| workflow | task | rep | position | system | outcome | R_sys | U | packet-supported | truthful unknowns | critical failed | source gate | complete charge | cold |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, w := range sc.Workflows {
		x := w.Review
		outcome := string(x.Outcome)
		if x.FailureKind != "" {
			outcome += " (" + x.FailureKind + ")"
		}
		p("| %s | %s | %d | %d | %s | %s | %s | %s | %s | %d | %v | %s | %s | %v |\n", w.ID, w.Task, w.Repetition, w.Position, SystemTitle(w.System), outcome,
			frCount(w.RSys), fr(x.U, "undefined"), fr(w.PacketSupported, "unknown"), w.TruthfulUnknowns, x.CriticalCompletionFailed, yes(x.SourceGate), charge(w.Complete), w.Cold)
	}
	markdownProvenance(&b, r.Provenance, 0)
	return b.Bytes()
}
