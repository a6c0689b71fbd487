package adjudication_test

import (
	"testing"

	"verdict/adjudication"
	"verdict/fixtures"
)

// TestScanNoteCorpus: a rater's note is scanned with the rules the bundles
// are scanned with: every leak variant (among them the simple names: armB,
// the second reviewer, review #2, the B-side review, the alternate arm,
// reviewer two, the arm labelled B, and their families) is found in a note,
// each finding with its rule, and no ordinary rater note is flagged.
func TestScanNoteCorpus(t *testing.T) {
	for name, text := range fixtures.LeakVariants {
		fs := adjudication.ScanNote(text)
		if len(fs) == 0 {
			t.Errorf("note %q (%q) is not flagged", name, text)
		}
		for _, f := range fs {
			if f.Rule == "" && f.Kind != "revealing-token" {
				t.Errorf("note %q: finding %v has no rule", name, f)
			}
		}
	}
	for _, text := range append(fixtures.OrdinaryNotes, fixtures.OrdinaryTexts...) {
		if fs := adjudication.ScanNote(text); len(fs) != 0 {
			t.Errorf("ordinary note %q is flagged: %v", text, fs)
		}
	}
	if fs := adjudication.ScanNote(""); fs == nil || len(fs) != 0 {
		t.Errorf("empty note: %v, want an empty non-nil list", fs)
	}
}
