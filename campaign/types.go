package campaign

// ContractVersion is the only contract version this build accepts
// (CONTRACT, "Frozen document identities": version 741-v1.0).
const ContractVersion = "741-v1.0"

// Phase names the campaign phase (CONTRACT §2, §5).
type Phase string

// The three phases of a first-experiment campaign (CONTRACT §5).
const (
	PhaseDevelopmentRound1 Phase = "development-round-1"
	PhaseDevelopmentRound2 Phase = "development-round-2"
	PhaseEvaluation        Phase = "evaluation"
)

// Category is a task's stratum (CONTRACT §3: two of each in evaluation).
type Category string

// The four task categories of CONTRACT §3.
const (
	CategoryBehaviorExplanation Category = "behavior-explanation"
	CategoryChangeImpactPlan    Category = "change-impact-plan"
	CategoryCorrectnessBoundary Category = "correctness-boundary"
	CategoryExplicitUncertainty Category = "explicit-uncertainty"
)

// Order is the dispatch order of a repetition's two reviews (CONTRACT §2).
type Order string

// The two counterbalanced orders (CONTRACT §2: 12 A-first, 12 B-first).
const (
	OrderAFirst Order = "A-first"
	OrderBFirst Order = "B-first"
)

// Role is a session's role: the shared draft D or one of the two reviews
// (CONTRACT §2, PROMPTS.md).
type Role string

// The three session roles.
const (
	RoleDraft   Role = "draft"
	RoleReviewA Role = "review-a"
	RoleReviewB Role = "review-b"
)

// Manifest is manifest.json, the frozen description of one campaign
// (CONTRACT §2–§3, §7). Every file the campaign holds is bound by SHA-256
// in Files; the response schema is bound by ResponseSchemaSHA256.
type Manifest struct {
	// ContractVersion must equal ContractVersion ("741-v1.0").
	ContractVersion string `json:"contract_version"`
	// Synthetic is true for inert synthetic fixtures; every output made
	// from a synthetic campaign says SYNTHETIC in its first lines.
	Synthetic bool `json:"synthetic"`
	// CampaignID is a free, trimmed identifier of this campaign.
	CampaignID string `json:"campaign_id"`
	// Phase is the campaign phase.
	Phase Phase `json:"phase"`
	// Seed is the random seed frozen before task selection, as 64 hex digits.
	Seed string `json:"seed"`
	// FrozenDocuments are the contract documents and their SHA-256 digests
	// (CONTRACT "Frozen document identities"), sorted by name.
	FrozenDocuments []FrozenDocument `json:"frozen_documents"`
	// ResponseSchemaSHA256 is the SHA-256 (64 lowercase hex digits) of the
	// embedded response JSON Schema the campaign was frozen against.
	ResponseSchemaSHA256 string `json:"response_schema_sha256"`
	// Execution holds the execution identities of CONTRACT §5 and §7. A
	// field that is null is a missing identity and fails admission.
	Execution Execution `json:"execution"`
	// Prompts binds the prompt files (campaign-relative paths).
	Prompts PromptFiles `json:"prompts"`
	// Tasks lists every task of the campaign in frozen (seeded) order.
	Tasks []TaskEntry `json:"tasks"`
	// Runs lists every repetition: one shared draft and two reviews.
	Runs []Run `json:"runs"`
	// Files binds every other file of the campaign by SHA-256, sorted by path.
	Files []FileDigest `json:"files"`
	// PreviousRound names the campaign of the round before this one
	// (CONTRACT §5 round discipline); null for development round 1.
	PreviousRound *PreviousRound `json:"previous_round"`
}

// PreviousRound binds the earlier round of a campaign (CONTRACT §5: round
// 1, then one revision of B's instruction, round 2 as the only development
// admission check, then evaluation with the frozen prompt). A development
// round-2 manifest names its round-1 campaign; an evaluation manifest
// names its round-2 campaign and the report.json whose decision admitted
// it. `verdict check --previous DIR [--previous-report FILE]` checks the
// binding against those files.
type PreviousRound struct {
	// Phase is the earlier round's phase: development-round-1 for a
	// round-2 manifest, development-round-2 for an evaluation manifest.
	Phase Phase `json:"phase"`
	// CampaignID is the earlier campaign's campaign_id.
	CampaignID string `json:"campaign_id"`
	// ManifestSHA256 is the SHA-256 of the earlier manifest.json bytes.
	ManifestSHA256 string `json:"manifest_sha256"`
	// ReportSHA256 is the SHA-256 of the round-2 report.json bytes whose
	// decision admitted evaluation; null for a round-2 manifest.
	ReportSHA256 *string `json:"report_sha256"`
}

// FrozenDocument is one frozen contract document identity.
type FrozenDocument struct {
	Name   string `json:"name"`
	SHA256 string `json:"sha256"`
}

// FileDigest binds one campaign-relative file path to its SHA-256.
type FileDigest struct {
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
}

// PromptFiles names the campaign-relative prompt text files (PROMPTS.md):
// the common instruction, one instruction per role, the common
// final-answer schema every session receives and the reconciliation schema
// with its ledger rules that only B receives. RenderPrompt assembles them.
type PromptFiles struct {
	Common  string `json:"common"`
	Draft   string `json:"draft"`
	ReviewA string `json:"review_a"`
	ReviewB string `json:"review_b"`
	// FinalSchema is the common final-answer schema text (all roles).
	FinalSchema string `json:"final_schema"`
	// ReconciliationSchema is the reconciliation schema and ledger rules (B only).
	ReconciliationSchema string `json:"reconciliation_schema"`
}

// Execution is the set of execution identities a real run must bind
// (CONTRACT §5, §7). Each pointer is null when the identity is unknown; a
// null identity is listed by name and fails admission. Synthetic campaigns
// carry synthetic values labelled as such.
type Execution struct {
	// ConsumerVersion is the pinned agent host, e.g. "Codex CLI 0.149.0".
	ConsumerVersion *string `json:"consumer_version"`
	// ExecutableSHA256 is the resolved executable hash.
	ExecutableSHA256 *string `json:"executable_sha256"`
	// Model is the model identifier requested for every session.
	Model *string `json:"model"`
	// ModelSnapshot is the immutable snapshot identity, if the provider has one.
	ModelSnapshot *string `json:"model_snapshot"`
	// ReasoningEffort is the requested effort, e.g. "medium".
	ReasoningEffort *string `json:"reasoning_effort"`
	// Tokenizer is the tokenizer/counting identity.
	Tokenizer *string `json:"tokenizer"`
	// Host is the recorded host/OS/CPU/RAM description.
	Host *string `json:"host"`
	// PermissionPolicy is the frozen permission identity (no tools, no MCP).
	PermissionPolicy *string `json:"permission_policy"`
	// PriceCard is the frozen reference rate card; null when no defensible
	// tariff exists (then the cost gate cannot pass).
	PriceCard *PriceCard `json:"price_card"`
	// TariffVerified records that the rate card was checked for the exact model.
	TariffVerified *bool `json:"tariff_verified"`
	// ReservationEnforced records that per-request worst-case reservation is
	// enforced before dispatch (CONTRACT §5).
	ReservationEnforced *bool `json:"reservation_enforced"`
	// OracleFrozen records that truth files were frozen by an independent checker.
	OracleFrozen *bool `json:"oracle_frozen"`
}

// PriceCard is a reference tariff in exact integers: each rate is micro-USD
// (10^-6 USD) per million tokens, so rate × tokens is an exact cost in
// pico-USD (10^-12 USD). The contract card (CONTRACT §5) is US$4 uncached
// input, US$0.40 cached input and US$20 output per million tokens:
// 4000000, 400000 and 20000000.
type PriceCard struct {
	// ID names the card, e.g. "codex-work-2026-09-05".
	ID string `json:"id"`
	// UncachedInputMicroUSDPerMTok is micro-USD per million uncached input tokens.
	UncachedInputMicroUSDPerMTok int64 `json:"uncached_input_micro_usd_per_mtok"`
	// CachedInputMicroUSDPerMTok is micro-USD per million cached input tokens.
	CachedInputMicroUSDPerMTok int64 `json:"cached_input_micro_usd_per_mtok"`
	// OutputMicroUSDPerMTok is micro-USD per million billed output tokens.
	OutputMicroUSDPerMTok int64 `json:"output_micro_usd_per_mtok"`
}

// TaskEntry is one task of the manifest. Files live under tasks/<id>/:
// task.md (task text), packet.json and truth.json.
type TaskEntry struct {
	// ID is "T<n>".
	ID string `json:"id"`
	// Repository is the "owner/name" repository the task investigates.
	Repository string `json:"repository"`
	// Category is the task's stratum.
	Category Category `json:"category"`
}

// Run is one repetition of one task: the shared draft D and the two review
// sessions A and B, dispatched in Order (CONTRACT §2).
type Run struct {
	Task       string   `json:"task"`
	Repetition int      `json:"repetition"`
	Order      Order    `json:"order"`
	Sessions   Sessions `json:"sessions"`
	// Replaces is null for an original run. For the one permitted
	// infrastructure replacement triplet (CONTRACT §5 "One
	// infrastructure-invalid complete triplet may be replaced") it is the
	// shared-draft session ID ("S<n>") of the earlier run of the same task
	// and repetition that this run replaces; the original stays in the
	// campaign, billed and reported, and this run is scored in its place.
	Replaces *string `json:"replaces"`
}

// Sessions names the three session IDs ("S<n>") of a run. Each session has
// responses/<id>.json (raw model output, possibly malformed or absent when
// not dispatched) and receipts/<id>.json.
type Sessions struct {
	Draft   string `json:"draft"`
	ReviewA string `json:"review_a"`
	ReviewB string `json:"review_b"`
}

// Packet is tasks/<id>/packet.json: the immutable evidence packet of one
// task, 6–12 evidence items (CONTRACT §3).
type Packet struct {
	Task string `json:"task"`
	// CompleteByConstruction marks a packet intentionally built to be
	// complete; it cannot support a retrieval-quality claim (CONTRACT §3).
	CompleteByConstruction bool           `json:"complete_by_construction"`
	Items                  []EvidenceItem `json:"items"`
}

// EvidenceItem is one authentic source excerpt E<n> (CONTRACT §3). Lines are
// inclusive and 1-based; Excerpt holds exactly EndLine−StartLine+1 physical
// lines (a final newline does not make a line; CRLF is one break). The whole
// source file is stored at sources/<repository>/<path> in the campaign and
// must hash to FileSHA256.
type EvidenceItem struct {
	ID         string `json:"id"`
	Repository string `json:"repository"`
	Commit     string `json:"commit"`
	Path       string `json:"path"`
	StartLine  int    `json:"start_line"`
	EndLine    int    `json:"end_line"`
	FileSHA256 string `json:"file_sha256"`
	Excerpt    string `json:"excerpt"`
}

// Truth is tasks/<id>/truth.json: the frozen oracle of one task, 4–8
// obligations with at least two answerable from the packet (CONTRACT §3–§4).
type Truth struct {
	Task        string            `json:"task"`
	Obligations []TruthObligation `json:"obligations"`
}

// TruthObligation is one frozen requirement (CONTRACT §3).
type TruthObligation struct {
	// ID is "O<n>".
	ID   string `json:"id"`
	Text string `json:"text"`
	// Critical marks a critical obligation (CONTRACT §4).
	Critical bool `json:"critical"`
	// Answerable is true when the packet holds the evidence to resolve it;
	// false means uncertainty handling U applies (CONTRACT §4).
	Answerable bool `json:"answerable"`
	// EvidenceIDs are the packet items that justify the obligation.
	EvidenceIDs          []string `json:"evidence_ids"`
	AcceptedAlternatives []string `json:"accepted_alternatives"`
	RequiredVerification string   `json:"required_verification"`
	JustifiedExclusions  []string `json:"justified_exclusions"`
	SourceJustification  string   `json:"source_justification"`
}

// Response is one session's answer, exactly the PROMPTS.md "Exact response
// contract" top level: Reconciliation is null for D and A and an object for B.
type Response struct {
	Final          Final           `json:"final"`
	Reconciliation *Reconciliation `json:"reconciliation"`
}

// Final is the final answer shown to semantic graders. Array maxima:
// claims 32, implementation_plan 32, verification_plan 32, uncertainties 32,
// exclusions 64, citations 128 (PROMPTS.md).
type Final struct {
	Claims             []Claim        `json:"claims"`
	ImplementationPlan []Action       `json:"implementation_plan"`
	VerificationPlan   []Verification `json:"verification_plan"`
	Uncertainties      []Uncertainty  `json:"uncertainties"`
	Exclusions         []Exclusion    `json:"exclusions"`
	Citations          []Citation     `json:"citations"`
}

// Claim statuses (PROMPTS.md).
const (
	ClaimSourceBacked = "source_backed"
	ClaimInference    = "inference"
	ClaimUnknown      = "unknown"
)

// Claim is one final claim (PROMPTS.md).
type Claim struct {
	ID            string   `json:"id"`
	Text          string   `json:"text"`
	Status        string   `json:"status"`
	EvidenceIDs   []string `json:"evidence_ids"`
	UncertaintyID *string  `json:"uncertainty_id"`
}

// Support bases (PROMPTS.md).
const (
	BasisSource        = "source"
	BasisTask          = "task"
	BasisMissingSource = "missing_source"
)

// Action is one implementation-plan step (PROMPTS.md).
type Action struct {
	ID                     string   `json:"id"`
	Action                 string   `json:"action"`
	Rationale              string   `json:"rationale"`
	SupportBasis           string   `json:"support_basis"`
	EvidenceIDs            []string `json:"evidence_ids"`
	VerificationIDs        []string `json:"verification_ids"`
	VerificationLimitation *string  `json:"verification_limitation"`
}

// Verification is one verification-plan step (PROMPTS.md).
type Verification struct {
	ID               string   `json:"id"`
	ExpectedBehavior string   `json:"expected_behavior"`
	Method           string   `json:"method"`
	SupportBasis     string   `json:"support_basis"`
	EvidenceIDs      []string `json:"evidence_ids"`
	UncertaintyID    *string  `json:"uncertainty_id"`
}

// Uncertainty is one named unknown with a bounded verification step.
type Uncertainty struct {
	ID                 string `json:"id"`
	MissingInformation string `json:"missing_information"`
	Consequence        string `json:"consequence"`
	VerificationStep   string `json:"verification_step"`
}

// Exclusion is one justified scope exclusion; its reason is visible to graders.
type Exclusion struct {
	ID          string   `json:"id"`
	ScopeItem   string   `json:"scope_item"`
	Reason      string   `json:"reason"`
	EvidenceIDs []string `json:"evidence_ids"`
}

// Citation ties an evidence span to final C/A/V/X IDs it supports.
type Citation struct {
	EvidenceID string   `json:"evidence_id"`
	Path       string   `json:"path"`
	StartLine  int      `json:"start_line"`
	EndLine    int      `json:"end_line"`
	Supports   []string `json:"supports"`
}

// Reconciliation is B's ledger: 1–16 obligations and exactly one
// disposition per packet E ID (PROMPTS.md).
type Reconciliation struct {
	Obligations          []LedgerObligation `json:"obligations"`
	EvidenceDispositions []Disposition      `json:"evidence_dispositions"`
}

// Ledger obligation statuses (PROMPTS.md).
const (
	ObligationAddressed  = "addressed"
	ObligationExcluded   = "excluded"
	ObligationUnresolved = "unresolved"
)

// LedgerObligation is one agent-derived obligation of B's ledger.
type LedgerObligation struct {
	ID          string   `json:"id"`
	Text        string   `json:"text"`
	Basis       string   `json:"basis"`
	Status      string   `json:"status"`
	EvidenceIDs []string `json:"evidence_ids"`
	FinalIDs    []string `json:"final_ids"`
}

// Disposition statuses (PROMPTS.md).
const (
	DispositionUsed       = "used"
	DispositionExcluded   = "excluded"
	DispositionUnresolved = "unresolved"
)

// Disposition is B's record for one evidence item.
type Disposition struct {
	EvidenceID string   `json:"evidence_id"`
	Status     string   `json:"status"`
	FinalIDs   []string `json:"final_ids"`
}

// ReceiptStatus is the terminal status of a session (CONTRACT §5).
type ReceiptStatus string

// Answered reports whether a session whose receipt is r (nil when absent)
// and whose decoded answer is resp has an answer to grade and score: the
// answer decoded and the receipt records status response. An error or an
// interruption whose kept output happens to decode is a valid scored
// failure, never an answer, so no rater sees it (CONTRACT §4).
func Answered(r *Receipt, resp *Response) bool {
	return resp != nil && (r == nil || r.Status == StatusResponse)
}

// Terminal statuses. A receipt with an empty status is a start without a
// terminal receipt (EVALUATOR-CONTROLS C15).
const (
	StatusResponse      ReceiptStatus = "response"
	StatusError         ReceiptStatus = "error"
	StatusInterruption  ReceiptStatus = "interruption"
	StatusNotDispatched ReceiptStatus = "not_dispatched"
)

// ErrorKind classifies a session's error (CONTRACT §5): model-side kinds are
// valid scored failures (C16); infrastructure kinds may make an execution
// invalid (C17).
type ErrorKind string

// Error kinds.
const (
	ErrorTimeout        ErrorKind = "model_timeout"
	ErrorRefusal        ErrorKind = "refusal"
	ErrorMalformed      ErrorKind = "malformed_output"
	ErrorBudget         ErrorKind = "budget_exhausted"
	ErrorInfrastructure ErrorKind = "infrastructure"
	ErrorSharedDraft    ErrorKind = "shared_draft_failed"
)

// Receipt is receipts/<session>.json: the execution record of one model
// session (CONTRACT §5 "Required records"). Times are UTC RFC 3339 with
// nanoseconds; monotonic readings are nanoseconds from an arbitrary origin
// of the recording host. A nil Meter means the meter is missing (unknown,
// never zero).
type Receipt struct {
	SessionID  string `json:"session_id"`
	RequestID  string `json:"request_id"`
	Role       Role   `json:"role"`
	Task       string `json:"task"`
	Repetition int    `json:"repetition"`
	// Status is the terminal status; "" when no terminal receipt was recorded.
	Status ReceiptStatus `json:"status"`
	// ErrorKind is set when Status is error or interruption, else null.
	ErrorKind *ErrorKind `json:"error_kind"`
	// StartedUTC and EndedUTC are RFC 3339 UTC times; EndedUTC is null
	// without a terminal receipt or when not dispatched.
	StartedUTC *string `json:"started_utc"`
	EndedUTC   *string `json:"ended_utc"`
	// StartMonotonicNS and EndMonotonicNS are monotonic clock readings.
	StartMonotonicNS *int64 `json:"start_monotonic_ns"`
	EndMonotonicNS   *int64 `json:"end_monotonic_ns"`
	// InputSHA256/InputBytes identify the exact rendered prompt bytes.
	InputSHA256 *string `json:"input_sha256"`
	InputBytes  *int64  `json:"input_bytes"`
	// OutputSHA256/OutputBytes identify the raw response bytes.
	OutputSHA256 *string `json:"output_sha256"`
	OutputBytes  *int64  `json:"output_bytes"`
	// Meter is the provider's token meter; null when missing.
	Meter *Meter `json:"meter"`
	// PriceCardID names the tariff used; null when none applies.
	PriceCardID *string `json:"price_card_id"`
	// ActualChargeMicroUSD is the attributable actual charge in micro-USD,
	// null when actual billing cannot be attributed (reported "unknown").
	ActualChargeMicroUSD *int64 `json:"actual_charge_micro_usd"`
	// OrdinaryCalls and MCPCalls count tool calls; both must be zero in
	// fixed-evidence sessions. MCPCostMicroUSD is their metered charge.
	OrdinaryCalls   int    `json:"ordinary_calls"`
	MCPCalls        int    `json:"mcp_calls"`
	MCPCostMicroUSD *int64 `json:"mcp_cost_micro_usd"`
	// ValidationNS and AssemblyNS are this session's own deterministic
	// validation and prompt-assembly durations in nanoseconds.
	ValidationNS int64 `json:"validation_ns"`
	AssemblyNS   int64 `json:"assembly_ns"`
	// Delivered identities, compared with the manifest (C17).
	Model            *string `json:"model"`
	PermissionPolicy *string `json:"permission_policy"`
	TaskSHA256       *string `json:"task_sha256"`
	PacketSHA256     *string `json:"packet_sha256"`
	// ArmStateLeaked records detected cross-arm leakage (C17).
	ArmStateLeaked bool `json:"arm_state_leaked"`
	// Host is the recorded host/OS/CPU/RAM the session ran on; it must
	// equal the manifest's execution.host (CONTRACT §2 "Run sessions
	// serially on one recorded host"). Null when not dispatched.
	Host *string `json:"host"`
	// InfrastructureInvalid holds the verified infrastructure reason
	// (recorder loss, wrong inputs, undeclared permissions, cross-arm
	// leakage, platform outage), else null (CONTRACT §5).
	InfrastructureInvalid *string `json:"infrastructure_invalid"`
	// PricedModifiers lists each priced modifier the run's log reports
	// that the contract excludes from Codex accounting, such as API
	// cache-write tokens or a Fast (priority) service tier, one
	// "name=value" each; omitted when the log reports none. A session with
	// one is never priced and fails admission (CONTRACT §5 "Do not mix API
	// cache-write/Fast modifiers into Codex accounting").
	PricedModifiers []string `json:"priced_modifiers,omitempty"`
	// ResponseID is the run log's own identity as receipt import read it
	// (the Responses API response "id", the thread_id of codex exec
	// --json); omitted when the receipt was not made from a log that
	// carries one. No two receipts of a campaign share one (admission:
	// response-id-reused).
	ResponseID string `json:"response_id,omitempty"`
}

// Meter is a session's metered tokens (CONTRACT §5). InputTokens is the
// meter's input total; when InputIncludesCached is true the cached subset is
// subtracted exactly once to derive uncached input. OutputTokens is billed
// output; when OutputIncludesReasoning is true reasoning is not added again.
type Meter struct {
	InputTokens             int64 `json:"input_tokens"`
	CachedInputTokens       int64 `json:"cached_input_tokens"`
	OutputTokens            int64 `json:"output_tokens"`
	ReasoningTokens         int64 `json:"reasoning_tokens"`
	InputIncludesCached     bool  `json:"input_includes_cached"`
	OutputIncludesReasoning bool  `json:"output_includes_reasoning"`
}
