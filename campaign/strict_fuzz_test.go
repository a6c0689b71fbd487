package campaign_test

import (
	"errors"
	"os"
	"strings"
	"testing"

	. "verdict/campaign"
	"verdict/internal/campaigntest"
	"verdict/verr"
)

// checkRefusal asserts that a decoder's error is a *Error with a reason and file.
func checkRefusal(t *testing.T, err error, file string) {
	t.Helper()
	if err == nil {
		return
	}
	var e *verr.Error
	if !errors.As(err, &e) || e.Reason == "" || e.File != file || e.Rule == "" {
		t.Fatalf("refusal without reason, file or rule: %#v", err)
	}
	if e.Pointer != "" && !strings.HasPrefix(e.Pointer, "/") {
		t.Fatalf("pointer %q is not an RFC 6901 pointer", e.Pointer)
	}
}

func FuzzDecodeResponse(f *testing.F) {
	b, err := os.ReadFile("testdata/response_b.json")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b, uint8(2))
	f.Add([]byte(`{"final":{"claims":[],"implementation_plan":[],"verification_plan":[],"uncertainties":[],"exclusions":[],"citations":[]},"reconciliation":null}`), uint8(0))
	f.Add([]byte(`{"a":1,"a":2}`), uint8(1))
	f.Add([]byte("\xef\xbb\xbf{}"), uint8(1))
	f.Add([]byte(`{"a":"\ud800"}`), uint8(1))
	f.Add([]byte("{\"a\":\"\xff\"}"), uint8(1))
	f.Add([]byte(`[1e400,-0,1.5]`), uint8(1))
	f.Add([]byte(strings.Repeat("[", 200)), uint8(1))
	roles := []Role{RoleDraft, RoleReviewA, RoleReviewB}
	f.Fuzz(func(t *testing.T, data []byte, role uint8) {
		r := roles[int(role)%3]
		resp, err := DecodeResponse(data, "responses/S1.json", r)
		checkRefusal(t, err, "responses/S1.json")
		if err == nil {
			if resp == nil {
				t.Fatal("nil response without error")
			}
			if (r == RoleReviewB) != (resp.Reconciliation != nil) {
				t.Fatalf("role %s accepted reconciliation %v", r, resp.Reconciliation)
			}
			if len(resp.Final.Claims) > MaxClaims || len(resp.Final.Citations) > MaxCitations {
				t.Fatal("array maximum not enforced")
			}
		}
	})
}

func FuzzDecodeManifest(f *testing.F) {
	fsys := campaigntest.Campaign(f, campaigntest.Options{}, 1, 1)
	f.Add(fsys[ManifestFile].Data)
	f.Add([]byte(`{"contract_version":"741-v1.0"}`))
	f.Add([]byte(`{"runs":[{"repetition":-0}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := DecodeManifest(data, ManifestFile)
		checkRefusal(t, err, ManifestFile)
		if err == nil && m == nil {
			t.Fatal("nil manifest without error")
		}
	})
}
