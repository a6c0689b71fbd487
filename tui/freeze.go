package tui

import (
	"fmt"

	tea "charm.land/bubbletea/v2"

	"verdict/adjudication"
)

// newFreezeScreen returns the rater's signing screen: it summarises the
// rater's work and, on y, freezes and signs the sheet (RateInput.Freeze)
// once every field is graded and saved.
func newFreezeScreen(s *rateState) *signScreen {
	meaning := s.in.Meaning
	if meaning == "" {
		meaning = "I graded every field of this bundle myself, independently, and these are my final grades."
	}
	f := newSignScreen(s.c, "Freeze and sign the rating sheet", s.in.Signer,
		"(none: start verdict rate with --key and --name to freeze)", meaning)
	f.summary = func() []string {
		var flags, notes int
		for fd, g := range s.saved {
			if fd.Kind == adjudication.KindOracleDefect {
				flags++
			} else if g.Note != "" {
				notes++
			}
		}
		return []string{
			fmt.Sprintf("items:                %d (%d complete)", len(s.fields), s.itemsDone()),
			fmt.Sprintf("required fields:      %d graded of %d", s.nGraded, s.nTotal),
			fmt.Sprintf("oracle-defect flags:  %d", flags),
			fmt.Sprintf("grades with a note:   %d", notes),
		}
	}
	f.status = func() signStatus {
		switch {
		case s.frozen:
			return signStatus{line: "Frozen and signed: " + s.sheet, tone: toneOK, done: true}
		case s.nGraded < s.nTotal:
			return signStatus{line: fmt.Sprintf("Refused: %d required fields are ungraded. Grade them first.", s.nTotal-s.nGraded), tone: toneRefused}
		case s.queue.len() > 0:
			return signStatus{line: "Waiting for the journal to save every grade …", tone: toneWait}
		case s.in.Freeze == nil:
			return signStatus{line: "Refused: no signing key (--key) and signer (--name) configured.", tone: toneRefused}
		case s.freezing:
			return signStatus{line: "Signing …", tone: toneWait}
		}
		return signStatus{line: "After signing, the sheet cannot be changed. Press y to sign, esc to go back.", confirm: s.canFreeze()}
	}
	f.confirm = func() tea.Cmd {
		s.freezing = true
		s.setStatus("signing …", false)
		return signCmd(s.in.Freeze)
	}
	f.cancel = func() tea.Cmd { return s.send(showMsg{screenGrade}) }
	return f
}
