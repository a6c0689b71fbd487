package adjudication

import (
	"bytes"
	"encoding/json"
	"io"

	"github.com/go-json-experiment/json/jsontext"
)

// recordHead gives encoding/json.Unmarshal's result of data into v
// without decoding the large arrays: the top-level members are read one
// at a time, every array member (the grades or resolutions) is skipped and
// stands as null, and the small object left is decoded with encoding/json.
// An array can only leave a head member as it was (null does the same),
// and bytes that are not one valid JSON value leave v zero, as
// Unmarshal's validity scan does.
func recordHead(data []byte, v any) {
	dec := jsontext.NewDecoder(bytes.NewReader(data), jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
	if tok, err := dec.ReadToken(); err != nil || tok.Kind() != '{' {
		return
	}
	var obj bytes.Buffer
	obj.WriteByte('{')
	for dec.PeekKind() != '}' {
		name, err := dec.ReadValue()
		if err != nil {
			return
		}
		if obj.Len() > 1 {
			obj.WriteByte(',')
		}
		obj.Write(name)
		obj.WriteByte(':')
		if dec.PeekKind() == '[' {
			if err := dec.SkipValue(); err != nil {
				return
			}
			obj.WriteString("null")
			continue
		}
		val, err := dec.ReadValue()
		if err != nil {
			return
		}
		obj.Write(val)
	}
	if _, err := dec.ReadToken(); err != nil {
		return
	}
	if _, err := dec.ReadToken(); err != io.EOF {
		return
	}
	obj.WriteByte('}')
	_ = json.Unmarshal(obj.Bytes(), v)
}
