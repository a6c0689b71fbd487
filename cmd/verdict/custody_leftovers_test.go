package main

// Custody tests of the files beside an output: what a killed write left
// is removed only by a writer of the same output whose lock existed
// before; a user's look-alike files, lock files that are links and an
// import journal that is not verdict's are left alone and refused.

import (
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"verdict/assemble"
)

// TestOutputKeepsUserDotEntries: the entries beside an output that only
// look like a killed write's leftovers (".NAME2", ".NAME2024", a directory
// ".NAME7") are the user's: a refused score --out, export and reveal keep
// them, and so does a writer after a killed one, which removes only the
// killed write's own staging directory and temporary file.
func TestOutputKeepsUserDotEntries(t *testing.T) {
	t.Parallel()
	bin := verdictBin(t)
	a, _ := demoPair(t, bin)
	ratings := filepath.Join(a, "ratings")
	signers := filepath.Join(ratings, "allowed_signers")
	dir := t.TempDir()
	user := func(base string) []string {
		os.Mkdir(filepath.Join(dir, "."+base+"7"), 0o755)
		os.WriteFile(filepath.Join(dir, "."+base+"7", "old-report.md"), []byte("SYNTHETIC user file\n"), 0o644)
		kept := []string{"." + base + "7/old-report.md"}
		for _, n := range []string{"." + base + "2", "." + base + "2024", "." + base + "20261204", "." + base + ".bak"} {
			os.WriteFile(filepath.Join(dir, n), []byte("SYNTHETIC user file\n"), 0o644)
			kept = append(kept, n)
		}
		return kept
	}
	keptAll := func(what string, kept []string) {
		t.Helper()
		for _, n := range kept {
			if _, err := os.Stat(filepath.Join(dir, n)); err != nil {
				t.Errorf("%s: the user's %s is gone: %v", what, n, err)
			}
		}
	}

	// Refused outputs that no verdict write ever touched.
	out := filepath.Join(dir, "results")
	os.Mkdir(out, 0o755)
	os.WriteFile(filepath.Join(out, "keep"), []byte("SYNTHETIC\n"), 0o644)
	kept := user("results")
	score := []string{"score", filepath.Join(a, "campaign"), "--ratings", ratings, "--allowed-signers", signers, "--out", out}
	if p := runBin(bin, nil, score...); p.code != 1 || !strings.Contains(p.out, "output-not-empty") {
		t.Fatalf("score --out into a full directory: exit %d\n%s", p.code, p.out)
	}
	keptAll("refused score --out", kept)
	csv := filepath.Join(dir, "grades.csv")
	os.WriteFile(csv, []byte("SYNTHETIC\n"), 0o644)
	kept = user("grades.csv")
	if p := runBin(bin, nil, "export", "grades", filepath.Join(a, "campaign"), "--ratings", ratings, "--allowed-signers", signers, "--out", csv); p.code != 1 || !strings.Contains(p.out, "output-exists") {
		t.Fatalf("export over an existing file: exit %d\n%s", p.code, p.out)
	}
	keptAll("refused export", kept)

	// A writer after a killed one: the kill left the lock file and a
	// staging directory; the next writer removes that directory only.
	report := filepath.Join(dir, "report")
	score[len(score)-1] = report
	pausedRun(t, bin, "report", nil, score...)
	kept = user("report")
	stale, _ := filepath.Glob(filepath.Join(dir, ".report.staging*"))
	if len(stale) != 1 {
		t.Fatalf("killed score --out left %v, want one staging directory", stale)
	}
	if p := runBin(bin, nil, score...); p.code == 2 || !strings.Contains(p.out, "report written to") {
		t.Fatalf("score after the kill: exit %d\n%s", p.code, p.out)
	}
	keptAll("score after a killed score", kept)
	if _, err := os.Stat(stale[0]); err == nil {
		t.Errorf("the killed write's %s is still there", filepath.Base(stale[0]))
	}
}

// TestSymlinkedOutputLocksBesideLink: an --out that is a symbolic link to
// an existing file (here a file of another directory, as a campaign's
// receipt would be) is refused (output-exists), and its lock file is made
// beside the link, never beside the link's target.
func TestSymlinkedOutputLocksBesideLink(t *testing.T) {
	t.Parallel()
	bin := verdictBin(t)
	a, _ := demoPair(t, bin)
	ratings := filepath.Join(a, "ratings")
	dir := t.TempDir()
	target := filepath.Join(dir, "bound", "S1.json")
	os.MkdirAll(filepath.Dir(target), 0o755)
	os.WriteFile(target, []byte("SYNTHETIC bound file\n"), 0o644)
	link := filepath.Join(dir, "grades.csv")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	r := runBin(bin, nil, "export", "grades", filepath.Join(a, "campaign"), "--ratings", ratings, "--allowed-signers", filepath.Join(ratings, "allowed_signers"), "--out", link)
	if r.code != 1 || !strings.Contains(r.out, "output-exists") {
		t.Fatalf("export --out a link to a file: exit %d\n%s", r.code, r.out)
	}
	if ents, _ := os.ReadDir(filepath.Dir(target)); len(ents) != 1 {
		t.Errorf("the link's target directory holds %d entries, want the file alone (no lock file beside it)", len(ents))
	}
	if b, _ := os.ReadFile(target); string(b) != "SYNTHETIC bound file\n" {
		t.Errorf("the link's target changed: %q", b)
	}
}

// TestKilledSignatureLeftoverRemoved: freeze killed at the rename of the
// signature leaves its temporary file (.sheet-ann.json.sig<digits>); the
// next freeze of the same record removes it with the record's own.
func TestKilledSignatureLeftoverRemoved(t *testing.T) {
	t.Parallel()
	bin := verdictBin(t)
	p, keys := gradedPair(t, t.TempDir())
	keys, _ = filepath.Abs(keys)
	freeze := []string{"freeze", "--journal", p("bundle-ann.journal.jsonl"), "--bundle", p("bundle-ann.json"), "--allowed-signers", filepath.Join(keys, "allowed_signers"),
		"--key", filepath.Join(keys, "rater-ann"), "--name", "ann", "--out", p("sheet-ann.json"), "--time", "2026-03-04T05:06:07Z"}
	left := killedLeftover(t, bin, "sheet-ann.json.sig", p(".sheet-ann.json.sig*"), freeze)
	if r := runBin(bin, nil, freeze...); r.code != 0 {
		t.Fatalf("freeze after the kill: exit %d\n%s", r.code, r.out)
	}
	if _, err := os.Lstat(left); err == nil {
		t.Errorf("the killed write's %s is still there", filepath.Base(left))
	}
}

// killedLeftover runs args killed before the rename of name (pausedRun)
// and returns the one temporary file matching glob it left.
func killedLeftover(t *testing.T, bin, name, glob string, args []string) string {
	t.Helper()
	pausedRun(t, bin, name, nil, args...)
	left, _ := filepath.Glob(glob)
	if len(left) != 1 {
		t.Fatalf("killed before renaming %s: left %v, want one temporary file", name, left)
	}
	return left[0]
}

// TestSiblingOutputTempKept: ".r1" and digits is also ".r" and digits;
// while output r1 has a writer (its lock file exists), the next writer of
// output r leaves that temporary file alone.
func TestSiblingOutputTempKept(t *testing.T) {
	t.Parallel()
	bin := verdictBin(t)
	a, _ := demoPair(t, bin)
	ratings := filepath.Join(a, "ratings")
	dir := t.TempDir()
	export := func(out string) []string {
		return []string{"export", "grades", filepath.Join(a, "campaign"), "--ratings", ratings, "--allowed-signers", filepath.Join(ratings, "allowed_signers"), "--out", filepath.Join(dir, out)}
	}
	if r := runBin(bin, nil, export("r")...); r.code != 0 {
		t.Fatalf("export: exit %d\n%s", r.code, r.out)
	}
	os.Remove(filepath.Join(dir, "r"))
	left := killedLeftover(t, bin, "r1", filepath.Join(dir, ".r1*"), export("r1"))
	if r := runBin(bin, nil, export("r")...); r.code != 0 {
		t.Fatalf("export to r: exit %d\n%s", r.code, r.out)
	}
	if _, err := os.Lstat(left); err != nil {
		t.Errorf("the writer of r removed r1's temporary file %s", filepath.Base(left))
	}
}

// TestScoreMissingMapNamesFlag: a sealed map kept out of the ratings
// directory (as blind --map-out advises) and not named by --map is
// refused with record-set, and the refusal says that --map names it.
func TestScoreMissingMapNamesFlag(t *testing.T) {
	t.Parallel()
	bin := verdictBin(t)
	a, _ := demoPair(t, bin)
	ratings := filepath.Join(a, "ratings")
	for _, args := range [][]string{
		{"score", filepath.Join(a, "campaign"), "--ratings", ratings, "--allowed-signers", filepath.Join(ratings, "allowed_signers"), "--map", filepath.Join(t.TempDir(), "sealed-map.json")},
		{"export", "all", filepath.Join(a, "campaign"), "--ratings", ratings, "--allowed-signers", filepath.Join(ratings, "allowed_signers"), "--map", filepath.Join(t.TempDir(), "sealed-map.json"), "--out", filepath.Join(t.TempDir(), "out")},
	} {
		p := runBin(bin, nil, args...)
		if p.code != 1 || !strings.Contains(p.out, "record-set") || !strings.Contains(p.out, "--map names the file blind --map-out wrote") {
			t.Errorf("%s without its sealed map: exit %d\n%s", args[0], p.code, p.out)
		}
	}
}

// TestManifestRefusesStagingLeftover: a temporary file a killed write
// left under a bound directory is never bound by verdict manifest.
func TestManifestRefusesStagingLeftover(t *testing.T) {
	t.Parallel()
	camp, _, _ := importFixture(t, "S1")
	left := filepath.Join(camp, "receipts", ".S1.json"+fmt.Sprint(1234567890123456789))
	os.WriteFile(left, []byte("{}"), 0o644)
	code, out := chkRunCaptured(t, "manifest", camp)
	if code != 1 || !strings.Contains(out, "unbindable") || !strings.Contains(out, "interrupted write") {
		t.Fatalf("manifest with a staging leftover: exit %d\n%s", code, out)
	}
}

// TestFirstCampaignWriteKeepsUserDotFiles: a campaign no verdict writer
// has held (no write lock file) may hold a user's file named as a killed
// write's temporary file would be (".packet.json" and nine digits beside
// packet.json); the first `verdict packet` into it keeps that file (it
// makes the lock file; from then on such a name beside a destination is
// taken for a killed write's, as beside any output).
func TestFirstCampaignWriteKeepsUserDotFiles(t *testing.T) {
	t.Parallel()
	bin := verdictBin(t)
	repo, commit := gitRepo(t, packetFiles)
	camp := filepath.Join(t.TempDir(), "campaign")
	user := filepath.Join(camp, "tasks", "T1", ".packet.json202612040")
	os.MkdirAll(filepath.Dir(user), 0o755)
	os.WriteFile(user, []byte("SYNTHETIC user file\n"), 0o644)
	packet := append([]string{"packet", camp, "--task", "T1", "--repo", "synthetic-owner/synthetic-repo=" + repo, "--commit", commit}, packetItems...)
	if p := runBin(bin, nil, packet...); p.code != 0 {
		t.Fatalf("packet: exit %d\n%s", p.code, p.out)
	}
	if b, err := os.ReadFile(user); err != nil || string(b) != "SYNTHETIC user file\n" {
		t.Fatalf("the first write into the campaign removed or changed the user's %s: %v", filepath.Base(user), err)
	}
	if _, err := os.Stat(filepath.Join(camp, ".verdict-write.lock")); err != nil {
		t.Fatalf("no campaign write lock after packet: %v", err)
	}
}

// TestImportJournalRecoveryRefusals: the recovery of an interrupted
// import's journal, which the next campaign writer runs, removes nothing
// and refuses (import-journal) a journal in a campaign whose write lock
// no verdict writer held before, and one naming a file through a
// receipts/ directory that is a symbolic link out of the campaign (the
// user's file there stays, even with its digest in the journal). A
// manifest --dry-run makes no lock file and recovers nothing.
func TestImportJournalRecoveryRefusals(t *testing.T) {
	t.Parallel()
	bin := verdictBin(t)
	victim := filepath.Join(t.TempDir(), "victim")
	os.Mkdir(victim, 0o755)
	notes := filepath.Join(victim, "notes.json")
	os.WriteFile(notes, []byte("SYNTHETIC user file\n"), 0o644)
	sum := sha256.Sum256([]byte("SYNTHETIC user file\n"))
	journal := fmt.Sprintf(`{"files":[{"path":"receipts/notes.json","sha256":"%x"}]}`, sum)
	for _, c := range []struct {
		name  string
		prior bool
		want  string
	}{
		{"no prior lock", false, "no verdict writer held"},
		{"receipts/ a link", true, "not a directory"},
	} {
		camp, _, _ := importFixture(t, "S1")
		os.RemoveAll(filepath.Join(camp, "receipts"))
		if err := os.Symlink(victim, filepath.Join(camp, "receipts")); err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(camp, assemble.ImportJournalFile), []byte(journal), 0o644)
		if c.prior {
			os.WriteFile(filepath.Join(camp, assemble.WriteLockFile), nil, 0o600)
		}
		// A dry run writes nothing, not even the lock file.
		if p := runBin(bin, nil, "manifest", camp, "--dry-run"); p.code != 1 || !strings.Contains(p.out, "import-journal") {
			t.Errorf("%s: manifest --dry-run with a journal: exit %d\n%s", c.name, p.code, p.out)
		}
		if _, err := os.Lstat(filepath.Join(camp, assemble.WriteLockFile)); err == nil && !c.prior {
			t.Errorf("%s: manifest --dry-run made the campaign's lock file", c.name)
		}
		p := runBin(bin, nil, "manifest", camp)
		if p.code != 1 || !strings.Contains(p.out, "import-journal") || !strings.Contains(p.out, c.want) {
			t.Errorf("%s: manifest with the journal: exit %d\n%s", c.name, p.code, p.out)
		}
		if b, err := os.ReadFile(notes); err != nil || string(b) != "SYNTHETIC user file\n" {
			t.Fatalf("%s: the user's notes.json outside the campaign is gone or changed: %v", c.name, err)
		}
		if _, err := os.Lstat(filepath.Join(camp, assemble.ImportJournalFile)); err != nil {
			t.Errorf("%s: the refused journal was removed", c.name)
		}
	}
}

// TestLockFileLinkRefused: a lock file that is a symbolic link (here a
// dangling one, to a file of another directory) is refused, and nothing
// is made at its target: a campaign's .verdict-write.lock (verdict
// packet) and an output's NAME.lock (export --out).
func TestLockFileLinkRefused(t *testing.T) {
	t.Parallel()
	bin := verdictBin(t)
	a, _ := demoPair(t, bin)
	ratings := filepath.Join(a, "ratings")
	dir := t.TempDir()
	target := filepath.Join(dir, "elsewhere", "made-through-a-link")
	os.Mkdir(filepath.Dir(target), 0o755)
	csv := filepath.Join(dir, "grades.csv")
	os.Symlink(target, csv+".lock")
	p := runBin(bin, nil, "export", "grades", filepath.Join(a, "campaign"), "--ratings", ratings, "--allowed-signers", filepath.Join(ratings, "allowed_signers"), "--out", csv)
	if p.code != 1 || !strings.Contains(p.out, "lock-not-file") {
		t.Errorf("export --out with its lock file a link: exit %d\n%s", p.code, p.out)
	}
	repo, commit := gitRepo(t, packetFiles)
	camp := filepath.Join(dir, "campaign")
	os.Mkdir(camp, 0o755)
	os.Symlink(target, filepath.Join(camp, assemble.WriteLockFile))
	p = runBin(bin, nil, append([]string{"packet", camp, "--task", "T1", "--repo", "synthetic-owner/synthetic-repo=" + repo, "--commit", commit}, packetItems...)...)
	if p.code != 1 || !strings.Contains(p.out, "lock-not-file") {
		t.Errorf("packet into a campaign whose write lock file is a link: exit %d\n%s", p.code, p.out)
	}
	if _, err := os.Lstat(target); err == nil {
		t.Error("a file was made at the lock file's link target")
	}
	if _, err := os.Lstat(csv); err == nil {
		t.Error("export wrote its output although its lock was refused")
	}
}

// TestImportJournalNeedsManifest: a journal left after the binding (every
// file it names is bound) meets a manifest.json with a typo: the next
// campaign writer cannot tell which files are bound, so it refuses
// (import-journal) and removes none of them.
func TestImportJournalNeedsManifest(t *testing.T) {
	t.Parallel()
	bin := verdictBin(t)
	camp := heldCampaign(t)
	var files []string
	for _, p := range []string{"responses/S1.json", "receipts/S1.json"} {
		b, err := os.ReadFile(filepath.Join(camp, p))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, fmt.Sprintf(`{"path":%q,"sha256":"%x"}`, p, sha256.Sum256(b)))
	}
	os.WriteFile(filepath.Join(camp, assemble.ImportJournalFile), []byte(`{"files":[`+strings.Join(files, ",")+`]}`), 0o644)
	m := filepath.Join(camp, "manifest.json")
	b, _ := os.ReadFile(m)
	os.WriteFile(m, append(b[:len(b)-2], []byte(",}\n")...), 0o644)
	if p := runBin(bin, nil, "manifest", camp); p.code != 1 || !strings.Contains(p.out, "import-journal") {
		t.Errorf("manifest with a journal and a manifest that does not decode: exit %d\n%s", p.code, p.out)
	}
	for _, p := range []string{"responses/S1.json", "receipts/S1.json", assemble.ImportJournalFile} {
		if _, err := os.Lstat(filepath.Join(camp, p)); err != nil {
			t.Errorf("%s is gone", p)
		}
	}
}

// TestImportJournalUndoRace: responses/ is swapped for a link to the
// campaign's root while a long undo runs (a journal of 20,000 missing
// files, then "responses/manifest.json" with the manifest's digest): the
// undo keeps working in the directory it opened, and the manifest and
// every bound file stay.
func TestImportJournalUndoRace(t *testing.T) {
	t.Parallel()
	bin := verdictBin(t)
	camp := heldCampaign(t)
	marker := filepath.Join(camp, "responses", "zz-marker.json")
	os.WriteFile(marker, []byte("SYNTHETIC marker\n"), 0o644)
	manifest, _ := os.ReadFile(filepath.Join(camp, "manifest.json"))
	var j strings.Builder
	fmt.Fprintf(&j, `{"files":[{"path":"responses/zz-marker.json","sha256":"%x"}`, sha256.Sum256([]byte("SYNTHETIC marker\n")))
	for i := range 20000 {
		fmt.Fprintf(&j, `,{"path":"responses/x%07d.json","sha256":"%064d"}`, i, 0)
	}
	fmt.Fprintf(&j, `,{"path":"responses/manifest.json","sha256":"%x"}]}`, sha256.Sum256(manifest))
	os.WriteFile(filepath.Join(camp, assemble.ImportJournalFile), []byte(j.String()), 0o644)
	done := make(chan proc, 1)
	go func() { done <- runBin(bin, nil, "manifest", camp) }()
	swapped := false
	for !swapped {
		select {
		case p := <-done:
			t.Fatalf("manifest ended before the swap (exit %d): the undo was too fast for this test\n%s", p.code, p.out)
		default:
		}
		if _, err := os.Lstat(marker); err != nil {
			os.Rename(filepath.Join(camp, "responses"), filepath.Join(camp, "responses.real"))
			os.Symlink(".", filepath.Join(camp, "responses"))
			swapped = true
		}
		time.Sleep(time.Millisecond)
	}
	<-done
	if b, err := os.ReadFile(filepath.Join(camp, "manifest.json")); err != nil || string(b) != string(manifest) {
		t.Fatalf("the manifest was removed or changed by the undo: %v", err)
	}
	for _, p := range []string{"receipts/S1.json", "responses.real/S1.json"} {
		if _, err := os.Lstat(filepath.Join(camp, p)); err != nil {
			t.Errorf("%s is gone", p)
		}
	}
}

// heldCampaign is a copy of the SYNTHETIC fixture campaign with its write
// lock file, as a campaign a verdict writer has held.
func heldCampaign(t *testing.T) string {
	t.Helper()
	camp := filepath.Join(t.TempDir(), "campaign")
	if err := os.CopyFS(camp, os.DirFS(filepath.Join("..", "..", "fixtures", "campaign"))); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(camp, assemble.WriteLockFile), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	return camp
}
