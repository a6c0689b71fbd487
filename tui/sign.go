package tui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// signTone is how a signing screen's status line is styled.
type signTone int

const (
	// tonePlain is an instruction ("Press y to sign …").
	tonePlain signTone = iota
	// toneOK is a signed record.
	toneOK
	// toneWait is work in progress (saving, signing).
	toneWait
	// toneRefused is what keeps the record from being signed.
	toneRefused
)

// signStatus is a signing screen's status line, whether y is enabled
// (confirm), and whether the record is signed (done: esc then goes back
// instead of cancelling).
type signStatus struct {
	line          string
	tone          signTone
	confirm, done bool
}

// refusedSigning is why a signing screen without a signing function
// refuses: why, or by default the missing --key and --name.
func refusedSigning(why string) string {
	if why != "" {
		return why
	}
	return "no signing key (--key) and signer (--name) configured."
}

// signedMsg reports the end of a signing started by signCmd: the signed
// record's description, or the error.
type signedMsg struct {
	desc string
	err  error
}

// signCmd runs sign (which writes and signs a record) outside Update and
// reports it as a signedMsg.
func signCmd(sign func() (string, error)) tea.Cmd {
	return func() tea.Msg { desc, err := sign(); return signedMsg{desc, err} }
}

// signScreen is the one signing screen of the TUI, used by the rater's
// freeze of the rating sheet (rate, F) and by the adjudicator's signing of
// the adjudication (adjudicate, S): a title, the counts of what is signed,
// the signer and key, the meaning of the signature, one status line, y to
// sign and esc to go back. The owner gives the counts (summary), decides
// the status (status) and what y and esc do (confirm, cancel).
type signScreen struct {
	c       *Common
	keys    SignKeyMap
	w, h    int
	title   string
	signer  string
	meaning string
	summary func() []string
	status  func() signStatus
	confirm func() tea.Cmd
	cancel  func() tea.Cmd
}

// newSignScreen returns a signing screen for signer; noSigner is shown in
// place of an empty signer name ("" shows nothing), meaning is the
// signature's meaning.
func newSignScreen(c *Common, title string, signer Signer, noSigner, meaning string) *signScreen {
	who := signer.Name
	if who == "" {
		who = noSigner
	}
	if signer.Fingerprint != "" {
		who += " · key " + signer.Fingerprint
	}
	return &signScreen{c: c, keys: DefaultSignKeyMap(), title: title, signer: who, meaning: meaning}
}

// setEnabled enables y as the owner's status says; once the record is
// signed esc goes back (nothing is left to cancel).
func (s *signScreen) setEnabled() {
	st := s.status()
	s.keys.Confirm.SetEnabled(st.confirm)
	if st.done {
		s.keys.Cancel.SetHelp("esc", "back")
	} else {
		s.keys.Cancel.SetHelp("esc", "cancel")
	}
}

// Init implements tea.Model.
func (s *signScreen) Init() tea.Cmd { return nil }

// SetSize implements Component.
func (s *signScreen) SetSize(w, h int) { s.w, s.h = w, h }

// Update implements tea.Model.
func (s *signScreen) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return s, nil
	}
	switch {
	case key.Matches(k, s.keys.Cancel):
		return s, s.cancel()
	case key.Matches(k, s.keys.Confirm):
		if !s.status().confirm {
			return s, nil
		}
		return s, s.confirm()
	}
	return s, nil
}

// View implements tea.Model.
func (s *signScreen) View() tea.View {
	st := s.c.Styles
	out := []string{st.Header.Render(s.title), ""}
	out = append(out, s.summary()...)
	out = append(out, "", "signer:  "+s.signer, "meaning: "+s.meaning, "")
	status := s.status()
	switch status.tone {
	case toneOK:
		out = append(out, st.OK.Render(status.line))
	case toneWait:
		out = append(out, st.Warn.Render(status.line))
	case toneRefused:
		out = append(out, st.Finding.Render(status.line))
	case tonePlain:
		out = append(out, status.line)
	}
	return tea.NewView(strings.Join(wrapLines(out, s.w), "\n"))
}

// ShortHelp implements help.KeyMap.
func (s *signScreen) ShortHelp() []key.Binding { return []key.Binding{s.keys.Confirm, s.keys.Cancel} }

// FullHelp implements help.KeyMap.
func (s *signScreen) FullHelp() [][]key.Binding { return [][]key.Binding{s.ShortHelp()} }
