package campaign

// This file holds the data model of the second design, the conditional
// system comparison (CONTRACT §6; PROMPTS.md "Conditional system
// comparison: frozen investigation and packet procedure"). The on-disk
// format with one example of each file is in docs/campaign-format.md.

// Design names a campaign's design: the fixed-evidence ablation of CONTRACT
// §2–§5 or the conditional system comparison of CONTRACT §6.
type Design string

// The two designs of contract 741-v1.0.
const (
	DesignFixedEvidence    Design = "fixed-evidence"
	DesignSystemComparison Design = "system-comparison"
)

// SystemName is one of the three compared systems (CONTRACT §6).
type SystemName string

// The three systems of CONTRACT §6, in manifest order.
const (
	SystemNative SystemName = "native"
	SystemMadar  SystemName = "madar"
	SystemSerena SystemName = "serena"
)

// SystemNames lists the three systems in manifest order.
var SystemNames = []SystemName{SystemNative, SystemMadar, SystemSerena}

// Stages of a system workflow's two sessions (CONTRACT §6 "one
// investigation/draft session and one fresh review session").
const (
	RoleInvestigation Role = "investigation"
	RoleReview        Role = "review"
)

// The frozen §6 sample shape.
const (
	// SystemTasks is the number of fresh tasks (six from three repositories).
	SystemTasks = 6
	// SystemRepositories is the number of repositories, two tasks each.
	SystemRepositories = 3
	// SystemRepetitions is the number of repetitions per task.
	SystemRepetitions = 2
	// SystemWorkflows is tasks × repetitions × systems: 36.
	SystemWorkflows = SystemTasks * SystemRepetitions * 3
	// SystemPlannedSessions is two sessions per workflow: 72.
	SystemPlannedSessions = 2 * SystemWorkflows
	// PacketTokenLimit is the maximum returned raw-observation packet size
	// under the frozen tokenizer (PROMPTS.md "Maximum returned packet size
	// is 60,000 tokens").
	PacketTokenLimit = 60_000
)

// SystemManifest is manifest.json of a system-comparison campaign (CONTRACT
// §6, §7). Members shared with Manifest mean the same thing there.
type SystemManifest struct {
	ContractVersion string `json:"contract_version"`
	// Design is DesignSystemComparison.
	Design               Design           `json:"design"`
	Synthetic            bool             `json:"synthetic"`
	CampaignID           string           `json:"campaign_id"`
	Seed                 string           `json:"seed"`
	FrozenDocuments      []FrozenDocument `json:"frozen_documents"`
	ResponseSchemaSHA256 string           `json:"response_schema_sha256"`
	// FirstExperiment binds the fixed-evidence campaign whose decision
	// justified this comparison and selected the review instruction.
	FirstExperiment FirstExperiment `json:"first_experiment"`
	// SelectedReview is the review instruction the first experiment
	// selected (review-a or review-b), the same for all three systems.
	SelectedReview Role `json:"selected_review"`
	// Execution holds the host/model/tariff identities shared by every
	// session; its permission_policy is the review sessions' (no tools).
	Execution Execution `json:"execution"`
	// Systems are exactly Native, Madar and Serena, in that order.
	Systems []System `json:"systems"`
	// Prompts binds the prompt files of the two stages.
	Prompts SystemPromptFiles `json:"prompts"`
	// Tasks are the six tasks in frozen (seeded) order.
	Tasks []TaskEntry `json:"tasks"`
	// Workflows are the 36 workflows (plus at most one replacement).
	Workflows []Workflow `json:"workflows"`
	// Files binds every other file by SHA-256, sorted by path.
	Files []FileDigest `json:"files"`
}

// FirstExperiment names the fixed-evidence campaign and the report.json
// whose decision justified the system comparison (CONTRACT §6 "Only if the
// fixed-evidence result justifies it").
type FirstExperiment struct {
	CampaignID   string `json:"campaign_id"`
	ReportSHA256 string `json:"report_sha256"`
}

// System is one compared system's frozen identity (CONTRACT §6 table,
// COMPARATOR-SELECTION.md). A null digest or policy is a missing identity
// and fails admission; a provider or allowlist other than the contract's is
// refused at load (ReasonSystemIdentity).
type System struct {
	Name SystemName `json:"name"`
	// Provider is the pinned provider package; null for Native.
	Provider *Provider `json:"provider"`
	// MCPTools is the exact frozen MCP tool allowlist (empty for Native).
	MCPTools []string `json:"mcp_tools"`
	// OrdinaryTools are the ordinary approved read/search tools, the same
	// list in every system ("Native tools remain available to every system").
	OrdinaryTools []string `json:"ordinary_tools"`
	// ToolProfile is Madar's MADAR_TOOL_PROFILE ("core"); null otherwise.
	ToolProfile *string `json:"tool_profile"`
	// ConfigurationSHA256 is the digest of the frozen provider configuration.
	ConfigurationSHA256 *string `json:"configuration_sha256"`
	// RuntimeSHA256 is the digest of the runtime inventory (Node, Python,
	// language server, compiler versions and their sources).
	RuntimeSHA256 *string `json:"runtime_sha256"`
	// AdvertisedToolsSHA256 is the digest of the tool schemas the preflight
	// saw advertised.
	AdvertisedToolsSHA256 *string `json:"advertised_tools_sha256"`
	// PermissionPolicy is the investigation sessions' permission identity.
	PermissionPolicy *string `json:"permission_policy"`
}

// Provider is a pinned provider package (CONTRACT §6).
type Provider struct {
	Package      string `json:"package"`
	Version      string `json:"version"`
	SourceCommit string `json:"source_commit"`
	// Integrity is the package integrity string; null when the package has
	// none to record (a source pin) — then SourceCommit is the identity.
	Integrity *string `json:"integrity"`
}

// SystemPromptFiles names the prompt files of a system comparison: the
// standalone investigator instruction and the selected review's parts.
type SystemPromptFiles struct {
	Investigator string `json:"investigator"`
	Common       string `json:"common"`
	Review       string `json:"review"`
	FinalSchema  string `json:"final_schema"`
	// ReconciliationSchema is present only when the selected review is B.
	ReconciliationSchema *string `json:"reconciliation_schema"`
}

// Workflow is one complete system workflow: one investigation/draft session
// and one fresh review session of one system on one task repetition
// (CONTRACT §6).
type Workflow struct {
	ID         string     `json:"id"`
	Task       string     `json:"task"`
	Repetition int        `json:"repetition"`
	System     SystemName `json:"system"`
	// Position is 1, 2 or 3: the workflow's place in its block (the three
	// workflows of one task repetition); the block's permutation is its
	// systems by position.
	Position int              `json:"position"`
	Sessions WorkflowSessions `json:"sessions"`
	// Replaces is null, or the ID of the infrastructure-invalid workflow
	// this one replaces (the original stays, billed and reported).
	Replaces *string `json:"replaces"`
}

// WorkflowSessions names a workflow's two session IDs ("S<n>").
type WorkflowSessions struct {
	Investigation string `json:"investigation"`
	Review        string `json:"review"`
}

// SystemTruth is tasks/<T>/truth.json of a system comparison: the frozen
// repository-answerable obligations (the R_sys denominator shared by all
// three systems, independent of what any returns) and the separately frozen
// U set of requirements the allowed repository cannot answer (CONTRACT §6).
type SystemTruth struct {
	Task                 string             `json:"task"`
	RepositoryAnswerable []SystemObligation `json:"repository_answerable"`
	Unanswerable         []SystemObligation `json:"unanswerable"`
}

// SystemObligation is one frozen obligation of a system comparison. Its
// justification is source coordinates in the frozen repository (there is
// no packet before the investigation).
type SystemObligation struct {
	ID                   string      `json:"id"`
	Text                 string      `json:"text"`
	Critical             bool        `json:"critical"`
	Sources              []SourceRef `json:"sources"`
	AcceptedAlternatives []string    `json:"accepted_alternatives"`
	RequiredVerification string      `json:"required_verification"`
	JustifiedExclusions  []string    `json:"justified_exclusions"`
	SourceJustification  string      `json:"source_justification"`
}

// SourceRef is an inclusive, 1-based line span of a repository-relative path.
type SourceRef struct {
	Path      string `json:"path"`
	StartLine int    `json:"start_line"`
	EndLine   int    `json:"end_line"`
}

// Observation outcomes as the runner recorded them.
const (
	OutcomeOK        = "ok"
	OutcomeError     = "error"
	OutcomeEmpty     = "empty"
	OutcomeTruncated = "truncated"
	OutcomeTimeout   = "timeout"
)

// Tool kinds of an observation.
const (
	ToolOrdinary = "ordinary"
	ToolMCP      = "mcp"
)

// SerenaInitialInstructions is the one declared tool-result exception:
// Serena's manual, setup overhead and never evidence (PROMPTS.md).
const SerenaInitialInstructions = "initial_instructions"

// ObservationLog is observations/<S>.json: the runner's record of every
// tool call of one investigation session, in call order, with exact bytes.
type ObservationLog struct {
	Session  string     `json:"session"`
	Workflow string     `json:"workflow"`
	System   SystemName `json:"system"`
	// Tokenizer is the frozen tokenizer identity the counts use; it must
	// equal the manifest's execution.tokenizer.
	Tokenizer string            `json:"tokenizer"`
	Calls     []ObservationCall `json:"calls"`
}

// ObservationCall is one recorded tool call.
type ObservationCall struct {
	CallID string `json:"call_id"`
	Tool   string `json:"tool"`
	Kind   string `json:"kind"`
	// Server names the MCP server (the system) for MCP calls; null for ordinary.
	Server *string `json:"server"`
	// Arguments is the exact JSON text of the original request arguments.
	Arguments             string  `json:"arguments"`
	RequestedUTC          string  `json:"requested_utc"`
	CompletedUTC          *string `json:"completed_utc"`
	RequestMonotonicNS    int64   `json:"request_monotonic_ns"`
	CompletionMonotonicNS *int64  `json:"completion_monotonic_ns"`
	// Delivered is true when the result reached the investigator; only
	// delivered calls become evidence items.
	Delivered bool   `json:"delivered"`
	Outcome   string `json:"outcome"`
	// ResponseBase64 is the exact response bytes, standard base64.
	ResponseBase64 string `json:"response_base64"`
	// Metadata is the original response metadata, verbatim JSON text.
	Metadata string `json:"metadata"`
	// DeclaredSources are the source coordinates the provider itself
	// declared; empty for plain output (never invented).
	DeclaredSources []SourceRef `json:"declared_sources"`
	// Tokens is the runner-recorded token count of the response bytes
	// under the frozen tokenizer.
	Tokens int64 `json:"tokens"`
}

// Packet statuses.
const (
	PacketDelivered              = "delivered"
	PacketEmpty                  = "empty"
	PacketEvidenceBudgetExceeded = "evidence_budget_exceeded"
)

// ObservationPacket is packets/<W>.json: the raw-observation packet of one
// workflow (PROMPTS.md packet procedure), distinguished from the
// authenticated excerpt packets of the first experiment by Kind.
type ObservationPacket struct {
	// Kind is "raw-observation".
	Kind     string     `json:"kind"`
	Workflow string     `json:"workflow"`
	Session  string     `json:"session"`
	System   SystemName `json:"system"`
	// LogSHA256 is the SHA-256 of observations/<S>.json the packet was built from.
	LogSHA256 string `json:"log_sha256"`
	Tokenizer string `json:"tokenizer"`
	// Counting says how Tokens was counted: "library:<name>" or "runner-recorded".
	Counting string `json:"counting"`
	// Tokens is the packet's size: the sum of its items' tokens.
	Tokens int64 `json:"tokens"`
	// Status is delivered, empty (no observation) or evidence_budget_exceeded.
	Status string            `json:"status"`
	Items  []ObservationItem `json:"items"`
	// SetupOverhead holds the declared Serena initial_instructions calls,
	// charged as setup overhead and never evidence.
	SetupOverhead []SetupObservation `json:"setup_overhead"`
}

// PacketKindRawObservation is ObservationPacket.Kind.
const PacketKindRawObservation = "raw-observation"

// ObservationItem is one evidence item E<n> of a raw-observation packet:
// one delivered observation, copied verbatim from the log.
type ObservationItem struct {
	ID                    string      `json:"id"`
	CallID                string      `json:"call_id"`
	Tool                  string      `json:"tool"`
	Kind                  string      `json:"kind"`
	Server                *string     `json:"server"`
	Arguments             string      `json:"arguments"`
	RequestedUTC          string      `json:"requested_utc"`
	CompletedUTC          string      `json:"completed_utc"`
	CompletionMonotonicNS int64       `json:"completion_monotonic_ns"`
	Outcome               string      `json:"outcome"`
	ResponseBase64        string      `json:"response_base64"`
	ResponseSHA256        string      `json:"response_sha256"`
	ResponseBytes         int64       `json:"response_bytes"`
	Metadata              string      `json:"metadata"`
	DeclaredSources       []SourceRef `json:"declared_sources"`
	Tokens                int64       `json:"tokens"`
}

// SetupObservation is a declared setup call kept out of the evidence.
type SetupObservation struct {
	CallID         string `json:"call_id"`
	Tool           string `json:"tool"`
	ResponseSHA256 string `json:"response_sha256"`
	ResponseBytes  int64  `json:"response_bytes"`
	Tokens         int64  `json:"tokens"`
}

// Inner is the receipt members a system receipt shares with the first
// experiment's, nil for a nil r.
func (r *SystemReceipt) Inner() *Receipt {
	if r == nil {
		return nil
	}
	return &r.Receipt
}

// SystemReceipt is receipts/<S>.json of a system comparison: the
// first experiment's Receipt (the same members, inline) plus the workflow
// and system, and for an investigation the delivered provider identities
// compared with the manifest (a mismatch is invalid execution).
type SystemReceipt struct {
	Receipt  `json:",inline"`
	Workflow string     `json:"workflow"`
	System   SystemName `json:"system"`
	// Delivered identities of the investigation session; null in a review.
	ConfigurationSHA256   *string `json:"configuration_sha256"`
	RuntimeSHA256         *string `json:"runtime_sha256"`
	AdvertisedToolsSHA256 *string `json:"advertised_tools_sha256"`
}

// Setup steps, the values of SetupPhase.Phase (CONTRACT §6 "cold setup/index/startup/readiness/refresh").
const (
	StepSetup     = "setup"
	StepIndex     = "index"
	StepStartup   = "startup"
	StepReadiness = "readiness"
	StepRefresh   = "refresh"
)

// SetupRecord is setup.json: every setup cost of the campaign, charged and
// never amortised away (CONTRACT §6).
type SetupRecord struct {
	// Cold holds one entry per system and repository (nine).
	Cold []ColdSetup `json:"cold"`
	// SessionStartup holds each fresh server's per-session activation and
	// first-query loading (the warm condition), one per workflow that has one.
	SessionStartup []SessionStartup `json:"session_startup"`
	// InitialInstructions lists every Serena initial_instructions call.
	InitialInstructions []InitialInstructions `json:"initial_instructions"`
	// Preparation lists model sessions outside the planned 72 (smoke
	// fixture, preflight, preparation): they count against the 90-session,
	// token, time and cost ceilings.
	Preparation []PreparationSession `json:"preparation"`
}

// ColdSetup is the cold setup/index/startup/readiness of one system on one
// repository, attributed to the first workflow of that system on it.
type ColdSetup struct {
	System     SystemName `json:"system"`
	Repository string     `json:"repository"`
	// Workflow is the attributed workflow; its 12 minutes include Phases.
	Workflow string       `json:"workflow"`
	Phases   []SetupPhase `json:"phases"`
	// ChargeMicroUSD is the attributable actual charge; null when none can
	// be attributed (unknown, never zero).
	ChargeMicroUSD *int64 `json:"charge_micro_usd"`
}

// SetupPhase is one timed setup phase.
type SetupPhase struct {
	Phase            string `json:"phase"`
	StartedUTC       string `json:"started_utc"`
	EndedUTC         string `json:"ended_utc"`
	StartMonotonicNS int64  `json:"start_monotonic_ns"`
	EndMonotonicNS   int64  `json:"end_monotonic_ns"`
	// Status is ok, timeout or error; a timeout is a product outcome.
	Status string `json:"status"`
	// Operations counts the ordinary/provider operations of the phase.
	Operations int `json:"operations"`
}

// SessionStartup is a fresh server's startup within one workflow.
type SessionStartup struct {
	Workflow string       `json:"workflow"`
	Phases   []SetupPhase `json:"phases"`
}

// InitialInstructions records one Serena initial_instructions call: its
// whole response is setup/manual overhead (PROMPTS.md).
type InitialInstructions struct {
	Workflow       string `json:"workflow"`
	Session        string `json:"session"`
	CallID         string `json:"call_id"`
	ResponseSHA256 string `json:"response_sha256"`
	ResponseBytes  int64  `json:"response_bytes"`
	Tokens         int64  `json:"tokens"`
}

// PreparationSession is one model session outside the planned workflows.
type PreparationSession struct {
	ID             string `json:"id"`
	Purpose        string `json:"purpose"`
	StartedUTC     string `json:"started_utc"`
	EndedUTC       string `json:"ended_utc"`
	DurationNS     int64  `json:"duration_ns"`
	Meter          *Meter `json:"meter"`
	ChargeMicroUSD *int64 `json:"charge_micro_usd"`
}

// System-comparison file layout (campaign-relative), beside the shared
// tasks/, sources/, prompts/, responses/ and receipts/ directories.
const (
	// ObservationsDir holds observations/<S>.json, one log per investigation session.
	ObservationsDir = "observations"
	// PacketsDir holds packets/<W>.json, one raw-observation packet per workflow.
	PacketsDir = "packets"
	// SetupFile is setup.json, the setup record.
	SetupFile = "setup.json"
)

// ObservationLogFile returns "observations/<session>.json".
func ObservationLogFile(session string) string { return ObservationsDir + "/" + session + ".json" }

// PacketFile returns "packets/<workflow>.json".
func PacketFile(workflow string) string { return PacketsDir + "/" + workflow + ".json" }

// DraftPath returns "responses/<session>.txt", an investigation's plain-text draft.
func DraftPath(session string) string { return ResponsesDir + "/" + session + ".txt" }
