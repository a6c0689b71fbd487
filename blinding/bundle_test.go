package blinding_test

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"testing"

	"verdict/blinding"
	"verdict/campaign"
	"verdict/internal/synth"
)

func build(t *testing.T) *blinding.Result {
	t.Helper()
	res, err := blinding.Build(synth.Campaign(), blinding.Options{Key: synth.Key})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestBuildBundlesOnlyDecodedReviews(t *testing.T) {
	res := build(t)
	if len(res.Bundles) != 2 {
		t.Fatalf("bundles = %d, want 2", len(res.Bundles))
	}
	// Two tasks × (A, B) minus T2's malformed B: three items; no draft.
	for _, b := range res.Bundles {
		if len(b.Items) != 3 {
			t.Fatalf("%s: %d items, want 3", b.Rater, len(b.Items))
		}
	}
	if len(res.Map.Items) != 3 {
		t.Fatalf("map items = %d", len(res.Map.Items))
	}
	for _, m := range res.Map.Items {
		if m.Role == campaign.RoleDraft || m.Session == "S6" {
			t.Errorf("bundled %+v", m)
		}
	}
	for i, bb := range res.BundleBytes {
		if bytes.Contains(bb, []byte("S6")) || bytes.Contains(bb, []byte(`"reconciliation"`)) {
			t.Errorf("bundle %d leaks", i)
		}
		if !bytes.HasPrefix(bb, []byte("{\n  \"notice\": \"SYNTHETIC")) {
			t.Errorf("bundle %d does not start with the SYNTHETIC notice", i)
		}
	}
}

func TestBuildDeterministicAndBound(t *testing.T) {
	a, b := build(t), build(t)
	for i := range a.BundleBytes {
		if !bytes.Equal(a.BundleBytes[i], b.BundleBytes[i]) {
			t.Fatal("bundle bytes differ between two builds")
		}
	}
	if !bytes.Equal(a.MapBytes, b.MapBytes) {
		t.Fatal("map bytes differ")
	}
	b1, b2 := a.Bundles[0], a.Bundles[1]
	if b1.ContentDigest != b2.ContentDigest || b1.ObligationsDigest != b2.ObligationsDigest {
		t.Fatal("content digests differ between raters")
	}
	if b1.MapCommitment != blinding.Digest(a.MapBytes) {
		t.Fatal("map commitment is not the map digest")
	}
	if b1.ShuffleSeed == b2.ShuffleSeed {
		t.Fatal("raters share a shuffle seed")
	}
	ids := func(b *blinding.Bundle) (out []string) {
		for _, it := range b.Items {
			out = append(out, it.ID)
		}
		return
	}
	x, y := ids(b1), ids(b2)
	slices.Sort(x)
	slices.Sort(y)
	if !slices.Equal(x, y) {
		t.Fatal("raters see different item sets")
	}
	for i, bb := range a.BundleBytes {
		pb, err := blinding.ParseBundle("b.json", bb)
		if err != nil {
			t.Fatal(err)
		}
		d, _ := pb.Digest()
		if d != blinding.Digest(bb) {
			t.Fatalf("bundle %d: digest of parsed bundle differs from file digest", i)
		}
	}
	if _, err := blinding.ParseSealedMap("m.json", a.MapBytes); err != nil {
		t.Fatal(err)
	}
}

func TestShuffleDependsOnSeedAndRater(t *testing.T) {
	c := synth.Campaign()
	var orders []string
	for _, r := range []string{"ann", "bob", "cy", "dee", "eve", "fay"} {
		res, err := blinding.Build(c, blinding.Options{Key: synth.Key, Raters: []string{r}})
		if err != nil {
			t.Fatal(err)
		}
		var s []string
		for _, it := range res.Bundles[0].Items {
			s = append(s, it.ID)
		}
		orders = append(orders, strings.Join(s, ","))
	}
	slices.Sort(orders)
	if len(slices.Compact(orders)) < 2 {
		t.Fatal("six raters all got the same order: the shuffle does not depend on the rater")
	}
}

func TestParseBundleRefusesEdits(t *testing.T) {
	res := build(t)
	bb := res.BundleBytes[0]
	edited := bytes.Replace(bb, []byte("Halves round up"), []byte("Halves round dn"), 1)
	if _, err := blinding.ParseBundle("b.json", edited); !errors.Is(err, blinding.ReasonDigestMismatch) {
		t.Fatalf("edited item: err = %v, want digest mismatch", err)
	}
	reformatted := bytes.Replace(bb, []byte("{\n  \"notice\""), []byte("{\n   \"notice\""), 1)
	if _, err := blinding.ParseBundle("b.json", reformatted); !errors.Is(err, blinding.ReasonNonCanonical) {
		t.Fatalf("reformatted: err = %v, want non-canonical", err)
	}
	extra := bytes.Replace(bb, []byte("{\n  \"notice\""), []byte("{\n  \"arm\": \"A\",\n  \"notice\""), 1)
	if _, err := blinding.ParseBundle("b.json", extra); !errors.Is(err, blinding.ReasonMalformedBundle) {
		t.Fatalf("unknown member: err = %v, want malformed", err)
	}
}

// TestParseBundleRefusesItemEdits: the one pass that decodes the items
// and takes their bytes for the content digest keeps every refusal inside
// the items: unknown and repeated members, formatting, edited texts and
// obligations, and a missing items array.
func TestParseBundleRefusesItemEdits(t *testing.T) {
	bb := build(t).BundleBytes[0]
	item := []byte("{\n      \"id\": \"item-")
	claim := []byte("\"claims\": [\n          {\n")
	obligation := []byte("\"obligations\": [\n        {\n          \"id\": \"")
	for _, tc := range []struct {
		name     string
		old, new []byte
		want     error
	}{
		{"unknown item member", item, []byte("{\n      \"session\": \"S1\",\n      \"id\": \"item-"), blinding.ReasonMalformedBundle},
		{"unknown claim member", claim, []byte("\"claims\": [\n          {\n            \"arm\": \"B\",\n"), blinding.ReasonMalformedBundle},
		{"repeated item member", item, []byte("{\n      \"id\": \"x\",\n      \"id\": \"item-"), blinding.ReasonMalformedBundle},
		{"item reformatted", item, []byte("{\n       \"id\": \"item-"), blinding.ReasonNonCanonical},
		{"item compacted", []byte("\"items\": [\n    {\n"), []byte("\"items\": [\n    {"), blinding.ReasonNonCanonical},
		{"obligation edited", obligation, []byte("\"obligations\": [\n        {\n          \"id\": \"Z"), blinding.ReasonDigestMismatch},
		{"items null", []byte("\"items\": ["), []byte("\"items\": null, \"x\": ["), blinding.ReasonMalformedBundle},
	} {
		if !bytes.Contains(bb, tc.old) {
			t.Fatalf("%s: the bundle has no %q", tc.name, tc.old)
		}
		edited := bytes.Replace(bb, tc.old, tc.new, 1)
		if _, err := blinding.ParseBundle("b.json", edited); !errors.Is(err, tc.want) {
			t.Errorf("%s: err = %v, want %s", tc.name, err, tc.want)
		}
	}
	b, err := blinding.ParseBundle("b.json", bb)
	if err != nil {
		t.Fatal(err)
	}
	if d, _ := b.Digest(); d != blinding.Digest(bb) {
		t.Fatal("the parsed bundle's digest is not its file's")
	}
}

func TestBuildRefusals(t *testing.T) {
	c := synth.Campaign()
	if _, err := blinding.Build(c, blinding.Options{Key: []byte("short")}); !errors.Is(err, blinding.ReasonBadKey) {
		t.Errorf("short key: %v", err)
	}
	if _, err := blinding.Build(c, blinding.Options{Key: synth.Key, Raters: []string{"A B"}}); !errors.Is(err, blinding.ReasonBadRater) {
		t.Errorf("bad rater: %v", err)
	}
	c.Manifest.Seed = "xyz"
	if _, err := blinding.Build(c, blinding.Options{Key: synth.Key}); !errors.Is(err, blinding.ReasonBadSeed) {
		t.Errorf("bad seed: %v", err)
	}
}

// TestUnmarshalStrictCanonicalCompare: the canonical check compares while
// encoding; a missing, extra or changed byte anywhere is refused.
func TestUnmarshalStrictCanonicalCompare(t *testing.T) {
	type rec struct {
		A string   `json:"a"`
		B []string `json:"b"`
	}
	good, err := blinding.MarshalCanonical(rec{A: "x", B: []string{"p", "q"}})
	if err != nil {
		t.Fatal(err)
	}
	var r rec
	if err := blinding.UnmarshalStrict("r.json", good, &r); err != nil {
		t.Fatalf("canonical bytes refused: %v", err)
	}
	changed := bytes.Replace(good, []byte(`"a": "x"`), []byte(`"a" :"x"`), 1) // same length
	for name, data := range map[string][]byte{
		"no final newline": good[:len(good)-1],
		"extra newline":    append(bytes.Clone(good), '\n'),
		"moved space":      changed,
	} {
		if err := blinding.UnmarshalStrict("r.json", data, &rec{}); !errors.Is(err, blinding.ReasonNonCanonical) {
			t.Errorf("%s: %v, want %s", name, err, blinding.ReasonNonCanonical)
		}
	}
}

// Derive never encodes a bundle whole; the form it keeps of each bundle
// must accept exactly the bytes Build writes for that rater, with their
// digest, and refuse every other byte string: any byte changed (in the
// header, an item, a separator or the end), the file cut short or
// extended, and the other rater's bundle.
func TestDeriveFormsMatchBuildBytes(t *testing.T) {
	res := build(t)
	m, err := blinding.ParseSealedMap("sealed-map.json", res.MapBytes)
	if err != nil {
		t.Fatal(err)
	}
	d, err := blinding.Derive(synth.Campaign(), m)
	if err != nil {
		t.Fatal(err)
	}
	if d.BundleBytes != nil || d.BundleDigests != nil {
		t.Fatal("Derive encoded the bundles whole")
	}
	if !bytes.Equal(d.MapBytes, res.MapBytes) {
		t.Fatal("derived map bytes differ from the built ones")
	}
	if len(d.Forms) != len(res.BundleBytes) || len(res.Forms) != len(res.BundleBytes) {
		t.Fatalf("derived %d forms, built %d forms and %d bundles", len(d.Forms), len(res.Forms), len(res.BundleBytes))
	}
	match := func(f *blinding.BundleForm, data []byte) (string, bool) {
		t.Helper()
		digest, same, err := f.Match(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		return digest, same
	}
	for i, bb := range res.BundleBytes {
		f := d.Forms[i]
		if f.Rater != res.Bundles[i].Rater {
			t.Fatalf("form %d is for rater %s, bundle for %s", i, f.Rater, res.Bundles[i].Rater)
		}
		if digest, same := match(f, bb); !same || digest != blinding.Digest(bb) || digest != res.BundleDigests[i] {
			t.Fatalf("bundle %d: form match %v digest %s, digest of the bytes %s", i, same, digest, blinding.Digest(bb))
		}
		if len(res.Bundles[i].Items) < 2 {
			t.Fatalf("bundle %d has %d items; the test needs separators", i, len(res.Bundles[i].Items))
		}
		// Every 97th byte position, and the first and last ten.
		var at []int
		for p := 0; p < len(bb); p += 97 {
			at = append(at, p)
		}
		for p := range 10 {
			at = append(at, p, len(bb)-1-p)
		}
		for _, p := range at {
			edited := bytes.Clone(bb)
			edited[p] ^= 0x01
			if _, same := match(f, edited); same {
				t.Fatalf("bundle %d: a byte changed at offset %d matched the derived form", i, p)
			}
		}
		for name, other := range map[string][]byte{
			"cut short":       bb[:len(bb)-1],
			"empty":           nil,
			"extended":        append(bytes.Clone(bb), '\n'),
			"other rater's":   res.BundleBytes[(i+1)%len(res.BundleBytes)],
			"without an item": dropFirstItem(t, bb),
		} {
			if _, same := match(f, other); same {
				t.Fatalf("bundle %d: the %s bytes matched the derived form", i, name)
			}
		}
	}
}

// dropFirstItem is bundle bytes bb without their first item (still
// canonical JSON).
func dropFirstItem(t *testing.T, bb []byte) []byte {
	t.Helper()
	b, err := blinding.ParseBundle("b.json", bb)
	if err != nil {
		t.Fatal(err)
	}
	b.Items = b.Items[1:]
	out, err := blinding.MarshalCanonical(b)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// The sealed map binds the SHA-256 of the manifest it was made from; a map
// without it (written before the member existed), or with a digest that is
// not 64 lowercase hex digits, is refused on /manifest_sha256, and a
// campaign without a manifest digest cannot be blinded.
func TestSealedMapBindsManifestDigest(t *testing.T) {
	c := synth.Campaign()
	res := build(t)
	if res.Map.ManifestSHA256 != c.ManifestSHA256 {
		t.Fatalf("map binds manifest %q, campaign's is %q", res.Map.ManifestSHA256, c.ManifestSHA256)
	}
	member := []byte(`"manifest_sha256": "` + c.ManifestSHA256 + `",`)
	if !bytes.Contains(res.MapBytes, member) {
		t.Fatalf("map bytes lack %s", member)
	}
	for name, repl := range map[string][]byte{
		"missing":   {},
		"uppercase": []byte(`"manifest_sha256": "` + strings.ToUpper(c.ManifestSHA256) + `",`),
		"short":     []byte(`"manifest_sha256": "` + c.ManifestSHA256[:63] + `",`),
	} {
		data := bytes.Replace(res.MapBytes, member, repl, 1)
		_, err := blinding.ParseSealedMap("sealed-map.json", data)
		if !errors.Is(err, campaign.ReasonDigestFormat) || !strings.Contains(err.Error(), "/manifest_sha256") {
			t.Errorf("%s: %v, want %s on /manifest_sha256", name, err, campaign.ReasonDigestFormat)
		}
	}
	c.ManifestSHA256 = ""
	if _, err := blinding.Build(c, blinding.Options{Key: synth.Key}); !errors.Is(err, campaign.ReasonDigestFormat) {
		t.Errorf("blinding a campaign without a manifest digest: %v, want %s", err, campaign.ReasonDigestFormat)
	}
}
