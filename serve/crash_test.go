package serve_test

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"

	"verdict/adjudication"
	"verdict/blinding"
)

// TestServeChild is the server process the crash tests kill: it serves
// $VERDICT_SERVE_CHILD_DIR on a loopback port, prints the address and
// runs until it is killed. It does nothing in a normal test run.
func TestServeChild(t *testing.T) {
	dir := os.Getenv("VERDICT_SERVE_CHILD_DIR")
	if dir == "" {
		t.Skip("helper process of the crash tests")
	}
	ts := startServer(t, dir, nil)
	fmt.Printf("ADDR %s\n", ts.addr)
	select {}
}

// serverProcess starts TestServeChild on dir in a new process and
// returns it with a testServer that dials it.
func serverProcess(t testing.TB, dir string) (*exec.Cmd, *testServer) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestServeChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), "VERDICT_SERVE_CHILD_DIR="+dir)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	sc := bufio.NewScanner(out)
	addr := ""
	for sc.Scan() {
		if a, ok := strings.CutPrefix(sc.Text(), "ADDR "); ok {
			addr = a
			break
		}
	}
	if addr == "" {
		t.Fatal("the server process printed no address")
	}
	go func() {
		for sc.Scan() {
		}
	}()
	data, err := os.ReadFile(filepath.Join(filepath.Dir(dir), "host_key"))
	if err != nil {
		t.Fatal(err)
	}
	hk, err := ssh.ParsePrivateKey(data)
	if err != nil {
		t.Fatal(err)
	}
	return cmd, &testServer{addr: addr, hostKey: hk.PublicKey(), dir: dir}
}

// kill9 kills the server process with SIGKILL: no deferred function, no
// Close, no flush runs.
func kill9(t *testing.T, cmd *exec.Cmd) {
	t.Helper()
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
}

// TestKill9DuringGrading kills the server process while a rater grades:
// every grade the journal saved is there, the journal opens, and a new
// server resumes the rater at the next field; the sheet then freezes and
// verifies.
func TestKill9DuringGrading(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("SIGKILL")
	}
	dir := writeRatingsDir(t)
	left := prefill(t, dir, "ann", 1)
	cmd, ts := serverProcess(t, dir)
	cl, err := dial(t, ts, fixtureKey(t, "ann"), dialOpts{pty: true})
	if err != nil {
		t.Fatal(err)
	}
	base := graded(t, dir, "ann")
	waitFor(t, "the first frame", func() bool { return strings.Contains(cl.screen(), "fields") })
	cl.keys(t, "\x1b", "1", "1")
	waitFor(t, "two grades", func() bool { return graded(t, dir, "ann") == base+2 })
	kill9(t, cmd)
	if n := graded(t, dir, "ann"); n != base+2 {
		t.Fatalf("after kill -9: %d graded, want %d", n, base+2)
	}
	_, ts2 := serverProcess(t, dir)
	cl2, err := dial(t, ts2, fixtureKey(t, "ann"), dialOpts{pty: true, agent: true})
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the resumed frame", func() bool { return strings.Contains(cl2.screen(), "fields") })
	cl2.keys(t, "\x1b")
	for i := 3; i <= left; i++ {
		cl2.keys(t, "1")
		waitFor(t, "grade saved", func() bool { return graded(t, dir, "ann") >= base+i })
	}
	cl2.keys(t, "F", "y")
	waitFor(t, "the sheet", func() bool { _, err := os.Stat(filepath.Join(dir, "sheet-ann.json")); return err == nil })
	mustVerify(t, dir)
}

// mustVerify checks that sheet-ann.json and its .sig verify.
func mustVerify(t *testing.T, dir string) {
	t.Helper()
	f, err := adjudication.ReadRecordFile(filepath.Join(dir, "sheet-ann.json"))
	if err != nil {
		t.Fatal(err)
	}
	as, err := adjudication.LoadAllowedSigners(filepath.Join(dir, "allowed_signers"))
	if err != nil {
		t.Fatal(err)
	}
	if ch := adjudication.Verify(as, []adjudication.RecordFile{f}, adjudication.VerifyOptions{})[0]; !ch.OK {
		t.Fatalf("sheet does not verify: %s %s", ch.Reason, ch.Detail)
	}
}

// TestKill9DuringFreeze kills the server process at several instants
// after the rater confirmed the freeze: each time there is either no
// sheet or a complete sheet with a verifying signature (the invariant of
// a local freeze), and the journal still opens.
func TestKill9DuringFreeze(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("SIGKILL")
	}
	outcomes := map[string]int{}
	for _, delay := range []time.Duration{0, 20 * time.Millisecond, 80 * time.Millisecond, 250 * time.Millisecond, time.Second} {
		dir := writeRatingsDir(t)
		prefill(t, dir, "ann", 0)
		cmd, ts := serverProcess(t, dir)
		cl, err := dial(t, ts, fixtureKey(t, "ann"), dialOpts{pty: true, agent: true})
		if err != nil {
			t.Fatal(err)
		}
		waitFor(t, "the first frame", func() bool { return strings.Contains(cl.screen(), "fields") })
		cl.keys(t, "\x1b", "F")
		cl.in.Write([]byte("y"))
		time.Sleep(delay)
		kill9(t, cmd)
		sheet := filepath.Join(dir, "sheet-ann.json")
		if _, err := os.Stat(sheet); err == nil {
			mustVerify(t, dir)
			outcomes["complete pair"]++
		} else {
			outcomes["no sheet"]++
		}
		b, _, err := blinding.LoadBundle(filepath.Join(dir, "bundle-ann.json"))
		if err != nil {
			t.Fatal(err)
		}
		j, err := adjudication.Open(filepath.Join(dir, "bundle-ann.journal.jsonl"), b)
		if err != nil {
			t.Fatalf("journal after kill -9 during freeze: %v", err)
		}
		j.Close()
	}
	t.Logf("kill -9 during freeze: %v", outcomes)
}
