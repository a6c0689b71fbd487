package main

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"verdict/adjudication"
	"verdict/blinding"
	"verdict/campaign"
	"verdict/fixtures"
)

// TestFromRealRunsToCampaign walks docs/campaign-format.md "From real runs
// to a campaign" through the public commands: a git repository the test
// creates (the SYNTHETIC ledgerlite sources) → verdict packet for T1 →
// verdict manifest → one recorded Responses API log and runner timing file
// per session (written by the test) → verdict receipt import (drafts, bind,
// the review prompts, reviews, bind) → check → blind → grade → freeze →
// export grades (blinded) → resolve → reveal → score → export grades
// (unblinded) and runs.
func TestFromRealRunsToCampaign(t *testing.T) {
	dir := t.TempDir()
	p := func(parts ...string) string { return filepath.Join(append([]string{dir}, parts...)...) }
	camp := p("campaign")
	if err := os.CopyFS(camp, fixtures.Campaign()); err != nil {
		t.Fatal(err)
	}
	// What the runs will produce is set aside: the fixture's responses and
	// receipts become the recorded logs below, and the campaign starts
	// without them, as before any session.
	orig := map[string][]byte{}
	for _, d := range []string{"responses", "receipts"} {
		ents, _ := os.ReadDir(p("campaign", d))
		for _, e := range ents {
			orig[d+"/"+e.Name()], _ = os.ReadFile(p("campaign", d, e.Name()))
		}
		os.RemoveAll(p("campaign", d))
	}
	editFiles(t, p("campaign", "manifest.json"), func(path string) bool {
		return !strings.HasPrefix(path, "responses/") && !strings.HasPrefix(path, "receipts/")
	})

	// 1. The packet of T1 from git blobs at one commit.
	var files = map[string]string{}
	src := p("campaign", "sources", "synthetic", "ledgerlite")
	fs.WalkDir(os.DirFS(src), ".", func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			b, _ := os.ReadFile(filepath.Join(src, path))
			files[path] = string(b)
		}
		return nil
	})
	repo, commit := gitRepo(t, files)
	oldPacket, _ := os.ReadFile(p("campaign", "tasks", "T1", "packet.json"))
	var pk campaign.Packet
	json.Unmarshal(oldPacket, &pk)
	var items []string
	for _, it := range pk.Items {
		items = append(items, fmt.Sprintf("%s:%d-%d", it.Path, it.StartLine, it.EndLine))
	}
	os.WriteFile(p("items.txt"), []byte(strings.Join(items, "\n")+"\n"), 0o644)
	os.Remove(p("campaign", "tasks", "T1", "packet.json"))
	run1(t, 0, "packet", camp, "--task", "T1", "--repo", "synthetic/ledgerlite="+repo, "--commit", commit, "--items", p("items.txt"))

	// 2. Bind: the new packet is a change, allowed before any session.
	out := run1(t, 0, "manifest", camp)
	if !strings.Contains(out, "changed tasks/T1/packet.json") {
		t.Fatalf("manifest:\n%s", out)
	}

	// 3. Import every session from its recorded log and timing file and
	// bind it: drafts first, then the reviews, whose prompts hold the
	// draft's output.
	mraw, _ := os.ReadFile(p("campaign", "manifest.json"))
	m, err := campaign.DecodeManifest(mraw, "manifest.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, roles := range [][]campaign.Role{{campaign.RoleDraft}, {campaign.RoleReviewA, campaign.RoleReviewB}} {
		for _, r := range m.Runs {
			for _, role := range roles {
				id := map[campaign.Role]string{campaign.RoleDraft: r.Sessions.Draft, campaign.RoleReviewA: r.Sessions.ReviewA, campaign.RoleReviewB: r.Sessions.ReviewB}[role]
				var rc campaign.Receipt
				json.Unmarshal(orig["receipts/"+id+".json"], &rc)
				packet, _ := os.ReadFile(p("campaign", "tasks", r.Task, "packet.json"))
				sum, size := promptOf(t, camp, r.Task, r.Repetition, role)
				timing := timingOf(t, rc, map[string]any{"input_sha256": sum, "input_bytes": size, "packet_sha256": blinding.Digest(packet)})
				log := responsesLog(t, orig["responses/"+id+".json"], rc, "default", nil)
				run1(t, 0, "receipt", "import", camp, "--session", id, "--log-format", "responses-api-json", "--log", log, "--timing", timing)
				// Each new response and receipt is bound as it arrives.
				run1(t, 0, "manifest", camp)
			}
		}
	}
	// The inputs are frozen now.
	os.WriteFile(p("campaign", "tasks", "T1", "task.md"), []byte("SYNTHETIC changed\n"), 0o644)
	if out := run1(t, 1, "manifest", camp); !strings.Contains(out, "frozen-input-changed") {
		t.Fatalf("changed task after sessions:\n%s", out)
	}
	os.WriteFile(p("campaign", "tasks", "T1", "task.md"), []byte(files0(t, "tasks/T1/task.md")), 0o644)

	// 4. Check, blind.
	run1(t, 0, "check", camp)
	ratings := p("ratings")
	run1(t, 0, "blind", camp, "--out", ratings, "--raters", "ann,bob", "--item-key", strings.Repeat("5a", 32))
	keys := "../../fixtures/keys/"
	allowed := filepath.Join(ratings, "allowed_signers")
	ab, _ := os.ReadFile(keys + "allowed_signers")
	os.WriteFile(allowed, ab, 0o644)

	// 5. Grade and freeze (bob differs on every claim C1).
	for _, r := range []string{"ann", "bob"} {
		b, _, err := blinding.LoadBundle(filepath.Join(ratings, "bundle-"+r+".json"))
		if err != nil {
			t.Fatal(err)
		}
		gradesFile(t, p("grades-"+r+".json"), b, r == "bob", false)
		run1(t, 0, "grade", filepath.Join(ratings, "bundle-"+r+".json"), "--journal", p("bundle-"+r+".journal.jsonl"), "--from", p("grades-"+r+".json"))
		run1(t, 0, "freeze", "--journal", p("bundle-"+r+".journal.jsonl"), "--bundle", filepath.Join(ratings, "bundle-"+r+".json"), "--allowed-signers", keys+"allowed_signers", "--key", keys+"rater-"+r,
			"--name", r, "--role", "rater", "--out", filepath.Join(ratings, "sheet-"+r+".json"), "--time", "2026-10-01T10:00:00Z")
	}
	// Before adjudication and reveal: blinded, with open fields.
	blinded := run1(t, 0, "export", "grades", camp, "--ratings", ratings, "--allowed-signers", filepath.Join(ratings, "allowed_signers"))
	if h, _, _ := strings.Cut(blinded, "\n"); strings.Contains(h, "arm") || !strings.Contains(blinded, ",open,") {
		t.Fatalf("blinded export:\n%.600s", blinded)
	}

	// 6. Resolve (ann's value for every dispute), reveal, score.
	sa, _ := os.ReadFile(filepath.Join(ratings, "sheet-ann.json"))
	sb, _ := os.ReadFile(filepath.Join(ratings, "sheet-bob.json"))
	sha, _ := adjudication.ParseSheet("a", sa)
	shb, _ := adjudication.ParseSheet("b", sb)
	ds, err := adjudication.Disagreements(sha, shb)
	if err != nil || len(ds) == 0 {
		t.Fatalf("disagreements %d, %v", len(ds), err)
	}
	var choices []adjudication.Choice
	for _, d := range ds {
		choices = append(choices, adjudication.Choice{Field: d.Field, Final: d.Values[0]})
	}
	cb, _ := json.Marshal(choices)
	os.WriteFile(p("choices.json"), cb, 0o600)
	run1(t, 0, "resolve", filepath.Join(ratings, "sheet-ann.json"), filepath.Join(ratings, "sheet-bob.json"), "--from", p("choices.json"),
		"--allowed-signers", allowed, "--key", keys+"adjudicator-cho", "--name", "cho", "--out", filepath.Join(ratings, "adjudication.json"), "--time", "2026-10-01T11:00:00Z")
	run1(t, 0, "reveal", "--sheet", filepath.Join(ratings, "sheet-ann.json"), "--sheet", filepath.Join(ratings, "sheet-bob.json"),
		"--adjudication", filepath.Join(ratings, "adjudication.json"), "--map", filepath.Join(ratings, "sealed-map.json"),
		"--allowed-signers", allowed, "--key", keys+"coordinator-dee", "--name", "dee", "--out", filepath.Join(ratings, "reveal.json"), "--time", "2026-10-01T12:00:00Z")
	code, _ := chkRunCaptured(t, "score", camp, "--ratings", ratings, "--allowed-signers", filepath.Join(ratings, "allowed_signers"), "--out", p("report"))
	if code != 0 && code != 1 {
		t.Fatalf("score: exit %d", code)
	}
	rj, err := os.ReadFile(p("report", "report.json"))
	if err != nil || !strings.Contains(string(rj), `"manifest_sha256": "`+blinding.Digest(mustRead(t, p("campaign", "manifest.json")))+`"`) {
		t.Fatalf("report.json provenance: %v", err)
	}

	// 7. Exports after the reveal.
	graded := run1(t, 0, "export", "grades", camp, "--ratings", ratings, "--allowed-signers", filepath.Join(ratings, "allowed_signers"), "--format", "jsonl")
	var row map[string]any
	json.Unmarshal([]byte(strings.SplitN(graded, "\n", 2)[0]), &row)
	if row["arm"] == nil || row["session"] == nil || row["rater_1_item_time_spent_ms"] == nil || strings.Contains(graded, `"settled":"open"`) || !strings.Contains(graded, `"settled":"adjudicated"`) {
		t.Fatalf("unblinded export: %v", row)
	}
	runs := run1(t, 0, "export", "runs", camp, "--ratings", ratings, "--allowed-signers", filepath.Join(ratings, "allowed_signers"))
	if n := strings.Count(runs, "\n"); n != 1+len(m.Runs)*2 {
		t.Fatalf("runs export has %d lines for %d runs", n, len(m.Runs))
	}
}

// run1 runs verdict with args, wants exit code want and returns stdout.
func run1(t *testing.T, want int, args ...string) string {
	t.Helper()
	code, out := chkRunCaptured(t, args...)
	if code != want {
		t.Fatalf("verdict %s: exit %d, want %d\n%s", strings.Join(args, " "), code, want, out)
	}
	return out
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// files0 is a file of the embedded SYNTHETIC campaign.
func files0(t *testing.T, path string) string {
	t.Helper()
	b, err := fs.ReadFile(fixtures.Campaign(), path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// editFiles keeps only the manifest's bound files for which keep is true.
func editFiles(t *testing.T, path string, keep func(string) bool) {
	t.Helper()
	raw, _ := os.ReadFile(path)
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	var files []any
	for _, f := range m["files"].([]any) {
		if keep(f.(map[string]any)["path"].(string)) {
			files = append(files, f)
		}
	}
	m["files"] = files
	raw, _ = json.MarshalIndent(m, "", "  ")
	os.WriteFile(path, append(raw, '\n'), 0o644)
}

// promptOf returns the digest and size of a role's exact prompt bytes, as
// a runner takes them: `verdict prompts --raw ROLE`.
func promptOf(t *testing.T, camp, task string, rep int, role campaign.Role) (string, int) {
	t.Helper()
	out := run1(t, 0, "prompts", camp, "--task", task, "--repetition", fmt.Sprint(rep), "--raw", string(role))
	return blinding.Digest([]byte(out)), len(out)
}
