package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestPacketRefusesOverCapAndForgedBlobs: verdict packet refuses a blob
// over the source cap (16 MiB) from its size alone, before reading it,
// and refuses bytes that do not hash to the blob object ID the commit's
// tree records (a git that answers cat-file with other bytes: here a
// SYNTHETIC wrapper in front of the real git on PATH); neither writes a
// file.
func TestPacketRefusesOverCapAndForgedBlobs(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("the forged git is a shell script")
	}
	realGit, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git is not installed")
	}
	files := map[string]string{"src/big.txt": strings.Repeat("SYNTHETIC over the cap\n", (16<<20)/23+1)}
	for k, v := range packetFiles {
		files[k] = v
	}
	repo, commit := gitRepo(t, files)
	bin := verdictBin(t)
	packet := func(env []string, items ...string) (proc, string) {
		camp := t.TempDir()
		args := append([]string{"packet", camp, "--task", "T1", "--repo", "synthetic-owner/synthetic-repo=" + repo, "--commit", commit}, items...)
		return runBin(bin, env, args...), camp
	}
	empty := func(name, camp string) {
		if entries, _ := os.ReadDir(camp); len(entries) != 0 {
			t.Errorf("%s: a refused packet wrote %d entries", name, len(entries))
		}
	}
	p, camp := packet(nil, append(cloneArgs(packetItems[:5]), "src/big.txt:1-1")...)
	if p.code != 1 || !strings.Contains(p.out, "file-too-large") || !strings.Contains(p.out, "at most 16777216 bytes") {
		t.Errorf("a blob over the source cap: exit %d\n%s", p.code, p.out)
	}
	empty("over the cap", camp)

	// A git that gives other bytes for every blob read by cat-file.
	wrap := t.TempDir()
	script := "#!/bin/sh\nfor a in \"$@\"; do\n  if [ \"$a\" = blob ]; then printf 'SYNTHETIC forged bytes\\n'; exit 0; fi\ndone\nexec '" + realGit + "' \"$@\"\n"
	if err := os.WriteFile(filepath.Join(wrap, "git"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	p, camp = packet([]string{"PATH=" + wrap + string(os.PathListSeparator) + os.Getenv("PATH")}, packetItems...)
	if p.code != 1 || !strings.Contains(p.out, "blob-mismatch") || !strings.Contains(p.out, "the tree of commit "+commit+" records") {
		t.Errorf("forged blob bytes: exit %d\n%s", p.code, p.out)
	}
	empty("forged bytes", camp)
	// The same command with the real git writes the packet.
	if p, _ := packet(nil, packetItems...); p.code != 0 {
		t.Fatalf("packet with the real git: exit %d\n%s", p.code, p.out)
	}
}
