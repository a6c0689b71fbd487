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
// line order and the role-dependent reconciliation rule; each rule is
// written once, and on a response they accept they allocate nothing (the
// refusal's pointer and detail are made only when it is). DecodeManifest,
// DecodePacket, DecodeTruth, DecodeResponse and DecodeReceipt return the
// first refusal of one file; Load returns every refusal of a campaign.
//
// Two paths decide the first two layers, with the same records and the
// same refusals: a fast accept pass (campaign/internal/fastaccept, which
// only ever answers "accepted" or "not sure") and the reference path
// above, which decides everything the pass does not accept and makes
// every refusal. LoadWith with LoadOptions.ReferenceOnly (verdict check
// --reference) runs the reference path alone. The tests compare the two
// paths on every fixture and fuzz seed, and FuzzFastPathSound on arbitrary
// bytes.
//
// RootFS is the campaign file system of a directory opened with os.Root,
// exactly as confined as os.Root's (the same bytes, errors and refusals of
// links out of the campaign) and cheaper per file on Linux.
//
// Load's outcome does not depend on scheduling (results keep manifest
// order, refusals are sorted), and it keeps no session file's bytes after
// decoding (Campaign.RawResponse reads a response again).
//
// A malformed model answer is not a refusal: Load keeps it as
// Session.Failure, a valid scored failure (EVALUATOR-CONTROLS C16). B's
// reconciliation record is decided apart from the final answer
// (DecodeAnswer): a valid final with a refused record keeps its final and
// carries Session.LedgerFailure (CONTRACT §4).
//
// A manifest names its design in the top-level member "design"
// (ManifestDesign), absent for fixed-evidence; a loaded campaign of either
// design is a Loaded. What a design decides is the scorer's (scorer.Design).
//
// The on-disk format with one example of each file kind is documented in
// docs/campaign-format.md; a test decodes every example there.
package campaign
