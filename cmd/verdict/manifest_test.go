package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"verdict/assemble"
	"verdict/fixtures"
)

// liveCampaign makes a campaign directory with the proposed live
// manifest's prompts and a packet built from a git repository the test
// creates, without manifest.json.
func liveCampaign(t *testing.T) string {
	t.Helper()
	repo, commit := gitRepo(t, packetFiles)
	camp := t.TempDir()
	if err := os.CopyFS(filepath.Join(camp, "prompts"), os.DirFS("../../fixtures/live/prompts")); err != nil {
		t.Fatal(err)
	}
	args := append([]string{"packet", camp, "--task", "T1", "--repo", "synthetic-owner/synthetic-repo=" + repo, "--commit", commit}, packetItems...)
	if code, out := chkRunCaptured(t, args...); code != 0 {
		t.Fatalf("packet: exit %d\n%s", code, out)
	}
	return camp
}

// TestManifestBindsAndRefusesRebinding: verdict manifest starts from the
// proposed live manifest (every null identity stays null), binds every
// file sorted, prints what changed, writes nothing in a dry run, accepts
// new responses and receipts after sessions ran, and refuses a changed
// frozen input (frozen-input-changed) or a rebound result (result-rebound).
func TestManifestBindsAndRefusesRebinding(t *testing.T) {
	t.Parallel()
	camp := liveCampaign(t)
	live := "../../fixtures/live/manifest.json"
	if code, out := chkRunCaptured(t, "manifest", camp); code != 1 || !strings.Contains(out, "manifest-missing") {
		t.Fatalf("no manifest, no --from: exit %d\n%s", code, out)
	}
	code, out := chkRunCaptured(t, "manifest", camp, "--from", live, "--dry-run")
	if code != 0 || !strings.Contains(out, "added   sources/synthetic-owner/synthetic-repo/src/crlf.ts ") || !strings.Contains(out, "nothing written") {
		t.Fatalf("dry run: exit %d\n%s", code, out)
	}
	if _, err := os.Stat(filepath.Join(camp, "manifest.json")); err == nil {
		t.Fatal("a dry run wrote manifest.json")
	}
	if code, out = chkRunCaptured(t, "manifest", camp, "--from", live); code != 0 || !strings.Contains(out, "4 change(s), 10 file(s) bound") {
		t.Fatalf("bind: exit %d\n%s", code, out)
	}
	raw, _ := os.ReadFile(filepath.Join(camp, "manifest.json"))
	liveRaw, _ := os.ReadFile(live)
	var got, want map[string]json.RawMessage
	json.Unmarshal(raw, &got)
	json.Unmarshal(liveRaw, &want)
	for k := range want {
		if k != "files" && string(got[k]) != string(want[k]) {
			t.Errorf("member %s changed:\n%s\nwant\n%s", k, got[k], want[k])
		}
	}
	if !strings.Contains(string(raw), `"seed": null`) || !strings.Contains(string(raw), `"host": null`) {
		t.Fatal("a null identity was filled")
	}
	var files struct {
		Files []struct{ Path string } `json:"files"`
	}
	json.Unmarshal(raw, &files)
	for i := 1; i < len(files.Files); i++ {
		if files.Files[i-1].Path >= files.Files[i].Path {
			t.Fatalf("files not sorted: %v", files.Files)
		}
	}
	if code, out = chkRunCaptured(t, "manifest", camp); code != 0 || !strings.Contains(out, "unchanged") {
		t.Fatalf("rebind: exit %d\n%s", code, out)
	}
	// Before any session ran, a frozen input may still change.
	src := filepath.Join(camp, "tasks", "T1", "task.md")
	os.WriteFile(src, []byte("SYNTHETIC task text\n"), 0o644)
	if code, out = chkRunCaptured(t, "manifest", camp); code != 0 || !strings.Contains(out, "added   tasks/T1/task.md") {
		t.Fatalf("task before sessions: exit %d\n%s", code, out)
	}
	// A session ran: its response and receipt are added.
	os.MkdirAll(filepath.Join(camp, "responses"), 0o755)
	os.MkdirAll(filepath.Join(camp, "receipts"), 0o755)
	os.WriteFile(filepath.Join(camp, "responses", "S1.json"), []byte("{}\n"), 0o644)
	if code, out = chkRunCaptured(t, "manifest", camp); code != 0 || !strings.Contains(out, "added   responses/S1.json") {
		t.Fatalf("response: exit %d\n%s", code, out)
	}
	os.WriteFile(filepath.Join(camp, "receipts", "S1.json"), []byte("{}\n"), 0o644)
	if code, out = chkRunCaptured(t, "manifest", camp); code != 0 || !strings.Contains(out, "added   receipts/S1.json") {
		t.Fatalf("receipt: exit %d\n%s", code, out)
	}
	// The rating guidelines reach no session: bound even after sessions
	// ran, and changed until a blinding carries them.
	os.WriteFile(filepath.Join(camp, "guidelines.md"), []byte("SYNTHETIC guidelines\n"), 0o644)
	if code, out = chkRunCaptured(t, "manifest", camp); code != 0 || !strings.Contains(out, "added   guidelines.md") {
		t.Fatalf("guidelines: exit %d\n%s", code, out)
	}
	os.WriteFile(filepath.Join(camp, "guidelines.md"), []byte("SYNTHETIC guidelines, revised\n"), 0o644)
	if code, out = chkRunCaptured(t, "manifest", camp); code != 0 || !strings.Contains(out, "changed guidelines.md") {
		t.Fatalf("guidelines changed: exit %d\n%s", code, out)
	}
	before, _ := os.ReadFile(filepath.Join(camp, "manifest.json"))
	// Now the inputs are frozen and the results are never rebound.
	for _, tc := range []struct {
		name, path, data, reason string
	}{
		{"changed task", "tasks/T1/task.md", "SYNTHETIC other task text\n", "frozen-input-changed"},
		{"new source", "sources/synthetic-owner/synthetic-repo/src/new.ts", "x\n", "frozen-input-changed"},
		{"changed prompt", "prompts/common.txt", "changed\n", "frozen-input-changed"},
		{"changed response", "responses/S1.json", "{ }\n", "result-rebound"},
	} {
		p := filepath.Join(camp, filepath.FromSlash(tc.path))
		old, had := os.ReadFile(p)
		os.WriteFile(p, []byte(tc.data), 0o644)
		if code, out = chkRunCaptured(t, "manifest", camp); code != 1 || !strings.Contains(out, tc.reason) || !strings.Contains(out, tc.path) {
			t.Errorf("%s: exit %d, want 1 with %s\n%s", tc.name, code, tc.reason, out)
		}
		if had == nil {
			os.WriteFile(p, old, 0o644)
		} else {
			os.Remove(p)
		}
	}
	os.Remove(filepath.Join(camp, "receipts", "S1.json"))
	if code, out = chkRunCaptured(t, "manifest", camp); code != 1 || !strings.Contains(out, "result-rebound") {
		t.Errorf("removed receipt: exit %d\n%s", code, out)
	}
	if after, _ := os.ReadFile(filepath.Join(camp, "manifest.json")); string(after) != string(before) {
		t.Fatal("a refused binding changed manifest.json")
	}
}

// TestManifestRefusesAfterBlinding: once verdict blind recorded a blinding
// in the campaign, any change of a digest is refused (campaign-blinded).
func TestManifestRefusesAfterBlinding(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	camp := filepath.Join(dir, "campaign")
	if err := os.CopyFS(camp, fixtures.Campaign()); err != nil {
		t.Fatal(err)
	}
	if code, out := chkRunCaptured(t, "manifest", camp); code != 0 || !strings.Contains(out, "unchanged") {
		t.Fatalf("bound campaign: exit %d\n%s", code, out)
	}
	if code, out := chkRunCaptured(t, "blind", camp, "--out", filepath.Join(dir, "blind"), "--raters", "ann,bob"); code != 0 || !strings.Contains(out, "blinding recorded in the campaign: "+assemble.BlindingsDir+"/") {
		t.Fatalf("blind: exit %d\n%s", code, out)
	}
	os.MkdirAll(filepath.Join(camp, "responses"), 0o755)
	os.WriteFile(filepath.Join(camp, "responses", "S999.json"), []byte("{}\n"), 0o644)
	if code, out := chkRunCaptured(t, "manifest", camp); code != 1 || !strings.Contains(out, "campaign-blinded") {
		t.Fatalf("after blinding: exit %d\n%s", code, out)
	}
	os.Remove(filepath.Join(camp, "responses", "S999.json"))
	os.WriteFile(filepath.Join(camp, "guidelines.md"), []byte("SYNTHETIC guidelines written after blinding\n"), 0o644)
	if code, out := chkRunCaptured(t, "manifest", camp); code != 1 || !strings.Contains(out, "campaign-blinded") || !strings.Contains(out, "guidelines.md") {
		t.Fatalf("guidelines after blinding: exit %d\n%s", code, out)
	}
	os.Remove(filepath.Join(camp, "guidelines.md"))
	// Nothing to change is still fine.
	if code, out := chkRunCaptured(t, "manifest", camp); code != 0 {
		t.Fatalf("unchanged after blinding: exit %d\n%s", code, out)
	}
	// check still admits the campaign with its blinding record.
	if code, out := chkRunCaptured(t, "check", camp); code != 0 {
		t.Fatalf("check after blinding: exit %d\n%s", code, out)
	}
}
