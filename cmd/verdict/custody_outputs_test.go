package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"verdict/internal/fsutil"
)

// The tests of this file run the real binary in separate processes: two
// writers of one output at once (VERDICT_RACE_ROUNDS rounds, default 3;
// .ci/run asks for 8),
// and a writer killed with SIGKILL at each rename (fsutil.PauseEnv).
// VERDICT_BIN names another build to run them against (how the counts
// before the one-writer rule were measured).

// verdictBin is $VERDICT_BIN when set, else a fresh build.
func verdictBin(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("runs the built binary in separate processes")
	}
	if b := os.Getenv("VERDICT_BIN"); b != "" {
		return b
	}
	return buildVerdict(t)
}

func raceRounds() int {
	if n, err := strconv.Atoi(os.Getenv("VERDICT_RACE_ROUNDS")); err == nil && n > 0 {
		return n
	}
	return 3
}

// proc is one finished run of the binary.
type proc struct {
	code   int
	out    string // stdout and stderr
	stdout string
}

// runBin runs the binary with args and env added, killed after 60 s.
func runBin(bin string, env []string, args ...string) proc {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = append(os.Environ(), env...)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		code = -1
	}
	return proc{code, o.String() + e.String(), o.String()}
}

// runTogether starts one process per argument list at the same instant and
// waits for all of them.
func runTogether(bin string, argss ...[]string) []proc {
	out := make([]proc, len(argss))
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i, args := range argss {
		wg.Go(func() {
			<-start
			out[i] = runBin(bin, nil, args...)
		})
	}
	close(start)
	wg.Wait()
	return out
}

func fileDigest(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		return "missing"
	}
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// refusedSecond reports whether p is a second writer's refusal.
func refusedSecond(p proc) bool {
	if p.code != 1 {
		return false
	}
	for _, r := range []string{"output-locked", "output-exists", "output-not-empty", "file-differs"} {
		if strings.Contains(p.out, r) {
			return true
		}
	}
	return false
}

// noStaging fails when dir holds a temporary file or staging directory.
func noStaging(t *testing.T, dir string) {
	t.Helper()
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if fsutil.IsStaging(e.Name()) {
			t.Errorf("%s: staging leftover %s", dir, e.Name())
		}
	}
}

// demoPair returns two demo runs (the embedded campaign and a generated one
// of one task), whose campaign and ratings score to different reports.
// They are made once per test process and shared: read them only.
func demoPair(t *testing.T, bin string) (a, b string) {
	t.Helper()
	demos.once.Do(func() {
		dir, err := os.MkdirTemp(sharedDir(t), "demos")
		if err != nil {
			demos.err = err.Error()
			return
		}
		demos.a, demos.b = filepath.Join(dir, "a"), filepath.Join(dir, "b")
		if p := runBin(bin, nil, "demo", "--out", demos.a); p.code != 0 {
			demos.err = fmt.Sprintf("demo: exit %d\n%s", p.code, p.out)
		} else if p := runBin(bin, nil, "demo", "--out", demos.b, "--tasks", "1"); p.code != 0 {
			demos.err = fmt.Sprintf("demo --tasks 1: exit %d\n%s", p.code, p.out)
		}
	})
	if demos.err != "" {
		t.Fatal(demos.err)
	}
	return demos.a, demos.b
}

// demos are the two demo outputs of demoPair, made once for every test
// of the process; the tests only read them (their outputs go to their
// own directories).
var demos struct {
	once sync.Once
	a, b string
	err  string
}

// TestConcurrentBlindOneWriter: two blind runs to one --out and --map-out
// at once. Exactly one may succeed; the other is refused (output-locked,
// or output-exists / output-not-empty once the first finished), and the
// sealed map and bundles on disk are the ones the winner reported.
func TestConcurrentBlindOneWriter(t *testing.T) {
	t.Parallel()
	bin := verdictBin(t)
	rounds, failed := raceRounds(), 0
	for i := range rounds {
		dir := t.TempDir()
		out, mp := filepath.Join(dir, "raters"), filepath.Join(dir, "sealed-map.json")
		args := []string{"blind", "--out", out, "--map-out", mp, "--raters", "ann,bob", "--format", "json"}
		ps := runTogether(bin, args, args)
		var win []proc
		for _, p := range ps {
			if p.code == 0 {
				win = append(win, p)
			} else if !refusedSecond(p) {
				t.Fatalf("round %d: exit %d, want success or a second writer's refusal\n%.2000s", i, p.code, p.out)
			}
		}
		ok := len(win) == 1
		if ok {
			var rep blindReport
			if err := json.Unmarshal([]byte(win[0].stdout), &rep); err != nil {
				t.Fatalf("round %d: %v\n%s", i, err, win[0].out)
			}
			ok = fileDigest(t, mp) == rep.MapCommitment
			for _, b := range rep.Bundles {
				ok = ok && fileDigest(t, filepath.Join(out, b.File)) == b.SHA256
			}
		}
		if !ok {
			failed++
			t.Logf("round %d: %d writers succeeded or the files on disk are not the winner's", i, len(win))
		}
		noStaging(t, dir)
	}
	t.Logf("blind: %d of %d rounds failed", failed, rounds)
	if failed > 0 {
		t.Errorf("blind: %d of %d rounds let two writers succeed or mixed their files", failed, rounds)
	}
}

// TestConcurrentScoreOutOneWriter: two score runs of different ratings
// directories to one --out at once; one is refused, and every file in
// --out is the winner's (compared with each run's report written alone).
func TestConcurrentScoreOutOneWriter(t *testing.T) {
	t.Parallel()
	bin := verdictBin(t)
	a, b := demoPair(t, bin)
	ref := t.TempDir()
	args := func(d, out string) []string {
		return []string{"score", filepath.Join(d, "campaign"), "--ratings", filepath.Join(d, "ratings"), "--allowed-signers", filepath.Join(filepath.Join(d, "ratings"), "allowed_signers"), "--out", out, "--format", "json"}
	}
	for _, d := range []string{a, b} {
		runBin(bin, nil, args(d, filepath.Join(ref, filepath.Base(d)))...)
	}
	same := func(out, refDir string) bool {
		want, _ := os.ReadDir(refDir)
		got, _ := os.ReadDir(out)
		if len(got) != len(want) || len(want) == 0 {
			return false
		}
		for _, e := range want {
			if fileDigest(t, filepath.Join(out, e.Name())) != fileDigest(t, filepath.Join(refDir, e.Name())) {
				return false
			}
		}
		return true
	}
	rounds, failed := raceRounds(), 0
	for i := range rounds {
		dir := t.TempDir()
		out := filepath.Join(dir, "report")
		ps := runTogether(bin, args(a, out), args(b, out))
		refused := 0
		for _, p := range ps {
			if refusedSecond(p) {
				refused++
			}
		}
		if refused != 1 || !(same(out, filepath.Join(ref, "a")) || same(out, filepath.Join(ref, "b"))) {
			failed++
			t.Logf("round %d: %d refused; exits %d %d; report directory is one run's: %v\n%s\n%s", i, refused, ps[0].code, ps[1].code, same(out, filepath.Join(ref, "a")) || same(out, filepath.Join(ref, "b")), tail(ps[0].out), tail(ps[1].out))
		}
		noStaging(t, dir)
	}
	t.Logf("score --out: %d of %d rounds failed", failed, rounds)
	if failed > 0 {
		t.Errorf("score --out: %d of %d rounds let two writers succeed or mixed their files", failed, rounds)
	}
}

// TestConcurrentExportOutOneWriter: two exports of different campaigns to
// one --out at once; one is refused and the file is the winner's whole.
func TestConcurrentExportOutOneWriter(t *testing.T) {
	t.Parallel()
	bin := verdictBin(t)
	a, b := demoPair(t, bin)
	args := func(d, out string) []string {
		return []string{"export", "grades", filepath.Join(d, "campaign"), "--ratings", filepath.Join(d, "ratings"), "--allowed-signers", filepath.Join(filepath.Join(d, "ratings"), "allowed_signers"), "--out", out}
	}
	ref := t.TempDir()
	for _, d := range []string{a, b} {
		if p := runBin(bin, nil, args(d, filepath.Join(ref, filepath.Base(d)+".csv"))...); p.code != 0 {
			t.Fatalf("export: exit %d\n%s", p.code, p.out)
		}
	}
	rounds, failed := raceRounds(), 0
	for i := range rounds {
		dir := t.TempDir()
		out := filepath.Join(dir, "grades.csv")
		ps := runTogether(bin, args(a, out), args(b, out))
		ok := (ps[0].code == 0) != (ps[1].code == 0)
		for _, p := range ps {
			ok = ok && (p.code == 0 || refusedSecond(p))
		}
		got := fileDigest(t, out)
		ok = ok && (got == fileDigest(t, filepath.Join(ref, "a.csv")) && ps[0].code == 0 || got == fileDigest(t, filepath.Join(ref, "b.csv")) && ps[1].code == 0)
		if !ok {
			failed++
			t.Logf("round %d: exits %d, %d", i, ps[0].code, ps[1].code)
		}
		noStaging(t, dir)
	}
	t.Logf("export --out: %d of %d rounds failed", failed, rounds)
	if failed > 0 {
		t.Errorf("export --out: %d of %d rounds let two writers succeed or mixed their files", failed, rounds)
	}
}

// packetConsistent reports whether every evidence item of camp's packet
// for T1 names the SHA-256 of the source file beside it.
func packetConsistent(t *testing.T, camp string) bool {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(camp, "tasks", "T1", "packet.json"))
	if err != nil {
		return false
	}
	var pk struct {
		Items []struct {
			Path       string `json:"path"`
			FileSHA256 string `json:"file_sha256"`
		} `json:"items"`
	}
	if json.Unmarshal(raw, &pk) != nil || len(pk.Items) == 0 {
		return false
	}
	for _, it := range pk.Items {
		if fileDigest(t, filepath.Join(camp, "sources", "synthetic-owner", "synthetic-repo", filepath.FromSlash(it.Path))) != it.FileSHA256 {
			return false
		}
	}
	return true
}

// TestConcurrentPacketOneWriter: two packet runs for one task from two
// commits whose files differ, at once; one is refused (output-locked, or
// file-differs once the first finished) and packet.json names the bytes
// of the sources beside it.
func TestConcurrentPacketOneWriter(t *testing.T) {
	t.Parallel()
	bin := verdictBin(t)
	other := map[string]string{}
	for p, b := range packetFiles {
		other[p] = strings.ReplaceAll(b, "e", "E")
	}
	repoA, commitA := gitRepo(t, packetFiles)
	repoB, commitB := gitRepo(t, other)
	rounds, failed := raceRounds(), 0
	for i := range rounds {
		camp := t.TempDir()
		args := func(repo, commit string) []string {
			return append([]string{"packet", camp, "--task", "T1", "--repo", "synthetic-owner/synthetic-repo=" + repo, "--commit", commit}, packetItems...)
		}
		ps := runTogether(bin, args(repoA, commitA), args(repoB, commitB))
		ok := (ps[0].code == 0) != (ps[1].code == 0) && packetConsistent(t, camp)
		for _, p := range ps {
			ok = ok && (p.code == 0 || refusedSecond(p))
		}
		if !ok {
			failed++
			t.Logf("round %d: exits %d, %d; consistent %v", i, ps[0].code, ps[1].code, packetConsistent(t, camp))
		}
	}
	t.Logf("packet: %d of %d rounds failed", failed, rounds)
	if failed > 0 {
		t.Errorf("packet: %d of %d rounds let two writers succeed or mixed their files", failed, rounds)
	}
}

// pausedRun starts the binary with fsutil.PauseEnv set to name, waits
// until it reports the pause before that rename, and kills it with
// SIGKILL.
func pausedRun(t *testing.T, bin, name string, env []string, args ...string) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(append(os.Environ(), env...), fsutil.PauseEnv+"="+name)
	var out bytes.Buffer
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = &out, pw
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pw.Close()
	seen := make(chan string, 1)
	go func() {
		var b bytes.Buffer
		buf := make([]byte, 4096)
		for {
			n, err := pr.Read(buf)
			b.Write(buf[:n])
			if strings.Contains(b.String(), "paused before renaming") || err != nil {
				seen <- b.String()
				return
			}
		}
	}()
	select {
	case s := <-seen:
		if !strings.Contains(s, "paused before renaming") {
			cmd.Wait()
			t.Fatalf("%v ended before the rename of %s:\n%s%s", args, name, out.String(), s)
		}
	case <-time.After(60 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("%v never reached the rename of %s", args, name)
	}
	if err := cmd.Process.Kill(); err != nil { // SIGKILL
		t.Fatal(err)
	}
	cmd.Wait()
	pr.Close()
}

// TestKilledWritesLeaveNothingReal kills score --out, blind (at the
// sealed map's rename and at the raters' directory's), export --out and
// packet (at packet.json's rename) with SIGKILL just before each rename,
// with TMPDIR on the same file system. Each time nothing that looks like
// the output is left (no report directory, no bundles, no export file, no
// packet.json), nothing at all is left in TMPDIR, a reader refuses what
// is there, and the next run succeeds and removes the leftovers.
func TestKilledWritesLeaveNothingReal(t *testing.T) {
	t.Parallel()
	bin := verdictBin(t)
	a, _ := demoPair(t, bin)
	dir := t.TempDir()
	tmp := filepath.Join(dir, "tmp")
	os.Mkdir(tmp, 0o755)
	env := []string{"TMPDIR=" + tmp}
	tmpEmpty := func(what string) {
		if ents, _ := os.ReadDir(tmp); len(ents) != 0 {
			t.Errorf("%s: TMPDIR holds %d entries (first %s)", what, len(ents), ents[0].Name())
		}
	}

	// score --out: one rename, of the whole report directory.
	out := filepath.Join(dir, "report")
	score := []string{"score", filepath.Join(a, "campaign"), "--ratings", filepath.Join(a, "ratings"), "--allowed-signers", filepath.Join(filepath.Join(a, "ratings"), "allowed_signers"), "--out", out}
	pausedRun(t, bin, "report", env, score...)
	if _, err := os.Stat(out); err == nil {
		t.Error("killed score --out: the report directory exists")
	}
	if p := runBin(bin, nil, "check", filepath.Join(a, "campaign"), "--previous", filepath.Join(a, "campaign"), "--previous-report", filepath.Join(out, "report.json")); p.code == 0 {
		t.Errorf("a reader accepted the killed report:\n%s", p.out)
	}
	tmpEmpty("score --out")
	if p := runBin(bin, env, score...); !strings.Contains(p.out, "report written to") {
		t.Fatalf("score after the kill: exit %d\n%s", p.code, p.out)
	}
	noStaging(t, dir)

	// blind: the sealed map (outside the raters' directory), then the
	// raters' directory.
	raters, mp := filepath.Join(dir, "raters"), filepath.Join(dir, "map.json")
	blind := []string{"blind", "--out", raters, "--map-out", mp, "--raters", "ann,bob"}
	pausedRun(t, bin, "map.json", env, blind...)
	if _, err := os.Stat(mp); err == nil {
		t.Error("blind killed at the map's rename: the map exists")
	}
	if _, err := os.Stat(raters); err == nil {
		t.Error("blind killed at the map's rename: the raters' directory exists")
	}
	tmpEmpty("blind (map)")
	pausedRun(t, bin, "raters", env, blind...)
	if _, err := os.Stat(raters); err == nil {
		t.Error("blind killed at the directory's rename: the raters' directory exists")
	}
	if ents, _ := filepath.Glob(filepath.Join(dir, "bundle-*.json")); len(ents) != 0 {
		t.Errorf("bundles outside the staging directory: %v", ents)
	}
	tmpEmpty("blind (directory)")
	// The map alone is refused by the next blind (never replaced), and the
	// staging directory is removed by it.
	if p := runBin(bin, env, blind...); p.code != 1 || !strings.Contains(p.out, "output-exists") {
		t.Errorf("blind over a lone sealed map: exit %d\n%s", p.code, p.out)
	}
	noStaging(t, dir)
	os.Remove(mp)
	if p := runBin(bin, env, blind...); p.code != 0 {
		t.Fatalf("blind after the kills: exit %d\n%s", p.code, p.out)
	}
	noStaging(t, dir)

	// export --out: one file.
	csv := filepath.Join(dir, "grades.csv")
	export := []string{"export", "grades", filepath.Join(a, "campaign"), "--ratings", filepath.Join(a, "ratings"), "--allowed-signers", filepath.Join(filepath.Join(a, "ratings"), "allowed_signers"), "--out", csv}
	pausedRun(t, bin, "grades.csv", env, export...)
	if _, err := os.Stat(csv); err == nil {
		t.Error("killed export: the export file exists")
	}
	tmpEmpty("export")
	if p := runBin(bin, env, export...); p.code != 0 {
		t.Fatalf("export after the kill: exit %d\n%s", p.code, p.out)
	}
	noStaging(t, dir)

	// packet: the sources are written, then packet.json; killed before
	// packet.json's rename, no packet exists, and the retry completes it.
	repo, commit := gitRepo(t, packetFiles)
	camp := filepath.Join(dir, "campaign")
	os.Mkdir(camp, 0o755)
	packet := append([]string{"packet", camp, "--task", "T1", "--repo", "synthetic-owner/synthetic-repo=" + repo, "--commit", commit}, packetItems...)
	pausedRun(t, bin, "packet.json", env, packet...)
	if _, err := os.Stat(filepath.Join(camp, "tasks", "T1", "packet.json")); err == nil {
		t.Error("killed packet: packet.json exists")
	}
	tmpEmpty("packet")
	if p := runBin(bin, env, packet...); p.code != 0 || !packetConsistent(t, camp) {
		t.Fatalf("packet after the kill: exit %d\n%s", p.code, p.out)
	}
	noStaging(t, filepath.Join(camp, "tasks", "T1"))
}

// tail is the last 400 bytes of s.
func tail(s string) string { return s[max(0, len(s)-400):] }

// TestConcurrentReceiptImportOneWriter: two receipt imports of one session
// at once, whose timing files differ (validation_ns), into one campaign:
// one is refused (output-locked, or file-differs once the first finished)
// and the receipt on disk is the winner's whole.
func TestConcurrentReceiptImportOneWriter(t *testing.T) {
	t.Parallel()
	bin := verdictBin(t)
	_, resp, rc := importFixture(t, "S1")
	log := responsesLog(t, resp, rc, "default", nil)
	timings := []string{timingOf(t, rc, nil), timingOf(t, rc, map[string]any{"validation_ns": rc.ValidationNS + 1})}
	args := func(camp string, i int) []string {
		return []string{"receipt", "import", camp, "--session", "S1", "--log-format", "responses-api-json", "--log", log, "--timing", timings[i]}
	}
	var want [2]string
	for i := range want {
		camp, _, _ := importFixture(t, "S1")
		unbindSession(t, camp, "S1")
		if p := runBin(bin, nil, args(camp, i)...); p.code != 0 {
			t.Fatalf("import %d alone: exit %d\n%s", i, p.code, p.out)
		}
		want[i] = fileDigest(t, filepath.Join(camp, "receipts", "S1.json"))
	}
	if want[0] == want[1] {
		t.Fatal("the two timing files give the same receipt")
	}
	rounds, failed := raceRounds(), 0
	for i := range rounds {
		camp, _, _ := importFixture(t, "S1")
		unbindSession(t, camp, "S1")
		ps := runTogether(bin, args(camp, 0), args(camp, 1))
		ok := (ps[0].code == 0) != (ps[1].code == 0)
		got := fileDigest(t, filepath.Join(camp, "receipts", "S1.json"))
		for k, p := range ps {
			ok = ok && (p.code == 0 && got == want[k] || p.code != 0 && refusedSecond(p))
		}
		if !ok {
			failed++
			t.Logf("round %d: exits %d, %d\n%s\n%s", i, ps[0].code, ps[1].code, tail(ps[0].out), tail(ps[1].out))
		}
		noStaging(t, filepath.Join(camp, "receipts"))
	}
	t.Logf("receipt import: %d of %d rounds failed", failed, rounds)
	if failed > 0 {
		t.Errorf("receipt import: %d of %d rounds let two writers succeed or mixed their files", failed, rounds)
	}
}
