package tui

import (
	"fmt"
	"reflect"
	"strings"
	"unicode"
	"unicode/utf8"
)

// visibleText returns s as a screen may show it: every control character
// (C0 except line feed, DEL, C1) and every Unicode format character (bidi
// overrides, zero-width characters) is written as "⟨U+XXXX⟩", so that no
// text from a bundle, campaign or sheet can move the cursor, change
// colours or hide part of itself on a rater's terminal (issue 12 item 10).
// A tab becomes four spaces and CRLF a line feed; invalid UTF-8 bytes are
// shown as "⟨0xNN⟩".
func visibleText(s string) string {
	clean := true
	for _, r := range s {
		if r == utf8.RuneError || r == '\t' || needsNotation(r) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n <= 1:
			fmt.Fprintf(&b, "⟨0x%02X⟩", s[i])
		case r == '\t':
			b.WriteString("    ")
		case r == '\r' && strings.HasPrefix(s[i+1:], "\n"):
			// CRLF is one line break.
		case needsNotation(r):
			fmt.Fprintf(&b, "⟨U+%04X⟩", r)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

func needsNotation(r rune) bool {
	if r == '\n' {
		return false
	}
	return unicode.IsControl(r) || unicode.Is(unicode.Cf, r)
}

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
