package serve

import (
	"fmt"
	"strings"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/ssh"
	gossh "golang.org/x/crypto/ssh"

	"verdict/tui"
)

// refreshEvery is how often the waiting and status screens look at the
// directory again.
const refreshEvery = 2 * time.Second

type tickMsg struct{}

func tick() tea.Cmd { return tea.Tick(refreshEvery, func(time.Time) tea.Msg { return tickMsg{} }) }

// plainView is a full-screen view of text lines cut to the terminal.
func plainView(lines []string, w, h int) tea.View {
	if h > 0 && len(lines) > h {
		lines = lines[:h]
	}
	for i, l := range lines {
		if w > 0 && len([]rune(l)) > w {
			lines[i] = string([]rune(l)[:w])
		}
	}
	v := tea.NewView(strings.Join(lines, "\n"))
	v.AltScreen = true
	return v
}

// quitKey reports whether k leaves a plain screen.
func quitKey(k tea.KeyPressMsg) bool {
	switch k.String() {
	case "q", "ctrl+c", "esc":
		return true
	}
	return false
}

// statusScreen is the coordinator's SSH screen: Status of the served
// directory, refreshed every refreshEvery, with who is connected.
type statusScreen struct {
	s    *Server
	id   Identity
	w, h int
	rep  Report
}

func newStatusScreen(s *Server, id Identity) *statusScreen {
	st := &statusScreen{s: s, id: id}
	st.refresh()
	return st
}

func (m *statusScreen) refresh() {
	m.rep = Status(m.s.cfg.Layout, m.s.cfg.Allowed, m.s.connected)
}

// Init implements tea.Model.
func (m *statusScreen) Init() tea.Cmd { return tick() }

// Update implements tea.Model.
func (m *statusScreen) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.w, m.h = msg.Width, msg.Height
	case tickMsg:
		m.refresh()
		return m, tick()
	case tea.KeyPressMsg:
		if quitKey(msg) {
			return m, tea.Quit
		}
		if msg.String() == "r" {
			m.refresh()
		}
	}
	return m, nil
}

// View implements tea.Model.
func (m *statusScreen) View() tea.View {
	var b strings.Builder
	_ = m.rep.WriteText(&b)
	lines := append([]string{fmt.Sprintf("verdict serve · status · coordinator %s · %s", m.id.Name, time.Now().UTC().Format("15:04:05 UTC")), ""}, strings.Split(strings.TrimRight(b.String(), "\n"), "\n")...)
	lines = append(lines, "", "r refresh · q quit (refreshes every 2 s; no grade value or note is shown before the reveal)")
	return plainView(lines, m.w, m.h)
}

// adjScreen is the adjudicator's SSH screen: a waiting screen that says
// which sheets it waits for, then the adjudicate program of package tui.
type adjScreen struct {
	s    *Server
	sess ssh.Session
	id   Identity
	key  gossh.PublicKey

	w, h    int
	waiting string
	problem string
	inner   tea.Model

	mu  sync.Mutex
	log interface{ Close() error }
	res func() string
}

type adjReadyMsg struct {
	ready   *adjReady
	waiting string
	err     error
}

func (a *adjScreen) check() tea.Cmd {
	return func() tea.Msg {
		r, w, err := a.s.readyAdjudication(a.sess, a.id, a.key)
		return adjReadyMsg{r, w, err}
	}
}

// Init implements tea.Model.
func (a *adjScreen) Init() tea.Cmd { return a.check() }

// Update implements tea.Model.
func (a *adjScreen) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if ws, ok := msg.(tea.WindowSizeMsg); ok {
		a.w, a.h = ws.Width, ws.Height
	}
	if a.inner != nil {
		m, cmd := a.inner.Update(msg)
		a.inner = m
		return a, cmd
	}
	switch msg := msg.(type) {
	case tickMsg:
		return a, a.check()
	case adjReadyMsg:
		switch {
		case msg.err != nil:
			a.problem = errText(msg.err)
			return a, nil
		case msg.ready == nil:
			a.waiting = msg.waiting
			return a, tick()
		}
		a.mu.Lock()
		a.log = msg.ready.log
		log := msg.ready.log
		a.res = func() string {
			return fmt.Sprintf("%d of %d disputes resolved", len(log.Choices()), len(log.Disputes()))
		}
		a.mu.Unlock()
		a.inner = tui.NewAdjudicateModel(msg.ready.in, tui.Options{})
		cmds := []tea.Cmd{a.inner.Init()}
		if a.w > 0 {
			m, cmd := a.inner.Update(tea.WindowSizeMsg{Width: a.w, Height: a.h})
			a.inner = m
			cmds = append(cmds, cmd)
		}
		return a, tea.Batch(cmds...)
	case tea.KeyPressMsg:
		if quitKey(msg) {
			return a, tea.Quit
		}
	}
	return a, nil
}

// View implements tea.Model.
func (a *adjScreen) View() tea.View {
	if a.inner != nil {
		return a.inner.View()
	}
	lines := []string{"verdict serve · adjudicator " + a.id.Name, ""}
	switch {
	case a.problem != "":
		lines = append(lines, "Refused: "+a.problem)
	case a.waiting != "":
		lines = append(lines, "The adjudication opens once both rating sheets are frozen and signed.", "", a.waiting+".", "", "This screen looks again every 2 s; you may also leave and come back later.")
	default:
		lines = append(lines, "Checking the rating sheets …")
	}
	lines = append(lines, "", "q quit")
	return plainView(lines, a.w, a.h)
}

func (a *adjScreen) close() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.log != nil {
		return a.log.Close()
	}
	return nil
}

func (a *adjScreen) summary() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.res == nil {
		return "waiting for the sheets"
	}
	return a.res()
}
