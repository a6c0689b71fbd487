package tui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// Signer is who signs a record (a frozen rating sheet, an adjudication),
// as the signing screen shows it.
type Signer struct {
	// Name is the signer's name; Fingerprint the SSH key fingerprint
	// ("SHA256:...").
	Name, Fingerprint string
}

// signedMsg reports the end of a signing started by the signing screen:
// the signed record's description, or the error.
type signedMsg struct {
	desc string
	err  error
}

// signRecord says what a signing screen signs and how: the owner (the
// rater's freeze, the adjudicator's signing) fills it in; the signing
// screen owns the rest (the keys, the state of the signing, its view).
type signRecord struct {
	// title heads the screen; noSigner is shown in place of an empty
	// signer name; meaning is the signature's meaning.
	title, noSigner, meaning string
	// noun names the record ("sheet", "adjudication"), saves what is
	// saved before it ("grades and flags", "decisions"); signed is the word
	// for a signed record in the status line ("Frozen and signed").
	noun, saves, signed string
	// summary is what is being signed, as lines (counts, decisions).
	summary func(w int) []string
	// refusal says why the record cannot be signed now, "" when it can
	// once the saves in flight are on disk.
	refusal func() string
	// pending counts the saves in flight (grades, flags, decisions): y
	// pressed while some are outstanding signs once they returned.
	pending func() int
	// sign writes and signs the record and describes what it wrote; it
	// runs outside Update (a command). When it is nil noSign says why
	// (refusedSigning).
	sign   func() (string, error)
	noSign string
	// cancel is what esc does (back to the owner's main screen).
	cancel func() tea.Cmd
}

// signScreen is the one signing component of the TUI, used by the rater's
// freeze of the rating sheet (rate, F) and by the adjudicator's signing of
// the adjudication (adjudicate, S): a title, what is signed, the signer and
// key, the meaning of the signature, one status line, y to sign and esc to
// go back. It keeps the state of the signing: y while saves are in flight
// arms it (signing follows their saving, afterSave), a signing in progress
// refuses a second one, and the signed record's description is kept.
type signScreen struct {
	pane
	c      *Common
	keys   SignKeyMap
	rec    signRecord
	signer string
	// armed is set when y was pressed while saves were in flight.
	armed bool
	// signing is set while rec.sign runs; signed once it succeeded, with
	// its description in record.
	signing, signed bool
	record          string
	// dy scrolls what is signed; scrolls reports whether it is longer
	// than its rows (set by View).
	dy      int
	scrolls bool
}

// newSignScreen returns the signing screen of rec for signer.
func newSignScreen(c *Common, signer Signer, rec signRecord) *signScreen {
	who := signer.Name
	if who == "" {
		who = rec.noSigner
	}
	if signer.Fingerprint != "" {
		who += " · key " + signer.Fingerprint
	}
	return &signScreen{c: c, keys: DefaultSignKeyMap(), rec: rec, signer: who}
}

// canConfirm reports whether y does something now: sign, or arm the
// signing until the saves in flight are on disk.
func (s *signScreen) canConfirm() bool {
	return !s.signed && !s.signing && !s.armed && s.rec.sign != nil && s.rec.refusal() == ""
}

// confirm is y: it signs now, or once the saves in flight returned.
func (s *signScreen) confirm() tea.Cmd {
	if !s.canConfirm() {
		return nil
	}
	if s.rec.pending() > 0 {
		s.armed = true
		return nil
	}
	s.signing = true
	return func() tea.Msg { desc, err := s.rec.sign(); return signedMsg{desc, err} }
}

// afterSave is called by the owner each time a save returned: an armed
// signing starts once nothing is in flight (and is dropped when the
// record can no longer be signed, e.g. a save failed).
func (s *signScreen) afterSave() tea.Cmd {
	if !s.armed || s.rec.pending() > 0 {
		return nil
	}
	s.armed = false
	return s.confirm()
}

// saveFailed is called by the owner when a save failed: an armed
// signing is dropped. It returns the status line the owner shows.
func (s *signScreen) saveFailed(err error) string {
	s.disarm()
	return "NOT saved: " + err.Error()
}

// done takes in the end of the signing; it returns the status line the
// owner shows.
func (s *signScreen) done(m signedMsg) string {
	s.signing = false
	if m.err != nil {
		return "NOT signed: " + m.err.Error()
	}
	s.signed, s.record = true, m.desc
	return strings.ToLower(s.rec.signed[:1]) + s.rec.signed[1:] + ": " + m.desc
}

// disarm drops an armed signing (esc).
func (s *signScreen) disarm() { s.armed = false }

// status is the screen's status line and its tone.
func (s *signScreen) status() (string, signTone) {
	switch {
	case s.signed:
		return s.rec.signed + ": " + s.record, toneOK
	case s.signing:
		return "Signing …", toneWait
	}
	if r := s.rec.refusal(); r != "" {
		return "Refused: " + r, toneRefused
	}
	if s.rec.sign == nil {
		return "Refused: " + refusedSigning(s.rec.noSign), toneRefused
	}
	if n := s.rec.pending(); n > 0 {
		if s.armed {
			return fmt.Sprintf("Saving %d of the %s …; signing follows.", n, s.rec.saves), toneWait
		}
		return fmt.Sprintf("Saving %d of the %s …; y signs once they are on disk.", n, s.rec.saves), toneWait
	}
	return "After signing, the " + s.rec.noun + " cannot be changed. Press y to sign, esc to go back.", tonePlain
}

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

// refusedSigning is why a signing screen without a signing function
// refuses: why, or by default the missing --key and --name.
func refusedSigning(why string) string {
	if why != "" {
		return why
	}
	return "no signing key (--key) and signer (--name) configured."
}

// setEnabled enables y when it does something, and the scroll keys when
// the screen is shown and what is signed does not fit; once the record is
// signed esc goes back (nothing is left to cancel).
func (s *signScreen) setEnabled(shown bool) {
	s.keys.Confirm.SetEnabled(s.canConfirm())
	s.scrolls = false
	if shown {
		s.parts()
	}
	s.keys.Down.SetEnabled(s.scrolls)
	s.keys.Up.SetEnabled(s.scrolls)
	if s.signed {
		s.keys.Cancel.SetHelp("esc", "back")
	} else {
		s.keys.Cancel.SetHelp("esc", "cancel")
	}
}

// Update implements tea.Model.
func (s *signScreen) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return s, nil
	}
	switch {
	case key.Matches(k, s.keys.Cancel):
		s.disarm()
		return s, s.rec.cancel()
	case key.Matches(k, s.keys.Confirm):
		return s, s.confirm()
	case key.Matches(k, s.keys.Down):
		s.dy += max(s.h/2, 1)
	case key.Matches(k, s.keys.Up):
		s.dy = max(s.dy-max(s.h/2, 1), 0)
	}
	return s, nil
}

// View implements tea.Model: the title, the signer, the meaning and the
// status line stay on screen; what is signed takes the rows between them
// and scrolls (ctrl+d, ctrl+u) when it does not fit.
func (s *signScreen) View() tea.View {
	head, body, tail := s.parts()
	if s.h > 0 {
		body = scrollWindow(s.c.Styles, body, &s.dy, s.h-len(head)-len(tail))
	}
	return tea.NewView(strings.Join(append(append(head, body...), tail...), "\n"))
}

// parts renders the screen's three parts in its width: the title, what is
// signed, and the signer, meaning and status line; scrolls is set when
// what is signed does not fit between the others.
func (s *signScreen) parts() (head, body, tail []string) {
	st := s.c.Styles
	head = wrapLines([]string{st.Header.Render(s.rec.title), ""}, s.w)
	line, tone := s.status()
	switch tone {
	case toneOK:
		line = st.OK.Render(line)
	case toneWait:
		line = st.Warn.Render(line)
	case toneRefused:
		line = st.Finding.Render(line)
	case tonePlain:
	}
	tail = wrapLines([]string{"", "signer:  " + s.signer, "meaning: " + s.rec.meaning, "", line}, s.w)
	body = wrapLines(s.rec.summary(s.w), s.w)
	s.scrolls = s.h > 0 && len(body) > s.h-len(head)-len(tail)
	return head, body, tail
}

// ShortHelp implements help.KeyMap.
func (s *signScreen) ShortHelp() []key.Binding {
	return []key.Binding{s.keys.Confirm, s.keys.Cancel, s.keys.Down, s.keys.Up}
}

// FullHelp implements help.KeyMap.
func (s *signScreen) FullHelp() [][]key.Binding { return [][]key.Binding{s.ShortHelp()} }
