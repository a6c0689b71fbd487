package blinding

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"sync"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"verdict/campaign"
	"verdict/verr"
)

// prescanItems finds the items of bundle bytes laid out canonically
// without decoding them: the ID and bytes (from '{' to '}') of each item,
// in file order. In the canonical layout the "items" member is the last,
// each item starts with the line "    {" and its "id" member and ends with
// the line "    }", and no other line is "    }" (a JSON string holds no
// raw line break). ok is false for any other layout (the file is then
// not canonical, which ParseBundle finds by itself).
func prescanItems(data []byte) (ids []string, raw [][]byte, ok bool) {
	open := []byte("\n  \"items\": [\n")
	at := bytes.Index(data, open)
	if at < 0 {
		return nil, nil, false
	}
	at += len(open)
	start := []byte("    {\n      \"id\": \"")
	for {
		if !bytes.HasPrefix(data[at:], start) {
			return nil, nil, false
		}
		idAt := at + len(start)
		n := bytes.IndexByte(data[idAt:], '"')
		end := bytes.Index(data[at:], []byte("\n    }"))
		if n < 0 || end < 0 {
			return nil, nil, false
		}
		end += at + len("\n    }")
		ids = append(ids, string(data[idAt:idAt+n]))
		raw = append(raw, data[at+4:end])
		switch rest := data[end:]; {
		case bytes.HasPrefix(rest, []byte(",\n")):
			at = end + 2
		case bytes.Equal(rest, []byte(itemsClose)):
			return ids, raw, true
		default:
			return nil, nil, false
		}
	}
}

// sameSpans reports whether raw (the decoder's item bytes) are exactly the
// spans of data that prescanItems found, for the same item IDs.
func sameSpans(data []byte, preIDs []string, pre, raw [][]byte, items []Item) bool {
	if len(pre) != len(raw) || len(preIDs) != len(items) || len(raw) != len(items) {
		return false
	}
	for i := range raw {
		if len(pre[i]) != len(raw[i]) || offsetIn(data, pre[i]) != offsetIn(data, raw[i]) || preIDs[i] != items[i].ID {
			return false
		}
	}
	return true
}

// outdented appends to dst raw with two spaces removed after every line
// break.
func outdented(dst, raw []byte) []byte {
	for {
		i := bytes.Index(raw, []byte("\n  "))
		if i < 0 {
			return append(dst, raw...)
		}
		dst = append(dst, raw[:i+1]...)
		raw = raw[i+3:]
	}
}

// plainItem is Item without decodeStrictBundle's unmarshaler (the same
// members and tags).
type plainItem Item

// decodeStrictBundle is DecodeStrict of a bundle file that also returns
// the file's bytes of each item (from its '{' to its '}'), in file order,
// taken as the decoder passes them: one pass gives the decoded bundle and
// the bytes its content digest is computed from. onItem, when not nil, is
// called with each item and its bytes as soon as the item is decoded.
func decodeStrictBundle(file string, data []byte, onItem func(it *Item, raw []byte)) (*Bundle, [][]byte, error) {
	var b Bundle
	var raw [][]byte
	take := jsonv2.UnmarshalFromFunc(func(dec *jsontext.Decoder, it *Item) error {
		start := dec.InputOffset()
		if err := jsonv2.UnmarshalDecode(dec, (*plainItem)(it)); err != nil {
			return err
		}
		r := bytes.TrimLeft(data[start:dec.InputOffset()], " \t\r\n,")
		raw = append(raw, r)
		if onItem != nil {
			onItem(it, r)
		}
		return nil
	})
	if err := jsonv2.Unmarshal(data, &b, jsonv2.RejectUnknownMembers(true), jsonv2.WithUnmarshalers(take)); err != nil {
		return nil, nil, &verr.Error{Reason: ReasonMalformedBundle, File: file, Rule: "strict JSON", Detail: err.Error(), Err: err}
	}
	if len(raw) != len(b.Items) {
		return nil, nil, verr.Newf(ReasonMalformedBundle, file, "/items", "strict JSON", "%d items decoded from %d item values", len(b.Items), len(raw))
	}
	return &b, raw, nil
}

// canonicalDigest is Digest(MarshalCanonical(v)) computed while encoding.
func canonicalDigest(v any) (string, error) {
	h := sha256.New()
	bw := bufio.NewWriterSize(h, 1<<16)
	if err := streamCanonical(bw, v); err != nil {
		return "", err
	}
	if err := bw.Flush(); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// Digest returns the lowercase hex SHA-256 of b.
func Digest(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// MarshalCanonical returns the canonical bytes of v: encoding/json with
// struct fields in declaration order, two-space indentation, no HTML
// escaping and one final newline. The same value always gives the same
// bytes; every digest of this package and of adjudication is over them.
func MarshalCanonical(v any) ([]byte, error) { return campaign.MarshalJSON(v) }

// streamCanonical writes the same bytes as encodeCanonical, streamed: the
// encoder flushes to w as it goes instead of building the whole text (and
// its indented copy) in memory. It is encoding/json's semantics as
// go-json-experiment states them (jsonv1.DefaultOptionsV1) with HTML
// escaping off and two-space indentation, and one final newline.
func streamCanonical(w io.Writer, v any) error { return campaign.EncodeJSON(w, v) }

// compareWriter consumes want as bytes are written and records whether
// the written bytes differ from its prefix; after the last write the two
// are equal when differ is false and want is empty.
type compareWriter struct {
	want   []byte
	differ bool
}

func (c *compareWriter) Write(p []byte) (int, error) {
	if !c.differ {
		if len(p) > len(c.want) || !bytes.Equal(p, c.want[:len(p)]) {
			c.differ = true
		} else {
			c.want = c.want[len(p):]
		}
	}
	return len(p), nil
}

// UnmarshalStrict decodes data into v refusing duplicate keys, unknown keys
// and invalid UTF-8, then checks that data is canonical (MarshalCanonical
// of the decoded value gives the same bytes). file names the input in
// errors (ReasonMalformedBundle, ReasonNonCanonical). opts add decoding
// options (such as a caller's reservation of a large slice); they cannot
// loosen the strict decoding.
func UnmarshalStrict(file string, data []byte, v any, opts ...jsonv2.Options) error {
	if err := DecodeStrict(file, data, v, opts...); err != nil {
		return err
	}
	return checkCanonical(file, data, v)
}

// checkCanonical refuses data unless it is the canonical encoding of v
// (ReasonNonCanonical).
func checkCanonical(file string, data []byte, v any) error {
	// Compare while encoding: the canonical bytes are never held whole
	// (a rating sheet of 10,000 sessions is tens of megabytes).
	cmp := &compareWriter{want: data}
	if err := streamCanonical(cmp, v); err != nil {
		return err
	}
	if cmp.differ || len(cmp.want) != 0 {
		return &verr.Error{Reason: ReasonNonCanonical, File: file, Rule: "canonical JSON",
			Detail: "file is not in canonical form (re-encoded bytes differ); it was edited or reformatted"}
	}
	return nil
}

// DecodeStrict decodes JSON data into v refusing duplicate keys, unknown
// keys and invalid UTF-8 (ReasonMalformedBundle naming file); unlike
// UnmarshalStrict it accepts any formatting. opts are as UnmarshalStrict's.
func DecodeStrict(file string, data []byte, v any, opts ...jsonv2.Options) error {
	if err := jsonv2.Unmarshal(data, v, append(opts, jsonv2.RejectUnknownMembers(true))...); err != nil {
		return &verr.Error{Reason: ReasonMalformedBundle, File: file, Rule: "strict JSON", Detail: err.Error(), Err: err}
	}
	return nil
}

// ParseBundle strictly decodes canonical bundle bytes and checks the
// recorded content and obligations digests against the items. Beside the
// decode run the file's digest, the content digest over the file's own
// bytes of each item (found by their canonical layout, prescanItems, and
// used only when the decoder passed the same items at the same bytes),
// and the canonical form of each item as soon as it is decoded
// (itemsCanonical); the bytes around the items are compared after
// (checkCanonicalBundle). Refusals, in this order: ReasonMalformedBundle
// (not strict JSON, or another format), ReasonNonCanonical,
// ReasonDigestMismatch.
func ParseBundle(file string, data []byte) (*Bundle, error) {
	var fileDigest string
	var wg sync.WaitGroup
	wg.Go(func() { fileDigest = Digest(data) })
	// Each item is checked against its canonical encoding on another
	// goroutine as soon as the decoder has passed it.
	// The content digest is hashed from the file's bytes of each item,
	// found by their canonical layout, beside the decode.
	var preIDs []string
	var preRaw [][]byte
	var preOK bool
	var preContent string
	wg.Go(func() {
		if preIDs, preRaw, preOK = prescanItems(data); preOK {
			preContent = rawContentDigest(preIDs, preRaw)
		}
	})
	items := make(chan checkedItem, 64)
	var canonItems bool
	wg.Go(func() { canonItems = itemsCanonical(items) })
	b, raw, err := decodeStrictBundle(file, data, func(it *Item, r []byte) { items <- checkedItem{*it, r} })
	close(items)
	if err == nil && b.Format != BundleFormat {
		err = verr.Newf(ReasonMalformedBundle, file, "/format", ruleBlinding, "format %q, want %q", b.Format, BundleFormat)
	}
	var c, o string
	var canonErr, digestErr error
	if err == nil {
		o, digestErr = obligationsDigest(b.Items)
	}
	wg.Wait()
	if err == nil {
		canonErr = checkCanonicalBundle(file, data, b, raw, canonItems)
	}
	if err == nil && canonErr == nil && digestErr == nil {
		// The content digest hashed beside the decode is the items' when
		// the decoder found the same items at the same bytes.
		c = preContent
		if !preOK || !sameSpans(data, preIDs, preRaw, raw, b.Items) {
			c = fileContentDigest(b.Items, raw)
		}
	}
	for _, e := range []error{err, canonErr, digestErr} {
		if e != nil {
			return nil, e
		}
	}
	if c != b.ContentDigest {
		return nil, &verr.Error{Reason: ReasonDigestMismatch, File: file, Pointer: "/content_digest", Rule: ruleBlinding, Detail: "content digest does not match the items"}
	}
	if o != b.ObligationsDigest {
		return nil, &verr.Error{Reason: ReasonDigestMismatch, File: file, Pointer: "/obligations_digest", Rule: ruleBlinding, Detail: "obligations digest does not match the items"}
	}
	b.parsedDigest = fileDigest
	return b, nil
}

// checkedItem is one decoded item of a bundle file with the file's bytes
// of it (from its '{' to its '}').
type checkedItem struct {
	item Item
	raw  []byte
}

// itemsCanonical reports whether every item received is, byte for byte,
// its canonical encoding as it stands in a bundle (bundleElement). It
// encodes until the first item that is not, then only drains items.
func itemsCanonical(items <-chan checkedItem) bool {
	ok := true
	var enc bytes.Buffer
	var elem []byte
	for ci := range items {
		if !ok {
			continue
		}
		enc.Reset()
		if err := campaign.EncodeJSON(&enc, &ci.item); err != nil {
			ok = false
			continue
		}
		elem = bundleElement(elem[:0], enc.Bytes())
		ok = bytes.Equal(elem, ci.raw)
	}
	return ok
}

// checkCanonicalBundle refuses data unless it is the canonical encoding of
// b (ReasonNonCanonical, as checkCanonical). raw are the file's bytes of
// b's items, each already compared with its canonical encoding
// (itemsOK): what is left to compare is the rest of the file, the bytes
// before, between and after the items. A bundle without items is compared
// whole.
func checkCanonicalBundle(file string, data []byte, b *Bundle, raw [][]byte, itemsOK bool) error {
	if len(b.Items) == 0 {
		return checkCanonical(file, data, b)
	}
	refuse := &verr.Error{Reason: ReasonNonCanonical, File: file, Rule: "canonical JSON",
		Detail: "file is not in canonical form (re-encoded bytes differ); it was edited or reformatted"}
	if !itemsOK {
		return refuse
	}
	hdr := *b
	hdr.Items = []Item{}
	head, err := MarshalCanonical(&hdr)
	if err != nil {
		return err
	}
	head, ok := bytes.CutSuffix(head, []byte(itemsEmpty))
	if !ok {
		return checkCanonical(file, data, b)
	}
	// at is the offset in data of the bytes compared next.
	at := 0
	expect := func(want []byte, end int) bool {
		ok := end-at == len(want) && bytes.Equal(data[at:end], want)
		at = end
		return ok
	}
	for i, r := range raw {
		start := offsetIn(data, r)
		sep := []byte(itemsSep)
		if i == 0 {
			sep = append(head, itemsOpen...)
		}
		if start < at || !expect(sep, start) {
			return refuse
		}
		at = start + len(r)
	}
	if !expect([]byte(itemsClose), len(data)) {
		return refuse
	}
	return nil
}

// offsetIn is the offset of sub, a subslice of data (data[a:b] with b >
// a), in data: a, as the capacities tell it.
func offsetIn(data, sub []byte) int {
	return cap(data) - cap(sub)
}

// LoadBundle reads and parses a bundle file; it returns the bundle and its
// digest (SHA-256 of the file bytes).
func LoadBundle(path string) (*Bundle, string, error) {
	data, err := campaign.ReadRegular(path, campaign.FileBundle)
	if err != nil {
		return nil, "", err
	}
	b, err := ParseBundle(path, data)
	if err != nil {
		return nil, "", err
	}
	return b, b.parsedDigest, nil
}

// ParseSealedMap strictly decodes canonical sealed-map bytes: unknown or
// duplicate members and non-canonical bytes are refused
// (ReasonMalformedBundle, ReasonNonCanonical), as are a format other than
// SealedMapFormat and a manifest_sha256 that is not 64 lowercase hex
// digits (campaign.ReasonDigestFormat; a map written before the member
// existed has none).
func ParseSealedMap(file string, data []byte) (*SealedMap, error) {
	var m SealedMap
	if err := DecodeStrict(file, data, &m); err != nil {
		return nil, err
	}
	if m.Format != SealedMapFormat {
		return nil, verr.Newf(ReasonMalformedBundle, file, "/format", ruleBlinding, "format %q, want %q", m.Format, SealedMapFormat)
	}
	if !isSHA256Hex(m.ManifestSHA256) {
		return nil, verr.Newf(campaign.ReasonDigestFormat, file, "/manifest_sha256", ruleBlinding, "manifest_sha256 %q is not 64 lowercase hex digits (a sealed map binds the campaign's manifest.json at blinding; blind the campaign again)", m.ManifestSHA256)
	}
	if err := checkCanonical(file, data, &m); err != nil {
		return nil, err
	}
	return &m, nil
}

// isSHA256Hex reports whether s is 64 lowercase hex digits.
func isSHA256Hex(s string) bool {
	if len(s) != 64 {
		return false
	}
	for _, r := range s {
		if !('0' <= r && r <= '9' || 'a' <= r && r <= 'f') {
			return false
		}
	}
	return true
}
