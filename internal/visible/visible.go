// Package visible renders untrusted text so that it cannot act on a
// terminal: the one home of the notation every screen and every text
// export uses (DESIGN "Text shown on any screen renders control
// characters visibly, never raw").
package visible

import (
	"fmt"
	"strings"
	"unicode"
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
