package tui

import "charm.land/bubbles/v2/key"

// ItemKeyMap holds the bindings the rater's grading pane (GradeKeyMap)
// and the adjudicator's dispute screen (AdjudicateKeyMap) share: the same
// keys with the same help, embedded in both. Each owner enables them by
// its state (setEnabled).
type ItemKeyMap struct {
	// Values are the single keys 1 to 4 that pick the first to fourth
	// allowed value of the field (GRADES vocabulary order, on the bundle's
	// design: adjudication.FieldValues): the rater's grade, the
	// adjudicator's other value. Their help names the value; a key is
	// enabled only when the field has it (truthful unknown, after the
	// kind's own values, on a system comparison's obligation and
	// uncertainty fields only: 3 and 4, CONTRACT §6).
	Values [4]key.Binding
	// Note edits the note of the field or decision.
	Note key.Binding
	// Evidence opens the evidence viewer for the field.
	Evidence key.Binding
	// Answer shows the final answer full screen (narrow terminals);
	// AnswerUp and AnswerDown scroll it beside the field (wide ones).
	Answer, AnswerUp, AnswerDown key.Binding
	// Task shows the item's task; Codebook the codebook (and guidelines).
	Task, Codebook key.Binding
	// Search finds text or an ID.
	Search key.Binding
	// DetailUp and DetailDown scroll the field's detail when it is longer
	// than its part of the screen.
	DetailUp, DetailDown key.Binding
}

// DefaultItemKeyMap returns the shared bindings.
func DefaultItemKeyMap() ItemKeyMap {
	return ItemKeyMap{
		Values: [4]key.Binding{
			key.NewBinding(key.WithKeys("1"), key.WithHelp("1", "value 1")),
			key.NewBinding(key.WithKeys("2"), key.WithHelp("2", "value 2")),
			key.NewBinding(key.WithKeys("3"), key.WithHelp("3", "value 3")),
			key.NewBinding(key.WithKeys("4"), key.WithHelp("4", "value 4")),
		},
		Note:       key.NewBinding(key.WithKeys("m"), key.WithHelp("m", "note")),
		Evidence:   key.NewBinding(key.WithKeys("e"), key.WithHelp("e", "evidence")),
		Answer:     key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "answer")),
		AnswerUp:   key.NewBinding(key.WithKeys("pgup", "K"), key.WithHelp("K/pgup", "answer up")),
		AnswerDown: key.NewBinding(key.WithKeys("pgdown", "J"), key.WithHelp("J/pgdn", "answer down")),
		Task:       key.NewBinding(key.WithKeys("t"), key.WithHelp("t", "task")),
		Codebook:   key.NewBinding(key.WithKeys("g"), key.WithHelp("g", "codebook")),
		Search:     key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "search")),
		DetailUp:   key.NewBinding(key.WithKeys("ctrl+u"), key.WithHelp("ctrl+u", "detail up")),
		DetailDown: key.NewBinding(key.WithKeys("ctrl+d"), key.WithHelp("ctrl+d", "detail down")),
	}
}

// SignKeyMap is the key map of the signing screen (signScreen): the
// rater's freeze and the adjudicator's signature.
type SignKeyMap struct {
	// Confirm signs (enabled only when nothing refuses the signature).
	Confirm key.Binding
	// Cancel goes back.
	Cancel key.Binding
	// Down and Up scroll what is signed when it is longer than the screen.
	Down, Up key.Binding
}

// DefaultSignKeyMap returns the signing screen's bindings.
func DefaultSignKeyMap() SignKeyMap {
	return SignKeyMap{
		Confirm: key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "sign")),
		Cancel:  key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel")),
		Down:    key.NewBinding(key.WithKeys("ctrl+d", "pgdown"), key.WithHelp("ctrl+d", "more")),
		Up:      key.NewBinding(key.WithKeys("ctrl+u", "pgup"), key.WithHelp("ctrl+u", "back up")),
	}
}
