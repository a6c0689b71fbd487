package tui

import "charm.land/bubbles/v2/key"

// FreezeKeyMap is the key map of the rater's freeze confirmation.
type FreezeKeyMap struct {
	// Confirm freezes and signs (enabled only when every field is graded
	// and saved).
	Confirm key.Binding
	// Cancel goes back to grading.
	Cancel key.Binding
}

// DefaultFreezeKeyMap returns the freeze screen's bindings.
func DefaultFreezeKeyMap() FreezeKeyMap {
	return FreezeKeyMap{
		Confirm: key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "sign")),
		Cancel:  key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel")),
	}
}
