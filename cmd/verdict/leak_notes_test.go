package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"verdict/adjudication"
	"verdict/blinding"
	"verdict/fixtures"
	"verdict/internal/synth"
)

// TestDisagreementsScanNotes: a rater's note on a disputed field is scanned
// with the leak scan's rules before the adjudicator sees it; the findings
// are listed beside the note (text and JSON), the note itself is shown
// exactly as written, and an ordinary note has no finding.
func TestDisagreementsScanNotes(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	res, err := blinding.Build(synth.Campaign(), blinding.Options{Key: synth.Key, Raters: []string{"ann", "bob"}})
	if err != nil {
		t.Fatal(err)
	}
	p := func(n string) string { return filepath.Join(dir, n) }
	keys := "../../fixtures/keys/"
	leaky := "I am the second reviewer."
	plain := fixtures.OrdinaryNotes[0]
	for i, r := range []string{"ann", "bob"} {
		os.WriteFile(p("bundle-"+r+".json"), res.BundleBytes[i], 0o600)
		var in []gradeInput
		for _, f := range adjudication.BundleFields(res.Bundles[i]) {
			g := gradeInput{Item: f.Item, Kind: f.Kind, Target: f.Target, Value: adjudication.AllowedValues(f.Kind)[0]}
			if f.Kind == adjudication.KindClaim && f.Target == "C1" {
				if r == "bob" {
					g.Value, g.Note = adjudication.AllowedValues(f.Kind)[1], leaky
				} else {
					g.Note = plain
				}
			}
			in = append(in, g)
		}
		data, _ := json.Marshal(in)
		os.WriteFile(p("grades-"+r+".json"), data, 0o600)
		mustRun(t, 0, "grade", p("bundle-"+r+".json"), "--journal", p("bundle-"+r+".journal.jsonl"), "--from", p("grades-"+r+".json"))
		mustRun(t, 0, "freeze", "--journal", p("bundle-"+r+".journal.jsonl"), "--bundle", p("bundle-"+r+".json"), "--allowed-signers", keys+"allowed_signers",
			"--key", keys+"rater-"+r, "--name", r, "--out", p("sheet-"+r+".json"), "--time", "2026-03-04T05:06:07Z")
	}
	code, out, _ := runCapture(t, "disagreements", p("sheet-ann.json"), p("sheet-bob.json"), "--allowed-signers", keys+"allowed_signers", "--format", "json")
	if code != 0 {
		t.Fatalf("disagreements: exit %d\n%s", code, out)
	}
	var rep struct {
		Disagreements []adjudication.Disagreement `json:"disagreements"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	found := 0
	for _, d := range rep.Disagreements {
		if d.Notes[1] != leaky {
			continue
		}
		found++
		if d.Notes[0] != plain {
			t.Errorf("%s: the first rating's note is %q, want it as written", d.Field, d.Notes[0])
		}
		if len(d.NoteFindings[0]) != 0 {
			t.Errorf("%s: ordinary note %q flagged: %v", d.Field, plain, d.NoteFindings[0])
		}
		if len(d.NoteFindings[1]) == 0 || d.NoteFindings[1][0].Kind != blinding.FindingArmVocabulary || d.NoteFindings[1][0].Rule == "" {
			t.Errorf("%s: note %q has findings %v, want an arm-vocabulary finding with its rule", d.Field, leaky, d.NoteFindings[1])
		}
	}
	if found == 0 {
		t.Fatalf("no disputed field carries the note %q\n%s", leaky, out)
	}
	_, text, _ := runCapture(t, "disagreements", p("sheet-ann.json"), p("sheet-bob.json"), "--allowed-signers", keys+"allowed_signers")
	if !strings.Contains(text, `note of the second rating: "`+leaky+`"`) || !strings.Contains(text, `leak scan: arm-vocabulary "second reviewer"`) {
		t.Errorf("disagreements text does not show the note as written with its finding:\n%s", text)
	}
}
