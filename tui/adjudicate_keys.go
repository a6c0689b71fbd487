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
	// Answer shows the final answer full screen (narrow terminals);
	// AnswerUp and AnswerDown scroll it beside the dispute (wide ones).
	Answer, AnswerUp, AnswerDown key.Binding
	// Task shows the item's task, Codebook the codebook, List the list of
	// disputes, Search finds text or an ID in the disputes.
	Task, Codebook, List, Search key.Binding
	// DetailUp and DetailDown scroll the dispute's context.
	DetailUp, DetailDown key.Binding
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
		Note:       key.NewBinding(key.WithKeys("m"), key.WithHelp("m", "note")),
		Up:         key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "prev dispute")),
		Down:       key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "next dispute")),
		NextOpen:   key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "next open")),
		Evidence:   key.NewBinding(key.WithKeys("e"), key.WithHelp("e", "evidence")),
		Sign:       key.NewBinding(key.WithKeys("S"), key.WithHelp("S", "sign")),
		Confirm:    key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "sign")),
		Save:       key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "save")),
		Cancel:     key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel")),
		Answer:     key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "answer")),
		AnswerUp:   key.NewBinding(key.WithKeys("pgup", "K"), key.WithHelp("K/pgup", "answer up")),
		AnswerDown: key.NewBinding(key.WithKeys("pgdown", "J"), key.WithHelp("J/pgdn", "answer down")),
		Task:       key.NewBinding(key.WithKeys("t"), key.WithHelp("t", "task")),
		Codebook:   key.NewBinding(key.WithKeys("g"), key.WithHelp("g", "codebook")),
		List:       key.NewBinding(key.WithKeys("l"), key.WithHelp("l", "disputes")),
		Search:     key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "search")),
		DetailUp:   key.NewBinding(key.WithKeys("ctrl+u"), key.WithHelp("ctrl+u", "detail up")),
		DetailDown: key.NewBinding(key.WithKeys("ctrl+d"), key.WithHelp("ctrl+d", "detail down")),
	}
}
