// Package assemble builds a campaign's inputs from material made outside
// verdict, so a coordinator needs no scripts of their own:
//
//   - BuildPacket and WritePacket make a task's evidence packet and its
//     sources/ files from the blobs of a git repository at one commit
//     (GitRepo reads them through the git binary, never the work tree);
//   - Bind binds the SHA-256 of every campaign file in manifest.json and
//     refuses to rebind a frozen input or a result once sessions ran or a
//     blinding exists;
//   - Import turns the log of a real run (the JSONL event stream of
//     `codex exec --json`, or an OpenAI Responses API response with its
//     usage object) and the runner's timing file into responses/S.json and
//     receipts/S.json.
//
// Nothing here calls a model (CLI-HANDOFF: no live mode). Refusals are
// *verr.Error values with their own reason codes. Files are written
// atomically (fsutil) and a file the user already has is never replaced by
// different bytes: that is refused instead.
package assemble
