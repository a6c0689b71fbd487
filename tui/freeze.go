package tui

import (
	"fmt"

	tea "charm.land/bubbletea/v2"

	"verdict/adjudication"
	"verdict/internal/plural"
)

// newFreezeScreen returns the rater's use of the signing screen: it
// summarises the rater's work and, on y, freezes and signs the sheet
// (RateInput.Freeze) once every required field is graded and saved.
func newFreezeScreen(s *rateState) *signScreen {
	meaning := s.in.Meaning
	if meaning == "" {
		meaning = "I graded every field of this bundle myself, independently, and these are my final grades."
	}
	rec := signRecord{
		title:    "Freeze and sign the rating sheet",
		noSigner: "(none: start verdict rate with --key and --name to freeze)",
		meaning:  meaning,
		noun:     "sheet",
		saves:    "grades and flags",
		signed:   "Frozen and signed",
		summary:  func(int) []string { return freezeSummary(s) },
		refusal: func() string {
			if n := s.nTotal - s.nValued(); n > 0 {
				return fmt.Sprintf("%d required fields are ungraded. Grade them first.", n)
			}
			return ""
		},
		pending: func() int { return s.queue.len() + s.flagQueue.len() },
		cancel:  func() tea.Cmd { return s.send(showMsg{screenGrade}) },
		noSign:  s.in.NoFreeze,
	}
	if s.in.Freeze != nil {
		rec.sign = s.in.Freeze
	}
	return newSignScreen(s.c, s.in.Signer, rec)
}

// freezeSummary is what the rater signs: the counts of items, fields,
// oracle-defect flags and notes, and the items flagged to come back to.
func freezeSummary(s *rateState) []string {
	var flags, notes int
	for fd, g := range s.saved {
		if fd.Kind == adjudication.KindOracleDefect {
			flags++
		} else if g.Note != "" {
			notes++
		}
	}
	return append([]string{
		fmt.Sprintf("items:                %d (%d complete)", len(s.fields), s.itemsDone()),
		fmt.Sprintf("required fields:      %d graded of %d", s.nGraded, s.nTotal),
		fmt.Sprintf("oracle-defect flags:  %d", flags),
		fmt.Sprintf("grades with a note:   %d", notes),
	}, flaggedSummary(s)...)
}

// maxFlagRows is how many flagged items the signing screen names; the
// rest are counted.
const maxFlagRows = 5

// flaggedSummary is what the signing screen says of the items flagged to
// come back to (f): their number and the first maxFlagRows of them by
// number and ID. A flag does not keep the rater from signing; the rater
// sees it before confirming.
func flaggedSummary(s *rateState) []string {
	var items []int
	for i := range s.fields {
		if s.isFlagged(i) {
			items = append(items, i)
		}
	}
	if len(items) == 0 {
		return []string{"flagged to come back to: none"}
	}
	st := s.c.Styles
	out := []string{st.Warn.Render(fmt.Sprintf("flagged to come back to: %s (signing is allowed; esc, then l lists them)", plural.Count(len(items), "item", "items")))}
	for k, i := range items {
		if k == maxFlagRows {
			out = append(out, fmt.Sprintf("  … and %d more", len(items)-maxFlagRows))
			break
		}
		out = append(out, fmt.Sprintf("  ⚑ item %d/%d · %s", i+1, len(s.fields), s.in.Bundle.Items[i].ID))
	}
	return out
}
