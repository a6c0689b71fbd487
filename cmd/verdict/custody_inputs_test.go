//go:build unix

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestInputsBoundedAndRegular runs the real binary on a FIFO, /dev/zero
// and an over-long file at every input the bounded reader now covers:
// each is refused (not-regular-file, file-too-large) within the 60 s
// limit of runBin, well under a second in practice, instead of hanging
// or growing.
func TestInputsBoundedAndRegular(t *testing.T) {
	t.Parallel()
	bin := verdictBin(t)
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := mkfifo(fifo); err != nil {
		t.Skip("no FIFO:", err)
	}
	xdg := filepath.Join(dir, "xdg")
	os.MkdirAll(filepath.Join(xdg, "verdict"), 0o755)
	if err := mkfifo(filepath.Join(xdg, "verdict", "verdict.yaml")); err != nil {
		t.Fatal(err)
	}
	long := filepath.Join(dir, "items.txt")
	os.WriteFile(long, []byte(strings.Repeat("src/a.ts:1-1\n", 1_000_000)), 0o644)
	camp, _, _ := importFixture(t, "S1")
	commit := strings.Repeat("a", 40)
	for _, tc := range []struct {
		name   string
		env    []string
		args   []string
		reason string
	}{
		{"configuration FIFO in XDG_CONFIG_HOME", []string{"XDG_CONFIG_HOME=" + xdg}, []string{"version"}, "not-regular-file"},
		{"--config /dev/zero", nil, []string{"--config", "/dev/zero", "version"}, "not-regular-file"},
		{"manifest --from FIFO", nil, []string{"manifest", dir, "--from", fifo}, "not-regular-file"},
		{"receipt import --log FIFO", nil, []string{"receipt", "import", camp, "--session", "S1", "--log", fifo, "--log-format", "codex-exec-jsonl", "--timing", long}, "not-regular-file"},
		{"receipt import --timing /dev/zero", nil, []string{"receipt", "import", camp, "--session", "S1", "--log", long, "--log-format", "codex-exec-jsonl", "--timing", "/dev/zero"}, "not-regular-file"},
		{"receipt import --timing over its cap", nil, []string{"receipt", "import", camp, "--session", "S1", "--log", long, "--log-format", "codex-exec-jsonl", "--timing", long}, "file-too-large"},
		{"check --previous-report FIFO", nil, []string{"check", camp, "--previous", camp, "--previous-report", fifo}, "not-regular-file"},
		{"packet --items FIFO", nil, []string{"packet", camp, "--task", "T1", "--repo", "o/n=" + dir, "--commit", commit, "--items", fifo}, "not-regular-file"},
		{"packet --items of 10^6 lines", nil, []string{"packet", camp, "--task", "T1", "--repo", "o/n=" + dir, "--commit", commit, "--items", long}, "file-too-large"},
	} {
		start := time.Now()
		p := runBin(bin, tc.env, tc.args...)
		if p.code == 0 || !strings.Contains(p.out, tc.reason) {
			t.Errorf("%s: exit %d after %v, want a refusal with %s\n%s", tc.name, p.code, time.Since(start), tc.reason, p.out)
		}
	}
}

// TestManifestStreamsAndCapsHashing: a sparse file of 20 GB under tasks/
// is refused by verdict manifest from its size (file-too-large), without
// being read.
func TestManifestStreamsAndCapsHashing(t *testing.T) {
	t.Parallel()
	bin := verdictBin(t)
	camp, _, _ := importFixture(t, "S1")
	huge := filepath.Join(camp, "tasks", "T1", "huge.bin")
	f, err := os.Create(huge)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(20 << 30); err != nil {
		f.Close()
		t.Skip("no sparse file:", err)
	}
	f.Close()
	start := time.Now()
	p := runBin(bin, nil, "manifest", camp)
	if p.code != 1 || !strings.Contains(p.out, "file-too-large") {
		t.Fatalf("manifest with a 20 GB sparse task file: exit %d after %v\n%s", p.code, time.Since(start), p.out)
	}
}

// rawControl reports the first character in s that could act on a
// terminal (C0 other than line feed and tab, DEL, C1, bidi override), or
// "" when there is none.
func rawControl(s string) string {
	for _, r := range s {
		if r != '\n' && r != '\t' && (r < 0x20 || r >= 0x7f && r < 0xa0 || r == 0x202e) {
			return string(r)
		}
	}
	return ""
}

// TestOutputInert: a manifest whose campaign_id holds an OSC 52 clipboard
// write, BEL, a bidi override and a C1 CSI, and (second campaign) whose
// phase holds one, through check (text and json), blind, prompts and
// admit: no raw control or format character reaches standard output or
// error, JSON stays valid and keeps the value, and no Go value form
// ("&{") appears in a message.
func TestOutputInert(t *testing.T) {
	t.Parallel()
	evil := "cat\x1b]52;c;aGk=\x07\u202eevil\u009b2J"
	edit := func(key string) string {
		camp, _, _ := importFixture(t, "S1")
		mp := filepath.Join(camp, "manifest.json")
		raw, _ := os.ReadFile(mp)
		var m map[string]any
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatal(err)
		}
		m[key] = evil
		out, _ := json.Marshal(m)
		os.WriteFile(mp, out, 0o644)
		return camp
	}
	idCamp, phaseCamp := edit("campaign_id"), edit("phase")
	for _, args := range [][]string{
		{"check", idCamp},
		{"check", idCamp, "--format", "json"},
		{"check", phaseCamp},
		{"check", phaseCamp, "--format", "json"},
		{"blind", phaseCamp, "--out", filepath.Join(t.TempDir(), "b")},
		{"blind", phaseCamp, "--out", filepath.Join(t.TempDir(), "b"), "--format", "json"},
		{"prompts", phaseCamp, "--task", "T1"},
		{"admit", phaseCamp},
	} {
		code, out, errs := runCLI(t, args...)
		if c := rawControl(out + errs); c != "" {
			t.Errorf("%v: exit %d printed the raw character %U\n%s%s", args, code, []rune(c)[0], out, errs)
		}
		if strings.Contains(out+errs, "&{") {
			t.Errorf("%v: a Go value form in the output\n%s%s", args, out, errs)
		}
		if len(args) > 2 && args[len(args)-1] == "json" && !json.Valid([]byte(out)) {
			t.Errorf("%v: the JSON output is not valid JSON\n%s", args, out)
		}
	}
	// The value survives in JSON, escaped; in text it is shown in notation.
	_, out, _ := runCLI(t, "check", idCamp, "--format", "json")
	var rep struct {
		CampaignID string `json:"campaign_id"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil || rep.CampaignID != evil {
		t.Errorf("check --format json: campaign_id %q, %v; want the manifest's value", rep.CampaignID, err)
	}
	if _, out, _ := runCLI(t, "check", idCamp); !strings.Contains(out, "cat⟨U+001B⟩]52;c;aGk=⟨U+0007⟩⟨U+202E⟩evil⟨U+009B⟩2J") {
		t.Errorf("check: campaign_id not shown in notation\n%s", out)
	}
}
