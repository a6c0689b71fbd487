// Package blinding builds the rater bundles and the sealed unblinding map
// of a campaign (CONTRACT §5 last paragraph: quality reviewers see
// anonymised final answers and the frozen truth, but no costs, arm labels,
// reconciliation fields or prior scores; DESIGN "Data flow").
//
// It owns:
//   - the bundle format (Bundle, Item, Excerpt, Obligation): one bundle per
//     rater, holding per bundled item an opaque item ID, the task text, the
//     packet excerpts, the frozen truth obligations and the final answer only;
//   - opaque item IDs: HMAC-SHA256 of the session ID under a secret key that
//     is stored only in the sealed map;
//   - the per-rater shuffle, seeded deterministically from the campaign seed
//     and the rater name, and recorded in the bundle;
//   - the sealed unblinding map (SealedMap) and its SHA-256 commitment, which
//     every bundle carries;
//   - the digests that bind ratings to a bundle: the bundle digest (SHA-256
//     of the canonical bundle bytes, one per rater), the content digest (the
//     same for every rater: SHA-256 of the items sorted by item ID) and the
//     obligations digest;
//   - the leak scan (Scanner) that reports forbidden field names and revealing
//     tokens found in bundle text, for disclosure in the report, matched on
//     normalised text (Normalize: NFKD, format characters and combining
//     marks removed, confusables folded), plus the context rules of
//     leak_context.go (arm vocabulary, money amounts, token counts, control
//     characters), each finding naming the rule that made it;
//   - strict canonical decoding of records and bundles (UnmarshalStrict).
//
// Which obligation fields a rater sees: the whole frozen truth obligation
// (id, text, critical, answerable, evidence IDs, accepted alternatives,
// required verification, justified exclusions, source justification). The
// evidence IDs are part of the frozen truth the contract lets reviewers see
// and tell a source-based rater which packet excerpts resolve the
// obligation; none of these fields depends on the arm.
//
// What is never bundled: the shared draft D, answers scored automatically
// (Session.Response == nil: malformed, refused, timed out, not dispatched),
// arm labels, reconciliation records, receipts, cost, token counts,
// durations, model or session identity, repetition and dispatch order.
//
// Files: bundle.go holds the bundle, item and sealed-map types and the
// opaque IDs; bundle_build.go builds and derives bundles (Build, Derive);
// bundle_digest.go the content, obligations and item digests and the item
// encoding; bundle_parse.go the strict, canonical reading of bundle and
// map files (ParseBundle, LoadBundle, ParseSealedMap); bundle_stream.go
// and form.go the streamed bundle forms; leak*.go the leak scan.
//
// The package does not read ratings.
package blinding
