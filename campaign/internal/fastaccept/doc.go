// Package fastaccept is campaign's fast accept path: one streaming pass
// over a file's bytes that answers "certainly accepted" or "not sure",
// never "refused", and fills the typed record in the same pass.
//
// Compile turns a draft 2020-12 JSON Schema document into a small program
// (Schema): type, required, additionalProperties false, properties, $ref
// into $defs, enum of strings and null, pattern, minLength and maxLength
// in code points, minItems, maxItems, uniqueItems of strings, an integer
// minimum, items. Any other keyword, or another form of one of these, is
// an error, and a schema that does not compile is only ever decided by the
// reference validator. Patterns are matched by hand-written matchers for
// the shapes the embedded schemas use (IDs, lowercase hex digests, slash
// paths, owner/name repositories, RFC 3339 UTC times) and by Go regexp,
// the reference validator's engine, for any other; the tests compare each
// matcher with regexp.
//
// Schema.Decode reads the bytes once with jsontext under the strict
// layer's options (duplicate names and invalid UTF-8 are decoder errors)
// and checks, without building a tree, what the strict layer checks (no
// byte order mark, nothing after the value, nesting depth, integers only,
// within int64, no negative zero) and what the schema says. When the
// record type binds to the schema (Bindable: plain json-tagged struct
// fields, slices, pointers for null, strings, signed integers, booleans)
// the record is filled in the same pass, as go-json-experiment's Unmarshal
// would fill it; otherwise the pass only checks and the caller decodes.
//
// The package decides nothing on its own. Its caller (package campaign)
// runs the reference path (strict tree, santhosh-tekuri/jsonschema, typed
// decoding) on every "not sure" and returns the reference path's result
// or refusal unchanged, so every refusal, with its reason, pointer and
// detail, is the reference path's. Soundness needs one property: when
// Decode accepts, the reference path accepts too and decodes a deep-equal
// record. campaign's tests check it rule by rule, on the fixtures and the
// committed fuzz seeds, and FuzzFastPathSound checks it on arbitrary bytes
// (go test -fuzz FuzzFastPathSound ./campaign); FuzzPatternMatchers here
// compares the matchers with Go regexp.
package fastaccept
