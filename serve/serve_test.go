package serve_test

import (
	"bytes"
	"errors"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"golang.org/x/crypto/ssh"

	"verdict/adjudication"
	"verdict/serve"
)

// gradeFirstItem leaves the task screen and grades the first item's
// fields (left of them) with the first value, waiting for each grade to
// be in the journal.
func gradeFirstItem(t *testing.T, cl *client, dir string, left int) {
	t.Helper()
	base := graded(t, dir, "ann")
	waitFor(t, "the first frame", func() bool { return strings.Contains(cl.screen(), "fields") })
	cl.keys(t, "\x1b")
	for i := 1; i <= left; i++ {
		cl.keys(t, "1")
		waitFor(t, "grade saved", func() bool { return graded(t, dir, "ann") >= base+i })
	}
}

// TestRateAndFreezeOverSSH grades a whole item over SSH and freezes: the
// sheet is signed by the rater's key through the forwarded in-memory
// agent, verifies with adjudication.Verify (verdict verify) and with
// ssh-keygen -Y verify, and status reports it frozen with its digest.
func TestRateAndFreezeOverSSH(t *testing.T) {
	dir := writeRatingsDir(t)
	left := prefill(t, dir, "ann", 1)
	ts := startServer(t, dir, nil)
	cl, err := dial(t, ts, fixtureKey(t, "ann"), dialOpts{agent: true, pty: true})
	if err != nil {
		t.Fatal(err)
	}
	gradeFirstItem(t, cl, dir, left)
	cl.keys(t, "F", "y")
	sheet := filepath.Join(dir, "sheet-ann.json")
	waitFor(t, "the sheet", func() bool { _, err := os.Stat(sheet); return err == nil })
	cl.keys(t, "\x1b", "q")
	if st := cl.waitExit(t); st != 0 {
		t.Fatalf("exit status %d", st)
	}
	f, err := adjudication.ReadRecordFile(sheet)
	if err != nil {
		t.Fatal(err)
	}
	as, _ := adjudication.LoadAllowedSigners(filepath.Join(dir, "allowed_signers"))
	ch := adjudication.Verify(as, []adjudication.RecordFile{f}, adjudication.VerifyOptions{})[0]
	if !ch.OK || ch.Kind != "sheet" || ch.Signer.Name != "ann" {
		t.Fatalf("sheet does not verify: %+v", ch)
	}
	if kg, err := exec.LookPath("ssh-keygen"); err == nil {
		cmd := exec.Command(kg, "-Y", "verify", "-f", filepath.Join(dir, "allowed_signers"), "-I", "ann", "-n", adjudication.NamespaceRating, "-s", sheet+".sig")
		cmd.Stdin = bytes.NewReader(f.Data)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("ssh-keygen -Y verify: %v\n%s", err, out)
		}
	}
	layout, _ := serve.ReadLayout(dir)
	rep := serve.Status(layout, as, nil)
	if a := rep.Raters[0]; !a.Frozen || a.SheetSHA256 != ch.SHA256 || a.Graded != a.Required || a.ItemsDone != a.Items {
		t.Fatalf("status of ann: %+v", a)
	}
	// Connecting again after the freeze ends with one line, no screen.
	cl2, err := dial(t, ts, fixtureKey(t, "ann"), dialOpts{agent: true, pty: true})
	if err != nil {
		t.Fatal(err)
	}
	if st := cl2.waitExit(t); st != 0 || !strings.Contains(cl2.screen(), "frozen and signed") {
		t.Fatalf("after freeze: status %d, %q", st, cl2.screen())
	}
}

// TestFreezeWithoutAgent: grading works without agent forwarding and the
// freeze screen refuses with the exact command that reconnects with one.
func TestFreezeWithoutAgent(t *testing.T) {
	dir := writeRatingsDir(t)
	left := prefill(t, dir, "ann", 1)
	ts := startServer(t, dir, nil)
	cl, err := dial(t, ts, fixtureKey(t, "ann"), dialOpts{pty: true})
	if err != nil {
		t.Fatal(err)
	}
	gradeFirstItem(t, cl, dir, left)
	cl.keys(t, "F", "y")
	_, port, _ := strings.Cut(ts.addr, ":")
	want := "ssh -A -p " + port + " ann@127.0.0.1"
	waitFor(t, "the refusal naming "+want, func() bool { return strings.Contains(strings.ReplaceAll(cl.screen(), "\n", ""), want) })
	cl.keys(t, "\x1b", "q")
	cl.waitExit(t)
	if _, err := os.Stat(filepath.Join(dir, "sheet-ann.json")); err == nil {
		t.Fatal("a sheet was written without an agent")
	}
}

// TestRefusals: every way in that item 2 of the issue refuses.
func TestRefusals(t *testing.T) {
	gusKey, noRoleLine := newKey(t)
	noRole := "gus " + noRoleLine
	eveKey, eveLine := newKey(t)
	dir := writeRatingsDir(t, noRole, `eve namespaces="verdict-rating" `+eveLine)
	ts := startServer(t, dir, nil)

	stranger, _ := newKey(t)
	if _, err := dial(t, ts, stranger, dialOpts{pty: true}); err == nil {
		t.Fatal("unknown key: connected")
	} else if cl, _ := dial(t, ts, stranger, dialOpts{pty: true}); !strings.Contains(cl.banner, "unknown-key") {
		t.Fatalf("unknown key: banner %q", cl.banner)
	}
	// A key with a line but no verdict namespace has no role.
	if cl, err := dial(t, ts, gusKey, dialOpts{pty: true}); err == nil || !strings.Contains(cl.banner, "no-role") {
		t.Fatalf("no role: err %v banner %q", err, cl.banner)
	}
	// The adjudicator's key asking for a rater's screen.
	if cl, err := dial(t, ts, fixtureKey(t, "cho"), dialOpts{user: "ann", pty: true}); err == nil || !strings.Contains(cl.banner, "other-principal") {
		t.Fatalf("cho as ann: err %v banner %q", err, cl.banner)
	}
	// ann's key presented as bob: another rater's bundle.
	cl, err := dial(t, ts, fixtureKey(t, "ann"), dialOpts{user: "bob", pty: true})
	if err == nil || !strings.Contains(cl.banner, "other-principal") {
		t.Fatalf("ann as bob: err %v banner %q", err, cl.banner)
	}
	// A rater whose bundle is absent: one line, exit 1, no screen.
	cl, err = dial(t, ts, eveKey, dialOpts{pty: true})
	if err != nil {
		t.Fatal(err)
	}
	if st := cl.waitExit(t); st != 1 || !strings.Contains(cl.screen(), "no bundle for rater eve") {
		t.Fatalf("eve: status %d %q", st, cl.screen())
	}
	// Password authentication is not offered.
	cfg := &ssh.ClientConfig{User: "ann", Auth: []ssh.AuthMethod{ssh.Password("x")}, HostKeyCallback: ssh.FixedHostKey(ts.hostKey), Timeout: 5 * time.Second}
	if c, err := ssh.Dial("tcp", ts.addr, cfg); err == nil {
		c.Close()
		t.Fatal("password: connected")
	}
	// exec, subsystems (SFTP), port forwarding are refused.
	cl, err = dial(t, ts, fixtureKey(t, "ann"), dialOpts{noShell: true})
	if err != nil {
		t.Fatal(err)
	}
	// A command is refused with one line that says so, and runs nothing.
	s, _ := cl.c.NewSession()
	if out, err := s.CombinedOutput("cat bundle-bob.json"); err == nil || !strings.HasPrefix(string(out), "verdict serve: refused: verdict serve runs no commands") || !strings.Contains(string(out), "(command-refused)") || strings.Count(string(out), "\n") != 1 {
		t.Fatalf("exec: err %v out %q", err, out)
	}
	s, _ = cl.c.NewSession()
	if err := s.RequestSubsystem("sftp"); err == nil {
		t.Fatal("sftp subsystem accepted")
	}
	if c, err := cl.c.Dial("tcp", "127.0.0.1:9"); err == nil {
		c.Close()
		t.Fatal("local port forwarding accepted")
	}
	if l, err := cl.c.Listen("tcp", "127.0.0.1:0"); err == nil {
		l.Close()
		t.Fatal("remote port forwarding accepted")
	}
	// A shell without a terminal is refused with one line.
	s, _ = cl.c.NewSession()
	var stderr bytes.Buffer
	s.Stderr = &stderr
	if err := s.Shell(); err != nil {
		t.Fatal(err)
	}
	if err := s.Wait(); err == nil || !strings.Contains(stderr.String(), "needs a terminal") {
		t.Fatalf("no pty: %v %q", err, stderr.String())
	}
	// One live connection per rater: the second is told who holds it.
	first, err := dial(t, ts, fixtureKey(t, "bob"), dialOpts{pty: true})
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, "bob's screen", func() bool { return strings.Contains(first.screen(), "fields") })
	second, err := dial(t, ts, fixtureKey(t, "bob"), dialOpts{pty: true})
	if err != nil {
		t.Fatal(err)
	}
	if st := second.waitExit(t); st != 1 || !strings.Contains(second.screen(), "bob is already connected from 127.0.0.1") {
		t.Fatalf("second connection: %d %q", st, second.screen())
	}
	// The adjudicator waits for both sheets; the coordinator sees counts.
	adj, err := dial(t, ts, fixtureKey(t, "cho"), dialOpts{pty: true})
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the waiting screen", func() bool { return strings.Contains(adj.screen(), "waiting for the sheet of ann") })
	co, err := dial(t, ts, fixtureKey(t, "dee"), dialOpts{pty: true})
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the status screen", func() bool { return strings.Contains(co.screen(), "rater bob: grading · connected") })
}

// TestIdentifyNoRole: a key whose line allows no verdict namespace is
// refused (no-role), and one listed for two roles is ambiguous.
func TestIdentifyNoRole(t *testing.T) {
	_, line := newKey(t)
	as, err := adjudication.ParseAllowedSigners("allowed_signers", []byte("gus "+line+"\nhal namespaces=\"verdict-rating,verdict-adjudication\" "+line+"\n"))
	if err != nil {
		t.Fatal(err)
	}
	key := as[0].Key
	if _, err := serve.Identify(as, key, "gus"); err == nil || !strings.Contains(err.Error(), "no-role") {
		t.Fatalf("gus: %v", err)
	}
	if _, err := serve.Identify(as, key, "hal"); err == nil || !strings.Contains(err.Error(), "ambiguous-identity") {
		t.Fatalf("hal: %v", err)
	}
	if _, err := serve.Identify(as, key, "x"); err == nil || !strings.Contains(err.Error(), "ambiguous-identity") {
		t.Fatalf("x: %v", err)
	}
}

// TestDropMidItemResumes: a connection dropped in the middle of an item
// loses no saved grade, and the next connection resumes at the next
// ungraded field of the same item.
func TestDropMidItemResumes(t *testing.T) {
	dir := writeRatingsDir(t)
	prefill(t, dir, "ann", 1)
	ts := startServer(t, dir, nil)
	cl, err := dial(t, ts, fixtureKey(t, "ann"), dialOpts{pty: true})
	if err != nil {
		t.Fatal(err)
	}
	base := graded(t, dir, "ann")
	waitFor(t, "the first frame", func() bool { return strings.Contains(cl.screen(), "fields") })
	cl.keys(t, "\x1b", "1", "2")
	waitFor(t, "two grades", func() bool { return graded(t, dir, "ann") == base+2 })
	before := journalOf(t, dir, "ann").Entries()
	cl.c.Close() // the laptop lid closes: no q, no goodbye
	// The server notices, closes the journal and frees the seat.
	var again *client
	waitFor(t, "a new connection", func() bool {
		c, err := dial(t, ts, fixtureKey(t, "ann"), dialOpts{pty: true})
		if err != nil {
			t.Fatal(err)
		}
		select {
		case <-c.exit:
			return false
		case <-time.After(300 * time.Millisecond):
		}
		again = c
		return true
	})
	waitFor(t, "the resumed frame", func() bool { return strings.Contains(again.screen(), "fields") })
	again.keys(t, "\x1b", "1")
	waitFor(t, "the third grade", func() bool { return graded(t, dir, "ann") == base+3 })
	after := journalOf(t, dir, "ann").Entries()
	for i := range before {
		if before[i] != after[i] {
			t.Fatalf("entry %d changed after the drop", i)
		}
	}
	// The resumed grade is the item's third field, not a regrade.
	if after[len(after)-1].Item != before[len(before)-1].Item || after[len(after)-1].Target == before[len(before)-1].Target && after[len(after)-1].Kind == before[len(before)-1].Kind {
		t.Fatalf("resumed at %+v after %+v", after[len(after)-1], before[len(before)-1])
	}
}

// TestTakeoverAfterSilence: a second connection takes over a first that
// has been silent for TakeoverAfter; the first is told why.
func TestTakeoverAfterSilence(t *testing.T) {
	dir := writeRatingsDir(t)
	ts := startServer(t, dir, func(c *serve.Config) { c.TakeoverAfter = 300 * time.Millisecond })
	first, err := dial(t, ts, fixtureKey(t, "ann"), dialOpts{pty: true})
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, "ann's screen", func() bool { return strings.Contains(first.screen(), "fields") })
	time.Sleep(400 * time.Millisecond)
	second, err := dial(t, ts, fixtureKey(t, "ann"), dialOpts{pty: true})
	if err != nil {
		t.Fatal(err)
	}
	first.waitExit(t)
	if !strings.Contains(first.screen(), "taken over by a new connection") {
		t.Fatalf("first: %q", first.screen())
	}
	waitFor(t, "the second screen", func() bool { return strings.Contains(second.screen(), "fields") })
}

// TestEmptyWindowKeepsDrawing: a client that reports a window without
// area (0x0, as ssh -tt without a terminal of its own does) keeps the
// last size: the screen is still drawn after the change.
func TestEmptyWindowKeepsDrawing(t *testing.T) {
	dir := writeRatingsDir(t)
	ts := startServer(t, dir, nil)
	cl, err := dial(t, ts, fixtureKey(t, "ann"), dialOpts{agent: true, pty: true})
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the first frame", func() bool { return strings.Contains(cl.screen(), "fields") })
	cl.keys(t, "\x1b")
	if err := cl.s.WindowChange(0, 0); err != nil {
		t.Fatal(err)
	}
	time.Sleep(200 * time.Millisecond)
	mark := len(cl.out.String())
	cl.keys(t, "?")
	waitFor(t, "a frame after the 0x0 window", func() bool {
		return strings.Contains(ansi.Strip(cl.out.String()[mark:]), "help")
	})
	cl.keys(t, "q")
	cl.waitExit(t)
}

// TestLargeWindowIsBounded: a client reporting a window larger than
// serve.MaxWindowWidth by serve.MaxWindowHeight, at connect or after, is
// drawn at that size: the rule above the footer spans the width drawn,
// and no row below the height drawn is addressed.
func TestLargeWindowIsBounded(t *testing.T) {
	dir := writeRatingsDir(t)
	ts := startServer(t, dir, nil)
	cl, err := dial(t, ts, fixtureKey(t, "ann"), dialOpts{agent: true, pty: true, cols: 3000, rows: 300})
	if err != nil {
		t.Fatal(err)
	}
	longestRule := func() int {
		longest, run := 0, 0
		for _, r := range ansi.Strip(cl.out.String()) {
			if r == '─' {
				run++
				longest = max(longest, run)
			} else {
				run = 0
			}
		}
		return longest
	}
	// The lowest row a cursor movement (CUP or VPA) addresses from mark on.
	rowMove := regexp.MustCompile(`\x1b\[(\d+)(?:;\d+)?[Hd]`)
	lowestRow := func(mark int) int {
		low := 0
		for _, m := range rowMove.FindAllStringSubmatch(cl.out.String()[mark:], -1) {
			n, _ := strconv.Atoi(m[1])
			low = max(low, n)
		}
		return low
	}
	waitFor(t, "the first frame", func() bool { return strings.Contains(cl.screen(), "fields") })
	if n := longestRule(); n != serve.MaxWindowWidth {
		t.Fatalf("a 3000-column window at connect is drawn %d columns wide, want %d", n, serve.MaxWindowWidth)
	}
	if n := lowestRow(0); n < serve.MaxWindowHeight-20 || n > serve.MaxWindowHeight {
		t.Fatalf("a 300-row window at connect: the footer is drawn on row %d, want one of the last rows of %d", n, serve.MaxWindowHeight)
	}
	// A change after connect to 1000 rows (100 columns).
	cl.keys(t, "\x1b")
	time.Sleep(300 * time.Millisecond)
	mark := len(cl.out.String())
	if err := cl.s.WindowChange(1000, 100); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "a frame after the change", func() bool { return lowestRow(mark) > 0 })
	time.Sleep(300 * time.Millisecond)
	if n := lowestRow(mark); n > serve.MaxWindowHeight {
		t.Fatalf("after a change to 1000 rows, row %d is drawn; want at most %d", n, serve.MaxWindowHeight)
	}
	cl.keys(t, "q")
	cl.waitExit(t)
}

// TestIdleConnectionsBounded: connections that never log in are closed
// after the handshake timeout, and past the limit of connections from one
// host a new one is closed at once; once the idle ones are gone, a rater
// connects and is served (a real client, golang.org/x/crypto/ssh).
func TestIdleConnectionsBounded(t *testing.T) {
	dir := writeRatingsDir(t)
	ts := startServer(t, dir, func(c *serve.Config) {
		c.LoginTimeout = time.Second
		c.MaxConnectionsPerHost = 3
	})
	// closedWithin reports whether the server closes c within d (EOF or a
	// reset; what it sent before, its version line, is read and dropped).
	closedWithin := func(c net.Conn, d time.Duration) bool {
		c.SetReadDeadline(time.Now().Add(d))
		_, err := io.Copy(io.Discard, c)
		var ne net.Error
		return !(errors.As(err, &ne) && ne.Timeout())
	}
	var idle []net.Conn
	for range 3 {
		c, err := net.Dial("tcp", ts.addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		idle = append(idle, c)
	}
	time.Sleep(100 * time.Millisecond)
	over, err := net.Dial("tcp", ts.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer over.Close()
	if !closedWithin(over, 500*time.Millisecond) {
		t.Error("a fourth connection from one host (limit 3) was kept open")
	}
	for i, c := range idle {
		if !closedWithin(c, 5*time.Second) {
			t.Errorf("idle connection %d was not closed after the 1 s handshake timeout", i+1)
		}
	}
	cl, err := dial(t, ts, fixtureKey(t, "ann"), dialOpts{agent: true, pty: true})
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the first frame", func() bool { return strings.Contains(cl.screen(), "fields") })
	cl.keys(t, "\x1b", "q")
	cl.waitExit(t)
}
