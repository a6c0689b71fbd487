package blinding

import (
	"encoding"
	"encoding/json"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"

	jsonv2 "github.com/go-json-experiment/json"

	"verdict/internal/par"
)

// The scan of typed bundles (ScanBundles) walks a Bundle's values as its
// canonical JSON form shows them (MarshalCanonical: each struct field
// under its json name, a nil pointer or slice as null, omitempty fields
// left out when empty) and gives exactly ScanJSON's findings on those
// bytes, without encoding the bundle and decoding it into generic maps
// again. Member names are visited in sorted order, as ScanJSON visits a
// decoded object's keys, so the findings come in the same order.

// jsonField is one struct field as the canonical encoder writes it.
type jsonField struct {
	name      string // JSON member name
	escaped   string // name escaped for a JSON pointer
	index     int    // field index in the struct
	omitEmpty bool
}

// jsonFields caches the fields of each struct type, sorted by name.
var jsonFields sync.Map // reflect.Type -> []jsonField

// fieldsOf returns t's JSON members sorted by name (t is a struct type
// typedShape accepted).
func fieldsOf(t reflect.Type) []jsonField {
	if f, ok := jsonFields.Load(t); ok {
		return f.([]jsonField)
	}
	var out []jsonField
	for i := range t.NumField() {
		sf := t.Field(i)
		if !sf.IsExported() {
			continue
		}
		name, opts, _ := strings.Cut(sf.Tag.Get("json"), ",")
		if name == "" {
			name = sf.Name
		}
		out = append(out, jsonField{name: name, escaped: escapePointer(name), index: i, omitEmpty: opts == "omitempty"})
	}
	slices.SortFunc(out, func(a, b jsonField) int { return strings.Compare(a.name, b.name) })
	jsonFields.Store(t, out)
	return out
}

var (
	jsonMarshaler   = reflect.TypeFor[json.Marshaler]()
	jsonMarshalerTo = reflect.TypeFor[jsonv2.MarshalerTo]()
	jsonMarshalerV2 = reflect.TypeFor[jsonv2.Marshaler]()
	textMarshaler   = reflect.TypeFor[encoding.TextMarshaler]()
	itemType        = reflect.TypeFor[Item]()
)

// typedShape reports whether the walk of fieldsOf gives t's canonical JSON
// shape: only strings, booleans, numbers, pointers, slices and structs
// without embedded fields, custom marshalers, byte slices or json tag
// options other than omitempty. Every type a Bundle holds is of this
// shape (TestTypedScanCoversBundle); were one not, ScanBundles falls back
// to scanning the encoded bytes.
func typedShape(t reflect.Type, seen map[reflect.Type]bool) bool {
	if seen[t] {
		return true
	}
	seen[t] = true
	for _, m := range []reflect.Type{jsonMarshaler, jsonMarshalerTo, jsonMarshalerV2, textMarshaler} {
		if t.Implements(m) || reflect.PointerTo(t).Implements(m) {
			return false
		}
	}
	switch t.Kind() {
	case reflect.String, reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
		return true
	case reflect.Pointer:
		return typedShape(t.Elem(), seen)
	case reflect.Slice:
		return t.Elem().Kind() != reflect.Uint8 && typedShape(t.Elem(), seen)
	case reflect.Struct:
		for i := range t.NumField() {
			sf := t.Field(i)
			if sf.Anonymous {
				return false
			}
			if !sf.IsExported() {
				continue
			}
			name, opts, _ := strings.Cut(sf.Tag.Get("json"), ",")
			if name == "-" || (opts != "" && opts != "omitempty") || !typedShape(sf.Type, seen) {
				return false
			}
		}
		return true
	}
	return false
}

// bundleTyped is whether a Bundle can be scanned typed.
var bundleTyped = typedShape(reflect.TypeFor[Bundle](), map[reflect.Type]bool{})

// isEmptyJSON is encoding/json's omitempty test.
func isEmptyJSON(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.String, reflect.Slice, reflect.Array, reflect.Map:
		return v.Len() == 0
	case reflect.Bool:
		return !v.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return v.Int() == 0
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return v.Uint() == 0
	case reflect.Float32, reflect.Float64:
		return v.Float() == 0
	case reflect.Pointer, reflect.Interface:
		return v.IsNil()
	}
	return false
}

// ScanBundle returns the findings of bundle b: exactly ScanJSON's on its
// canonical bytes, in item order, then pointer order.
func (s *Scanner) ScanBundle(b *Bundle) []Finding {
	return s.ScanBundles([]*Bundle{b})[0]
}

// ScanBundles returns the findings of each bundle of bs (ScanBundle of
// each), scanning their typed items: an item that occurs in several
// bundles (every rater's bundle holds the same items in another order) is
// scanned once, the exemptions of an item's shared inputs (task text,
// evidence, obligations; see inputKeys) are collected once for all the
// items that share them, and both are spread over GOMAXPROCS goroutines.
// The findings do not depend on that: each is computed alone and put in
// its place.
func (s *Scanner) ScanBundles(bs []*Bundle) [][]Finding {
	out := make([][]Finding, len(bs))
	if !bundleTyped {
		for i, b := range bs {
			data, err := MarshalCanonical(b)
			if err != nil {
				out[i] = []Finding{{Rater: b.Rater, Kind: FindingField, Token: "unencodable bundle: " + err.Error()}}
				continue
			}
			out[i] = s.ScanJSON(b.Rater, data)
		}
		return out
	}
	w := &typedWalk{s: s, exempts: map[string][]*inputExemption{}}
	// Each distinct item once (an equal item of an earlier bundle is the
	// same item), and each distinct set of shared inputs once.
	var uniq []*Item
	byID := map[string][]int{}
	refs := make([][]int, len(bs))
	var inputs []*inputExemption
	for i, b := range bs {
		refs[i] = make([]int, len(b.Items))
		for k := range b.Items {
			it := &b.Items[k]
			u := -1
			for _, prev := range byID[it.ID] {
				if sameValue(reflect.ValueOf(uniq[prev]).Elem(), reflect.ValueOf(it).Elem()) {
					u = prev
					break
				}
			}
			if u < 0 {
				u = len(uniq)
				uniq = append(uniq, it)
				byID[it.ID] = append(byID[it.ID], u)
				if e := w.exemptionOf(it); e == nil {
					e = &inputExemption{it: it}
					w.exempts[it.TaskText] = append(w.exempts[it.TaskText], e)
					inputs = append(inputs, e)
				}
			}
			refs[i][k] = u
		}
	}
	fields := fieldsOf(itemType)
	workers := make([]*typedWorker, par.Workers())
	for i := range workers {
		workers[i] = &typedWorker{typedWalk: w, texts: textMemo{}, collected: exemptMemo{}}
	}
	par.For(len(inputs), func(worker, n int) {
		inputs[n].set = workers[worker].collectInputs(reflect.ValueOf(inputs[n].it).Elem(), fields)
	})
	found := make([][]Finding, len(uniq))
	par.For(len(uniq), func(worker, n int) {
		var f []Finding
		w := workers[worker]
		w.path = w.path[:0]
		w.walk("", reflect.ValueOf(uniq[n]).Elem(), true, nil, &f)
		found[n] = f
	})
	hw := workers[0]
	for i, b := range bs {
		var all []Finding
		v := reflect.ValueOf(b).Elem()
		for _, f := range fieldsOf(v.Type()) {
			fv := v.Field(f.index)
			if f.omitEmpty && isEmptyJSON(fv) {
				continue
			}
			p := "/" + escapePointer(f.name)
			if s.fields[strings.ToLower(f.name)] {
				all = append(all, Finding{Pointer: p, Kind: FindingField, Token: f.name})
			}
			if f.name != "items" {
				hw.path = append(hw.path[:0], p...)
				hw.walk("", fv, true, nil, &all)
				continue
			}
			for k := range b.Items {
				prefix := p + "/" + strconv.Itoa(k)
				for _, f := range found[refs[i][k]] {
					f.Pointer = prefix + f.Pointer
					all = append(all, f)
				}
			}
		}
		for k := range all {
			all[k].Rater = b.Rater
		}
		out[i] = all
	}
	return out
}

// typedWalk is one ScanBundles run: the exemption set of each distinct
// set of shared inputs, by task text (filled before the items are
// walked, then only read).
type typedWalk struct {
	s       *Scanner
	exempts map[string][]*inputExemption
}

// typedWorker walks items on one goroutine of a ScanBundles run, with its
// own memos of the texts it has matched.
type typedWorker struct {
	*typedWalk
	texts     textMemo
	collected exemptMemo
	path      []byte // the JSON pointer walk is at
}

// inputExemption is the exemption set of the shared inputs of item it and
// of every item with equal inputs.
type inputExemption struct {
	it  *Item
	set map[string]bool
}

// exemptionOf returns the exemption entry of the inputs of it, or nil.
func (w *typedWalk) exemptionOf(it *Item) *inputExemption {
	for _, e := range w.exempts[it.TaskText] {
		if sameValue(reflect.ValueOf(e.it.Evidence), reflect.ValueOf(it.Evidence)) && sameValue(reflect.ValueOf(e.it.Obligations), reflect.ValueOf(it.Obligations)) {
			return e
		}
	}
	return nil
}

// walk is walkText on the canonical JSON form of v, with the JSON pointer
// of v in w.path (built in place, made a string only for a finding).
func (w *typedWorker) walk(item string, v reflect.Value, scan bool, exempt map[string]bool, out *[]Finding) {
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			w.walk(item, v.Elem(), scan, exempt, out)
		}
	case reflect.Struct:
		fields := fieldsOf(v.Type())
		if id, ok := idOf(v, fields); ok && strings.HasPrefix(id, "item-") {
			item = id
			exempt = w.exemptions(v, fields)
		}
		n := len(w.path)
		for _, f := range fields {
			fv := v.Field(f.index)
			if f.omitEmpty && isEmptyJSON(fv) {
				continue
			}
			w.path = append(append(w.path[:n], '/'), f.escaped...)
			if w.s.fields[strings.ToLower(f.name)] {
				*out = append(*out, Finding{Item: item, Pointer: string(w.path), Kind: FindingField, Token: f.name})
			}
			w.walk(item, fv, scan && !(item != "" && inputKeys[f.name]), exempt, out)
		}
		w.path = w.path[:n]
	case reflect.Slice, reflect.Array:
		n := len(w.path)
		for i := range v.Len() {
			w.path = strconv.AppendInt(append(w.path[:n], '/'), int64(i), 10)
			w.walk(item, v.Index(i), scan, exempt, out)
		}
		w.path = w.path[:n]
	case reflect.String:
		if !scan {
			return
		}
		if t := w.s.find(w.texts, v.String()); len(t.tokens) > 0 || len(t.context) > 0 {
			w.s.scanText(w.texts, "", item, string(w.path), v.String(), exempt, out)
		}
	}
}

// idOf returns the struct's "id" member when it encodes as a string.
func idOf(v reflect.Value, fields []jsonField) (string, bool) {
	for _, f := range fields {
		if f.name != "id" {
			continue
		}
		fv := v.Field(f.index)
		for fv.Kind() == reflect.Pointer {
			if fv.IsNil() {
				return "", false
			}
			fv = fv.Elem()
		}
		if fv.Kind() == reflect.String && !(f.omitEmpty && fv.Len() == 0) {
			return fv.String(), true
		}
		return "", false
	}
	return "", false
}

// exemptions returns the exemption set of the struct v's shared inputs
// (collect over its inputKeys members): for an Item, the set ScanBundles
// collected once for its inputs.
func (w *typedWorker) exemptions(v reflect.Value, fields []jsonField) map[string]bool {
	if v.Type() == itemType && v.CanAddr() {
		if e := w.exemptionOf(v.Addr().Interface().(*Item)); e != nil {
			return e.set
		}
	}
	return w.collectInputs(v, fields)
}

func (w *typedWorker) collectInputs(v reflect.Value, fields []jsonField) map[string]bool {
	set := map[string]bool{}
	for _, f := range fields {
		if inputKeys[f.name] {
			fv := v.Field(f.index)
			if !(f.omitEmpty && isEmptyJSON(fv)) {
				w.collect(fv, set)
			}
		}
	}
	return set
}

// collect is Scanner.collect on the canonical JSON form of v.
func (w *typedWorker) collect(v reflect.Value, set map[string]bool) {
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			w.collect(v.Elem(), set)
		}
	case reflect.Struct:
		for _, f := range fieldsOf(v.Type()) {
			fv := v.Field(f.index)
			if !(f.omitEmpty && isEmptyJSON(fv)) {
				w.collect(fv, set)
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			w.collect(v.Index(i), set)
		}
	case reflect.String:
		w.s.collectText(w.collected, v.String(), set)
	}
}

// sameValue reports whether a and b (of one type) are equal: at once when
// every slice and pointer of theirs is the same memory (the items of
// every rater's bundle share their answers and inputs), else as
// reflect.DeepEqual decides.
func sameValue(a, b reflect.Value) bool {
	return identical(a, b) || reflect.DeepEqual(a.Interface(), b.Interface())
}

// identical reports whether a and b hold the same scalars and point to the
// same memory with every slice and pointer (without allocating).
func identical(a, b reflect.Value) bool {
	switch a.Kind() {
	case reflect.Struct:
		for i := range a.NumField() {
			if !identical(a.Field(i), b.Field(i)) {
				return false
			}
		}
		return true
	case reflect.Slice:
		return a.Len() == b.Len() && a.UnsafePointer() == b.UnsafePointer()
	case reflect.Pointer, reflect.Map:
		return a.UnsafePointer() == b.UnsafePointer()
	case reflect.String:
		return a.String() == b.String()
	case reflect.Bool:
		return a.Bool() == b.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return a.Int() == b.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return a.Uint() == b.Uint()
	case reflect.Float32, reflect.Float64:
		return a.Float() == b.Float()
	}
	return false
}
