package campaign

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// The fast accept path.
//
// decodeStrict first runs fastDecode: one streaming pass over the bytes, on
// the same strict jsontext decoder options as parseStrict, that checks the
// strict JSON layer's rules and the rules of the embedded schema compiled
// into a small program (fastSchema) without building a tree, and fills the
// typed record in the same pass. It only ever answers "accepted" or "not
// sure": every refusal, and every input or schema it does not handle,
// sends the file down the reference path (parseStrict,
// santhosh-tekuri/jsonschema, typed decoding), whose result and error are
// returned unchanged. So the fast pass needs only one property, checked by
// FuzzFastPathSound: when it accepts, the reference path accepts too and
// decodes a deep-equal record.

// fastKeywords lists the schema keywords the fast compiler implements;
// compileFast refuses a schema using any other keyword, and that schema
// then always takes the reference path.
var fastKeywords = map[string]bool{
	"$schema": true, "$id": true, "$defs": true, "title": true, "description": true, "$comment": true,
	"type": true, "required": true, "additionalProperties": true, "properties": true, "$ref": true,
	"enum": true, "pattern": true, "minLength": true, "maxLength": true, "minItems": true,
	"maxItems": true, "uniqueItems": true, "minimum": true, "items": true,
}

// Instance type bits of a fastNode's type keyword.
const (
	fObject uint8 = 1 << iota
	fArray
	fString
	fInteger // any JSON number: the strict layer admits integers only
	fBool
	fNull
)

// fastNode is one compiled (sub)schema. Keywords absent from the schema
// keep their zero (no constraint) values; -1 marks an absent bound.
type fastNode struct {
	types uint8 // 0: the schema has no type keyword (every type)

	ref    string // $ref target name in $defs, resolved into target
	target *fastNode

	props     map[string]int // member name → index into propNodes
	propNodes []*fastNode
	required  uint64 // bit i: propNodes[i] is required
	closed    bool   // additionalProperties: false

	items              *fastNode
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
var anyNode = &fastNode{minItems: -1, maxItems: -1, minLen: -1, maxLen: -1}

// fastSchema is the compiled form of one embedded schema.
type fastSchema struct {
	root  *fastNode
	bound sync.Map // reflect.Type → bool (bindable)
}

var (
	fastOnce    sync.Once
	fastSchemas map[string]*fastSchema // schema name → program; absent when compileFast refused it
	fastErrs    map[string]error       // schema name → why compileFast refused it
)

// loadFastSchemas compiles every embedded schema for the fast pass once.
func loadFastSchemas() {
	fastOnce.Do(func() {
		fastSchemas, fastErrs = map[string]*fastSchema{}, map[string]error{}
		for _, name := range schemaNames {
			raw, err := schemaFS.ReadFile("schemas/" + name)
			if err == nil {
				var s *fastSchema
				if s, err = compileFast(raw); err == nil {
					fastSchemas[name] = s
					continue
				}
			}
			fastErrs[name] = err
		}
	})
}

// compileFast compiles a draft 2020-12 schema document for the fast pass.
// It returns an error for any keyword or keyword form it does not
// implement exactly, so that such a schema is only ever checked by the
// reference validator.
func compileFast(raw []byte) (*fastSchema, error) {
	var doc map[string]any
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	if err := d.Decode(&doc); err != nil {
		return nil, err
	}
	if s, ok := doc["$schema"]; ok && s != "https://json-schema.org/draft/2020-12/schema" {
		return nil, fmt.Errorf("$schema %v is not draft 2020-12", s)
	}
	defs := map[string]*fastNode{}
	var compile func(v any, root bool) (*fastNode, error)
	compile = func(v any, root bool) (*fastNode, error) {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("schema %v is not an object", v)
		}
		n := &fastNode{minItems: -1, maxItems: -1, minLen: -1, maxLen: -1}
		for k := range m {
			if !fastKeywords[k] {
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
	seen := map[*fastNode]bool{}
	var resolve func(n *fastNode) error
	resolve = func(n *fastNode) error {
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
	return &fastSchema{root: root}, nil
}

// fastState is the reusable state of one fast pass.
type fastState struct {
	dec   *jsontext.Decoder
	buf   []byte // unquoted string of the current value
	arena []byte // unquoted strings of uniqueItems arrays
	offs  []int  // string boundaries in arena
	set   map[string]struct{}
}

var fastPool = sync.Pool{New: func() any {
	return &fastState{dec: jsontext.NewDecoder(bytes.NewBuffer(nil))}
}}

// fastValid reports whether data is certainly accepted by parseStrict and
// by the named embedded schema. false means "not sure": the caller runs the
// reference path.
func fastValid(data []byte, schema string) bool {
	return fastPass(data, schema, reflect.Value{})
}

// fastDecode runs the fast pass and fills dst (a settable zero value of the
// record type) in the same pass when the schema and the type bind
// (bindable), else it decodes with the typed decoding of the reference
// path after the pass. It reports whether the fast path accepted; when
// false, dst may be partly filled and the caller zeroes it.
func fastDecode(data []byte, schema string, dst reflect.Value) bool {
	loadFastSchemas()
	s := fastSchemas[schema]
	if s == nil {
		return false
	}
	if s.bindable(dst.Type()) {
		return fastPass(data, schema, dst)
	}
	return fastPass(data, schema, reflect.Value{}) &&
		jsonv2.Unmarshal(data, dst.Addr().Interface(), jsonv2.RejectUnknownMembers(true)) == nil
}

// fastPass is the one streaming pass; dst, when valid, is filled.
func fastPass(data []byte, schema string, dst reflect.Value) bool {
	loadFastSchemas()
	s := fastSchemas[schema]
	if s == nil {
		return false
	}
	if bytes.HasPrefix(data, []byte{0xEF, 0xBB, 0xBF}) || len(bytes.TrimSpace(data)) == 0 {
		return false
	}
	st := fastPool.Get().(*fastState)
	st.dec.Reset(bytes.NewBuffer(data), strictOptions)
	ok := st.value(s.root, 0, dst)
	if ok {
		_, err := st.dec.ReadToken()
		ok = err == io.EOF
	}
	st.dec.Reset(bytes.NewBuffer(nil), strictOptions) // drop the reference to data
	if cap(st.arena) > 1<<20 {
		st.arena = nil
	}
	if len(st.set) > 1024 {
		st.set = nil
	}
	fastPool.Put(st)
	return ok
}

// bindable reports whether the pass can fill a value of type t for this
// schema exactly as the typed decoding of the reference path
// (go-json-experiment's Unmarshal) does: every value the schema admits
// has a Go destination of a kind the pass fills (struct with one plain
// json-tagged field per property, optionally omitempty, slice, pointer for
// null, string, signed integer, bool). The answer is cached per type.
func (s *fastSchema) bindable(t reflect.Type) bool {
	if b, ok := s.bound.Load(t); ok {
		return b.(bool)
	}
	memo := map[bindKey]bool{}
	b := bindNode(s.root, t, memo)
	s.bound.Store(t, b)
	return b
}

type bindKey struct {
	n *fastNode
	t reflect.Type
}

// fieldKey finds the field of a struct type for one property.
type fieldKey struct {
	n *fastNode
	t reflect.Type
}

// fieldIndex caches, per object node and struct type, the struct field
// index of each property (propNodes order).
var fieldIndex sync.Map // fieldKey → []int

// structFields returns the field index of each property of n in struct
// type t, or nil when a property has no plain json-tagged field.
func structFields(n *fastNode, t reflect.Type) []int {
	k := fieldKey{n, t}
	if v, ok := fieldIndex.Load(k); ok {
		return v.([]int)
	}
	byName := map[string]int{}
	for i := range t.NumField() {
		f := t.Field(i)
		tag, hasTag := f.Tag.Lookup("json")
		// omitempty changes only encoding: an absent member leaves the
		// field zero on both paths. Any other option is not handled.
		tag, opt, _ := strings.Cut(tag, ",")
		if f.Anonymous || f.PkgPath != "" || !hasTag || tag == "-" || (opt != "" && opt != "omitempty") {
			if f.PkgPath != "" && !f.Anonymous {
				continue // unexported fields are not decoded
			}
			return nil // embedded, untagged or option-carrying fields: not handled
		}
		if _, dup := byName[tag]; dup {
			return nil
		}
		byName[tag] = i
	}
	idx := make([]int, len(n.propNodes))
	names := make([]string, len(n.propNodes))
	for name, i := range n.props {
		names[i] = name
	}
	for i, name := range names {
		f, ok := byName[name]
		if !ok {
			return nil
		}
		idx[i] = f
	}
	fieldIndex.Store(k, idx)
	return idx
}

// bindNode is bindable for one node and type.
func bindNode(n *fastNode, t reflect.Type, memo map[bindKey]bool) bool {
	if n.target != nil {
		n = n.target
	}
	k := bindKey{n, t}
	if b, ok := memo[k]; ok {
		return b
	}
	memo[k] = true // assumed while in progress (recursive schemas)
	b := bindKinds(n, t, memo)
	memo[k] = b
	return b
}

func bindKinds(n *fastNode, t reflect.Type, memo map[bindKey]bool) bool {
	types := n.types
	if types == 0 {
		if !n.hasEnum {
			return false // any value: no single Go destination
		}
		types = fString
		if n.enumNull {
			types |= fNull
		}
	}
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	} else if types&fNull != 0 {
		return false
	}
	switch t.Kind() {
	case reflect.Struct:
		if types&^fNull != fObject || !n.closed {
			return false
		}
		idx := structFields(n, t)
		if idx == nil {
			return false
		}
		for i, c := range n.propNodes {
			if !bindNode(c, t.Field(idx[i]).Type, memo) {
				return false
			}
		}
		return true
	case reflect.Slice:
		return types&^fNull == fArray && n.items != nil && bindNode(n.items, t.Elem(), memo)
	case reflect.String:
		return types&^fNull == fString
	case reflect.Int, reflect.Int64:
		return types&^fNull == fInteger
	case reflect.Bool:
		return types&^fNull == fBool
	}
	return false
}

// value checks the next value against n and, when dst is valid, stores it
// in dst; depth is the number of objects and arrays open around it.
func (st *fastState) value(n *fastNode, depth int, dst reflect.Value) bool {
	if n.target != nil {
		n = n.target
	}
	kind := st.dec.PeekKind()
	if dst.IsValid() && dst.Kind() == reflect.Pointer {
		if kind == 'n' {
			dst.SetZero()
			dst = reflect.Value{}
		} else {
			if dst.IsNil() {
				dst.Set(reflect.New(dst.Type().Elem()))
			}
			dst = dst.Elem()
		}
	}
	switch kind {
	case '{':
		if n.types != 0 && n.types&fObject == 0 || n.hasEnum || depth >= MaxDepth {
			return false
		}
		return st.object(n, depth, dst)
	case '[':
		if n.types != 0 && n.types&fArray == 0 || n.hasEnum || depth >= MaxDepth {
			return false
		}
		return st.array(n, depth, dst)
	case '"':
		if n.types != 0 && n.types&fString == 0 {
			return false
		}
		s, ok := st.str()
		if !ok || !n.checkString(s) {
			return false
		}
		if dst.IsValid() {
			if dst.Kind() != reflect.String {
				return false
			}
			dst.SetString(string(s))
		}
		return true
	case '0':
		if n.types != 0 && n.types&fInteger == 0 || n.hasEnum {
			return false
		}
		raw, err := st.dec.ReadValue()
		if err != nil {
			return false
		}
		i, ok := strictInt(raw)
		if !ok || n.hasMinimum && i < n.minimum {
			return false
		}
		if dst.IsValid() {
			if k := dst.Kind(); k != reflect.Int && k != reflect.Int64 || dst.OverflowInt(i) {
				return false
			}
			dst.SetInt(i)
		}
		return true
	case 't', 'f':
		if n.types != 0 && n.types&fBool == 0 || n.hasEnum {
			return false
		}
		tok, err := st.dec.ReadToken()
		if err != nil {
			return false
		}
		if dst.IsValid() {
			if dst.Kind() != reflect.Bool {
				return false
			}
			dst.SetBool(tok.Bool())
		}
		return true
	case 'n':
		if n.types != 0 && n.types&fNull == 0 || n.hasEnum && !n.enumNull {
			return false
		}
		_, err := st.dec.ReadToken()
		return err == nil
	}
	return false
}

// str reads one string (value or member name) and returns its unquoted
// bytes, valid until the next str call.
func (st *fastState) str() ([]byte, bool) {
	raw, err := st.dec.ReadValue()
	if err != nil || len(raw) < 2 || raw[0] != '"' {
		return nil, false
	}
	if bytes.IndexByte(raw, '\\') < 0 {
		return raw[1 : len(raw)-1], true
	}
	st.buf, err = jsontext.AppendUnquote(st.buf[:0], raw)
	return st.buf, err == nil
}

// checkString applies enum, minLength, maxLength and pattern to one string.
func (n *fastNode) checkString(s []byte) bool {
	if n.hasEnum {
		found := false
		for _, e := range n.enumStr {
			if string(s) == e {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	if n.minLen >= 0 || n.maxLen >= 0 {
		// Code points, as the reference counts them (utf8.RuneCount); the
		// decoder has already refused invalid UTF-8.
		c := utf8.RuneCount(s)
		if n.minLen >= 0 && c < n.minLen || n.maxLen >= 0 && c > n.maxLen {
			return false
		}
	}
	return n.match == nil || n.match(s)
}

// object checks one object against n and fills the struct dst when valid.
func (st *fastState) object(n *fastNode, depth int, dst reflect.Value) bool {
	var fields []int
	if dst.IsValid() {
		if dst.Kind() != reflect.Struct {
			return false
		}
		if fields = structFields(n, dst.Type()); fields == nil {
			return false
		}
	}
	if _, err := st.dec.ReadToken(); err != nil {
		return false
	}
	var seen uint64
	for st.dec.PeekKind() == '"' {
		name, ok := st.str()
		if !ok {
			return false
		}
		child, field := anyNode, reflect.Value{}
		if i, ok := n.props[string(name)]; ok {
			child = n.propNodes[i]
			seen |= 1 << i
			if fields != nil {
				field = dst.Field(fields[i])
			}
		} else if n.closed {
			return false
		}
		if dst.IsValid() && !field.IsValid() {
			return false // a member without a destination: not handled
		}
		if !st.value(child, depth+1, field) {
			return false
		}
	}
	if _, err := st.dec.ReadToken(); err != nil { // '}' (anything else is an error)
		return false
	}
	return seen&n.required == n.required
}

// array checks one array against n and fills the slice dst when valid.
func (st *fastState) array(n *fastNode, depth int, dst reflect.Value) bool {
	if dst.IsValid() {
		if dst.Kind() != reflect.Slice {
			return false
		}
	}
	if _, err := st.dec.ReadToken(); err != nil {
		return false
	}
	items := n.items
	if items == nil {
		items = anyNode
	}
	count := 0
	if n.unique {
		st.arena, st.offs = st.arena[:0], st.offs[:0]
	}
	for {
		k := st.dec.PeekKind()
		if k == ']' || k == 0 {
			break
		}
		var elem reflect.Value
		if dst.IsValid() {
			if count == 0 {
				dst.Set(reflect.MakeSlice(dst.Type(), 1, 4))
			} else {
				dst.Grow(1)
				dst.SetLen(count + 1)
			}
			elem = dst.Index(count)
			elem.SetZero()
		}
		if n.unique {
			// Only arrays of strings are checked for repeats here; any
			// other item sends the file to the reference path.
			if k != '"' {
				return false
			}
			it := items
			if it.target != nil {
				it = it.target
			}
			if it.types != 0 && it.types&fString == 0 {
				return false
			}
			s, ok := st.str()
			if !ok || !it.checkString(s) {
				return false
			}
			if elem.IsValid() {
				if elem.Kind() != reflect.String {
					return false
				}
				elem.SetString(string(s))
			}
			st.arena = append(st.arena, s...)
			st.offs = append(st.offs, len(st.arena))
		} else if !st.value(items, depth+1, elem) {
			return false
		}
		count++
		if n.maxItems >= 0 && count > n.maxItems {
			return false
		}
	}
	if _, err := st.dec.ReadToken(); err != nil { // ']'
		return false
	}
	if n.minItems >= 0 && count < n.minItems {
		return false
	}
	if dst.IsValid() && count == 0 {
		dst.Set(reflect.MakeSlice(dst.Type(), 0, 0)) // [] decodes to an empty, non-nil slice
	}
	return !n.unique || st.distinct()
}

// distinct reports whether the strings collected in arena are pairwise different.
func (st *fastState) distinct() bool {
	at := func(i int) []byte {
		start := 0
		if i > 0 {
			start = st.offs[i-1]
		}
		return st.arena[start:st.offs[i]]
	}
	n := len(st.offs)
	if n <= 16 {
		for i := range n {
			for j := range i {
				if bytes.Equal(at(i), at(j)) {
					return false
				}
			}
		}
		return true
	}
	if st.set == nil {
		st.set = map[string]struct{}{}
	}
	clear(st.set)
	for i := range n {
		if _, dup := st.set[string(at(i))]; dup {
			return false
		}
		st.set[string(at(i))] = struct{}{}
	}
	return true
}

// strictInt parses a JSON number literal (already valid JSON) that the
// strict layer's checkNumber accepts: no fraction or exponent, not
// negative zero, within int64. ok is false for every other literal.
func strictInt(raw []byte) (int64, bool) {
	neg := len(raw) > 0 && raw[0] == '-'
	digits := raw
	if neg {
		digits = raw[1:]
	}
	if len(digits) == 0 || len(digits) > 19 {
		return 0, false
	}
	var u uint64
	for _, c := range digits {
		if c < '0' || c > '9' {
			return 0, false
		}
		u = u*10 + uint64(c-'0') // at most 19 digits: no uint64 overflow
	}
	switch {
	case neg && u == 0:
		return 0, false
	case neg && u <= 1<<63:
		return int64(-u), true //nolint:gosec // -(1<<63) wraps to MinInt64 on purpose
	case !neg && u < 1<<63:
		return int64(u), true
	}
	return 0, false
}

// patternMatcher returns a hand-written matcher equivalent to the regular
// expression pattern on valid UTF-8 input, for the pattern shapes of the
// embedded schemas, or re.Match for any other pattern. The tests compare
// each hand-written matcher with the regular expression.
func patternMatcher(pattern string, re *regexp.Regexp) func([]byte) bool {
	if m := idPatternShape.FindStringSubmatch(pattern); m != nil {
		// ^P[1-9][0-9]*$ or ^[PQ…][1-9][0-9]*$ with ASCII letters P, Q, …
		set := strings.Trim(m[1], "[]")
		return func(s []byte) bool {
			if len(s) < 2 || strings.IndexByte(set, s[0]) < 0 || s[1] < '1' || s[1] > '9' {
				return false
			}
			for _, c := range s[2:] {
				if c < '0' || c > '9' {
					return false
				}
			}
			return true
		}
	}
	if m := hexPatternShape.FindStringSubmatch(pattern); m != nil {
		n, _ := strconv.Atoi(m[1])
		return func(s []byte) bool {
			if len(s) != n {
				return false
			}
			for _, c := range s {
				if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
					return false
				}
			}
			return true
		}
	}
	switch pattern {
	case `^[^/]+(/[^/]+)*$`:
		// Non-empty slash-separated segments, none empty.
		return func(s []byte) bool {
			return len(s) > 0 && s[0] != '/' && s[len(s)-1] != '/' && !bytes.Contains(s, []byte("//"))
		}
	case `^[A-Za-z0-9._-]+/[A-Za-z0-9._-]+$`:
		return func(s []byte) bool {
			i := bytes.IndexByte(s, '/')
			return i > 0 && i < len(s)-1 && repoChars(s[:i]) && repoChars(s[i+1:])
		}
	case `^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]{1,9})?Z$`:
		return func(s []byte) bool {
			const shape = "dddd-dd-ddTdd:dd:dd"
			if len(s) < len(shape)+1 || s[len(s)-1] != 'Z' {
				return false
			}
			for i := range len(shape) {
				if shape[i] == 'd' && (s[i] < '0' || s[i] > '9') || shape[i] != 'd' && s[i] != shape[i] {
					return false
				}
			}
			frac := s[len(shape) : len(s)-1]
			if len(frac) == 0 {
				return true
			}
			if frac[0] != '.' || len(frac) < 2 || len(frac) > 10 {
				return false
			}
			for _, c := range frac[1:] {
				if c < '0' || c > '9' {
					return false
				}
			}
			return true
		}
	}
	return re.Match
}

var (
	idPatternShape  = regexp.MustCompile(`^\^([A-Z]|\[[A-Z]+\])\[1-9\]\[0-9\]\*\$$`)
	hexPatternShape = regexp.MustCompile(`^\^\[0-9a-f\]\{([1-9][0-9]?)\}\$$`)
)

// repoChars reports whether s is non-empty and only holds A-Z a-z 0-9 . _ -.
func repoChars(s []byte) bool {
	for _, c := range s {
		if !('A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '.' || c == '_' || c == '-') {
			return false
		}
	}
	return len(s) > 0
}
