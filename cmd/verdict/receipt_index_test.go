package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestReceiptIndexImport: `receipt import --index FILE` imports the batch
// an index file lists (one line per session naming its log and timing
// file, wherever they are and whatever their names, in any order) in
// dispatch order, binds once and gives back the fixture's very receipts;
// every malformed index is refused naming its line, and a refused index
// or session writes nothing.
func TestReceiptIndexImport(t *testing.T) {
	t.Parallel()
	camp, logs, _, orig := batchFixture(t)
	before, _ := os.ReadFile(filepath.Join(camp, "manifest.json"))
	// The runner's own names, in a directory of their own: nothing says
	// which session a file belongs to but the index.
	runs := filepath.Join(filepath.Dir(logs), "runs")
	os.Mkdir(runs, 0o755)
	var ids []string
	for name := range orig {
		if id, ok := strings.CutPrefix(strings.TrimSuffix(name, ".json"), "receipts/"); ok {
			ids = append(ids, id)
			os.Rename(filepath.Join(logs, id+".json"), filepath.Join(runs, "run-"+strings.ToLower(id)+"-log.json"))
			os.Rename(filepath.Join(logs, id+".timing.json"), filepath.Join(runs, "run-"+strings.ToLower(id)+"-times.json"))
		}
	}
	slices.Sort(ids)
	slices.Reverse(ids)
	lines := []string{"# SYNTHETIC index: session, log, timing file", ""}
	for _, id := range ids {
		l := strings.ToLower(id)
		lines = append(lines, fmt.Sprintf("%s\truns/run-%s-log.json   runs/run-%s-times.json", id, l, l))
	}
	index := filepath.Join(filepath.Dir(logs), "index.txt")
	write := func(extra ...string) {
		t.Helper()
		if err := os.WriteFile(index, []byte(strings.Join(append(slices.Clone(lines), extra...), "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	imp := func() (int, string) {
		return chkRunCaptured(t, "receipt", "import", camp, "--index", index, "--log-format", "responses-api-json")
	}
	unchanged := func(what string) {
		t.Helper()
		if after, _ := os.ReadFile(filepath.Join(camp, "manifest.json")); string(after) != string(before) {
			t.Fatalf("%s: manifest.json changed", what)
		}
		for name := range orig {
			if _, err := os.Stat(filepath.Join(camp, filepath.FromSlash(name))); err == nil {
				t.Fatalf("%s: %s was written", what, name)
			}
		}
	}
	first := strings.ToLower(ids[len(ids)-1])
	n := len(lines)
	for _, c := range []struct {
		name, line, want string
	}{
		{"two fields", "S1 runs/a.json", fmt.Sprintf("index.txt:%d: batch-index: 2 field(s)", n+1)},
		{"a session twice", fmt.Sprintf("%s runs/x.json runs/y.json", ids[0]), "is listed twice (lines 3 and "},
		{"no such session", "S999 runs/x.json runs/y.json", fmt.Sprintf("index.txt:%d: batch-index: no run of the manifest lists session S999", n+1)},
		{"not a session", "s1 runs/x.json runs/y.json", `"s1" is not a session ID`},
		{"a file twice", fmt.Sprintf("S999 runs/run-%s-log.json runs/y.json", first), "is named twice"},
		{"not an error kind", "S999 runs/x.json runs/y.json crashed", `"crashed" is not an error kind`},
	} {
		write(c.line)
		if code, out := imp(); code != 1 || !strings.Contains(out, c.want) {
			t.Errorf("%s: exit %d, want 1 with %q\n%s", c.name, code, c.want, out)
		}
		unchanged(c.name)
	}
	// A listed file that is not there stops the batch at its session.
	os.Rename(filepath.Join(runs, "run-"+first+"-times.json"), filepath.Join(runs, "moved.json"))
	write()
	if code, out := imp(); code == 0 || !strings.Contains(out, "batch-stopped") {
		t.Errorf("missing timing file: exit %d\n%s", code, out)
	}
	unchanged("missing timing file")
	os.Rename(filepath.Join(runs, "moved.json"), filepath.Join(runs, "run-"+first+"-times.json"))
	if code, out := chkRunCaptured(t, "receipt", "import", camp, "--index", index, "--logs", logs, "--log-format", "responses-api-json"); code != 2 {
		t.Errorf("--index with --logs: exit %d, want 2\n%s", code, out)
	}

	code, out := imp()
	if code != 0 || !strings.HasPrefix(out, "session S1: response") || !strings.Contains(out, fmt.Sprintf("%d session(s) imported; manifest.json bound", len(ids))) {
		t.Fatalf("index batch: exit %d\n%s", code, out)
	}
	for name, want := range orig {
		got, err := os.ReadFile(filepath.Join(camp, filepath.FromSlash(name)))
		if strings.HasPrefix(name, "receipts/") {
			got = withoutResponseID(got) // the fixture's receipts were made without a log
		}
		if err != nil || string(got) != string(want) {
			t.Errorf("%s differs from the fixture's", name)
		}
	}
	if code, out := chkRunCaptured(t, "check", camp); code != 0 {
		t.Fatalf("check after the batch: exit %d\n%s", code, out)
	}
}
