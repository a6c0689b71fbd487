package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"verdict/assemble"
	"verdict/blinding"
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

// TestManifestInit: manifest init writes the frozen prompt texts and a
// manifest with the runs the phase requires (counterbalanced orders,
// session IDs in dispatch order, replaces null), lists every identity it
// left null, refuses a design admission would refuse and a started
// campaign with other bytes, and round 2 binds round 1's manifest.
func TestManifestInit(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	r1 := filepath.Join(dir, "r1")
	dev := []string{"--task", "acme/widgets:behavior-explanation", "--task", "acme/widgets:change-impact-plan", "--task", "acme/gears:correctness-boundary", "--task", "acme/gears:explicit-uncertainty"}
	code, out := chkRunCaptured(t, append([]string{"manifest", "init", r1, "--phase", "development-round-1", "--identity", "execution.host=SYNTHETIC host"}, dev...)...)
	if code != 0 || !strings.Contains(out, "4 run(s), 12 session(s)") || !strings.Contains(out, "  T2    1          B-first  S4     S6       S5") || !strings.Contains(out, "  seed\n") || strings.Contains(out, "execution.host") {
		t.Fatalf("init: exit %d\n%s", code, out)
	}
	var m struct {
		Seed  *string
		Tasks []struct{ ID, Repository, Category string }
		Runs  []struct {
			Task     string
			Order    string
			Replaces *string
			Sessions map[string]string
		}
		Files []struct{ Path string }
	}
	raw, _ := os.ReadFile(filepath.Join(r1, "manifest.json"))
	if err := json.Unmarshal(raw, &m); err != nil || m.Seed != nil || len(m.Tasks) != 4 || m.Tasks[3].ID != "T4" || len(m.Runs) != 4 || len(m.Files) != 6 {
		t.Fatalf("manifest: %v\n%s", err, raw)
	}
	for i, r := range m.Runs {
		if r.Replaces != nil || (i%2 == 0) != (r.Order == "A-first") {
			t.Errorf("run %d: %+v", i, r)
		}
	}
	for _, k := range []string{"common.txt", "review-b.txt", "final-schema.txt"} {
		got, _ := os.ReadFile(filepath.Join(r1, "prompts", k))
		want, _ := os.ReadFile(filepath.Join("../../fixtures/live/prompts", k))
		if len(got) == 0 || string(got) != string(want) {
			t.Errorf("prompts/%s is not the frozen text", k)
		}
	}
	// The same request again: nothing changes; another: refused.
	if code, out = chkRunCaptured(t, append([]string{"manifest", "init", r1, "--phase", "development-round-1", "--identity", "execution.host=SYNTHETIC host"}, dev...)...); code != 0 || !strings.Contains(out, "unchanged manifest.json") {
		t.Fatalf("again: exit %d\n%s", code, out)
	}
	if code, out = chkRunCaptured(t, append([]string{"manifest", "init", r1, "--phase", "development-round-1"}, dev...)...); code != 1 || !strings.Contains(out, "file-differs") {
		t.Fatalf("other bytes: exit %d\n%s", code, out)
	}
	if after, _ := os.ReadFile(filepath.Join(r1, "manifest.json")); string(after) != string(raw) {
		t.Fatal("a refused init changed manifest.json")
	}
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"evaluation with 4 tasks", append([]string{"--phase", "evaluation"}, dev...)},
		{"three tasks in one repository", []string{"--phase", "development-round-1", "--task", "a/b:behavior-explanation", "--task", "a/b:behavior-explanation", "--task", "a/b:behavior-explanation", "--task", "c/d:behavior-explanation"}},
		{"unknown category", []string{"--phase", "development-round-1", "--task", "a/b:speed"}},
		{"unknown identity", append([]string{"--phase", "development-round-1", "--identity", "execution.colour=blue"}, dev...)},
		{"bad seed", append([]string{"--phase", "development-round-1", "--seed", "abc"}, dev...)},
	} {
		out := filepath.Join(dir, "x")
		if code, got := chkRunCaptured(t, append([]string{"manifest", "init", out}, tc.args...)...); code != 1 || !strings.Contains(got, "init-design") {
			t.Errorf("%s: exit %d\n%s", tc.name, code, got)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%s: a refused init wrote %s", tc.name, out)
		}
	}
	// Evaluation: 8 tasks, 3 repetitions, 12 A-first and 12 B-first.
	eval := []string{"manifest", "init", filepath.Join(dir, "ev"), "--phase", "evaluation", "--seed", "new", "--format", "json"}
	for _, t := range []string{"a/b:behavior-explanation", "a/b:change-impact-plan", "c/d:behavior-explanation", "c/d:change-impact-plan",
		"e/f:correctness-boundary", "e/f:explicit-uncertainty", "g/h:correctness-boundary", "g/h:explicit-uncertainty"} {
		eval = append(eval, "--task", t)
	}
	code, out = chkRunCaptured(t, eval...)
	var res struct {
		Seed string
		Runs []struct{ Task, Order string }
	}
	if code != 0 || json.Unmarshal([]byte(out), &res) != nil || len(res.Seed) != 64 || len(res.Runs) != 24 {
		t.Fatalf("evaluation: exit %d\n%s", code, out)
	}
	orders := map[string]map[string]int{}
	total := map[string]int{}
	for _, r := range res.Runs {
		if orders[r.Task] == nil {
			orders[r.Task] = map[string]int{}
		}
		orders[r.Task][r.Order]++
		total[r.Order]++
	}
	if total["A-first"] != 12 || total["B-first"] != 12 {
		t.Fatalf("orders %v", total)
	}
	for task, o := range orders {
		if o["A-first"] == 0 || o["B-first"] == 0 {
			t.Errorf("task %s lacks an order: %v", task, o)
		}
	}
	// Round 2 binds round 1 and swaps every task's order.
	r2 := filepath.Join(dir, "r2")
	if code, out = chkRunCaptured(t, "manifest", "init", r2, "--phase", "development-round-2", "--previous", r1); code != 0 || !strings.Contains(out, "  T1    1          B-first") {
		t.Fatalf("round 2: exit %d\n%s", code, out)
	}
	raw2, _ := os.ReadFile(filepath.Join(r2, "manifest.json"))
	if !strings.Contains(string(raw2), `"manifest_sha256": "`+blinding.Digest(raw)+`"`) || !strings.Contains(string(raw2), `"host": "SYNTHETIC host"`) {
		t.Fatalf("round 2 manifest:\n%s", raw2)
	}
}
