package serve_test

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/agent"

	"verdict/serve"
)

// TestConnectionWithoutSession: a connection that logs in and starts no
// shell (no session, or a session channel without one) is closed after
// the login timeout (it would hold a connection slot for ever); so is a
// terminal request larger than 4096 bytes refused.
func TestConnectionWithoutSession(t *testing.T) {
	dir := writeRatingsDir(t)
	ts := startServer(t, dir, func(c *serve.Config) { c.LoginTimeout = time.Second })
	for _, withChannel := range []bool{false, true} {
		cl, err := dial(t, ts, fixtureKey(t, "ann"), dialOpts{noShell: true})
		if err != nil {
			t.Fatal(err)
		}
		if withChannel {
			s, err := cl.c.NewSession()
			if err != nil {
				t.Fatal(err)
			}
			if err := s.RequestPty(strings.Repeat("x", 5000), 40, 120, ssh.TerminalModes{}); err == nil {
				t.Error("a 5000-byte terminal request was accepted")
			}
		}
		closed := make(chan error, 1)
		go func() { closed <- cl.c.Wait() }()
		select {
		case <-closed:
		case <-time.After(10 * time.Second):
			t.Fatalf("a logged-in connection without a shell (session channel: %v) was kept open past the 1 s login timeout", withChannel)
		}
	}
}

// TestSessionRequestsBounded: a connection opens at most four sessions at
// once, a session takes at most 32 environment variables, and window
// changes sent before the shell neither block the session's requests
// nor outlive the connection (goroutines return to their count); the
// last size sent before the shell is the size the screen is drawn at.
func TestSessionRequestsBounded(t *testing.T) {
	dir := writeRatingsDir(t)
	ts := startServer(t, dir, nil)
	cl, err := dial(t, ts, fixtureKey(t, "ann"), dialOpts{noShell: true})
	if err != nil {
		t.Fatal(err)
	}
	var open []*ssh.Session
	for i := range 5 {
		s, err := cl.c.NewSession()
		if i < 4 && err != nil {
			t.Fatalf("session %d of 4: %v", i+1, err)
		}
		if i == 4 && err == nil {
			t.Error("a fifth session at once was accepted")
			s.Close()
		}
		if err == nil && i < 4 {
			open = append(open, s)
		}
	}
	envs := 0
	for i := range 100 {
		if open[0].Setenv(fmt.Sprintf("SYNTHETIC_%d", i), "x") == nil {
			envs++
		}
	}
	if envs != 32 {
		t.Errorf("%d environment variables accepted, want 32", envs)
	}
	for _, s := range open {
		s.Close()
	}
	cl.c.Close()

	// Window changes before the shell, on many connections.
	time.Sleep(200 * time.Millisecond)
	base := runtime.NumGoroutine()
	for range 20 {
		c, err := dial(t, ts, fixtureKey(t, "bob"), dialOpts{noShell: true})
		if err != nil {
			t.Fatal(err)
		}
		s, err := c.c.NewSession()
		if err != nil {
			t.Fatal(err)
		}
		if err := s.RequestPty("xterm-256color", 40, 120, ssh.TerminalModes{}); err != nil {
			t.Fatal(err)
		}
		for range 3 {
			s.WindowChange(30, 100)
		}
		c.c.Close()
	}
	deadline := time.Now().Add(10 * time.Second)
	for runtime.NumGoroutine() > base+10 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > base+10 {
		t.Errorf("%d goroutines after 20 closed connections that changed their window before the shell, %d before", n, base)
	}

	// The size sent before the shell is the one drawn.
	c, err := dial(t, ts, fixtureKey(t, "ann"), dialOpts{agent: true, noShell: true})
	if err != nil {
		t.Fatal(err)
	}
	s, _ := c.c.NewSession()
	agent.RequestAgentForwarding(s)
	s.RequestPty("xterm-256color", 40, 120, ssh.TerminalModes{})
	s.WindowChange(30, 100)
	out := &syncBuffer{}
	s.Stdout = out
	in, _ := s.StdinPipe()
	shell := make(chan error, 1)
	go func() { shell <- s.Shell() }()
	select {
	case err := <-shell:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the shell request got no answer after a window change before it (the session's requests are blocked)")
	}
	waitFor(t, "the first frame", func() bool { return strings.Contains(ansi.Strip(out.String()), "fields") })
	time.Sleep(200 * time.Millisecond)
	if n := strings.Count(ansi.Strip(out.String()), strings.Repeat("─", 100)); n == 0 || strings.Contains(ansi.Strip(out.String()), strings.Repeat("─", 101)) {
		t.Errorf("the screen is not drawn 100 columns wide after a window change to 100 before the shell: %q", ansi.Strip(out.String()))
	}
	in.Write([]byte("q"))
}
