package tui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"verdict/campaign"
)

// LineRange is an inclusive, 1-based range of physical source lines.
type LineRange struct{ Start, End int }

// EvidenceKeyMap is the key map of the evidence viewer.
type EvidenceKeyMap struct {
	Up, Down, PageUp, PageDown key.Binding
	// Next and Prev switch between the evidence items the viewer was opened
	// with (enabled only when there is more than one).
	Next, Prev key.Binding
	// Back closes the viewer.
	Back key.Binding
}

// DefaultEvidenceKeyMap returns the evidence viewer's bindings.
func DefaultEvidenceKeyMap() EvidenceKeyMap {
	return EvidenceKeyMap{
		Up:       key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "scroll up")),
		Down:     key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "scroll down")),
		PageUp:   key.NewBinding(key.WithKeys("pgup", "b"), key.WithHelp("pgup", "page up")),
		PageDown: key.NewBinding(key.WithKeys("pgdown", "space"), key.WithHelp("pgdn", "page down")),
		Next:     key.NewBinding(key.WithKeys("]", "tab"), key.WithHelp("]", "next evidence")),
		Prev:     key.NewBinding(key.WithKeys("[", "shift+tab"), key.WithHelp("[", "prev evidence")),
		Back:     key.NewBinding(key.WithKeys("esc", "backspace"), key.WithHelp("esc", "back")),
	}
}

// evidenceSource is one evidence excerpt as the viewer shows it.
type evidenceSource struct {
	ID, Path, Origin   string // Origin: "repository@commit" when known
	StartLine, EndLine int
	Excerpt            string
}

// evidenceRef is one evidence item to show and the lines to highlight.
type evidenceRef struct {
	item  *evidenceSource
	cited []LineRange
	// missing names an E ID that is not in the packet (item is nil).
	missing string
}

// sourceOf converts a campaign evidence item for the viewer.
func sourceOf(it *campaign.EvidenceItem) *evidenceSource {
	commit := it.Commit
	if len(commit) > 12 {
		commit = commit[:12]
	}
	return &evidenceSource{ID: it.ID, Path: it.Repository + "/" + it.Path, Origin: "@" + commit,
		StartLine: it.StartLine, EndLine: it.EndLine, Excerpt: it.Excerpt}
}

// closeEvidenceMsg asks the owner to close the evidence viewer.
type closeEvidenceMsg struct{}

// closes reports whether k closes the viewer; owners close it at once on
// such a key, so that keys typed right after it reach the screen below.
func (v *evidenceViewer) closes(k tea.KeyPressMsg) bool { return key.Matches(k, v.keys.Back) }

// evidenceViewer shows evidence excerpts with their real line numbers and
// the cited lines marked ("▶" in the gutter and the Cited style).
type evidenceViewer struct {
	pane
	c    *Common
	keys EvidenceKeyMap
	refs []evidenceRef
	cur  int
	vp   viewport.Model
}

func newEvidenceViewer(c *Common, refs []evidenceRef, start int) *evidenceViewer {
	v := &evidenceViewer{c: c, keys: DefaultEvidenceKeyMap(), refs: refs, cur: start}
	v.vp = viewport.New()
	v.vp.KeyMap = viewport.KeyMap{} // the viewer's own key map drives scrolling
	v.setEnabled()
	return v
}

func (v *evidenceViewer) setEnabled() {
	many := len(v.refs) > 1
	v.keys.Next.SetEnabled(many)
	v.keys.Prev.SetEnabled(many)
}

// SetSize implements Component.
func (v *evidenceViewer) SetSize(w, h int) {
	if w == v.w && h == v.h {
		return
	}
	v.w, v.h = w, h
	v.vp.SetWidth(w)
	v.vp.SetHeight(max(h-2, 1))
	v.render()
}

// render puts the current item's excerpt into the viewport and scrolls to
// the first cited line.
func (v *evidenceViewer) render() {
	if len(v.refs) == 0 {
		v.vp.SetContent("")
		return
	}
	ref := v.refs[v.cur]
	if ref.item == nil {
		v.vp.SetContent(v.c.Styles.Finding.Render(ref.missing + " is not an evidence item of this packet"))
		return
	}
	lines := excerptLines(ref.item.Excerpt)
	width := len(fmt.Sprint(ref.item.StartLine + len(lines)))
	// Long lines wrap under their text, past the gutter: nothing is cut
	// at the terminal's edge.
	textW := max(v.w-width-4, 10)
	out := make([]string, 0, len(lines))
	first := -1
	for i, l := range lines {
		n := ref.item.StartLine + i
		mark := " "
		cited := inRanges(n, ref.cited)
		if cited {
			mark = "▶"
			if first < 0 {
				first = len(out)
			}
		}
		num := v.c.Styles.LineNumber.Render(fmt.Sprintf("%*d", width, n))
		for k, part := range strings.Split(ansi.Wrap(visibleText(l), textW, ""), "\n") {
			if cited {
				part = v.c.Styles.Cited.Render(part)
			}
			if k == 0 {
				out = append(out, mark+num+" │ "+part)
			} else {
				out = append(out, strings.Repeat(" ", width+1)+" │ "+part)
			}
		}
	}
	v.vp.SetContentLines(out)
	if first >= 0 {
		v.vp.SetYOffset(max(first-1, 0))
	} else {
		v.vp.SetYOffset(0)
	}
}

// excerptLines splits an excerpt into physical lines: CRLF is one break and
// a final newline does not make a line (EVALUATOR-CONTROLS C09).
func excerptLines(s string) []string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.TrimSuffix(s, "\n")
	return strings.Split(s, "\n")
}

func inRanges(n int, rs []LineRange) bool {
	for _, r := range rs {
		if n >= r.Start && n <= r.End {
			return true
		}
	}
	return false
}

// Update implements tea.Model.
func (v *evidenceViewer) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return v, nil
	}
	switch {
	case key.Matches(k, v.keys.Back):
		return v, func() tea.Msg { return closeEvidenceMsg{} }
	case key.Matches(k, v.keys.Up):
		v.vp.ScrollUp(1)
	case key.Matches(k, v.keys.Down):
		v.vp.ScrollDown(1)
	case key.Matches(k, v.keys.PageUp):
		v.vp.PageUp()
	case key.Matches(k, v.keys.PageDown):
		v.vp.PageDown()
	case key.Matches(k, v.keys.Next):
		v.cur = (v.cur + 1) % len(v.refs)
		v.render()
	case key.Matches(k, v.keys.Prev):
		v.cur = (v.cur + len(v.refs) - 1) % len(v.refs)
		v.render()
	}
	return v, nil
}

// header describes the current item: ID, path, real line range, commit.
func (v *evidenceViewer) header() string {
	if len(v.refs) == 0 {
		return ""
	}
	ref := v.refs[v.cur]
	pos := ""
	if len(v.refs) > 1 {
		pos = fmt.Sprintf("  (%d/%d)", v.cur+1, len(v.refs))
	}
	if ref.item == nil {
		return v.c.Styles.Header.Render(ref.missing) + pos
	}
	it := ref.item
	var cited []string
	for _, r := range ref.cited {
		cited = append(cited, fmt.Sprintf("%d-%d", r.Start, r.End))
	}
	cs := "no cited lines"
	if len(cited) > 0 {
		cs = "cited " + strings.Join(cited, ", ")
	}
	origin := ""
	if it.Origin != "" {
		origin = " " + it.Origin
	}
	return v.c.Styles.Header.Render(it.ID) + " " + it.Path +
		fmt.Sprintf(":%d-%d", it.StartLine, it.EndLine) + v.c.Styles.Muted.Render(origin+"  "+cs) + pos
}

// View implements tea.Model.
func (v *evidenceViewer) View() tea.View {
	return tea.NewView(v.header() + "\n" + v.vp.View())
}

// ShortHelp implements help.KeyMap.
func (v *evidenceViewer) ShortHelp() []key.Binding {
	return []key.Binding{v.keys.Down, v.keys.Up, v.keys.Next, v.keys.Back}
}

// FullHelp implements help.KeyMap.
func (v *evidenceViewer) FullHelp() [][]key.Binding {
	return [][]key.Binding{{v.keys.Up, v.keys.Down, v.keys.PageUp, v.keys.PageDown}, {v.keys.Next, v.keys.Prev, v.keys.Back}}
}
