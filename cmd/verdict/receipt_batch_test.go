package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"verdict/campaign"
	"verdict/fixtures"
)

// TestReceiptBatchImport: one `receipt import --logs DIR` imports every
// session of the SYNTHETIC campaign from its recorded Responses API log
// and a timing file holding only what the runner knows (no input, task or
// packet digest: import computes them from the prompt verdict renders),
// in dispatch order, binds the manifest once, and gives back the very
// receipts the fixture holds; a batch with one refused session stops there
// and writes nothing.
func TestReceiptBatchImport(t *testing.T) {
	t.Parallel()
	camp, logs, m, orig := batchFixture(t)
	before, _ := os.ReadFile(filepath.Join(camp, "manifest.json"))

	// Before the draft ran, prompts shows D's prompt and says A and B wait.
	r0 := m.Runs[0]
	code, out := chkRunCaptured(t, "prompts", camp, "--task", r0.Task, "--repetition", "1")
	if code != 0 || !strings.Contains(out, "draft  sha256 ") || !strings.Contains(out, "review-a, review-b: not yet: ") || strings.Contains(out, "BEGIN review-a") {
		t.Fatalf("prompts before the draft: exit %d\n%.600s", code, out)
	}

	// A refused session stops the batch: nothing is written.
	good, _ := os.ReadFile(filepath.Join(logs, "S5.timing.json"))
	os.WriteFile(filepath.Join(logs, "S5.timing.json"), []byte(`{"validation_ns": 1}`), 0o644)
	code, out = chkRunCaptured(t, "receipt", "import", camp, "--logs", logs, "--log-format", "responses-api-json")
	if code != 1 || !strings.Contains(out, "batch-stopped") || !strings.Contains(out, "S5") || !strings.Contains(out, "timing-malformed") {
		t.Fatalf("refused batch: exit %d\n%s", code, out)
	}
	if orig["responses/S1.json"] == nil {
		t.Fatal("the fixture's run of S1 is expected among the recorded logs")
	}
	if _, err := os.Stat(filepath.Join(camp, "responses", "S1.json")); err == nil {
		t.Fatal("a refused batch wrote S1's response, before the refused S5")
	}
	if after, _ := os.ReadFile(filepath.Join(camp, "manifest.json")); string(after) != string(before) {
		t.Fatal("a refused batch changed manifest.json")
	}
	os.WriteFile(filepath.Join(logs, "S5.timing.json"), good, 0o644)
	// A misnamed file is never skipped in silence.
	os.WriteFile(filepath.Join(logs, "S05.json"), []byte("{}"), 0o644)
	if code, out := chkRunCaptured(t, "receipt", "import", camp, "--logs", logs, "--log-format", "responses-api-json"); code != 1 || !strings.Contains(out, "batch-file-unknown") {
		t.Fatalf("misnamed file: exit %d\n%s", code, out)
	}
	os.Remove(filepath.Join(logs, "S05.json"))

	code, out = chkRunCaptured(t, "receipt", "import", camp, "--logs", logs, "--log-format", "responses-api-json")
	if code != 0 || !strings.Contains(out, "session(s) imported; manifest.json bound") {
		t.Fatalf("batch: exit %d\n%s", code, out)
	}
	if !strings.HasPrefix(out, "session S1: response") {
		t.Fatalf("not in dispatch order:\n%.300s", out)
	}
	for name, want := range orig {
		got, err := os.ReadFile(filepath.Join(camp, filepath.FromSlash(name)))
		if strings.HasPrefix(name, "receipts/") {
			got = withoutResponseID(got) // the fixture's receipts were made without a log
		}
		if err != nil || string(got) != string(want) {
			t.Errorf("%s differs from the fixture's:\n%s\nwant\n%s", name, got, want)
		}
	}
	if code, out := chkRunCaptured(t, "check", camp); code != 0 {
		t.Fatalf("check after the batch: exit %d\n%s", code, out)
	}
}

// batchFixture copies the SYNTHETIC campaign into a temporary directory and
// turns every run whose three sessions all answered into recorded logs:
// LOGS/S<n>.json (a Responses API log) and LOGS/S<n>.timing.json (only
// what the runner knows: no input, task or packet digest), removing their
// responses and receipts from the campaign and its manifest. It returns the
// campaign, LOGS, the manifest and the removed files' bytes by
// campaign-relative path.
func batchFixture(t *testing.T) (camp, logs string, m *campaign.Manifest, orig map[string][]byte) {
	t.Helper()
	dir := t.TempDir()
	camp = filepath.Join(dir, "campaign")
	if err := os.CopyFS(camp, fixtures.Campaign()); err != nil {
		t.Fatal(err)
	}
	// The runs whose three sessions all answered become recorded logs; the
	// others (failed or not dispatched) stay in the campaign as they are.
	mraw, _ := os.ReadFile(filepath.Join(camp, "manifest.json"))
	m, err := campaign.DecodeManifest(mraw, "manifest.json")
	if err != nil {
		t.Fatal(err)
	}
	orig = map[string][]byte{}
	for _, r := range m.Runs {
		ids := []string{r.Sessions.Draft, r.Sessions.ReviewA, r.Sessions.ReviewB}
		all := true
		for _, id := range ids {
			var rc campaign.Receipt
			b, _ := os.ReadFile(filepath.Join(camp, "receipts", id+".json"))
			json.Unmarshal(b, &rc)
			all = all && rc.Status == campaign.StatusResponse
		}
		if !all {
			continue
		}
		for _, id := range ids {
			for _, d := range []string{"responses", "receipts"} {
				p := filepath.Join(camp, d, id+".json")
				orig[d+"/"+id+".json"], _ = os.ReadFile(p)
				os.Remove(p)
			}
		}
	}
	editFiles(t, filepath.Join(camp, "manifest.json"), func(path string) bool { return orig[path] == nil })
	logs = filepath.Join(dir, "logs")
	os.Mkdir(logs, 0o755)
	for name, b := range orig {
		id, ok := strings.CutPrefix(strings.TrimSuffix(name, ".json"), "receipts/")
		if !ok {
			continue
		}
		var rc campaign.Receipt
		if err := json.Unmarshal(b, &rc); err != nil {
			t.Fatal(err)
		}
		tm := map[string]any{"request_id": rc.RequestID, "started_utc": rc.StartedUTC, "ended_utc": rc.EndedUTC,
			"start_monotonic_ns": rc.StartMonotonicNS, "end_monotonic_ns": rc.EndMonotonicNS, "host": rc.Host,
			"permission_policy": rc.PermissionPolicy, "validation_ns": rc.ValidationNS, "assembly_ns": rc.AssemblyNS,
			"actual_charge_micro_usd": rc.ActualChargeMicroUSD}
		tb, _ := json.Marshal(tm)
		os.WriteFile(filepath.Join(logs, id+".timing.json"), tb, 0o644)
		lb, _ := os.ReadFile(responsesLog(t, orig["responses/"+id+".json"], rc, "default", nil))
		os.WriteFile(filepath.Join(logs, id+".json"), lb, 0o644)
	}
	return camp, logs, m, orig
}
