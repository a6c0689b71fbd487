package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"verdict/pipeline"
)

// TestBlindNeedsTwoDistinctRaters: blind accepts exactly two distinct
// raters (CONTRACT §5: two source-based ratings); one, three, or one name
// twice is a usage error (exit 2) and writes nothing.
func TestBlindNeedsTwoDistinctRaters(t *testing.T) {
	t.Parallel()
	for _, raters := range []string{"ann", "ann,bob,cy", "ann,ann"} {
		out := filepath.Join(t.TempDir(), "out")
		if code, _ := chkRunCaptured(t, "blind", "--out", out, "--raters", raters); code != 2 {
			t.Errorf("--raters %s: exit %d, want 2", raters, code)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("--raters %s: %s was written", raters, out)
		}
	}
}

// TestBlindRefusesExistingOutput: blind run again on a directory that
// already holds a blinding (bundles, sealed map, signed sheets) refuses
// with exit 1 and reason output-exists, and changes no byte there; the
// earlier sealed map stays the one the signed sheets need.
func TestBlindRefusesExistingOutput(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "out")
	if code, _ := chkRunCaptured(t, "blind", "--out", out, "--raters", "ann,bob"); code != 0 {
		t.Fatalf("first blind: exit %d", code)
	}
	os.WriteFile(filepath.Join(out, "sheet-ann.json"), []byte("{}"), 0o600)
	snapshot := func() map[string]string {
		m := map[string]string{}
		ents, _ := os.ReadDir(out)
		for _, e := range ents {
			b, _ := os.ReadFile(filepath.Join(out, e.Name()))
			m[e.Name()] = string(b)
		}
		return m
	}
	before := snapshot()
	// Same raters, other raters (a stale bundle-ann.json would remain),
	// and a lone leftover sealed map: all refused.
	for _, raters := range []string{"ann,bob", "cy,dee"} {
		code, stdout := chkRunCaptured(t, "blind", "--out", out, "--raters", raters)
		if code != 1 || !strings.Contains(stdout, string(pipeline.ReasonOutputExists)) {
			t.Errorf("--raters %s again: exit %d, want 1 with %s; stdout %q", raters, code, pipeline.ReasonOutputExists, stdout)
		}
	}
	after := snapshot()
	if len(after) != len(before) {
		t.Fatalf("files changed: %d before, %d after", len(before), len(after))
	}
	for n, b := range before {
		if after[n] != b {
			t.Errorf("%s was rewritten", n)
		}
	}
	only := filepath.Join(t.TempDir(), "only-map")
	os.MkdirAll(only, 0o755)
	os.WriteFile(filepath.Join(only, "sealed-map.json"), []byte("{}"), 0o600)
	if code, _ := chkRunCaptured(t, "blind", "--out", only, "--raters", "ann,bob"); code != 1 {
		t.Errorf("directory with a sealed map: exit %d, want 1", code)
	}
	mustNotExist(t, filepath.Join(only, "bundle-ann.json"), filepath.Join(only, "bundle-bob.json"))
}

// TestBlindMapOut: --map-out writes the sealed map (mode 0600) outside the
// raters' directory, which then holds no map; an existing --map-out file
// is refused (exit 1, output-exists) and nothing is written.
func TestBlindMapOut(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out, mapOut := filepath.Join(dir, "raters"), filepath.Join(dir, "sealed-map.json")
	if code, stdout := chkRunCaptured(t, "blind", "--out", out, "--raters", "ann,bob", "--map-out", mapOut); code != 0 || !strings.Contains(stdout, mapOut) {
		t.Fatalf("blind --map-out: exit %d\n%s", code, stdout)
	}
	if _, err := os.Stat(filepath.Join(out, "sealed-map.json")); err == nil {
		t.Fatal("the sealed map was written into the raters' directory")
	}
	fi, err := os.Stat(mapOut)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("sealed map at --map-out: %v %v", fi, err)
	}
	out2 := filepath.Join(dir, "raters2")
	if code, stdout := chkRunCaptured(t, "blind", "--out", out2, "--raters", "ann,bob", "--map-out", mapOut); code != 1 || !strings.Contains(stdout, string(pipeline.ReasonOutputExists)) {
		t.Fatalf("existing --map-out: exit %d\n%s", code, stdout)
	}
	if _, err := os.Stat(out2); err == nil {
		t.Fatal("a refused blind wrote its output directory")
	}
}

// TestBlindRefusesMapInRaterFolder (trial T21): a --map-out inside --out
// (the directory that goes to the raters), directly, in a subdirectory, or
// through a symbolic link to it, is refused with map-in-rater-folder
// (exit 1) and nothing is written; a sibling path is accepted.
func TestBlindRefusesMapInRaterFolder(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out := filepath.Join(dir, "raters")
	link := filepath.Join(dir, "link")
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(out, link); err != nil {
		t.Fatal(err)
	}
	for _, mapOut := range []string{
		filepath.Join(out, "sealed-map.json"),
		filepath.Join(out, "coord", "map.json"),
		filepath.Join(link, "sealed-map.json"),
		filepath.Join(out, "..", "raters", "m.json"),
	} {
		code, stdout := chkRunCaptured(t, "blind", "--out", out, "--raters", "ann,bob", "--map-out", mapOut, "--format", "json")
		if code != 1 || !strings.Contains(stdout, `"reason":"`+string(pipeline.ReasonMapInRaterFolder)+`"`) {
			t.Errorf("--map-out %s: exit %d, want map-in-rater-folder\n%s", mapOut, code, stdout)
		}
		entries, _ := os.ReadDir(out)
		if len(entries) != 0 {
			t.Fatalf("--map-out %s: a refused blind wrote %v", mapOut, entries)
		}
	}
	// A link to the raters' directory blind has not made yet (a dangling
	// link "alias" -> "later") is followed for the comparison: the map
	// would land inside the raters' directory, and the refusal says so.
	later := filepath.Join(dir, "later")
	if err := os.Symlink("later", filepath.Join(dir, "alias")); err != nil {
		t.Fatal(err)
	}
	code, stdout := chkRunCaptured(t, "blind", "--out", later, "--raters", "ann,bob", "--map-out", filepath.Join(dir, "alias", "map.json"), "--format", "json")
	if code != 1 || !strings.Contains(stdout, `"reason":"`+string(pipeline.ReasonMapInRaterFolder)+`"`) {
		t.Errorf("--map-out through a dangling link to --out: exit %d, want map-in-rater-folder\n%s", code, stdout)
	}
	if _, err := os.Stat(later); err == nil {
		t.Errorf("a refused blind made %s", later)
	}
	if code, stdout := chkRunCaptured(t, "blind", "--out", out, "--raters", "ann,bob", "--map-out", filepath.Join(dir, "raters-map.json")); code != 0 {
		t.Fatalf("--map-out beside the raters' directory (raters-map.json, not inside it): exit %d\n%s", code, stdout)
	}
}
