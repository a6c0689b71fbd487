package tui

import "charm.land/bubbles/v2/key"

// AdjudicateKeyMap is the key map of the adjudicator's screen: the shared
// item bindings (ItemKeyMap: the other-value chooser's values, note,
// evidence, answer, task, codebook, search, detail) and the adjudicator's
// own. The signing screen has its own (SignKeyMap).
type AdjudicateKeyMap struct {
	ItemKeyMap
	// First and Second choose the first or the second rating's value.
	First, Second key.Binding
	// Other chooses another allowed value (a note is then required).
	Other key.Binding
	// Up and Down (and NextOpen) move between disputes.
	Up, Down, NextOpen key.Binding
	// Sign opens the signing screen.
	Sign key.Binding
	// Save saves the note; Cancel leaves the other-value chooser unchanged.
	Save, Cancel key.Binding
	// List shows the list of disputes.
	List key.Binding
}

// DefaultAdjudicateKeyMap returns the adjudicator's bindings.
func DefaultAdjudicateKeyMap() AdjudicateKeyMap {
	return AdjudicateKeyMap{
		ItemKeyMap: DefaultItemKeyMap(),
		First:      key.NewBinding(key.WithKeys("1"), key.WithHelp("1", "first rating")),
		Second:     key.NewBinding(key.WithKeys("2"), key.WithHelp("2", "second rating")),
		Other:      key.NewBinding(key.WithKeys("v"), key.WithHelp("v", "other value")),
		Up:         key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "prev dispute")),
		Down:       key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "next dispute")),
		NextOpen:   key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "next open")),
		Sign:       key.NewBinding(key.WithKeys("S"), key.WithHelp("S", "sign")),
		Save:       key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "save")),
		Cancel:     key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel")),
		List:       key.NewBinding(key.WithKeys("l"), key.WithHelp("l", "disputes")),
	}
}

// all is every binding of the dispute screen: the keys that pass through
// the task panel.
func (k AdjudicateKeyMap) all() []key.Binding {
	return []key.Binding{k.First, k.Second, k.Other, k.Note, k.Evidence, k.Answer, k.AnswerUp, k.AnswerDown,
		k.Task, k.Codebook, k.Search, k.DetailUp, k.DetailDown, k.Up, k.Down, k.NextOpen, k.List, k.Sign}
}
