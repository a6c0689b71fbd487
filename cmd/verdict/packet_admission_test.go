package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"verdict/assemble"
)

// TestPacketRefusesWhatCheckRefuses: verdict packet refuses, before
// writing anything, a source check would refuse (bytes that are not UTF-8,
// a binary file), more items than a packet holds (before a file is read,
// on the command line and in --items), and reads blobs with replace refs
// disabled: a `git replace` of a blob does not change the bytes recorded
// under the genuine commit.
func TestPacketRefusesWhatCheckRefuses(t *testing.T) {
	t.Parallel()
	files := map[string]string{
		"src/latin1.txt": "caf\xe9 au lait\n",
		"src/image.bin":  "PNG\x00\x01\x02\n",
	}
	for k, v := range packetFiles {
		files[k] = v
	}
	repo, commit := gitRepo(t, files)
	base := []string{"packet", "", "--task", "T1", "--repo", "synthetic-owner/synthetic-repo=" + repo, "--commit", commit, "--format", "json"}
	run := func(items ...string) (int, string, string) {
		camp := t.TempDir()
		args := append(cloneArgs(base), items...)
		args[1] = camp
		code, out := chkRunCaptured(t, args...)
		return code, out, camp
	}
	for _, c := range []struct {
		name  string
		items []string
		want  string
	}{
		{"invalid UTF-8", append(cloneArgs(packetItems[:5]), "src/latin1.txt:1-1"), `"reason":"invalid-utf8"`},
		{"binary", append(cloneArgs(packetItems[:5]), "src/image.bin:1-1"), `"reason":"binary-source"`},
		{"13 items", append(append(cloneArgs(packetItems), packetItems...), "src/lf.ts:1-1"), `"reason":"too-many-items"`},
	} {
		code, out, camp := run(c.items...)
		if code != 1 || !strings.Contains(out, c.want) {
			t.Errorf("%s: exit %d, want 1 %s\n%s", c.name, code, c.want, out)
		}
		if entries, _ := os.ReadDir(camp); len(entries) != 0 {
			t.Errorf("%s: a refused packet wrote %d entries", c.name, len(entries))
		}
	}
	// A long --items file is refused once past 12 items, before the rest is read.
	list := filepath.Join(t.TempDir(), "items.txt")
	var b strings.Builder
	for i := range 2000 {
		fmt.Fprintf(&b, "src/lf.ts:1-%d\n", i%3+1)
	}
	os.WriteFile(list, []byte(b.String()), 0o600)
	if code, out, _ := run("--items", list); code != 1 || !strings.Contains(out, `"reason":"too-many-items"`) {
		t.Errorf("--items with 2000 lines: exit %d\n%s", code, out)
	}

	// A replace ref gives other bytes for the blob of src/lf.ts; the packet
	// still records the commit's own bytes.
	git := func(args ...string) string {
		cmd := exec.Command("git", append([]string{"-C", repo}, args...)...)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("git %v: %v", args, err)
		}
		return strings.TrimSpace(string(out))
	}
	genuine := git("rev-parse", commit+":src/lf.ts")
	forged := filepath.Join(t.TempDir(), "forged")
	os.WriteFile(forged, []byte("export const a = 666;\nexport const b = 2;\nexport const c = 3;\n"), 0o644)
	git("replace", genuine, git("hash-object", "-w", forged))
	if got := git("cat-file", "blob", commit+":src/lf.ts"); !strings.Contains(got, "666") {
		t.Fatalf("the replace ref did not take effect for plain git: %q", got)
	}
	code, out, camp := run(packetItems...)
	if code != 0 {
		t.Fatalf("packet with a replace ref in the repository: exit %d\n%s", code, out)
	}
	got, _ := os.ReadFile(filepath.Join(camp, "sources", "synthetic-owner", "synthetic-repo", "src", "lf.ts"))
	if string(got) != packetFiles["src/lf.ts"] {
		t.Errorf("the packet recorded the replaced bytes %q, not the commit's", got)
	}
	if assemble.BlobID(got) != genuine {
		t.Errorf("BlobID of the recorded bytes is %s, the tree records %s", assemble.BlobID(got), genuine)
	}
	var rep packetReport
	if json.Unmarshal([]byte(out), &rep) != nil || rep.Commit != commit {
		t.Errorf("report: %s", out)
	}
}

// TestManifestRefusesBindingItself: a files[] entry for manifest.json is
// refused; the manifest cannot hold its own digest.
func TestManifestRefusesBindingItself(t *testing.T) {
	t.Parallel()
	camp := liveCampaign(t)
	if code, out := chkRunCaptured(t, "manifest", camp, "--from", "../../fixtures/live/manifest.json"); code != 0 {
		t.Fatalf("bind: exit %d\n%s", code, out)
	}
	p := filepath.Join(camp, "manifest.json")
	raw, _ := os.ReadFile(p)
	var m map[string]any
	json.Unmarshal(raw, &m)
	m["files"] = append(m["files"].([]any), map[string]any{"path": "manifest.json", "sha256": strings.Repeat("0", 64)})
	raw, _ = json.MarshalIndent(m, "", "  ")
	os.WriteFile(p, raw, 0o644)
	if code, out := chkRunCaptured(t, "manifest", camp); code != 1 || !strings.Contains(out, "manifest.json cannot bind itself") {
		t.Errorf("a files[] entry for manifest.json: exit %d\n%s", code, out)
	}
}
