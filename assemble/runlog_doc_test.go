package assemble

import (
	"os"
	"strings"
	"testing"

	"verdict/campaign"
)

// TestDocResponsesLogExample: the Responses API log shown in
// docs/campaign-format.md (the block after "example: responses-api-log")
// is a log receipt import reads: its identity, model, final message and
// the four counts of the meter come out as the example states them.
func TestDocResponsesLogExample(t *testing.T) {
	doc, err := os.ReadFile("../docs/campaign-format.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(doc), "<!-- example: responses-api-log -->\n```json\n")
	if !ok {
		t.Fatal("docs/campaign-format.md has no responses-api-log example")
	}
	block, _, ok := strings.Cut(rest, "```")
	if !ok {
		t.Fatal("the responses-api-log example is not closed")
	}
	l, err := ParseRunLog("responses-api-json", []byte(block), "S1.json")
	if err != nil {
		t.Fatalf("the documented log is refused: %v", err)
	}
	if l.Terminal != campaign.StatusResponse || l.ResponseID != "resp_SYNTHETIC_S1" || l.Model == nil || *l.Model != "gpt-5.6-sol" ||
		!strings.HasPrefix(string(l.Final), `{"final": {"claims": []`) || len(l.Modifiers) != 0 {
		t.Errorf("status %q, id %q, model %v, final %q, modifiers %v", l.Terminal, l.ResponseID, l.Model, l.Final, l.Modifiers)
	}
	for name, p := range map[string]*int64{"input": l.InputTokens, "cached": l.CachedInputTokens, "output": l.OutputTokens, "reasoning": l.ReasoningTokens} {
		want := map[string]int64{"input": 4346, "cached": 0, "output": 1331, "reasoning": 707}[name]
		if p == nil || *p != want {
			t.Errorf("%s tokens %v, want %d", name, p, want)
		}
	}
}
