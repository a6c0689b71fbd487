package tui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// disputeList lists the disputes with their state; enter goes to one.
type disputeList struct {
	pane
	c    *Common
	a    *adjudicator
	keys ListKeyMap
	back func() tea.Cmd
	cur  int
}

func newDisputeList(c *Common, a *adjudicator, back func() tea.Cmd) *disputeList {
	k := DefaultListKeyMap()
	k.Up.SetHelp("↑/k", "prev dispute")
	k.Down.SetHelp("↓/j", "next dispute")
	k.Open.SetHelp("enter", "open dispute")
	k.Flag.SetEnabled(false)
	return &disputeList{c: c, a: a, keys: k, back: back}
}

// Update implements tea.Model.
func (l *disputeList) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return l, nil
	}
	n := len(l.a.in.Disputes)
	switch {
	case key.Matches(k, l.keys.Close):
		return l, l.back()
	case key.Matches(k, l.keys.Down):
		l.cur = min(l.cur+1, n-1)
	case key.Matches(k, l.keys.Up):
		l.cur = max(l.cur-1, 0)
	case key.Matches(k, l.keys.Open):
		l.a.cur = l.cur
		return l, l.back()
	}
	return l, nil
}

// View implements tea.Model.
func (l *disputeList) View() tea.View {
	st := l.c.Styles
	a := l.a
	head := st.Header.Render("Disputes") + st.Muted.Render(fmt.Sprintf("  %d/%d resolved", a.resolved(), len(a.in.Disputes)))
	if ag := a.in.Agreement; ag != nil {
		head += st.Muted.Render(" · the sheets' percent agreement " + ag.All.Percent.String())
	}
	out := []string{ansi.Truncate(head, l.w, "…")}
	lh := max(l.h-1, 1)
	start, end := listWindow(l.cur, len(a.in.Disputes), lh)
	for i := start; i < end; i++ {
		d := a.shownD[i]
		state := st.Warn.Render("open")
		if dec, saved := a.decision(i); dec != nil {
			state = showValue(dec.Final, d.Field.Kind)
			if saved {
				state = st.OK.Render(state + " ✓")
			} else {
				state += " …"
			}
		}
		row := fmt.Sprintf(" %3d  %s  %-24s %s", i+1, d.Field.Item, fieldLabel(d.Field), state)
		if i == l.cur {
			row = selectedRow(st, row, l.w)
		}
		out = append(out, row)
	}
	return tea.NewView(strings.Join(out, "\n"))
}

// ShortHelp implements help.KeyMap.
func (l *disputeList) ShortHelp() []key.Binding {
	return []key.Binding{l.keys.Down, l.keys.Up, l.keys.Open, l.keys.Close}
}

// FullHelp implements help.KeyMap.
func (l *disputeList) FullHelp() [][]key.Binding { return [][]key.Binding{l.ShortHelp()} }
