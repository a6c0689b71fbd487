package tui

import "charm.land/bubbles/v2/key"

// AnswerKeyMap is the key map of the full-screen final answer.
type AnswerKeyMap struct {
	// Up and Down scroll by a page.
	Up, Down key.Binding
	// Close goes back to grading.
	Close key.Binding
}

// DefaultAnswerKeyMap returns the answer view's bindings.
func DefaultAnswerKeyMap() AnswerKeyMap {
	return AnswerKeyMap{
		Up:    key.NewBinding(key.WithKeys("pgup", "K"), key.WithHelp("K/pgup", "answer up")),
		Down:  key.NewBinding(key.WithKeys("pgdown", "J"), key.WithHelp("J/pgdn", "answer down")),
		Close: key.NewBinding(key.WithKeys("esc", "a"), key.WithHelp("esc", "cancel")),
	}
}
