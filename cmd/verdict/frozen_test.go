package main

import (
	"bytes"
	"encoding/json"
	"maps"
	"strings"
	"testing"
	"testing/fstest"

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

// TestCheckFrozenDocumentsAndPrompts: `verdict check` refuses a 741-v1.0
// manifest that binds a frozen document with another digest, misses one,
// binds an extra one, or binds a prompt text that is not byte-identical to
// the frozen PROMPTS.md text, each with its own reason (SYNTHETIC
// campaigns); the unchanged campaign is admitted.
func TestCheckFrozenDocumentsAndPrompts(t *testing.T) {
	cases := []struct {
		name   string
		change func(t *testing.T, f fstest.MapFS, m *campaign.Manifest)
		want   map[verr.Reason]string // reason → pointer or file
	}{
		{"unchanged", func(*testing.T, fstest.MapFS, *campaign.Manifest) {}, nil},
		{"other digest", func(_ *testing.T, _ fstest.MapFS, m *campaign.Manifest) {
			m.FrozenDocuments[2].SHA256 = strings.Repeat("0", 64)
		}, map[verr.Reason]string{scorer.ReasonFrozenDocumentDigest: "/frozen_documents/2/sha256"}},
		{"missing document", func(_ *testing.T, _ fstest.MapFS, m *campaign.Manifest) {
			m.FrozenDocuments = m.FrozenDocuments[1:]
		}, map[verr.Reason]string{scorer.ReasonFrozenDocumentMissing: "/frozen_documents"}},
		{"extra document", func(_ *testing.T, _ fstest.MapFS, m *campaign.Manifest) {
			m.FrozenDocuments = append(m.FrozenDocuments, campaign.FrozenDocument{Name: "README.md", SHA256: strings.Repeat("1", 64)})
		}, map[verr.Reason]string{scorer.ReasonFrozenDocumentExtra: "/frozen_documents/5"}},
		{"changed common instruction", func(_ *testing.T, f fstest.MapFS, m *campaign.Manifest) {
			p := m.Prompts.Common
			f[p] = &fstest.MapFile{Data: bytes.Replace(f[p].Data, []byte("read-only"), []byte("careful"), 1)}
		}, map[verr.Reason]string{scorer.ReasonPromptNotFrozen: "prompts/common.txt"}},
		{"revised B without a previous round", func(_ *testing.T, f fstest.MapFS, m *campaign.Manifest) {
			p := m.Prompts.ReviewB
			f[p] = &fstest.MapFile{Data: append(bytes.Clone(f[p].Data), []byte("Check every link twice.\n")...)}
		}, map[verr.Reason]string{scorer.ReasonPromptNotFrozen: "prompts/review_b.txt"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := campaigntest.Campaign(t, campaigntest.Options{Phase: campaign.PhaseDevelopmentRound1, Admissible: true}, 4, 1)
			m := campaigntest.ManifestOf(t, f)
			tc.change(t, f, m)
			campaigntest.WriteManifest(t, f, m)
			campaigntest.TrueReceipts(t, f) // a runner that used the changed text records it truly
			code, out := chkRunCaptured(t, "check", chkWriteDir(t, f), "--format", "json")
			var rep checkReport
			if err := json.Unmarshal([]byte(out), &rep); err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			got := map[verr.Reason]string{}
			for _, p := range rep.Admission {
				where := p.Pointer
				if p.File != campaign.ManifestFile {
					where = p.File
				}
				got[p.Reason] = where
				if p.Rule == "" || p.Message == "" {
					t.Errorf("admission failure without rule or sentence: %+v", p)
				}
			}
			if len(tc.want) == 0 {
				if code != 0 || len(got) != 0 {
					t.Fatalf("exit %d, admission %v", code, rep.Admission)
				}
				return
			}
			if code != 1 || !maps.Equal(got, tc.want) {
				t.Fatalf("exit %d, admission %v, want %v", code, got, tc.want)
			}
		})
	}
}
