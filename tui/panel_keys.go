package tui

import "charm.land/bubbles/v2/key"

// PanelKeyMap is the key map of a reading panel (the task, the codebook
// and guidelines, search results).
type PanelKeyMap struct {
	// Up and Down scroll a line; PageUp and PageDown a page.
	Up, Down, PageUp, PageDown key.Binding
	// Close goes back (esc, enter, or the key that opened the panel).
	Close key.Binding
}

// DefaultPanelKeyMap returns a panel's bindings; also are the keys that
// opened it, which close it too.
func DefaultPanelKeyMap(also ...string) PanelKeyMap {
	return PanelKeyMap{
		Up:       key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "scroll up")),
		Down:     key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "scroll down")),
		PageUp:   key.NewBinding(key.WithKeys("pgup", "b"), key.WithHelp("pgup", "page up")),
		PageDown: key.NewBinding(key.WithKeys("pgdown", "space"), key.WithHelp("pgdn", "page down")),
		Close:    key.NewBinding(key.WithKeys(append([]string{"esc", "enter"}, also...)...), key.WithHelp("esc", "back")),
	}
}
