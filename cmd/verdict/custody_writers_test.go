package main

import (
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The writers that wrote file by file before they took their output's
// lock and staged their set of files (fixtures generate, resolve
// --template, packetize --out, demo): two of them at once on one output
// (VERDICT_RACE_ROUNDS rounds), and each killed with SIGKILL just before
// its rename (fsutil.PauseEnv), run as real processes of the binary.

// treeDigests returns the SHA-256 of every regular file under dir by its
// slash-separated path (nil when dir does not exist).
func treeDigests(t *testing.T, dir string) map[string]string {
	t.Helper()
	if _, err := os.Stat(dir); err != nil {
		return nil
	}
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		s := sha256.Sum256(b)
		out[filepath.ToSlash(rel)] = hex.EncodeToString(s[:])
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// sameTree reports whether two treeDigests are equal.
func sameTree(a, b map[string]string) bool {
	if a == nil || len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// raceOneOutput runs argss[0] and argss[1] (each writing out) at once
// raceRounds() times, out removed between rounds by fresh (which returns
// the round's out), and counts the rounds where not exactly one of them
// succeeded with the other refused as a second writer, or where what out
// holds is not all of the winner's output (want[i]: the tree or file
// digests of run i alone, as digest reads them).
func raceOneOutput(t *testing.T, what, bin string, fresh func(round int) string, args func(i int, out string) []string, want [2]map[string]string, digest func(t *testing.T, out string) map[string]string) {
	t.Helper()
	rounds, failed := raceRounds(), 0
	for i := range rounds {
		out := fresh(i)
		ps := runTogether(bin, args(0, out), args(1, out))
		ok := (ps[0].code == 0) != (ps[1].code == 0)
		for _, p := range ps {
			ok = ok && (p.code == 0 || refusedSecond(p))
		}
		got := digest(t, out)
		ok = ok && (ps[0].code == 0 && sameTree(got, want[0]) || ps[1].code == 0 && sameTree(got, want[1]))
		if !ok {
			failed++
			t.Logf("%s round %d: exits %d, %d\n%s\n%s", what, i, ps[0].code, ps[1].code, tail(ps[0].out), tail(ps[1].out))
		}
		noStaging(t, filepath.Dir(out))
	}
	t.Logf("%s: %d of %d rounds failed", what, failed, rounds)
	if failed > 0 {
		t.Errorf("%s: %d of %d rounds let two writers succeed, refused one without a second writer's reason, or mixed their files", what, failed, rounds)
	}
}

// fileTree is the digest of the one file out, as a tree of one entry.
func fileTree(t *testing.T, out string) map[string]string {
	if d := fileDigest(t, out); d != "missing" {
		return map[string]string{"": d}
	}
	return nil
}

// TestConcurrentFixturesGenerateOneWriter: two fixtures generate runs of
// two shapes to one --out.
func TestConcurrentFixturesGenerateOneWriter(t *testing.T) {
	t.Parallel()
	bin := verdictBin(t)
	args := func(i int, out string) []string {
		return []string{"fixtures", "generate", "--passing", "--repetitions", "1", "--tasks", []string{"2", "3"}[i], "--out", out}
	}
	ref := t.TempDir()
	var want [2]map[string]string
	for i := range want {
		out := filepath.Join(ref, []string{"a", "b"}[i])
		if p := runBin(bin, nil, args(i, out)...); p.code != 0 {
			t.Fatalf("fixtures generate: exit %d\n%s", p.code, p.out)
		}
		want[i] = treeDigests(t, out)
	}
	raceOneOutput(t, "fixtures generate", bin, func(int) string { return filepath.Join(t.TempDir(), "campaign") }, args, want, treeDigests)
}

// TestConcurrentResolveTemplateOneWriter: two resolve --template runs on
// two different pairs of sheets to one --out.
func TestConcurrentResolveTemplateOneWriter(t *testing.T) {
	t.Parallel()
	bin := verdictBin(t)
	a, b := demoPair(t, bin)
	args := func(i int, out string) []string {
		r := filepath.Join([]string{a, b}[i], "ratings")
		return []string{"resolve", "--template", "--out", out, "--allowed-signers", filepath.Join(r, "allowed_signers"),
			filepath.Join(r, "sheet-ann.json"), filepath.Join(r, "sheet-bob.json")}
	}
	ref := t.TempDir()
	var want [2]map[string]string
	for i := range want {
		out := filepath.Join(ref, []string{"a", "b"}[i]+".json")
		if p := runBin(bin, nil, args(i, out)...); p.code != 0 {
			t.Fatalf("resolve --template: exit %d\n%s", p.code, p.out)
		}
		want[i] = fileTree(t, out)
	}
	if sameTree(want[0], want[1]) {
		t.Fatal("the two templates are the same bytes: the race could not tell them apart")
	}
	raceOneOutput(t, "resolve --template", bin, func(int) string { return filepath.Join(t.TempDir(), "choices.json") }, args, want, fileTree)
}

// TestConcurrentPacketizeOneWriter: two packetize runs of two sessions'
// observation logs to one --out, in a campaign's packets/ directory (the
// campaign's write lock: no lock file among the bound files) and in a
// plain directory (FILE.lock beside it).
func TestConcurrentPacketizeOneWriter(t *testing.T) {
	t.Parallel()
	bin := verdictBin(t)
	sys := filepath.Join(t.TempDir(), "sys")
	if p := runBin(bin, nil, "fixtures", "generate", "--design", "system-comparison", "--out", sys); p.code != 0 {
		t.Fatalf("fixtures generate: exit %d\n%s", p.code, p.out)
	}
	logs := [2]string{filepath.Join(sys, "observations", "S1.json"), filepath.Join(sys, "observations", "S11.json")}
	args := func(i int, out string) []string { return []string{"packetize", logs[i], "--out", out} }
	ref := t.TempDir()
	var want [2]map[string]string
	for i := range want {
		out := filepath.Join(ref, []string{"a", "b"}[i]+".json")
		if p := runBin(bin, nil, args(i, out)...); p.code != 0 {
			t.Fatalf("packetize: exit %d\n%s", p.code, p.out)
		}
		want[i] = fileTree(t, out)
	}
	inCampaign := func(int) string {
		d := filepath.Join(t.TempDir(), "campaign", "packets")
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(filepath.Dir(d), "manifest.json"), []byte(`{"synthetic": true}`), 0o644)
		return filepath.Join(d, "W1.json")
	}
	raceOneOutput(t, "packetize --out CAMPAIGN/packets/W1.json", bin, inCampaign, args, want, fileTree)
	raceOneOutput(t, "packetize --out FILE", bin, func(int) string { return filepath.Join(t.TempDir(), "W1.json") }, args, want, fileTree)
	// In a campaign no lock file is left among the packets.
	out := inCampaign(0)
	if p := runBin(bin, nil, args(0, out)...); p.code != 0 {
		t.Fatalf("packetize: exit %d\n%s", p.code, p.out)
	}
	if ents, _ := os.ReadDir(filepath.Dir(out)); len(ents) != 1 {
		t.Errorf("packets/ holds %d entries after one packetize, want the packet alone", len(ents))
	}
	// Nor anywhere else below the manifest.json of a campaign verdict has
	// written into (packets/sub/, tasks/T1/): the campaign's write lock is
	// taken there too. A packet directly in packets/ made the lock file.
	if p := runBin(bin, nil, args(0, filepath.Join(sys, "packets", "extra.json"))...); p.code != 0 {
		t.Fatalf("packetize into packets/: exit %d\n%s", p.code, p.out)
	}
	for _, sub := range []string{filepath.Join("packets", "sub"), filepath.Join("tasks", "T1")} {
		d := filepath.Join(sys, sub)
		os.MkdirAll(d, 0o755)
		out := filepath.Join(d, "X.json")
		if p := runBin(bin, nil, args(0, out)...); p.code != 0 {
			t.Fatalf("packetize --out %s: exit %d\n%s", out, p.code, p.out)
		}
		if _, err := os.Lstat(out + ".lock"); err == nil {
			t.Errorf("packetize --out CAMPAIGN/%s/X.json left a lock file among the campaign's files", sub)
		}
	}
	// A manifest.json of something else (a web app's) makes no campaign,
	// and a first write removes nothing of the user's beside its output.
	web := filepath.Join(t.TempDir(), "web")
	os.MkdirAll(filepath.Join(web, "src", "out", ".packet.json.staging1"), 0o755)
	os.WriteFile(filepath.Join(web, "manifest.json"), []byte(`{"name":"SYNTHETIC web app"}`), 0o644)
	kept := []string{filepath.Join("src", "out", ".packet.json.staging1"), filepath.Join("src", "out", ".packet.json123456789012")}
	os.WriteFile(filepath.Join(web, kept[1]), []byte("SYNTHETIC user file\n"), 0o644)
	if p := runBin(bin, nil, args(0, filepath.Join(web, "src", "out", "packet.json"))...); p.code != 0 {
		t.Fatalf("packetize into a web app: exit %d\n%s", p.code, p.out)
	}
	for _, k := range kept {
		if _, err := os.Lstat(filepath.Join(web, k)); err != nil {
			t.Errorf("packetize's first write removed the user's %s", k)
		}
	}
	if _, err := os.Lstat(filepath.Join(web, ".verdict-write.lock")); err == nil {
		t.Error("packetize took a web app for a campaign (.verdict-write.lock)")
	}
	// Nor does a packets/ directory without a manifest.json beside it: two
	// packets written there keep the user's file beside the second.
	work := filepath.Join(t.TempDir(), "work")
	os.MkdirAll(filepath.Join(work, "packets"), 0o755)
	user := filepath.Join(work, "packets", ".b.json123456789")
	os.WriteFile(user, []byte("SYNTHETIC user file\n"), 0o644)
	for _, n := range []string{"a.json", "b.json"} {
		if p := runBin(bin, nil, args(0, filepath.Join(work, "packets", n))...); p.code != 0 {
			t.Fatalf("packetize into packets/ of no campaign: exit %d\n%s", p.code, p.out)
		}
	}
	if _, err := os.Lstat(user); err != nil {
		t.Error("packetize into packets/ of no campaign removed the user's .b.json123456789")
	}
	if _, err := os.Lstat(filepath.Join(work, ".verdict-write.lock")); err == nil {
		t.Error("packetize took the parent of a packets/ directory without a manifest.json for a campaign")
	}
}

// TestKilledWritersLeaveNothingReal2 kills fixtures generate (at its
// directory's rename), resolve --template and packetize (at their file's
// rename) with SIGKILL, TMPDIR on the same file system. Each time the
// output does not exist, TMPDIR stays empty, the leftover beside the
// output is not taken for it (check refuses the missing campaign), and
// the next run succeeds and removes the leftover.
func TestKilledWritersLeaveNothingReal2(t *testing.T) {
	t.Parallel()
	bin := verdictBin(t)
	a, _ := demoPair(t, bin)
	dir := t.TempDir()
	tmp := filepath.Join(dir, "tmp")
	os.Mkdir(tmp, 0o755)
	env := []string{"TMPDIR=" + tmp}
	killed := func(what, out string, args ...string) {
		t.Helper()
		pausedRun(t, bin, filepath.Base(out), env, args...)
		if _, err := os.Lstat(out); err == nil {
			t.Errorf("%s killed before its rename: %s exists", what, out)
		}
		if ents, _ := os.ReadDir(tmp); len(ents) != 0 {
			t.Errorf("%s: TMPDIR holds %d entries (first %s)", what, len(ents), ents[0].Name())
		}
		left := 0
		ents, _ := os.ReadDir(filepath.Dir(out))
		for _, e := range ents {
			if strings.HasPrefix(e.Name(), "."+filepath.Base(out)) {
				left++
			}
		}
		if left == 0 {
			t.Errorf("%s: no staging leftover beside %s (was it killed before the rename?)", what, out)
		}
		if p := runBin(bin, env, args...); p.code != 0 {
			t.Fatalf("%s after the kill: exit %d\n%s", what, p.code, p.out)
		}
		noStaging(t, filepath.Dir(out))
	}

	camp := filepath.Join(dir, "generated")
	gen := []string{"fixtures", "generate", "--passing", "--tasks", "2", "--repetitions", "1", "--out", camp}
	pausedRun(t, bin, filepath.Base(camp), env, gen...)
	if p := runBin(bin, nil, "check", camp); p.code != 1 && p.code != 2 || strings.Contains(p.out, "ADMITTED\n") {
		t.Errorf("check of the killed generate's output: exit %d\n%s", p.code, tail(p.out))
	}
	os.RemoveAll(camp) // check's refusal above may not have created it; start clean
	killed("fixtures generate", camp, gen...)
	if len(treeDigests(t, camp)) == 0 {
		t.Error("fixtures generate after the kill wrote nothing")
	}

	r := filepath.Join(a, "ratings")
	choices := filepath.Join(dir, "choices.json")
	killed("resolve --template", choices, "resolve", "--template", "--out", choices, "--allowed-signers", filepath.Join(r, "allowed_signers"),
		filepath.Join(r, "sheet-ann.json"), filepath.Join(r, "sheet-bob.json"))

	sys := filepath.Join(dir, "sys")
	if p := runBin(bin, nil, "fixtures", "generate", "--design", "system-comparison", "--out", sys); p.code != 0 {
		t.Fatalf("fixtures generate: exit %d\n%s", p.code, p.out)
	}
	packets := filepath.Join(dir, "campaign", "packets")
	os.MkdirAll(packets, 0o755)
	killed("packetize", filepath.Join(packets, "W1.json"), "packetize", filepath.Join(sys, "observations", "S1.json"), "--out", filepath.Join(packets, "W1.json"))
}

// TestConcurrentDemoOneWriter: two demo runs (the embedded campaign and a
// generated one of one task) to one --out.
func TestConcurrentDemoOneWriter(t *testing.T) {
	t.Parallel()
	bin := verdictBin(t)
	args := func(i int, out string) []string {
		return [][]string{{"demo", "--out", out}, {"demo", "--out", out, "--tasks", "1"}}[i]
	}
	ref := t.TempDir()
	var want [2]map[string]string
	for i := range want {
		out := filepath.Join(ref, []string{"a", "b"}[i])
		if p := runBin(bin, nil, args(i, out)...); p.code != 0 {
			t.Fatalf("demo: exit %d\n%s", p.code, p.out)
		}
		want[i] = treeDigests(t, out)
	}
	raceOneOutput(t, "demo --out", bin, func(int) string { return filepath.Join(t.TempDir(), "demo") }, args, want, treeDigests)
}

// TestKilledDemoLeavesNothingReal kills demo with SIGKILL just before the
// rename of its output directory: --out does not exist, TMPDIR stays
// empty, score refuses what is there, and the next demo succeeds (its
// records verify against its campaign) and removes the staging directory.
func TestKilledDemoLeavesNothingReal(t *testing.T) {
	t.Parallel()
	bin := verdictBin(t)
	dir := t.TempDir()
	tmp := filepath.Join(dir, "tmp")
	os.Mkdir(tmp, 0o755)
	env := []string{"TMPDIR=" + tmp}
	out := filepath.Join(dir, "demo-out")
	pausedRun(t, bin, "demo-out", env, "demo", "--out", out)
	if _, err := os.Lstat(out); err == nil {
		t.Error("demo killed before its rename: --out exists")
	}
	if ents, _ := os.ReadDir(tmp); len(ents) != 0 {
		t.Errorf("demo: TMPDIR holds %d entries (first %s)", len(ents), ents[0].Name())
	}
	if p := runBin(bin, nil, "score", filepath.Join(out, "campaign"), "--ratings", filepath.Join(out, "ratings"), "--allowed-signers", filepath.Join(filepath.Join(out, "ratings"), "allowed_signers")); p.code == 0 {
		t.Errorf("score accepted the killed demo's output:\n%s", tail(p.out))
	}
	if p := runBin(bin, env, "demo", "--out", out); p.code != 0 {
		t.Fatalf("demo after the kill: exit %d\n%s", p.code, p.out)
	}
	noStaging(t, dir)
	r := func(n string) string { return filepath.Join(out, "ratings", n) }
	if p := runBin(bin, nil, "verify", "--campaign", filepath.Join(out, "campaign"), "--allowed-signers", r("allowed_signers"),
		r("sheet-ann.json"), r("sheet-bob.json"), r("adjudication.json"), r("reveal.json")); p.code != 0 {
		t.Errorf("verify of the demo written after the kill: exit %d\n%s", p.code, tail(p.out))
	}
}
