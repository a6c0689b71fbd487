package scorer

import (
	"bytes"
	"fmt"
	"math/big"
	"slices"
	"strings"

	"verdict/adjudication"
	"verdict/internal/plural"
)

// Chart file names written beside report.md.
const (
	ChartMedianR = "median-r.svg"
	ChartRatios  = "cost-time-ratios.svg"
	ChartPairs   = "paired-ratios.svg"
)

// fr renders an optional fraction: "0.833 (5/6)", or what for nil
// ("unknown" where unmeasured, "undefined" where the denominator is empty).
func fr(f *Fraction, what string) string {
	if f == nil {
		return what
	}
	return f.Decimal() + " (" + f.String() + ")"
}

// frNum renders R as "0.800 (8 of 10)", keeping the given denominator.
func frCount(f Fraction) string {
	return fmt.Sprintf("%s (%d of %d)", f.Decimal(), f.Num(), f.Den())
}

func yes(b bool) string {
	if b {
		return "pass"
	}
	return "FAIL"
}

func mdEscape(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ").Replace(s)
}

// bar renders a value in [0, max] as a fixed-width bar of width cells.
func bar(v *big.Rat, max *big.Rat, width int) string {
	if v == nil {
		return strings.Repeat("·", width)
	}
	r := new(big.Rat).Quo(v, max)
	r.Mul(r, big.NewRat(int64(width), 1))
	f, _ := r.Float64()
	n := min(max0(int(f+0.5)), width)
	return strings.Repeat("█", n) + strings.Repeat("░", width-n)
}

func max0(n int) int {
	if n < 0 {
		return 0
	}
	return n
}

func ratOf(f *Fraction) *big.Rat {
	if f == nil {
		return nil
	}
	return f.Rat()
}

// MedianRBars renders per-task median R of A and B as text bars, one line
// per arm and task (the terminal view's chart).
func (r *Report) MedianRBars() string {
	var b strings.Builder
	one := big.NewRat(1, 1)
	for _, t := range r.Scorecard.Tasks {
		for _, arm := range []struct {
			name string
			s    ArmTaskScore
		}{{"A", t.A}, {"B", t.B}} {
			fmt.Fprintf(&b, "%-4s %s %s %s\n", t.Task, arm.name, bar(ratOf(arm.s.MedianR), one, 30), fr(arm.s.MedianR, "unknown"))
		}
	}
	return b.String()
}

// Markdown renders report.md. Its first line is SyntheticNotice for a
// synthetic campaign. It shows counts with their denominators, medians and
// tails, "unknown" where a value was not measured, and keeps automatic
// validation apart from recorded human decisions. With charts, it links the
// SVG charts written beside it (ChartMedianR, ChartRatios, ChartPairs).
func (r *Report) Markdown(charts bool) []byte {
	sc := r.Scorecard
	var b bytes.Buffer
	p := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	if r.Notice != "" {
		p("%s\n\n", r.Notice)
	}
	p("# verdict report: %s\n\n", sc.CampaignID)
	p("Phase: %s. Format: %s.\n\n", sc.Phase, r.Format)
	p("## Decision\n\n**%s**: %s\n\n", sc.Decision.Kind, sc.Decision.Summary)
	markdownFailing(&b, sc.Decision.FailingGates, sc.Decision.FailedPrerequisites)
	if sc.Decision.ACeiling {
		p("A ceiling: A's macro-average task-median R leaves less than 0.10 of headroom.\n\n")
	}
	p("Every gate is evaluated on its own; the decision is the AND of all of them (EVALUATOR-CONTROLS C21).\n\n")

	markdownGates(&b, sc.Prerequisites, sc.Gates, "Gates")
	p("\n## Final evidence and plan correctness\n\n")
	p("Macro-average task-median R: A %s, B %s; gain %s (eligible tasks only).\n\n",
		fr(sc.MacroMedianRA, "unknown"), fr(sc.MacroMedianRB, "unknown"), fr(sc.MacroGain, "unknown"))
	p("Uncertainty cases credited in B: %d of %d.\n\n", sc.UncertaintyCredited, sc.UncertaintyCases)
	if charts {
		p("![Per-task median R, A and B](%s)\n\n", ChartMedianR)
	}
	p("```\n%s```\n\n", r.MedianRBars())
	p("| task | repository | category | eligible | answerable / unanswerable | A median R (min) | B median R (min) | ΔR | A median U | B median U | B critical failures | B source failures |\n")
	p("|---|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, t := range sc.Tasks {
		el := "yes"
		if !t.Eligible {
			el = "no: " + t.IneligibleReason
		}
		p("| %s | %s | %s | %s | %d / %d | %s (%s) | %s (%s) | %s | %s | %s | %d of %d | %d of %d |\n",
			t.Task, t.Repository, t.Category, mdEscape(el), t.Answerable, t.Unanswerable,
			fr(t.A.MedianR, "unknown"), fr(t.A.MinR, "unknown"), fr(t.B.MedianR, "unknown"), fr(t.B.MinR, "unknown"),
			fr(t.DeltaR, "unknown"), fr(t.A.MedianU, "undefined"), fr(t.B.MedianU, "undefined"),
			t.B.CriticalCompletionFailures, t.B.Runs, t.B.SourceGateFailures, t.B.Runs)
	}
	p("\n### Repositories\n\n| repository | tasks | mean task-median R A | mean task-median R B | tasks improved |\n|---|---|---|---|---|\n")
	for _, s := range sc.Repositories {
		p("| %s | %s | %s | %s | %d of %d |\n", s.Repository, strings.Join(s.Tasks, ", "),
			fr(s.MeanMedianRA, "unknown"), fr(s.MeanMedianRB, "unknown"), s.Improved, len(s.Tasks))
	}
	p("\n### Paired outcomes\n\n| task | repetition | order | A | B | A R | B R | ΔR | cost B/A | time B/A |\n|---|---|---|---|---|---|---|---|---|---|\n")
	for _, x := range sc.Pairs {
		p("| %s | %d | %s | %s %s | %s %s | %s | %s | %s | %s | %s |\n", x.Task, x.Repetition, x.Order,
			x.ASession, x.AOutcome, x.BSession, x.BOutcome, frCount(x.AR), frCount(x.BR), x.DeltaR.Decimal(), x.CostRatio, x.TimeRatio)
	}

	p("\n## Source and protocol correctness\n\n")
	p("Structural success is reported separately from semantic correctness.\n\n")
	p("| arm | reviews | valid failures | source gate pass | critical completion failed | critical wrong claims | unsupported claims | wrong claims | unscorable claim counts | ledger structural pass | protocol gate pass |\n")
	p("|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, arm := range []Arm{ArmA, ArmB} {
		var n, vf, src, crit, cw, un, wr, unsc, ps, pg int
		for _, x := range sc.Runs {
			if x.Arm != arm {
				continue
			}
			n++
			if x.Outcome != OutcomeAnswered {
				vf++
			}
			if x.SourceGate {
				src++
			}
			if x.CriticalCompletionFailed {
				crit++
			}
			if x.Claims == nil {
				unsc++
			} else {
				cw += x.Claims.CriticalWrong
				un += x.Claims.Unsupported
				wr += x.Claims.Wrong
			}
			if x.ProtocolStructural != nil && *x.ProtocolStructural {
				ps++
			}
			if x.ProtocolGate != nil && *x.ProtocolGate {
				pg++
			}
		}
		structural, protocol := "not applicable", "not applicable"
		if arm == ArmB {
			structural, protocol = fmt.Sprintf("%d of %d", ps, n), fmt.Sprintf("%d of %d", pg, n)
		}
		p("| %s | %d | %d of %d | %d of %d | %d of %d | %d | %d | %d | %d of %d | %s | %s |\n",
			arm, n, vf, n, src, n, crit, n, cw, un, wr, unsc, n, structural, protocol)
	}
	p("\nClaim counts cover reviews with a valid answer only; a review without one is unscorable, never counted as zero.\n\n")

	r.markdownCostTime(&b, charts)

	markdownAutomaticHuman(&b, r.Automatic, r.Human)

	p("## Every run\n\n| task | rep | arm | session | outcome | R | U | critical failed | source gate | protocol gate | failures |\n|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, x := range sc.Runs {
		pg := "not applicable"
		if x.ProtocolGate != nil {
			pg = yes(*x.ProtocolGate)
		}
		fails := slices.Concat(x.SourceFailures, x.ProtocolFailures)
		outcome := string(x.Outcome)
		if x.FailureKind != "" {
			outcome += " (" + x.FailureKind + ")"
		}
		p("| %s | %d | %s | %s | %s | %s | %s | %v | %s | %s | %s |\n", x.Task, x.Repetition, x.Arm, x.Session, outcome,
			frCount(x.R), fr(x.U, "undefined"), x.CriticalCompletionFailed, yes(x.SourceGate), pg, mdEscape(strings.Join(fails, ", ")))
	}
	markdownProvenance(&b, r.Provenance)
	return b.Bytes()
}

// markdownFailing names the failing gates and failed prerequisites of a
// decision, when there are any.
func markdownFailing(b *bytes.Buffer, gates, prereqs []string) {
	if len(gates) > 0 {
		fmt.Fprintf(b, "Failing gates: %s.\n\n", strings.Join(gates, ", "))
	}
	if len(prereqs) > 0 {
		fmt.Fprintf(b, "Failed prerequisites: %s.\n\n", strings.Join(prereqs, ", "))
	}
}

// markdownGates writes the execution prerequisites and, under the heading
// title, every gate with each of its checks (either design's report).
func markdownGates(b *bytes.Buffer, prereqs []Prerequisite, gates []DecisionGate, title string) {
	p := func(format string, a ...any) { fmt.Fprintf(b, format, a...) }
	p("## Execution prerequisites\n\n| prerequisite | result | detail |\n|---|---|---|\n")
	for _, x := range prereqs {
		p("| %s | %s | %s |\n", x.ID, yes(x.OK), mdEscape(x.Detail))
	}
	p("\n## %s\n\n| gate | result | check | observed | threshold |\n|---|---|---|---|---|\n", title)
	for _, g := range gates {
		for i, c := range g.Checks {
			name, res := "", ""
			if i == 0 {
				name, res = g.ID, yes(g.Pass)
			}
			p("| %s | %s | %s: %s | %s | %s |\n", name, res, c.ID, yes(c.Pass), mdEscape(c.Observed), mdEscape(c.Threshold))
		}
	}
}

// markdownAutomaticHuman writes the automatic validation and recorded
// human decisions sections of either design's report, kept apart
// (EVALUATOR-CONTROLS: automatic validation versus human decisions).
func markdownAutomaticHuman(b *bytes.Buffer, auto AutomaticSection, h HumanSection) {
	p := func(format string, a ...any) { fmt.Fprintf(b, format, a...) }
	p("\n## Automatic validation\n\n")
	p("Decided by the machine, without a human: %s validated; %s.\n\n", plural.Count(auto.Responses, "response", "responses"), plural.Count(len(auto.Findings), "structural finding", "structural findings"))
	if len(auto.FindingCounts) > 0 {
		p("| code | scope | count |\n|---|---|---|\n")
		for _, c := range auto.FindingCounts {
			p("| %s | %s | %d |\n", c.Code, c.Scope, c.Count)
		}
		p("\n")
		for _, f := range auto.Findings {
			p("- `%s#%s` %s: %s [%s]\n", f.File, f.Pointer, f.Code, mdEscape(f.Message), f.Rule)
		}
		p("\n")
	}
	p("Leak scan of the rater bundles: %d finding(s).\n\n", len(auto.LeakFindings))
	for _, l := range auto.LeakFindings {
		p("- %s\n", mdEscape(l))
	}

	p("\n## Recorded human decisions\n\n")
	p("Settled fields: %d (%d agreed by both frozen sheets, %d adjudicated).\n\n", h.Fields, h.Agreed, h.Adjudicated)
	if ag := h.Agreement; ag != nil {
		p("Agreement of the two frozen sheets (%s).\n\n", ag.FieldsCounted)
		p("| group | fields | percent agreement | Cohen's kappa | Krippendorff's alpha |\n|---|---|---|---|---|\n")
		rows := append(append([]adjudication.AgreementRow{ag.All}, ag.ByKind...), ag.OracleDefect)
		for _, a := range rows {
			p("| %s | %d | %s | %s | %s |\n", a.Group, a.Fields, a.Percent, a.Kappa, a.Alpha)
		}
		p("\n")
	} else {
		p("Agreement statistics: unknown (no sheets were handed to the report).\n\n")
	}
	p("Oracle defects confirmed in adjudication: %d", len(h.OracleDefects))
	if len(h.OracleDefects) > 0 {
		p(" (%s; each invalidates its task and the campaign gate, C22)", strings.Join(h.OracleDefects, ", "))
	}
	p(".\n\n")
	if len(h.Records) > 0 {
		p("| signed record | signer | role | key | SHA-256 |\n|---|---|---|---|---|\n")
		for _, x := range h.Records {
			p("| %s | %s | %s | `%s` | `%s` |\n", x.Kind, x.Signer, x.Role, x.Fingerprint, x.SHA256)
		}
		p("\n")
	}
}

// markdownProvenance writes the provenance section: the verdict build, the
// manifest's SHA-256 and the schema digests (the signed records' digests
// are in the recorded human decisions above).
func markdownProvenance(b *bytes.Buffer, pv Provenance) {
	p := func(format string, a ...any) { fmt.Fprintf(b, format, a...) }
	p("\n## Provenance\n\n")
	p("| what | identity |\n|---|---|\n")
	p("| verdict build | %s |\n", mdEscape(pv.Build.String()))
	manifest := pv.ManifestSHA256
	if manifest == "" {
		manifest = "unknown"
	}
	p("| manifest.json SHA-256 | `%s` |\n", manifest)
	for _, s := range pv.Schemas {
		p("| schema %s SHA-256 | `%s` |\n", mdEscape(s.Name), s.SHA256)
	}
	p("\nThe SHA-256 of every signed record used is listed with the recorded human decisions.\n")
	if rv := pv.PromptRevision; rv != nil {
		p("\nB's instruction is revision %s (`%s`), unified diff against the frozen v1.0 text:\n\n```diff\n%s```\n", rv.Label, mdEscape(rv.File), rv.Diff)
	}
}

// markdownCostTime writes the complete cost-and-time section from the
// accounting report: aggregate and review-only ratios, per-task ratios,
// medians and tails of complete-workflow cost and time per arm, physical
// billing versus allocation.
func (r *Report) markdownCostTime(b *bytes.Buffer, charts bool) {
	p := func(format string, a ...any) { fmt.Fprintf(b, format, a...) }
	p("## Complete cost and time\n\n")
	acct := r.Scorecard.Accounting
	if acct == nil {
		p("Cost and time: unknown (no accounting was measured).\n")
		return
	}
	p("Aggregate B/A (Σ B task medians / Σ A task medians): cost %s, time %s (bound 1.10 each).", acct.CostRatio, acct.TimeRatio)
	for _, l := range []string{acct.CostLabel, acct.TimeLabel} {
		if l != "" {
			p(" %s.", l)
		}
	}
	p("\n\nReview-only B/A: cost %s, time %s (reported so the shared draft cannot hide overhead; not gated).\n\n", acct.ReviewCostRatio, acct.ReviewTimeRatio)
	if charts {
		p("![Cost and time ratios against their bounds](%s)\n\n", ChartRatios)
		p("![Every paired complete-workflow ratio against 1.25](%s)\n\n", ChartPairs)
	}
	p("| task | repetitions | median cost A | median cost B | cost B/A | median time A | median time B | time B/A |\n|---|---|---|---|---|---|---|---|\n")
	for _, t := range acct.Tasks {
		p("| %s | %d | %s | %s | %s | %s | %s | %s |\n", t.Task, t.Repetitions, usd(t.MedianCostA.Exact), usd(t.MedianCostB.Exact), t.CostRatio,
			t.MedianTimeA, t.MedianTimeB, t.TimeRatio)
	}
	p("\n| arm | complete workflows | cost median | cost max (tail) | time median | time max (tail) |\n|---|---|---|---|---|---|\n")
	for _, arm := range []string{"A", "B"} {
		var costs []Money
		var times []Nanos
		for _, x := range acct.Pairs {
			w := x.A
			if arm == "B" {
				w = x.B
			}
			costs = append(costs, w.Cost)
			times = append(times, w.Time)
		}
		p("| %s | %d | %s | %s | %s | %s |\n", arm, len(acct.Pairs), usd(Median(costs)), usd(Max(costs)), Median(times), Max(times))
	}
	pb := acct.PhysicalBilling
	p("\nPhysical campaign billing (each session once, shared draft once): %d sessions, %s input and %s output tokens, reference cost %s USD, actual attributable charge %s USD, execution time %s.\n",
		pb.Sessions, pb.InputTokens, pb.OutputTokens, pb.ReferenceCost, pb.ActualCharge, pb.ExecutionTime)
	p("Comparative allocation (shared draft in both complete workflows): A %s USD, B %s USD.\n", acct.AllocatedCostA, acct.AllocatedCostB)
}

// usd renders an amount as "0.0407952 USD", or "unknown".
func usd(m Money) string {
	if !m.Known {
		return "unknown"
	}
	return m.String() + " USD"
}
