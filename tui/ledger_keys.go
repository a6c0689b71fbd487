package tui

import "charm.land/bubbles/v2/key"

// LedgerKeyMap is the key map of the ledger (protocol checker) screen.
type LedgerKeyMap struct {
	Up, Down, PageUp, PageDown, Top, Bottom key.Binding
	// NextFinding and PrevFinding jump to the next/previous row with a
	// finding or a refused answer or ledger.
	NextFinding, PrevFinding key.Binding
	// Filter toggles showing only rows with a finding or a refusal.
	Filter key.Binding
	// Evidence opens the evidence viewer for the row's evidence items
	// (enabled only when the row names evidence).
	Evidence key.Binding
	// DetailUp and DetailDown scroll the detail pane.
	DetailUp, DetailDown key.Binding
	// Search finds text or an ID in the rows and their details.
	Search key.Binding
}

// DefaultLedgerKeyMap returns the ledger screen's bindings.
func DefaultLedgerKeyMap() LedgerKeyMap {
	return LedgerKeyMap{
		Up:          key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "up")),
		Down:        key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "down")),
		PageUp:      key.NewBinding(key.WithKeys("pgup"), key.WithHelp("pgup", "page up")),
		PageDown:    key.NewBinding(key.WithKeys("pgdown"), key.WithHelp("pgdn", "page down")),
		Top:         key.NewBinding(key.WithKeys("home", "g"), key.WithHelp("g", "top")),
		Bottom:      key.NewBinding(key.WithKeys("end", "G"), key.WithHelp("G", "bottom")),
		NextFinding: key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "next finding")),
		PrevFinding: key.NewBinding(key.WithKeys("N"), key.WithHelp("N", "prev finding")),
		Filter:      key.NewBinding(key.WithKeys("f"), key.WithHelp("f", "only findings")),
		Evidence:    key.NewBinding(key.WithKeys("e", "enter"), key.WithHelp("e", "evidence")),
		DetailUp:    key.NewBinding(key.WithKeys("ctrl+u", "K"), key.WithHelp("K/ctrl+u", "detail up")),
		DetailDown:  key.NewBinding(key.WithKeys("ctrl+d", "J"), key.WithHelp("J/ctrl+d", "detail down")),
		Search:      key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "search")),
	}
}
