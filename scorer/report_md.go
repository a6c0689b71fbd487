package scorer

import (
	"bytes"
	"fmt"
	"math/big"
	"slices"
	"strconv"
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

// MedianRBars renders per-task median R of A and B as text bars from 0 to
// 1, one line per arm and task (the terminal view's chart). B's bars mark
// its 0.80 bound (CONTRACT §4 Gate 2) with "┆"; A has no such bound.
func (r *Report) MedianRBars() string {
	var b strings.Builder
	one := big.NewRat(1, 1)
	const width = 30
	th := PhaseThresholds(r.Scorecard.Phase).TaskMedianR
	bound := int((th.Num()*width*2 + th.Den()) / (2 * th.Den()))
	for _, t := range r.Scorecard.Tasks {
		for _, arm := range []struct {
			name string
			s    ArmTaskScore
		}{{"A", t.A}, {"B", t.B}} {
			cells := []rune(bar(ratOf(arm.s.MedianR), one, width))
			if arm.name == "B" && bound > 0 && bound < width {
				cells[bound] = '┆'
			}
			fmt.Fprintf(&b, "%-4s %s %s %s\n", t.Task, arm.name, string(cells), fr(arm.s.MedianR, "unknown"))
		}
	}
	return b.String()
}

// Markdown renders report.md. Its first line is SyntheticNotice for a
// synthetic campaign. Page 1 says what was compared (model, snapshot,
// consumer, host, price card, source commits, verdict build, the synthetic
// flag, what A and B are); then the decision, the three scorecards, the
// automatic and human sections, every run and the provenance. It shows
// counts with their denominators, medians and tails, "unknown" where a
// value was not measured, states the unit of every table, and keeps
// automatic validation apart from recorded human decisions. With charts,
// it links the SVG charts written beside it (ChartMedianR, ChartRatios,
// ChartPairs).
func (r *Report) Markdown(charts bool) []byte { return r.markdown(charts, 0) }

// markdownTitle writes the first lines of either design's report.md: the
// notice, when there is one, as its own paragraph, then the title naming
// the campaign.
func markdownTitle(b *bytes.Buffer, notice, campaignID string) {
	if notice != "" {
		fmt.Fprintf(b, "%s\n\n", notice)
	}
	fmt.Fprintf(b, "# verdict report: %s\n\n", campaignID)
}

// markdown renders the report's Markdown; width 0 is report.md, a
// terminal width lays out every table to fit it (table.write).
func (r *Report) markdown(charts bool, width int) []byte {
	sc := r.Scorecard
	var b bytes.Buffer
	p := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	markdownTitle(&b, r.Notice, sc.CampaignID)
	p("Phase: %s. Format: %s.\n\n", sc.Phase, r.Format)
	markdownIdentity(&b, r.Campaign, r.Provenance, width)
	p("## Decision\n\n**%s**: %s\n\n", sc.Decision.Kind, sc.Decision.Summary)
	markdownFailing(&b, sc.Decision.FailingGates, sc.Decision.FailedPrerequisites)
	if sc.Decision.ACeiling {
		p("A ceiling: A's macro-average task-median R leaves less than 0.10 of headroom.\n\n")
	}
	p("Every gate is evaluated on its own; the decision is the AND of all of them (EVALUATOR-CONTROLS C21).\n\n")

	markdownGates(&b, sc.Prerequisites, sc.Gates, "Gates", width)
	p("## Final evidence and plan correctness\n\n")
	p("R is the share of a task's answerable obligations a final answer addresses, U the share of its unanswerable ones handled as precise unknowns: fractions from 0 to 1, shown as decimal (numerator/denominator).\n\n")
	p("Macro-average task-median R: A %s, B %s; gain %s (eligible tasks only).\n\n",
		fr(sc.MacroMedianRA, "unknown"), fr(sc.MacroMedianRB, "unknown"), fr(sc.MacroGain, "unknown"))
	p("Uncertainty cases credited in B: %d of %d.\n\n", sc.UncertaintyCredited, sc.UncertaintyCases)
	if charts {
		p("![Per-task median R, A and B](%s)\n\n", ChartMedianR)
	}
	p("Per-task median R (bar: 0 to 1; B's bound 0.80 marked ┆ on B's bars):\n\n```\n%s```\n\n", r.MedianRBars())
	tasks := table{unit: "One row per task. R and U: fractions of obligations (0–1); failures: B reviews out of the task's B reviews.", keys: 1,
		head: []string{"task", "repository", "category", "eligible", "answerable / unanswerable obligations", "A median R (min)", "B median R (min)", "ΔR (B−A)", "A median U", "B median U", "B critical failures", "B source failures"}}
	for _, t := range sc.Tasks {
		el := "yes"
		if !t.Eligible {
			el = "no: " + t.IneligibleReason
		}
		tasks.row(t.Task, t.Repository, string(t.Category), mdEscape(el), fmt.Sprintf("%d / %d", t.Answerable, t.Unanswerable),
			fr(t.A.MedianR, "unknown")+" (min "+fr(t.A.MinR, "unknown")+")", fr(t.B.MedianR, "unknown")+" (min "+fr(t.B.MinR, "unknown")+")",
			fr(t.DeltaR, "unknown"), fr(t.A.MedianU, "undefined"), fr(t.B.MedianU, "undefined"),
			fmt.Sprintf("%d of %d", t.B.CriticalCompletionFailures, t.B.Runs), fmt.Sprintf("%d of %d", t.B.SourceGateFailures, t.B.Runs))
	}
	tasks.write(&b, width)
	p("### Repositories\n\n")
	repos := table{unit: "One row per repository. R: mean over its tasks of the task-median R (0–1); improved: tasks whose median R rose from A to B.", keys: 1,
		head: []string{"repository", "tasks", "mean task-median R, A", "mean task-median R, B", "tasks improved"}}
	for _, s := range sc.Repositories {
		repos.row(s.Repository, strings.Join(s.Tasks, ", "), fr(s.MeanMedianRA, "unknown"), fr(s.MeanMedianRB, "unknown"), fmt.Sprintf("%d of %d", s.Improved, len(s.Tasks)))
	}
	repos.write(&b, width)
	p("### Paired outcomes\n\n")
	pairs := table{unit: "One row per repetition of a task (a pair of complete workflows D+A and D+B). R: fraction of answerable obligations; cost and time B/A: ratios of the complete workflows (bound 1.25).", keys: 2,
		head: []string{"task", "repetition", "order", "A session", "B session", "A R", "B R", "ΔR", "cost B/A", "time B/A"}}
	for _, x := range sc.Pairs {
		pairs.row(x.Task, strconv.Itoa(x.Repetition), string(x.Order), x.ASession+" "+string(x.AOutcome), x.BSession+" "+string(x.BOutcome),
			frCount(x.AR), frCount(x.BR), x.DeltaR.Decimal(), x.CostRatio.String(), x.TimeRatio.String())
	}
	pairs.write(&b, width)

	p("## Source and protocol correctness\n\n")
	p("Structural success is reported separately from semantic correctness.\n\n")
	arms := table{unit: "One row per arm. Counts of reviews out of the arm's reviews; claim counts are claims summed over the reviews with a valid answer.", keys: 1,
		head: []string{"arm", "reviews", "valid failures", "source gate pass", "critical completion failed", "critical wrong claims", "unsupported claims", "wrong claims", "unscorable claim counts", "ledger structural pass", "protocol gate pass"}}
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
		of := func(k int) string { return fmt.Sprintf("%d of %d", k, n) }
		arms.row(string(arm), strconv.Itoa(n), of(vf), of(src), of(crit), strconv.Itoa(cw), strconv.Itoa(un), strconv.Itoa(wr), of(unsc), structural, protocol)
	}
	arms.write(&b, width)
	p("Claim counts cover reviews with a valid answer only; a review without one is unscorable, never counted as zero.\n\n")

	r.markdownCostTime(&b, charts, width)

	markdownAutomaticHuman(&b, r.Automatic, r.Human, width)

	p("## Every run\n\n")
	runs := table{unit: "One row per review session. R and U: fractions of the task's answerable and unanswerable obligations (0–1).", keys: 4,
		head: []string{"task", "rep", "arm", "session", "outcome", "R", "U", "critical failed", "source gate", "protocol gate", "failures"}}
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
		f := mdEscape(strings.Join(fails, ", "))
		if f == "" {
			f = "none"
		}
		runs.row(x.Task, strconv.Itoa(x.Repetition), string(x.Arm), x.Session, outcome,
			frCount(x.R), fr(x.U, "undefined"), strconv.FormatBool(x.CriticalCompletionFailed), yes(x.SourceGate), pg, f)
	}
	runs.write(&b, width)
	markdownProvenance(&b, r.Provenance, width)
	return b.Bytes()
}

// markdownIdentity writes report page 1: what A and B are, whether the
// campaign is synthetic, and the identities of what ran it (model,
// snapshot, consumer, host, tokenizer, price card, source commits) and of
// the verdict build that scored it. A value the manifest leaves null is
// "not recorded".
func markdownIdentity(b *bytes.Buffer, id *CampaignIdentity, pv Provenance, width int) {
	p := func(format string, a ...any) { fmt.Fprintf(b, format, a...) }
	p("## What was compared\n\n")
	if id == nil {
		p("Campaign identities: unknown (the report was made without its campaign).\n\n")
		return
	}
	p("%s\n\n", id.Arms)
	if id.Synthetic {
		p("Synthetic: **yes**. Every input is a synthetic fixture; nothing here is an experiment result.\n\n")
	} else {
		p("Synthetic: no.\n\n")
	}
	str := func(s *string) string {
		if s == nil {
			return "not recorded"
		}
		return mdEscape(*s)
	}
	t := table{unit: "Identities as the campaign's manifest records them.", keys: 1, plainKeys: true, head: []string{"what", "identity"}}
	t.row("contract", mdEscape(id.ContractVersion))
	t.row("model (requested)", str(id.Model))
	snap := str(id.ModelSnapshot)
	if id.ModelSnapshot == nil {
		snap = "none recorded: the model name is an alias, not an immutable snapshot (CONTRACT §5 Consumer pin)"
	}
	t.row("model snapshot", snap)
	t.row("reasoning effort", str(id.ReasoningEffort))
	t.row("consumer", str(id.Consumer))
	t.row("consumer executable SHA-256", code(id.ConsumerSHA256))
	t.row("tokenizer", str(id.Tokenizer))
	t.row("host", str(id.Host))
	card := "none: no defensible tariff, so the cost gate cannot pass"
	if c := id.PriceCard; c != nil {
		card = fmt.Sprintf("%s: US$%s uncached input, US$%s cached input, US$%s output, per million tokens", mdEscape(c.ID),
			perMillion(c.UncachedInputMicroUSDPerMTok), perMillion(c.CachedInputMicroUSDPerMTok), perMillion(c.OutputMicroUSDPerMTok))
		switch {
		case id.TariffVerified == nil:
			card += " (verification not recorded)"
		case *id.TariffVerified:
			card += " (verified for the model)"
		default:
			card += " (not verified for the model)"
		}
	}
	t.row("price card", card)
	for _, s := range id.SourceCommits {
		commit := s.Commit
		if commit == "" {
			commit = "unknown"
		}
		t.row("source commit", fmt.Sprintf("%s @ `%s` (%s)", mdEscape(s.Repository), commit, strings.Join(s.Tasks, ", ")))
	}
	if len(id.SourceCommits) == 0 {
		t.row("source commit", "none: no packet excerpt names one")
	}
	t.row("verdict build", mdEscape(pv.Build.String()))
	t.write(b, width)
}

// code renders an optional identity as code, or "not recorded".
func code(s *string) string {
	if s == nil {
		return "not recorded"
	}
	return "`" + mdEscape(*s) + "`"
}

// perMillion renders a micro-USD rate per million tokens in US dollars:
// 4000000 as "4", 400000 as "0.40", 1234567 as "1.234567".
func perMillion(micro int64) string {
	whole, frac := micro/1_000_000, micro%1_000_000
	if frac == 0 {
		return strconv.FormatInt(whole, 10)
	}
	f := strings.TrimRight(fmt.Sprintf("%06d", frac), "0")
	if len(f) < 2 {
		f += "0"
	}
	return fmt.Sprintf("%d.%s", whole, f)
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
// title, every gate with each of its checks (either design's report),
// laid out for width (0: report.md).
func markdownGates(b *bytes.Buffer, prereqs []Prerequisite, gates []DecisionGate, title string, width int) {
	fmt.Fprintf(b, "## Execution prerequisites\n\n")
	pt := table{unit: "One row per prerequisite: pass or FAIL.", keys: 1, head: []string{"prerequisite", "result", "detail"}}
	for _, x := range prereqs {
		pt.row(x.ID, yes(x.OK), mdEscape(x.Detail))
	}
	pt.write(b, width)
	fmt.Fprintf(b, "## %s\n\n", title)
	gt := table{unit: "One row per check of a gate; observed and threshold are in the check's own unit (R: fraction of answerable obligations; ratios: B/A; counts: reviews or tasks).", keys: 2,
		head: []string{"gate", "check", "result", "observed", "threshold"}}
	for _, g := range gates {
		for i, c := range g.Checks {
			name := ""
			if i == 0 {
				name = g.ID + " (" + yes(g.Pass) + ")"
			}
			gt.row(name, c.ID, yes(c.Pass), mdEscape(c.Observed), mdEscape(c.Threshold))
		}
	}
	gt.write(b, width)
}

// MinMeaningfulPairs is the least number of paired fields over which the
// report presents an agreement statistic as a measurement: below it one
// field more or less moves percent agreement by more than 0.1, and kappa
// and alpha by more, so the report gives the counts and the confusion
// matrix and marks the statistics as not meaningful.
const MinMeaningfulPairs = 10

// agreementStat renders one agreement statistic of row for the report:
// its value and n, or "undefined (reason)"; a value that would read as a
// measurement where it is none says so instead: over fewer than
// MinMeaningfulPairs pairs, or a chance-corrected statistic (chance set)
// when one rater gave a single value throughout (kappa and alpha are then
// 0 or below whatever the agreement, because the chance agreement equals
// the observed one).
func agreementStat(s adjudication.Statistic, row adjudication.AgreementRow, chance bool) string {
	switch {
	case !s.Defined:
		return s.String()
	case s.N < MinMeaningfulPairs:
		return fmt.Sprintf("not meaningful: n=%d < %d (value %.3f)", s.N, MinMeaningfulPairs, s.Value)
	case chance && oneRaterOneValue(row.Confusion):
		return fmt.Sprintf("not meaningful: one rater gave one value only (value %.3f, n=%d)", s.Value, s.N)
	}
	return s.String()
}

// oneRaterOneValue reports whether a rater gave the same value on every
// paired field of c (not_graded cells aside).
func oneRaterOneValue(c *adjudication.Confusion) bool {
	if c == nil {
		return false
	}
	var rows, cols int
	for i, v := range c.Values {
		if v == adjudication.NotGraded {
			continue
		}
		var rs, cs int64
		for j, w := range c.Values {
			if w == adjudication.NotGraded {
				continue
			}
			rs += c.Counts[i][j]
			cs += c.Counts[j][i]
		}
		if rs > 0 {
			rows++
		}
		if cs > 0 {
			cols++
		}
	}
	return rows == 1 || cols == 1
}

// markdownAutomaticHuman writes the automatic validation and recorded
// human decisions sections of either design's report, kept apart
// (EVALUATOR-CONTROLS: automatic validation versus human decisions), laid
// out for width (0: report.md).
func markdownAutomaticHuman(b *bytes.Buffer, auto AutomaticSection, h HumanSection, width int) {
	p := func(format string, a ...any) { fmt.Fprintf(b, format, a...) }
	p("## Automatic validation\n\n")
	p("Decided by the machine, without a human: %s validated; %s.\n\n", plural.Count(auto.Responses, "response", "responses"), plural.Count(len(auto.Findings), "structural finding", "structural findings"))
	if len(auto.FindingCounts) > 0 {
		t := table{unit: "One row per reason code and scope: number of findings.", keys: 1, head: []string{"code", "scope", "findings"}}
		for _, c := range auto.FindingCounts {
			t.row(c.Code, string(c.Scope), strconv.Itoa(c.Count))
		}
		t.write(b, width)
		for _, f := range auto.Findings {
			p("- `%s#%s` %s: %s [%s]\n", f.File, f.Pointer, f.Code, mdEscape(f.Message), f.Rule)
		}
		p("\n")
	}
	p("Leak scan of the rater bundles: %s.\n\n", plural.Count(len(auto.LeakFindings), "finding", "findings"))
	for _, l := range auto.LeakFindings {
		p("- %s\n", mdEscape(l))
	}
	if len(auto.LeakFindings) > 0 {
		p("\n")
	}

	p("## Recorded human decisions\n\n")
	p("Settled fields: %d (%d agreed by both frozen sheets, %d adjudicated).\n\n", h.Fields, h.Agreed, h.Adjudicated)
	if ag := h.Agreement; ag != nil {
		p("Agreement of the two frozen sheets (%s).\n\n", ag.FieldsCounted)
		t := table{unit: fmt.Sprintf("One row per group of fields: number of fields, and each statistic from 0 (or below: worse than chance) to 1 with n, the number of paired fields. A statistic over fewer than %d pairs is marked not meaningful.", MinMeaningfulPairs), keys: 1,
			head: []string{"group", "fields", "percent agreement", "Cohen's kappa", "Krippendorff's alpha"}}
		pooled := ag.All
		pct, kappa, alpha := agreementStat(pooled.Percent, pooled, false), agreementStat(pooled.Kappa, pooled, true), agreementStat(pooled.Alpha, pooled, true)
		if pooled.Kappa.Defined {
			kappa += ", pooled across kinds"
		}
		if pooled.Alpha.Defined {
			alpha += ", pooled across kinds"
		}
		t.row("all kinds pooled", strconv.Itoa(pooled.Fields), pct, kappa, alpha)
		for _, a := range append(slices.Clone(ag.ByKind), ag.OracleDefect) {
			t.row(a.Group, strconv.Itoa(a.Fields), agreementStat(a.Percent, a, false), agreementStat(a.Kappa, a, true), agreementStat(a.Alpha, a, true))
		}
		t.write(b, width)
		p("The pooled row mixes the value scales of every kind (an obligation's addressed and a citation's supports count as one category set), so its kappa and alpha are no measure of any one judgement; read the rows per kind and their confusion matrices below.\n\n")
		for _, a := range append(slices.Clone(ag.ByKind), ag.OracleDefect) {
			markdownConfusion(b, a, width)
		}
	} else {
		p("Agreement statistics: unknown (no sheets were handed to the report).\n\n")
	}
	p("Oracle defects confirmed in adjudication: %d", len(h.OracleDefects))
	if len(h.OracleDefects) > 0 {
		p(" (%s; each invalidates its task and the campaign gate, C22)", strings.Join(h.OracleDefects, ", "))
	}
	p(".\n\n")
	if len(h.Records) > 0 {
		t := table{unit: "One row per verified signed record the scores rest on.", keys: 2, head: []string{"signed record", "signer", "role", "key", "SHA-256"}}
		for _, x := range h.Records {
			t.row(x.Kind, x.Signer, x.Role, "`"+x.Fingerprint+"`", "`"+x.SHA256+"`")
		}
		t.write(b, width)
	}
}

// markdownConfusion writes the confusion matrix of one grade kind (or of
// the oracle-defect flags): rater 1's values down, rater 2's across,
// counts of fields; the diagonal is agreement.
func markdownConfusion(b *bytes.Buffer, a adjudication.AgreementRow, width int) {
	c := a.Confusion
	if c == nil {
		return
	}
	fmt.Fprintf(b, "### Confusion matrix: %s\n\n", a.Group)
	if len(c.Values) == 0 {
		fmt.Fprintf(b, "No field of this kind was graded.\n\n")
		return
	}
	t := table{unit: "Number of fields: rater 1 (first sheet) down, rater 2 across; the diagonal is agreement.", keys: 1,
		head: append([]string{"rater 1 \\ rater 2"}, c.Values...)}
	for i, v := range c.Values {
		cells := []string{v}
		for _, n := range c.Counts[i] {
			cells = append(cells, strconv.FormatInt(n, 10))
		}
		t.row(cells...)
	}
	t.write(b, width)
}

// markdownProvenance writes the provenance section: the verdict build, the
// manifest's SHA-256 and the schema digests (the signed records' digests
// are in the recorded human decisions above).
func markdownProvenance(b *bytes.Buffer, pv Provenance, width int) {
	p := func(format string, a ...any) { fmt.Fprintf(b, format, a...) }
	p("## Provenance\n\n")
	t := table{keys: 1, plainKeys: true, head: []string{"what", "identity"}}
	t.row("verdict build", mdEscape(pv.Build.String()))
	manifest := pv.ManifestSHA256
	if manifest == "" {
		manifest = "unknown"
	}
	t.row("manifest.json SHA-256", "`"+manifest+"`")
	for _, s := range pv.Schemas {
		t.row("schema "+mdEscape(s.Name)+" SHA-256", "`"+s.SHA256+"`")
	}
	t.write(b, width)
	p("The SHA-256 of every signed record used is listed with the recorded human decisions.\n")
	if rv := pv.PromptRevision; rv != nil {
		p("\nB's instruction is revision %s (`%s`), unified diff against the frozen v1.0 text:\n\n```diff\n%s```\n", rv.Label, mdEscape(rv.File), rv.Diff)
	}
}

// markdownCostTime writes the complete cost-and-time section from the
// accounting report: aggregate and review-only ratios, per-task ratios,
// medians and tails of complete-workflow cost and time per arm, physical
// billing versus allocation. Times are rounded with their units
// (duration); report.json keeps them exact.
func (r *Report) markdownCostTime(b *bytes.Buffer, charts bool, width int) {
	p := func(format string, a ...any) { fmt.Fprintf(b, format, a...) }
	p("## Complete cost and time\n\n")
	acct := r.Scorecard.Accounting
	if acct == nil {
		p("Cost and time: unknown (no accounting was measured).\n\n")
		return
	}
	p("Aggregate B/A (Σ B task medians / Σ A task medians): cost %s, time %s (bound 1.10 each)", acct.CostRatio, acct.TimeRatio)
	var labels []string
	for _, l := range []string{acct.CostLabel, acct.TimeLabel} {
		if l != "" {
			labels = append(labels, l)
		}
	}
	if len(labels) > 0 {
		p(": %s", strings.Join(labels, "; "))
	}
	p(".\n\nReview-only B/A: cost %s, time %s (reported so the shared draft cannot hide overhead; not gated).\n\n", acct.ReviewCostRatio, acct.ReviewTimeRatio)
	if charts {
		p("![Cost and time ratios against their bounds](%s)\n\n", ChartRatios)
		p("![Every paired complete-workflow ratio against 1.25](%s)\n\n", ChartPairs)
	}
	tt := table{unit: "One row per task: median complete-workflow cost (USD, reference price card) and time over its repetitions; B/A ratios (bound 1.15).", keys: 1,
		head: []string{"task", "repetitions", "median cost A (USD)", "median cost B (USD)", "cost B/A", "median time A", "median time B", "time B/A"}}
	for _, t := range acct.Tasks {
		tt.row(t.Task, strconv.Itoa(t.Repetitions), usdAmount(t.MedianCostA.Exact), usdAmount(t.MedianCostB.Exact), t.CostRatio.String(),
			duration(t.MedianTimeA.Exact), duration(t.MedianTimeB.Exact), t.TimeRatio.String())
	}
	tt.write(b, width)
	at := table{unit: "One row per arm, over its complete workflows (D plus the arm's review): cost in USD, time as a duration.", keys: 1,
		head: []string{"arm", "complete workflows", "cost median (USD)", "cost max, tail (USD)", "time median", "time max, tail"}}
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
		at.row(arm, strconv.Itoa(len(acct.Pairs)), usdAmount(Median(costs)), usdAmount(Max(costs)), duration(Median(times)), duration(Max(times)))
	}
	at.write(b, width)
	pb := acct.PhysicalBilling
	p("Physical campaign billing (each session once, shared draft once): %d sessions, %s input and %s output tokens, reference cost %s, actual attributable charge %s, execution time %s.\n",
		pb.Sessions, pb.InputTokens, pb.OutputTokens, usd(pb.ReferenceCost), usd(pb.ActualCharge), duration(pb.ExecutionTime))
	p("Comparative allocation (shared draft in both complete workflows): A %s USD, B %s USD.\n\n", acct.AllocatedCostA, acct.AllocatedCostB)
}

// usdAmount renders an amount in USD without the unit (the table's heading
// names it), or "unknown".
func usdAmount(m Money) string {
	if !m.Known {
		return "unknown"
	}
	return m.String()
}

// usd renders an amount as "0.0407952 USD", or "unknown".
func usd(m Money) string {
	if !m.Known {
		return "unknown"
	}
	return m.String() + " USD"
}
