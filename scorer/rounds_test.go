package scorer

import (
	"bytes"
	"strings"
	"testing"

	"verdict/campaign"
)

// TestReportShowsPromptRevision: report.json and report.md carry B's v1.1
// diff against the frozen v1.0 text when the campaign binds a revised B
// instruction, and nothing when it binds the frozen one.
func TestReportShowsPromptRevision(t *testing.T) {
	c := &campaign.Campaign{Manifest: campaign.Manifest{Prompts: campaign.PromptFiles{ReviewB: "prompts/review-b.txt"}},
		Prompts: map[string][]byte{campaign.PromptReviewB: campaign.FrozenPrompt(campaign.PromptReviewB)}}
	if BRevision(c) != nil {
		t.Fatal("the frozen B text is not a revision")
	}
	c.Prompts[campaign.PromptReviewB] = append(bytes.Clone(campaign.FrozenPrompt(campaign.PromptReviewB)), []byte("SYNTHETIC added sentence.\n")...)
	rv := BRevision(c)
	if rv == nil || rv.Label != "v1.1" || !strings.Contains(rv.Diff, "+SYNTHETIC added sentence.") || !strings.Contains(rv.Diff, "+++ review-b v1.1") {
		t.Fatalf("revision %+v", rv)
	}
	r := goldenReport(t)
	r.Provenance.PromptRevision = rv
	js, err := r.JSON()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(js, []byte(`"prompt_revision"`)) || !bytes.Contains(r.Markdown(false), []byte("```diff\n--- review-b v1.0")) {
		t.Fatal("the report does not show the v1.1 diff")
	}
}
