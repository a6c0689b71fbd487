package campaign

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"strconv"
	"strings"
	"sync"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"verdict/verr"
)

// RuleResponseContract names the PROMPTS.md rule every response refusal cites.
const RuleResponseContract = "PROMPTS.md Exact response contract"

// RuleStrictJSON names the strict JSON rule shared by every campaign file.
const RuleStrictJSON = "PROMPTS.md Exact response contract: strict JSON"

// Reasons of the strict JSON layer: they apply to every campaign JSON file
// (manifest, packet, truth, response, receipt) before the schema runs.
const (
	// ReasonEmptyFile: the file holds no bytes or only whitespace.
	ReasonEmptyFile verr.Reason = "empty-file"
	// ReasonBOM: the file starts with a UTF-8 byte order mark.
	ReasonBOM verr.Reason = "byte-order-mark"
	// ReasonSyntax: the bytes are not one JSON value (including trailing data).
	ReasonSyntax verr.Reason = "json-syntax"
	// ReasonDuplicateKey: an object holds the same member name twice.
	ReasonDuplicateKey verr.Reason = "duplicate-key"
	// ReasonInvalidUTF8: a string holds bytes that are not valid UTF-8.
	ReasonInvalidUTF8 verr.Reason = "invalid-utf8"
	// ReasonLoneSurrogate: a string escapes a UTF-16 surrogate without its pair (`\ud800`).
	ReasonLoneSurrogate verr.Reason = "lone-surrogate"
	// ReasonDepthLimit: objects and arrays are nested deeper than MaxDepth.
	ReasonDepthLimit verr.Reason = "depth-limit"
	// ReasonNumberRange: a number is not finite as a float64 (`1e400`) or
	// does not fit a signed 64-bit integer.
	ReasonNumberRange verr.Reason = "number-range"
	// ReasonNegativeZero: a number is written as negative zero (`-0`).
	ReasonNegativeZero verr.Reason = "negative-zero"
	// ReasonNonInteger: a number has a fraction or exponent; every number of
	// every campaign file is an integer (lines, counts, nanoseconds, units).
	ReasonNonInteger verr.Reason = "non-integer"
)

// Reasons mapped from JSON Schema keywords (and re-checked in Go where the
// schema cannot say the whole rule).
const (
	// ReasonUnknownKey: an object holds a member its record does not define.
	ReasonUnknownKey verr.Reason = "unknown-key"
	// ReasonMissingKey: a required member (nullable members included) is absent.
	ReasonMissingKey verr.Reason = "missing-key"
	// ReasonWrongType: a value has the wrong JSON type.
	ReasonWrongType verr.Reason = "wrong-type"
	// ReasonEnum: a value is not one of its record's allowed values.
	ReasonEnum verr.Reason = "enum"
	// ReasonArrayTooLong: an array holds more records than its maximum
	// (claims 32, implementation_plan 32, verification_plan 32,
	// uncertainties 32, exclusions 64, citations 128, obligations 16, …).
	ReasonArrayTooLong verr.Reason = "array-too-long"
	// ReasonArrayTooShort: an array holds fewer records than its minimum
	// (supports and final_ids 1, obligations 1, packet items 6, truth obligations 4).
	ReasonArrayTooShort verr.Reason = "array-too-short"
	// ReasonRepeatedString: an ID array repeats a string.
	ReasonRepeatedString verr.Reason = "repeated-id-in-array"
	// ReasonIDGrammar: an ID is not `<prefix>[1-9][0-9]*` for its type.
	ReasonIDGrammar verr.Reason = "id-grammar"
	// ReasonDuplicateID: two records of one type declare the same ID.
	ReasonDuplicateID verr.Reason = "duplicate-id"
	// ReasonTextEmpty: a text is the empty string.
	ReasonTextEmpty verr.Reason = "text-empty"
	// ReasonTextNotTrimmed: a text starts or ends with white space.
	ReasonTextNotTrimmed verr.Reason = "text-not-trimmed"
	// ReasonTextTooLong: a text has more than MaxTextScalars Unicode scalar values.
	ReasonTextTooLong verr.Reason = "text-too-long"
	// ReasonLabel: a runner's or provider's identifier in a receipt
	// (request_id, response_id, host) is not trimmed, is over MaxLabelBytes
	// bytes, or holds a control character (it could not be printed as it
	// is, nor told apart from its escape in a report).
	ReasonLabel verr.Reason = "bad-label"
	// ReasonPath: a path is empty, absolute, has an empty segment or a `..`
	// segment; a path naming a campaign file (manifest files and prompts,
	// packet evidence items) must also be canonical: no `.` segment and no
	// backslash (CheckFilePath). The detail names the offending segment.
	ReasonPath verr.Reason = "path"
	// ReasonLineNotPositive: a line number is below 1.
	ReasonLineNotPositive verr.Reason = "line-not-positive"
	// ReasonLineOrder: a start line is after its end line.
	ReasonLineOrder verr.Reason = "line-order"
	// ReasonDigestFormat: a SHA-256 is not 64 lowercase hex digits or a
	// commit is not 40 lowercase hex digits.
	ReasonDigestFormat verr.Reason = "digest-format"
	// ReasonTimeFormat: a time is not RFC 3339 UTC ("…Z").
	ReasonTimeFormat verr.Reason = "time-format"
	// ReasonOutOfRange: an integer is below its minimum (other than a line).
	ReasonOutOfRange verr.Reason = "out-of-range"
	// ReasonReconciliationRole: reconciliation is not null for the shared
	// draft D or review A, or is null for review B.
	ReasonReconciliationRole verr.Reason = "reconciliation-role"
	// ReasonUnknownRole: DecodeResponse was asked for a role that is not
	// draft, review-a or review-b.
	ReasonUnknownRole verr.Reason = "unknown-role"
	// ReasonSchema: any other JSON Schema failure (the detail names the keyword).
	ReasonSchema verr.Reason = "schema"
)

// MaxDepth is the deepest nesting of objects and arrays the strict loader
// reads; deeper input is refused with ReasonDepthLimit without recursion.
const MaxDepth = 32

// MaxTextScalars is the longest text in Unicode scalar values (PROMPTS.md).
const MaxTextScalars = 2048

// pointerEscape escapes one RFC 6901 reference token.
func pointerEscape(tok string) string {
	if !strings.ContainsAny(tok, "~/") {
		return tok
	}
	return strings.ReplaceAll(strings.ReplaceAll(tok, "~", "~0"), "/", "~1")
}

// ptr joins a parent pointer and a token.
func ptr(parent string, tok any) string {
	switch t := tok.(type) {
	case int:
		return parent + "/" + strconv.Itoa(t)
	case string:
		return parent + "/" + pointerEscape(t)
	}
	panic("campaign: bad pointer token")
}

// frame is one open object or array of the strict tree builder.
type frame struct {
	obj     map[string]any
	arr     []any
	isObj   bool
	key     string
	haveKey bool
}

// strictOptions are the jsontext options of the strict layer: duplicate
// member names and invalid UTF-8 are refused.
var strictOptions = jsonv2.JoinOptions(jsontext.AllowDuplicateNames(false), jsontext.AllowInvalidUTF8(false))

// decoderPool holds reusable strict decoders (parseStrict resets each one).
var decoderPool = sync.Pool{New: func() any { return jsontext.NewDecoder(bytes.NewBuffer(nil)) }}

// parseStrict reads data as exactly one JSON value under the strict rules
// and returns it as a tree of map[string]any, []any, string, json.Number,
// bool and nil, ready for the JSON Schema validator. It never recurses, so
// any nesting depth is safe; it refuses nesting deeper than MaxDepth.
func parseStrict(data []byte, file string) (any, *verr.Error) {
	fail := func(r verr.Reason, p, detail string) *verr.Error {
		return &verr.Error{Reason: r, File: file, Pointer: p, Rule: RuleStrictJSON, Detail: detail}
	}
	if bytes.HasPrefix(data, []byte{0xEF, 0xBB, 0xBF}) {
		return nil, fail(ReasonBOM, "", "the file starts with a UTF-8 byte order mark")
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, fail(ReasonEmptyFile, "", "the file holds no JSON value")
	}
	// A *bytes.Buffer lets the decoder read data in place (no copy), and
	// pooled decoders keep their name sets between files.
	dec := decoderPool.Get().(*jsontext.Decoder)
	dec.Reset(bytes.NewBuffer(data), strictOptions)
	defer func() {
		dec.Reset(bytes.NewBuffer(nil), strictOptions) // drop the reference to data
		decoderPool.Put(dec)
	}()
	var root any
	var stack []frame
	done := false
	put := func(v any) {
		if len(stack) == 0 {
			root, done = v, true
			return
		}
		f := &stack[len(stack)-1]
		if f.isObj {
			f.obj[f.key] = v
			f.haveKey = false
		} else {
			f.arr = append(f.arr, v)
		}
	}
	for !done {
		kind := dec.PeekKind()
		if kind == '0' {
			raw, err := dec.ReadValue()
			if err != nil {
				return nil, syntaxError(file, err)
			}
			n, e := checkNumber(string(raw))
			if e != "" {
				// The decoder's stack pointer now names the number just read.
				return nil, fail(e, string(dec.StackPointer()), fmt.Sprintf("number %.40s is refused", raw))
			}
			put(n)
			continue
		}
		tok, err := dec.ReadToken()
		if err != nil {
			return nil, syntaxError(file, err)
		}
		switch tok.Kind() {
		case '{', '[':
			if len(stack) >= MaxDepth {
				return nil, fail(ReasonDepthLimit, string(dec.StackPointer()),
					fmt.Sprintf("objects and arrays nest deeper than %d levels", MaxDepth))
			}
			if tok.Kind() == '{' {
				stack = append(stack, frame{obj: map[string]any{}, isObj: true})
			} else {
				stack = append(stack, frame{arr: []any{}})
			}
		case '}', ']':
			f := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if f.isObj {
				put(f.obj)
			} else {
				put(f.arr)
			}
		case '"':
			s := tok.String()
			if n := len(stack); n > 0 && stack[n-1].isObj && !stack[n-1].haveKey {
				stack[n-1].key, stack[n-1].haveKey = s, true
			} else {
				put(s)
			}
		case 'n':
			put(nil)
		case 't':
			put(true)
		case 'f':
			put(false)
		default:
			return nil, fail(ReasonSyntax, string(dec.StackPointer()), "unexpected token")
		}
	}
	if _, err := dec.ReadToken(); err != io.EOF {
		if err == nil {
			return nil, fail(ReasonSyntax, "", "trailing data after the JSON value")
		}
		return nil, syntaxError(file, err)
	}
	return root, nil
}

// checkNumber applies the number rules to one JSON number literal.
func checkNumber(s string) (json.Number, verr.Reason) {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return "", ReasonNumberRange
	}
	if strings.HasPrefix(s, "-") && f == 0 {
		return "", ReasonNegativeZero
	}
	if strings.ContainsAny(s, ".eE") {
		return "", ReasonNonInteger
	}
	if _, err := strconv.ParseInt(s, 10, 64); err != nil {
		return "", ReasonNumberRange
	}
	return json.Number(s), ""
}

// syntaxError classifies a jsontext error into a strict-JSON reason.
func syntaxError(file string, err error) *verr.Error {
	e := &verr.Error{Reason: ReasonSyntax, File: file, Rule: RuleStrictJSON, Detail: err.Error()}
	var se *jsontext.SyntacticError
	if errors.As(err, &se) {
		e.Pointer = string(se.JSONPointer)
		inner := ""
		if se.Err != nil {
			inner = se.Err.Error()
		}
		switch {
		case errors.Is(se.Err, jsontext.ErrDuplicateName):
			e.Reason = ReasonDuplicateKey
		case strings.Contains(inner, "invalid UTF-8"):
			e.Reason = ReasonInvalidUTF8
		case strings.Contains(inner, "surrogate"):
			e.Reason = ReasonLoneSurrogate
		}
		e.Detail = inner
		if e.Detail == "" {
			e.Detail = err.Error()
		}
	} else if err == io.EOF || errors.Is(err, io.ErrUnexpectedEOF) {
		e.Detail = "unexpected end of input"
	}
	return e
}

// decoder decides the strict JSON layer, the embedded schema and the
// typed decoding of each campaign file. Its zero value runs the fast
// accept pass (package fastaccept) first and the reference path on
// anything the pass does not accept; with reference set it runs the
// reference path alone (LoadOptions.ReferenceOnly). Both give the same
// records and the same refusals.
type decoder struct{ reference bool }

// strict runs the strict JSON layer, the named embedded schema and the
// typed decoding into v (a pointer to a zero record). It returns the first
// refusal, always the reference path's.
func (d decoder) strict(data []byte, file, schema string, v any) *verr.Error {
	if !d.reference {
		rv := reflect.ValueOf(v).Elem()
		if fastDecode(data, schema, rv) {
			return nil
		}
		rv.SetZero() // start the reference path from a zero value
	}
	return decodeReference(data, file, schema, v)
}

// decodeReference is the reference path: the strict tree (parseStrict),
// the JSON Schema validator (validateSchema), then the typed decoding.
func decodeReference(data []byte, file, schema string, v any) *verr.Error {
	tree, e := parseStrict(data, file)
	if e != nil {
		return e
	}
	if e := validateSchema(schema, tree, file); e != nil {
		return e
	}
	if err := typedDecode(data, v); err != nil {
		return &verr.Error{Reason: ReasonSchema, File: file, Rule: RuleStrictJSON, Detail: err.Error(), Err: err}
	}
	return nil
}

// typedDecode is the typed decoding of the reference path: data into v
// with go-json-experiment, unknown members refused.
func typedDecode(data []byte, v any) error {
	return jsonv2.Unmarshal(data, v, jsonv2.RejectUnknownMembers(true))
}
