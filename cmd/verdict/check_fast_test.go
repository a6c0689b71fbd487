package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"verdict/campaign"
	"verdict/internal/campaigntest"
	"verdict/verr"
)

// TestCheckSameOnReferencePath: `verdict check` and `verdict check
// --reference` (the reference validator only) print the same bytes (text
// and JSON) and exit alike, on the embedded campaign, an admissible
// generated campaign and a generated campaign with scored failures, a
// refused receipt and links inside and out of the campaign. The two runs
// of each case run in parallel.
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
	type run struct {
		code int
		out  string
	}
	for _, args := range [][]string{{"check"}, {"check", good}, {"check", failing}, {"check", bad}} {
		for _, format := range []string{"text", "json"} {
			a := append(slices.Clone(args), "--format", format)
			var fast, ref run
			var wg sync.WaitGroup
			wg.Go(func() { fast.code, fast.out = chkRunCaptured(t, a...) })
			wg.Go(func() { ref.code, ref.out = chkRunCaptured(t, append(slices.Clone(a), "--reference")...) })
			wg.Wait()
			if fast != ref {
				t.Fatalf("%v: exit %d, with --reference exit %d\ncheck:\n%s\ncheck --reference:\n%s", a, fast.code, ref.code, fast.out, ref.out)
			}
			if format == "json" && !json.Valid([]byte(fast.out)) {
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
