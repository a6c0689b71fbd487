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
package campaign
