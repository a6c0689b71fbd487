package adjudication

import (
	"bytes"
	"errors"
	"fmt"
	"net"
	"os"
	"strings"

	"github.com/hiddeco/sshsig"
	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/agent"

	"verdict/campaign"
	"verdict/verr"
)

// Role is the role a signer signs a record in.
type Role string

// The three signing roles (DESIGN "Who uses it").
const (
	RoleRater       Role = "rater"
	RoleAdjudicator Role = "adjudicator"
	RoleCoordinator Role = "coordinator"
)

// SSH signature namespaces, one per record kind (DESIGN "Signed records").
const (
	NamespaceRating       = "verdict-rating"
	NamespaceAdjudication = "verdict-adjudication"
	NamespaceReveal       = "verdict-reveal"
)

// HashAlgorithm is the message hash of every signature verdict makes; it
// is ssh-keygen's default (sha512).
const HashAlgorithm = sshsig.HashSHA512

// Signing refusals.
const (
	// ReasonKeyUnreadable: the key file cannot be read or parsed, is
	// passphrase protected, or the agent does not hold the key.
	ReasonKeyUnreadable verr.Reason = "key-unreadable"
	// ReasonBadRole: the role is not the role of this record kind.
	ReasonBadRole verr.Reason = "bad-role"
	// ReasonBadSignerName: the signer name is empty, untrimmed, or holds a
	// space, comma or quote (it must be usable as an allowed_signers
	// principal).
	ReasonBadSignerName verr.Reason = "bad-signer-name"
)

// Signer identifies who signed a record and in which role; KeyFingerprint
// is the SHA-256 fingerprint of the signing public key as ssh-keygen -l
// prints it ("SHA256:" + unpadded base64).
type Signer struct {
	Name           string `json:"name"`
	Role           Role   `json:"role"`
	KeyFingerprint string `json:"key_fingerprint"`
}

// LoadKey returns an ssh.Signer for path: an unencrypted OpenSSH (or PEM)
// private key file, or, when path holds a public key and SSH_AUTH_SOCK is
// set, the ssh-agent key with that public key. Errors are ReasonKeyUnreadable.
func LoadKey(path string) (ssh.Signer, error) {
	data, err := campaign.ReadRegular(path, campaign.FileKey)
	if err != nil {
		return nil, &verr.Error{Reason: ReasonKeyUnreadable, File: path, Detail: err.Error(), Err: err}
	}
	if s, err := ssh.ParsePrivateKey(data); err == nil {
		return s, nil
	} else if pub, _, _, _, perr := ssh.ParseAuthorizedKey(data); perr == nil {
		return agentSigner(path, pub)
	} else {
		var missing *ssh.PassphraseMissingError
		if errors.As(err, &missing) {
			return nil, &verr.Error{Reason: ReasonKeyUnreadable, File: path, Detail: "the key is passphrase protected; load it into ssh-agent and pass its .pub file"}
		}
		return nil, &verr.Error{Reason: ReasonKeyUnreadable, File: path, Detail: "not an SSH private or public key: " + err.Error(), Err: err}
	}
}

func agentSigner(path string, pub ssh.PublicKey) (ssh.Signer, error) {
	sock := os.Getenv("SSH_AUTH_SOCK")
	if sock == "" {
		return nil, &verr.Error{Reason: ReasonKeyUnreadable, File: path, Detail: "public key given but SSH_AUTH_SOCK is not set"}
	}
	conn, err := net.Dial("unix", sock)
	if err != nil {
		return nil, &verr.Error{Reason: ReasonKeyUnreadable, File: path, Detail: "ssh-agent: " + err.Error(), Err: err}
	}
	signers, err := agent.NewClient(conn).Signers()
	if err != nil {
		return nil, &verr.Error{Reason: ReasonKeyUnreadable, File: path, Detail: "ssh-agent: " + err.Error(), Err: err}
	}
	for _, s := range signers {
		if bytes.Equal(s.PublicKey().Marshal(), pub.Marshal()) {
			return s, nil
		}
	}
	return nil, &verr.Error{Reason: ReasonKeyUnreadable, File: path, Detail: "ssh-agent does not hold this key"}
}

// Fingerprint returns the SHA-256 fingerprint of a public key ("SHA256:...").
func Fingerprint(k ssh.PublicKey) string { return ssh.FingerprintSHA256(k) }

// SignBytes signs data in namespace with key and returns the armored
// signature ("-----BEGIN SSH SIGNATURE-----" ...), byte-compatible with
// `ssh-keygen -Y sign -n NAMESPACE` and checkable with `ssh-keygen -Y verify`.
func SignBytes(data []byte, key ssh.Signer, namespace string) ([]byte, error) {
	sig, err := sshsig.Sign(bytes.NewReader(data), key, HashAlgorithm, namespace)
	if err != nil {
		return nil, err
	}
	return sshsig.Armor(sig), nil
}

// signerFor checks role against the record's required role and fills the
// fingerprint from key.
func signerFor(name string, role, want Role, key ssh.PublicKey) (Signer, error) {
	if role != want {
		return Signer{}, &verr.Error{Reason: ReasonBadRole, Rule: "DESIGN Signed records", Detail: fmt.Sprintf("role %q cannot sign this record; want %q", role, want)}
	}
	if err := CheckSignerName(name); err != nil {
		return Signer{}, err
	}
	return Signer{Name: name, Role: role, KeyFingerprint: Fingerprint(key)}, nil
}

// CheckSignerName refuses (ReasonBadSignerName) a signer name that cannot
// be an allowed_signers principal matching only itself: empty, untrimmed,
// or holding white space, a comma, a quote or a pattern character (*, ?,
// !).
func CheckSignerName(name string) error {
	if strings.TrimSpace(name) == "" || name != strings.TrimSpace(name) || strings.ContainsAny(name, " \t\n\r,\"*?!") {
		return &verr.Error{Reason: ReasonBadSignerName, Rule: "DESIGN Signed records", Detail: fmt.Sprintf("signer name %q must be non-empty without spaces, commas, quotes or pattern characters (*, ?, !): it is the allowed_signers principal", name)}
	}
	return nil
}

// SignRecord returns the canonical bytes of record v (Marshal) and their
// detached armored signature in namespace.
func SignRecord(v any, key ssh.Signer, namespace string) (data, sig []byte, err error) {
	data, err = Marshal(v)
	if err != nil {
		return nil, nil, err
	}
	sig, err = SignBytes(data, key, namespace)
	return data, sig, err
}
