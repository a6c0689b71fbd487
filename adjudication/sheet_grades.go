package adjudication

import (
	"bytes"
	"errors"
	"fmt"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// minGradeBytes is fewer bytes than any grade takes in a sheet's canonical
// form (its four members' names and indentation alone take more).
const minGradeBytes = 64

// reserveGrades is a decoding option for a sheet read from data. A sheet's
// grades array in the canonical layout of plain strings (canonicalGrades)
// is read straight from data, each repeated item ID, kind, target and
// value held once; the decoder then only steps over the array (checking
// its syntax as it would). Any other grades array, or none, is decoded as
// by default into a slice with room for as many grades as data names
// kinds (at most one per minGradeBytes bytes), so that a sheet of hundreds
// of thousands of grades is decoded into one allocation instead of growing
// by doubling. Either way the decoded value, and every refusal, is the
// default decoding's: the direct reading takes only what that decoding
// reads the same, and the caller still checks the whole sheet canonical.
func reserveGrades(data []byte) jsonv2.Options {
	return jsonv2.WithUnmarshalers(jsonv2.UnmarshalFromFunc(func(dec *jsontext.Decoder, gs *[]Grade) error {
		if *gs != nil {
			return errors.ErrUnsupported
		}
		start := dec.InputOffset()
		if start >= 0 && start <= int64(len(data)) {
			if grades, n, ok := canonicalGrades(data[start:]); ok {
				if err := dec.SkipValue(); err != nil {
					return err
				}
				if got := dec.InputOffset() - start; got != int64(n) {
					return fmt.Errorf("adjudication: the grades array read directly took %d bytes, the decoder %d", n, got)
				}
				*gs = grades
				return nil
			}
		}
		n := min(bytes.Count(data, []byte(`"kind":`)), len(data)/minGradeBytes)
		*gs = make([]Grade, 0, n)
		return errors.ErrUnsupported // then decoded as by default
	}))
}

// gradesMember is a sheet's grades member in canonical form up to its
// value: a member of the top-level object, indented two spaces (a JSON
// string holds no raw line break, so a line break is always layout).
const gradesMember = "\n  \"grades\": "

// spliceSheet reads a sheet whose grades array is in the canonical layout
// of plain strings (canonicalGrades) with that array read once: rest is
// data with the array replaced by [], and rest is decoded strictly,
// checked canonical and its format checked (parseSheetWhole); the sheet
// gets the grades read. ok is false when data holds no such array, or
// when rest is refused; the caller then decodes data whole
// (parseSheetWhole), which gives every refusal. When ok, data is exactly
// the canonical encoding of the sheet returned, so the sheet is the one
// parseSheetWhole decodes from data: rest is canonical, so the member at
// the array's place is the top-level grades member (deeper members are
// indented further), and canonicalGrades accepts only the canonical
// bytes of the grades it returns.
func spliceSheet(file string, data []byte) (s *Sheet, rest []byte, ok bool) {
	at := bytes.Index(data, []byte(gradesMember))
	if at < 0 {
		return nil, nil, false
	}
	start := at + len(gradesMember)
	grades, n, ok := canonicalGrades(data[start:])
	if !ok {
		return nil, nil, false
	}
	rest = make([]byte, 0, len(data)-n+len(gradesEmpty))
	rest = append(append(append(rest, data[:start]...), gradesEmpty...), data[start+n:]...)
	s, err := parseSheetWhole(file, rest)
	if err != nil {
		return nil, nil, false
	}
	s.Grades = grades
	return s, rest, true
}

// Layout of a sheet's grades array in canonical form (campaign.EncodeJSON
// of Sheet): the array is a member of the top-level object, so each grade
// is indented four spaces and its members six.
const (
	gradesOpen     = "[\n    {\n      \"item\": "
	gradesNextItem = "\n    },\n    {\n      \"item\": "
	gradesKind     = ",\n      \"kind\": "
	gradesTarget   = ",\n      \"target\": "
	gradesValue    = ",\n      \"value\": "
	gradesNote     = ",\n      \"note\": "
	gradesClose    = "\n    }\n  ]"
	gradesEmpty    = "[]"
)

// canonicalGrades reads the grades array at the start of b (after the
// member's colon and the space the canonical form puts there) when it is
// in the canonical layout with every string plain (printable ASCII without
// quote or backslash, which decodes to its own bytes and encodes back to
// them): members item, kind, target, value and an optional non-empty note,
// in that order. It returns the grades, the bytes taken from b's start to
// the array's closing bracket, and false for anything else (nothing is
// then taken; the default decoding reads it and refuses what it refuses).
// Repeated strings are held once: a sheet repeats each item ID for every
// field of the item and has a handful of kinds, targets and values.
func canonicalGrades(b []byte) ([]Grade, int, bool) {
	pos := 0
	for pos < len(b) && (b[pos] == ':' || b[pos] == ' ') {
		pos++
	}
	rest := b[pos:]
	if bytes.HasPrefix(rest, []byte(gradesEmpty)) {
		return []Grade{}, pos + len(gradesEmpty), true
	}
	if !bytes.HasPrefix(rest, []byte(gradesOpen)) {
		return nil, 0, false
	}
	grades := make([]Grade, 0, min(bytes.Count(rest, []byte(gradesKind)), len(rest)/minGradeBytes))
	held := map[string]string{}
	hold := func(s []byte) string {
		if v, ok := held[string(s)]; ok {
			return v
		}
		v := string(s)
		held[v] = v
		return v
	}
	var lastItem string
	p := rest[len(gradesOpen):]
	for {
		var g Grade
		item, r, ok := plainString(p)
		if !ok {
			return nil, 0, false
		}
		if string(item) != lastItem {
			lastItem = string(item)
		}
		g.Item = lastItem
		var s []byte
		if s, r, ok = member(r, gradesKind); !ok {
			return nil, 0, false
		}
		g.Kind = Kind(hold(s))
		if s, r, ok = member(r, gradesTarget); !ok {
			return nil, 0, false
		}
		g.Target = hold(s)
		if s, r, ok = member(r, gradesValue); !ok {
			return nil, 0, false
		}
		g.Value = hold(s)
		if bytes.HasPrefix(r, []byte(gradesNote)) {
			// omitempty: a canonical note is never "".
			if s, r, ok = member(r, gradesNote); !ok || len(s) == 0 {
				return nil, 0, false
			}
			g.Note = string(s)
		}
		grades = append(grades, g)
		switch {
		case bytes.HasPrefix(r, []byte(gradesNextItem)):
			p = r[len(gradesNextItem):]
		case bytes.HasPrefix(r, []byte(gradesClose)):
			return grades, len(b) - len(r) + len(gradesClose), true
		default:
			return nil, 0, false
		}
	}
}

// member reads the member separator sep and then a plain string from b.
func member(b []byte, sep string) (s, rest []byte, ok bool) {
	if !bytes.HasPrefix(b, []byte(sep)) {
		return nil, nil, false
	}
	return plainString(b[len(sep):])
}

// plainString reads a JSON string at the start of b whose content is
// printable ASCII without quote or backslash, returning the content and
// the bytes after the closing quote.
func plainString(b []byte) (s, rest []byte, ok bool) {
	if len(b) == 0 || b[0] != '"' {
		return nil, nil, false
	}
	for i := 1; i < len(b); i++ {
		switch c := b[i]; {
		case c == '"':
			return b[1:i], b[i+1:], true
		case c < 0x20 || c >= 0x7f || c == '\\':
			return nil, nil, false
		}
	}
	return nil, nil, false
}
