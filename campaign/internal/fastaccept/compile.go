package fastaccept

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"sync"
)

// keywords lists the schema keywords the fast compiler implements;
// Compile refuses a schema using any other keyword, and that schema
// then always takes the reference path.
var keywords = map[string]bool{
	"$schema": true, "$id": true, "$defs": true, "title": true, "description": true, "$comment": true,
	"type": true, "required": true, "additionalProperties": true, "properties": true, "$ref": true,
	"enum": true, "pattern": true, "minLength": true, "maxLength": true, "minItems": true,
	"maxItems": true, "uniqueItems": true, "minimum": true, "items": true,
}

// Instance type bits of a node's type keyword.
const (
	fObject uint8 = 1 << iota
	fArray
	fString
	fInteger // any JSON number: the strict layer admits integers only
	fBool
	fNull
)

// node is one compiled (sub)schema. Keywords absent from the schema
// keep their zero (no constraint) values; -1 marks an absent bound.
type node struct {
	types uint8 // 0: the schema has no type keyword (every type)

	ref    string // $ref target name in $defs, resolved into target
	target *node

	props     map[string]int // member name → index into propNodes
	propNodes []*node
	required  uint64 // bit i: propNodes[i] is required
	closed    bool   // additionalProperties: false

	items              *node
	minItems, maxItems int
	unique             bool

	minLen, maxLen int
	pattern        string            // the pattern keyword ("" when absent)
	match          func([]byte) bool // matches pattern (patternMatcher)

	hasMinimum bool
	minimum    int64

	hasEnum  bool
	enumStr  []string
	enumNull bool
}

// anyNode accepts every value the strict layer accepts (a schema `{}`).
var anyNode = &node{minItems: -1, maxItems: -1, minLen: -1, maxLen: -1}

// Schema is a compiled schema document: the program one pass runs.
// It is safe for concurrent use.
type Schema struct {
	root     *node
	maxDepth int      // deepest nesting of objects and arrays accepted
	bound    sync.Map // reflect.Type → bool (Bindable)
}

// Compile compiles a draft 2020-12 schema document for the fast pass;
// maxDepth is the deepest nesting of objects and arrays a document may
// have (the strict layer's limit: deeper documents are never accepted).
// It returns an error for any keyword or keyword form it does not
// implement exactly, so that such a schema is only ever checked by the
// reference validator.
func Compile(raw []byte, maxDepth int) (*Schema, error) {
	var doc map[string]any
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	if err := d.Decode(&doc); err != nil {
		return nil, err
	}
	if s, ok := doc["$schema"]; ok && s != "https://json-schema.org/draft/2020-12/schema" {
		return nil, fmt.Errorf("$schema %v is not draft 2020-12", s)
	}
	defs := map[string]*node{}
	var compile func(v any, root bool) (*node, error)
	compile = func(v any, root bool) (*node, error) {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("schema %v is not an object", v)
		}
		n := &node{minItems: -1, maxItems: -1, minLen: -1, maxLen: -1}
		for k := range m {
			if !keywords[k] {
				return nil, fmt.Errorf("keyword %q is not implemented by the fast pass", k)
			}
			if !root && (k == "$id" || k == "$defs" || k == "$schema") {
				return nil, fmt.Errorf("keyword %q below the root", k)
			}
		}
		if r, ok := m["$ref"]; ok {
			s, _ := r.(string)
			const prefix = "#/$defs/"
			if len(s) <= len(prefix) || s[:len(prefix)] != prefix {
				return nil, fmt.Errorf("$ref %v is not #/$defs/<name>", r)
			}
			for k := range m {
				if k != "$ref" && k != "title" && k != "description" && k != "$comment" {
					return nil, fmt.Errorf("$ref beside keyword %q", k)
				}
			}
			n.ref = s[len(prefix):]
			return n, nil
		}
		if t, ok := m["type"]; ok {
			names := []any{t}
			if l, ok := t.([]any); ok {
				names = l
			}
			for _, x := range names {
				switch x {
				case "object":
					n.types |= fObject
				case "array":
					n.types |= fArray
				case "string":
					n.types |= fString
				case "integer", "number":
					n.types |= fInteger
				case "boolean":
					n.types |= fBool
				case "null":
					n.types |= fNull
				default:
					return nil, fmt.Errorf("type %v", x)
				}
			}
			if n.types == 0 {
				return nil, fmt.Errorf("empty type list")
			}
		}
		if p, ok := m["properties"]; ok {
			pm, ok := p.(map[string]any)
			if !ok || len(pm) > 64 {
				return nil, fmt.Errorf("properties %v", p)
			}
			n.props = map[string]int{}
			names := make([]string, 0, len(pm))
			for k := range pm {
				names = append(names, k)
			}
			sort.Strings(names)
			for _, k := range names {
				c, err := compile(pm[k], false)
				if err != nil {
					return nil, fmt.Errorf("properties/%s: %w", k, err)
				}
				n.props[k] = len(n.propNodes)
				n.propNodes = append(n.propNodes, c)
			}
		}
		if r, ok := m["required"]; ok {
			l, ok := r.([]any)
			if !ok {
				return nil, fmt.Errorf("required %v", r)
			}
			for _, x := range l {
				s, _ := x.(string)
				i, ok := n.props[s]
				if !ok {
					return nil, fmt.Errorf("required member %v has no properties entry", x)
				}
				n.required |= 1 << i
			}
		}
		if a, ok := m["additionalProperties"]; ok {
			if a != false {
				return nil, fmt.Errorf("additionalProperties %v is not false", a)
			}
			n.closed = true
		}
		if it, ok := m["items"]; ok {
			c, err := compile(it, false)
			if err != nil {
				return nil, fmt.Errorf("items: %w", err)
			}
			n.items = c
		}
		ints := []struct {
			key string
			dst *int
		}{{"minItems", &n.minItems}, {"maxItems", &n.maxItems}, {"minLength", &n.minLen}, {"maxLength", &n.maxLen}}
		for _, f := range ints {
			if x, ok := m[f.key]; ok {
				num, _ := x.(json.Number)
				i, err := num.Int64()
				if err != nil || i < 0 || i > 1<<31 {
					return nil, fmt.Errorf("%s %v", f.key, x)
				}
				*f.dst = int(i)
			}
		}
		if u, ok := m["uniqueItems"]; ok {
			b, ok := u.(bool)
			if !ok {
				return nil, fmt.Errorf("uniqueItems %v", u)
			}
			n.unique = b
		}
		if x, ok := m["minimum"]; ok {
			num, _ := x.(json.Number)
			i, err := num.Int64()
			if err != nil {
				return nil, fmt.Errorf("minimum %v is not an integer", x)
			}
			n.hasMinimum, n.minimum = true, i
		}
		if x, ok := m["pattern"]; ok {
			s, ok := x.(string)
			if !ok {
				return nil, fmt.Errorf("pattern %v", x)
			}
			re, err := regexp.Compile(s) // the reference validator's engine
			if err != nil {
				return nil, err
			}
			n.pattern, n.match = s, patternMatcher(s, re)
		}
		if e, ok := m["enum"]; ok {
			l, ok := e.([]any)
			if !ok {
				return nil, fmt.Errorf("enum %v", e)
			}
			n.hasEnum = true
			for _, x := range l {
				switch x := x.(type) {
				case string:
					n.enumStr = append(n.enumStr, x)
				case nil:
					n.enumNull = true
				default:
					return nil, fmt.Errorf("enum value %v is not a string or null", x)
				}
			}
		}
		return n, nil
	}
	if d, ok := doc["$defs"]; ok {
		dm, ok := d.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("$defs %v", d)
		}
		for k, v := range dm {
			c, err := compile(v, false)
			if err != nil {
				return nil, fmt.Errorf("$defs/%s: %w", k, err)
			}
			defs[k] = c
		}
	}
	root, err := compile(doc, true)
	if err != nil {
		return nil, err
	}
	// Resolve every $ref; a chain of refs must end in a schema.
	seen := map[*node]bool{}
	var resolve func(n *node) error
	resolve = func(n *node) error {
		if seen[n] {
			return nil
		}
		seen[n] = true
		if n.ref != "" {
			t := n
			for hops := 0; t.ref != ""; hops++ {
				nt, ok := defs[t.ref]
				if !ok || hops > len(defs) {
					return fmt.Errorf("$ref #/$defs/%s does not resolve", n.ref)
				}
				t = nt
			}
			n.target = t
			return resolve(t)
		}
		for _, c := range n.propNodes {
			if err := resolve(c); err != nil {
				return err
			}
		}
		if n.items != nil {
			return resolve(n.items)
		}
		return nil
	}
	if err := resolve(root); err != nil {
		return nil, err
	}
	for _, n := range defs {
		if err := resolve(n); err != nil {
			return nil, err
		}
	}
	return &Schema{root: root, maxDepth: maxDepth}, nil
}
