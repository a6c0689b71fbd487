package serve_test

import (
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"
)

// TestOpenSSHClient drives the server with the real ssh binary and a
// real ssh-agent (where installed): the rater grades a whole item with
// ssh -A -tt, the host key is checked against a known_hosts line, and
// the sheet is frozen and signed through the forwarded agent.
func TestOpenSSHClient(t *testing.T) {
	sshBin, err1 := exec.LookPath("ssh")
	agentBin, err2 := exec.LookPath("ssh-agent")
	addBin, err3 := exec.LookPath("ssh-add")
	if err1 != nil || err2 != nil || err3 != nil {
		t.Skip("ssh, ssh-agent or ssh-add not installed")
	}
	dir := writeRatingsDir(t)
	left := prefill(t, dir, "ann", 1)
	ts := startServer(t, dir, nil)
	work, err := os.MkdirTemp("", "vsh")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(work) })
	key := filepath.Join(work, "ann")
	data, _ := os.ReadFile(filepath.Join(keysDir, "rater-ann"))
	os.WriteFile(key, data, 0o600)
	host, port, _ := net.SplitHostPort(ts.addr)
	known := filepath.Join(work, "known_hosts")
	os.WriteFile(known, []byte(fmt.Sprintf("[%s]:%s %s", host, port, ssh.MarshalAuthorizedKey(ts.hostKey))), 0o600)
	sock := filepath.Join(work, "agent.sock")
	ag := exec.Command(agentBin, "-D", "-a", sock)
	if err := ag.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ag.Process.Kill(); ag.Wait() })
	waitFor(t, "ssh-agent", func() bool { _, err := os.Stat(sock); return err == nil })
	env := append(os.Environ(), "SSH_AUTH_SOCK="+sock)
	add := exec.Command(addBin, key)
	add.Env = env
	if out, err := add.CombinedOutput(); err != nil {
		t.Fatalf("ssh-add: %v %s", err, out)
	}
	cmd := exec.Command(sshBin, "-A", "-tt", "-p", port, "-F", "/dev/null",
		"-o", "UserKnownHostsFile="+known, "-o", "StrictHostKeyChecking=yes", "-o", "BatchMode=yes",
		"-o", "IdentitiesOnly=yes", "-i", key+".pub", "ann@"+host)
	os.WriteFile(key+".pub", []byte(strings.TrimSpace(string(ssh.MarshalAuthorizedKey(mustSigner(t, data).PublicKey())))+"\n"), 0o600)
	// A command is refused with verdict's one line, and nothing runs.
	run := exec.Command(sshBin, "-p", port, "-F", "/dev/null",
		"-o", "UserKnownHostsFile="+known, "-o", "StrictHostKeyChecking=yes", "-o", "BatchMode=yes",
		"-o", "IdentitiesOnly=yes", "-i", key+".pub", "ann@"+host, "cat", "bundle-bob.json")
	run.Env = env
	if b, err := run.CombinedOutput(); err == nil || !strings.Contains(string(b), "(command-refused)") || strings.Contains(string(b), "items") {
		t.Fatalf("ssh HOST cat: %v\n%s", err, b)
	}
	cmd.Env = append(env, "TERM=xterm-256color")
	in, _ := cmd.StdinPipe()
	out := &syncBuffer{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() { cmd.Process.Kill(); <-exited })
	cl := &client{in: in, out: out, errOut: &syncBuffer{}}
	// ssh is an outside program: when it ends or stays silent before the
	// first frame, say what it printed and what the server logged, so a
	// failure on another machine names its cause.
	deadline := time.After(30 * time.Second)
	for !strings.Contains(cl.screen(), "fields") {
		select {
		case err := <-exited:
			exited <- err
			t.Fatalf("ssh ended before the first frame (%v); it printed:\n%s\nserver log:\n%s", err, out.String(), ts.log.String())
		case <-deadline:
			t.Fatalf("no first frame from ssh in 30s; it printed:\n%q\nserver log:\n%s", out.String(), ts.log.String())
		case <-time.After(10 * time.Millisecond):
		}
	}
	gradeFirstItem(t, cl, dir, left)
	cl.keys(t, "F", "y")
	waitFor(t, "the sheet", func() bool { _, err := os.Stat(filepath.Join(dir, "sheet-ann.json")); return err == nil })
	mustVerify(t, dir)
	io.WriteString(in, "\x1b")
	time.Sleep(250 * time.Millisecond)
	io.WriteString(in, "q")
	select {
	case err := <-exited:
		exited <- err
	case <-time.After(20 * time.Second):
		t.Fatal("ssh did not end after q")
	}
}

func mustSigner(t *testing.T, pem []byte) ssh.Signer {
	t.Helper()
	s, err := ssh.ParsePrivateKey(pem)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
