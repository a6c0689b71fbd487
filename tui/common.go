package tui

import (
	"context"
	"fmt"
	"io"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"verdict/tui/styles"
)

// Component is one screen or pane of the TUI: a Bubble Tea model that
// also publishes its key bindings for the help view and accepts a size.
// Update returns the component itself (components use pointer receivers).
type Component interface {
	tea.Model
	help.KeyMap
	// SetSize sets the component's area in terminal cells.
	SetSize(width, height int)
}

// pane is embedded in every Component: the area SetSize gives it (w
// columns by h rows, in terminal cells) and an Init that starts nothing.
// A component that lays out more on a new size has its own SetSize.
type pane struct{ w, h int }

// Init implements tea.Model: a pane starts no command.
func (*pane) Init() tea.Cmd { return nil }

// SetSize implements Component: it records the area.
func (p *pane) SetSize(w, h int) { p.w, p.h = w, h }

// quitGuard is implemented by components that hold text not yet saved
// (the rater's draft notes): unsaved returns what would be lost, "" when
// nothing would. The root refuses the first q (or ctrl+c) and shows it;
// the same key again leaves.
type quitGuard interface{ unsaved() string }

// capturer is implemented by components that are currently editing text;
// while Capturing reports true the root model passes q and ? through to
// the component (ctrl+c still leaves).
type capturer interface{ Capturing() bool }

// Common is what every component shares: the terminal size in cells and
// the styles.
type Common struct {
	// Width and Height are the terminal size in cells.
	Width, Height int
	// Styles are the styles of every component (the only source of colour).
	Styles *styles.Styles
}

// Options configure how a TUI program runs. The zero value runs on the
// process's terminal with styles from the environment (NO_COLOR).
type Options struct {
	// Input and Output replace the terminal (tests); nil means the default.
	Input  io.Reader
	Output io.Writer
	// Styles replaces styles.FromEnv().
	Styles *styles.Styles
	// Width and Height set an initial size (tests); 0 means the terminal's.
	Width, Height int
	// Theme chooses the colours: ThemeAuto (the zero value) asks the
	// terminal for its background colour and picks the light or dark
	// palette; ThemeLight and ThemeDark force one. NO_COLOR still removes
	// every colour. Ignored when Styles is set.
	Theme Theme
}

// Theme is a colour theme of the TUI (the --theme flag).
type Theme string

// The themes.
const (
	ThemeAuto  Theme = "auto"
	ThemeDark  Theme = "dark"
	ThemeLight Theme = "light"
)

// ParseTheme returns the theme named s ("" is auto) or an error naming
// the valid themes.
func ParseTheme(s string) (Theme, error) {
	switch t := Theme(s); t {
	case "", ThemeAuto:
		return ThemeAuto, nil
	case ThemeDark, ThemeLight:
		return t, nil
	}
	return "", fmt.Errorf("theme %q: want light, dark or auto", s)
}

func (o Options) styles() *styles.Styles {
	if o.Styles != nil {
		return o.Styles
	}
	return styles.ThemeFromEnv(o.Theme != ThemeLight)
}

// autoTheme reports whether the program follows the terminal's background.
func (o Options) autoTheme() bool {
	return o.Styles == nil && (o.Theme == "" || o.Theme == ThemeAuto)
}

// restyleMsg tells every component that Common.Styles changed (the
// terminal reported a light background): cached styled text is dropped.
type restyleMsg struct{}

// run runs m as a full-screen program until it quits and returns the final
// model.
func run(ctx context.Context, m tea.Model, o Options) (tea.Model, error) {
	opts := []tea.ProgramOption{tea.WithContext(ctx)}
	if o.Input != nil {
		opts = append(opts, tea.WithInput(o.Input))
	}
	if o.Output != nil {
		opts = append(opts, tea.WithOutput(o.Output))
	}
	if o.Width > 0 && o.Height > 0 {
		opts = append(opts, tea.WithWindowSize(o.Width, o.Height))
	}
	return tea.NewProgram(m, opts...).Run()
}

// GlobalKeyMap holds the bindings every screen has.
type GlobalKeyMap struct {
	// Help toggles the full help.
	Help key.Binding
	// Quit leaves the program; everything saved is already on disk.
	Quit key.Binding
	// ForceQuit is ctrl+c, which leaves even while text is being edited.
	ForceQuit key.Binding
}

// DefaultGlobalKeyMap returns ? for help and q / ctrl+c to leave.
func DefaultGlobalKeyMap() GlobalKeyMap {
	return GlobalKeyMap{
		Help:      key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help")),
		Quit:      key.NewBinding(key.WithKeys("q"), key.WithHelp("q", "quit")),
		ForceQuit: key.NewBinding(key.WithKeys("ctrl+c"), key.WithHelp("ctrl+c", "quit")),
	}
}

// root is the program's top model: it handles the global keys, then the
// application messages, then forwards to the active screen only.
type root struct {
	c       *Common
	keys    GlobalKeyMap
	help    help.Model
	showAll bool
	title   func() string
	status  func() string
	child   Component
	quit    bool
	// warned is the key of a refused quit (quitGuard): pressed again next,
	// it leaves; any other key forgets the refusal.
	warned string
	// refusal is the refused quit's message, shown in place of the status
	// line until the next key.
	refusal string
	// auto is set when the colours follow the terminal's background.
	auto bool
}

// program is a component that is a whole program's screen: the root
// shows its title above it and its status line below it.
type program interface {
	Component
	title() string
	statusLine() string
}

// newProgram returns the root model of the program newChild builds on
// the size and styles of o; with the auto theme the colours follow the
// terminal's background.
func newProgram(o Options, newChild func(*Common) program) *root {
	c := &Common{Width: o.Width, Height: o.Height, Styles: o.styles()}
	p := newChild(c)
	rt := newRoot(c, p, p.title, p.statusLine)
	rt.auto = o.autoTheme()
	return rt
}

// runProgram runs m, a root model of newProgram, until it quits and
// returns its program as it was left (as built when the program could
// not start).
func runProgram[P program](ctx context.Context, m tea.Model, o Options) (P, error) {
	final, err := run(ctx, m, o)
	r, ok := final.(*root)
	if !ok {
		r = m.(*root)
	}
	return r.child.(P), err
}

func newRoot(c *Common, child Component, title, status func() string) *root {
	h := help.New()
	h.Styles = c.Styles.Help
	r := &root{c: c, keys: DefaultGlobalKeyMap(), help: h, title: title, status: status, child: child}
	r.resize()
	return r
}

// Init implements tea.Model: with the auto theme it asks the terminal
// for its background colour.
func (r *root) Init() tea.Cmd {
	if r.auto {
		return tea.Batch(r.child.Init(), tea.RequestBackgroundColor)
	}
	return r.child.Init()
}

// Update implements tea.Model: global keys first, then the child.
func (r *root) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		r.c.Width, r.c.Height = msg.Width, msg.Height
		r.resize()
		return r, nil
	case tea.BackgroundColorMsg:
		if !r.auto || msg.IsDark() == r.c.Styles.Dark {
			return r, nil
		}
		*r.c.Styles = *styles.NewTheme(r.c.Styles.NoColor, msg.IsDark())
		r.help.Styles = r.c.Styles.Help
		_, cmd := r.child.Update(restyleMsg{})
		return r, cmd
	case tea.KeyPressMsg:
		capturing := r.capturing()
		warned := r.warned
		r.warned, r.refusal = "", ""
		switch {
		case key.Matches(msg, r.keys.ForceQuit), !capturing && key.Matches(msg, r.keys.Quit):
			if g, ok := r.child.(quitGuard); ok && warned != msg.String() {
				if lost := g.unsaved(); lost != "" {
					r.warned = msg.String()
					r.refusal = "NOT left: " + lost + "; press " + msg.String() + " again to leave without it"
					r.resize()
					return r, nil
				}
			}
			r.quit = true
			return r, tea.Quit
		case !capturing && key.Matches(msg, r.keys.Help):
			r.showAll = !r.showAll
			r.resize()
			return r, nil
		}
	}
	_, cmd := r.child.Update(msg)
	r.resize()
	return r, cmd
}

// helpView is the footer. The short help keeps the global keys whole at
// its end and cuts only the screen's bindings to the width, so that
// "? help" and "q quit" are always on screen; while a text editor has
// the keyboard, ? and q type, and the footer names ctrl+c instead.
func (r *root) helpView() string {
	r.help.ShowAll = r.showAll
	if r.showAll {
		return r.fullHelpView()
	}
	r.help.SetWidth(0)
	global := r.help.ShortHelpView(r.globals())
	sep := r.help.Styles.ShortSeparator.Inline(true).Render(r.help.ShortSeparator)
	r.help.SetWidth(max(r.c.Width-lipgloss.Width(global)-lipgloss.Width(sep), 1))
	own := r.help.ShortHelpView(r.child.ShortHelp())
	r.help.SetWidth(r.c.Width)
	// The help model's own cut may leave a few cells over: cut again.
	if room := r.c.Width - lipgloss.Width(global) - lipgloss.Width(sep); lipgloss.Width(own) > room {
		own = ansi.Truncate(own, max(room-1, 0), "") + "…"
	}
	if own == "" {
		return global
	}
	return own + sep + global
}

// fullHelpView is the full help (?): the groups of bindings as columns,
// as many side by side as the width holds and the rest in rows below, so
// that a narrow screen lists every binding rather than cutting columns.
func (r *root) fullHelpView() string {
	r.help.SetWidth(0)
	defer r.help.SetWidth(r.c.Width)
	sep := r.help.Styles.FullSeparator.Inline(true).Render(r.help.FullSeparator)
	var rows, cur []string
	curW := 0
	flush := func() {
		if len(cur) > 0 {
			rows = append(rows, lipgloss.JoinHorizontal(lipgloss.Top, cur...))
		}
		cur, curW = nil, 0
	}
	for _, g := range r.FullHelp() {
		col := r.help.FullHelpView([][]key.Binding{g})
		if col == "" {
			continue
		}
		cw := lipgloss.Width(col)
		if len(cur) > 0 && curW+lipgloss.Width(sep)+cw > r.c.Width {
			flush()
		}
		if len(cur) > 0 {
			cur = append(cur, sep)
			curW += lipgloss.Width(sep)
		}
		cur = append(cur, col)
		curW += cw
	}
	flush()
	return strings.Join(rows, "\n")
}

// capturing reports whether a text editor of the child has the keyboard.
func (r *root) capturing() bool {
	cp, ok := r.child.(capturer)
	return ok && cp.Capturing()
}

// globals are the global bindings that apply now.
func (r *root) globals() []key.Binding {
	if r.capturing() {
		return []key.Binding{r.keys.ForceQuit}
	}
	return []key.Binding{r.keys.Help, r.keys.Quit}
}

// ShortHelp implements help.KeyMap: the child's bindings then the global
// ones that apply.
func (r *root) ShortHelp() []key.Binding {
	return append(append([]key.Binding{}, r.child.ShortHelp()...), r.globals()...)
}

// FullHelp implements help.KeyMap.
func (r *root) FullHelp() [][]key.Binding {
	g := []key.Binding{r.keys.Help, r.keys.Quit, r.keys.ForceQuit}
	if r.capturing() {
		g = []key.Binding{r.keys.ForceQuit}
	}
	return append(append([][]key.Binding{}, r.child.FullHelp()...), g)
}

func (r *root) resize() {
	if r.c.Width <= 0 || r.c.Height <= 0 {
		return
	}
	h := r.c.Height - 1 - len(r.statusLines()) - lipgloss.Height(r.helpView())
	r.child.SetSize(r.c.Width, max(h, 1))
}

// statusLines is the status line wrapped to the width (a long status,
// such as a signed record's digest and signature, is never cut), each
// line padded to the width.
func (r *root) statusLines() []string {
	w := r.c.Width
	status := r.status()
	if r.refusal != "" {
		status = r.c.Styles.Finding.Render(r.refusal)
	}
	lines := strings.Split(ansi.Wrap(status, w, " "), "\n")
	for i, l := range lines {
		lines[i] = pad(l, w)
	}
	return lines
}

// View implements tea.Model: title bar, the child, a status line and help.
func (r *root) View() tea.View {
	var v tea.View
	v.AltScreen = true
	if r.c.Width <= 0 || r.c.Height <= 0 {
		return v
	}
	w := r.c.Width
	title := r.c.Styles.Title.Render(pad(" "+r.title(), w))
	body := r.child.View().Content
	hv := r.helpView()
	status := r.statusLines()
	bodyH := r.c.Height - 1 - len(status) - lipgloss.Height(hv)
	body = fit(body, w, max(bodyH, 1))
	v.SetContent(title + "\n" + body + "\n" + strings.Join(status, "\n") + "\n" + hv)
	return v
}

// pad truncates or pads s (which may hold ANSI styles) to exactly w cells.
func pad(s string, w int) string {
	s = ansi.Truncate(s, w, "…")
	if n := ansi.StringWidth(s); n < w {
		s += strings.Repeat(" ", w-n)
	}
	return s
}

// listWindow is the range [start, end) of the n rows of a list shown in
// h lines, the cursor cur centred as far as the list allows.
func listWindow(cur, n, h int) (start, end int) {
	start = min(max(cur-h/2, 0), max(n-h, 0))
	return start, min(start+h, n)
}

// selectedRow marks a list row drawn with a leading space as the
// cursor's: "›" in place of the space, padded to w cells, in the
// selection style (over the row's own styles).
func selectedRow(st *styles.Styles, row string, w int) string {
	return st.Selected.Render(pad("›"+ansi.Strip(row[1:]), w))
}

// fit crops s to h lines and every line to w cells, padding short content
// with empty lines so that the frame keeps its height.
func fit(s string, w, h int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > h {
		lines = lines[:h]
	}
	for len(lines) < h {
		lines = append(lines, "")
	}
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, w, "…")
	}
	return strings.Join(lines, "\n")
}
