package blinding

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"testing"

	"verdict/internal/synth"
)

// ParseBundle checks the canonical form item by item as the items are
// decoded, then the bytes around them; its verdict must be the whole-file
// comparison's (checkCanonical) for every edit of white space, commas and
// brackets: inside an item, between items, before the first and after the
// last, at the end of the file, and the whole file compacted or with CRLF
// line ends.
func TestParseBundleCanonicalAsWholeFile(t *testing.T) {
	res, err := Build(synth.Campaign(), Options{Key: synth.Key})
	if err != nil {
		t.Fatal(err)
	}
	bb := res.BundleBytes[0]
	edits := [][]byte{
		bytes.ReplaceAll(bb, []byte("\n"), []byte("\r\n")),
		bytes.ReplaceAll(bb, []byte("\n    {"), []byte("\n   {")),
		bytes.ReplaceAll(bb, []byte("},\n    {"), []byte("}, {")),
		bytes.Replace(bb, []byte("},\n    {"), []byte("} ,\n    {"), 1),
		bytes.Replace(bb, []byte("\"items\": [\n"), []byte("\"items\": [ \n"), 1),
		bytes.Replace(bb, []byte("\n  ]\n}\n"), []byte("\n  ]\n}"), 1),
		bytes.Replace(bb, []byte("\n  ]\n}\n"), []byte("\n  ]\n}\n\n"), 1),
		bytes.Replace(bb, []byte("\n  ]\n}\n"), []byte("\n ]\n}\n"), 1),
		append([]byte(" "), bb...),
	}
	rng := rand.New(rand.NewPCG(1, 2))
	ws := []byte(" \n\t\r,")
	for range 400 {
		e := bytes.Clone(bb)
		p := rng.IntN(len(e))
		switch rng.IntN(3) {
		case 0: // insert
			e = append(e[:p], append([]byte{ws[rng.IntN(len(ws))]}, e[p:]...)...)
		case 1: // delete a white-space byte near p
			for ; p < len(e) && !bytes.ContainsRune(ws, rune(e[p])); p++ {
			}
			if p < len(e) {
				e = append(e[:p], e[p+1:]...)
			}
		case 2: // replace a white-space byte near p
			for ; p < len(e) && e[p] != ' ' && e[p] != '\n'; p++ {
			}
			if p < len(e) {
				e[p] = ws[rng.IntN(len(ws))]
			}
		}
		edits = append(edits, e)
	}
	if _, err := ParseBundle("b.json", bb); err != nil {
		t.Fatal(err)
	}
	refused := 0
	for i, e := range edits {
		_, err := ParseBundle("b.json", e)
		var b Bundle
		decodeErr := DecodeStrict("b.json", e, &b)
		wantNonCanonical := decodeErr == nil && b.Format == BundleFormat && checkCanonical("b.json", e, &b) != nil
		if wantNonCanonical {
			refused++
		}
		if got := errors.Is(err, ReasonNonCanonical); got != wantNonCanonical {
			t.Fatalf("edit %d: ParseBundle says non-canonical %v (%v), the whole-file comparison %v", i, got, err, wantNonCanonical)
		}
	}
	if refused < len(edits)/2 {
		t.Fatalf("only %d of %d edits are not canonical: the test does not reach the refusal", refused, len(edits))
	}
}
