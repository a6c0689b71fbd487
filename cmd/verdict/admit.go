package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"verdict/campaign"
	"verdict/pipeline"
	"verdict/scorer"
	"verdict/verr"
)

// newAdmitCmd builds `verdict admit CAMPAIGN [--plan PLAN.json] [--format text|json]`.
func newAdmitCmd(a *app) *cobra.Command {
	var planPath string
	c := &cobra.Command{
		Use:   "admit CAMPAIGN",
		Short: "Admission: manifest, identities, execution validity, ceilings; replay planned dispatches",
		Long: `admit prints the admission of a campaign (CONTRACT §2–§5): manifest
admission, missing execution identities, execution validity, the campaign
ceilings against recorded consumption, and the cost-and-time gates.

With --plan PLAN.json it replays a planned dispatch sequence. First, before
any budget is looked at, a dispatch that would be an automatic rerun is
refused with its reason (CONTRACT §5): a session that already has a receipt
(dispatch-rerun), a task or repetition the manifest has no run of
(dispatch-unknown-run), a replacement of a triplet that is valid or invalid
for a reason other than verified infrastructure
(replacement-without-invalid-original), a second replacement triplet
(replacement-limit-exceeded). Then before each dispatch its worst case (1 session, 4 minutes, 90,000 input and 8,000 output
tokens priced at the manifest's card) is reserved and the dispatch is
refused if that does not fit what remains of every inclusive ceiling (120
sessions, one replacement triplet, 8 hours, 3,000,000 input, 600,000 output
tokens, US$30 reference-priced, US$30 actual). Every decision is printed
with its reason code. A missing or unverified tariff, an unenforced
reservation, a missing meter or identity, or a stopped campaign prohibits
every dispatch (EVALUATOR-CONTROLS C18).

Plan file (strict JSON, every member required, no other member):

  {"format": "verdict-admission-plan/1",
   "prior_consumption": {"sessions": 0, "replacement_sessions": 0, "wall_ns": 0,
     "input_tokens": 0, "output_tokens": 0, "reference_micro_usd": 0, "actual_micro_usd": 0},
   "dispatches": [{"id": "P1", "task": "T1", "repetition": 2, "role": "draft", "replacement": true}]}

prior_consumption is what was spent outside the campaign's receipts
(preparation, adjudication). Exit 0 when admitted, every planned dispatch
fits and every cost/time gate passes; 1 when anything is refused or a gate
fails; 2 usage error. The last line ("result:", and "result" in JSON) says
which part decided the exit code, e.g. dispatches admitted but a cost/time
gate failed.`,
		Args: cobra.ExactArgs(1),
	}
	format := formatFlag(c, "text", "json")
	c.Flags().StringVar(&planPath, "plan", "", "planned dispatch sequence to replay (JSON, format verdict-admission-plan/1)")
	c.RunE = func(cmd *cobra.Command, args []string) error {
		var plan *scorer.Plan
		if planPath != "" {
			data, err := campaign.ReadRegular(planPath, campaign.FileOther)
			if err != nil {
				return usagef("--plan: %v", err)
			}
			if plan, err = scorer.ParsePlan(data, planPath); err != nil {
				fmt.Fprintln(a.stdout, "plan refused:", err)
				return failed("plan refused: %v", err)
			}
		}
		res := pipeline.AdmitDir(args[0], plan)
		out := admitOutput{Campaign: args[0], Synthetic: res.Synthetic, MissingIdentities: res.MissingIdentities, Replay: res.Replay}
		if res.Admission == nil {
			out.Refusals = admissionRefusalsOf(res.Refusals)
		} else {
			s := newAdmissionSection(res.Admission, res.Design)
			out.Admission = &s
		}
		var ok bool
		ok, out.Result = out.result()
		if *format == "json" {
			if err := admitJSON(a.stdout, out); err != nil {
				return err
			}
		} else {
			out.writeText(a.stdout)
		}
		if !ok {
			return failed("%s", out.Result)
		}
		return nil
	}
	return c
}

// admissionRefusalsOf is the JSON form of flattened refusals.
func admissionRefusalsOf(errs []error) []verr.Problem {
	var out []verr.Problem
	for _, e := range errs {
		out = append(out, verr.ProblemOf(e))
	}
	return out
}

// admissionSection is the admission part of `verdict check` and the body
// of `verdict admit` (CONTRACT §2–§5; EVALUATOR-CONTROLS C14, C15, C17,
// C18, C20, C23).
type admissionSection struct {
	// Design is the campaign's design when it is not fixed evidence
	// (omitted for fixed evidence, whose bytes are unchanged): the system
	// comparison (CONTRACT §6) has no B/A accounting; its cost-and-time
	// gates are decided by score.
	Design campaign.Design `json:"design,omitempty"`
	// Admitted is true when no identity is missing, the manifest design is
	// admitted, execution is valid and no ceiling is exceeded.
	Admitted          bool                  `json:"admitted"`
	MissingIdentities []string              `json:"missing_identities"`
	Manifest          []verr.Problem        `json:"manifest_admission"`
	Validity          scorer.ValidityReport `json:"execution_validity"`
	Ceilings          scorer.Budget         `json:"ceilings"`
	Consumed          scorer.Budget         `json:"consumed"`
	CeilingsExceeded  []verr.Problem        `json:"ceilings_exceeded"`
	// NextDispatch is the decision for one more worst-case session.
	NextDispatch scorer.DispatchDecision `json:"next_dispatch"`
	// Accounting summary: aggregate ratios, labels, billing, every gate.
	CostRatio       scorer.Ratio   `json:"aggregate_cost_ratio"`
	TimeRatio       scorer.Ratio   `json:"aggregate_time_ratio"`
	ReviewCostRatio scorer.Ratio   `json:"aggregate_review_only_cost_ratio"`
	ReviewTimeRatio scorer.Ratio   `json:"aggregate_review_only_time_ratio"`
	CostLabel       string         `json:"cost_label"`
	TimeLabel       string         `json:"time_label"`
	PhysicalBilling scorer.Billing `json:"physical_billing"`
	AllocatedCostA  scorer.Money   `json:"allocated_cost_a"`
	AllocatedCostB  scorer.Money   `json:"allocated_cost_b"`
	Gates           []scorer.Gate  `json:"cost_time_gates"`
}

// newAdmissionSection is the JSON shape of a pipeline.Admission.
func newAdmissionSection(ad *pipeline.Admission, design campaign.Design) admissionSection {
	s := admissionSection{MissingIdentities: ad.MissingIdentities, Validity: ad.Validity, Ceilings: ad.Ceilings, Consumed: ad.Consumed, NextDispatch: ad.NextDispatch}
	for _, e := range ad.Manifest {
		s.Manifest = append(s.Manifest, verr.ProblemOf(e))
	}
	for _, e := range ad.CeilingsExceeded {
		s.CeilingsExceeded = append(s.CeilingsExceeded, verr.ProblemOf(e))
	}
	acct := ad.Accounting
	s.CostRatio, s.TimeRatio = acct.Aggregate.CostRatio, acct.Aggregate.TimeRatio
	s.ReviewCostRatio, s.ReviewTimeRatio = acct.Aggregate.ReviewCostRatio, acct.Aggregate.ReviewTimeRatio
	s.CostLabel, s.TimeLabel = acct.CostLabel, acct.TimeLabel
	s.PhysicalBilling, s.AllocatedCostA, s.AllocatedCostB = acct.PhysicalBilling, acct.AllocatedCostA, acct.AllocatedCostB
	s.Gates = acct.Gates
	s.Admitted = ad.Admitted()
	if design != campaign.DesignFixedEvidence {
		s.Design = design
	}
	return s
}

// writeText renders the section for the terminal, in fixed order.
func (s admissionSection) writeText(w io.Writer) {
	verdict := "admitted"
	if !s.Admitted {
		verdict = "REFUSED"
	}
	fmt.Fprintf(w, "admission: %s\n", verdict)
	if len(s.MissingIdentities) == 0 {
		fmt.Fprintln(w, "  missing identities: none")
	}
	for _, id := range s.MissingIdentities {
		fmt.Fprintf(w, "  missing identity: %s\n", id)
	}
	fmt.Fprintf(w, "  manifest admission: %d violations\n", len(s.Manifest))
	for _, r := range s.Manifest {
		writeAdmissionRefusal(w, "    ", r)
	}
	v := s.Validity
	state := "valid"
	if !v.Valid {
		state = "INVALID"
	}
	if s.Design != "" {
		fmt.Fprintf(w, "  execution validity: %s (%d receipt findings; investigation-stage failures are scored, not findings)\n", state, len(v.Findings))
	} else {
		fmt.Fprintf(w, "  execution validity: %s (%d invalid triplets, %d replacement triplets, stopped %v)\n", state, v.InvalidTriplets, v.ReplacementTriplets, v.Stopped)
	}
	for _, f := range v.Findings {
		writeAdmissionRefusal(w, "    ", verr.ProblemOf(f.Error()))
	}
	if len(v.Replaced) > 0 {
		fmt.Fprintf(w, "  replaced original triplet (billed and reported, not compared): %d findings\n", len(v.Replaced))
		for _, f := range v.Replaced {
			writeAdmissionRefusal(w, "    ", verr.ProblemOf(f.Error()))
		}
	}
	fmt.Fprintf(w, "  valid scored failures (kept in every denominator): %d\n", len(v.ScoredFailures))
	for _, f := range v.ScoredFailures {
		fmt.Fprintf(w, "    %s %s r%d %s: %s (%s)\n", f.Session, f.Task, f.Repetition, f.Role, f.Kind, f.Detail)
	}
	fmt.Fprintf(w, "  ceilings (inclusive): %s\n", s.Ceilings)
	fmt.Fprintf(w, "  consumed:             %s\n", s.Consumed)
	for _, r := range s.CeilingsExceeded {
		writeAdmissionRefusal(w, "    ", r)
	}
	// The budget's verdict on one more dispatch only; whether the campaign
	// is admitted is the result line.
	nd := "within the budget ceilings (budget only; campaign admission is the result line)"
	if !s.NextDispatch.Admitted {
		nd = "PROHIBITED"
	}
	fmt.Fprintf(w, "  next dispatch: %s (%s) %s\n", nd, s.NextDispatch.Reason, s.NextDispatch.Detail)
	if s.Design != "" {
		fmt.Fprintf(w, "cost and time: design %s has no B/A accounting; its gates (Madar against Native and Serena, cold setup charged per system and repository) are decided by verdict score (CONTRACT §6)\n", s.Design)
		return
	}
	fmt.Fprintln(w, "cost and time (B/A, exact; shown to 6 decimals):")
	fmt.Fprintf(w, "  aggregate complete-workflow cost %s%s, time %s%s\n", s.CostRatio, labelSuffix(s.CostLabel), s.TimeRatio, labelSuffix(s.TimeLabel))
	fmt.Fprintf(w, "  aggregate review-only cost %s, time %s\n", s.ReviewCostRatio, s.ReviewTimeRatio)
	fmt.Fprintf(w, "  physical billing (shared draft once): %d sessions, reference %s, actual %s\n",
		s.PhysicalBilling.Sessions, usd(s.PhysicalBilling.Cost), usd(s.PhysicalBilling.ActualCharge))
	fmt.Fprintf(w, "  comparative allocation (shared draft in both arms): A %s, B %s\n", usd(s.AllocatedCostA), usd(s.AllocatedCostB))
	for _, g := range s.Gates {
		mark := "PASS"
		if !g.Pass {
			mark = "FAIL"
		}
		if g.Reason != "" {
			fmt.Fprintf(w, "  %s %s (%s): %s\n", mark, g.Name, g.Reason, g.Detail)
		} else {
			fmt.Fprintf(w, "  %s %s: %s\n", mark, g.Name, g.Detail)
		}
	}
}

// usd renders a known amount as "US$0.0407952" and an unknown one as "unknown".
func usd(m scorer.Money) string {
	if !m.Known {
		return "unknown (" + string(m.Why) + ")"
	}
	return "US$" + m.String()
}

func labelSuffix(label string) string {
	if label == "" {
		return ""
	}
	return " (" + label + ")"
}

func writeAdmissionRefusal(w io.Writer, indent string, r verr.Problem) {
	loc := r.File
	if r.Pointer != "" {
		loc += "#" + r.Pointer
	}
	fmt.Fprintf(w, "%s%s %s: %s [%s]\n", indent, r.Reason, loc, r.Message, r.Rule)
}

// admitOutput is the report of `verdict admit`.
type admitOutput struct {
	Campaign          string                  `json:"campaign"`
	Synthetic         bool                    `json:"synthetic"`
	Refusals          []verr.Problem          `json:"refusals"`
	MissingIdentities []string                `json:"missing_identities"`
	Admission         *admissionSection       `json:"admission"`
	Replay            *scorer.AdmissionReplay `json:"replay"`
	// Result is the one-line outcome that decides the exit code: each part
	// (loader, admission, planned dispatches, cost/time gates) in that
	// order, prefixed "FAILED (exit 1): " when any part failed.
	Result string `json:"result"`
}

// result returns whether admit passes (exit 0) and the one-line outcome
// saying why: a refusal by the strict loader, an admission refusal with
// its causes, refused planned dispatches, or the names of the failed
// cost/time gates (CONTRACT §2–§5). Exit 1 exactly when one of them failed.
func (o admitOutput) result() (bool, string) {
	var parts []string
	ok := true
	if o.Admission == nil {
		ok = false
		parts = append(parts, fmt.Sprintf("campaign refused by the strict loader (%d refusal(s), %d missing identities)", len(o.Refusals), len(o.MissingIdentities)))
	} else {
		s := o.Admission
		if s.Admitted {
			parts = append(parts, "campaign admitted")
		} else {
			ok = false
			var why []string
			if n := len(s.MissingIdentities); n > 0 {
				why = append(why, fmt.Sprintf("%d missing identities", n))
			}
			if n := len(s.Manifest); n > 0 {
				why = append(why, fmt.Sprintf("%d manifest violations", n))
			}
			if !s.Validity.Valid {
				why = append(why, "execution invalid")
			}
			if n := len(s.CeilingsExceeded); n > 0 {
				why = append(why, fmt.Sprintf("%d ceilings exceeded", n))
			}
			if n := len(s.Validity.Planned); n > 0 {
				why = append(why, fmt.Sprintf("%s (%d planned sessions not started)", scorer.ReasonCampaignIncomplete, n))
			}
			parts = append(parts, "admission refused: "+strings.Join(why, ", "))
		}
	}
	if r := o.Replay; r != nil {
		if r.Refused > 0 {
			ok = false
			parts = append(parts, fmt.Sprintf("%d of %d planned dispatches refused", r.Refused, len(r.Decisions)))
		} else {
			parts = append(parts, fmt.Sprintf("all %d planned dispatches admitted", len(r.Decisions)))
		}
	}
	if o.Admission != nil {
		var failedGates []string
		for _, g := range o.Admission.Gates {
			if !g.Pass {
				failedGates = append(failedGates, g.Name)
			}
		}
		switch {
		case len(failedGates) > 0:
			ok = false
			parts = append(parts, "cost/time gates failed: "+strings.Join(failedGates, ", "))
		case o.Admission.Design != "":
			parts = append(parts, "cost/time gates decided by score")
		default:
			parts = append(parts, "every cost/time gate passes")
		}
	}
	line := strings.Join(parts, "; ")
	if !ok {
		line = "FAILED (exit 1): " + line
	}
	return ok, line
}

func (o admitOutput) writeText(w io.Writer) {
	if o.Synthetic {
		fmt.Fprintln(w, "SYNTHETIC campaign: results describe inert synthetic fixtures only")
	}
	fmt.Fprintf(w, "campaign: %s\n", o.Campaign)
	if o.Admission == nil {
		fmt.Fprintf(w, "REFUSED by the strict loader (%d refusals)\n", len(o.Refusals))
		for _, r := range o.Refusals {
			writeAdmissionRefusal(w, "  ", r)
		}
		for _, id := range o.MissingIdentities {
			fmt.Fprintf(w, "  missing identity: %s\n", id)
		}
	} else {
		o.Admission.writeText(w)
	}
	if o.Replay != nil {
		writeReplayText(w, o.Replay)
	}
	fmt.Fprintf(w, "result: %s\n", o.Result)
}

// writeReplayText renders the dispatch replay, one decision a line.
func writeReplayText(w io.Writer, r *scorer.AdmissionReplay) {
	fmt.Fprintln(w, "dispatch replay:")
	fmt.Fprintf(w, "  recorded: %s\n", r.Recorded)
	fmt.Fprintf(w, "  prior:    %s\n", r.Prior)
	if len(r.Prohibited) > 0 {
		var ps []string
		for _, p := range r.Prohibited {
			ps = append(ps, string(p))
		}
		fmt.Fprintf(w, "  every dispatch prohibited: %s\n", strings.Join(ps, ", "))
	}
	for _, d := range r.Decisions {
		verdict := "admit "
		if !d.Admitted {
			verdict = "REFUSE"
		}
		run := fmt.Sprintf("%s r%d", d.Dispatch.Task, d.Dispatch.Repetition)
		if d.Dispatch.Workflow != "" {
			run = fmt.Sprintf("%s (%s)", d.Dispatch.Workflow, run)
		}
		fmt.Fprintf(w, "  %s %s %-9s %s %s: %s\n", d.Dispatch.ID, run, d.Dispatch.Role, verdict, d.Reason, d.Detail)
	}
	fmt.Fprintf(w, "  %d admitted, %d refused\n", len(r.Decisions)-r.Refused, r.Refused)
}

// admitJSON writes v as indented JSON with a final newline; struct field
// order is fixed, so the bytes are deterministic.
func admitJSON(w io.Writer, v any) error { return writeJSON(w, v) }
