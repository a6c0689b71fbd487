package serve_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"

	"verdict/adjudication"
	"verdict/blinding"
)

// freezeLocally grades every field of rater's bundle (the first value,
// or the second on the first `differ` fields) and freezes the sheet with
// the rater's fixture key, as verdict grade and verdict freeze do.
func freezeLocally(t *testing.T, dir, rater string, differ int) {
	t.Helper()
	b, digest, err := blinding.LoadBundle(filepath.Join(dir, "bundle-"+rater+".json"))
	if err != nil {
		t.Fatal(err)
	}
	j, err := adjudication.Open(filepath.Join(dir, "bundle-"+rater+".journal.jsonl"), b)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	var gs []adjudication.Grade
	// Fields are compared in canonical order across the two bundles,
	// whose item orders differ: differ by field identity.
	fs := adjudication.BundleFields(b)
	slices.SortFunc(fs, adjudication.CompareFields)
	for i, f := range fs {
		v := adjudication.AllowedValues(f.Kind)
		g := adjudication.Grade{Field: f, Value: v[0], Spent: time.Second}
		if i < differ {
			g.Value = v[1]
		}
		gs = append(gs, g)
	}
	if _, err := j.AppendBatch(gs); err != nil {
		t.Fatal(err)
	}
	signer, err := ssh.NewSignerFromKey(fixtureKey(t, rater))
	if err != nil {
		t.Fatal(err)
	}
	as, err := adjudication.LoadAllowedSigners(filepath.Join(dir, "allowed_signers"))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := adjudication.FreezeSheet(j, b, digest, rater, adjudication.RoleRater, signer, time.Now().UTC(), as, filepath.Join(dir, "sheet-"+rater+".json")); err != nil {
		t.Fatal(err)
	}
}

// TestAdjudicateOverSSH: the adjudicator waits until both sheets are
// frozen, resolves every dispute over SSH and signs through the forwarded
// agent; the adjudication verifies with both sheets (verdict verify) and
// with ssh-keygen -Y verify in namespace verdict-adjudication, and status
// counts the disputes resolved.
func TestAdjudicateOverSSH(t *testing.T) {
	dir := writeRatingsDir(t)
	freezeLocally(t, dir, "ann", 0)
	ts := startServer(t, dir, nil)
	cl, err := dial(t, ts, fixtureKey(t, "cho"), dialOpts{pty: true, agent: true})
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the waiting screen", func() bool { return strings.Contains(cl.screen(), "waiting for the sheet of bob") })
	freezeLocally(t, dir, "bob", 2)
	decisions := filepath.Join(dir, "adjudication.decisions.jsonl")
	waitFor(t, "the decision log", func() bool { _, err := os.Stat(decisions); return err == nil })
	time.Sleep(200 * time.Millisecond)
	for i := 0; i < 2; i++ {
		cl.keys(t, "1")
		time.Sleep(150 * time.Millisecond)
	}
	cl.keys(t, "S", "y")
	out := filepath.Join(dir, "adjudication.json")
	waitFor(t, "the adjudication", func() bool { _, err := os.Stat(out); return err == nil })
	cl.keys(t, "\x1b", "q")
	cl.waitExit(t)
	as, _ := adjudication.LoadAllowedSigners(filepath.Join(dir, "allowed_signers"))
	var files []adjudication.RecordFile
	for _, p := range []string{"sheet-ann.json", "sheet-bob.json", "adjudication.json"} {
		f, err := adjudication.ReadRecordFile(filepath.Join(dir, p))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	for _, ch := range adjudication.Verify(as, files, adjudication.VerifyOptions{}) {
		if !ch.OK {
			t.Fatalf("%s does not verify: %s %s", ch.File, ch.Reason, ch.Detail)
		}
	}
	if kg, err := exec.LookPath("ssh-keygen"); err == nil {
		cmd := exec.Command(kg, "-Y", "verify", "-f", filepath.Join(dir, "allowed_signers"), "-I", "cho", "-n", adjudication.NamespaceAdjudication, "-s", out+".sig")
		cmd.Stdin = bytes.NewReader(files[2].Data)
		if o, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("ssh-keygen -Y verify: %v\n%s", err, o)
		}
	}
}
