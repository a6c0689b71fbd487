package fastaccept

import (
	"reflect"
	"strings"
	"sync"
)

// Bindable reports whether the pass can fill a value of type t for this
// schema exactly as the typed decoding of the reference path
// (go-json-experiment's Unmarshal) does: every value the schema admits
// has a Go destination of a kind the pass fills (struct with one plain
// json-tagged field per property, optionally omitempty, slice, pointer for
// null, string, signed integer, bool). The answer is cached per type.
func (s *Schema) Bindable(t reflect.Type) bool {
	if b, ok := s.bound.Load(t); ok {
		return b.(bool)
	}
	memo := map[bindKey]bool{}
	b := bindNode(s.root, t, memo)
	s.bound.Store(t, b)
	return b
}

type bindKey struct {
	n *node
	t reflect.Type
}

// fieldKey finds the field of a struct type for one property.
type fieldKey struct {
	n *node
	t reflect.Type
}

// fieldIndex caches, per object node and struct type, the struct field
// index of each property (propNodes order).
var fieldIndex sync.Map // fieldKey → []int

// structFields returns the field index of each property of n in struct
// type t, or nil when a property has no plain json-tagged field.
func structFields(n *node, t reflect.Type) []int {
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

// bindNode is Bindable for one node and type.
func bindNode(n *node, t reflect.Type, memo map[bindKey]bool) bool {
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

func bindKinds(n *node, t reflect.Type, memo map[bindKey]bool) bool {
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
