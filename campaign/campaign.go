package campaign

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
	// Tasks are the tasks in manifest order.
	Tasks []*Task
	// Sessions are all sessions in run order (D, A, B per run).
	Sessions []*Session
	// Prompts holds the prompt text bytes keyed by the PromptFiles field
	// name: "common", "draft", "review_a", "review_b", "final_schema",
	// "reconciliation_schema" (the Prompt* constants).
	Prompts map[string][]byte
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
	// Raw is the raw response bytes; nil when no response file exists
	// (not dispatched, error, interruption).
	Raw []byte
	// Response is the strictly decoded answer; nil when Raw is absent or
	// was refused by the strict loader.
	Response *Response
	// Failure explains why Response is nil when a response was expected:
	// a malformed, empty or refused model answer is a valid scored failure
	// (EVALUATOR-CONTROLS C16), not a refusal of the campaign.
	Failure *Error
	// Receipt is the session's receipt; nil when the receipt file is missing.
	Receipt *Receipt
}
