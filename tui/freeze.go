package tui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"verdict/adjudication"
)

// freezeScreen summarises the rater's work and, on y, freezes and signs
// the sheet (RateInput.Freeze) once every field is graded and saved.
type freezeScreen struct {
	s    *rateState
	keys FreezeKeyMap
	w, h int
}

func newFreezeScreen(s *rateState) *freezeScreen {
	return &freezeScreen{s: s, keys: DefaultFreezeKeyMap()}
}

func (f *freezeScreen) setEnabled() {
	f.keys.Confirm.SetEnabled(f.s.canFreeze())
	// Once frozen nothing is left to cancel: esc goes back to the grades.
	if f.s.frozen {
		f.keys.Cancel.SetHelp("esc", "back")
	} else {
		f.keys.Cancel.SetHelp("esc", "cancel")
	}
}

// Init implements tea.Model.
func (f *freezeScreen) Init() tea.Cmd { return nil }

// SetSize implements Component.
func (f *freezeScreen) SetSize(w, h int) { f.w, f.h = w, h }

// Update implements tea.Model.
func (f *freezeScreen) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return f, nil
	}
	s := f.s
	switch {
	case key.Matches(k, f.keys.Cancel):
		return f, f.s.send(showMsg{screenGrade})
	case key.Matches(k, f.keys.Confirm):
		if !s.canFreeze() {
			return f, nil
		}
		s.freezing = true
		s.setStatus("signing …", false)
		fz := s.in.Freeze
		return f, func() tea.Msg { d, err := fz(); return frozenMsg{d, err} }
	}
	return f, nil
}

// View implements tea.Model.
func (f *freezeScreen) View() tea.View {
	s := f.s
	st := s.c.Styles
	var flags, notes int
	for fd, g := range s.saved {
		if fd.Kind == adjudication.KindOracleDefect {
			flags++
		} else if g.Note != "" {
			notes++
		}
	}
	var out []string
	add := func(l string) { out = append(out, l) }
	add(st.Header.Render("Freeze and sign the rating sheet"))
	add("")
	add(fmt.Sprintf("items:                %d (%d complete)", len(s.fields), s.itemsDone()))
	add(fmt.Sprintf("required fields:      %d graded of %d", s.nGraded, s.nTotal))
	add(fmt.Sprintf("oracle-defect flags:  %d", flags))
	add(fmt.Sprintf("grades with a note:   %d", notes))
	add("")
	signer := s.in.Signer.Name
	if signer == "" {
		signer = "(none: start verdict rate with --key and --name to freeze)"
	}
	if s.in.Signer.Fingerprint != "" {
		signer += " · key " + s.in.Signer.Fingerprint
	}
	add("signer:  " + signer)
	meaning := s.in.Meaning
	if meaning == "" {
		meaning = "I graded every field of this bundle myself, independently, and these are my final grades."
	}
	add("meaning: " + meaning)
	add("")
	switch {
	case s.frozen:
		add(st.OK.Render("Frozen and signed: " + s.sheet))
	case s.nGraded < s.nTotal:
		add(st.Finding.Render(fmt.Sprintf("Refused: %d required fields are ungraded. Grade them first.", s.nTotal-s.nGraded)))
	case s.queue.len() > 0:
		add(st.Warn.Render("Waiting for the journal to save every grade …"))
	case s.in.Freeze == nil:
		add(st.Finding.Render("Refused: no signing key (--key) and signer (--name) configured."))
	case s.freezing:
		add(st.Warn.Render("Signing …"))
	default:
		add("After signing, the sheet cannot be changed. Press y to sign, esc to go back.")
	}
	return tea.NewView(strings.Join(wrapLines(out, f.w), "\n"))
}

// ShortHelp implements help.KeyMap.
func (f *freezeScreen) ShortHelp() []key.Binding { return []key.Binding{f.keys.Confirm, f.keys.Cancel} }

// FullHelp implements help.KeyMap.
func (f *freezeScreen) FullHelp() [][]key.Binding { return [][]key.Binding{f.ShortHelp()} }
