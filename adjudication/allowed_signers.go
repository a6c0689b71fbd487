package adjudication

import (
	"bufio"
	"bytes"
	"fmt"
	"strings"

	"golang.org/x/crypto/ssh"

	"verdict/verr"
)

// ruleTrustRoot is the rule an allowed-signers-missing refusal names.
const ruleTrustRoot = "DESIGN Signed records"

// AllowedSignersMissing is the refusal of a check given no allowed_signers
// file (ReasonAllowedSignersMissing); its message names the flag
// --allowed-signers and the config key allowed_signers.
func AllowedSignersMissing() error {
	return &verr.Error{Reason: ReasonAllowedSignersMissing, Rule: ruleTrustRoot,
		Detail: "no allowed_signers file: give --allowed-signers FILE or set the config key allowed_signers (VERDICT_ALLOWED_SIGNERS); it is never taken from beside a bundle, sheet or ratings directory, which whoever writes a record could also write"}
}

// AllowedSigner is one line of an allowed_signers file (ssh-keygen(1)
// ALLOWED SIGNERS): principals (comma-separated patterns), options
// (verdict supports namespaces="..." only) and a public key.
type AllowedSigner struct {
	Principals []string
	Namespaces []string
	Key        ssh.PublicKey
	Line       int
}

// ParseAllowedSigners parses an allowed_signers file. Blank lines and
// comments are skipped. cert-authority, valid-after and valid-before are
// refused (ReasonBadAllowedSigners) rather than ignored. Unlike
// ssh-keygen, a line without namespaces="..." lets its key sign in no
// namespace: each record kind's namespace is a role (DESIGN "Signed
// records"), and a key allowed every role could rate and adjudicate alike.
func ParseAllowedSigners(file string, data []byte) ([]AllowedSigner, error) {
	var out []AllowedSigner
	sc := bufio.NewScanner(bytes.NewReader(data))
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		bad := func(d string) error {
			return verr.Newf(ReasonBadAllowedSigners, file, fmt.Sprintf("/%d", n-1), "ssh-keygen ALLOWED SIGNERS", "line %d: %s", n, d)
		}
		var principals, rest string
		if strings.HasPrefix(line, `"`) {
			end := strings.Index(line[1:], `"`)
			if end < 0 {
				return nil, bad("unterminated quoted principals")
			}
			principals, rest = line[1:1+end], line[2+end:]
		} else {
			f := strings.IndexAny(line, " \t")
			if f < 0 {
				return nil, bad("no key")
			}
			principals, rest = line[:f], line[f:]
		}
		key, _, opts, _, err := ssh.ParseAuthorizedKey([]byte(strings.TrimSpace(rest)))
		if err != nil {
			return nil, bad("key: " + err.Error())
		}
		as := AllowedSigner{Principals: strings.Split(principals, ","), Key: key, Line: n}
		for _, o := range opts {
			name, val, _ := strings.Cut(o, "=")
			switch strings.ToLower(name) {
			case "namespaces":
				as.Namespaces = strings.Split(strings.Trim(val, `"`), ",")
			default:
				return nil, bad(fmt.Sprintf("option %q is not supported", name))
			}
		}
		out = append(out, as)
	}
	return out, sc.Err()
}

func (a AllowedSigner) matches(principal string) bool {
	return matchPatternList(principal, a.Principals)
}

func (a AllowedSigner) allows(namespace string) bool {
	return matchPatternList(namespace, a.Namespaces)
}

// matchPatternList reports whether s matches the pattern list as
// ssh-keygen(1) matches allowed_signers principals and namespaces
// (ssh_config(5) PATTERNS): s must match at least one pattern, and a
// matching pattern negated with "!" refuses s whatever else matches.
func matchPatternList(s string, patterns []string) bool {
	positive := false
	for _, p := range patterns {
		neg := strings.HasPrefix(p, "!")
		if !matchPattern(s, strings.TrimPrefix(p, "!")) {
			continue
		}
		if neg {
			return false
		}
		positive = true
	}
	return positive
}

// matchPattern matches s against one pattern in which "*" is any run of
// bytes and "?" any one byte; every other byte is literal.
func matchPattern(s, p string) bool {
	si, pi, star, mark := 0, 0, -1, 0
	for si < len(s) {
		switch {
		case pi < len(p) && (p[pi] == '?' || p[pi] == s[si]):
			si++
			pi++
		case pi < len(p) && p[pi] == '*':
			star, mark = pi, si
			pi++
		case star >= 0:
			mark++
			si, pi = mark, star+1
		default:
			return false
		}
	}
	for pi < len(p) && p[pi] == '*' {
		pi++
	}
	return pi == len(p)
}
