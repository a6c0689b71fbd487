package serve

import (
	"context"
	"net"
	"net/netip"
	"sync"
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/ssh"
	gossh "golang.org/x/crypto/ssh"
)

// Limits of one session's requests before its shell starts: the
// environment variables a client may send (each name and value
// together at most maxEnvBytes). A client sends a few (TERM, LANG); more
// are refused, so that one connection cannot make the server hold
// gigabytes of them.
//
// maxSessions is how many session channels one connection may have open
// at once: a rater needs one (a command or a subsystem asked on another is
// refused by gate); a few more let a client open its next one while the
// last is closing.
//
// maxPtyBytes bounds a terminal request (its TERM name and terminal
// modes: a few hundred bytes from a real client).
const (
	maxEnvRequests = 32
	maxEnvBytes    = 1024
	maxSessions    = 4
	maxPtyBytes    = 4096
)

// connKey is the context key of a connection's connState.
type connKey struct{}

// connState is what the server keeps of one connection: its session
// channels (at most maxSessions at once), the shells served on them
// (gate), the timer that closes it while no shell is served
// (Config.LoginTimeout), and the window sizes its session reports,
// forwarded to the session's program.
type connState struct {
	conn    net.Conn
	timeout time.Duration

	mu       sync.Mutex
	sessions int
	serving  int
	idle     *time.Timer

	// latest is the last window size the session reported; kick tells
	// the forwarder (forwardWindows) that it changed.
	latest atomic.Pointer[tea.WindowSizeMsg]
	kick   chan struct{}
}

// hostOf is the host a connection comes from, as MaxConnectionsPerHost
// counts it: its IPv4 address (an IPv4-mapped IPv6 address too), or the
// /64 network of its IPv6 address (one host commonly holds a whole /64).
func hostOf(c net.Conn) string {
	ap, err := netip.ParseAddrPort(c.RemoteAddr().String())
	if err != nil {
		return c.RemoteAddr().String()
	}
	a := ap.Addr().Unmap()
	if a.Is4() {
		return a.String()
	}
	p, err := a.WithZone("").Prefix(64)
	if err != nil {
		return a.String()
	}
	return p.String()
}

// admitConn counts a new connection, or closes it (nil) when
// Config.MaxConnections are open, or Config.MaxConnectionsPerHost from
// its host; such closings are logged at most once every 10 seconds,
// with their count. An admitted connection is closed once it has been
// without a served shell for Config.LoginTimeout.
func (s *Server) admitConn(ctx ssh.Context, c net.Conn) net.Conn {
	host := hostOf(c)
	s.connMu.Lock()
	if s.total >= s.cfg.MaxConnections || s.open[host] >= s.cfg.MaxConnectionsPerHost {
		s.turnedAway++
		now := s.cfg.Now()
		var n int
		if now.Sub(s.turnedLogged) >= 10*time.Second {
			n, s.turnedAway, s.turnedLogged = s.turnedAway, 0, now
		}
		s.connMu.Unlock()
		if n > 0 {
			s.logf("closed %d connection(s) at once: at most %d connections are open, %d from one host", n, s.cfg.MaxConnections, s.cfg.MaxConnectionsPerHost)
		}
		return nil
	}
	s.total++
	s.open[host]++
	s.connMu.Unlock()
	cs := &connState{conn: c, timeout: s.cfg.LoginTimeout, kick: make(chan struct{}, 1)}
	cs.idle = time.AfterFunc(cs.timeout, func() { _ = c.Close() })
	ctx.SetValue(connKey{}, cs)
	return c
}

// closedConn uncounts a connection admitConn let in.
func (s *Server) closedConn(c net.Conn) {
	host := hostOf(c)
	s.connMu.Lock()
	s.total--
	if s.open[host]--; s.open[host] <= 0 {
		delete(s.open, host)
	}
	s.connMu.Unlock()
}

// sessionChannel serves a session channel, at most maxSessions at once
// per connection (one more is rejected), with its requests filtered
// (filteredChannel).
func (s *Server) sessionChannel(srv *ssh.Server, conn *gossh.ServerConn, nc gossh.NewChannel, ctx ssh.Context) {
	cs, _ := ctx.Value(connKey{}).(*connState)
	if cs == nil || !cs.beginSession() {
		_ = nc.Reject(gossh.ResourceShortage, "verdict serve: too many sessions on this connection")
		return
	}
	defer cs.endSession()
	ssh.DefaultSessionHandler(srv, conn, &filteredChannel{NewChannel: nc, cs: cs}, ctx)
}

// beginSession counts a session channel, false when maxSessions are
// open already.
func (cs *connState) beginSession() bool {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if cs.sessions >= maxSessions {
		return false
	}
	cs.sessions++
	return true
}

// endSession uncounts a session channel.
func (cs *connState) endSession() {
	cs.mu.Lock()
	cs.sessions--
	cs.mu.Unlock()
}

// serve counts a shell served on the connection (gate, until it
// returns): the connection is no longer closed for having none; done
// uncounts it, and without one the connection is closed after its
// timeout. A nil connState does nothing.
func (cs *connState) serve() (done func()) {
	if cs == nil {
		return func() {}
	}
	cs.mu.Lock()
	cs.serving++
	cs.idle.Stop()
	cs.mu.Unlock()
	return func() {
		cs.mu.Lock()
		if cs.serving--; cs.serving == 0 {
			cs.idle.Reset(cs.timeout)
		}
		cs.mu.Unlock()
	}
}

// close closes the connection (nothing for a nil connState).
func (cs *connState) close() {
	if cs != nil {
		_ = cs.conn.Close()
	}
}

// reported is the last window size the session reported (nil: none, or
// a nil connState).
func (cs *connState) reported() *tea.WindowSizeMsg {
	if cs == nil {
		return nil
	}
	return cs.latest.Load()
}

// forwardWindows sends each window size the session reports to p until
// ctx ends, the latest only: a client sending sizes faster than the
// program takes them holds one.
func (cs *connState) forwardWindows(ctx context.Context, p *tea.Program) {
	if cs == nil {
		return
	}
	go func() {
		for {
			select {
			case <-ctx.Done():
				return
			case <-cs.kick:
				if m := cs.latest.Load(); m != nil {
					p.Send(*m)
				}
			}
		}
	}()
}

// filteredChannel is a session channel whose requests pass a filter
// before the SSH library's session handler reads them: a window change
// is taken here (connState.latest), never handed to the library, whose
// handler blocks for ever on a second one before the shell starts; the
// environment is limited (maxEnvRequests, maxEnvBytes) and so is a
// terminal request (maxPtyBytes).
type filteredChannel struct {
	gossh.NewChannel
	cs *connState
}

// Accept implements gossh.NewChannel.
func (c *filteredChannel) Accept() (gossh.Channel, <-chan *gossh.Request, error) {
	ch, reqs, err := c.NewChannel.Accept()
	if err != nil {
		return ch, reqs, err
	}
	out := make(chan *gossh.Request)
	go func() {
		defer close(out)
		envs := 0
		for req := range reqs {
			switch req.Type {
			case "window-change":
				var win struct{ Width, Height, WidthPx, HeightPx uint32 }
				ok := gossh.Unmarshal(req.Payload, &win) == nil
				if ok {
					c.cs.latest.Store(&tea.WindowSizeMsg{Width: int(min(win.Width, 1<<16)), Height: int(min(win.Height, 1<<16))})
					select {
					case c.cs.kick <- struct{}{}:
					default:
					}
				}
				if req.WantReply {
					_ = req.Reply(ok, nil)
				}
				continue
			case "env", "pty-req":
				if req.Type == "env" {
					envs++
				}
				if envs > maxEnvRequests || req.Type == "env" && len(req.Payload) > maxEnvBytes || len(req.Payload) > maxPtyBytes {
					if req.WantReply {
						_ = req.Reply(false, nil)
					}
					continue
				}
			}
			out <- req
		}
	}()
	return ch, out, nil
}
