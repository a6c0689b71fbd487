package adjudication_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hiddeco/sshsig"

	"verdict/adjudication"
)

// armorVariants returns crafted variants of the armored signature sig,
// each named. Some are accepted by ssh-keygen and some refused; the test
// asks ssh-keygen which.
func armorVariants(sig []byte) map[string][]byte {
	s := string(sig)
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	begin, end := lines[0], lines[len(lines)-1]
	body := strings.Join(lines[1:len(lines)-1], "")
	join := func(ls ...string) []byte { return []byte(strings.Join(ls, "\n") + "\n") }
	wrap := func(w int) []string {
		var out []string
		for i := 0; i < len(body); i += w {
			out = append(out, body[i:min(i+w, len(body))])
		}
		return out
	}
	flipSlop := func() string {
		// Change the last character before the padding so that the bits
		// past the last whole byte are not zero.
		i := strings.IndexByte(body, '=')
		if i < 1 {
			return body + "x"
		}
		b := []byte(body)
		if b[i-1] == 'A' {
			b[i-1] = 'B'
		} else {
			b[i-1] = 'A'
		}
		return string(b)
	}
	v := map[string][]byte{
		"original":                 sig,
		"crlf":                     []byte(strings.ReplaceAll(s, "\n", "\r\n")),
		"crlf-begin-only":          []byte(strings.Replace(s, "\n", "\r\n", 1)),
		"cr-only":                  []byte(strings.ReplaceAll(s, "\n", "\r")),
		"junk-line-before":         append([]byte("junk\n"), sig...),
		"blank-line-before":        append([]byte("\n"), sig...),
		"space-before":             append([]byte(" "), sig...),
		"bom-before":               append([]byte("\xef\xbb\xbf"), sig...),
		"junk-line-after":          append(append([]byte{}, sig...), "junk\n"...),
		"junk-after-end-marker":    []byte(strings.TrimSuffix(s, "\n") + "junk\n"),
		"no-final-newline":         []byte(strings.TrimSuffix(s, "\n")),
		"begin-trailing-space":     join(append(append([]string{begin + " "}, lines[1:len(lines)-1]...), end)...),
		"begin-lowercase":          []byte(strings.Replace(s, "BEGIN SSH SIGNATURE", "begin ssh signature", 1)),
		"body-on-begin-line":       []byte(begin + strings.Join(lines[1:], "\n") + "\n"),
		"one-long-line":            join(begin, body, end),
		"wrapped-64":               join(append(append([]string{begin}, wrap(64)...), end)...),
		"wrapped-7":                join(append(append([]string{begin}, wrap(7)...), end)...),
		"spaces-in-body":           join(begin, strings.Join(wrap(10), " "), end),
		"tabs-in-body":             join(begin, strings.Join(wrap(10), "\t"), end),
		"vt-ff-in-body":            join(begin, strings.Join(wrap(10), "\v\f"), end),
		"blank-lines-in-body":      join(append(append([]string{begin}, strings.Split(strings.Join(wrap(70), "\n\n"), "\n")...), end)...),
		"nul-in-body":              join(begin, body[:10]+"\x00"+body[10:], end),
		"nul-after-end":            append(append([]byte{}, sig...), 0),
		"pem-header-in-body":       join(begin, "Version: 1", "", body, end),
		"bang-in-body":             join(begin, body[:10]+"!"+body[10:], end),
		"padding-removed":          join(begin, strings.TrimRight(body, "="), end),
		"padding-extra":            join(begin, body+"==", end),
		"data-after-padding":       join(begin, body+"AAAA", end),
		"padding-in-middle":        join(begin, body[:8]+"="+body[8:], end),
		"nonzero-slop-bits":        join(begin, flipSlop(), end),
		"end-line-missing":         join(append([]string{begin}, lines[1:len(lines)-1]...)...),
		"end-without-newline":      []byte(begin + "\n" + body + end + "\n"),
		"end-indented":             join(begin, body, " "+end),
		"two-signatures":           append(append([]byte{}, sig...), sig...),
		"empty-body":               join(begin, end),
		"begin-only":               []byte(begin + "\n"),
		"empty-file":               {},
		"trailing-spaces-on-lines": []byte(strings.ReplaceAll(s, "\n", "  \n")),
	}
	return v
}

// TestUnarmorAgreesWithSSHKeygen crafts .sig variants of a signature made
// by verdict and of one made by ssh-keygen, and requires that verdict's
// armour parser (with the signature check that follows it) accepts exactly
// the variants `ssh-keygen -Y verify` accepts.
func TestUnarmorAgreesWithSSHKeygen(t *testing.T) {
	keygen, err := exec.LookPath("ssh-keygen")
	if err != nil {
		t.Skip("ssh-keygen not installed")
	}
	dir := t.TempDir()
	keys := "../fixtures/keys/"
	data := []byte("SYNTHETIC record bytes\n")
	msg := filepath.Join(dir, "record.json")
	if err := os.WriteFile(msg, data, 0o600); err != nil {
		t.Fatal(err)
	}
	key, err := adjudication.LoadKey(keys + "rater-ann")
	if err != nil {
		t.Fatal(err)
	}
	ours, err := adjudication.SignBytes(data, key, adjudication.NamespaceRating)
	if err != nil {
		t.Fatal(err)
	}
	// ssh-keygen wants a private key file of mode 0600.
	priv, _ := os.ReadFile(keys + "rater-ann")
	kf := filepath.Join(dir, "ann")
	os.WriteFile(kf, priv, 0o600)
	if out, err := exec.Command(keygen, "-Y", "sign", "-q", "-f", kf, "-n", adjudication.NamespaceRating, msg).CombinedOutput(); err != nil {
		t.Fatalf("ssh-keygen -Y sign: %v\n%s", err, out)
	}
	theirs, err := os.ReadFile(msg + ".sig")
	if err != nil {
		t.Fatal(err)
	}
	agree, accepted, refused := 0, 0, 0
	for signer, sig := range map[string][]byte{"verdict": ours, "ssh-keygen": theirs} {
		for name, variant := range armorVariants(sig) {
			sf := filepath.Join(dir, signer+"-"+name+".sig")
			if err := os.WriteFile(sf, variant, 0o600); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(keygen, "-Y", "verify", "-f", keys+"allowed_signers", "-I", "ann", "-n", adjudication.NamespaceRating, "-s", sf)
			cmd.Stdin = bytes.NewReader(data)
			kerr := cmd.Run()
			theirOK := kerr == nil
			if _, isExit := kerr.(*exec.ExitError); kerr != nil && !isExit {
				t.Fatalf("running ssh-keygen: %v", kerr)
			}
			ourOK := false
			if s, err := adjudication.Unarmor(variant); err == nil {
				ourOK = sshsig.Verify(bytes.NewReader(data), s, s.PublicKey, s.HashAlgorithm, adjudication.NamespaceRating) == nil
			}
			if ourOK != theirOK {
				t.Errorf("%s signature, variant %s: verdict accepts=%v, ssh-keygen accepts=%v", signer, name, ourOK, theirOK)
				continue
			}
			agree++
			if ourOK {
				accepted++
			} else {
				refused++
			}
		}
	}
	t.Logf("verdict and ssh-keygen agree on %d variants (%d accepted, %d refused by both)", agree, accepted, refused)
}
