package assemble

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"verdict/campaign"
	"verdict/verr"
)

// Log formats Import reads.
const (
	// LogCodexExec is the JSONL event stream of `codex exec --json`: one
	// JSON object per line with a "type" member ("thread.started",
	// "turn.started", "item.started", "item.updated", "item.completed",
	// "turn.completed", "turn.failed", "error"). turn.completed carries
	// "usage": {"input_tokens", "cached_input_tokens", "output_tokens"};
	// cached_input_tokens is a subset of input_tokens, and output_tokens
	// counts reasoning inside it. The stream reports no separate reasoning
	// count (a "reasoning_output_tokens" member is read when present). The
	// final message is the text of the last completed item of type
	// "agent_message".
	LogCodexExec = "codex-exec-jsonl"
	// LogResponsesAPI is one OpenAI Responses API response object (the
	// body of POST /v1/responses or of its final response.completed
	// event): "id", "model", "status", "service_tier", "output" (message
	// items with "output_text" parts) and "usage": {"input_tokens",
	// "input_tokens_details": {"cached_tokens"}, "output_tokens",
	// "output_tokens_details": {"reasoning_tokens"}, "total_tokens"}. The
	// cached tokens are a subset of input_tokens and the reasoning tokens a
	// subset of output_tokens.
	LogResponsesAPI = "responses-api-json"
)

// Refusals of reading a run log.
const (
	// ReasonLogMalformed: the log is not the format it was named as.
	ReasonLogMalformed verr.Reason = "log-malformed"
	// ReasonLogItemUnknown: the log holds an item of a type that is neither
	// one of the known tool calls nor one of the item types known not to be
	// a tool call (NonToolItems): tool use cannot be counted, and an
	// uncounted item is never taken for zero calls.
	ReasonLogItemUnknown verr.Reason = "log-item-unknown"
	// ReasonLogContentUnknown: an output message of a Responses API log
	// holds a content part whose type is not one of MessageParts: its text
	// cannot be told to be or not to be part of the final answer, and it is
	// never dropped in silence.
	ReasonLogContentUnknown verr.Reason = "log-content-unknown"
	// ReasonLogRoleUnexpected: an output message of a Responses API log has
	// a role other than "assistant" (a "user" message among the model's
	// output): the output is not the model's answer alone.
	ReasonLogRoleUnexpected verr.Reason = "log-role-unexpected"
)

// MessageParts are the content part types of a Responses API output
// message: "output_text" is the answer's text and "refusal" the model's
// refusal (its text is in the part's "refusal" member). Any other type is
// refused (ReasonLogContentUnknown).
var MessageParts = []string{"output_text", "refusal"}

const (
	ruleLog   = "CONTRACT §5 Required records: metered uncached/cached/output/reasoning tokens, final answer"
	ruleTools = "CONTRACT §5 Required records: all ordinary/MCP calls (zero for scored fixed-evidence sessions)"
)

// RunLog is what a run's log says about one session. A nil pointer is a
// value the log does not report (unknown, never zero).
type RunLog struct {
	// Format is LogCodexExec or LogResponsesAPI.
	Format string
	// Terminal is the log's terminal status: StatusResponse for a
	// completed turn, StatusError for a failed one, "" when the log ends
	// without either.
	Terminal campaign.ReceiptStatus
	// ErrorMessage is the provider's error text for StatusError.
	ErrorMessage string
	// ErrorKind is the classification the log itself states of a turn
	// that ended without an answer (CONTRACT §5, EVALUATOR-CONTROLS C16):
	// campaign.ErrorRefusal for a message with a "refusal" content part or
	// a response incomplete for "content_filter", campaign.ErrorBudget for
	// one incomplete for "max_output_tokens"; Terminal is then StatusError
	// and Final the output the model gave. "" when the log states none
	// (a failed turn is classified by the coordinator, never guessed).
	ErrorKind campaign.ErrorKind
	// Final is the exact bytes of the final message; nil when the log holds
	// none.
	Final []byte
	// ResponseID is the log's own identity: the Responses API response
	// "id", or the thread_id of codex exec's thread.started; "" when the
	// log carries none.
	ResponseID string
	// CreatedAt is when the provider created the response (the Responses
	// API "created_at", Unix seconds); nil when the log does not say.
	CreatedAt *int64
	// Model is the model the provider reports.
	Model *string
	// InputTokens includes CachedInputTokens; OutputTokens includes
	// ReasoningTokens (both formats count them this way).
	InputTokens, CachedInputTokens, OutputTokens, ReasoningTokens *int64
	// TotalTokens is the log's own total, checked against input + output.
	TotalTokens *int64
	// OrdinaryCalls and MCPCalls count tool calls the log shows.
	OrdinaryCalls, MCPCalls int
	// Modifiers are the priced modifiers the log reports that the contract
	// excludes (PricedModifiers: "pointer=value"), sorted.
	Modifiers []string
	// Notes are facts worth showing (an incomplete response's reason).
	Notes []string
}

// ParseRunLog reads a run log of the given format.
func ParseRunLog(format string, data []byte, file string) (*RunLog, error) {
	switch format {
	case LogCodexExec:
		return parseCodexExec(data, file)
	case LogResponsesAPI:
		return parseResponses(data, file)
	}
	return nil, &verr.Error{Reason: ReasonLogMalformed, File: file, Rule: ruleLog,
		Detail: fmt.Sprintf("unknown log format %q (want %s or %s)", format, LogCodexExec, LogResponsesAPI)}
}

// codexEvent is the part of one `codex exec --json` line the importer reads.
type codexEvent struct {
	Type     string         `json:"type"`
	ThreadID string         `json:"thread_id"`
	Usage    jsontext.Value `json:"usage"`
	Item     *codexItem     `json:"item"`
	Error    *codexError    `json:"error"`
	Message  string         `json:"message"`
}

type codexItem struct {
	ID   string `json:"id"`
	Type string `json:"type"`
	Text string `json:"text"`
}

type codexError struct {
	Message string `json:"message"`
}

// ToolItems sorts a log's item types into tool calls and items that are
// not tool calls. Every other type is refused (ReasonLogItemUnknown): tool
// use is counted by what the log is known to hold, so a type verdict does
// not know is never read as zero calls (CONTRACT §2 "no tools in
// fixed-evidence sessions"; §5 "all ordinary/MCP calls").
type ToolItems struct {
	// NotTools are the item types known not to be tool calls.
	NotTools []string
	// Ordinary and MCP are the item types of ordinary and MCP tool calls.
	Ordinary, MCP []string
}

// kind returns "ordinary", "mcp" or "none" for a known item type, and ""
// for a type the lists do not hold.
func (t ToolItems) kind(typ string) string {
	switch {
	case slices.Contains(t.NotTools, typ):
		return "none"
	case slices.Contains(t.Ordinary, typ):
		return "ordinary"
	case slices.Contains(t.MCP, typ):
		return "mcp"
	}
	return ""
}

// CodexItems are the item types of `codex exec --json`: the final
// message, reasoning summaries and non-fatal error items are not tool
// calls; a todo_list item is the plan tool's call, counted as ordinary.
var CodexItems = ToolItems{
	NotTools: []string{"agent_message", "reasoning", "error"},
	Ordinary: []string{"command_execution", "file_change", "web_search", "todo_list", "collab_tool_call"},
	MCP:      []string{"mcp_tool_call"},
}

// ResponsesItems are the output item types of a Responses API response:
// message and reasoning items are not tool calls; listing an MCP server's
// tools and an MCP approval request are MCP operations, counted as MCP
// calls.
var ResponsesItems = ToolItems{
	NotTools: []string{"message", "reasoning"},
	Ordinary: []string{"function_call", "custom_tool_call", "web_search_call", "file_search_call", "computer_call", "code_interpreter_call",
		"local_shell_call", "shell_call", "apply_patch_call", "image_generation_call"},
	MCP: []string{"mcp_call", "mcp_list_tools", "mcp_approval_request"},
}

func parseCodexExec(data []byte, file string) (*RunLog, error) {
	l := &RunLog{Format: LogCodexExec}
	bad := func(line int, format string, a ...any) error {
		return &verr.Error{Reason: ReasonLogMalformed, File: file, Pointer: fmt.Sprintf("/%d", line-1), Rule: ruleLog,
			Detail: fmt.Sprintf("line %d: ", line) + fmt.Sprintf(format, a...)}
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 1<<16), 64<<20)
	tools := map[string]string{}
	turns := 0
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var ev codexEvent
		if err := jsonv2.Unmarshal(line, &ev); err != nil {
			return nil, bad(n, "%v", err)
		}
		mods, err := PricedModifiers(line, fmt.Sprintf("/%d", n-1))
		if err != nil {
			return nil, bad(n, "%v", err)
		}
		l.Modifiers = append(l.Modifiers, mods...)
		switch ev.Type {
		case "":
			return nil, bad(n, "an event without a type")
		case "thread.started":
			// The thread ID ties the log to its session (checkLogIdentity):
			// a log without one, or with two threads, is not one session's.
			if ev.ThreadID == "" {
				return nil, bad(n, "thread.started without a thread_id: the log cannot be tied to its session")
			}
			if l.ResponseID != "" {
				return nil, bad(n, "a second thread.started (%q after %q): a session of this contract is one thread", ev.ThreadID, l.ResponseID)
			}
			l.ResponseID = ev.ThreadID
		case "item.started", "item.updated", "item.completed":
			if ev.Item == nil {
				return nil, bad(n, "%s without an item", ev.Type)
			}
			switch k := CodexItems.kind(ev.Item.Type); k {
			case "":
				return nil, &verr.Error{Reason: ReasonLogItemUnknown, File: file, Pointer: fmt.Sprintf("/%d/item/type", n-1), Rule: ruleTools,
					Detail: fmt.Sprintf("line %d: item type %q is neither a known tool call nor a known non-tool item: tool use cannot be counted", n, ev.Item.Type)}
			case "ordinary", "mcp":
				tools[ev.Item.ID] = k
			}
			if ev.Type == "item.completed" && ev.Item.Type == "agent_message" {
				l.Final = []byte(ev.Item.Text)
			}
		case "turn.completed":
			turns++
			if turns > 1 {
				return nil, bad(n, "a second turn: a session of this contract is one turn")
			}
			l.Terminal = campaign.StatusResponse
			if err := readCounts(ev.Usage, map[string]**int64{
				"input_tokens": &l.InputTokens, "cached_input_tokens": &l.CachedInputTokens,
				"output_tokens": &l.OutputTokens, "reasoning_output_tokens": &l.ReasoningTokens,
			}); err != nil {
				return nil, bad(n, "%v", err)
			}
		case "turn.failed":
			turns++
			l.Terminal = campaign.StatusError
			if ev.Error != nil {
				l.ErrorMessage = ev.Error.Message
			}
		case "error":
			if l.Terminal == "" {
				l.Terminal = campaign.StatusError
				l.ErrorMessage = ev.Message
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, &verr.Error{Reason: ReasonLogMalformed, File: file, Rule: ruleLog, Detail: err.Error(), Err: err}
	}
	if l.ResponseID == "" {
		return nil, &verr.Error{Reason: ReasonLogMalformed, File: file, Pointer: "/0", Rule: ruleLog,
			Detail: "no thread.started event with a thread_id: the log cannot be tied to its session"}
	}
	for _, k := range tools {
		if k == "mcp" {
			l.MCPCalls++
		} else {
			l.OrdinaryCalls++
		}
	}
	slices.Sort(l.Modifiers)
	l.Modifiers = slices.Compact(l.Modifiers)
	return l, nil
}

// readCounts reads the named token counts of a usage object into their
// fields (members of other names are left to PricedModifiers).
func readCounts(raw jsontext.Value, counts map[string]**int64) error {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	var m map[string]jsontext.Value
	if err := jsonv2.Unmarshal(raw, &m); err != nil {
		return fmt.Errorf("usage: %v", err)
	}
	for name, v := range m {
		if p, ok := counts[name]; ok {
			var n int64
			if err := jsonv2.Unmarshal(v, &n); err != nil || n < 0 {
				return fmt.Errorf("usage member %s is not a non-negative integer", name)
			}
			*p = &n
		}
	}
	return nil
}

// responseObject is the part of a Responses API response the importer reads.
type responseObject struct {
	ID                string             `json:"id"`
	Object            string             `json:"object"`
	CreatedAt         *int64             `json:"created_at"`
	Model             *string            `json:"model"`
	Status            string             `json:"status"`
	Output            []responseItem     `json:"output"`
	Usage             jsontext.Value     `json:"usage"`
	Error             *codexError        `json:"error"`
	IncompleteDetails *incompleteDetails `json:"incomplete_details"`
}

// incompleteDetails says why a Responses API response is incomplete.
type incompleteDetails struct {
	Reason string `json:"reason"`
}

// IncompleteKinds are the error kinds of the reasons a Responses API
// response is incomplete ("incomplete_details": {"reason"}): the output
// token bound reached is budget exhaustion, the provider's content filter
// a refusal; both are valid scored failures (CONTRACT §5, C16). Another
// reason, or none, is not classified: the coordinator gives the kind.
var IncompleteKinds = map[string]campaign.ErrorKind{
	"max_output_tokens": campaign.ErrorBudget,
	"content_filter":    campaign.ErrorRefusal,
}

type responseItem struct {
	Type    string            `json:"type"`
	Role    string            `json:"role"`
	Content []responseContent `json:"content"`
}

type responseContent struct {
	Type    string `json:"type"`
	Text    string `json:"text"`
	Refusal string `json:"refusal"`
}

// standardTiers are the service tiers that are the standard processing the
// reference card prices. "auto" is not one: a response reports the tier
// that served it, and one that says "auto" (or "") does not say which.
var standardTiers = []string{"default"}

func parseResponses(data []byte, file string) (*RunLog, error) {
	var r responseObject
	if err := jsonv2.Unmarshal(data, &r); err != nil {
		return nil, &verr.Error{Reason: ReasonLogMalformed, File: file, Rule: ruleLog, Detail: err.Error(), Err: err}
	}
	if r.Object != "response" {
		return nil, verr.Newf(ReasonLogMalformed, file, "/object", ruleLog, "object is %q, not a Responses API \"response\"", r.Object)
	}
	l := &RunLog{Format: LogResponsesAPI, ResponseID: r.ID, Model: r.Model, CreatedAt: r.CreatedAt}
	// The log's identity is compared with the timing file and the other
	// receipts (checkLogIdentity, response-id-reused): a log without it
	// would pass unchecked.
	if r.ID == "" {
		return nil, verr.Newf(ReasonLogMalformed, file, "/id", ruleTiming, "the response has no id: the log's identity cannot be checked against the timing file and the other receipts")
	}
	if r.CreatedAt == nil {
		return nil, verr.Newf(ReasonLogMalformed, file, "/created_at", ruleTiming, "the response has no created_at: the log cannot be checked to have been created within the session's recorded start and end")
	}
	if *r.CreatedAt < 0 {
		return nil, verr.Newf(ReasonLogMalformed, file, "/created_at", ruleLog, "created_at %d is not a Unix time", *r.CreatedAt)
	}
	mods, err := PricedModifiers(data, "")
	if err != nil {
		return nil, &verr.Error{Reason: ReasonLogMalformed, File: file, Rule: ruleLog, Detail: err.Error(), Err: err}
	}
	l.Modifiers = mods
	switch r.Status {
	case "completed":
		l.Terminal = campaign.StatusResponse
	case "incomplete":
		// An answer cut short is not an answer: the reason the provider
		// gives classifies it (IncompleteKinds); another reason leaves the
		// kind to the coordinator, as a failed turn's.
		l.Terminal = campaign.StatusError
		reason := ""
		if r.IncompleteDetails != nil {
			reason = r.IncompleteDetails.Reason
		}
		l.ErrorKind = IncompleteKinds[reason]
		if reason == "" {
			reason = "no reason given (incomplete_details.reason)"
		}
		l.ErrorMessage = "the response is incomplete: " + reason
	case "failed", "cancelled":
		l.Terminal = campaign.StatusError
		if r.Error != nil {
			l.ErrorMessage = r.Error.Message
		}
	}
	var text []byte
	found, refused, refusal := false, false, ""
	for i, it := range r.Output {
		k := ResponsesItems.kind(it.Type)
		switch {
		case k == "":
			return nil, verr.Newf(ReasonLogItemUnknown, file, fmt.Sprintf("/output/%d/type", i), ruleTools,
				"output item type %q is neither a known tool call nor a known non-tool item: tool use cannot be counted", it.Type)
		case it.Type == "message":
			if it.Role != "assistant" {
				return nil, verr.Newf(ReasonLogRoleUnexpected, file, fmt.Sprintf("/output/%d/role", i), ruleLog,
					"output message of role %q: the model's output holds only assistant messages, so this log is not one session's answer", it.Role)
			}
			// The final message is the last message item's parts, in order:
			// its text, and a refusal's own words.
			text, found = nil, true
			for j, c := range it.Content {
				switch c.Type {
				case "output_text":
					text = append(text, c.Text...)
				case "refusal":
					text = append(text, c.Refusal...)
					refused, refusal = true, c.Refusal
				default:
					return nil, verr.Newf(ReasonLogContentUnknown, file, fmt.Sprintf("/output/%d/content/%d/type", i, j), ruleLog,
						"content part type %q is neither %s: whether its text is part of the final answer is unknown", c.Type, strings.Join(MessageParts, " nor "))
				}
			}
		case k == "ordinary":
			l.OrdinaryCalls++
		case k == "mcp":
			l.MCPCalls++
		}
	}
	if found {
		l.Final = text
		if l.Final == nil {
			l.Final = []byte{}
		}
	}
	// A refusal is the model declining to answer: a valid scored failure
	// whose output and cost are kept (CONTRACT §5, C16; a refused shared
	// draft stops its reviews, C23), recorded as an error of kind refusal.
	// A failed or cancelled turn stays the coordinator's to classify.
	if refused && (l.Terminal == campaign.StatusResponse || l.ErrorKind != "") {
		l.Terminal, l.ErrorKind = campaign.StatusError, campaign.ErrorRefusal
		l.ErrorMessage = "the model refused: " + refusal
	}
	var usage struct {
		InputDetails  jsontext.Value `json:"input_tokens_details"`
		OutputDetails jsontext.Value `json:"output_tokens_details"`
	}
	if len(r.Usage) > 0 && string(r.Usage) != "null" {
		if err := jsonv2.Unmarshal(r.Usage, &usage); err != nil {
			return nil, &verr.Error{Reason: ReasonLogMalformed, File: file, Pointer: "/usage", Rule: ruleLog, Detail: err.Error(), Err: err}
		}
	}
	for _, u := range []struct {
		raw    jsontext.Value
		ptr    string
		counts map[string]**int64
	}{
		{r.Usage, "/usage", map[string]**int64{"input_tokens": &l.InputTokens, "output_tokens": &l.OutputTokens, "total_tokens": &l.TotalTokens}},
		{usage.InputDetails, "/usage/input_tokens_details", map[string]**int64{"cached_tokens": &l.CachedInputTokens}},
		{usage.OutputDetails, "/usage/output_tokens_details", map[string]**int64{"reasoning_tokens": &l.ReasoningTokens}},
	} {
		if err := readCounts(u.raw, u.counts); err != nil {
			return nil, &verr.Error{Reason: ReasonLogMalformed, File: file, Pointer: u.ptr, Rule: ruleLog, Detail: err.Error(), Err: err}
		}
	}
	return l, nil
}

// PricedModifiers lists every priced modifier a log value (one JSON value:
// a Responses API response, one line of codex exec --json) reports, each
// as "pointer=value" with prefix before the JSON pointer, sorted, once
// each (CONTRACT §5 "Do not mix API cache-write/Fast modifiers into Codex
// accounting"). Members are found at any depth of the value and in every
// documented spelling:
//
//   - cache writes: a member whose name, lowercased and without "_", "-",
//     "." and spaces, holds "cachewrite" or "cachecreat", or the same after
//     "cached" (cacheWriteWords: cache_write_tokens or cached_write_tokens
//     in input_tokens_details or prompt_tokens_details,
//     cache_creation_input_tokens, cacheWriteInputTokens,
//     cacheCreationInputTokens, the dotted gen_ai.usage.input_tokens.cache_write
//     and llm.token_count.prompt_details.cache_write, a cost such as
//     cache_creation_input_token_cost). A number is a token count or an
//     amount: a positive one is a modifier (as written), a negative one
//     malformed; an object or array (Anthropic's cache_creation:
//     {ephemeral_5m_input_tokens, ephemeral_1h_input_tokens}) is a modifier
//     when any number inside it is positive; a string other than "" or "0"
//     and true are modifiers; null, false, 0, "" and "0" are none;
//   - a service tier (service_tier, serviceTier) other than the standard
//     processing the reference card prices ("default"): a Fast
//     (priority), flex or scale tier is a modifier, and so are "auto" and
//     "" (rendered `""`), which do not say what tier served the response
//     (a response reports the tier that served it); null is none.
//
// A value that is not valid JSON is an error.
func PricedModifiers(value []byte, prefix string) ([]string, error) {
	dec := jsontext.NewDecoder(bytes.NewReader(value))
	var out []string
	for {
		tok, err := dec.ReadToken()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if tok.Kind() != '"' || dec.StackDepth() == 0 {
			continue
		}
		// A string at an even index of an object is a member name.
		if kind, n := dec.StackIndex(dec.StackDepth()); kind != '{' || n%2 != 1 {
			continue
		}
		name := normalizedName(tok.String())
		isCache := false
		for _, w := range cacheWriteWords {
			isCache = isCache || strings.Contains(name, w)
		}
		isTier := name == "servicetier"
		if !isCache && !isTier {
			continue
		}
		ptr := prefix + string(dec.StackPointer())
		v, err := dec.ReadValue()
		if err != nil {
			return nil, err
		}
		var mod string
		if isCache {
			mod, err = cacheWrite(v)
		} else {
			mod, err = serviceTier(v)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %v", ptr, err)
		}
		if mod != "" {
			out = append(out, ptr+"="+mod)
		}
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

// cacheWriteWords are the words of a cache-write member's normalized name
// (normalizedName): cache write or creation, with "cache" or "cached"
// (cached_write_tokens).
var cacheWriteWords = []string{"cachewrite", "cachecreat", "cachedwrite", "cachedcreat"}

// normalizedName lowercases a member name and drops the separators its
// spellings differ by ("_", "-", ".", " ").
func normalizedName(s string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case '_', '-', '.', ' ':
			return -1
		}
		return unicode.ToLower(r)
	}, s)
}

// cacheWrite renders a cache-write member's value as a modifier value, ""
// when it reports no cache write (see PricedModifiers).
func cacheWrite(v jsontext.Value) (string, error) {
	switch v.Kind() {
	case 'n', 'f':
		return "", nil
	case 't':
		return "true", nil
	case '"':
		var s string
		if err := jsonv2.Unmarshal(v, &s); err != nil {
			return "", err
		}
		if s == "" || s == "0" {
			return "", nil
		}
		return strconv.Quote(s), nil
	case '0':
		var f float64
		if err := jsonv2.Unmarshal(v, &f); err != nil || f < 0 {
			return "", fmt.Errorf("cache-write amount %s is negative", v)
		}
		if f == 0 {
			return "", nil
		}
		return string(v), nil
	}
	// An object or array: a cache write when any number inside is nonzero.
	dec := jsontext.NewDecoder(bytes.NewReader(v))
	for {
		tok, err := dec.ReadToken()
		if err == io.EOF {
			return "", nil
		}
		if err != nil {
			return "", err
		}
		if tok.Kind() == '0' {
			f, err := tok.Float()
			if err != nil || f < 0 {
				return "", fmt.Errorf("cache-write amount %s is negative", tok.String())
			}
			if f != 0 {
				c := v.Clone()
				if err := c.Compact(); err != nil {
					return "", err
				}
				return string(c), nil
			}
		}
	}
}

// serviceTier renders a service tier member's value as a modifier value,
// "" for the standard tier and null (an empty tier is rendered `""`).
func serviceTier(v jsontext.Value) (string, error) {
	if v.Kind() == 'n' {
		// null names no tier, as "" and "auto" do not: the tariff that
		// served the response is not known (CONTRACT §5).
		return "null", nil
	}
	var s string
	if err := jsonv2.Unmarshal(v, &s); err != nil {
		return "", fmt.Errorf("service tier %s is not a string", v)
	}
	if slices.Contains(standardTiers, s) {
		return "", nil
	}
	if s == "" {
		return `""`, nil
	}
	return s, nil
}
