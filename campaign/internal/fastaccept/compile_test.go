package fastaccept_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"verdict/campaign"
	"verdict/campaign/internal/fastaccept"
)

// TestCompileEmbeddedSchemas: every embedded schema of package campaign
// compiles, so no file kind is left to the slower reference path alone.
func TestCompileEmbeddedSchemas(t *testing.T) {
	for _, d := range campaign.SchemaDigests() {
		b, err := campaign.SchemaBytes(d.Name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := fastaccept.Compile(b, campaign.MaxDepth); err != nil {
			t.Errorf("embedded schema %s has no fast program: %v", d.Name, err)
		}
	}
}

// TestCompileRefusesUnknownKeywords: a schema using a keyword (or a
// keyword form) the pass does not implement is refused by Compile, so
// that schema is only ever checked by the reference path.
func TestCompileRefusesUnknownKeywords(t *testing.T) {
	ok := `{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object", "required": ["a"], "additionalProperties": false,
		"properties": {"a": {"$ref": "#/$defs/a"}}, "$defs": {"a": {"type": ["string", "null"], "minLength": 1, "pattern": "^x$"}}}`
	if _, err := fastaccept.Compile([]byte(ok), 32); err != nil {
		t.Fatalf("a schema of implemented keywords is refused: %v", err)
	}
	for _, s := range []string{
		`{"type": "object", "format": "email"}`,
		`{"oneOf": [{"type": "string"}]}`,
		`{"allOf": [{"type": "string"}]}`,
		`{"const": "x"}`,
		`{"type": "object", "additionalProperties": true}`,
		`{"type": "object", "additionalProperties": {"type": "string"}}`,
		`{"type": "object", "patternProperties": {"^a": {}}}`,
		`{"type": "object", "properties": {"a": {"$ref": "#/$defs/a", "minLength": 1}}, "$defs": {"a": {}}}`,
		`{"type": "object", "properties": {"a": {"$ref": "other.json"}}}`,
		`{"type": "object", "properties": {"a": {"$ref": "#/$defs/missing"}}}`,
		`{"type": "object", "required": ["b"], "properties": {"a": {}}}`,
		`{"type": "integer", "minimum": 1.5}`,
		`{"type": "integer", "exclusiveMinimum": 1}`,
		`{"type": "integer", "maximum": 1}`,
		`{"enum": [1, 2]}`,
		`{"type": "array", "prefixItems": [{}]}`,
		`{"type": "array", "contains": {}}`,
		`{"type": "array", "uniqueItems": "yes"}`,
		`{"type": "string", "pattern": "("}`,
		`{"type": "number", "multipleOf": 2}`,
		`{"type": "thing"}`,
		`{"$schema": "http://json-schema.org/draft-07/schema#", "type": "string"}`,
		`{"type": "object", "properties": {"a": {"$defs": {}}}}`,
		`{"if": {}, "then": {}}`,
		`{"not": {}}`,
		`{"type": "object", "dependentRequired": {}}`,
		`{"type": "string", "contentEncoding": "base64"}`,
	} {
		if _, err := fastaccept.Compile([]byte(s), 32); err == nil {
			t.Errorf("Compile accepts %s", s)
		}
	}
}

// TestDecodedSlicesHoldNoSpareCapacity: a value the pass fills keeps every
// slice at its length (a loaded campaign holds every response; spare
// capacity was a sixth of its memory), for arrays of 0 to 40 items, within
// items and around them.
func TestDecodedSlicesHoldNoSpareCapacity(t *testing.T) {
	schema := `{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object", "additionalProperties": false,
		"required": ["rows"], "properties": {"rows": {"type": "array", "items": {"type": "object", "additionalProperties": false,
		"required": ["ids"], "properties": {"ids": {"type": "array", "items": {"type": "string"}}}}}}}`
	s, err := fastaccept.Compile([]byte(schema), 32)
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		IDs []string `json:"ids"`
	}
	type doc struct {
		Rows []row `json:"rows"`
	}
	for n := range 41 {
		var b strings.Builder
		b.WriteString(`{"rows": [`)
		for i := range n {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(`{"ids": [`)
			for j := range i % 7 {
				if j > 0 {
					b.WriteString(", ")
				}
				fmt.Fprintf(&b, `"E%d"`, j)
			}
			b.WriteString(`]}`)
		}
		b.WriteString(`]}`)
		var d doc
		accepted, filled := s.Decode([]byte(b.String()), reflect.ValueOf(&d).Elem())
		if !accepted || !filled {
			t.Fatalf("%d rows: accepted %v, filled %v", n, accepted, filled)
		}
		if len(d.Rows) != n || cap(d.Rows) != n || d.Rows == nil {
			t.Fatalf("%d rows: len %d cap %d nil %v", n, len(d.Rows), cap(d.Rows), d.Rows == nil)
		}
		for i, r := range d.Rows {
			if len(r.IDs) != i%7 || cap(r.IDs) != i%7 || r.IDs == nil {
				t.Fatalf("%d rows: row %d has len %d cap %d", n, i, len(r.IDs), cap(r.IDs))
			}
			for j, id := range r.IDs {
				if id != fmt.Sprintf("E%d", j) {
					t.Fatalf("%d rows: row %d id %d is %q", n, i, j, id)
				}
			}
		}
	}
}
