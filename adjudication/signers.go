package adjudication

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"

	"golang.org/x/crypto/ssh"

	"verdict/campaign"
	"verdict/internal/fsutil"
	"verdict/verr"
)

// Refusals of AddAllowedSigner (DESIGN "Signed records": one key and one
// person per role).
const (
	// ReasonSignerKeyReused: the key is already listed for another role
	// or another person; one key signs for one person in one role.
	ReasonSignerKeyReused verr.Reason = "signer-key-reused"
	// ReasonSignerNameReused: the name is already listed for another role
	// (a rater cannot adjudicate, the coordinator is none of them) or for
	// the same role with another key.
	ReasonSignerNameReused verr.Reason = "signer-name-reused"
	// ReasonBadSignerRole: the role is not rater, adjudicator or
	// coordinator.
	ReasonBadSignerRole verr.Reason = "bad-signer-role"
)

// NamespaceOf returns the SSH signature namespace a role signs its
// records in (rater: verdict-rating, adjudicator: verdict-adjudication,
// coordinator: verdict-reveal), and false for any other role.
func NamespaceOf(r Role) (string, bool) {
	for _, k := range kindOf {
		if k.role == r {
			return k.ns, true
		}
	}
	return "", false
}

// RoleOf returns the role whose records are signed in namespace ns, and
// false for a namespace that is no verdict role's.
func RoleOf(ns string) (Role, bool) {
	for _, k := range kindOf {
		if k.ns == ns {
			return k.role, true
		}
	}
	return "", false
}

// AllowedSignerLine returns the one allowed_signers line (without its
// newline) that lets name sign role's records with key, in the form
// ParseAllowedSigners and ssh-keygen -Y verify read:
// `NAME namespaces="NS" KEYTYPE BASE64`.
func AllowedSignerLine(name string, role Role, key ssh.PublicKey) (string, error) {
	if err := CheckSignerName(name); err != nil {
		return "", err
	}
	ns, ok := NamespaceOf(role)
	if !ok {
		return "", &verr.Error{Reason: ReasonBadSignerRole, Rule: ruleRecords, Detail: fmt.Sprintf("role %q is not a signing role; want one of rater, adjudicator, coordinator", role)}
	}
	return fmt.Sprintf("%s namespaces=%q %s", name, ns, strings.TrimSpace(string(ssh.MarshalAuthorizedKey(key)))), nil
}

// AddAllowedSigner returns the allowed_signers file data with the line of
// AllowedSignerLine appended (every existing byte kept, a missing final
// newline added first), and added false with data unchanged when that
// exact grant is already listed. file names data in refusals.
//
// It refuses, before anything is written: data that does not parse
// (ParseAllowedSigners' refusal), a bad name or role, the key already
// listed for another person or another role (ReasonSignerKeyReused: two
// raters on one key, or a rater's key adjudicating, are what verification
// refuses), and the name already listed for another role or for the same
// role with another key (ReasonSignerNameReused). The result is parsed
// again and the new grant checked with CheckSigner, so what is written is
// what verification accepts.
func AddAllowedSigner(file string, data []byte, name string, role Role, key ssh.PublicKey) (out []byte, added bool, err error) {
	line, err := AllowedSignerLine(name, role, key)
	if err != nil {
		return nil, false, err
	}
	ns, _ := NamespaceOf(role)
	existing, err := ParseAllowedSigners(file, data)
	if err != nil {
		return nil, false, err
	}
	kb := key.Marshal()
	for _, a := range existing {
		sameKey := bytes.Equal(a.Key.Marshal(), kb)
		named := a.matches(name)
		switch {
		case sameKey && named && a.allows(ns) && len(a.Namespaces) == 1:
			if slices.Equal(a.Principals, []string{name}) {
				return data, false, nil
			}
			fallthrough
		case sameKey:
			return nil, false, verr.Newf(ReasonSignerKeyReused, file, fmt.Sprintf("/%d", a.Line-1), ruleRecords,
				"line %d already lists key %s for %s in %s; one key signs for one person in one role",
				a.Line, Fingerprint(key), strings.Join(a.Principals, ","), describeNamespaces(a.Namespaces))
		case named:
			return nil, false, verr.Newf(ReasonSignerNameReused, file, fmt.Sprintf("/%d", a.Line-1), ruleRecords,
				"line %d already lists %s with key %s in %s; a person has one key and one role (two raters, a third adjudicator, a coordinator who is none of them)",
				a.Line, name, Fingerprint(a.Key), describeNamespaces(a.Namespaces))
		}
	}
	out = slices.Clip(data)
	if len(out) > 0 && out[len(out)-1] != '\n' {
		out = append(out, '\n')
	}
	out = append(out, line...)
	out = append(out, '\n')
	after, err := ParseAllowedSigners(file, out)
	if err != nil {
		return nil, false, err
	}
	if err := CheckSigner(after, name, ns, key); err != nil {
		return nil, false, err
	}
	return out, true, nil
}

// describeNamespaces names a line's namespaces with their roles.
func describeNamespaces(ns []string) string {
	if len(ns) == 0 {
		return "no namespace (it signs nothing)"
	}
	parts := make([]string, len(ns))
	for i, n := range ns {
		if r, ok := RoleOf(n); ok {
			parts[i] = fmt.Sprintf("%s (%s)", n, r)
		} else {
			parts[i] = n
		}
	}
	return strings.Join(parts, ", ")
}

// SignerGrant is one principal's grant in an allowed_signers file, as
// `verdict signers list` shows it: the line, the principal pattern, the
// namespaces with the verdict role of each (empty for a namespace no role
// signs in), the key type and its SHA-256 fingerprint.
type SignerGrant struct {
	Line        int      `json:"line"`
	Principal   string   `json:"principal"`
	Namespaces  []string `json:"namespaces"`
	Roles       []string `json:"roles"`
	KeyType     string   `json:"key_type"`
	Fingerprint string   `json:"fingerprint"`
}

// Grants returns one SignerGrant per principal of each line of allowed,
// in file order.
func Grants(allowed []AllowedSigner) []SignerGrant {
	var out []SignerGrant
	for _, a := range allowed {
		roles := make([]string, len(a.Namespaces))
		for i, n := range a.Namespaces {
			if r, ok := RoleOf(n); ok {
				roles[i] = string(r)
			}
		}
		for _, p := range a.Principals {
			out = append(out, SignerGrant{Line: a.Line, Principal: p, Namespaces: append([]string{}, a.Namespaces...), Roles: roles,
				KeyType: a.Key.Type(), Fingerprint: Fingerprint(a.Key)})
		}
	}
	return out
}

// AddSignerFile adds the grant of AllowedSignerLine to the allowed_signers
// file at path (created when absent) under the output's exclusive lock
// (fsutil.LockOutput: output-locked while another writer holds it),
// replacing the file atomically so that a reader or a crash sees the old
// file or the new one, never a part. Every refusal of AddAllowedSigner
// leaves the file as it was. It returns the line and whether it was added
// (false: that exact grant was already listed; nothing was written).
func AddSignerFile(path, name string, role Role, key ssh.PublicKey) (line string, added bool, err error) {
	line, err = AllowedSignerLine(name, role, key)
	if err != nil {
		return "", false, err
	}
	lock, err := fsutil.LockOutput(path)
	if err != nil {
		return "", false, err
	}
	defer lock.Unlock()
	perm := fs.FileMode(0o644)
	data, err := campaign.ReadRegular(path, campaign.FileAllowedSigners)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		data = nil
	case err != nil:
		return "", false, err
	default:
		if fi, err := os.Stat(path); err == nil {
			perm = fi.Mode().Perm()
		}
	}
	out, added, err := AddAllowedSigner(path, data, name, role, key)
	if err != nil || !added {
		return line, false, err
	}
	return line, true, fsutil.WriteFile(path, out, perm)
}
