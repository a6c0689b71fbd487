package adjudication

import (
	"slices"
	"strconv"
	"strings"

	"verdict/campaign"
)

// CodebookEntry is the question a field kind asks and a one-line
// definition of each of its values, in key order (key 1 first).
type CodebookEntry struct {
	// Question is worded so that its keys read in order: key 1 is the
	// "yes" answer.
	Question string
	// Short are one-line definitions shown under the choices and Values
	// the full definitions of the codebook panel, both in the order of
	// the kind's values on every design: FieldValues of a system
	// comparison (AllowedValues, then truthful_unknown for obligation and
	// uncertainty).
	Short, Values []string
	// Rule names the contract's rules the definitions are written from.
	Rule string
}

// Codebook is the built-in codebook, the one home of the definitions a
// rater grades by (the rating and adjudication screens, verdict help grade,
// grade --template): one entry per grade kind, written
// from CONTRACT §4 (resolved coverage R, uncertainty handling U, the
// source/citation rules and gate 1) and EVALUATOR-CONTROLS C05–C11, C22.
var Codebook = map[Kind]CodebookEntry{
	KindObligation: {
		Question: "Does the answer address this obligation?",
		Short: []string{
			"needed behavior and action or verification, backed by the packet",
			"missing, wrong, unbacked, or left unknown though answerable (C05)",
			"says truthfully it cannot tell, names what is missing and a check: counted apart, never addressed (§6)",
		},
		Values: []string{
			"the final answer contains the needed behavior and action or verification, supported by the packet; an accepted alternative or a semantic equivalent counts",
			"missing, wrong or not backed by the packet, or declared unknown although the packet answers it (C05: refusing supplied evidence loses R)",
			// ValueTruthfulUnknown, on a system comparison's obligations
			// only (FieldValues): after AllowedValues' two.
			"says truthfully that it cannot tell this from what it retrieved, names the missing information and a bounded way to verify it, and asserts no result: a truthful unknown, counted apart with U credit only; it is not addressed, never raises R_sys and fails a critical obligation (CONTRACT §6; system comparison only; a vague or false unknown is not addressed)",
		},
		Rule: "CONTRACT §4 resolved coverage R; EVALUATOR-CONTROLS C05",
	},
	KindUncertainty: {
		Question: "Does the answer handle this missing information precisely?",
		Short: []string{
			"names the missing fact and a bounded way to check it (C06)",
			"silent, or only a generic caveat (C07)",
			"asserts the unknown result (C08)",
			"says the repository cannot settle it, names what is missing and a check: U credit only (§6)",
		},
		Values: []string{
			"names the missing information and a bounded way to verify it, without asserting the unknown result (C06)",
			"silent, or only a generic caveat such as \"check edge cases\" (C07)",
			"asserts the unknown result as if the packet showed it (C08)",
			// ValueTruthfulUnknown, on a system comparison's U set only
			// (FieldValues): definitions after AllowedValues' three.
			"says truthfully that even the repository cannot settle this, names what is missing and a bounded way to verify it outside the repository, and asserts no result: U credit only, never R_sys (CONTRACT §6; system comparison's U set only)",
		},
		Rule: "CONTRACT §4 uncertainty handling U; EVALUATOR-CONTROLS C06–C08",
	},
	KindClaim: {
		Question: "Is the claim supported by the packet?",
		Short: []string{
			"the packet says it (a semantic equivalent counts)",
			"the packet does not show it (C08)",
			"the packet contradicts it, or it is unsafe",
		},
		Values: []string{
			"the packet's evidence says it; a semantic equivalent counts",
			"the packet does not show it, though nothing in it contradicts it (C08: a confident assertion of a missing fact)",
			"the packet contradicts it, or following it would be unsafe",
		},
		Rule: "CONTRACT §4 source rules; EVALUATOR-CONTROLS C08",
	},
	KindClaimCritical: {
		Question: "Is the claim critical?",
		Short: []string{
			"the task's behavior or a source invariant turns on it",
			"background: the task does not turn on it",
		},
		Values: []string{
			"the task's requested behavior or a source invariant turns on it: a wrong critical claim fails gate 1",
			"background or a detail the task does not turn on",
		},
		Rule: "CONTRACT §4 gate 1",
	},
	KindCitation: {
		Question: "Do the cited lines support every statement they are linked to?",
		Short: []string{
			"the cited lines back every linked statement",
			"a linked statement is not backed by these lines (C09, C10)",
		},
		Values: []string{
			"the cited lines say what each linked statement asserts",
			"a linked statement is not backed by these lines, though the range is valid (C10), or the range is not a real span of the file (C09)",
		},
		Rule: "CONTRACT §4 citation rules; EVALUATOR-CONTROLS C09, C10",
	},
	KindExclusion: {
		Question: "Is the exclusion justified?",
		Short: []string{
			"the evidence does not bear on the task; the reason is true",
			"sets aside evidence the task needs (C11)",
		},
		Values: []string{
			"the excluded evidence does not bear on the task, and the reason given is true",
			"it sets aside evidence the task needs; accounting for every evidence ID does not make an exclusion right (C11)",
		},
		Rule: "EVALUATOR-CONTROLS C11",
	},
	KindCompleteness: {
		Question: "Does the answer avoid claiming a completeness it does not have?",
		Short: []string{
			"yes: it claims no completeness or readiness it has not shown",
			"no: it asserts completeness or readiness it has not shown",
		},
		Values: []string{
			"yes: it claims no task or repository completeness, readiness or full coverage that it has not shown",
			"no: it asserts completeness, readiness or full coverage it has not shown",
		},
		Rule: "CONTRACT §4 (no unproved task/repository completeness)",
	},
	KindOracleDefect: {
		Question: "Is the truth obligation itself defective?",
		Short: []string{
			"the obligation itself is invalid: the task is invalidated (C22)",
		},
		Values: []string{
			"the obligation is invalid (for example, invalid syntax read as an eligible behavior): the task is invalidated, no rewrite (C22)",
		},
		Rule: "EVALUATOR-CONTROLS C22",
	},
}

// Definition returns the one-line and the full codebook definition of
// value v of kind k ("" and "" for a value the kind does not have).
func Definition(k Kind, v string) (short, full string) {
	i := slices.Index(FieldValues(campaign.DesignSystemComparison, k), v)
	e := Codebook[k]
	if i >= 0 && i < len(e.Short) {
		short = e.Short[i]
	}
	if i >= 0 && i < len(e.Values) {
		full = e.Values[i]
	}
	return short, full
}

// CodebookText is the built-in codebook of a fixed-evidence bundle as
// text lines: per kind its question, each value (as the screens write it,
// "not addressed") with its full definition, and the rules it is written
// from (CodebookTextFor(campaign.DesignFixedEvidence)).
func CodebookText() []string { return CodebookTextFor(campaign.DesignFixedEvidence) }

// CodebookTextFor is CodebookText of a bundle of design d: each kind's
// values are FieldValues(d, kind), so a system comparison's codebook adds
// truthful unknown to obligation and uncertainty (CONTRACT §6).
func CodebookTextFor(d campaign.Design) []string {
	out := []string{"Built-in codebook: the question of every field kind and what each answer means.", ""}
	for _, k := range Kinds {
		e := Codebook[k]
		out = append(out, string(k)+": "+e.Question)
		for i, v := range FieldValues(d, k) {
			_, def := Definition(k, v)
			out = append(out, "  "+strconv.Itoa(i+1)+" "+strings.ReplaceAll(v, "_", " ")+"  "+def)
		}
		out = append(out, "  ("+e.Rule+")", "")
	}
	out = append(out,
		"Any grade may carry a note (m). An oracle-defect flag (o) needs a reason; it invalidates the task and never rewrites the obligation (C22).",
		"Grade from the task, the packet and the frozen obligations only; semantic equivalents get the same credit (CONTRACT §4).")
	return out
}
