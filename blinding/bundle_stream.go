package blinding

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"

	"github.com/go-json-experiment/json/jsontext"

	"verdict/verr"
)

// ReadBundleItems reads a bundle from r (the file named file) as a stream,
// one top-level member at a time, and hands each element of its "items"
// array to item as raw JSON (valid only during the call) with its index,
// so that a bundle is never held whole. It returns the bundle's other
// members strictly decoded (Items nil). A document that is not one JSON
// object (or has duplicate member names, invalid UTF-8 or trailing data)
// and a member that does not decode strictly are ReasonMalformedBundle; a
// format other than BundleFormat is too. Another top-level array member
// is read and left out of the header, so it is not refused here: the
// caller compares the bundle with the one it expects. The items are not
// decoded here.
func ReadBundleItems(file string, r io.Reader, item func(i int, raw []byte)) (*Bundle, error) {
	malformed := func(err error) error {
		return &verr.Error{Reason: ReasonMalformedBundle, File: file, Rule: "strict JSON", Detail: err.Error(), Err: err}
	}
	dec := jsontext.NewDecoder(r)
	if tok, err := dec.ReadToken(); err != nil || tok.Kind() != '{' {
		return nil, malformed(fmt.Errorf("bundle is not a JSON object: %v", err))
	}
	header := map[string][]byte{}
	for dec.PeekKind() != '}' {
		tok, err := dec.ReadToken()
		if err != nil {
			return nil, malformed(err)
		}
		k := tok.String()
		if dec.PeekKind() != '[' {
			raw, err := dec.ReadValue()
			if err != nil {
				return nil, malformed(err)
			}
			header[k] = bytes.Clone(raw)
			continue
		}
		if _, err := dec.ReadToken(); err != nil {
			return nil, malformed(err)
		}
		for i := 0; dec.PeekKind() != ']'; i++ {
			raw, err := dec.ReadValue()
			if err != nil {
				return nil, malformed(err)
			}
			if k == "items" {
				item(i, raw)
			}
		}
		if _, err := dec.ReadToken(); err != nil {
			return nil, malformed(err)
		}
	}
	if _, err := dec.ReadToken(); err != nil {
		return nil, malformed(err)
	}
	if _, err := dec.ReadToken(); err != io.EOF {
		return nil, malformed(fmt.Errorf("trailing data after the bundle object"))
	}
	var obj bytes.Buffer
	obj.WriteByte('{')
	for _, k := range slices.Sorted(maps.Keys(header)) {
		if obj.Len() > 1 {
			obj.WriteByte(',')
		}
		kb, _ := json.Marshal(k)
		obj.Write(kb)
		obj.WriteByte(':')
		obj.Write(header[k])
	}
	obj.WriteByte('}')
	var hdr Bundle
	if err := DecodeStrict(file, obj.Bytes(), &hdr); err != nil {
		return nil, err
	}
	if hdr.Format != BundleFormat {
		return nil, verr.Newf(ReasonMalformedBundle, file, "/format", "blinding bundle", "format %q, want %q", hdr.Format, BundleFormat)
	}
	return &hdr, nil
}
