package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"verdict/blinding"
	"verdict/internal/synth"
)

// servedDir writes a SYNTHETIC ratings directory: the bundles of ann and
// bob and the fixture allowed_signers; the sealed map is returned, not
// written.
func servedDir(t *testing.T) (dir string, res *blinding.Result) {
	t.Helper()
	dir = filepath.Join(t.TempDir(), "ratings")
	os.Mkdir(dir, 0o755)
	res, err := blinding.Build(synth.Campaign(), blinding.Options{Key: synth.Key, Raters: []string{"ann", "bob"}})
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range []string{"ann", "bob"} {
		os.WriteFile(filepath.Join(dir, "bundle-"+r+".json"), res.BundleBytes[i], 0o644)
	}
	as, _ := os.ReadFile("../../fixtures/keys/allowed_signers")
	os.WriteFile(filepath.Join(dir, "allowed_signers"), as, 0o644)
	return dir, res
}

// TestServeRefusesToStart: verdict serve refuses, before it listens, a
// directory holding what raters must not see, or no bundle.
func TestServeRefusesToStart(t *testing.T) {
	key, _ := os.ReadFile("../../fixtures/keys/rater-ann")
	cases := []struct {
		name, file, reason string
		data               func(*blinding.Result) []byte
	}{
		{"sealed map", "sealed-map.json", "map-in-rater-folder", func(r *blinding.Result) []byte { return r.MapBytes }},
		{"sealed map renamed", "notes/m.json", "map-in-rater-folder", func(r *blinding.Result) []byte { return r.MapBytes }},
		{"campaign", "campaign/manifest.json", "campaign-in-served-dir", func(*blinding.Result) []byte { return []byte("{}") }},
		{"private key", "ann.key", "secret-in-served-dir", func(*blinding.Result) []byte { return key }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir, res := servedDir(t)
			p := filepath.Join(dir, c.file)
			os.MkdirAll(filepath.Dir(p), 0o755)
			os.WriteFile(p, c.data(res), 0o600)
			code, out, errb := runCLI(t, "serve", dir, "--listen", "127.0.0.1:0", "--host-key", filepath.Join(t.TempDir(), "hk"))
			if code != 1 || !strings.Contains(out+errb, c.reason) || strings.Contains(out, "listening") {
				t.Fatalf("exit %d, want 1 and %s:\n%s%s", code, c.reason, out, errb)
			}
		})
	}
	// A --host-key inside the served directory is refused before the key
	// is made: the raters would be served the server's private key.
	dir, _ := servedDir(t)
	if code, out, errb := runCLI(t, "serve", dir, "--listen", "127.0.0.1:0", "--allowed-signers", "../../fixtures/keys/allowed_signers", "--host-key", filepath.Join(dir, "hostkey")); code != 1 || !strings.Contains(out+errb, "secret-in-served-dir") || strings.Contains(out, "listening") {
		t.Fatalf("--host-key inside the served directory: exit %d\n%s%s", code, out, errb)
	}
	if _, err := os.Lstat(filepath.Join(dir, "hostkey")); err == nil {
		t.Fatal("a refused serve wrote its host key into the served directory")
	}
	empty := t.TempDir()
	if code, out, errb := runCLI(t, "serve", empty, "--listen", "127.0.0.1:0"); code != 1 || !strings.Contains(out+errb, "no-bundle") {
		t.Fatalf("no bundle: exit %d\n%s%s", code, out, errb)
	}
}

// TestStatus: verdict status counts per rater and names the frozen
// sheet's digest, and shows no grade value or note.
func TestStatus(t *testing.T) {
	dir, res := servedDir(t)
	p := func(n string) string { return filepath.Join(dir, n) }
	keys := "../../fixtures/keys/"
	gradesFile(t, p("grades-ann.json"), res.Bundles[0], false, false)
	mustRun(t, 0, "grade", p("bundle-ann.json"), "--journal", p("bundle-ann.journal.jsonl"), "--from", p("grades-ann.json"))
	os.Remove(p("grades-ann.json"))
	mustRun(t, 0, "freeze", "--journal", p("bundle-ann.journal.jsonl"), "--bundle", p("bundle-ann.json"), "--key", keys+"rater-ann", "--name", "ann",
		"--out", p("sheet-ann.json"), "--time", "2026-03-04T05:06:07Z", "--allowed-signers", keys+"allowed_signers")
	code, out, errb := runCLI(t, "status", dir, "--format", "json", "--allowed-signers", keys+"allowed_signers")
	if code != 0 {
		t.Fatalf("status: exit %d\n%s%s", code, out, errb)
	}
	var rep struct {
		Raters []struct {
			Rater                   string
			Graded, Required, Items int
			ItemsDone               int `json:"items_done"`
			Frozen                  bool
			SheetSHA256             string `json:"sheet_sha256"`
			LastActivity            string `json:"last_activity"`
			Problem                 string
		}
		Adjudication struct{ Waiting string }
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	sheet, _ := os.ReadFile(p("sheet-ann.json"))
	sum := sha256.Sum256(sheet)
	ann, bob := rep.Raters[0], rep.Raters[1]
	if ann.Rater != "ann" || !ann.Frozen || ann.SheetSHA256 != hex.EncodeToString(sum[:]) || ann.Graded != ann.Required || ann.ItemsDone != ann.Items || ann.LastActivity == "" {
		t.Fatalf("ann: %+v", ann)
	}
	if bob.Frozen || bob.Graded != 0 || bob.LastActivity != "" || rep.Adjudication.Waiting != "1 of 2 sheets frozen" {
		t.Fatalf("bob: %+v, adjudication %+v", bob, rep.Adjudication)
	}
	_, text, _ := runCLI(t, "status", dir, "--allowed-signers", keys+"allowed_signers")
	for _, v := range []string{"not_addressed", "supported", "credited", "justified", "false_claim", "critical"} {
		if strings.Contains(out, v) || strings.Contains(text, v) {
			t.Fatalf("status shows the grade value %q:\n%s", v, text)
		}
	}
	if !strings.Contains(text, "rater ann: frozen, sheet sha256 "+hex.EncodeToString(sum[:])) || !strings.Contains(text, "rater bob: not started") {
		t.Fatalf("text:\n%s", text)
	}
	// A refused journal counts nothing graded of every required field, not
	// of none, and says why.
	os.WriteFile(p("bundle-bob.journal.jsonl"), []byte("SYNTHETIC not a journal\n"), 0o644)
	_, out, _ = runCLI(t, "status", dir, "--format", "json", "--allowed-signers", keys+"allowed_signers")
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if bob := rep.Raters[1]; bob.Graded != 0 || bob.Required != rep.Raters[0].Required || !strings.Contains(bob.Problem, "not-a-journal") {
		t.Fatalf("bob with a refused journal: %+v", bob)
	}
	// A journal whose header is ann's but whose next "line" runs for
	// 64 MiB (a sparse file) is refused once that line passes 1 MiB: no
	// torn line of verdict's is that long, and no poll reads it whole.
	header, _, _ := strings.Cut(string(mustRead(t, p("bundle-ann.journal.jsonl"))), "\n")
	long := p("bundle-bob.journal.jsonl")
	os.WriteFile(long, []byte(header+"\n"), 0o644)
	if err := os.Truncate(long, 64<<20); err != nil {
		t.Fatal(err)
	}
	_, out, _ = runCLI(t, "status", dir, "--format", "json", "--allowed-signers", keys+"allowed_signers")
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if bob := rep.Raters[1]; !strings.Contains(bob.Problem, "journal-corrupt") || !strings.Contains(bob.Problem, "line 2 is longer than") {
		t.Fatalf("bob with a 64 MiB second line: %+v", bob)
	}
}
