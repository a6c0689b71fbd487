package tui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"verdict/blinding"
	"verdict/tui/styles"
)

// panel is a full-screen reading panel: a title and text wrapped to the
// width (never cut), scrolled a line or a page at a time.
type panel struct {
	pane
	c     *Common
	keys  PanelKeyMap
	title string
	// text returns the panel's lines (shown copies) before wrapping.
	text func() []string
	// back leaves the panel.
	back func() tea.Cmd
	// task is set while the panel shows an item's task: its owner's
	// grading and navigation keys pass through it (passes), so j and k
	// are not the panel's; it scrolls by page.
	task bool
	// pin returns, for a task panel, the lines kept below the task in w
	// cells (never scrolled away): the field or dispute the passing keys
	// apply to, so that no key grades what is not on screen.
	pin func(w int) []string
	y   int
}

func newPanel(c *Common, keys PanelKeyMap, back func() tea.Cmd) *panel {
	return &panel{c: c, keys: keys, back: back}
}

// open shows title and text from the top.
func (p *panel) open(title string, text func() []string) {
	p.title, p.text, p.y, p.task, p.pin = title, text, 0, false, nil
	p.keys.Up.SetEnabled(true)
	p.keys.Down.SetEnabled(true)
}

// taskLines are the lines of item it's task text.
func taskLines(it *blinding.Item) []string {
	return strings.Split(strings.TrimRight(it.TaskText, "\n"), "\n")
}

// openTask shows item it's task from the top, with pin's lines below it:
// the owner's keys (passes) go through it.
func (p *panel) openTask(title string, it *blinding.Item, pin func(w int) []string) {
	p.open(title, func() []string { return taskLines(it) })
	p.task, p.pin = true, pin
	p.keys.Up.SetEnabled(false)
	p.keys.Down.SetEnabled(false)
}

// passes reports whether k, typed on the task panel, is one of the owner's
// bindings bs (enabled or not) and not one of the panel's own (close,
// page): the owner closes the panel and applies k, so that a rater typing
// ahead on arriving at an item never loses a key.
func (p *panel) passes(k tea.KeyPressMsg, bs ...key.Binding) bool {
	if !p.task || pressedAny(k, p.keys.Close, p.keys.PageUp, p.keys.PageDown) {
		return false
	}
	return pressedAny(k, bs...)
}

// pressedAny reports whether k is one of the keys of bs, enabled or not:
// it finds keys typed on a screen where those bindings are off.
func pressedAny(k tea.KeyPressMsg, bs ...key.Binding) bool {
	for _, b := range bs {
		for _, s := range b.Keys() {
			if k.String() == s {
				return true
			}
		}
	}
	return false
}

func (p *panel) body() []string {
	if p.text == nil {
		return nil
	}
	return wrapLines(p.text(), p.w)
}

// pinned returns the pinned lines (none for a reading panel), at most
// two thirds of the panel's height: the owner keeps its own lines short.
func (p *panel) pinned() []string {
	if p.pin == nil {
		return nil
	}
	out := p.pin(p.w)
	return out[:min(len(out), max(p.h*2/3, 1))]
}

// rows is how many lines of the body the panel shows at once above the
// pinned lines pin.
func (p *panel) rows(pin []string) int { return max(p.h-1-len(pin), 1) }

// Update implements tea.Model.
func (p *panel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return p, nil
	}
	rows := p.rows(p.pinned())
	page := max(rows-2, 1)
	switch {
	case key.Matches(k, p.keys.Close):
		return p, p.back()
	case key.Matches(k, p.keys.Down):
		p.y++
	case key.Matches(k, p.keys.Up):
		p.y--
	case key.Matches(k, p.keys.PageDown):
		p.y += page
	case key.Matches(k, p.keys.PageUp):
		p.y -= page
	}
	p.y = min(max(p.y, 0), max(len(p.body())-rows, 0))
	return p, nil
}

// View implements tea.Model.
func (p *panel) View() tea.View {
	st := p.c.Styles
	lines := p.body()
	pin := p.pinned()
	h := p.rows(pin)
	head := st.Header.Render(p.title)
	out := []string{}
	if len(lines) > h {
		how := "j/k, space"
		if p.task {
			how = "space, b"
		}
		head += st.Muted.Render(fmt.Sprintf("  lines %d–%d of %d (%s)", p.y+1, min(p.y+h, len(lines)), len(lines), how))
	}
	out = append([]string{head}, out...)
	out = append(out, lines[min(p.y, len(lines)):min(p.y+h, len(lines))]...)
	if len(pin) > 0 {
		for len(out) < h+1 {
			out = append(out, "")
		}
		out = append(out, pin...)
	}
	return tea.NewView(strings.Join(out, "\n"))
}

// ShortHelp implements help.KeyMap.
func (p *panel) ShortHelp() []key.Binding {
	return []key.Binding{p.keys.Down, p.keys.Up, p.keys.PageDown, p.keys.Close}
}

// FullHelp implements help.KeyMap.
func (p *panel) FullHelp() [][]key.Binding {
	return [][]key.Binding{{p.keys.Up, p.keys.Down, p.keys.PageUp, p.keys.PageDown}, {p.keys.Close}}
}

// pinCapped returns at most n of lines for a task panel's pinned field,
// the last replaced by a line saying how many more the field's own screen
// shows.
func pinCapped(st *styles.Styles, lines []string, n int) []string {
	if len(lines) <= n {
		return lines
	}
	return append(lines[:n-1:n-1], st.Muted.Render(fmt.Sprintf("↓ %d more lines of this field: esc shows them", len(lines)-n+1)))
}
