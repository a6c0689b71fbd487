package tui

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"verdict/adjudication"
	"verdict/blinding"
	"verdict/campaign"
	"verdict/internal/plural"
	"verdict/tui/styles"
)

// This file holds what the rater's and the adjudicator's screens show of
// one field: its context (obligation, claim, citation, exclusion or the
// completeness question), its evidence, and the wrapping of both.

// fieldContext renders what a grader must judge for field f of item it:
// the obligation (text, criticality, accepted alternatives, required
// verification), claim, citation (what it asks about and the statements it
// supports first, the cited lines after), exclusion or completeness
// question.
func fieldContext(st *styles.Styles, it *blinding.Item, f adjudication.Field) []string {
	return fieldContextCode(st, it, f, true)
}

// fieldContextCode is fieldContext, without a citation's cited lines when
// code is false (a wide screen shows them in the wide pane, citationCode).
func fieldContextCode(st *styles.Styles, it *blinding.Item, f adjudication.Field, code bool) []string {
	var out []string
	add := func(s string) { out = append(out, s) }
	switch f.Kind {
	case adjudication.KindOracleDefect:
		for _, o := range it.Obligations {
			if o.ID == f.Target {
				add(st.Header.Render("Oracle defect on truth obligation "+o.ID) + " (EVALUATOR-CONTROLS C22)")
				add(o.Text)
				if o.SourceJustification != "" {
					add("source justification: " + o.SourceJustification)
				}
			}
		}
	case adjudication.KindObligation, adjudication.KindUncertainty:
		for _, o := range it.Obligations {
			if o.ID != f.Target {
				continue
			}
			crit := "not critical"
			if o.Critical {
				crit = st.Finding.Render("CRITICAL")
			}
			ans := "answerable from the packet"
			if !o.Answerable {
				ans = "NOT answerable from the packet"
			}
			add(st.Header.Render("Obligation "+o.ID) + " · " + crit + " · " + ans)
			add(o.Text)
			if len(o.AcceptedAlternatives) > 0 {
				add("accepted alternatives: " + strings.Join(o.AcceptedAlternatives, " · "))
			}
			if o.RequiredVerification != "" {
				add("required verification: " + o.RequiredVerification)
			}
			if len(o.JustifiedExclusions) > 0 {
				add("justified exclusions: " + strings.Join(o.JustifiedExclusions, " · "))
			}
			add(st.Muted.Render("evidence " + idList(o.EvidenceIDs)))
		}
	case adjudication.KindClaim, adjudication.KindClaimCritical:
		for _, c := range it.Final.Claims {
			if c.ID != f.Target {
				continue
			}
			add(st.Header.Render("Claim "+c.ID) + " · " + c.Status)
			add(c.Text)
			u := ""
			if c.UncertaintyID != nil {
				u = " · uncertainty " + *c.UncertaintyID
			}
			add(st.Muted.Render("evidence " + idList(c.EvidenceIDs) + u))
		}
	case adjudication.KindCitation:
		i, _ := strconv.Atoi(strings.TrimPrefix(f.Target, "K"))
		if i >= 1 && i <= len(it.Final.Citations) {
			c := it.Final.Citations[i-1]
			add(st.Header.Render("Citation "+f.Target) + fmt.Sprintf(" · %s %s:%d-%d", c.EvidenceID, c.Path, c.StartLine, c.EndLine))
			add(st.Muted.Render("the statements it supports:"))
			for _, s := range c.Supports {
				t, _ := finalText(&it.Final, s)
				add("  " + s + "  " + t)
			}
			if code {
				out = append(out, citedLines(st, it, c)...)
			}
		}
	case adjudication.KindExclusion:
		for _, x := range it.Final.Exclusions {
			if x.ID == f.Target {
				add(st.Header.Render("Exclusion " + x.ID))
				add(x.ScopeItem + " — " + x.Reason)
				add(st.Muted.Render("evidence " + idList(x.EvidenceIDs)))
			}
		}
	case adjudication.KindCompleteness:
		add(st.Header.Render("Completeness") + " of the whole answer")
		fin := &it.Final
		add(strings.Join([]string{plural.Count(len(fin.Claims), "claim", "claims"), plural.Count(len(fin.ImplementationPlan), "action", "actions"),
			plural.Count(len(fin.VerificationPlan), "verification", "verifications"), plural.Count(len(fin.Uncertainties), "uncertainty", "uncertainties"),
			plural.Count(len(fin.Exclusions), "exclusion", "exclusions"), plural.Count(len(fin.Citations), "citation", "citations")}, " · "))
	}
	return out
}

// wrapLines wraps lines to w cells. A line indented with spaces keeps a
// hanging indent: its continuation lines start under its text, past the
// leading ID ("  C3  claim: …" continues under "claim"), so that the rows
// of a list stay readable.
func wrapLines(lines []string, w int) []string {
	if len(lines) == 0 {
		return nil
	}
	w = max(w, 10)
	var out []string
	for _, l := range strings.Split(strings.Join(lines, "\n"), "\n") {
		text := strings.TrimLeft(l, " ")
		lead := len(l) - len(text)
		if lead == 0 || ansi.StringWidth(l) <= w {
			for _, r := range strings.Split(lipgloss.NewStyle().Width(w).Render(l), "\n") {
				out = append(out, fitRow(r, w)...)
			}
			continue
		}
		hang := lead
		if id, _, ok := strings.Cut(text, "  "); ok && !strings.Contains(id, " ") {
			hang += ansi.StringWidth(id) + 2
		}
		// A numbered source line ("  16 │ code"): continue under the code.
		if num, _, ok := strings.Cut(ansi.Strip(text), " │ "); ok && num != "" && strings.Trim(num, "0123456789") == "" {
			hang = lead + ansi.StringWidth(num) + 3
		}
		hang = min(hang, w/2)
		parts := strings.Split(ansi.Wrap(text, w-hang, ""), "\n")
		out = append(out, pad(strings.Repeat(" ", lead)+parts[0], w))
		for _, p := range parts[1:] {
			out = append(out, pad(strings.Repeat(" ", hang)+p, w))
		}
	}
	return out
}

// fitRow returns row (one wrapped line) in rows of at most w cells: the
// word wrap may leave the space at which it broke after the w-th cell,
// which is dropped; a longer word is broken, never cut with "…".
func fitRow(row string, w int) []string {
	if ansi.StringWidth(row) <= w {
		return []string{row}
	}
	if ansi.StringWidth(strings.TrimRight(ansi.Strip(row), " ")) <= w {
		return []string{ansi.Truncate(row, w, "")}
	}
	return strings.Split(ansi.Hardwrap(row, w, true), "\n")
}

// fieldEvidence returns the evidence field f of item it refers to, with
// the cited lines to highlight.
func fieldEvidence(it *blinding.Item, f adjudication.Field) []evidenceRef {
	ref := func(id string, cited []LineRange) evidenceRef {
		for i := range it.Evidence {
			e := &it.Evidence[i]
			if e.ID == id {
				return evidenceRef{item: &evidenceSource{ID: e.ID, Path: e.Path, StartLine: e.StartLine, EndLine: e.EndLine, Excerpt: e.Excerpt}, cited: cited}
			}
		}
		return evidenceRef{missing: id, cited: cited}
	}
	// citedBy returns the lines of citations to id that support one of ids
	// (any citation to id when ids is nil).
	citedBy := func(id string, ids []string) []LineRange {
		var out []LineRange
		for _, c := range it.Final.Citations {
			if c.EvidenceID != id {
				continue
			}
			if ids == nil || slices.ContainsFunc(c.Supports, func(s string) bool { return slices.Contains(ids, s) }) {
				out = append(out, LineRange{c.StartLine, c.EndLine})
			}
		}
		return out
	}
	var refs []evidenceRef
	many := func(ids []string, by []string) {
		for _, id := range ids {
			refs = append(refs, ref(id, citedBy(id, by)))
		}
	}
	switch f.Kind {
	case adjudication.KindObligation, adjudication.KindUncertainty:
		for _, o := range it.Obligations {
			if o.ID == f.Target {
				many(o.EvidenceIDs, nil)
			}
		}
	case adjudication.KindClaim, adjudication.KindClaimCritical:
		for _, c := range it.Final.Claims {
			if c.ID == f.Target {
				ids := slices.Clone(c.EvidenceIDs)
				for _, ct := range it.Final.Citations {
					if slices.Contains(ct.Supports, c.ID) && !slices.Contains(ids, ct.EvidenceID) {
						ids = append(ids, ct.EvidenceID)
					}
				}
				many(ids, []string{c.ID})
			}
		}
	case adjudication.KindCitation:
		if i, err := strconv.Atoi(strings.TrimPrefix(f.Target, "K")); err == nil && i >= 1 && i <= len(it.Final.Citations) {
			c := it.Final.Citations[i-1]
			refs = append(refs, ref(c.EvidenceID, []LineRange{{c.StartLine, c.EndLine}}))
		}
	case adjudication.KindExclusion:
		for _, x := range it.Final.Exclusions {
			if x.ID == f.Target {
				many(x.EvidenceIDs, nil)
			}
		}
	case adjudication.KindCompleteness:
		for _, e := range it.Evidence {
			refs = append(refs, ref(e.ID, citedBy(e.ID, nil)))
		}
	}
	return refs
}

// citationCode returns the cited lines of a citation field (nil for
// other fields), for the wide pane.
func citationCode(st *styles.Styles, it *blinding.Item, f adjudication.Field) []string {
	if f.Kind != adjudication.KindCitation {
		return nil
	}
	i, _ := strconv.Atoi(strings.TrimPrefix(f.Target, "K"))
	if i < 1 || i > len(it.Final.Citations) {
		return nil
	}
	return citedLines(st, it, it.Final.Citations[i-1])
}

// citedLines renders the lines citation c cites, with their real line
// numbers, from its evidence item's excerpt; lines outside the excerpt are
// named, not invented (EVALUATOR-CONTROLS C09).
func citedLines(st *styles.Styles, it *blinding.Item, c campaign.Citation) []string {
	for _, e := range it.Evidence {
		if e.ID != c.EvidenceID {
			continue
		}
		lines := excerptLines(e.Excerpt)
		out := []string{st.Muted.Render(fmt.Sprintf("cited lines (the excerpt %s has lines %d-%d):", e.ID, e.StartLine, e.EndLine))}
		w := len(strconv.Itoa(c.EndLine))
		for n := c.StartLine; n <= c.EndLine; n++ {
			i := n - e.StartLine
			if i < 0 || i >= len(lines) {
				out = append(out, st.Finding.Render(fmt.Sprintf("  %*d │ (not in %s, which has lines %d-%d)", w, n, e.ID, e.StartLine, e.StartLine+len(lines)-1)))
				continue
			}
			out = append(out, fmt.Sprintf("  %*d │ %s", w, n, lines[i]))
		}
		return out
	}
	return []string{st.Finding.Render(c.EvidenceID + " is not an evidence item of this packet")}
}
