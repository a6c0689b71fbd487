package tui

import (
	"reflect"

	"verdict/internal/visible"
)

// visibleText is visible.Text, the one rendering of control and format
// characters that screens and text exports share: no text from a bundle,
// campaign or sheet can move the cursor, change colours or hide part of
// itself on a rater's terminal (issue 12 item 10).
var visibleText = visible.Text

// shownCopy returns a deep copy of v in which every string (and every
// []byte, taken as text) is passed through visibleText. Screens draw only
// such copies of what they were given.
func shownCopy[T any](v T) T {
	src := reflect.ValueOf(&v).Elem()
	dst := reflect.New(src.Type()).Elem()
	copyShown(dst, src)
	return dst.Interface().(T)
}

func copyShown(dst, src reflect.Value) {
	switch src.Kind() {
	case reflect.String:
		dst.SetString(visibleText(src.String()))
	case reflect.Pointer:
		if src.IsNil() {
			return
		}
		p := reflect.New(src.Type().Elem())
		copyShown(p.Elem(), src.Elem())
		dst.Set(p)
	case reflect.Struct:
		dst.Set(src) // unexported fields are kept as they are
		for i := range src.NumField() {
			if dst.Field(i).CanSet() {
				copyShown(dst.Field(i), src.Field(i))
			}
		}
	case reflect.Slice:
		if src.IsNil() {
			return
		}
		if src.Type().Elem().Kind() == reflect.Uint8 {
			dst.SetBytes([]byte(visibleText(string(src.Bytes()))))
			return
		}
		s := reflect.MakeSlice(src.Type(), src.Len(), src.Len())
		for i := range src.Len() {
			copyShown(s.Index(i), src.Index(i))
		}
		dst.Set(s)
	case reflect.Array:
		for i := range src.Len() {
			copyShown(dst.Index(i), src.Index(i))
		}
	case reflect.Map:
		if src.IsNil() {
			return
		}
		m := reflect.MakeMapWithSize(src.Type(), src.Len())
		for it := src.MapRange(); it.Next(); {
			k := reflect.New(src.Type().Key()).Elem()
			copyShown(k, it.Key())
			e := reflect.New(src.Type().Elem()).Elem()
			copyShown(e, it.Value())
			m.SetMapIndex(k, e)
		}
		dst.Set(m)
	case reflect.Interface:
		if src.IsNil() {
			return
		}
		e := reflect.New(src.Elem().Type()).Elem()
		copyShown(e, src.Elem())
		dst.Set(e)
	default:
		dst.Set(src)
	}
}
