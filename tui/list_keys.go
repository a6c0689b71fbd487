package tui

import "charm.land/bubbles/v2/key"

// ListKeyMap is the key map of the rater's item list.
type ListKeyMap struct {
	// Up and Down move the cursor between items.
	Up, Down key.Binding
	// Open opens the item under the cursor at its first ungraded field.
	Open key.Binding
	// Close goes back to grading without moving.
	Close key.Binding
	// Flag flags or unflags the item under the cursor.
	Flag key.Binding
}

// DefaultListKeyMap returns the item list's bindings.
func DefaultListKeyMap() ListKeyMap {
	return ListKeyMap{
		Up:    key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "prev item")),
		Down:  key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "next item")),
		Open:  key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open item")),
		Close: key.NewBinding(key.WithKeys("esc", "l"), key.WithHelp("esc", "cancel")),
		Flag:  key.NewBinding(key.WithKeys("f"), key.WithHelp("f", "flag")),
	}
}
