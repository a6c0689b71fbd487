package tui

import (
	"strconv"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

func (a *adjudicator) setEnabled() {
	// The decision and move keys also work while the answer is shown.
	main := (a.screen == adjMain || a.screen == adjAnswer) && !a.signer.signed && len(a.in.Disputes) > 0
	a.keys.First.SetEnabled(main)
	a.keys.Second.SetEnabled(main)
	a.keys.Other.SetEnabled(main && a.dispute() != nil && len(otherValues(a.dispute())) > 0)
	a.keys.Note.SetEnabled(main && a.dispute() != nil && a.decided(a.cur))
	a.keys.Up.SetEnabled((a.screen == adjMain || a.screen == adjAnswer) && len(a.in.Disputes) > 1)
	a.keys.Down.SetEnabled((a.screen == adjMain || a.screen == adjAnswer) && len(a.in.Disputes) > 1)
	a.keys.NextOpen.SetEnabled(main && a.open() > 0)
	a.keys.Evidence.SetEnabled(a.screen == adjMain && a.dispute() != nil)
	for _, b := range []*key.Binding{&a.keys.Task, &a.keys.Codebook, &a.keys.List, &a.keys.Search} {
		b.SetEnabled(a.screen == adjMain && a.dispute() != nil)
	}
	for _, b := range []*key.Binding{&a.keys.DetailUp, &a.keys.DetailDown} {
		b.SetEnabled((a.screen == adjMain || a.screen == adjAnswer) && a.dispute() != nil)
	}
	a.keys.Answer.SetEnabled(a.screen == adjMain && a.dispute() != nil && !a.wide())
	a.keys.AnswerUp.SetEnabled(a.screen == adjMain && a.wide())
	a.keys.AnswerDown.SetEnabled(a.screen == adjMain && a.wide())
	a.keys.Sign.SetEnabled(a.screen == adjMain && !a.signer.signed)
	a.keys.Save.SetEnabled(a.screen == adjNote)
	a.keys.Cancel.SetEnabled(a.screen == adjOther)
	a.signer.setEnabled(a.screen == adjSign)
	var vals []string
	if d := a.dispute(); d != nil {
		vals = allowedFor(d)
	}
	for i := range a.keys.Values {
		a.keys.Values[i].SetEnabled(a.screen == adjOther && i < len(vals))
		if i < len(vals) {
			a.keys.Values[i].SetHelp(strconv.Itoa(i+1), showValue(vals[i], a.dispute().Field.Kind))
		}
	}
}

func (a *adjudicator) key(k tea.KeyPressMsg) tea.Cmd {
	switch a.screen {
	case adjEvidence:
		if a.viewer.closes(k) {
			a.viewer, a.screen = nil, adjMain
			return nil
		}
		_, cmd := a.viewer.Update(k)
		return cmd
	case adjNote, adjList, adjSearch, adjSign:
		_, cmd := a.active().Update(k)
		return cmd
	case adjAnswer:
		if key.Matches(k, a.keys.First, a.keys.Second, a.keys.Other, a.keys.Up, a.keys.Down, a.keys.DetailDown, a.keys.DetailUp) {
			break // decide and move while reading the answer
		}
		if a.answer.passes(k, a.keys.all()...) {
			// Any other key of the dispute screen: back to it, the key
			// applied, rather than a key that does nothing.
			a.screen = adjMain
			a.setEnabled()
			return a.key(k)
		}
		_, cmd := a.answer.Update(k)
		return cmd
	case adjPanel:
		if a.onTask && a.panel.passes(k, a.keys.all()...) {
			// A decision or moving key typed on the task: the task closes
			// and the key applies, so that typing ahead loses nothing.
			a.screen = adjMain
			a.setEnabled()
			return a.key(k)
		}
		_, cmd := a.panel.Update(k)
		return cmd
	case adjOther:
		if key.Matches(k, a.keys.Cancel) {
			a.screen = adjMain
			return nil
		}
		vals := allowedFor(a.dispute())
		for i, b := range a.keys.Values {
			if key.Matches(k, b) && i < len(vals) {
				a.screen = adjMain
				d := a.dispute()
				if vals[i] != d.Values[0] && vals[i] != d.Values[1] {
					return a.openNote(vals[i], "")
				}
				return a.decide(vals[i], "")
			}
		}
		return nil
	}
	d := a.dispute()
	switch {
	case key.Matches(k, a.keys.First):
		return a.decide(d.Values[0], a.carryNote(d.Values[0], d.Notes[0]))
	case key.Matches(k, a.keys.Second):
		return a.decide(d.Values[1], a.carryNote(d.Values[1], d.Notes[1]))
	case key.Matches(k, a.keys.Other):
		a.screen = adjOther
	case key.Matches(k, a.keys.Note):
		dec, _ := a.decision(a.cur)
		if dec == nil {
			return nil
		}
		return a.openNote(dec.Final, dec.Note)
	case key.Matches(k, a.keys.Down):
		a.cur = (a.cur + 1) % len(a.in.Disputes)
	case key.Matches(k, a.keys.Up):
		a.cur = (a.cur + len(a.in.Disputes) - 1) % len(a.in.Disputes)
	case key.Matches(k, a.keys.NextOpen):
		a.nextOpen()
	case key.Matches(k, a.keys.Evidence):
		a.openEvidence()
	case key.Matches(k, a.keys.Sign):
		a.screen = adjSign
	case key.Matches(k, a.keys.Answer):
		a.screen = adjAnswer
	case key.Matches(k, a.keys.AnswerDown):
		a.answer.scroll(max(a.h/2, 1))
	case key.Matches(k, a.keys.AnswerUp):
		a.answer.scroll(-max(a.h/2, 1))
	case key.Matches(k, a.keys.Task):
		a.showTask()
	case key.Matches(k, a.keys.Codebook):
		a.panel.open(guidelinesPanel(a.in.Bundle))
		a.screen, a.onTask = adjPanel, false
	case key.Matches(k, a.keys.List):
		a.list.cur = a.cur
		a.screen = adjList
	case key.Matches(k, a.keys.Search):
		a.screen = adjSearch
		return a.search.open()
	case key.Matches(k, a.keys.DetailDown):
		a.dy += max(a.h/4, 1)
	case key.Matches(k, a.keys.DetailUp):
		a.dy = max(a.dy-max(a.h/4, 1), 0)
	}
	return nil
}

// ShortHelp implements help.KeyMap.
func (a *adjudicator) ShortHelp() []key.Binding {
	switch a.screen {
	case adjOther:
		return []key.Binding{a.keys.Values[0], a.keys.Values[1], a.keys.Values[2], a.keys.Cancel}
	case adjAnswer:
		return append([]key.Binding{a.keys.First, a.keys.Second, a.keys.Other, a.keys.Down, a.keys.Up}, a.answer.ShortHelp()...)
	}
	if c := a.active(); c != nil {
		return c.ShortHelp()
	}
	return []key.Binding{a.keys.First, a.keys.Second, a.keys.Other, a.keys.Down, a.keys.Up, a.keys.Task, a.keys.Answer, a.keys.Evidence, a.keys.Sign}
}

// FullHelp implements help.KeyMap.
func (a *adjudicator) FullHelp() [][]key.Binding {
	switch a.screen {
	case adjMain:
	case adjPanel, adjEvidence:
		return a.active().FullHelp()
	default:
		return [][]key.Binding{a.ShortHelp()}
	}
	return [][]key.Binding{
		{a.keys.First, a.keys.Second, a.keys.Other, a.keys.Note},
		{a.keys.Up, a.keys.Down, a.keys.NextOpen, a.keys.List, a.keys.Search},
		{a.keys.Task, a.keys.Codebook, a.keys.Evidence, a.keys.Answer, a.keys.AnswerDown, a.keys.AnswerUp},
		{a.keys.DetailDown, a.keys.DetailUp, a.keys.Sign},
	}
}
