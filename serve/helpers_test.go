package serve_test

import (
	"bytes"
	"cmp"
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/agent"

	"verdict/adjudication"
	"verdict/blinding"
	"verdict/internal/synth"
	"verdict/serve"
)

// keysDir holds the TEST ONLY fixture keys (ann and bob rate, cho
// adjudicates, dee coordinates).
const keysDir = "../fixtures/keys"

// writeRatingsDir writes a SYNTHETIC served directory: the bundles of ann
// and bob and an allowed_signers file with the fixture keys plus extra
// lines.
func writeRatingsDir(t testing.TB, extra ...string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "ratings")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	res, err := blinding.Build(synth.Campaign(), blinding.Options{Key: synth.Key, Raters: []string{"ann", "bob"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range res.Bundles {
		data, err := blinding.MarshalCanonical(b)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "bundle-"+b.Rater+".json"), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	as, err := os.ReadFile(filepath.Join(keysDir, "allowed_signers"))
	if err != nil {
		t.Fatal(err)
	}
	as = append(as, []byte(strings.Join(extra, "\n")+"\n")...)
	if err := os.WriteFile(filepath.Join(dir, "allowed_signers"), as, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// fixtureKey returns the TEST ONLY private key of name (ann, bob, cho, dee).
func fixtureKey(t testing.TB, name string) any {
	t.Helper()
	file := map[string]string{"ann": "rater-ann", "bob": "rater-bob", "cho": "adjudicator-cho", "dee": "coordinator-dee"}[name]
	data, err := os.ReadFile(filepath.Join(keysDir, file))
	if err != nil {
		t.Fatal(err)
	}
	k, err := ssh.ParseRawPrivateKey(data)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// newKey returns a fresh ed25519 private key and its authorized_keys line.
func newKey(t testing.TB) (ed25519.PrivateKey, string) {
	t.Helper()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	s, err := ssh.NewSignerFromKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	return priv, strings.TrimSpace(string(ssh.MarshalAuthorizedKey(s.PublicKey())))
}

// testServer is a server on a loopback port.
type testServer struct {
	srv     *serve.Server
	addr    string
	hostKey ssh.PublicKey
	dir     string
	log     *syncBuffer
}

// startServer serves dir on 127.0.0.1 with a random port until the test ends.
func startServer(t testing.TB, dir string, opt func(*serve.Config)) *testServer {
	t.Helper()
	layout, err := serve.CheckServedDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	as, err := adjudication.LoadAllowedSigners(filepath.Join(dir, "allowed_signers"))
	if err != nil {
		t.Fatal(err)
	}
	hk, _, err := serve.HostKey(filepath.Join(filepath.Dir(dir), "host_key"))
	if err != nil {
		t.Fatalf("host key: %v", err)
	}
	log := &syncBuffer{}
	cfg := serve.Config{Layout: layout, Allowed: as, HostKey: hk, Log: log}
	if opt != nil {
		opt(&cfg)
	}
	srv, err := serve.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	t.Cleanup(func() {
		srv.Close()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Error("server did not stop")
		}
	})
	return &testServer{srv: srv, addr: ln.Addr().String(), hostKey: hk.PublicKey(), dir: dir, log: log}
}

// syncBuffer is a bytes.Buffer safe for concurrent writes and reads.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
	// notify, when set, gets a token after every write (never blocks).
	notify chan struct{}
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.notify != nil {
		select {
		case s.notify <- struct{}{}:
		default:
		}
	}
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// client is one SSH connection with an interactive session on a PTY.
type client struct {
	c      *ssh.Client
	s      *ssh.Session
	in     io.WriteCloser
	out    *syncBuffer
	errOut *syncBuffer
	banner string
	exit   chan error
}

// dialOpts choose how a test client connects.
type dialOpts struct {
	user  string
	agent bool // forward an in-memory agent holding the key
	pty   bool
	// cols and rows are the terminal's size (0: 120 by 40).
	cols, rows int
	noShell    bool
}

// dial connects with key as user over a real SSH client
// (golang.org/x/crypto/ssh) checking the server's host key; with agent
// forwarding, the key is held by an in-memory agent (agent.NewKeyring).
func dial(t testing.TB, ts *testServer, key any, o dialOpts) (*client, error) {
	t.Helper()
	signer, err := ssh.NewSignerFromKey(key)
	if err != nil {
		t.Fatal(err)
	}
	cl := &client{out: &syncBuffer{notify: make(chan struct{}, 1)}, errOut: &syncBuffer{}, exit: make(chan error, 1)}
	var auth ssh.AuthMethod = ssh.PublicKeys(signer)
	ring := agent.NewKeyring()
	if o.agent {
		if err := ring.Add(agent.AddedKey{PrivateKey: key}); err != nil {
			t.Fatal(err)
		}
		auth = ssh.PublicKeysCallback(ring.Signers)
	}
	if o.user == "" {
		o.user = "someone"
	}
	cfg := &ssh.ClientConfig{User: o.user, Auth: []ssh.AuthMethod{auth}, HostKeyCallback: ssh.FixedHostKey(ts.hostKey),
		BannerCallback: func(m string) error { cl.banner += m; return nil }, Timeout: 10 * time.Second}
	c, err := ssh.Dial("tcp", ts.addr, cfg)
	if err != nil {
		return cl, err
	}
	cl.c = c
	t.Cleanup(func() { c.Close() })
	if o.agent {
		if err := agent.ForwardToAgent(c, ring); err != nil {
			t.Fatal(err)
		}
	}
	if o.noShell {
		return cl, nil
	}
	s, err := c.NewSession()
	if err != nil {
		return cl, err
	}
	cl.s = s
	if o.agent {
		if err := agent.RequestAgentForwarding(s); err != nil {
			t.Fatal(err)
		}
	}
	if o.pty {
		cols, rows := cmp.Or(o.cols, 120), cmp.Or(o.rows, 40)
		if err := s.RequestPty("xterm-256color", rows, cols, ssh.TerminalModes{}); err != nil {
			t.Fatal(err)
		}
	}
	if cl.in, err = s.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	s.Stdout, s.Stderr = cl.out, cl.errOut
	if err := s.Shell(); err != nil {
		return cl, err
	}
	go func() { cl.exit <- s.Wait() }()
	return cl, nil
}

// keys types keys, pausing after each so that every key is its own read.
func (cl *client) keys(t testing.TB, keys ...string) {
	t.Helper()
	for _, k := range keys {
		if _, err := io.WriteString(cl.in, k); err != nil {
			t.Fatal(err)
		}
		// A lone ESC is told from the start of an escape sequence by
		// the pause after it.
		if k == "\x1b" {
			time.Sleep(250 * time.Millisecond)
		} else {
			time.Sleep(20 * time.Millisecond)
		}
	}
}

// screen is everything the session printed, with escape sequences removed.
func (cl *client) screen() string {
	return ansi.Strip(cl.out.String()) + ansi.Strip(cl.errOut.String())
}

// waitExit waits for the session to end and returns its exit status.
func (cl *client) waitExit(t testing.TB) int {
	t.Helper()
	select {
	case err := <-cl.exit:
		var ee *ssh.ExitError
		if errors.As(err, &ee) {
			return ee.ExitStatus()
		}
		if err != nil {
			return -1
		}
		return 0
	case <-time.After(20 * time.Second):
		t.Fatal("session did not end")
		return -1
	}
}

// waitFor polls cond until it holds (at most 30 s).
func waitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// journalOf reads rater's journal snapshot.
func journalOf(t testing.TB, dir, rater string) *adjudication.Journal {
	t.Helper()
	b, _, err := blinding.LoadBundle(filepath.Join(dir, "bundle-"+rater+".json"))
	if err != nil {
		t.Fatal(err)
	}
	j, err := adjudication.ReadJournal(filepath.Join(dir, "bundle-"+rater+".journal.jsonl"), b)
	if err != nil {
		t.Fatal(err)
	}
	return j
}

// graded is the number of required fields graded in rater's journal.
func graded(t testing.TB, dir, rater string) int {
	t.Helper()
	return len(journalOf(t, dir, rater).State().Grades)
}

// prefill grades every required field of rater's bundle except those of
// the first `leave` items, through the journal (as verdict grade --from
// does), and returns the number of fields left.
func prefill(t testing.TB, dir, rater string, leave int) int {
	t.Helper()
	b, _, err := blinding.LoadBundle(filepath.Join(dir, "bundle-"+rater+".json"))
	if err != nil {
		t.Fatal(err)
	}
	j, err := adjudication.Open(filepath.Join(dir, "bundle-"+rater+".journal.jsonl"), b)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	var gs []adjudication.Grade
	left := 0
	skip := map[string]bool{}
	for i := 0; i < leave; i++ {
		skip[b.Items[i].ID] = true
	}
	for _, f := range adjudication.BundleFields(b) {
		if skip[f.Item] {
			left++
			continue
		}
		gs = append(gs, adjudication.Grade{Field: f, Value: adjudication.AllowedValues(f.Kind)[0], Spent: time.Second})
	}
	if _, err := j.AppendBatch(gs); err != nil {
		t.Fatal(err)
	}
	return left
}
