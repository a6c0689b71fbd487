package tui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// searchHit is one place a search found: an index (an item of the rater,
// a dispute of the adjudicator, a row of the ledger), a field of that
// item (-1: none in particular) and the text around the match.
type searchHit struct {
	index, field int
	label, text  string
}

// maxHits bounds the hits one search lists.
const maxHits = 500

// searchScreen finds text or an ID (/): the query is typed, enter lists
// the hits, enter on a hit goes there.
type searchScreen struct {
	pane
	c     *Common
	keys  SearchKeyMap
	input textinput.Model
	find  func(q string) []searchHit
	pick  func(searchHit) tea.Cmd
	back  func() tea.Cmd
	// scope says what enter searches, shown before the first search.
	scope string
	hits  []searchHit
	ran   bool
	cur   int
	// opened is the hit last opened (-1: none): / shows the hits again
	// at the one after it.
	opened int
	typing bool
}

func newSearchScreen(c *Common, scope string, find func(string) []searchHit, pick func(searchHit) tea.Cmd, back func() tea.Cmd) *searchScreen {
	in := textinput.New()
	in.SetStyles(c.Styles.Input)
	in.Placeholder = "text or ID (case-insensitive)"
	in.Prompt = "/ "
	return &searchScreen{c: c, keys: DefaultSearchKeyMap(), input: in, scope: scope, find: find, pick: pick, back: back, opened: -1}
}

// Capturing reports whether the query is being typed.
func (s *searchScreen) Capturing() bool { return s.typing }

// open is / from the owner's screen: after a search with hits, its hits
// again, the cursor on the one after the hit last opened (so / enter
// steps from hit to hit); else a new search. / on the hits starts a new
// search.
func (s *searchScreen) open() tea.Cmd {
	if s.ran && len(s.hits) > 0 {
		if s.opened >= 0 {
			s.cur = (s.opened + 1) % len(s.hits)
		}
		return nil
	}
	return s.restart()
}

// restart starts a new search: an empty query and no hits.
func (s *searchScreen) restart() tea.Cmd {
	s.input.SetValue("")
	s.hits, s.cur, s.ran, s.opened = nil, 0, false, -1
	s.typing = true
	return s.input.Focus()
}

// forget drops the hits of the last search: the owner's rows changed, so
// the places they name are no longer the same.
func (s *searchScreen) forget() { s.hits, s.ran, s.cur, s.opened = nil, false, 0, -1 }

// SetSize implements Component.
func (s *searchScreen) SetSize(w, h int) {
	s.w, s.h = w, h
	s.input.SetWidth(max(w-4, 10))
}

// Update implements tea.Model.
func (s *searchScreen) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if s.typing {
		if ok {
			switch {
			case key.Matches(k, s.keys.Cancel):
				s.typing = false
				s.input.Blur()
				return s, s.back()
			case key.Matches(k, s.keys.Run):
				s.typing = false
				s.input.Blur()
				s.hits, s.cur, s.ran, s.opened = nil, 0, true, -1
				if q := strings.TrimSpace(s.input.Value()); q != "" {
					s.hits = s.find(q)
				}
				return s, nil
			}
		}
		var cmd tea.Cmd
		s.input, cmd = s.input.Update(msg)
		return s, cmd
	}
	if !ok {
		return s, nil
	}
	switch {
	case key.Matches(k, s.keys.Cancel):
		return s, s.back()
	case key.Matches(k, s.keys.Edit):
		return s, s.restart()
	case key.Matches(k, s.keys.Down):
		s.cur = min(s.cur+1, max(len(s.hits)-1, 0))
	case key.Matches(k, s.keys.Up):
		s.cur = max(s.cur-1, 0)
	case key.Matches(k, s.keys.Run):
		if s.cur < len(s.hits) {
			s.opened = s.cur
			return s, s.pick(s.hits[s.cur])
		}
	}
	return s, nil
}

// View implements tea.Model.
func (s *searchScreen) View() tea.View {
	st := s.c.Styles
	out := []string{st.Header.Render("Search"), s.input.View()}
	switch {
	case !s.ran:
		out = append(out, st.Muted.Render("enter searches "+s.scope))
	case len(s.hits) == 0:
		out = append(out, st.Warn.Render("no match"))
	default:
		more := ""
		if len(s.hits) == maxHits {
			more = " (first " + fmt.Sprint(maxHits) + ")"
		}
		out = append(out, st.Muted.Render(fmt.Sprintf("hit %d of %d%s · enter opens · / new search", s.cur+1, len(s.hits), more)))
	}
	lh := max(s.h-len(out), 1)
	start, end := listWindow(s.cur, len(s.hits), lh)
	for i := start; i < end; i++ {
		h := s.hits[i]
		row := " " + h.label + "  " + h.text
		if i == s.cur {
			row = selectedRow(st, row, s.w)
		}
		out = append(out, row)
	}
	return tea.NewView(strings.Join(out, "\n"))
}

// ShortHelp implements help.KeyMap.
func (s *searchScreen) ShortHelp() []key.Binding {
	if s.typing {
		return []key.Binding{s.keys.Run, s.keys.Cancel}
	}
	if len(s.hits) == 0 {
		return []key.Binding{s.keys.Edit, s.keys.Cancel}
	}
	return []key.Binding{s.keys.Down, s.keys.Up, s.keys.Run, s.keys.Edit, s.keys.Cancel}
}

// FullHelp implements help.KeyMap.
func (s *searchScreen) FullHelp() [][]key.Binding { return [][]key.Binding{s.ShortHelp()} }

// matchIn returns the text around the first case-insensitive match of q
// in text (about w cells), or "" when q does not occur.
func matchIn(text, q string, w int) string {
	lt := strings.ToLower(text)
	i := strings.Index(lt, strings.ToLower(q))
	if i < 0 {
		return ""
	}
	text = strings.Join(strings.Fields(text), " ")
	lt = strings.ToLower(text)
	i = max(strings.Index(lt, strings.ToLower(q)), 0)
	start := max(i-w/3, 0)
	for start > 0 && start < len(text) && (text[start]&0xC0) == 0x80 {
		start--
	}
	s := text[start:]
	if start > 0 {
		s = "…" + s
	}
	return ansi.Truncate(s, max(w, 10), "…")
}
