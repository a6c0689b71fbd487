package main

import (
	"encoding/json"
	"strings"
	"testing"
	"testing/fstest"

	"verdict/fixtures"
)

// TestCheckNamesReplacements: `verdict check` on the SYNTHETIC campaign
// with one replacement triplet (specimen R-replacement: review A of
// cfg-layers r1 leaked cross-arm state) names the replacement, the run it
// replaces and why that run was invalid, in JSON and text, and says that
// infrastructure claims cannot be verified by verdict.
func TestCheckNamesReplacements(t *testing.T) {
	t.Parallel()
	fsys, err := fixtures.Specimen("R-replacement")
	if err != nil {
		t.Fatal(err)
	}
	mfs, ok := fsys.(fstest.MapFS)
	if !ok {
		t.Fatalf("specimen is a %T", fsys)
	}
	dir := chkWriteDir(t, mfs)
	_, out := chkRunCaptured(t, "check", dir, "--format", "json")
	var rep checkReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(rep.Replacements) != 1 {
		t.Fatalf("replacements %+v", rep.Replacements)
	}
	r := rep.Replacements[0]
	if r.Original < 0 || r.Original >= r.Run || r.OriginalSessions[0] != r.Replaces || len(r.Reasons) == 0 || r.Task == "" || r.Repetition != 1 {
		t.Fatalf("replacement %+v", r)
	}
	_, text := chkRunCaptured(t, "check", dir)
	if !strings.Contains(text, "replacement triplets (infrastructure claims come from the receipts; verdict cannot verify them against the platform): 1") ||
		!strings.Contains(text, "replaces run ") || !strings.Contains(text, "original invalid: "+string(r.Reasons[0])) {
		t.Fatalf("text output does not name the replacement:\n%s", text)
	}
}
