package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// TestErrorReceiptAnswerNeverBundled: a review whose receipt records an
// error (here a refusal) is a valid scored failure even when the output
// kept beside it decodes as an answer (receipt import keeps a refused or
// cut-off answer's text): blind gives no rater an item for it, and a
// bundle made before the edit no longer matches the campaign (CONTRACT §4).
func TestErrorReceiptAnswerNeverBundled(t *testing.T) {
	dir := t.TempDir()
	camp := filepath.Join(dir, "c")
	if code, _, errs := runCLI(t, "fixtures", "generate", "--out", camp, "--tasks", "2", "--repetitions", "1"); code != 0 {
		t.Fatalf("generate: %d %s", code, errs)
	}
	items := func(out string) int {
		t.Helper()
		if code, _, errs := runCLI(t, "blind", camp, "--out", out); code != 0 {
			t.Fatalf("blind: %d %s", code, errs)
		}
		b, err := os.ReadFile(filepath.Join(out, "bundle-rater-1.json"))
		if err != nil {
			t.Fatal(err)
		}
		var bundle struct {
			Items []json.RawMessage `json:"items"`
		}
		if err := json.Unmarshal(b, &bundle); err != nil {
			t.Fatal(err)
		}
		return len(bundle.Items)
	}
	before := items(filepath.Join(dir, "r1"))
	rebindEdit(t, camp, "receipts/S2.json", `"status": "response",
  "error_kind": null,`, `"status": "error",
  "error_kind": "refusal",`)
	after := items(filepath.Join(dir, "r2"))
	if after != before-1 {
		t.Fatalf("items before %d, after the review's receipt records a refusal %d: want one fewer", before, after)
	}
}
