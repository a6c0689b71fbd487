package serve

import (
	"fmt"
	"slices"
	"strings"

	gossh "golang.org/x/crypto/ssh"

	"verdict/adjudication"
	"verdict/verr"
)

// Refusals of a connecting key (Identify).
const (
	// ReasonUnknownKey: no allowed_signers line has the connecting key.
	ReasonUnknownKey verr.Reason = "unknown-key"
	// ReasonNoRole: the key's lines allow none of verdict's three
	// namespaces for any principal.
	ReasonNoRole verr.Reason = "no-role"
	// ReasonOtherPrincipal: the SSH login name is another person's
	// principal (a rater trying another rater's bundle).
	ReasonOtherPrincipal verr.Reason = "other-principal"
	// ReasonAmbiguousIdentity: the key is listed for several principals,
	// or one principal with several roles, and the login name does not
	// choose one.
	ReasonAmbiguousIdentity verr.Reason = "ambiguous-identity"
)

const ruleIdentity = "DESIGN Signed records: role convention in allowed_signers"

// roles are verdict's signing namespaces and the role each one is.
var roles = []struct {
	ns   string
	role adjudication.Role
}{
	{adjudication.NamespaceRating, adjudication.RoleRater},
	{adjudication.NamespaceAdjudication, adjudication.RoleAdjudicator},
	{adjudication.NamespaceReveal, adjudication.RoleCoordinator},
}

// Identity is who a connection is: the allowed_signers principal (the
// signer name of every record the person signs), the role and its
// namespace, and the key's fingerprint.
type Identity struct {
	Name        string            `json:"name"`
	Role        adjudication.Role `json:"role"`
	Namespace   string            `json:"namespace"`
	Fingerprint string            `json:"fingerprint"`
}

// Identify decides who the connecting key is, exactly as signing checks a
// signer (adjudication.CheckSigner): the principals of the
// allowed_signers lines that have key (literal names; a pattern names no
// one) with the verdict namespaces those lines allow. The SSH login name
// user chooses among several; a user that is another line's principal is
// refused (ReasonOtherPrincipal), any other user name is ignored (a
// rater types `ssh -A host` with their own login). Refusals:
// ReasonUnknownKey, ReasonNoRole, ReasonOtherPrincipal,
// ReasonAmbiguousIdentity, each a one-line *verr.Error.
func Identify(allowed []adjudication.AllowedSigner, key gossh.PublicKey, user string) (Identity, error) {
	fp := adjudication.Fingerprint(key)
	var names, everyone []string
	for _, a := range allowed {
		mine := string(a.Key.Marshal()) == string(key.Marshal())
		for _, p := range a.Principals {
			if p == "" || strings.ContainsAny(p, "*?!") {
				continue
			}
			everyone = append(everyone, p)
			if mine && !slices.Contains(names, p) {
				names = append(names, p)
			}
		}
	}
	if len(names) == 0 {
		return Identity{}, &verr.Error{Reason: ReasonUnknownKey, Rule: ruleIdentity, Detail: fmt.Sprintf("key %s has no allowed_signers line; ask the coordinator to add it", fp)}
	}
	if slices.Contains(names, user) {
		names = []string{user}
	} else if slices.Contains(everyone, user) {
		return Identity{}, &verr.Error{Reason: ReasonOtherPrincipal, Rule: ruleIdentity, Detail: fmt.Sprintf("key %s is not %s's (allowed_signers lists it for %s); connect with your own key", fp, user, strings.Join(names, ", "))}
	}
	var ids []Identity
	for _, n := range names {
		for _, r := range roles {
			if adjudication.CheckSigner(allowed, n, r.ns, key) == nil {
				ids = append(ids, Identity{Name: n, Role: r.role, Namespace: r.ns, Fingerprint: fp})
			}
		}
	}
	switch {
	case len(ids) == 0:
		return Identity{}, &verr.Error{Reason: ReasonNoRole, Rule: ruleIdentity, Detail: fmt.Sprintf("key %s of %s allows none of the namespaces verdict-rating, verdict-adjudication, verdict-reveal (a line without namespaces= allows none)", fp, strings.Join(names, ", "))}
	case len(ids) > 1 && len(names) > 1:
		return Identity{}, &verr.Error{Reason: ReasonAmbiguousIdentity, Rule: ruleIdentity, Detail: fmt.Sprintf("key %s is listed for %s; log in as one of them (ssh NAME@host)", fp, strings.Join(names, ", "))}
	case len(ids) > 1:
		return Identity{}, &verr.Error{Reason: ReasonAmbiguousIdentity, Rule: ruleIdentity, Detail: fmt.Sprintf("key %s of %s is allowed several roles; one key per role (DESIGN: one key and one person per role)", fp, names[0])}
	}
	return ids[0], nil
}
