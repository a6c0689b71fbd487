package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"verdict/blinding"
	"verdict/campaign"
	"verdict/fixtures"
	"verdict/internal/campaigntest"
)

// TestBlindFlagsLeakVariants plants every SYNTHETIC leak variant and every
// ordinary text (fixtures.LeakVariants, fixtures.OrdinaryTexts) as the
// first claim of one review's final answer, runs `verdict blind`, and
// reads leak-findings.json: every variant's item is flagged at that claim,
// with a rule for each finding made in context, and no ordinary text is.
func TestBlindFlagsLeakVariants(t *testing.T) {
	t.Parallel()
	fsys := campaigntest.Campaign(t, campaigntest.Options{Phase: campaign.PhaseDevelopmentRound1, Admissible: true}, 16, 3)
	names := slices.Sorted(func(yield func(string) bool) {
		for n := range fixtures.LeakVariants {
			if !yield(n) {
				return
			}
		}
	})
	texts := map[string]string{} // session ID -> planted text name ("ordinary N" for ordinary texts)
	var reviews []string
	for _, r := range campaigntest.ManifestOf(t, fsys).Runs {
		reviews = append(reviews, campaign.ResponsePath(r.Sessions.ReviewA), campaign.ResponsePath(r.Sessions.ReviewB))
	}
	slices.Sort(reviews)
	plant := func(i int, name, text string) {
		p := reviews[i]
		var r map[string]any
		if err := json.Unmarshal(fsys[p].Data, &r); err != nil {
			t.Fatal(err)
		}
		claims := r["final"].(map[string]any)["claims"].([]any)
		claims[0].(map[string]any)["text"] = text
		b, _ := json.MarshalIndent(r, "", "  ")
		fsys[p].Data = b
		texts[strings.TrimSuffix(filepath.Base(p), ".json")] = name
	}
	if len(reviews) < len(names)+len(fixtures.OrdinaryTexts) {
		t.Fatalf("%d reviews for %d texts", len(reviews), len(names)+len(fixtures.OrdinaryTexts))
	}
	for i, n := range names {
		plant(i, n, fixtures.LeakVariants[n])
	}
	for i, text := range fixtures.OrdinaryTexts {
		plant(len(names)+i, "ordinary "+text, text)
	}
	campaigntest.Rebind(t, fsys)
	dir := chkWriteDir(t, fsys)
	out := filepath.Join(t.TempDir(), "blind")
	if code, stdout := chkRunCaptured(t, "blind", dir, "--out", out, "--raters", "ann,bob"); code != 0 {
		t.Fatalf("blind: exit %d\n%s", code, stdout)
	}
	mapBytes, err := os.ReadFile(filepath.Join(out, "sealed-map.json"))
	if err != nil {
		t.Fatal(err)
	}
	sealed, err := blinding.ParseSealedMap("sealed-map.json", mapBytes)
	if err != nil {
		t.Fatal(err)
	}
	sessionOf := map[string]string{}
	for _, it := range sealed.Items {
		sessionOf[it.Item] = it.Session
	}
	var findings []blinding.Finding
	lf, err := os.ReadFile(filepath.Join(out, "leak-findings.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(lf, &findings); err != nil {
		var wrapped struct {
			Findings []blinding.Finding `json:"findings"`
		}
		if err2 := json.Unmarshal(lf, &wrapped); err2 != nil {
			t.Fatalf("leak-findings.json: %v / %v", err, err2)
		}
		findings = wrapped.Findings
	}
	flagged := map[string]bool{}
	for _, f := range findings {
		name, ok := texts[sessionOf[f.Item]]
		if !ok {
			t.Errorf("finding outside the planted texts: %s", f)
			continue
		}
		if strings.HasPrefix(name, "ordinary ") {
			t.Errorf("an ordinary text is flagged: %s", f)
			continue
		}
		if !strings.HasSuffix(f.Pointer, "/final/claims/0/text") {
			t.Errorf("%s: finding at %s", name, f.Pointer)
		}
		if f.Kind != blinding.FindingToken && f.Rule == "" {
			t.Errorf("%s: finding without a rule: %s", name, f)
		}
		flagged[name] = true
	}
	for _, n := range names {
		if !flagged[n] {
			t.Errorf("variant %q (%q) is not flagged by verdict blind", n, fixtures.LeakVariants[n])
		}
	}
	t.Logf("verdict blind flagged %d of %d leak variants and 0 of %d ordinary texts", len(flagged), len(names), len(fixtures.OrdinaryTexts))
}
