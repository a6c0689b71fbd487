package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"verdict/campaign"
	"verdict/internal/campaigntest"
	"verdict/internal/fastpath"
	"verdict/verr"
)

// TestCheckSameOnReferencePath: `verdict check` prints the same bytes (text
// and JSON) with the fast accept path and with only the reference path, on
// the embedded campaign, an admissible generated campaign and a generated
// campaign with scored failures, a refused receipt and links inside and
// out of the campaign.
func TestCheckSameOnReferencePath(t *testing.T) {
	t.Parallel()
	good := chkWriteDir(t, campaigntest.Campaign(t, campaigntest.Options{Phase: campaign.PhaseDevelopmentRound1, Admissible: true}, 4, 2))
	camp := campaigntest.Campaign(t, campaigntest.Options{}, 3, 2)
	camp[campaign.ResponsePath("S1")] = &fstest.MapFile{Data: []byte(`{"final": {"claims": []}, "reconciliation": null}`)}
	camp[campaign.ResponsePath("S2")] = &fstest.MapFile{Data: []byte("\xef\xbb\xbf{}")}
	campaigntest.Rebind(t, camp)
	failing := chkWriteDir(t, camp)
	camp[campaign.ReceiptPath("S4")] = &fstest.MapFile{Data: []byte(`{"session_id": "S4", "extra": 1}`)}
	campaigntest.Rebind(t, camp)
	bad := chkWriteDir(t, camp)
	// A response that links inside the campaign and a receipt that links out of it.
	resp := filepath.Join(bad, filepath.FromSlash(campaign.ResponsePath("S5")))
	if err := os.Rename(resp, filepath.Join(bad, "S5.json")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join("..", "S5.json"), resp); err != nil {
		t.Fatal(err)
	}
	rc := filepath.Join(bad, filepath.FromSlash(campaign.ReceiptPath("S6")))
	outside := filepath.Join(t.TempDir(), "S6.json")
	if err := os.Rename(rc, outside); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, rc); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"check"}, {"check", good}, {"check", failing}, {"check", bad}} {
		for _, format := range []string{"text", "json"} {
			a := append(args, "--format", format)
			code, fast := chkRunCaptured(t, a...)
			fastpath.ReferenceOnly.Store(true)
			refCode, ref := chkRunCaptured(t, a...)
			fastpath.ReferenceOnly.Store(false)
			if code != refCode || fast != ref {
				t.Fatalf("%v: fast path exit %d, reference path exit %d\nfast:\n%s\nreference:\n%s", a, code, refCode, fast, ref)
			}
			if format == "json" && !json.Valid([]byte(fast)) {
				t.Fatalf("%v: not JSON", a)
			}
		}
	}
	// The broken campaigns show their scored failures and refusals.
	for _, c := range []struct {
		dir      string
		failures bool
	}{{failing, true}, {bad, false}} {
		_, out := chkRunCaptured(t, "check", c.dir, "--format", "json")
		var rep struct {
			Refusals       []verr.Problem `json:"refusals"`
			ScoredFailures []verr.Problem `json:"scored_failures"`
		}
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatal(err)
		}
		if c.failures && len(rep.ScoredFailures) != 2 || !c.failures && len(rep.Refusals) == 0 {
			t.Fatalf("%d scored failures, %d refusals:\n%s", len(rep.ScoredFailures), len(rep.Refusals), out)
		}
	}
}

// TestNextDispatchIsNotAdmission: check's next-dispatch line says it is the
// budget's verdict only, never a bare "admitted" that reads as campaign
// admission.
func TestNextDispatchIsNotAdmission(t *testing.T) {
	t.Parallel()
	_, out := chkRunCaptured(t, "check")
	i := strings.Index(out, "next dispatch: ")
	if i < 0 {
		t.Fatalf("no next dispatch line:\n%s", out)
	}
	line, _, _ := strings.Cut(out[i:], "\n")
	if strings.HasPrefix(line, "next dispatch: admitted") || !strings.Contains(line, "budget only") {
		t.Fatalf("next dispatch line %q", line)
	}
}
