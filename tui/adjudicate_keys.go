package tui

import "charm.land/bubbles/v2/key"

// AdjudicateKeyMap is the key map of the adjudicator's screen.
type AdjudicateKeyMap struct {
	// First and Second choose the first or the second rating's value.
	First, Second key.Binding
	// Other chooses another allowed value (a note is then required).
	Other key.Binding
	// Values pick a value in the other-value chooser.
	Values [3]key.Binding
	// Note edits the decision's note.
	Note key.Binding
	// Up and Down (and NextOpen) move between disputes.
	Up, Down, NextOpen key.Binding
	// Evidence opens the evidence viewer for the disputed field.
	Evidence key.Binding
	// Sign opens the signing confirmation (Confirm signs; enabled when
	// every dispute is resolved).
	Sign, Confirm key.Binding
	// Save saves the note; Cancel leaves a dialog unchanged.
	Save, Cancel key.Binding
}

// DefaultAdjudicateKeyMap returns the adjudicator's bindings.
func DefaultAdjudicateKeyMap() AdjudicateKeyMap {
	return AdjudicateKeyMap{
		First:  key.NewBinding(key.WithKeys("1"), key.WithHelp("1", "first rating")),
		Second: key.NewBinding(key.WithKeys("2"), key.WithHelp("2", "second rating")),
		Other:  key.NewBinding(key.WithKeys("v"), key.WithHelp("v", "other value")),
		Values: [3]key.Binding{
			key.NewBinding(key.WithKeys("1"), key.WithHelp("1", "value 1")),
			key.NewBinding(key.WithKeys("2"), key.WithHelp("2", "value 2")),
			key.NewBinding(key.WithKeys("3"), key.WithHelp("3", "value 3")),
		},
		Note:     key.NewBinding(key.WithKeys("m"), key.WithHelp("m", "note")),
		Up:       key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "prev dispute")),
		Down:     key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "next dispute")),
		NextOpen: key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "next open")),
		Evidence: key.NewBinding(key.WithKeys("e"), key.WithHelp("e", "evidence")),
		Sign:     key.NewBinding(key.WithKeys("S"), key.WithHelp("S", "sign")),
		Confirm:  key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "sign")),
		Save:     key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "save")),
		Cancel:   key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel")),
	}
}
