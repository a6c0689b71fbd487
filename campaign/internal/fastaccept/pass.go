package fastaccept

import (
	"bytes"
	"io"
	"reflect"
	"sync"
	"unicode/utf8"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// state is the reusable state of one fast pass.
type state struct {
	dec   *jsontext.Decoder
	depth int    // the schema's maxDepth
	buf   []byte // unquoted string of the current value
	arena []byte // unquoted strings of uniqueItems arrays
	offs  []int  // string boundaries in arena
	set   map[string]struct{}
}

var statePool = sync.Pool{New: func() any {
	return &state{dec: jsontext.NewDecoder(bytes.NewBuffer(nil))}
}}

// strictOptions are the strict layer's jsontext options: duplicate member
// names and invalid UTF-8 are errors of the decoder itself.
var strictOptions = jsonv2.JoinOptions(jsontext.AllowDuplicateNames(false), jsontext.AllowInvalidUTF8(false))

// Decode runs the one streaming pass over data and reports whether it
// certainly accepts data: exactly one JSON value under the strict rules
// (no byte order mark, no duplicate member names, valid UTF-8 without lone
// surrogates, every number an integer within int64 and not negative zero,
// nesting within the schema's maxDepth, nothing after the value) that the
// schema admits. false means "not sure", never "refused".
//
// When dst is a settable value whose type the schema binds (Bindable), the
// pass also fills it and filled is true; dst must hold the zero value, and
// when accepted is false it may be partly filled. For any other dst
// (including the zero reflect.Value) the pass only checks and dst is not
// touched.
func (s *Schema) Decode(data []byte, dst reflect.Value) (accepted, filled bool) {
	if dst.IsValid() && (!dst.CanSet() || !s.Bindable(dst.Type())) {
		dst = reflect.Value{}
	}
	if bytes.HasPrefix(data, []byte{0xEF, 0xBB, 0xBF}) || len(bytes.TrimSpace(data)) == 0 {
		return false, false
	}
	st := statePool.Get().(*state)
	st.dec.Reset(bytes.NewBuffer(data), strictOptions)
	st.depth = s.maxDepth
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
	statePool.Put(st)
	return ok, ok && dst.IsValid()
}

// value checks the next value against n and, when dst is valid, stores it
// in dst; depth is the number of objects and arrays open around it.
func (st *state) value(n *node, depth int, dst reflect.Value) bool {
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
		if n.types != 0 && n.types&fObject == 0 || n.hasEnum || depth >= st.depth {
			return false
		}
		return st.object(n, depth, dst)
	case '[':
		if n.types != 0 && n.types&fArray == 0 || n.hasEnum || depth >= st.depth {
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
func (st *state) str() ([]byte, bool) {
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
func (n *node) checkString(s []byte) bool {
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
func (st *state) object(n *node, depth int, dst reflect.Value) bool {
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
func (st *state) array(n *node, depth int, dst reflect.Value) bool {
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
	switch {
	case !dst.IsValid():
	case count == 0:
		dst.Set(reflect.MakeSlice(dst.Type(), 0, 0)) // [] decodes to an empty, non-nil slice
	case dst.Cap() > count:
		// The decoded value is kept (a campaign holds every response):
		// its slices hold no spare capacity.
		exact := reflect.MakeSlice(dst.Type(), count, count)
		reflect.Copy(exact, dst)
		dst.Set(exact)
	}
	return !n.unique || st.distinct()
}

// distinct reports whether the strings collected in arena are pairwise different.
func (st *state) distinct() bool {
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
