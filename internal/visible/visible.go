// Package visible renders untrusted text so that it cannot act on a
// terminal: the one home of the notation every screen and every text
// export uses (DESIGN "Text shown on any screen renders control
// characters visibly, never raw").
package visible

import (
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// Text returns s as a screen may show it: every control character (C0
// except line feed, DEL, C1) and every Unicode format character (bidi
// overrides, zero-width characters) is written as "⟨U+XXXX⟩", so that no
// text from a bundle, campaign or sheet can move the cursor, change
// colours or hide part of itself. A tab becomes four spaces and CRLF a
// line feed; invalid UTF-8 bytes are shown as "⟨0xNN⟩". Text without any
// of these is returned unchanged.
func Text(s string) string {
	clean := true
	for _, r := range s {
		if r == utf8.RuneError || r == '\t' || NeedsNotation(r) {
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
		case NeedsNotation(r):
			fmt.Fprintf(&b, "⟨U+%04X⟩", r)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// NeedsNotation reports whether r is never written raw: a control
// character other than line feed (C0, DEL, C1) or a Unicode format
// character (category Cf).
func NeedsNotation(r rune) bool {
	if r == '\n' {
		return false
	}
	return unicode.IsControl(r) || unicode.Is(unicode.Cf, r)
}

// Mode is how a Writer renders the characters Text would put in notation.
type Mode int

const (
	// Plain renders them as Text does (⟨U+XXXX⟩, ⟨0xNN⟩), keeping line
	// feeds and tabs: the form of every text output.
	Plain Mode = iota
	// JSON writes them as JSON escapes (\u001b; a character beyond U+FFFF
	// as its surrogate pair) and an invalid byte as \ufffd, so that a JSON
	// document stays valid and equal in value while no raw control or
	// format character reaches a terminal. Such characters can only occur
	// inside JSON strings (outside them they are invalid JSON), where the
	// escape means the same character.
	JSON
)

// Writer writes what is written to it to an underlying writer with every
// character that NeedsNotation (other than line feed and tab) and every
// invalid UTF-8 byte rendered in its Mode: the one filter every command's
// standard output and error go through, so that nothing verdict prints
// from a file can act on a terminal. A rune split across two Write calls
// is held until it is complete; Flush writes a held incomplete one.
type Writer struct {
	w    io.Writer
	mode Mode
	held []byte
	buf  []byte
}

// NewWriter returns a Writer onto w in mode.
func NewWriter(w io.Writer, mode Mode) *Writer { return &Writer{w: w, mode: mode} }

// SetMode changes the rendering of what is written from now on.
func (v *Writer) SetMode(m Mode) { v.mode = m }

// Underlying returns the writer v writes to.
func (v *Writer) Underlying() io.Writer { return v.w }

// Write renders p and writes it; it reports len(p) when the rendered
// bytes were all written.
func (v *Writer) Write(p []byte) (int, error) {
	s := p
	if len(v.held) > 0 {
		s = append(v.held, p...)
		v.held = nil
	}
	out := v.buf[:0]
	clean := 0 // start of the run of bytes copied as they are
	i := 0
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf && c >= 0x20 && c != 0x7f || c == '\n' || c == '\t' {
			i++
			continue
		}
		r, n := utf8.DecodeRune(s[i:])
		if r == utf8.RuneError && n <= 1 && !utf8.FullRune(s[i:]) {
			// An incomplete rune at the end: wait for the rest.
			out = append(out, s[clean:i]...)
			v.held = append([]byte(nil), s[i:]...)
			clean = len(s)
			break
		}
		if r != utf8.RuneError || n > 1 {
			if !NeedsNotation(r) || r == '\t' {
				i += n
				continue
			}
		}
		out = append(out, s[clean:i]...)
		out = v.render(out, r, n, s[i])
		i += n
		clean = i
	}
	if clean == 0 && len(v.held) == 0 && len(s) == len(p) {
		// Nothing to render or hold: p is written as it is, not copied.
		if _, err := v.w.Write(p); err != nil {
			return 0, err
		}
		return len(p), nil
	}
	if clean < len(s) {
		out = append(out, s[clean:]...)
	}
	v.buf = out[:0]
	if _, err := v.w.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}

// render appends the notation of rune r (n bytes, first byte b) in v's
// mode; an invalid byte has r == utf8.RuneError and n == 1.
func (v *Writer) render(out []byte, r rune, n int, b byte) []byte {
	invalid := r == utf8.RuneError && n <= 1
	if v.mode == JSON {
		if invalid {
			return append(out, `\ufffd`...)
		}
		if r > 0xffff {
			r1, r2 := utf16.EncodeRune(r)
			return fmt.Appendf(out, `\u%04x\u%04x`, r1, r2)
		}
		return fmt.Appendf(out, `\u%04x`, r)
	}
	if invalid {
		return fmt.Appendf(out, "⟨0x%02X⟩", b)
	}
	return fmt.Appendf(out, "⟨U+%04X⟩", r)
}

// Flush writes a held incomplete rune as invalid bytes.
func (v *Writer) Flush() error {
	if len(v.held) == 0 {
		return nil
	}
	var out []byte
	for _, b := range v.held {
		out = v.render(out, utf8.RuneError, 1, b)
	}
	v.held = nil
	_, err := v.w.Write(out)
	return err
}
