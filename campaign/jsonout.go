package campaign

import (
	"bytes"
	"io"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	jsonv1 "github.com/go-json-experiment/json/v1"
)

// jsonOutOptions are the options of verdict's one JSON output form:
// encoding/json's semantics (struct fields in declaration order, map keys
// sorted, Marshaler methods honoured), two-space indentation and no HTML
// escaping.
var jsonOutOptions = []jsonv2.Options{jsonv1.DefaultOptionsV1(), jsontext.EscapeForHTML(false), jsontext.WithIndent("  ")}

// EncodeJSON writes v to w in verdict's one JSON output form (every
// report, record, bundle and file verdict writes): the bytes of
// encoding/json's Encoder with SetIndent("", "  ") and SetEscapeHTML(false),
// one final newline, streamed as the value is walked so a large value is
// never held whole. The same value always gives the same bytes. Errors are
// w's write errors or an unencodable value.
func EncodeJSON(w io.Writer, v any) error {
	return jsonv2.MarshalEncode(jsontext.NewEncoder(w, jsonOutOptions...), v, jsonOutOptions...)
}

// MarshalJSON returns the bytes EncodeJSON writes for v.
func MarshalJSON(v any) ([]byte, error) {
	var b bytes.Buffer
	if err := EncodeJSON(&b, v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
