package main

import (
	"encoding/json"
	"strings"
	"testing"

	"verdict/campaign"
	"verdict/internal/campaigntest"
	"verdict/scorer"
	"verdict/verr"
)

// TestCheckReferencePriceCard: `verdict check` refuses a 741-v1.0
// manifest whose reference card differs from US$4 / 0.40 / 20 per
// million in any one rate, with its own reason naming the manifest, the
// pointer and CONTRACT §5; the frozen rates under another card id are
// admitted (SYNTHETIC campaigns).
func TestCheckReferencePriceCard(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		change func(*campaign.PriceCard)
		refuse bool
	}{
		{"frozen rates, other id", func(c *campaign.PriceCard) { c.ID = "synthetic-other-id" }, false},
		{"cheaper uncached input", func(c *campaign.PriceCard) { c.UncachedInputMicroUSDPerMTok-- }, true},
		{"dearer cached input", func(c *campaign.PriceCard) { c.CachedInputMicroUSDPerMTok++ }, true},
		{"cheaper output", func(c *campaign.PriceCard) { c.OutputMicroUSDPerMTok /= 2 }, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := campaigntest.Campaign(t, campaigntest.Options{Phase: campaign.PhaseDevelopmentRound1, Admissible: true}, 4, 1)
			m := campaigntest.ManifestOf(t, f)
			card := *m.Execution.PriceCard
			tc.change(&card)
			m.Execution.PriceCard = &card
			campaigntest.WriteManifest(t, f, m)
			code, out := chkRunCaptured(t, "check", chkWriteDir(t, f), "--format", "json")
			var rep checkReport
			if err := json.Unmarshal([]byte(out), &rep); err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			var found []verr.Problem
			for _, p := range rep.Admission {
				if p.Reason == scorer.ReasonPriceCardNotReference {
					found = append(found, p)
				}
			}
			if !tc.refuse {
				if code != 0 || len(found) != 0 {
					t.Fatalf("exit %d, card refusals %v", code, found)
				}
				return
			}
			if code != 1 || len(found) != 1 || len(rep.Admission) != 1 || found[0].File != campaign.ManifestFile ||
				found[0].Pointer != "/execution/price_card" || !strings.Contains(found[0].Rule, "CONTRACT §5") {
				t.Fatalf("exit %d, admission %+v", code, rep.Admission)
			}
		})
	}
}
