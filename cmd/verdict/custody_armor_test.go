package main

import (
	"os"
	"strings"
	"testing"
)

// TestVerifyRefusesArmourSSHKeygenRefuses: a sheet's .sig with a junk line
// before the armour, or with CR LF line ends, is refused by
// `ssh-keygen -Y verify`, so `verdict verify` refuses it too
// (signature-malformed); the untouched .sig verifies.
func TestVerifyRefusesArmourSSHKeygenRefuses(t *testing.T) {
	t.Parallel()
	p, keys := frozenPair(t, t.TempDir())
	allowed := keys + "allowed_signers"
	sig, err := os.ReadFile(p("sheet-ann.json.sig"))
	if err != nil {
		t.Fatal(err)
	}
	if code, out, _ := runCapture(t, "verify", "--allowed-signers", allowed, p("sheet-ann.json")); code != 0 {
		t.Fatalf("untouched sheet: exit %d\n%s", code, out)
	}
	for name, v := range map[string]string{
		"junk line before the armour": "junk\n" + string(sig),
		"CR LF line ends":             strings.ReplaceAll(string(sig), "\n", "\r\n"),
	} {
		if err := os.WriteFile(p("sheet-ann.json.sig"), []byte(v), 0o600); err != nil {
			t.Fatal(err)
		}
		code, out, _ := runCapture(t, "verify", "--format", "json", "--allowed-signers", allowed, p("sheet-ann.json"))
		if code != 1 || !strings.Contains(out, `"reason": "signature-malformed"`) && !strings.Contains(out, `"reason":"signature-malformed"`) {
			t.Errorf("%s: exit %d, want 1 with signature-malformed\n%s", name, code, out)
		}
	}
}
