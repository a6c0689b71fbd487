package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"verdict/campaign"
)

// gitRepo makes a git repository in a new directory with files (path →
// bytes) committed once, and returns its directory and the commit.
func gitRepo(t *testing.T, files map[string]string) (string, string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	dir := t.TempDir()
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=Synthetic Tester", "-c", "user.email=tester@example.invalid", "-c", "core.autocrlf=false", "-c", "commit.gpgsign=false"}, args...)...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	git("init", "-q")
	for p, b := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(b), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git("add", "-A")
	git("commit", "-q", "-m", "synthetic fixture")
	return dir, git("rev-parse", "HEAD")
}

// packetFiles are three SYNTHETIC source files: LF with a final newline,
// CRLF, and LF without a final newline.
var packetFiles = map[string]string{
	"src/lf.ts":      "export const a = 1;\nexport const b = 2;\nexport const c = 3;\n",
	"src/crlf.ts":    "line one\r\nline two\r\nline three\r\n",
	"src/nofinal.ts": "first\nsecond\nthird",
}

var packetItems = []string{"src/lf.ts:1-2", "src/lf.ts:3-3", "src/crlf.ts:2-3", "src/nofinal.ts:2-3", "src/nofinal.ts:1-1", "src/crlf.ts:1-1"}

// TestPacketFromGitBlobs: verdict packet reads the blobs at the commit (not
// the work tree), writes the exact source bytes and a packet with E1..En
// in the order given, cut by the loader's physical-line rule for LF, CRLF
// and a missing final newline; a second run changes nothing.
func TestPacketFromGitBlobs(t *testing.T) {
	t.Parallel()
	repo, commit := gitRepo(t, packetFiles)
	// An uncommitted edit of the work tree must not reach the packet.
	os.WriteFile(filepath.Join(repo, "src", "lf.ts"), []byte("changed in the work tree\n"), 0o644)
	camp := t.TempDir()
	args := append([]string{"packet", camp, "--task", "T1", "--repo", "synthetic-owner/synthetic-repo=" + repo, "--commit", commit}, packetItems...)
	code, out := chkRunCaptured(t, args...)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, out)
	}
	if lines := strings.Split(strings.TrimSpace(out), "\n"); !strings.HasPrefix(lines[0], "E1 src/lf.ts:1-2 sha256 ") || !strings.HasPrefix(lines[5], "E6 src/crlf.ts:1-1 ") {
		t.Fatalf("output:\n%s", out)
	}
	for p, want := range packetFiles {
		got, err := os.ReadFile(filepath.Join(camp, "sources", "synthetic-owner", "synthetic-repo", filepath.FromSlash(p)))
		if err != nil || string(got) != want {
			t.Errorf("%s: %q, %v; want the committed bytes", p, got, err)
		}
	}
	raw, err := os.ReadFile(filepath.Join(camp, "tasks", "T1", "packet.json"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := campaign.DecodePacket(raw, "tasks/T1/packet.json")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"export const a = 1;\nexport const b = 2;\n", "export const c = 3;\n", "line two\r\nline three\r\n", "second\nthird", "first\n", "line one\r\n"}
	for i, it := range p.Items {
		if it.Excerpt != want[i] || it.Commit != commit || it.Repository != "synthetic-owner/synthetic-repo" {
			t.Errorf("E%d: %+v, want excerpt %q", i+1, it, want[i])
		}
		if got := campaign.CountPhysicalLines([]byte(it.Excerpt)); got != it.EndLine-it.StartLine+1 {
			t.Errorf("E%d: %d physical lines for %d-%d", i+1, got, it.StartLine, it.EndLine)
		}
	}
	// Again: the same bytes are left in place.
	code, out = chkRunCaptured(t, append(args, "--format", "json")...)
	var rep packetReport
	if code != 0 || json.Unmarshal([]byte(out), &rep) != nil || len(rep.Files) != 4 || !rep.Files[0].Unchanged || !rep.Files[3].Unchanged {
		t.Fatalf("second run: exit %d\n%s", code, out)
	}
}

// TestPacketRefusals: a commit or path not in the repository, an end line
// past the last physical line (a final newline makes no line), a source
// file already in the campaign with other bytes, and malformed items.
func TestPacketRefusals(t *testing.T) {
	t.Parallel()
	repo, commit := gitRepo(t, packetFiles)
	camp := t.TempDir()
	base := []string{"packet", camp, "--task", "T1", "--repo", "synthetic-owner/synthetic-repo=" + repo}
	items := packetItems[:5]
	for _, tc := range []struct {
		name   string
		args   []string
		code   int
		reason string
	}{
		{"absent commit", append(append(cloneArgs(base), "--commit", strings.Repeat("0", 40)), packetItems...), 1, "commit-missing"},
		{"a tree, not a commit", append(append(cloneArgs(base), "--commit", commit+"^{tree}"), packetItems...), 1, "commit-missing"},
		{"no such branch", append(append(cloneArgs(base), "--commit", "no-such-branch"), packetItems...), 1, "commit-missing"},
		{"option-like ref", append(append(cloneArgs(base), "--commit", "--all"), packetItems...), 1, "commit-missing"},
		{"absent path", append(append(cloneArgs(base), "--commit", commit), append(cloneArgs(items), "src/none.ts:1-1")...), 1, "path-missing"},
		{"directory", append(append(cloneArgs(base), "--commit", commit), append(cloneArgs(items), "src:1-1")...), 1, "path-missing"},
		{"final newline makes no line", append(append(cloneArgs(base), "--commit", commit), append(cloneArgs(items), "src/lf.ts:3-4")...), 1, "line-beyond-file"},
		{"too few items", append(append(cloneArgs(base), "--commit", commit), "src/lf.ts:1-1"), 1, "array-too-short"},
		{"bad range", append(append(cloneArgs(base), "--commit", commit), "src/lf.ts:2-1"), 2, ""},
		{"parent segment", append(append(cloneArgs(base), "--commit", commit), "../x.ts:1-1"), 2, ""},
	} {
		code, out := chkRunCaptured(t, tc.args...)
		if code != tc.code || !strings.Contains(out, tc.reason) {
			t.Errorf("%s: exit %d, want %d with %q\n%s", tc.name, code, tc.code, tc.reason, out)
		}
	}
	if ents, _ := os.ReadDir(camp); len(ents) != 0 {
		t.Fatalf("a refused packet wrote %d entries", len(ents))
	}
	// A source already there with other bytes is never replaced.
	src := filepath.Join(camp, "sources", "synthetic-owner", "synthetic-repo", "src", "crlf.ts")
	os.MkdirAll(filepath.Dir(src), 0o755)
	os.WriteFile(src, []byte("line one\nline two\nline three\n"), 0o644)
	code, out := chkRunCaptured(t, append(append(cloneArgs(base), "--commit", commit), packetItems...)...)
	if code != 1 || !strings.Contains(out, "file-differs") {
		t.Fatalf("differing source: exit %d\n%s", code, out)
	}
	if got, _ := os.ReadFile(src); string(got) != "line one\nline two\nline three\n" {
		t.Fatal("the user's file was replaced")
	}
	if _, err := os.Stat(filepath.Join(camp, "tasks")); err == nil {
		t.Fatal("packet.json was written although a source was refused")
	}
}

// TestPacketResolvesRefs: --commit HEAD, a branch or an abbreviated name
// is resolved to the full commit object name, which is what packet.json
// records and what the command prints.
func TestPacketResolvesRefs(t *testing.T) {
	t.Parallel()
	repo, commit := gitRepo(t, packetFiles)
	for _, ref := range []string{"HEAD", commit[:12]} {
		camp := t.TempDir()
		args := append([]string{"packet", camp, "--task", "T1", "--repo", "synthetic-owner/synthetic-repo=" + repo, "--commit", ref, "--format", "json"}, packetItems...)
		code, out := chkRunCaptured(t, args...)
		var rep packetReport
		if code != 0 || json.Unmarshal([]byte(out), &rep) != nil || rep.Commit != commit {
			t.Fatalf("%s: exit %d, commit %q want %s\n%s", ref, code, rep.Commit, commit, out)
		}
		raw, _ := os.ReadFile(filepath.Join(camp, "tasks", "T1", "packet.json"))
		if !strings.Contains(string(raw), `"commit": "`+commit+`"`) {
			t.Fatalf("%s: packet.json does not record the full commit:\n%s", ref, raw)
		}
	}
}

func cloneArgs(s []string) []string { return append([]string(nil), s...) }
