package tui

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"

	"verdict/adjudication"
)

// openNoteMsg asks the owner to open the note editor on a field's note;
// oracle marks an oracle-defect reason (C22), which is required.
type openNoteMsg struct {
	field  adjudication.Field
	text   string
	oracle bool
}

// noteDoneMsg reports that the note editor was left: saved with the
// trimmed text, or cancelled.
type noteDoneMsg struct {
	field  adjudication.Field
	text   string
	oracle bool
	saved  bool
}

// noteEditor edits one note; the owner decides what a saved note records
// and closes the editor. A note is one line of plain text (a line break
// is refused in a record, adjudication's note rule), shown wrapped over
// as many rows as it takes (up to noteRows, then scrolled), so that the
// whole of a long note is in view while it is written at any width.
type noteEditor struct {
	pane
	c      *Common
	keys   NoteKeyMap
	input  textarea.Model
	field  adjudication.Field
	oracle bool
	// context renders what the note is about (the field's detail).
	context func(w int) []string
	// done is called when the editor is left (saved or cancelled).
	done func(noteDoneMsg) tea.Cmd
	// refused is set when enter was pressed on a note over MaxNote.
	refused bool
}

// noteRows is the most rows the note editor shows of a wrapped note; a
// longer one scrolls with the cursor.
const noteRows = 8

func newNoteEditor(c *Common) *noteEditor {
	in := textarea.New()
	in.SetStyles(c.Styles.Note)
	// No CharLimit or MaxWidth: a longer note is shown with its count and
	// refused on enter, never cut silently.
	in.CharLimit, in.MaxWidth = 0, 0
	in.ShowLineNumbers = false
	in.DynamicHeight, in.MinHeight, in.MaxHeight = true, 1, noteRows
	in.SetPromptFunc(2, func(p textarea.PromptInfo) string {
		if p.LineNumber == 0 {
			return "> "
		}
		return "  "
	})
	// enter saves: it never breaks the line.
	in.KeyMap.InsertNewline.SetEnabled(false)
	return &noteEditor{c: c, keys: DefaultNoteKeyMap(), input: in}
}

// open starts editing m's note and returns the cursor's command.
func (n *noteEditor) open(m openNoteMsg) tea.Cmd {
	n.field, n.oracle = m.field, m.oracle
	n.refused = false
	n.input.SetValue(m.text)
	n.input.MoveToEnd()
	if m.oracle {
		n.input.Placeholder = "reason this truth obligation is defective (required)"
	} else {
		n.input.Placeholder = "note on this grade (empty removes it)"
	}
	return n.input.Focus()
}

// close ends editing.
func (n *noteEditor) close() { n.input.Blur() }

// SetSize implements Component.
func (n *noteEditor) SetSize(w, h int) {
	n.w, n.h = w, h
	n.input.SetWidth(max(w-4, 10))
}

// Update implements tea.Model.
func (n *noteEditor) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		done := noteDoneMsg{field: n.field, oracle: n.oracle}
		switch {
		case key.Matches(k, n.keys.Cancel):
			n.close()
			return n, n.done(done)
		case key.Matches(k, n.keys.Save):
			done.text, done.saved = strings.TrimSpace(n.input.Value()), true
			if utf8.RuneCountInString(done.text) > adjudication.MaxNote {
				n.refused = true
				return n, nil
			}
			return n, n.done(done)
		}
	}
	if p, ok := msg.(tea.PasteMsg); ok {
		// A pasted line break or tab becomes a space, as a one-line
		// input would make it: a note is one line.
		p.Content = oneLine.Replace(p.Content)
		msg = p
	}
	var cmd tea.Cmd
	n.input, cmd = n.input.Update(msg)
	return n, cmd
}

// oneLine replaces the line breaks and tabs of pasted text with spaces.
var oneLine = strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ", "\t", " ")

// View implements tea.Model.
func (n *noteEditor) View() tea.View {
	st := n.c.Styles
	title := "Note on " + fieldLabel(n.field)
	if n.oracle {
		title = "Oracle defect on truth obligation " + n.field.Target + " (EVALUATOR-CONTROLS C22): reason required"
	}
	out := []string{st.Header.Render(title), ""}
	if n.context != nil {
		out = append(out, n.context(n.w)...)
	}
	count := utf8.RuneCountInString(strings.TrimSpace(n.input.Value()))
	c := fmt.Sprintf("%d/%d characters", count, adjudication.MaxNote)
	switch {
	case count > adjudication.MaxNote && n.refused:
		c = st.Finding.Render(c + fmt.Sprintf(": refused, %d over the limit; shorten it", count-adjudication.MaxNote))
	case count > adjudication.MaxNote:
		c = st.Finding.Render(c + fmt.Sprintf(": %d over the limit", count-adjudication.MaxNote))
	default:
		c = st.Muted.Render(c)
	}
	out = append(out, "", n.input.View(), c, "", st.Muted.Render("enter saves · esc cancels"))
	return tea.NewView(strings.Join(out, "\n"))
}

// ShortHelp implements help.KeyMap.
func (n *noteEditor) ShortHelp() []key.Binding { return []key.Binding{n.keys.Save, n.keys.Cancel} }

// FullHelp implements help.KeyMap.
func (n *noteEditor) FullHelp() [][]key.Binding { return [][]key.Binding{n.ShortHelp()} }
