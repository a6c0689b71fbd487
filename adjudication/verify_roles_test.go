package adjudication_test

import (
	"bytes"
	"testing"

	"golang.org/x/crypto/ssh"

	"verdict/adjudication"
)

func authorized(k ssh.Signer) string {
	return string(bytes.TrimSpace(ssh.MarshalAuthorizedKey(k.PublicKey())))
}

func parseAllowed(t *testing.T, text string) []adjudication.AllowedSigner {
	t.Helper()
	as, err := adjudication.ParseAllowedSigners("allowed_signers", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return as
}

// TestVerifyRefusesRaterAsAdjudicator: the adjudicator is a third person
// (CONTRACT §5 "a documented third adjudicator"); an adjudication signed
// with a rater's key or under a rater's name is refused even when
// allowed_signers lets that key sign adjudications.
func TestVerifyRefusesRaterAsAdjudicator(t *testing.T) {
	c := buildChain(t)
	ak := key(t, "rater-ann")
	for _, name := range []string{"ann", "ann-adjudicating"} {
		t.Run(name, func(t *testing.T) {
			allowed := allowedSigners(t)
			allowed = append(allowed, parseAllowed(t, name+` namespaces="verdict-rating,verdict-adjudication" `+authorized(ak))...)
			adj := *c.adjRec
			adj.Signer = adjudication.Signer{Name: name, Role: adjudication.RoleAdjudicator, KeyFingerprint: adjudication.Fingerprint(ak.PublicKey())}
			data, sig, err := adjudication.SignRecord(&adj, ak, adjudication.NamespaceAdjudication)
			if err != nil {
				t.Fatal(err)
			}
			files := []adjudication.RecordFile{c.sheets[0], c.sheets[1], {Name: "adj-by-rater.json", Data: data, Sig: sig}}
			r := reasons(adjudication.Verify(allowed, files, c.bundles()))
			if r["adj-by-rater.json"] != adjudication.ReasonAdjudicatorIsRater {
				t.Fatalf("adjudication by a rater: %v", r)
			}
			if r[c.sheets[0].Name] != "" || r[c.sheets[1].Name] != "" {
				t.Fatalf("sheets refused: %v", r)
			}
		})
	}
	// The same name with another key is also one of the raters.
	ck := key(t, "adjudicator-cho")
	allowed := append(allowedSigners(t), parseAllowed(t, `bob namespaces="verdict-adjudication" `+authorized(ck))...)
	adj := *c.adjRec
	adj.Signer = adjudication.Signer{Name: "bob", Role: adjudication.RoleAdjudicator, KeyFingerprint: adjudication.Fingerprint(ck.PublicKey())}
	data, sig, _ := adjudication.SignRecord(&adj, ck, adjudication.NamespaceAdjudication)
	files := []adjudication.RecordFile{c.sheets[0], c.sheets[1], {Name: "adj-by-bob.json", Data: data, Sig: sig}}
	if r := reasons(adjudication.Verify(allowed, files, c.bundles())); r["adj-by-bob.json"] != adjudication.ReasonAdjudicatorIsRater {
		t.Fatalf("adjudication under a rater's name: %v", r)
	}
	// The honest chain still verifies.
	for _, ch := range adjudication.Verify(allowedSigners(t), c.files(), c.bundles()) {
		if !ch.OK {
			t.Errorf("%s: %s: %s", ch.File, ch.Reason, ch.Detail)
		}
	}
}

// TestAllowedSignersPatternLists: principals and namespaces are pattern
// lists as in ssh-keygen(1) ALLOWED SIGNERS (ssh_config(5) PATTERNS): a
// matching negated pattern refuses whatever else matches, and only * and ?
// are wildcards.
func TestAllowedSignersPatternLists(t *testing.T) {
	c := buildChain(t)
	ak := key(t, "rater-ann")
	sheet := []adjudication.RecordFile{c.sheets[0]}
	for _, tc := range []struct {
		line string
		want string
	}{
		{`ann namespaces="verdict-rating" ` + authorized(ak), ""},
		{`a?n namespaces="verdict-rating" ` + authorized(ak), ""},
		{`*,!ann namespaces="verdict-rating" ` + authorized(ak), string(adjudication.ReasonSignerNotAllowed)},
		{`!ann,* namespaces="verdict-rating" ` + authorized(ak), string(adjudication.ReasonSignerNotAllowed)},
		{`[a]nn namespaces="verdict-rating" ` + authorized(ak), string(adjudication.ReasonSignerNotAllowed)},
		{`ann namespaces="*,!verdict-rating" ` + authorized(ak), string(adjudication.ReasonKeyNotAllowedForRole)},
		{`ann namespaces="!verdict-rating,verdict-*" ` + authorized(ak), string(adjudication.ReasonKeyNotAllowedForRole)},
		{`ann namespaces="verdict-r?ting" ` + authorized(ak), ""},
	} {
		r := reasons(adjudication.Verify(parseAllowed(t, tc.line), sheet, adjudication.VerifyOptions{}))
		if string(r[c.sheets[0].Name]) != tc.want {
			t.Errorf("%.40s...: reason %q, want %q", tc.line, r[c.sheets[0].Name], tc.want)
		}
	}
}
