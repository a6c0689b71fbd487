package campaign

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"verdict/verr"
)

// Campaign file layout (campaign-relative, slash separated). Every file
// except manifest.json is bound by SHA-256 in Manifest.Files.
const (
	// ManifestFile is the campaign's manifest.
	ManifestFile = "manifest.json"
	// TasksDir holds one directory per task: tasks/<id>/{task.md,packet.json,truth.json}.
	TasksDir = "tasks"
	// ResponsesDir holds responses/<session>.json, the raw model output bytes.
	ResponsesDir = "responses"
	// ReceiptsDir holds receipts/<session>.json.
	ReceiptsDir = "receipts"
	// SourcesDir holds the whole source files: sources/<owner>/<name>/<path>.
	SourcesDir = "sources"
	// PromptsDir holds the frozen prompt texts.
	PromptsDir = "prompts"
	// GuidelinesFile is the campaign's optional rating guidelines
	// (Markdown text for raters and the adjudicator). When present it must
	// be bound in Manifest.Files like every other file; blinding carries it
	// in every bundle. It reaches no model session.
	GuidelinesFile = "guidelines.md"
)

// TaskTextPath returns "tasks/<id>/task.md".
func TaskTextPath(task string) string { return TasksDir + "/" + task + "/task.md" }

// PacketPath returns "tasks/<id>/packet.json".
func PacketPath(task string) string { return TasksDir + "/" + task + "/packet.json" }

// TruthPath returns "tasks/<id>/truth.json".
func TruthPath(task string) string { return TasksDir + "/" + task + "/truth.json" }

// ResponsePath returns "responses/<session>.json".
func ResponsePath(session string) string { return ResponsesDir + "/" + session + ".json" }

// ReceiptPath returns "receipts/<session>.json".
func ReceiptPath(session string) string { return ReceiptsDir + "/" + session + ".json" }

// SourcePath returns "sources/<repository>/<path>" for an evidence item's file.
func SourcePath(repository, path string) string { return SourcesDir + "/" + repository + "/" + path }

// Campaign is a strictly loaded campaign: the manifest and, in manifest
// order, every task and every session. It is produced by Load and read by
// the blinding, adjudication and scorer packages.
type Campaign struct {
	// Manifest is the decoded manifest.json.
	Manifest Manifest
	// ManifestSHA256 is the SHA-256 (64 lowercase hex digits) of the exact
	// manifest.json bytes Load decoded.
	ManifestSHA256 string
	// Tasks are the tasks in manifest order.
	Tasks []*Task
	// Sessions are all sessions in run order (D, A, B per run).
	Sessions []*Session
	// Prompts holds the prompt text bytes keyed by the PromptFiles field
	// name: "common", "draft", "review_a", "review_b", "final_schema",
	// "reconciliation_schema" (the Prompt* constants).
	Prompts map[string][]byte

	// Guidelines are the bytes of GuidelinesFile when the manifest binds
	// it (valid UTF-8), else nil.
	Guidelines []byte

	// fsys is the campaign root Load read; RawResponse re-reads a
	// session's bound response file from it.
	fsys fs.FS
}

// Task is one loaded task: its manifest entry, text, packet and truth.
type Task struct {
	Entry  TaskEntry
	Text   []byte
	Packet Packet
	Truth  Truth
}

// Session is one loaded session of a run.
type Session struct {
	// ID is the session ID "S<n>".
	ID string
	// Role is draft, review-a or review-b.
	Role Role
	// Run is the manifest run this session belongs to.
	Run Run
	// Raw is the raw response bytes when the caller holds them (a
	// campaign built in memory). Load leaves it nil: it decodes each
	// response file and releases its bytes (a campaign of 10,000 sessions
	// would otherwise keep every answer twice); RawSHA256 and RawSize
	// identify them and Campaign.RawResponse reads them again, verified.
	Raw []byte
	// RawSHA256 is the SHA-256 (64 lowercase hex digits) of the response
	// file's bytes as bound by the manifest; "" when no response file
	// exists (not dispatched, error, interruption).
	RawSHA256 string
	// RawSize is the response file's length in bytes; 0 when it is absent.
	RawSize int
	// Response is the strictly decoded answer; nil when no response file
	// exists or it was refused by the strict loader.
	Response *Response
	// Failure explains why Response is nil when a response was expected:
	// a malformed, empty or refused model answer is a valid scored failure
	// (EVALUATOR-CONTROLS C16), not a refusal of the campaign.
	Failure *verr.Error
	// LedgerFailure is the refusal of B's reconciliation record when the
	// final answer itself is valid (DecodeAnswer): Response holds the final
	// answer with Reconciliation nil, the answer is graded as any other,
	// and only this review's protocol gate fails (CONTRACT §4). nil
	// otherwise.
	LedgerFailure *verr.Error
	// Receipt is the session's receipt; nil when the receipt file is missing.
	Receipt *Receipt
}

// RawResponse returns the raw response bytes of session s: s.Raw when it is
// set, otherwise the bound file responses/<id>.json read again from the
// campaign root Load read and checked against s.RawSHA256 (CONTRACT §7).
// It returns nil, nil when the session has no response file. Errors: a
// *Error with ReasonFileMissing (unreadable, or no campaign root) or
// ReasonFileDigest (the file changed since Load).
func (c *Campaign) RawResponse(s *Session) ([]byte, error) {
	return c.RawResponseInto(s, nil)
}

// RawResponseInto is RawResponse reading the file into buf when buf is
// large enough (a caller reading many responses one after another reuses
// one buffer): the bytes returned may share buf's memory, and are valid
// until buf is used again; s.Raw is returned as it is.
func (c *Campaign) RawResponseInto(s *Session, buf []byte) ([]byte, error) {
	if s.Raw != nil || s.RawSHA256 == "" {
		return s.Raw, nil
	}
	path := ResponsePath(s.ID)
	if c.fsys == nil {
		return nil, &verr.Error{Reason: ReasonFileMissing, File: path, Rule: RuleFileIdentity,
			Detail: "the campaign was not loaded from a directory; the response bytes are not available"}
	}
	b, err := readInto(c.fsys, path, buf)
	if e, ok := asRefusal(err); ok {
		return nil, e
	}
	if err != nil {
		return nil, &verr.Error{Reason: ReasonFileMissing, File: path, Rule: RuleFileIdentity,
			Detail: fmt.Sprintf("cannot read the response again: %v", err), Err: err}
	}
	sum := sha256.Sum256(b)
	if got := hex.EncodeToString(sum[:]); got != s.RawSHA256 {
		return nil, &verr.Error{Reason: ReasonFileDigest, File: path, Rule: RuleFileIdentity,
			Detail: fmt.Sprintf("the file hashes to %s, the manifest binds %s (it changed after loading)", got, s.RawSHA256)}
	}
	return b, nil
}
