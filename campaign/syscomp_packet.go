package campaign

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"slices"
	"verdict/internal/tokens"
	"verdict/verr"
)

// Counting modes of a raw-observation packet (ObservationPacket.Counting).
const (
	// CountingRunnerRecorded: the frozen tokenizer is not served offline by
	// the counting library; the runner-recorded counts are used, checked
	// for consistency (an empty response has 0 tokens, a nonempty one at
	// least 1 and at most one per byte).
	CountingRunnerRecorded = "runner-recorded"
)

// CountingLibrary returns the counting member of a packet counted by the
// library under encoding name: "library:tiktoken-go/<name>".
func CountingLibrary(name string) string { return "library:" + tokens.Library + "/" + name }

// BuildObservationPacket is the neutral packetizer (PROMPTS.md
// "Conditional system comparison: frozen investigation and packet
// procedure"): from the bytes of observations/<S>.json (file names it in
// refusals) it builds the raw-observation packet of the workflow and
// returns its exact bytes (EncodeJSON) and value. Every delivered call
// becomes one evidence item, E1..EN in completion order (the completion
// monotonic reading; calls completing at the same reading keep log
// order), with its arguments, response bytes, metadata, outcome and
// provider-declared source coordinates copied verbatim: errors, truncation
// notices and empty responses included, nothing filtered, summarised,
// deduplicated or reordered by content. The one exception is an MCP call
// of Serena's server to the declared initial_instructions tool, recorded in
// setup_overhead and never evidence. Undelivered calls are not evidence
// (they stay in the log and in the receipt's operation count).
//
// Tokens: when the library serves the log's tokenizer offline each
// response is counted by it and a runner-recorded count that differs is
// refused (ReasonObservationLog); otherwise the runner-recorded counts are
// used after a consistency check. The packet's size is the sum of its
// evidence items' response tokens; over PacketTokenLimit its status is
// evidence_budget_exceeded with every item still present (never trimmed);
// with no item it is empty.
func BuildObservationPacket(logBytes []byte, file string) ([]byte, *ObservationPacket, error) {
	lg, err := DecodeObservationLog(logBytes, file)
	if err != nil {
		return nil, nil, err
	}
	counter, served, err := tokens.For(lg.Tokenizer)
	if err != nil {
		return nil, nil, verr.Newf(ReasonObservationLog, file, "/tokenizer", RulePacketProc, "cannot load tokenizer %s: %v", lg.Tokenizer, err)
	}
	sum := sha256.Sum256(logBytes)
	p := &ObservationPacket{Kind: PacketKindRawObservation, Workflow: lg.Workflow, Session: lg.Session, System: lg.System,
		LogSHA256: hex.EncodeToString(sum[:]), Tokenizer: lg.Tokenizer, Counting: CountingRunnerRecorded,
		Items: []ObservationItem{}, SetupOverhead: []SetupObservation{}}
	if served {
		p.Counting = CountingLibrary(counter.Name)
	}
	var delivered []int
	for i, c := range lg.Calls {
		resp, _ := base64.StdEncoding.Strict().DecodeString(c.ResponseBase64) // checked by DecodeObservationLog
		ptr := fmt.Sprintf("/calls/%d/tokens", i)
		if served {
			if n := counter.Count(resp); n != c.Tokens {
				return nil, nil, verr.Newf(ReasonObservationLog, file, ptr, RulePacketProc,
					"the runner recorded %d tokens; %s counts %d under %s", c.Tokens, tokens.Library, n, counter.Name)
			}
		} else if (len(resp) == 0) != (c.Tokens == 0) || c.Tokens > int64(len(resp)) {
			return nil, nil, verr.Newf(ReasonObservationLog, file, ptr, RulePacketProc,
				"the runner-recorded count %d is inconsistent with %d response bytes (0 tokens exactly when empty, at most one token per byte)", c.Tokens, len(resp))
		}
		if c.Delivered {
			delivered = append(delivered, i)
		}
	}
	slices.SortStableFunc(delivered, func(a, b int) int {
		x, y := *lg.Calls[a].CompletionMonotonicNS, *lg.Calls[b].CompletionMonotonicNS
		switch {
		case x < y:
			return -1
		case x > y:
			return 1
		}
		return 0
	})
	for _, i := range delivered {
		c := lg.Calls[i]
		resp, _ := base64.StdEncoding.Strict().DecodeString(c.ResponseBase64)
		rs := sha256.Sum256(resp)
		if IsDeclaredSetupCall(lg.System, c.Kind, c.Server, c.Tool) {
			p.SetupOverhead = append(p.SetupOverhead, SetupObservation{CallID: c.CallID, Tool: c.Tool,
				ResponseSHA256: hex.EncodeToString(rs[:]), ResponseBytes: int64(len(resp)), Tokens: c.Tokens})
			continue
		}
		p.Items = append(p.Items, ObservationItem{ID: fmt.Sprintf("E%d", len(p.Items)+1), CallID: c.CallID, Tool: c.Tool, Kind: c.Kind,
			Server: c.Server, Arguments: c.Arguments, RequestedUTC: c.RequestedUTC, CompletedUTC: *c.CompletedUTC,
			CompletionMonotonicNS: *c.CompletionMonotonicNS, Outcome: c.Outcome, ResponseBase64: c.ResponseBase64,
			ResponseSHA256: hex.EncodeToString(rs[:]), ResponseBytes: int64(len(resp)), Metadata: c.Metadata,
			DeclaredSources: slices.Clip(append([]SourceRef{}, c.DeclaredSources...)), Tokens: c.Tokens})
		p.Tokens += c.Tokens
	}
	switch {
	case len(p.Items) == 0:
		p.Status = PacketEmpty
	case p.Tokens > PacketTokenLimit:
		p.Status = PacketEvidenceBudgetExceeded
	default:
		p.Status = PacketDelivered
	}
	b, err := MarshalJSON(p)
	if err != nil {
		return nil, nil, err
	}
	return b, p, nil
}

// IsDeclaredSetupCall reports whether a call is the one prospectively
// declared tool-result exception: Serena's initial_instructions, an MCP
// call to Serena's server in a Serena workflow (PROMPTS.md "The sole
// tool-result exception"). No content-based rule adds another.
func IsDeclaredSetupCall(system SystemName, kind string, server *string, tool string) bool {
	return system == SystemSerena && kind == ToolMCP && server != nil && *server == string(SystemSerena) && tool == SerenaInitialInstructions
}

// ObservationText returns an evidence item's response bytes (the exact
// bytes the investigator received).
func (it *ObservationItem) ObservationText() []byte {
	b, _ := base64.StdEncoding.Strict().DecodeString(it.ResponseBase64) // checked when decoded
	return b
}
