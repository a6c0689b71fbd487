package adjudication_test

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/agent"

	"verdict/adjudication"
	"verdict/verr"
)

// shortTempDir returns a fresh directory with a short path: a unix socket
// path must fit in 108 bytes, which t.TempDir() does not promise.
func shortTempDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "vag")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

// serveKeyring serves an in-memory ssh-agent keyring holding keys on a
// unix socket and points SSH_AUTH_SOCK at it for the test.
func serveKeyring(t *testing.T, keys ...any) {
	t.Helper()
	ring := agent.NewKeyring()
	for _, k := range keys {
		if err := ring.Add(agent.AddedKey{PrivateKey: k}); err != nil {
			t.Fatal(err)
		}
	}
	sock := filepath.Join(shortTempDir(t), "agent.sock")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				agent.ServeAgent(ring, c)
			}()
		}
	}()
	t.Setenv("SSH_AUTH_SOCK", sock)
}

// fixturePrivateKey parses one of the TEST ONLY fixture keys.
func fixturePrivateKey(t *testing.T, name string) any {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(keysDir, name))
	if err != nil {
		t.Fatal(err)
	}
	k, err := ssh.ParseRawPrivateKey(data)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// sshKeygenVerify checks sig over data with the real `ssh-keygen -Y verify`
// against the fixture allowed_signers, as signer in namespace ns.
func sshKeygenVerify(t *testing.T, data, sig []byte, signer, ns string) {
	t.Helper()
	if _, err := exec.LookPath("ssh-keygen"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("ssh-keygen is required in CI: the signatures must be checked by the real program")
		}
		t.Skip("ssh-keygen not installed")
	}
	allowed, _ := filepath.Abs(filepath.Join(keysDir, "allowed_signers"))
	sigPath := filepath.Join(t.TempDir(), "record.sig")
	if err := os.WriteFile(sigPath, sig, 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("ssh-keygen", "-Y", "verify", "-f", allowed, "-I", signer, "-n", ns, "-s", sigPath)
	cmd.Stdin = bytes.NewReader(data)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("ssh-keygen -Y verify: %v\n%s", err, out)
	}
}

// TestLoadKeyThroughAgent signs with a key held only by an ssh-agent (the
// .pub file is passed, as `--key rater-ann.pub`), and the real ssh-keygen
// verifies the signature as ann's.
func TestLoadKeyThroughAgent(t *testing.T) {
	serveKeyring(t, fixturePrivateKey(t, "rater-bob"), fixturePrivateKey(t, "rater-ann"))
	pubPath := filepath.Join(keysDir, "rater-ann.pub")
	signer, err := adjudication.LoadKey(pubPath)
	if err != nil {
		t.Fatalf("LoadKey(%s) through the agent: %v", pubPath, err)
	}
	pubData, _ := os.ReadFile(pubPath)
	want, _, _, _, _ := ssh.ParseAuthorizedKey(pubData)
	if !bytes.Equal(signer.PublicKey().Marshal(), want.Marshal()) {
		t.Fatalf("agent signer has key %s, want ann's %s", adjudication.Fingerprint(signer.PublicKey()), adjudication.Fingerprint(want))
	}
	data := []byte("SYNTHETIC record signed through ssh-agent\n")
	sig, err := adjudication.SignBytes(data, signer, adjudication.NamespaceRating)
	if err != nil {
		t.Fatal(err)
	}
	sshKeygenVerify(t, data, sig, "ann", adjudication.NamespaceRating)
}

// TestLoadKeyAgentRefusals: each way the agent path can fail is
// ReasonKeyUnreadable with a sentence naming the cause.
func TestLoadKeyAgentRefusals(t *testing.T) {
	annPub := filepath.Join(keysDir, "rater-ann.pub")

	t.Run("no agent socket", func(t *testing.T) {
		t.Setenv("SSH_AUTH_SOCK", "")
		_, err := adjudication.LoadKey(annPub)
		wantKeyUnreadable(t, err, "SSH_AUTH_SOCK is not set")
	})
	t.Run("agent does not hold the key", func(t *testing.T) {
		serveKeyring(t, fixturePrivateKey(t, "rater-bob"))
		_, err := adjudication.LoadKey(annPub)
		wantKeyUnreadable(t, err, "does not hold this key")
	})
	t.Run("agent socket gone", func(t *testing.T) {
		t.Setenv("SSH_AUTH_SOCK", filepath.Join(shortTempDir(t), "missing.sock"))
		_, err := adjudication.LoadKey(annPub)
		wantKeyUnreadable(t, err, "ssh-agent:")
	})
	t.Run("passphrase protected private key", func(t *testing.T) {
		_, priv, err := ed25519.GenerateKey(rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		block, err := ssh.MarshalPrivateKeyWithPassphrase(priv, "SYNTHETIC test key", []byte("secret"))
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(t.TempDir(), "locked")
		os.WriteFile(p, pem.EncodeToMemory(block), 0o600)
		_, err = adjudication.LoadKey(p)
		wantKeyUnreadable(t, err, "passphrase protected")
	})
}

func wantKeyUnreadable(t *testing.T, err error, detail string) {
	t.Helper()
	if !errors.Is(err, adjudication.ReasonKeyUnreadable) {
		t.Fatalf("err = %v, want %s", err, adjudication.ReasonKeyUnreadable)
	}
	var ce *verr.Error
	if !errors.As(err, &ce) || !strings.Contains(ce.Detail, detail) {
		t.Fatalf("err = %v, want a detail containing %q", err, detail)
	}
}

// TestLoadKeyRealSSHAgent runs the real ssh-agent, loads a copy of ann's
// TEST ONLY key with ssh-add, signs through verdict with ann's .pub file
// and verifies with ssh-keygen.
func TestLoadKeyRealSSHAgent(t *testing.T) {
	for _, prog := range []string{"ssh-agent", "ssh-add", "ssh-keygen"} {
		if _, err := exec.LookPath(prog); err != nil {
			if os.Getenv("CI") != "" {
				t.Fatalf("%s is required in CI (openssh-client)", prog)
			}
			t.Skipf("%s not installed", prog)
		}
	}
	dir := shortTempDir(t)
	sock := filepath.Join(dir, "a.sock")
	agentCmd := exec.Command("ssh-agent", "-D", "-a", sock)
	if err := agentCmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { agentCmd.Process.Kill(); agentCmd.Wait() })
	for deadline := time.Now().Add(10 * time.Second); ; {
		if _, err := os.Stat(sock); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("ssh-agent did not create its socket")
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Setenv("SSH_AUTH_SOCK", sock)
	keyCopy := filepath.Join(dir, "ann")
	kb, err := os.ReadFile(filepath.Join(keysDir, "rater-ann"))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(keyCopy, kb, 0o600)
	add := exec.Command("ssh-add", keyCopy)
	add.Env = append(os.Environ(), "SSH_AUTH_SOCK="+sock)
	if out, err := add.CombinedOutput(); err != nil {
		t.Fatalf("ssh-add: %v\n%s", err, out)
	}
	signer, err := adjudication.LoadKey(filepath.Join(keysDir, "rater-ann.pub"))
	if err != nil {
		t.Fatalf("LoadKey through the real ssh-agent: %v", err)
	}
	data := []byte("SYNTHETIC record signed through the real ssh-agent\n")
	sig, err := adjudication.SignBytes(data, signer, adjudication.NamespaceRating)
	if err != nil {
		t.Fatal(err)
	}
	sshKeygenVerify(t, data, sig, "ann", adjudication.NamespaceRating)
}
