package export

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"verdict/scorer"
)

// Report tables by name (`verdict export NAME`).
const (
	TableRuns     = "runs"
	TablePairs    = "pairs"
	TableTasks    = "tasks"
	TableSessions = "sessions"
	// TableObligations: one row per task, obligation and arm.
	TableObligations = "obligations"
)

// ReportTables lists every table of a scorer report, in the order
// `verdict export all` writes them.
func ReportTables() []string {
	return []string{TableRuns, TablePairs, TableTasks, TableSessions, TableObligations}
}

// fracCols are a fraction's three columns and its reason column.
func fracCols(x string) []string {
	return []string{x + "_num", x + "_den", x + "_decimal", x + "_unknown"}
}

func ratioCols(x string) []string { return []string{x + "_exact", x + "_decimal", x + "_unknown"} }

func valueCols(x string) []string { return []string{x, x + "_unknown"} }

func cols(parts ...any) []string {
	var out []string
	for _, p := range parts {
		switch v := p.(type) {
		case string:
			out = append(out, v)
		case []string:
			out = append(out, v...)
		}
	}
	return out
}

func (r *row) frac(x string, f *scorer.Fraction, why string) {
	if f == nil {
		r.unknown(x, why, x+"_num", x+"_den", x+"_decimal")
		return
	}
	r.int(x+"_num", f.Num())
	r.int(x+"_den", f.Den())
	r.num(x+"_decimal", f.Decimal())
}

func (r *row) ratio(x string, q scorer.Ratio) {
	if !q.Known {
		r.unknown(x, string(q.Why), x+"_exact", x+"_decimal")
		return
	}
	r.set(x+"_exact", q.RatString())
	r.num(x+"_decimal", q.Decimal())
}

// quantity writes an exact quantity in its unit's columns
// (scorer.UnitSpec.Columns): x_pico_usd and x_usd for money, x for tokens
// and nanoseconds; an unknown one leaves them empty and says why in
// x_unknown.
func quantity[U scorer.Unit](r *row, x string, q scorer.Exact[U]) {
	cols := scorer.SpecOf[U]().Columns(x)
	if !q.Known {
		r.unknown(x, string(q.Why), cols...)
		return
	}
	for i, v := range q.Parts() {
		r.num(cols[i], v)
	}
}

// quantityCols are a quantity's columns and its reason column.
func quantityCols[U scorer.Unit](x string) []string {
	return append(scorer.SpecOf[U]().Columns(x), x+"_unknown")
}

// ReportTable flattens one table of a scorer report: runs (one row per
// scored review), pairs (one per A/B pair), tasks (one per task) or
// sessions (one per session of the accounting, shared drafts included).
func ReportTable(rep *scorer.Report, name string) (*Table, error) {
	t, err := reportTable(rep, name)
	if t != nil {
		t.Synthetic = rep.Scorecard.Synthetic
	}
	return t, err
}

func reportTable(rep *scorer.Report, name string) (*Table, error) {
	sc := rep.Scorecard
	switch name {
	case TableRuns:
		t := &Table{Columns: cols("task", "repetition", "order", "arm", "session", "item", "outcome", "failure_kind",
			fracCols("r"), fracCols("u"), "falsely_resolved", "critical_completion_failed", "source_gate",
			valueCols("protocol_gate"))}
		for _, x := range sc.Runs {
			r := t.newRow()
			r.set("task", x.Task)
			r.int("repetition", int64(x.Repetition))
			r.set("order", string(x.Order))
			r.set("arm", string(x.Arm))
			r.set("session", x.Session)
			r.set("item", x.Item)
			r.set("outcome", string(x.Outcome))
			r.set("failure_kind", x.FailureKind)
			r.frac("r", &x.R, "")
			r.frac("u", x.U, "undefined: the task has no obligation whose evidence is absent")
			r.int("falsely_resolved", int64(x.FalselyResolved))
			r.bool("critical_completion_failed", x.CriticalCompletionFailed)
			r.bool("source_gate", x.SourceGate)
			if x.ProtocolGate != nil {
				r.bool("protocol_gate", *x.ProtocolGate)
			} else {
				r.unknown("protocol_gate", "not applicable: arm A has no reconciliation ledger", "protocol_gate")
			}
			r.done()
		}
		return t, nil
	case TablePairs:
		t := &Table{Columns: cols("task", "repetition", "order", "a_session", "b_session", "a_outcome", "b_outcome",
			fracCols("a_r"), fracCols("b_r"), "delta_r_num", "delta_r_den", "delta_r_decimal", ratioCols("cost_ratio"), ratioCols("time_ratio"))}
		for _, x := range sc.Pairs {
			r := t.newRow()
			r.set("task", x.Task)
			r.int("repetition", int64(x.Repetition))
			r.set("order", string(x.Order))
			r.set("a_session", x.ASession)
			r.set("b_session", x.BSession)
			r.set("a_outcome", string(x.AOutcome))
			r.set("b_outcome", string(x.BOutcome))
			r.frac("a_r", &x.AR, "")
			r.frac("b_r", &x.BR, "")
			r.frac("delta_r", &x.DeltaR, "")
			r.ratio("cost_ratio", x.CostRatio)
			r.ratio("time_ratio", x.TimeRatio)
			r.done()
		}
		return t, nil
	case TableTasks:
		t := &Table{Columns: cols("task", "repository", "category", "eligible", "ineligible_reason", "answerable_obligations", "unanswerable_obligations",
			"a_runs", fracCols("a_median_r"), fracCols("a_min_r"), fracCols("a_median_u"),
			"b_runs", fracCols("b_median_r"), fracCols("b_min_r"), fracCols("b_median_u"),
			fracCols("delta_r"), "improved", "regressed", ratioCols("cost_ratio"), ratioCols("time_ratio"))}
		for _, x := range sc.Tasks {
			r := t.newRow()
			r.set("task", x.Task)
			r.set("repository", x.Repository)
			r.set("category", string(x.Category))
			r.bool("eligible", x.Eligible)
			r.set("ineligible_reason", x.IneligibleReason)
			r.int("answerable_obligations", int64(x.Answerable))
			r.int("unanswerable_obligations", int64(x.Unanswerable))
			for _, arm := range []struct {
				p string
				s scorer.ArmTaskScore
			}{{"a", x.A}, {"b", x.B}} {
				r.int(arm.p+"_runs", int64(arm.s.Runs))
				r.frac(arm.p+"_median_r", arm.s.MedianR, "undefined: no scored run")
				r.frac(arm.p+"_min_r", arm.s.MinR, "undefined: no scored run")
				r.frac(arm.p+"_median_u", arm.s.MedianU, "undefined: the task has no obligation whose evidence is absent")
			}
			r.frac("delta_r", x.DeltaR, "undefined: a median R is undefined")
			r.bool("improved", x.Improved)
			r.bool("regressed", x.Regressed)
			r.ratio("cost_ratio", x.CostRatio)
			r.ratio("time_ratio", x.TimeRatio)
			r.done()
		}
		return t, nil
	case TableSessions:
		t := &Table{Columns: cols("session", "task", "repetition", "role", "status", "dispatched", "superseded",
			quantityCols[scorer.Token]("input_tokens"), quantityCols[scorer.Token]("uncached_input_tokens"),
			quantityCols[scorer.Token]("cached_input_tokens"), quantityCols[scorer.Token]("billed_output_tokens"),
			quantityCols[scorer.PicoUSD]("reference_cost"), quantityCols[scorer.PicoUSD]("mcp_cost"),
			quantityCols[scorer.PicoUSD]("cost"), quantityCols[scorer.PicoUSD]("actual_charge"),
			quantityCols[scorer.Nanosecond]("duration_ns"), quantityCols[scorer.Nanosecond]("validation_ns"),
			quantityCols[scorer.Nanosecond]("assembly_ns"), "ordinary_calls", "mcp_calls")}
		if sc.Accounting == nil {
			return t, nil
		}
		for _, x := range sc.Accounting.Sessions {
			r := t.newRow()
			r.set("session", x.Session)
			r.set("task", x.Task)
			r.int("repetition", int64(x.Repetition))
			r.set("role", string(x.Role))
			r.set("status", string(x.Status))
			r.bool("dispatched", x.Dispatched)
			r.bool("superseded", x.Superseded)
			quantity(r, "input_tokens", x.InputTokens)
			quantity(r, "uncached_input_tokens", x.UncachedInputTokens)
			quantity(r, "cached_input_tokens", x.CachedInputTokens)
			quantity(r, "billed_output_tokens", x.BilledOutputTokens)
			quantity(r, "reference_cost", x.ReferenceCost)
			quantity(r, "mcp_cost", x.MCPCost)
			quantity(r, "cost", x.Cost)
			quantity(r, "actual_charge", x.ActualCharge)
			quantity(r, "duration_ns", x.Duration)
			quantity(r, "validation_ns", x.Validation)
			quantity(r, "assembly_ns", x.Assembly)
			r.int("ordinary_calls", int64(x.OrdinaryCalls))
			r.int("mcp_calls", int64(x.MCPCalls))
			r.done()
		}
		return t, nil
	case TableObligations:
		return obligationTable(sc.Runs), nil
	}
	return nil, fmt.Errorf("unknown table %q (want %s, %s, %s, %s or %s)", name, TableRuns, TablePairs, TableTasks, TableSessions, TableObligations)
}

// obligationTable is one row per task, obligation and arm (tasks in
// order, arm A before B, obligations in truth order): how many of the arm's scored answers met
// the obligation (addressed, or credited for one whose evidence is
// absent) out of all of them, how many falsely resolved it, and, for a
// critical obligation, every miss by session and its settled value (a
// failed run that had no answer to grade is "failure").
func obligationTable(runs []scorer.RunScore) *Table {
	t := &Table{Columns: cols("task", "obligation", "critical", "answerable", "arm", fracCols("met"), "falsely_resolved",
		"critical_misses", "critical_miss_sessions")}
	type key struct{ task, ob, arm string }
	type acc struct {
		critical, answerable bool
		met, n, falsely      int64
		misses               []string
	}
	var order []key
	by := map[key]*acc{}
	for _, run := range runs {
		for _, o := range run.Obligations {
			k := key{run.Task, o.ID, string(run.Arm)}
			a := by[k]
			if a == nil {
				a = &acc{critical: o.Critical, answerable: o.Answerable}
				by[k] = a
				order = append(order, k)
			}
			a.n++
			switch {
			case o.Met:
				a.met++
			case o.Critical:
				v := o.Value
				if v == "" {
					v = "failure"
				}
				a.misses = append(a.misses, run.Session+" ("+v+")")
			}
			if o.Value == "falsely_resolved" {
				a.falsely++
			}
		}
	}
	slices.SortStableFunc(order, func(x, y key) int {
		return cmp.Or(cmp.Compare(x.task, y.task), cmp.Compare(x.arm, y.arm))
	})
	for _, k := range order {
		a := by[k]
		r := t.newRow()
		r.set("task", k.task)
		r.set("obligation", k.ob)
		r.bool("critical", a.critical)
		r.bool("answerable", a.answerable)
		r.set("arm", k.arm)
		f := scorer.Frac(a.met, a.n)
		r.frac("met", &f, "")
		r.int("falsely_resolved", a.falsely)
		if a.critical {
			r.int("critical_misses", int64(len(a.misses)))
			r.set("critical_miss_sessions", strings.Join(a.misses, "; "))
		}
		r.done()
	}
	return t
}
