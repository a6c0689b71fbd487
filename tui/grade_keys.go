package tui

import "charm.land/bubbles/v2/key"

// GradeKeyMap is the key map of the rater's grading pane: the shared item
// bindings (ItemKeyMap: values, note, evidence, answer, task, codebook,
// search, detail) and the rater's own.
type GradeKeyMap struct {
	ItemKeyMap
	// Up and Down move between the fields of the item.
	Up, Down key.Binding
	// NextItem and PrevItem move to the next/previous item.
	NextItem, PrevItem key.Binding
	// NextUngraded jumps to the next ungraded field of the bundle.
	NextUngraded key.Binding
	// Oracle flags the current truth obligation as an oracle defect (C22)
	// with a required reason (enabled on obligation and uncertainty fields).
	Oracle key.Binding
	// Items opens the item list.
	Items key.Binding
	// Freeze opens the freeze confirmation screen.
	Freeze key.Binding
	// Flag flags the item to come back to (saved in the journal, shown in
	// the item list).
	Flag key.Binding
}

// DefaultGradeKeyMap returns the grading pane's bindings.
func DefaultGradeKeyMap() GradeKeyMap {
	return GradeKeyMap{
		ItemKeyMap:   DefaultItemKeyMap(),
		Up:           key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "prev field")),
		Down:         key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "next field")),
		NextItem:     key.NewBinding(key.WithKeys("n", "]"), key.WithHelp("n", "next item")),
		PrevItem:     key.NewBinding(key.WithKeys("p", "["), key.WithHelp("p", "prev item")),
		NextUngraded: key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "next ungraded")),
		Oracle:       key.NewBinding(key.WithKeys("o"), key.WithHelp("o", "oracle defect")),
		Items:        key.NewBinding(key.WithKeys("l"), key.WithHelp("l", "item list")),
		Freeze:       key.NewBinding(key.WithKeys("F"), key.WithHelp("F", "freeze & sign")),
		Flag:         key.NewBinding(key.WithKeys("f"), key.WithHelp("f", "flag item")),
	}
}

// all is every binding of the grading pane: the keys that pass through the
// task panel.
func (k GradeKeyMap) all() []key.Binding {
	return []key.Binding{k.Values[0], k.Values[1], k.Values[2], k.Values[3], k.Note, k.Evidence, k.Answer, k.AnswerUp, k.AnswerDown,
		k.Task, k.Codebook, k.Search, k.DetailUp, k.DetailDown, k.Up, k.Down, k.NextItem, k.PrevItem, k.NextUngraded,
		k.Oracle, k.Items, k.Freeze, k.Flag}
}
