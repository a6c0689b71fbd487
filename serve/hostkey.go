package serve

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"errors"
	"io/fs"
	"os"
	"runtime"

	gossh "golang.org/x/crypto/ssh"

	"verdict/campaign"
	"verdict/internal/fsutil"
	"verdict/verr"
)

// ReasonHostKey: the host key file cannot be read, parsed or created, or
// it is readable by others than its owner.
const ReasonHostKey verr.Reason = "host-key"

// HostKey returns the server's host key at path: an unencrypted OpenSSH
// private key, or, when path does not exist, a new ed25519 key written
// there with mode 0600 (created reports that). A key file readable or
// writable by group or others is refused, as sshd refuses it.
func HostKey(path string) (key gossh.Signer, created bool, err error) {
	if _, err := os.Lstat(path); errors.Is(err, fs.ErrNotExist) {
		_, priv, err := ed25519.GenerateKey(rand.Reader)
		if err != nil {
			return nil, false, err
		}
		block, err := gossh.MarshalPrivateKey(priv, "verdict serve host key")
		if err != nil {
			return nil, false, err
		}
		if err := fsutil.WriteFile(path, pem.EncodeToMemory(block), 0o600); err != nil {
			return nil, false, &verr.Error{Reason: ReasonHostKey, File: path, Detail: "cannot create the host key: " + err.Error(), Err: err}
		}
		created = true
	}
	fi, err := os.Lstat(path)
	if err != nil {
		return nil, false, &verr.Error{Reason: ReasonHostKey, File: path, Detail: err.Error(), Err: err}
	}
	if runtime.GOOS != "windows" && fi.Mode().Perm()&0o077 != 0 {
		return nil, false, &verr.Error{Reason: ReasonHostKey, File: path, Detail: "the host key is accessible by group or others (" + fi.Mode().Perm().String() + "); chmod 600 it"}
	}
	data, err := campaign.ReadRegular(path, campaign.FileKey)
	if err != nil {
		return nil, false, &verr.Error{Reason: ReasonHostKey, File: path, Detail: err.Error(), Err: err}
	}
	key, err = gossh.ParsePrivateKey(data)
	if err != nil {
		return nil, false, &verr.Error{Reason: ReasonHostKey, File: path, Detail: "not an unencrypted SSH private key: " + err.Error(), Err: err}
	}
	return key, created, nil
}

// HostKeyOutside refuses (ReasonSecretInServedDir) a host key file path
// that lies in the served directory dir or below it (fsutil.Within: links
// followed): the raters would be served the server's private key, and
// every later start refuses the directory that holds it.
func HostKeyOutside(dir, path string) error {
	in, err := fsutil.Within(dir, path)
	if err != nil || !in {
		return err
	}
	return &verr.Error{Reason: ReasonSecretInServedDir, File: path, Rule: ruleServedDir,
		Detail: "--host-key names a file inside the served directory; keep the host key outside it (the default lies beside the directory)"}
}
