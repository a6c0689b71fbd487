package campaign

import (
	"bytes"
	"unicode/utf8"
	"verdict/verr"
)

// PromptInvestigator is the key of the standalone investigator instruction
// of a system comparison (PROMPTS.md "Conditional system comparison": it
// does not inherit the common instruction's no-tools sentence nor the
// draft's response format). FrozenPrompt(PromptInvestigator) is its frozen text.
const PromptInvestigator = "investigator"

// reviewObservation is one evidence item as the review prompt shows it:
// its ID, the call as requested, its outcome, metadata, provider-declared
// coordinates and the exact response: as text when the bytes are UTF-8,
// else as base64 (never altered to make them printable).
type reviewObservation struct {
	ID              string      `json:"id"`
	Tool            string      `json:"tool"`
	Kind            string      `json:"kind"`
	Server          *string     `json:"server"`
	Arguments       string      `json:"arguments"`
	Outcome         string      `json:"outcome"`
	Metadata        string      `json:"metadata"`
	DeclaredSources []SourceRef `json:"declared_sources"`
	Response        *string     `json:"response,omitempty"`
	ResponseBase64  *string     `json:"response_base64,omitempty"`
}

// ObservationPacketBlock returns the EVIDENCE_PACKET bytes a review
// receives for a raw-observation packet: its evidence items E1..EN in
// packet order as a JSON array (EncodeJSON, final newline trimmed), each
// with every observation member the investigator saw. The setup overhead
// (Serena's manual) is not evidence and is not shown.
func ObservationPacketBlock(p *ObservationPacket) ([]byte, error) {
	items := make([]reviewObservation, len(p.Items))
	for i := range p.Items {
		it := &p.Items[i]
		o := reviewObservation{ID: it.ID, Tool: it.Tool, Kind: it.Kind, Server: it.Server, Arguments: it.Arguments,
			Outcome: it.Outcome, Metadata: it.Metadata, DeclaredSources: it.DeclaredSources}
		if b := it.ObservationText(); utf8.Valid(b) {
			s := string(b)
			o.Response = &s
		} else {
			s := it.ResponseBase64
			o.ResponseBase64 = &s
		}
		items[i] = o
	}
	b, err := MarshalJSON(items)
	if err != nil {
		return nil, err
	}
	return bytes.TrimRight(b, "\n"), nil
}

// RenderInvestigatorPrompt renders an investigation session's prompt: the
// frozen standalone investigator instruction (texts[PromptInvestigator])
// and the TASK block. The tool advertisements the host adds are the
// provider's setup overhead, recorded in setup.json, not part of these bytes.
func RenderInvestigatorPrompt(texts map[string][]byte, taskText []byte) ([]byte, error) {
	t, ok := texts[PromptInvestigator]
	if !ok || len(bytes.TrimSpace(t)) == 0 {
		return nil, verr.Newf(ReasonPromptTextMissing, ManifestFile, "/prompts/investigator", RulePrompts, "prompt text investigator is not loaded")
	}
	var b bytes.Buffer
	b.Write(bytes.TrimRight(t, "\n"))
	b.WriteString("\n\n")
	writeBlock(&b, "TASK", taskText)
	return b.Bytes(), nil
}

// RenderSystemReviewPrompt renders a system workflow's review prompt: the
// instruction the first experiment selected (role review-a or review-b,
// the same parts and bytes as in the first experiment: common
// instruction, role instruction, final-answer schema and, for B, the
// reconciliation schema), then TASK, the workflow's raw-observation packet
// as EVIDENCE_PACKET and the investigation draft, unchanged, as
// COMMON_DRAFT (PROMPTS.md: the review receives only that workflow's
// returned evidence and draft). A nil draft is ReasonCommonDraftUnavailable.
func RenderSystemReviewPrompt(role Role, texts map[string][]byte, taskText []byte, p *ObservationPacket, draft []byte) ([]byte, error) {
	if role != RoleReviewA && role != RoleReviewB {
		return nil, verr.Newf(ReasonPromptTextMissing, ManifestFile, "/selected_review", RulePrompts, "the selected review %q is not review-a or review-b", role)
	}
	parts, err := NewPromptRenderer(texts).instruction(role)
	if err != nil {
		return nil, err
	}
	if draft == nil {
		return nil, &verr.Error{Reason: ReasonCommonDraftUnavailable, File: PacketFile(p.Workflow), Rule: RulePacketProc,
			Detail: "the investigation produced no draft; the review is not launched"}
	}
	pkt, err := ObservationPacketBlock(p)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	for _, part := range parts {
		b.Write(part.Bytes)
	}
	writeBlock(&b, "TASK", taskText)
	writeBlock(&b, "EVIDENCE_PACKET", pkt)
	writeBlock(&b, "COMMON_DRAFT", draft)
	return b.Bytes(), nil
}
