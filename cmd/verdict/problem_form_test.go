package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"regexp"
	"testing"
	"testing/fstest"

	"verdict/campaign"
	"verdict/internal/campaigntest"
)

// problemMembers is the one JSON form of a refusal (verr.Problem), in order.
var problemMembers = regexp.MustCompile(`\{\s*"reason": "[^"]*",\s*"file": "[^"]*",\s*"pointer": "[^"]*",\s*"rule": "[^"]*",\s*"message": "`)

// TestRefusalsShareOneJSONForm: check, admit and validate print a refusal
// as the same {reason, file, pointer, rule, message} object.
func TestRefusalsShareOneJSONForm(t *testing.T) {
	t.Parallel()
	f := campaigntest.Campaign(t, campaigntest.Options{Phase: campaign.PhaseDevelopmentRound1, Admissible: true}, 4, 1)
	src := campaign.SourcePath("synthetic/repo1", "src/t1/f2.ts")
	f[src] = &fstest.MapFile{Data: bytes.Replace(f[src].Data, []byte("= 2;"), []byte("= 3;"), 1)}
	dir := chkWriteDir(t, f)
	for _, args := range [][]string{
		{"check", "--format", "json", dir},
		{"admit", "--format", "json", dir},
		{"admit", "--format", "json", filepath.Join(dir, "absent")},
	} {
		code, out := chkRunCaptured(t, args...)
		if code != 1 || !json.Valid([]byte(out)) {
			t.Fatalf("%v: exit %d\n%s", args, code, out)
		}
		if !problemMembers.MatchString(out) {
			t.Errorf("%v: no refusal in the {reason, file, pointer, rule, message} form:\n%.1500s", args, out)
		}
	}
}
