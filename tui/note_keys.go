package tui

import "charm.land/bubbles/v2/key"

// NoteKeyMap is the key map of the note editor.
type NoteKeyMap struct {
	// Save saves the note; Cancel leaves it unchanged.
	Save, Cancel key.Binding
}

// DefaultNoteKeyMap returns the note editor's bindings.
func DefaultNoteKeyMap() NoteKeyMap {
	return NoteKeyMap{
		Save:   key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "save")),
		Cancel: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel")),
	}
}
