package adjudication

import (
	"errors"
	"testing"

	"golang.org/x/crypto/ssh"

	"verdict/verr"
)

func mustKey(t *testing.T, text string) ssh.PublicKey {
	t.Helper()
	k, _, _, _, err := ssh.ParseAuthorizedKey([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// TestAddAllowedSigner: the appended line keeps every existing byte, adds
// a missing final newline first, verifies as CheckSigner checks a signer,
// and a reused key or name is refused with its reason.
func TestAddAllowedSigner(t *testing.T) {
	ann := mustKey(t, "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOd7Agl0sYcHO8XqgcWdDafETWueTJZKSW3/gfelNKHf")
	bob := mustKey(t, "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIK6aHRPv6QhAbiMW8cbZKFHVoXp/JUwTGAM/EooV08KN")
	in := []byte("# raters\nann namespaces=\"verdict-rating\" ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOd7Agl0sYcHO8XqgcWdDafETWueTJZKSW3/gfelNKHf")
	out, added, err := AddAllowedSigner("as", in, "bob", RoleRater, bob)
	if err != nil || !added {
		t.Fatalf("add bob: %v %v", added, err)
	}
	want := string(in) + "\nbob namespaces=\"verdict-rating\" ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIK6aHRPv6QhAbiMW8cbZKFHVoXp/JUwTGAM/EooV08KN\n"
	if string(out) != want {
		t.Fatalf("got %q\nwant %q", out, want)
	}
	allowed, err := ParseAllowedSigners("as", out)
	if err != nil {
		t.Fatal(err)
	}
	if err := CheckSigner(allowed, "bob", NamespaceRating, bob); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		role Role
		key  ssh.PublicKey
		want verr.Reason
	}{
		{"cho", RoleAdjudicator, ann, ReasonSignerKeyReused},
		{"eve", RoleRater, ann, ReasonSignerKeyReused},
		{"dee", RoleCoordinator, bob, ReasonSignerKeyReused},
		{"ann", RoleAdjudicator, mustKey(t, "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIB7GNNPxyUeJ3p/+mKxH0xYtBvc2yjR0mlFMpub+iPNB"), ReasonSignerNameReused},
		{"eve", Role("judge"), bob, ReasonBadSignerRole},
		{"*", RoleRater, bob, ReasonBadSignerName},
	} {
		_, _, err := AddAllowedSigner("as", out, c.name, c.role, c.key)
		var e *verr.Error
		if !errors.As(err, &e) || e.Reason != c.want {
			t.Errorf("%s %s: got %v, want %s", c.name, c.role, err, c.want)
		}
	}
}
