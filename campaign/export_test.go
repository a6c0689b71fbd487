package campaign

import "reflect"

// Test hooks of the two decoding paths (decoder.strict).

// FastValid reports whether the fast accept pass accepts data for schema.
func FastValid(data []byte, schema string) bool {
	loadFastSchemas()
	s := fastSchemas[schema]
	if s == nil {
		return false
	}
	ok, _ := s.Decode(data, reflect.Value{})
	return ok
}

// DecodeReference runs only the reference path.
func DecodeReference(data []byte, file, schema string, v any) error {
	if e := decodeReference(data, file, schema, v); e != nil {
		return e
	}
	return nil
}

// DecodeStrict runs the default decoder (fast pass first).
func DecodeStrict(data []byte, file, schema string, v any) error {
	if e := (decoder{}).strict(data, file, schema, v); e != nil {
		return e
	}
	return nil
}

// FastSchemaErrors returns why each embedded schema has no fast program.
func FastSchemaErrors() map[string]error {
	loadFastSchemas()
	return fastErrs
}

// SchemaNames lists the embedded schemas.
var SchemaNames = schemaNames

// FastDecode runs the fast path's decoding into v (a pointer).
func FastDecode(data []byte, schema string, v any) bool {
	return fastDecode(data, schema, reflect.ValueOf(v).Elem())
}

// FastBindable reports whether the fast pass fills records of v's type
// for schema in the same pass.
func FastBindable(schema string, v any) bool {
	loadFastSchemas()
	s := fastSchemas[schema]
	return s != nil && s.Bindable(reflect.TypeOf(v).Elem())
}

// ResponseRulesErr returns the first refusal of the response rules for a
// decoded response, or nil.
func ResponseRulesErr(v *Response, role Role) error {
	r := rules{file: "f.json", rule: RuleResponseContract}
	r.response(v, role)
	if r.err != nil {
		return r.err
	}
	return nil
}
