package blinding_test

import (
	"encoding/json"
	"testing"

	"verdict/blinding"
	"verdict/fixtures"
)

// TestLeakVariants: every leak variant is found, each with its kind and a
// rule that explains it, and no ordinary text is.
func TestLeakVariants(t *testing.T) {
	sc := blinding.NewScanner(blinding.BaseLeakTokens)
	scan := func(text string) []blinding.Finding {
		doc, _ := json.Marshal(map[string]any{"items": []any{map[string]any{"id": "item-1", "final": map[string]any{"claims": []any{map[string]any{"text": text}}}}}})
		return sc.ScanJSON("r", doc)
	}
	flagged := 0
	for name, text := range fixtures.LeakVariants {
		fs := scan(text)
		if len(fs) == 0 {
			t.Errorf("variant %q (%q) is not flagged", name, text)
			continue
		}
		flagged++
		for _, f := range fs {
			if f.Kind != blinding.FindingToken && f.Rule == "" {
				t.Errorf("variant %q: finding %v has no rule", name, f)
			}
		}
	}
	for _, text := range fixtures.OrdinaryTexts {
		if fs := scan(text); len(fs) != 0 {
			t.Errorf("ordinary text %q is flagged: %v", text, fs)
		}
	}
	t.Logf("%d of %d leak variants flagged; %d of %d ordinary texts flagged", flagged, len(fixtures.LeakVariants), 0, len(fixtures.OrdinaryTexts))
}

// TestLeakFalsePositiveExplained: a known false positive (the word
// "treatment" used in its ordinary sense) is reported with the rule that
// made it, so a coordinator can recognise it; the same word in the task's
// shared inputs exempts it, as for any token.
func TestLeakFalsePositiveExplained(t *testing.T) {
	sc := blinding.NewScanner(blinding.BaseLeakTokens)
	doc := `{"items":[{"id":"item-1","final":{"claims":[{"text":"The treatment of null values is lenient."}]}},
	{"id":"item-2","task_text":"Explain the treatment of null values.","final":{"claims":[{"text":"The treatment of null values is lenient."}]}},
	{"id":"item-3","evidence":[{"excerpt":"amounts are integer cents"}],"final":{"claims":[{"text":"The remainder is handed back one cent at a time."}]}}]}`
	fs := sc.ScanJSON("r", []byte(doc))
	if len(fs) != 1 || fs[0].Item != "item-1" || fs[0].Kind != blinding.FindingArmVocabulary || fs[0].Rule == "" {
		t.Fatalf("findings %v", fs)
	}
	t.Logf("explained: %s", fs[0])
}
