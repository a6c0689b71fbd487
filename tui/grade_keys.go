package tui

import "charm.land/bubbles/v2/key"

// GradeKeyMap is the key map of the rater's grading pane.
type GradeKeyMap struct {
	// Values are the single keys 1, 2 and 3 that record the current field's
	// first, second and third allowed value (GRADES vocabulary order). Their
	// help names the value; a key is enabled only when the kind has it.
	Values [3]key.Binding
	// Up and Down move between the fields of the item.
	Up, Down key.Binding
	// NextItem and PrevItem move to the next/previous item.
	NextItem, PrevItem key.Binding
	// NextUngraded jumps to the next ungraded field of the bundle.
	NextUngraded key.Binding
	// Evidence opens the evidence viewer for the current field.
	Evidence key.Binding
	// Note edits the note of the current field (before grading, the note
	// is kept and saved with the grade).
	Note key.Binding
	// Oracle flags the current truth obligation as an oracle defect (C22)
	// with a required reason (enabled on obligation and uncertainty fields).
	Oracle key.Binding
	// Answer shows the full-screen final answer (narrow terminals).
	Answer key.Binding
	// AnswerUp and AnswerDown scroll the final answer beside the pane.
	AnswerUp, AnswerDown key.Binding
	// Items opens the item list.
	Items key.Binding
	// Freeze opens the freeze confirmation screen.
	Freeze key.Binding
	// Task shows the item's task; Codebook the codebook (and guidelines).
	Task, Codebook key.Binding
	// Search finds text or an ID in every item; Flag flags the item to
	// come back to (shown in the item list).
	Search, Flag key.Binding
	// DetailUp and DetailDown scroll the field's detail when it is longer
	// than its part of the screen.
	DetailUp, DetailDown key.Binding
}

// DefaultGradeKeyMap returns the grading pane's bindings.
func DefaultGradeKeyMap() GradeKeyMap {
	return GradeKeyMap{
		Values: [3]key.Binding{
			key.NewBinding(key.WithKeys("1"), key.WithHelp("1", "value 1")),
			key.NewBinding(key.WithKeys("2"), key.WithHelp("2", "value 2")),
			key.NewBinding(key.WithKeys("3"), key.WithHelp("3", "value 3")),
		},
		Up:           key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "prev field")),
		Down:         key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "next field")),
		NextItem:     key.NewBinding(key.WithKeys("n", "]"), key.WithHelp("n", "next item")),
		PrevItem:     key.NewBinding(key.WithKeys("p", "["), key.WithHelp("p", "prev item")),
		NextUngraded: key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "next ungraded")),
		Evidence:     key.NewBinding(key.WithKeys("e"), key.WithHelp("e", "evidence")),
		Note:         key.NewBinding(key.WithKeys("m"), key.WithHelp("m", "note")),
		Oracle:       key.NewBinding(key.WithKeys("o"), key.WithHelp("o", "oracle defect")),
		Answer:       key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "answer")),
		AnswerUp:     key.NewBinding(key.WithKeys("pgup", "K"), key.WithHelp("K/pgup", "answer up")),
		AnswerDown:   key.NewBinding(key.WithKeys("pgdown", "J"), key.WithHelp("J/pgdn", "answer down")),
		Items:        key.NewBinding(key.WithKeys("l"), key.WithHelp("l", "item list")),
		Freeze:       key.NewBinding(key.WithKeys("F"), key.WithHelp("F", "freeze & sign")),
		Task:         key.NewBinding(key.WithKeys("t"), key.WithHelp("t", "task")),
		Codebook:     key.NewBinding(key.WithKeys("g"), key.WithHelp("g", "codebook")),
		Search:       key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "search")),
		Flag:         key.NewBinding(key.WithKeys("f"), key.WithHelp("f", "flag item")),
		DetailUp:     key.NewBinding(key.WithKeys("ctrl+u"), key.WithHelp("ctrl+u", "detail up")),
		DetailDown:   key.NewBinding(key.WithKeys("ctrl+d"), key.WithHelp("ctrl+d", "detail down")),
	}
}
