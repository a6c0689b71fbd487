package campaign

import (
	"reflect"
	"regexp"
)

// Test hooks of the fast accept path (fastvalidate.go).

// FastValid is fastValid: true when the fast pass accepts data for schema.
var FastValid = fastValid

// DecodeReference runs only the reference path of decodeStrict.
func DecodeReference(data []byte, file, schema string, v any) error {
	if e := decodeReference(data, file, schema, v); e != nil {
		return e
	}
	return nil
}

// DecodeStrict runs decodeStrict (fast path first).
func DecodeStrict(data []byte, file, schema string, v any) error {
	if e := decodeStrict(data, file, schema, v); e != nil {
		return e
	}
	return nil
}

// CompileFast reports whether the fast compiler accepts a schema document.
func CompileFast(raw []byte) error {
	_, err := compileFast(raw)
	return err
}

// FastSchemaErrors returns why each embedded schema has no fast program.
func FastSchemaErrors() map[string]error {
	loadFastSchemas()
	return fastErrs
}

// SchemaNames lists the embedded schemas.
var SchemaNames = schemaNames

// PatternMatcher returns the fast pass's matcher of a pattern keyword.
func PatternMatcher(pattern string) func([]byte) bool {
	return patternMatcher(pattern, regexp.MustCompile(pattern))
}

// FastDecode runs the fast path's decoding into v (a pointer).
func FastDecode(data []byte, schema string, v any) bool {
	return fastDecode(data, schema, reflect.ValueOf(v).Elem())
}

// FastBindable reports whether the fast pass fills records of v's type
// for schema in the same pass.
func FastBindable(schema string, v any) bool {
	loadFastSchemas()
	s := fastSchemas[schema]
	return s != nil && s.bindable(reflect.TypeOf(v).Elem())
}
