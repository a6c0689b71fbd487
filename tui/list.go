package tui

import (
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// itemList is the rater's list of items with their progress; enter opens
// an item at its first ungraded field.
type itemList struct {
	pane
	s    *rateState
	keys ListKeyMap
	cur  int
}

func newItemList(s *rateState) *itemList { return &itemList{s: s, keys: DefaultListKeyMap()} }

// setEnabled enables f (flag) only while the journal takes entries: not
// once the sheet is frozen.
func (l *itemList) setEnabled() { l.keys.Flag.SetEnabled(!l.s.freeze.signed && !l.s.freeze.signing) }

// Update implements tea.Model.
func (l *itemList) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return l, nil
	}
	s := l.s
	n := len(s.fields)
	switch {
	case key.Matches(k, l.keys.Close):
		return l, l.s.send(showMsg{screenGrade})
	case key.Matches(k, l.keys.Flag):
		return l, s.toggleFlag(l.cur)
	case key.Matches(k, l.keys.Down):
		l.cur = min(l.cur+1, n-1)
	case key.Matches(k, l.keys.Up):
		l.cur = max(l.cur-1, 0)
	case key.Matches(k, l.keys.Open):
		s.gotoItem(l.cur)
		s.field = 0
		for i, f := range s.fields[s.item] {
			if !s.isGraded(f) {
				s.field = i
				break
			}
		}
		return l, l.s.send(showMsg{screenGrade})
	}
	return l, nil
}

// View implements tea.Model.
func (l *itemList) View() tea.View {
	s := l.s
	st := s.c.Styles
	var b strings.Builder
	nf := s.nFlagged()
	b.WriteString(st.Header.Render("Items") + st.Muted.Render(fmt.Sprintf("  %d/%d complete · %d/%d fields · %d flagged · time spent per item", s.itemsDone(), len(s.fields), s.nGraded, s.nTotal, nf)) + "\n")
	lh := max(l.h-1, 1)
	start, end := listWindow(l.cur, len(s.fields), lh)
	for i := start; i < end; i++ {
		state := itemState(s.graded[i], len(s.fields[i]))
		// Pad before styling: a styled string's escape codes would
		// otherwise count towards the column width.
		c := fmt.Sprintf("%-9s", state)
		switch state {
		case "complete":
			c = st.OK.Render(c)
		case "partial":
			c = st.Warn.Render(c)
		}
		row := fmt.Sprintf(" %3d  %s  %s %3d/%-3d  %s", i+1, s.in.Bundle.Items[i].ID, c, s.graded[i], len(s.fields[i]), spentText(s.spentOn[s.in.Bundle.Items[i].ID]))
		if s.isFlagged(i) {
			row += "  " + st.Warn.Render("⚑ flagged")
		}
		if i == l.cur {
			row = selectedRow(st, row, l.w)
		}
		b.WriteString(row + "\n")
	}
	return tea.NewView(b.String())
}

// spentText is a time per item as the list shows it ("12m05s", "—" when
// none was recorded).
func spentText(d time.Duration) string {
	if d <= 0 {
		return fmt.Sprintf("%6s", "—")
	}
	d = d.Round(time.Second)
	return fmt.Sprintf("%3dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
}

// ShortHelp implements help.KeyMap.
func (l *itemList) ShortHelp() []key.Binding {
	return []key.Binding{l.keys.Down, l.keys.Up, l.keys.Open, l.keys.Flag, l.keys.Close}
}

// FullHelp implements help.KeyMap.
func (l *itemList) FullHelp() [][]key.Binding { return [][]key.Binding{l.ShortHelp()} }
