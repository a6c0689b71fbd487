package assemble

import (
	"bufio"
	"bytes"
	"fmt"
	"slices"
	"strings"

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
)

const ruleLog = "CONTRACT §5 Required records: metered uncached/cached/output/reasoning tokens, final answer"

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
	// Final is the exact bytes of the final message; nil when the log holds
	// none.
	Final []byte
	// ResponseID is the provider's response or thread identifier, if any.
	ResponseID string
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
	// excludes ("name=value"), sorted.
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

// codexOrdinaryTools and codexMCPTools are the item types of tool calls.
var (
	codexOrdinaryTools = []string{"command_execution", "file_change", "web_search", "collab_tool_call"}
	codexMCPTools      = []string{"mcp_tool_call"}
)

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
		switch ev.Type {
		case "":
			return nil, bad(n, "an event without a type")
		case "thread.started":
			l.ResponseID = ev.ThreadID
		case "item.started", "item.updated", "item.completed":
			if ev.Item == nil {
				return nil, bad(n, "%s without an item", ev.Type)
			}
			if slices.Contains(codexOrdinaryTools, ev.Item.Type) || slices.Contains(codexMCPTools, ev.Item.Type) {
				tools[ev.Item.ID] = ev.Item.Type
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
			if err := l.readUsage(ev.Usage, "/usage", map[string]**int64{
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
	for _, typ := range tools {
		if slices.Contains(codexMCPTools, typ) {
			l.MCPCalls++
		} else {
			l.OrdinaryCalls++
		}
	}
	slices.Sort(l.Modifiers)
	return l, nil
}

// readUsage reads a usage object: the named counts into their fields, and
// every member whose name says cache write or cache creation, at any depth,
// with a nonzero value into Modifiers.
func (l *RunLog) readUsage(raw jsontext.Value, ptr string, counts map[string]**int64) error {
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
			continue
		}
		lower := strings.ToLower(name)
		if strings.Contains(lower, "cache_write") || strings.Contains(lower, "cache_creation") {
			var n int64
			if err := jsonv2.Unmarshal(v, &n); err == nil && n > 0 {
				l.Modifiers = append(l.Modifiers, fmt.Sprintf("%s/%s=%d", ptr, name, n))
			} else if err != nil && v.Kind() == '{' {
				if err := l.readUsage(v, ptr+"/"+name, nil); err != nil {
					return err
				}
			}
			continue
		}
		if v.Kind() == '{' {
			if err := l.readUsage(v, ptr+"/"+name, nil); err != nil {
				return err
			}
		}
	}
	return nil
}

// responseObject is the part of a Responses API response the importer reads.
type responseObject struct {
	ID                string                   `json:"id"`
	Object            string                   `json:"object"`
	Model             *string                  `json:"model"`
	Status            string                   `json:"status"`
	ServiceTier       *string                  `json:"service_tier"`
	Output            []responseItem           `json:"output"`
	Usage             jsontext.Value           `json:"usage"`
	Error             *codexError              `json:"error"`
	IncompleteDetails *struct{ Reason string } `json:"incomplete_details"`
}

type responseItem struct {
	Type    string            `json:"type"`
	Content []responseContent `json:"content"`
}

type responseContent struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// responsesOrdinaryTools and responsesMCPTools are the output item types of
// tool calls in a Responses API response.
var (
	responsesOrdinaryTools = []string{"function_call", "custom_tool_call", "web_search_call", "file_search_call", "computer_call", "code_interpreter_call", "local_shell_call", "shell_call", "apply_patch_call", "image_generation_call"}
	responsesMCPTools      = []string{"mcp_call"}
)

// standardTiers are the service tiers that are the standard processing the
// reference card prices ("auto" resolves to one of the others).
var standardTiers = []string{"default", "auto"}

func parseResponses(data []byte, file string) (*RunLog, error) {
	var r responseObject
	if err := jsonv2.Unmarshal(data, &r); err != nil {
		return nil, &verr.Error{Reason: ReasonLogMalformed, File: file, Rule: ruleLog, Detail: err.Error(), Err: err}
	}
	if r.Object != "response" {
		return nil, verr.Newf(ReasonLogMalformed, file, "/object", ruleLog, "object is %q, not a Responses API \"response\"", r.Object)
	}
	l := &RunLog{Format: LogResponsesAPI, ResponseID: r.ID, Model: r.Model}
	switch r.Status {
	case "completed":
		l.Terminal = campaign.StatusResponse
	case "incomplete":
		l.Terminal = campaign.StatusResponse
		if r.IncompleteDetails != nil {
			l.Notes = append(l.Notes, "the response is incomplete: "+r.IncompleteDetails.Reason)
		}
	case "failed", "cancelled":
		l.Terminal = campaign.StatusError
		if r.Error != nil {
			l.ErrorMessage = r.Error.Message
		}
	}
	if r.ServiceTier != nil && !slices.Contains(standardTiers, *r.ServiceTier) {
		l.Modifiers = append(l.Modifiers, "/service_tier="+*r.ServiceTier)
	}
	var text []byte
	found := false
	for _, it := range r.Output {
		switch {
		case it.Type == "message":
			// The final message is the last message item's text parts.
			text, found = nil, true
			for _, c := range it.Content {
				if c.Type == "output_text" {
					text = append(text, c.Text...)
				}
			}
		case slices.Contains(responsesOrdinaryTools, it.Type):
			l.OrdinaryCalls++
		case slices.Contains(responsesMCPTools, it.Type):
			l.MCPCalls++
		}
	}
	if found {
		l.Final = text
		if l.Final == nil {
			l.Final = []byte{}
		}
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
		if err := l.readUsage(u.raw, u.ptr, u.counts); err != nil {
			return nil, &verr.Error{Reason: ReasonLogMalformed, File: file, Pointer: u.ptr, Rule: ruleLog, Detail: err.Error(), Err: err}
		}
	}
	slices.Sort(l.Modifiers)
	l.Modifiers = slices.Compact(l.Modifiers)
	return l, nil
}
