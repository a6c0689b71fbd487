// Package campaign owns the campaign's data model and its strict loading:
// the manifest, tasks, evidence packets and evidence items, truth
// (obligations), responses (final answer and B's reconciliation record) and
// receipts; the embedded JSON Schemas (2020-12) and their digests; identity
// hashing. It knows nothing about raters or scoring.
//
// Campaign layout (all paths slash separated, relative to the campaign root):
//
//	manifest.json              the frozen manifest (Manifest)
//	prompts/*.txt              frozen prompt texts bound in the manifest
//	tasks/<T>/task.md          task text
//	tasks/<T>/packet.json      evidence packet (Packet)
//	tasks/<T>/truth.json       frozen obligations (Truth)
//	responses/<S>.json         raw model output of session S (Response when valid)
//	receipts/<S>.json          execution receipt of session S (Receipt)
//	sources/<owner>/<name>/... whole source files the packet excerpts come from
//
// Refusals are *Error values carrying a Reason, the file, a JSON pointer and
// the contract rule; match them with errors.Is(err, ReasonX).
//
// Strict loading has three layers. The strict JSON layer (parseStrict, on
// go-json-experiment's jsontext) refuses a byte order mark, duplicate keys,
// invalid UTF-8, lone surrogates, trailing data, nesting deeper than
// MaxDepth and numbers that are non-finite, out of int64 range, negative
// zero or non-integer. The embedded JSON Schema (draft 2020-12, compiled
// with santhosh-tekuri/jsonschema) then checks keys, types, enums, ID
// patterns, digests and array bounds; each schema error is mapped to a
// Reason by its keyword and $defs entry. Last, Go rules check what a schema
// cannot say: trimmed text, duplicate IDs within a type, path segments,
// line order and the role-dependent reconciliation rule. DecodeManifest,
// DecodePacket, DecodeTruth, DecodeResponse and DecodeReceipt return the
// first refusal of one file; Load returns every refusal of a campaign.
//
// Two paths decide the first two layers, with the same outcome. The
// reference path is the one described above: parseStrict builds a tree,
// santhosh-tekuri/jsonschema validates it, go-json-experiment decodes the
// typed record (Unmarshal, unknown members refused). The fast accept path
// (fastvalidate.go) runs first: one streaming pass over the bytes, on the
// same strict jsontext decoder options, checks the strict JSON rules and
// the embedded schema compiled into a small program (type, required,
// additionalProperties false, properties, $ref into $defs, enum, pattern,
// minLength/maxLength in code points, minItems/maxItems, uniqueItems,
// minimum, items) without building a tree, and fills the typed record in
// the same pass when the record type binds to the schema (plain
// json-tagged struct fields, slices, pointers for null, strings, signed
// integers, booleans; otherwise the pass only checks and Unmarshal
// decodes). The schema compiler refuses any other keyword or keyword
// form, and such a schema always takes the reference path; patterns use
// hand-written matchers for the schemas' shapes (IDs, hex digests, paths,
// repositories, UTC times) and Go regexp, the reference's engine, for any
// other. When the fast pass declines, for any reason, the record is
// zeroed and the reference path runs; its result or refusal is returned
// unchanged. Soundness therefore needs one property: fast acceptance
// implies reference acceptance with a deep-equal record. The tests check
// it rule by rule, on the fixtures and on every committed fuzz seed;
// FuzzFastPathSound checks it on arbitrary bytes (go test -fuzz
// FuzzFastPathSound ./campaign) and FuzzPatternMatchers compares the
// matchers with Go regexp. Refusals, with their reasons, pointers and
// details, are always the reference path's. The Go rules of a response
// have the same shape: responseClean answers without allocating whether
// the rules find nothing, and only a response it does not pass runs the
// rules that build the refusal (tested to agree on every fuzzed response).
//
// RootFS is the campaign file system of a directory opened with os.Root:
// as confined as os.Root's FS (same bytes, same errors, same refusal of
// links out of the campaign), with fewer system calls per file on Linux:
// paths resolve from a handle of the campaign directory without following
// any link (one openat2 with RESOLVE_NO_SYMLINKS, or component by component
// where the kernel lacks it), and anything else (a link, a file
// that is not regular, any error) falls back to os.Root. No handle below
// the campaign directory is kept between reads, so a directory renamed or
// replaced by a link is resolved as os.Root resolves it.
//
// Load reads and hashes the bound files and loads tasks and sessions on
// GOMAXPROCS goroutines; results keep manifest order and refusals are
// sorted, so the outcome does not depend on scheduling. Session files are
// read into reused buffers: their bytes are not kept after decoding.
//
// A malformed model answer is not a refusal: Load keeps it as
// Session.Failure, a valid scored failure (EVALUATOR-CONTROLS C16). B's
// reconciliation record is decided apart from the final answer
// (DecodeAnswer): a valid final with a refused record keeps its final and
// carries Session.LedgerFailure (CONTRACT §4).
//
// The on-disk format with one example of each file kind is documented in
// docs/campaign-format.md; a test decodes every example there.
package campaign
