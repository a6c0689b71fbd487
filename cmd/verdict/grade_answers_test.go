package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"verdict/adjudication"
)

// TestGradeAnswers: `verdict grade BUNDLE --answers` prints every item of
// the bundle as plain text, in bundle order: its ID, the task, every
// element of the final answer under the ID the template's fields name
// (claims, citations K<i>, exclusions) and every evidence item with its
// numbered lines, the same bytes every run, no terminal escape, no line
// over 100 columns, and no journal written. Combined with --template,
// --journal or --from it is a usage error.
func TestGradeAnswers(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bundle, b := gradeTestBundle(t, dir)
	code, out := chkRunCaptured(t, "grade", bundle, "--answers")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, out)
	}
	if _, again := chkRunCaptured(t, "grade", bundle, "--answers"); again != out {
		t.Error("answers output differs between runs")
	}
	if strings.ContainsRune(out, '\x1b') {
		t.Error("answers output carries a terminal escape")
	}
	for n, l := range strings.Split(out, "\n") {
		if w := len([]rune(l)); w > 100 {
			t.Errorf("line %d is %d columns: %q", n+1, w, l)
		}
	}
	last := -1
	for _, it := range b.Items {
		at := strings.Index(out, "Item "+it.ID+"\n")
		if at <= last {
			t.Fatalf("item %s not printed after the item before it", it.ID)
		}
		last = at
		text := out[at:]
		for _, c := range it.Final.Claims {
			if !strings.Contains(text, "  "+c.ID+"  ") {
				t.Errorf("item %s: claim %s not shown by its ID", it.ID, c.ID)
			}
		}
		for i := range it.Final.Citations {
			if !strings.Contains(text, fmt.Sprintf("  K%d  ", i+1)) {
				t.Errorf("item %s: citation K%d not shown", it.ID, i+1)
			}
		}
		for _, e := range it.Evidence {
			if !strings.Contains(text, fmt.Sprintf("  %s  %s:%d-%d\n", e.ID, e.Path, e.StartLine, e.EndLine)) {
				t.Errorf("item %s: evidence %s not shown with its path and lines", it.ID, e.ID)
			}
		}
	}
	// Every field the template names is findable in the text: the item by
	// its ID, a claim, citation or exclusion by its target.
	for _, f := range adjudication.BundleFields(b) {
		if !strings.Contains(out, "Item "+f.Item) {
			t.Errorf("field %v: item not in the answers text", f)
		}
	}
	for _, args := range [][]string{
		{"--answers", "--template"},
		{"--answers", "--journal", filepath.Join(dir, "j.jsonl")},
		{"--answers", "--from", filepath.Join(dir, "x.json")},
	} {
		if code, out := chkRunCaptured(t, append([]string{"grade", bundle}, args...)...); code != 2 {
			t.Errorf("grade %v: exit %d, want 2\n%s", args, code, out)
		}
	}
	if m, _ := filepath.Glob(filepath.Join(dir, "j.jsonl*")); len(m) != 0 {
		t.Errorf("--answers wrote %v", m)
	}
}
