package tui

import (
	"slices"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"verdict/adjudication"
	"verdict/blinding"
)

// codebookEntry is the question a field kind asks and a one-line
// definition of each of its values, in key order (key 1 first).
type codebookEntry struct {
	// Question is worded so that its keys read in order: key 1 is the
	// "yes" answer.
	Question string
	// Short are one-line definitions shown under the choices and Values
	// the full definitions of the codebook panel, both in
	// adjudication.AllowedValues order.
	Short, Values []string
	// Rule names the contract's rules the definitions are written from.
	Rule string
}

// codebook is the built-in codebook: one entry per grade kind, written
// from CONTRACT §4 (resolved coverage R, uncertainty handling U, the
// source/citation rules and gate 1) and EVALUATOR-CONTROLS C05–C11, C22.
var codebook = map[adjudication.Kind]codebookEntry{
	adjudication.KindObligation: {
		Question: "Does the answer address this obligation?",
		Short: []string{
			"needed behavior and action or verification, backed by the packet",
			"missing, wrong, unbacked, or left unknown though answerable (C05)",
		},
		Values: []string{
			"the final answer contains the needed behavior and action or verification, supported by the packet; an accepted alternative or a semantic equivalent counts",
			"missing, wrong or not backed by the packet, or declared unknown although the packet answers it (C05: refusing supplied evidence loses R)",
		},
		Rule: "CONTRACT §4 resolved coverage R; EVALUATOR-CONTROLS C05",
	},
	adjudication.KindUncertainty: {
		Question: "Does the answer handle this missing information precisely?",
		Short: []string{
			"names the missing fact and a bounded way to check it (C06)",
			"silent, or only a generic caveat (C07)",
			"asserts the unknown result (C08)",
		},
		Values: []string{
			"names the missing information and a bounded way to verify it, without asserting the unknown result (C06)",
			"silent, or only a generic caveat such as \"check edge cases\" (C07)",
			"asserts the unknown result as if the packet showed it (C08)",
		},
		Rule: "CONTRACT §4 uncertainty handling U; EVALUATOR-CONTROLS C06–C08",
	},
	adjudication.KindClaim: {
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
	adjudication.KindClaimCritical: {
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
	adjudication.KindCitation: {
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
	adjudication.KindExclusion: {
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
	adjudication.KindCompleteness: {
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
	adjudication.KindOracleDefect: {
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

// valueName is a value as the screens write it ("not addressed").
func valueName(v string) string { return strings.ReplaceAll(v, "_", " ") }

// choiceLines renders the choices of kind k in w cells, one value per
// row with its definition beside it ("[1] supported   the packet's
// evidence says it …"), wrapped under the definition, never cut. The
// chosen value (if any) is rendered with sel; vals are the values offered
// (nil: the kind's allowed values).
func choiceLines(k adjudication.Kind, vals []string, chosen string, sel func(string) string, w int) []string {
	if vals == nil {
		vals = adjudication.AllowedValues(k)
	}
	width := 0
	for _, v := range vals {
		width = max(width, len(valueName(v)))
	}
	entry := codebook[k]
	all := adjudication.AllowedValues(k)
	var out []string
	for i, v := range vals {
		name := "[" + strconv.Itoa(i+1) + "] " + valueName(v)
		lead := 2 + len(name) + width - len(valueName(v)) + 2
		if v == chosen {
			name = sel(name)
		}
		def := ""
		if j := slices.Index(all, v); j >= 0 && j < len(entry.Short) {
			def = entry.Short[j]
		}
		head := "  " + name + strings.Repeat(" ", lead-2-len("["+strconv.Itoa(i+1)+"] "+valueName(v)))
		if w-lead < 24 {
			// Too narrow for a column: the definition goes under the value.
			out = append(out, head)
			lead = 6
			head = strings.Repeat(" ", lead)
		}
		if def == "" {
			out = append(out, head)
			continue
		}
		parts := strings.Split(ansi.Wrap(def, max(w-lead, 10), ""), "\n")
		out = append(out, head+parts[0])
		for _, p := range parts[1:] {
			out = append(out, strings.Repeat(" ", lead)+p)
		}
	}
	return out
}

// codebookText is the built-in codebook as the g panel shows it.
func codebookText() []string {
	out := []string{"Built-in codebook: the question of every field kind and what each answer means.", ""}
	for _, k := range adjudication.Kinds {
		e := codebook[k]
		out = append(out, string(k)+": "+e.Question)
		for i, v := range adjudication.AllowedValues(k) {
			def := ""
			if i < len(e.Values) {
				def = e.Values[i]
			}
			out = append(out, "  "+strconv.Itoa(i+1)+" "+valueName(v)+"  "+def)
		}
		out = append(out, "  ("+e.Rule+")", "")
	}
	out = append(out,
		"Any grade may carry a note (m). An oracle-defect flag (o) needs a reason; it invalidates the task and never rewrites the obligation (C22).",
		"Grade from the task, the packet and the frozen obligations only; semantic equivalents get the same credit (CONTRACT §4).")
	return out
}

// guidelinesPanel is the title and text of the g panel: the guidelines
// the campaign bound (blinding.Bundle.Guidelines) when the bundle carries
// them, then the built-in codebook; without guidelines the codebook only.
func guidelinesPanel(b *blinding.Bundle) (string, func() []string) {
	if b == nil || b.Guidelines == "" {
		return "Codebook", codebookText
	}
	g := visibleText(strings.TrimRight(b.Guidelines, "\n"))
	return "Guidelines of this campaign (bound in its manifest), then the built-in codebook", func() []string {
		return append(append(strings.Split(g, "\n"), "", strings.Repeat("─", 20)), codebookText()...)
	}
}
