package blinding

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
)

// itemForm is one item as it stands in a bundle file's "items" array,
// from its '{' to its '}' (its canonical bytes without the final line
// break, every line after the first indented four spaces deeper): the
// length and SHA-256 of those bytes.
type itemForm struct {
	n   int
	sum [sha256.Size]byte
}

// bundleElement appends to dst the canonical item encoding enc (as
// campaign.EncodeJSON writes it, ending in a line break) as it stands in a
// bundle's "items" array (itemForm).
func bundleElement(dst, enc []byte) []byte { return indentLines(dst, enc, "    ") }

// indentLines appends to dst the canonical encoding enc without its final
// line break and with pad after every other line break: enc as it stands
// one level (pad "  ") or two ("    ") deeper in a canonical array (a JSON
// string holds no raw line break, so every line break is the layout's).
func indentLines(dst, enc []byte, pad string) []byte {
	b := bytes.TrimSuffix(enc, []byte("\n"))
	for {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			return append(dst, b...)
		}
		dst = append(dst, b[:i+1]...)
		dst = append(dst, pad...)
		b = b[i+1:]
	}
}

// ItemDigest is the SHA-256 (lowercase hex) of the canonical encoding of
// it (MarshalCanonical, final line break included).
func ItemDigest(it *Item) (string, error) { return canonicalDigest(it) }

// ItemInBundle encodes it and reports the SHA-256 of its canonical
// encoding (ItemDigest) and whether raw, the bytes of an item as read from
// a bundle file (from its '{' to its '}'), are exactly that encoding as it
// stands in a bundle. Errors are the encoder's.
func ItemInBundle(it *Item, raw []byte) (digest string, canonical bool, err error) {
	enc, err := MarshalCanonical(it)
	if err != nil {
		return "", false, err
	}
	return Digest(enc), bytes.Equal(bundleElement(nil, enc), raw), nil
}

// Separators of the canonical bundle encoding around and between its
// items: the "items" member is the bundle's last, each item is indented
// four spaces, and the file ends in a line break.
const (
	itemsOpen  = "[\n    "
	itemsSep   = ",\n    "
	itemsClose = "\n  ]\n}\n"
	itemsEmpty = "[]\n}\n"
)

// BundleForm describes a bundle's canonical bytes (MarshalCanonical)
// without holding them: the bytes before its first item and after its
// last, and the length and SHA-256 of each item's bytes in the rater's
// order. Derive makes one per rater, so that a bundle file of any size is
// compared with the derived bundle in one streamed pass (Match).
type BundleForm struct {
	// Rater is the bundle's rater.
	Rater  string
	prefix []byte
	items  []itemForm
	// longest is the length of the longest item's bytes.
	longest int
}

// newBundleForm is the form of bundle b whose items are forms[perm[k]]
// for k in b's order.
func newBundleForm(b *Bundle, forms []itemForm, perm []int) (*BundleForm, error) {
	hdr := *b
	hdr.Items = []Item{}
	data, err := MarshalCanonical(&hdr)
	if err != nil {
		return nil, err
	}
	head, ok := bytes.CutSuffix(data, []byte(itemsEmpty))
	if !ok || len(b.Items) == 0 {
		return nil, fmt.Errorf("blinding: a bundle without items does not end in %q", itemsEmpty)
	}
	f := &BundleForm{Rater: b.Rater, prefix: append(head, itemsOpen...), items: make([]itemForm, len(perm))}
	for k, i := range perm {
		f.items[k] = forms[i]
		f.longest = max(f.longest, forms[i].n)
	}
	return f, nil
}

// errNotForm ends Match at the first byte that differs from the form.
var errNotForm = errors.New("not the derived bundle")

// Match reads r to its end and reports whether its bytes are exactly the
// bundle f describes, with the SHA-256 (lowercase hex) of every byte read.
// It stops at the first difference (same false, digest ""); err is a read
// error of r.
func (f *BundleForm) Match(r io.Reader) (digest string, same bool, err error) {
	h := sha256.New()
	br := bufio.NewReaderSize(io.TeeReader(r, h), 1<<16)
	buf := make([]byte, max(f.longest, len(f.prefix), len(itemsClose)+1))
	expect := func(want []byte) error {
		got := buf[:len(want)]
		if _, err := io.ReadFull(br, got); err != nil {
			return err
		}
		if !bytes.Equal(got, want) {
			return errNotForm
		}
		return nil
	}
	err = expect(f.prefix)
	for k := 0; err == nil && k < len(f.items); k++ {
		if k > 0 {
			if err = expect([]byte(itemsSep)); err != nil {
				break
			}
		}
		it := &f.items[k]
		got := buf[:it.n]
		if _, err = io.ReadFull(br, got); err == nil && sha256.Sum256(got) != it.sum {
			err = errNotForm
		}
	}
	if err == nil {
		err = expect([]byte(itemsClose))
	}
	if err == nil {
		// Nothing may follow the bundle's last byte.
		if _, e := br.ReadByte(); e != io.EOF {
			err = errNotForm
			if e != nil {
				err = e
			}
		}
	}
	switch {
	case err == nil:
		return hex.EncodeToString(h.Sum(nil)), true, nil
	case errors.Is(err, errNotForm), errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return "", false, nil
	}
	return "", false, err
}
