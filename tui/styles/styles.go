// Package styles holds every colour and text style of verdict's terminal
// UI. No other package names a colour: screens take a *Styles built here.
// With NO_COLOR set (https://no-color.org) the styles carry no colour at all
// and rely on bold, underline and reverse video only.
package styles

import (
	"image/color"
	"os"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/textarea"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
)

// Styles is the complete set of styles of the TUI. Build it with New or
// FromEnv; the zero value renders plain text.
type Styles struct {
	// NoColor is true when the styles carry no colour (NO_COLOR).
	NoColor bool
	// Dark is true for the palette made for a dark terminal background,
	// false for a light one.
	Dark bool

	// Title is the top bar of every screen.
	Title lipgloss.Style
	// Synthetic marks the SYNTHETIC label of synthetic input.
	Synthetic lipgloss.Style
	// Header is a section heading inside a pane.
	Header lipgloss.Style
	// Selected is the row under the cursor.
	Selected lipgloss.Style
	// Normal is an ordinary row.
	Normal lipgloss.Style
	// Muted is secondary text (IDs, counts, hints).
	Muted lipgloss.Style
	// Finding marks an automatic structural finding.
	Finding lipgloss.Style
	// OK marks a satisfied state (saved, complete, citation present).
	OK lipgloss.Style
	// Warn marks an incomplete or attention state (partial, ungraded).
	Warn lipgloss.Style
	// Error is an error message box.
	Error lipgloss.Style
	// LineNumber is the gutter of the evidence viewer.
	LineNumber lipgloss.Style
	// Cited marks cited lines in the evidence viewer.
	Cited lipgloss.Style
	// Value is a recorded grade value.
	Value lipgloss.Style
	// Border frames a pane or a dialog.
	Border lipgloss.Style
	// Help is the style set of the help bubble.
	Help help.Styles
	// Input is the style set of the search prompt (no blinking cursor).
	Input textinput.Styles
	// Note is the style set of the note editor, a text area that wraps a
	// long note over several lines (no blinking cursor, no line numbers).
	Note textarea.Styles
}

// FromEnv returns New(noColor) where noColor is true when the NO_COLOR
// environment variable is set to a non-empty value.
func FromEnv() *Styles { return New(os.Getenv("NO_COLOR") != "") }

// ThemeFromEnv returns NewTheme(noColor, dark) with noColor from NO_COLOR.
func ThemeFromEnv(dark bool) *Styles { return NewTheme(os.Getenv("NO_COLOR") != "", dark) }

// New returns the styles for a dark background. With noColor the styles
// use no colour, only bold, faint, underline and reverse attributes.
func New(noColor bool) *Styles { return NewTheme(noColor, true) }

// NewTheme returns the styles for a dark (dark true) or a light terminal
// background: on a light one the secondary text, the marks and the cited
// lines are darker so that they keep their contrast on white. With noColor
// both themes are the same colourless styles.
func NewTheme(noColor, dark bool) *Styles {
	c := func(hex string) color.Color {
		if noColor {
			return lipgloss.NoColor{}
		}
		return lipgloss.Color(hex)
	}
	accent, muted, red, green, yellow := c("#7D56F4"), c("#8A8A8A"), c("#E0556A"), c("#4FB477"), c("#D9A441")
	citedBG, cursor := c("#3A3A5A"), c("#FFFFFF")
	if !dark {
		accent, muted, red, green, yellow = c("#5B32D6"), c("#5C5C5C"), c("#B3261E"), c("#1B6E3C"), c("#8A5A00")
		citedBG, cursor = c("#DCE2F7"), c("#000000")
	}
	s := &Styles{NoColor: noColor, Dark: dark}
	s.Title = lipgloss.NewStyle().Bold(true).Foreground(c("#FFFFFF")).Background(accent)
	if noColor {
		s.Title = lipgloss.NewStyle().Bold(true).Reverse(true)
	}
	s.Synthetic = lipgloss.NewStyle().Bold(true).Foreground(yellow)
	s.Header = lipgloss.NewStyle().Bold(true).Underline(true)
	s.Selected = lipgloss.NewStyle().Bold(true).Reverse(true)
	s.Normal = lipgloss.NewStyle()
	s.Muted = lipgloss.NewStyle().Foreground(muted)
	if noColor {
		s.Muted = lipgloss.NewStyle().Faint(true)
	}
	s.Finding = lipgloss.NewStyle().Bold(true).Foreground(red)
	s.OK = lipgloss.NewStyle().Foreground(green)
	s.Warn = lipgloss.NewStyle().Foreground(yellow)
	s.Error = lipgloss.NewStyle().Bold(true).Foreground(red).Border(lipgloss.NormalBorder()).BorderForeground(red).Padding(0, 1)
	s.LineNumber = lipgloss.NewStyle().Foreground(muted)
	if noColor {
		s.LineNumber = lipgloss.NewStyle().Faint(true)
	}
	s.Cited = lipgloss.NewStyle().Bold(true).Background(citedBG)
	if noColor {
		s.Cited = lipgloss.NewStyle().Bold(true).Underline(true)
	}
	s.Value = lipgloss.NewStyle().Bold(true).Foreground(accent)
	s.Border = lipgloss.NewStyle().Border(lipgloss.NormalBorder()).BorderForeground(muted).Padding(0, 1)
	s.Help = help.Styles{
		ShortKey:       lipgloss.NewStyle().Bold(true),
		ShortDesc:      s.Muted,
		ShortSeparator: s.Muted,
		Ellipsis:       s.Muted,
		FullKey:        lipgloss.NewStyle().Bold(true),
		FullDesc:       s.Muted,
		FullSeparator:  s.Muted,
	}
	st := textinput.StyleState{Text: lipgloss.NewStyle(), Placeholder: s.Muted, Suggestion: s.Muted, Prompt: lipgloss.NewStyle().Bold(true)}
	s.Input = textinput.Styles{Focused: st, Blurred: st, Cursor: textinput.CursorStyle{Color: cursor, Shape: tea.CursorBlock, Blink: false}}
	nt := textarea.StyleState{Text: lipgloss.NewStyle(), Placeholder: s.Muted, Prompt: lipgloss.NewStyle().Bold(true)}
	s.Note = textarea.Styles{Focused: nt, Blurred: nt, Cursor: textarea.CursorStyle{Color: cursor, Shape: tea.CursorBlock, Blink: false}}
	return s
}
