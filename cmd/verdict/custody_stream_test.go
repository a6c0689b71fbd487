package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"verdict/blinding"
	"verdict/fixtures"
)

// TestScoreNamesFirstForgedBundleItem: a bundle that is not the one the
// campaign derives is read as a stream and refused naming what differs
// first: a rewritten item, an item with a member a bundle item has not,
// an item in other bytes (white space), two items swapped, an item
// removed, a header member changed; the refusal names the item's pointer.
func TestScoreNamesFirstForgedBundleItem(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fsys, key, err := fixtures.GenerateWithKey(fixtures.Options{Passing: true, Tasks: 8, Repetitions: 3})
	if err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	if _, err := runChain(&app{stdout: &log, stderr: &log}, fsys, key, dir); err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	camp, ratings := filepath.Join(dir, "campaign"), filepath.Join(dir, "ratings")
	path := filepath.Join(ratings, "bundle-ann.json")
	orig, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	b, err := blinding.ParseBundle(path, orig)
	if err != nil {
		t.Fatal(err)
	}
	encode := func(edit func(b *blinding.Bundle)) []byte {
		c, err := blinding.ParseBundle(path, orig)
		if err != nil {
			t.Fatal(err)
		}
		edit(c)
		data, err := blinding.MarshalCanonical(c)
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	second := b.Items[1].ID
	secondAt := bytes.Index(orig, []byte(`"id": "`+second+`"`))
	cases := []struct {
		name, pointer, detail string
		data                  []byte
	}{
		{"rewritten claim", "/items/1", "differs from the item the campaign derives",
			encode(func(b *blinding.Bundle) { b.Items[1].Final.Claims[0].Text = "A SYNTHETIC rewritten claim." })},
		{"member a bundle item has not", "/items/1", "is not a bundle item",
			append(append(bytes.Clone(orig[:secondAt]), []byte(`"arm": "B", `)...), orig[secondAt:]...)},
		{"white space in an item", "/items/1", "not its canonical bytes",
			append(append(bytes.Clone(orig[:secondAt]), ' '), orig[secondAt:]...)},
		{"two items swapped", "/items/0", "out of rater ann's derived order",
			encode(func(b *blinding.Bundle) { b.Items[0], b.Items[1] = b.Items[1], b.Items[0] })},
		{"last item removed", "/items", "is missing",
			encode(func(b *blinding.Bundle) { b.Items = b.Items[:len(b.Items)-1] })},
		{"shuffle seed changed", "/shuffle_seed", `member "shuffle_seed" differs`,
			encode(func(b *blinding.Bundle) { b.ShuffleSeed = strings.Repeat("0", 64) })},
	}
	for _, c := range cases {
		if err := os.WriteFile(path, c.data, 0o644); err != nil {
			t.Fatal(err)
		}
		code, out, errOut := runCLI(t, "score", camp, "--ratings", ratings, "--allowed-signers", filepath.Join(ratings, "allowed_signers"), "--format", "json")
		var refs []struct{ Reason, File, Pointer, Message string }
		if err := json.Unmarshal([]byte(out), &refs); err != nil || len(refs) != 1 {
			t.Fatalf("%s: exit %d, output %q %q", c.name, code, out, errOut)
		}
		ref := refs[0]
		t.Logf("%s: %s at %s: %s", c.name, ref.Reason, ref.Pointer, ref.Message)
		if code == 0 || ref.Reason != "bundle-item-mismatch" || ref.Pointer != c.pointer || !strings.Contains(ref.Message, c.detail) || ref.File != path {
			t.Errorf("%s: exit %d, refusal %+v; want bundle-item-mismatch at %s saying %q", c.name, code, ref, c.pointer, c.detail)
		}
	}
	os.WriteFile(path, orig, 0o644)
	if code, _, errOut := runCLI(t, "score", camp, "--ratings", ratings, "--allowed-signers", filepath.Join(ratings, "allowed_signers"), "--format", "json"); code != 0 {
		t.Fatalf("the original bundle: exit %d %s", code, errOut)
	}
}
