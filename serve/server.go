package serve

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/ssh"
	"charm.land/wish/v2"
	bm "charm.land/wish/v2/bubbletea"
	gossh "golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/agent"

	"verdict/adjudication"
	"verdict/verr"
)

// ReasonSeatTaken: the person is already connected and that connection
// is not silent long enough to be taken over (Config.TakeoverAfter).
const ReasonSeatTaken verr.Reason = "seat-taken"

// ReasonCommand: the connection asked to run a command (ssh HOST cat
// …); verdict serve serves its screens only, and runs nothing.
const ReasonCommand verr.Reason = "command-refused"

// ReasonNoAgent: a signature was needed and the connection forwards no
// SSH agent, or the agent does not hold the key the person connected with.
const ReasonNoAgent verr.Reason = "no-agent"

// DefaultTakeoverAfter is how long a connection must have sent nothing
// before a new connection of the same person takes its seat over.
const DefaultTakeoverAfter = 5 * time.Minute

// seatRelease is how long a connection being taken over has to end
// after its program is cancelled before its connection is closed.
const seatRelease = 5 * time.Second

// frameRate is the Bubble Tea frame rate of every served program (the
// maximum Bubble Tea allows): a key's frame leaves within 1/120 s.
const frameRate = 120

// Config configures a Server.
type Config struct {
	// Layout is the checked served directory (CheckServedDir).
	Layout Layout
	// Allowed is the parsed allowed_signers file.
	Allowed []adjudication.AllowedSigner
	// HostKey is the server's host key (HostKey).
	HostKey gossh.Signer
	// TakeoverAfter is how long a connection must have sent nothing before
	// a second connection of the same person takes it over (default
	// DefaultTakeoverAfter).
	TakeoverAfter time.Duration
	// Host is the host name raters type, used in the reconnect command a
	// session without a forwarded agent is shown (default: the address
	// the client connected to).
	Host string
	// Now is the clock of signing times (default time.Now).
	Now func() time.Time
	// Log receives one line per connection, refusal and signed record
	// (nil discards them).
	Log io.Writer
	// LoginTimeout is how long a connection may be open without a
	// served shell before it is closed: to log in (the SSH handshake,
	// in which a person may check the host key's fingerprint and type a
	// key's passphrase, and public-key authentication) and start its
	// shell, and after its shell ended (default DefaultLoginTimeout, as
	// OpenSSH's LoginGraceTime).
	LoginTimeout time.Duration
	// MaxConnections and MaxConnectionsPerHost bound the connections open
	// at once, in all and from one remote address (logged in or not;
	// defaults DefaultMaxConnections and DefaultMaxConnectionsPerHost); a
	// connection past either is closed before its handshake.
	MaxConnections, MaxConnectionsPerHost int
}

// Defaults of Config: connections that never log in cannot hold the
// server's file descriptors (two raters, an adjudicator and a coordinator
// need a handful of connections).
const (
	DefaultLoginTimeout          = 2 * time.Minute
	DefaultMaxConnections        = 128
	DefaultMaxConnectionsPerHost = 16
)

// Server is a running `verdict serve`.
type Server struct {
	cfg Config
	srv *ssh.Server

	mu    sync.Mutex
	seats map[string]*seat
	logMu sync.Mutex

	// connMu guards open (connections open now, by remote host), total
	// and the count of connections closed at the limits since the last
	// line logged about them.
	connMu       sync.Mutex
	open         map[string]int
	total        int
	turnedAway   int
	turnedLogged time.Time

	// lnMu guards closed and listeners: a Close may come before Serve
	// has handed its listener to the SSH server, which only closes the
	// listeners it already tracks (see Serve).
	lnMu      sync.Mutex
	closed    bool
	listeners []net.Listener
}

// seat is one person's live connection.
type seat struct {
	id     Identity
	remote string
	since  time.Time
	last   atomic.Int64 // unix nanoseconds of the last key or resize
	cancel context.CancelFunc
	done   chan struct{}
	// drop closes the seat's connection (when its program does not end
	// within seatRelease of its cancel).
	drop func()
	// note is written to the session when it is taken over.
	note atomic.Value
}

func (st *seat) touch(t time.Time) { st.last.Store(t.UnixNano()) }

// New returns a server for cfg; Serve starts it.
func New(cfg Config) (*Server, error) {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.TakeoverAfter <= 0 {
		cfg.TakeoverAfter = DefaultTakeoverAfter
	}
	if cfg.HostKey == nil {
		return nil, errors.New("serve: no host key")
	}
	if cfg.LoginTimeout <= 0 {
		cfg.LoginTimeout = DefaultLoginTimeout
	}
	if cfg.MaxConnections <= 0 {
		cfg.MaxConnections = DefaultMaxConnections
	}
	if cfg.MaxConnectionsPerHost <= 0 {
		cfg.MaxConnectionsPerHost = DefaultMaxConnectionsPerHost
	}
	s := &Server{cfg: cfg, seats: map[string]*seat{}, open: map[string]int{}}
	// The host key is given as an option: wish.NewServer would otherwise
	// write a key of its own into the working directory.
	srv, err := wish.NewServer(
		func(srv *ssh.Server) error { srv.AddHostKey(cfg.HostKey); return nil },
		wish.WithMiddleware(bm.MiddlewareWithProgramHandler(s.program), s.gate),
	)
	if err != nil {
		return nil, err
	}
	// Public-key authentication only: no password, no keyboard-interactive
	// handler is set, so both methods are refused.
	srv.ServerConfigCallback = func(ssh.Context) *gossh.ServerConfig {
		return &gossh.ServerConfig{PublicKeyCallback: s.authenticate, MaxAuthTries: 6}
	}
	// The interactive shell is the only session request served: a
	// command is refused by gate, subsystems (SFTP) by the protocol. No forwarding callback is set, so
	// port forwarding is refused, and only session channels exist.
	// A command (exec) is accepted as a request only so that gate can
	// refuse it with one line the person reads (ReasonCommand).
	srv.SessionRequestCallback = func(_ ssh.Session, requestType string) bool {
		return requestType == "shell" || requestType == "exec"
	}
	srv.LocalPortForwardingCallback = nil
	srv.ReversePortForwardingCallback = nil
	srv.SubsystemHandlers = map[string]ssh.SubsystemHandler{}
	srv.ChannelHandlers = map[string]ssh.ChannelHandler{"session": s.sessionChannel}
	srv.RequestHandlers = map[string]ssh.RequestHandler{}
	srv.HandshakeTimeout = cfg.LoginTimeout
	srv.ConnCallback = s.admitConn
	srv.ConnectionCloseCallback = s.closedConn
	s.srv = srv
	return s, nil
}

// Fingerprint is the host key's SHA-256 fingerprint, as `ssh-keygen -lf`
// and the ssh client print it.
func (s *Server) Fingerprint() string { return gossh.FingerprintSHA256(s.cfg.HostKey.PublicKey()) }

// Serve accepts connections on l until Close, then returns nil; any
// other failure to accept is returned. A Close before or while Serve
// starts stops it too: l is recorded before the SSH server sees it, and
// Close closes every recorded listener itself, since the SSH server
// closes only the listeners it has already registered (and forgets a
// Close that came before it registered one).
func (s *Server) Serve(l net.Listener) error {
	s.lnMu.Lock()
	if s.closed {
		s.lnMu.Unlock()
		_ = l.Close()
		return nil
	}
	s.listeners = append(s.listeners, l)
	s.lnMu.Unlock()
	err := s.srv.Serve(l)
	if errors.Is(err, ssh.ErrServerClosed) || s.isClosed() {
		return nil
	}
	return err
}

// isClosed reports whether Close was called.
func (s *Server) isClosed() bool {
	s.lnMu.Lock()
	defer s.lnMu.Unlock()
	return s.closed
}

// Close closes the listeners and every connection; a Serve called after
// it returns at once. Journals are closed by their sessions as they end;
// every saved grade is already on disk.
func (s *Server) Close() error {
	s.lnMu.Lock()
	s.closed = true
	lns := s.listeners
	s.listeners = nil
	s.lnMu.Unlock()
	err := s.srv.Close()
	for _, l := range lns {
		if cerr := l.Close(); cerr != nil && !errors.Is(cerr, net.ErrClosed) && err == nil {
			err = cerr
		}
	}
	return err
}

func (s *Server) logf(format string, a ...any) {
	if s.cfg.Log == nil {
		return
	}
	s.logMu.Lock()
	defer s.logMu.Unlock()
	fmt.Fprintf(s.cfg.Log, "%s "+format+"\n", append([]any{s.cfg.Now().UTC().Format(time.RFC3339)}, a...)...)
}

// permission extension keys carrying the identity from authentication to
// the session.
const (
	extName = "verdict-name"
	extRole = "verdict-role"
	extNS   = "verdict-namespace"
	extFP   = "verdict-fingerprint"
	extKey  = "verdict-key"
)

// authenticate is the public-key callback: the key must have an
// allowed_signers line that gives it one identity (Identify). A refused
// key gets its one-line reason as an SSH banner (which ssh prints) and
// the client may try its next key.
func (s *Server) authenticate(conn gossh.ConnMetadata, key gossh.PublicKey) (*gossh.Permissions, error) {
	id, err := Identify(s.cfg.Allowed, key, conn.User())
	if err != nil {
		s.logf("refused key %s from %s as %q: %v", adjudication.Fingerprint(key), conn.RemoteAddr(), conn.User(), err)
		return nil, &gossh.BannerError{Err: err, Message: "verdict serve: refused: " + oneLine(err) + "\r\n"}
	}
	return &gossh.Permissions{Extensions: map[string]string{
		extName: id.Name, extRole: string(id.Role), extNS: id.Namespace, extFP: id.Fingerprint,
		extKey: base64.StdEncoding.EncodeToString(key.Marshal()),
	}}, nil
}

// oneLine is err's message for a refusal line: a *verr.Error's detail and
// reason code.
func oneLine(err error) string {
	var ve *verr.Error
	if errors.As(err, &ve) && ve.Detail != "" {
		return ve.Detail + " (" + string(ve.Reason) + ")"
	}
	return err.Error()
}

// identity returns the session's identity and key from its permissions.
func identity(sess ssh.Session) (Identity, gossh.PublicKey, error) {
	ext := sess.Permissions().Extensions
	raw, err := base64.StdEncoding.DecodeString(ext[extKey])
	if err != nil {
		return Identity{}, nil, err
	}
	key, err := gossh.ParsePublicKey(raw)
	if err != nil {
		return Identity{}, nil, err
	}
	return Identity{Name: ext[extName], Role: adjudication.Role(ext[extRole]), Namespace: ext[extNS], Fingerprint: ext[extFP]}, key, nil
}

// sessionKey is the context key of a session's prepared program.
type sessionKey struct{}

// session is what gate prepared for program: the model and the seat.
type session struct {
	model tea.Model
	seat  *seat
	ctx   context.Context
}

// refuse writes one refusal line to the session's stderr and ends it
// with exit status 1.
func (s *Server) refuse(sess ssh.Session, who string, err error) {
	s.logf("refused %s from %s: %v", who, sess.RemoteAddr(), err)
	fmt.Fprintf(sess.Stderr(), "verdict serve: refused: %s\r\n", oneLine(err))
	_ = sess.Exit(1)
}

// gate is the outer middleware: it checks the terminal, takes the
// person's seat, prepares the role's program for the Bubble Tea
// middleware (program) and releases everything when it ends.
func (s *Server) gate(next ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
		id, key, err := identity(sess)
		if err != nil {
			s.refuse(sess, "session", err)
			return
		}
		who := fmt.Sprintf("%s (%s)", id.Name, id.Role)
		if sess.RawCommand() != "" {
			s.refuse(sess, who, &verr.Error{Reason: ReasonCommand, Detail: "verdict serve runs no commands; connect with ssh -t -A and no command"})
			return
		}
		if _, _, ok := sess.Pty(); !ok {
			s.refuse(sess, who, &verr.Error{Reason: "no-terminal", Detail: "verdict serve needs a terminal; connect with ssh -t (and without a command)"})
			return
		}
		cs, _ := sess.Context().Value(connKey{}).(*connState)
		defer cs.serve()()
		st, err := s.takeSeat(id, sess.RemoteAddr().String(), cs.close)
		if err != nil {
			s.refuse(sess, who, err)
			return
		}
		ctx, cancel := context.WithCancel(sess.Context())
		st.cancel = cancel
		defer func() {
			cancel()
			s.releaseSeat(st)
		}()
		var prep *prepared
		switch id.Role {
		case adjudication.RoleRater:
			prep, err = s.prepareRater(sess, id, key)
		case adjudication.RoleAdjudicator:
			prep, err = s.prepareAdjudicator(sess, id, key)
		case adjudication.RoleCoordinator:
			prep = &prepared{model: newStatusScreen(s, id)}
		default:
			err = &verr.Error{Reason: ReasonNoRole, Detail: "no role"}
		}
		if err != nil {
			s.refuse(sess, who, err)
			return
		}
		if prep.done != "" {
			s.logf("%s from %s: %s", who, sess.RemoteAddr(), prep.done)
			fmt.Fprintf(sess, "verdict serve: %s\r\n", prep.done)
			_ = sess.Exit(0)
			return
		}
		defer prep.close()
		s.logf("connected %s from %s with key %s", who, sess.RemoteAddr(), id.Fingerprint)
		sess.Context().SetValue(sessionKey{}, &session{model: &activity{Model: prep.model, seat: st, now: s.cfg.Now}, seat: st, ctx: ctx})
		next(sess)
		if note, _ := st.note.Load().(string); note != "" {
			fmt.Fprintf(sess.Stderr(), "verdict serve: %s\r\n", note)
		}
		if prep.summary != nil {
			s.logf("left %s from %s: %s", who, sess.RemoteAddr(), prep.summary())
		} else {
			s.logf("left %s from %s", who, sess.RemoteAddr())
		}
	}
}

// program builds the Bubble Tea program of a session gate prepared, at
// the client's terminal size (the last window change before it, else
// the terminal request's), colour profile and environment
// (bm.MakeOptions); later window changes reach it from the session's
// request filter (connState.forwardWindows).
func (s *Server) program(sess ssh.Session) *tea.Program {
	ps, _ := sess.Context().Value(sessionKey{}).(*session)
	if ps == nil {
		return nil
	}
	opts := append(bm.MakeOptions(sess), tea.WithContext(ps.ctx), tea.WithFPS(frameRate), tea.WithoutSignalHandler(), tea.WithFilter(sessionFilter))
	// A client without a terminal of its own (ssh -tt from a script)
	// reports a 0x0 window: draw at 80x24 until it reports a size. A
	// larger window than MaxWindow is drawn at MaxWindow.
	cs, _ := sess.Context().Value(connKey{}).(*connState)
	if pty, winch, ok := sess.Pty(); ok {
		// The terminal request's size, which the SSH library queued for
		// the middleware, is taken here: the middleware would send it
		// after the program started, over a size reported since.
		select {
		case <-winch:
		default:
		}
		w, h := pty.Window.Width, pty.Window.Height
		if m := cs.reported(); m != nil {
			w, h = m.Width, m.Height
		}
		if w <= 0 || h <= 0 {
			w, h = 80, 24
		}
		opts = append(opts, tea.WithWindowSize(min(w, MaxWindowWidth), min(h, MaxWindowHeight)))
	}
	p := tea.NewProgram(ps.model, opts...)
	cs.forwardWindows(ps.ctx, p)
	return p
}

// MaxWindowWidth and MaxWindowHeight bound the window a served program
// draws in, in terminal cells: a client reporting a larger one (a real
// terminal is rarely past 600 columns by 200 rows) is drawn at this size,
// so that one connection cannot make the server hold a screen buffer of
// gigabytes (the renderer keeps every cell of the window).
const (
	MaxWindowWidth  = 1024
	MaxWindowHeight = 256
)

// sessionFilter is a served program's message filter. It drops a window
// size without area (the 0x0 that a client without a terminal of its
// own reports: the renderer would then draw nothing, ever), bounds a larger one than
// MaxWindowWidth by MaxWindowHeight to that size, and turns a suspend
// into a resume, as the middleware's own filter (which this one
// replaces) does, since a served program cannot stop its client.
func sessionFilter(_ tea.Model, msg tea.Msg) tea.Msg {
	switch m := msg.(type) {
	case tea.WindowSizeMsg:
		if m.Width <= 0 || m.Height <= 0 {
			return nil
		}
		return tea.WindowSizeMsg{Width: min(m.Width, MaxWindowWidth), Height: min(m.Height, MaxWindowHeight)}
	case tea.SuspendMsg:
		return tea.ResumeMsg{}
	}
	return msg
}

// activity wraps a served program's model: every key and window change
// marks the seat as active (the takeover rule).
type activity struct {
	tea.Model
	seat *seat
	now  func() time.Time
}

// Update implements tea.Model.
func (a *activity) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg.(type) {
	case tea.KeyPressMsg, tea.WindowSizeMsg, tea.PasteMsg:
		a.seat.touch(a.now())
	}
	m, cmd := a.Model.Update(msg)
	a.Model = m
	return a, cmd
}

// takeSeat gives id the one live connection of its person, or refuses
// (ReasonSeatTaken) naming who holds it. A holder silent for
// TakeoverAfter is ended (its program stops, and its connection is
// closed when the program has not ended within seatRelease, as when it
// is stuck writing to a client that reads nothing; everything it saved
// stays) and the seat passes to the new connection.
func (s *Server) takeSeat(id Identity, remote string, drop func()) (*seat, error) {
	now := s.cfg.Now()
	s.mu.Lock()
	old := s.seats[id.Name]
	if old != nil {
		idle := now.Sub(time.Unix(0, old.last.Load()))
		if idle < s.cfg.TakeoverAfter {
			s.mu.Unlock()
			return nil, &verr.Error{Reason: ReasonSeatTaken, Detail: fmt.Sprintf(
				"%s is already connected from %s since %s UTC (last key %s ago); one connection per person: leave that one with q, or it is taken over once it has been silent for %s",
				id.Name, old.remote, old.since.UTC().Format("15:04:05"), idle.Truncate(time.Second), s.cfg.TakeoverAfter)}
		}
		old.note.Store(fmt.Sprintf("this connection was silent for %s and was taken over by a new connection from %s; everything saved is kept", idle.Truncate(time.Second), remote))
		if old.cancel != nil {
			old.cancel()
		}
		s.mu.Unlock()
		select {
		case <-old.done:
		case <-time.After(seatRelease):
			// Its program is stuck writing to a client that reads
			// nothing: the connection is closed, which ends the write.
			old.drop()
			select {
			case <-old.done:
			case <-time.After(30 * time.Second):
				return nil, &verr.Error{Reason: ReasonSeatTaken, Detail: "the silent connection of " + id.Name + " did not end within 30 s; try again"}
			}
		}
		s.logf("%s: connection from %s taken over by %s after %s of silence", id.Name, old.remote, remote, idle.Truncate(time.Second))
		s.mu.Lock()
		if s.seats[id.Name] != nil {
			s.mu.Unlock()
			return nil, &verr.Error{Reason: ReasonSeatTaken, Detail: id.Name + " connected again meanwhile; try again"}
		}
	}
	st := &seat{id: id, remote: remote, since: now, done: make(chan struct{}), drop: drop}
	st.touch(now)
	s.seats[id.Name] = st
	s.mu.Unlock()
	return st, nil
}

func (s *Server) releaseSeat(st *seat) {
	s.mu.Lock()
	if s.seats[st.id.Name] == st {
		delete(s.seats, st.id.Name)
	}
	s.mu.Unlock()
	close(st.done)
}

// connected reports whether name holds a seat now.
func (s *Server) connected(name string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.seats[name] != nil
}

// reconnect is the exact command that reconnects name to this server with
// agent forwarding.
func (s *Server) reconnect(sess ssh.Session, name string) string {
	host, port, err := net.SplitHostPort(sess.LocalAddr().String())
	if err != nil {
		host, port = sess.LocalAddr().String(), "22"
	}
	if s.cfg.Host != "" {
		host = s.cfg.Host
	}
	if ip := net.ParseIP(host); ip != nil && ip.To4() == nil {
		host = "[" + host + "]"
	}
	cmd := "ssh -A"
	if p, _ := strconv.Atoi(port); p != 22 {
		cmd += " -p " + port
	}
	return cmd + " " + name + "@" + host
}

// agentSigner returns a signer for key through the session's forwarded
// SSH agent (an auth-agent@openssh.com channel to the client) and a
// function that closes the channel. It refuses (ReasonNoAgent) when the
// client forwards no agent or the agent does not hold key.
func (s *Server) agentSigner(sess ssh.Session, key gossh.PublicKey, name string) (gossh.Signer, func(), error) {
	if !ssh.AgentRequested(sess) {
		return nil, nil, &verr.Error{Reason: ReasonNoAgent, Detail: "no forwarded SSH agent; leave with q and reconnect with: " + s.reconnect(sess, name)}
	}
	conn, _ := sess.Context().Value(ssh.ContextKeyConn).(gossh.Conn)
	if conn == nil {
		return nil, nil, &verr.Error{Reason: ReasonNoAgent, Detail: "no SSH connection"}
	}
	ch, reqs, err := conn.OpenChannel("auth-agent@openssh.com", nil)
	if err != nil {
		return nil, nil, &verr.Error{Reason: ReasonNoAgent, Detail: "the forwarded agent cannot be reached: " + err.Error() + "; reconnect with: " + s.reconnect(sess, name), Err: err}
	}
	go gossh.DiscardRequests(reqs)
	signers, err := agent.NewClient(ch).Signers()
	if err != nil {
		ch.Close()
		return nil, nil, &verr.Error{Reason: ReasonNoAgent, Detail: "the forwarded agent: " + err.Error(), Err: err}
	}
	want := string(key.Marshal())
	for _, sg := range signers {
		if string(sg.PublicKey().Marshal()) == want {
			return sg, func() { ch.Close() }, nil
		}
	}
	ch.Close()
	return nil, nil, &verr.Error{Reason: ReasonNoAgent, Detail: fmt.Sprintf("the forwarded agent does not hold the key you connected with (%s); ssh-add it and reconnect with: %s", adjudication.Fingerprint(key), s.reconnect(sess, name))}
}
