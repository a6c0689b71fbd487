package tui

import "charm.land/bubbles/v2/key"

// SearchKeyMap is the key map of the search screen (/).
type SearchKeyMap struct {
	// Run runs the typed query (while typing) or opens the hit under the
	// cursor (in the results).
	Run key.Binding
	// Up and Down move between hits; Edit goes back to the query.
	Up, Down, Edit key.Binding
	// Cancel goes back without moving.
	Cancel key.Binding
}

// DefaultSearchKeyMap returns the search screen's bindings.
func DefaultSearchKeyMap() SearchKeyMap {
	return SearchKeyMap{
		Run:    key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "search / open")),
		Up:     key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "prev hit")),
		Down:   key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "next hit")),
		Edit:   key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "new search")),
		Cancel: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back")),
	}
}
