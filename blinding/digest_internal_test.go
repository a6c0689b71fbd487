package blinding

import (
	"bytes"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"verdict/campaign"
)

// TestFileContentDigestsEqualEncoded: the content and obligations digests
// computed from a canonical bundle file's own bytes equal those computed
// by encoding its items again, for texts with escapes, HTML characters,
// non-ASCII, empty and absent arrays, and items in any order.
func TestFileContentDigestsEqualEncoded(t *testing.T) {
	texts := []string{"plain", "<a href=\"x\">&amp;</a>", "tab\tand \\ backslash", "é ✓ 中文 \u2028", "line\nbreak", "\x1b[31mred\x1b[0m"}
	for n := range 4 {
		b := &Bundle{Format: BundleFormat, Rater: "r", ShuffleSeed: strings.Repeat("0", 64), MapCommitment: strings.Repeat("1", 64), Guidelines: texts[n]}
		for i := range n * 3 {
			it := Item{ID: fmt.Sprintf("item-%016x", (i*7919)%97), TaskText: texts[i%len(texts)], Evidence: []Excerpt{}}
			if i%2 == 0 {
				it.Obligations = []Obligation{{ID: "O1", Text: texts[(i+1)%len(texts)], EvidenceIDs: []string{"E1"}, AcceptedAlternatives: []string{texts[(i+2)%len(texts)]}}}
			}
			if i%3 == 1 {
				it.Obligations = []Obligation{}
			}
			it.Final.Claims = []campaign.Claim{{ID: "C1", Text: texts[(i+3)%len(texts)], Status: campaign.ClaimSourceBacked, EvidenceIDs: []string{"E1"}}}
			b.Items = append(b.Items, it)
		}
		var err error
		if b.ContentDigest, b.ObligationsDigest, err = contentDigests(b.Items, nil); err != nil {
			t.Fatal(err)
		}
		// The items encoded side by side give the digest of the array
		// encoded whole.
		sorted := slices.Clone(b.Items)
		slices.SortFunc(sorted, func(a, b Item) int { return strings.Compare(a.ID, b.ID) })
		for _, items := range [][]Item{sorted, b.Items, append(slices.Repeat(b.Items, 40), b.Items...)} {
			whole, err := canonicalDigest(items)
			if err != nil {
				t.Fatal(err)
			}
			if got, err := itemsDigest(items, nil); err != nil || got != whole {
				t.Fatalf("%d items: side by side %s %v, whole %s", len(items), got, err, whole)
			}
		}
		data, err := MarshalCanonical(b)
		if err != nil {
			t.Fatal(err)
		}
		d, raw, err := decodeStrictBundle("b.json", data, nil)
		if err != nil {
			t.Fatal(err)
		}
		c := fileContentDigest(d.Items, raw)
		o, err := obligationsDigest(d.Items)
		if err != nil {
			t.Fatal(err)
		}
		if c != b.ContentDigest || o != b.ObligationsDigest {
			t.Fatalf("%d items: file digests %s %s, encoded %s %s", len(b.Items), c, o, b.ContentDigest, b.ObligationsDigest)
		}
		p, err := ParseBundle("b.json", data)
		if err != nil {
			t.Fatalf("%d items: %v", len(b.Items), err)
		}
		if d, _ := p.Digest(); d != Digest(data) {
			t.Fatal("the parsed bundle's digest is not its file's")
		}
	}
}

// TestEncodeItemIsEncodeJSON: an item encoded with its task's members
// spliced in (encodeItem, as the derivation encodes every item) is byte for
// byte its whole encoding, for texts with escapes, HTML characters and
// non-ASCII, nil and empty lists on both sides, items that share their
// task's lists and items that do not; and Item has exactly the members the
// splice writes, so a member added to Item fails here first.
func TestEncodeItemIsEncodeJSON(t *testing.T) {
	var names []string
	for f := range reflect.TypeFor[Item]().Fields() {
		names = append(names, f.Tag.Get("json"))
	}
	if want := []string{"id", "task_text", "evidence", "obligations", "final"}; !slices.Equal(names, want) {
		t.Fatalf("Item's members are %q, encodeItem writes %q", names, want)
	}
	texts := []string{"plain", "<a href=\"x\">&amp;</a>", "tab\tand \\ backslash", "é ✓ 中文 \u2028", "line\nbreak", "\x1b[31mred\x1b[0m", ""}
	shared := Item{TaskText: texts[1], Evidence: []Excerpt{{ID: "E1", Path: texts[3], StartLine: 1, EndLine: 9, Excerpt: texts[4]}},
		Obligations: []Obligation{{ID: "O1", Text: texts[2], EvidenceIDs: []string{"E1"}, AcceptedAlternatives: []string{texts[5]}, Critical: true}}}
	var items []Item
	for i := range 40 {
		it := shared
		if i%3 == 1 { // a task of its own
			it = Item{TaskText: texts[i%len(texts)]}
			switch i % 4 {
			case 1:
				it.Evidence, it.Obligations = []Excerpt{}, []Obligation{}
			case 3:
				it.Evidence = []Excerpt{{ID: texts[i%len(texts)], Excerpt: texts[(i+1)%len(texts)]}}
			}
		}
		it.ID = fmt.Sprintf("item-%016x", i)
		if i == 7 {
			it.ID = texts[i%len(texts)] // an ID the encoder escapes
		}
		if i%2 == 0 {
			it.Final.Claims = []campaign.Claim{{ID: "C1", Text: texts[(i+3)%len(texts)], Status: campaign.ClaimInference, EvidenceIDs: []string{}}}
			it.Final.Citations = []campaign.Citation{{EvidenceID: "E1", Path: texts[i%len(texts)], StartLine: 2, EndLine: 3, Supports: []string{"C1"}}}
		}
		if i%5 == 0 {
			it.Final.Exclusions = []campaign.Exclusion{}
		}
		items = append(items, it)
	}
	tasks, err := encodeTaskMembers(items)
	if err != nil {
		t.Fatal(err)
	}
	if len(tasks) >= len(items)/2 {
		t.Fatalf("%d task encodings for %d items: shared lists are encoded once per task", len(tasks), len(items))
	}
	var got bytes.Buffer
	for i := range items {
		want, err := campaign.MarshalJSON(&items[i])
		if err != nil {
			t.Fatal(err)
		}
		got.Reset()
		if err := encodeItem(&got, &items[i], tasks[taskKeyOf(&items[i])]); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want) {
			t.Fatalf("item %d: spliced encoding differs\n got %q\nwant %q", i, got.Bytes(), want)
		}
	}
}

// TestSharedObligationsDigest: the obligations digest with each distinct
// obligation list encoded once (sharedObligationsDigest) is the digest of
// the array encoded whole (obligationsDigest), for lists shared by several
// items, equal lists in other memory, nil and empty lists, a sub-slice of
// a shared list, texts with escapes and IDs that need escaping.
func TestSharedObligationsDigest(t *testing.T) {
	shared := []Obligation{
		{ID: "O1", Text: "<b>a \"quoted\" & tab\t</b>", EvidenceIDs: []string{"E1"}, AcceptedAlternatives: []string{"é ✓ \u2028"}},
		{ID: "O2", Text: "second", Critical: true, Answerable: true},
	}
	ids := []string{"item-1", "item-2", `item-"3"`, "item-<4>", "item-\u2028", "item-6", "item-7", "item-8"}
	lists := [][]Obligation{shared, shared, nil, {}, slices.Clone(shared), shared[:1], shared[1:], nil}
	for n := 0; n <= len(ids); n++ {
		var items []Item
		for i := range n {
			items = append(items, Item{ID: ids[i], Obligations: lists[i]})
		}
		slices.SortFunc(items, func(a, b Item) int { return strings.Compare(a.ID, b.ID) })
		want, err := obligationsDigest(items)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := sharedObligationsDigest(items); err != nil || got != want {
			t.Fatalf("%d items: shared %s %v, whole %s", n, got, err, want)
		}
	}
}
