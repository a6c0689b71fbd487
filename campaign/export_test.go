package campaign

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
