package campaign

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"
)

// Keys of Campaign.Prompts (the PromptFiles JSON names).
const (
	PromptCommon               = "common"
	PromptDraft                = "draft"
	PromptReviewA              = "review_a"
	PromptReviewB              = "review_b"
	PromptFinalSchema          = "final_schema"
	PromptReconciliationSchema = "reconciliation_schema"
)

// Reasons for which a prompt cannot be rendered.
const (
	// ReasonPromptTextMissing: a prompt text the role needs is not loaded.
	ReasonPromptTextMissing Reason = "prompt-text-missing"
	// ReasonPromptRunMissing: no run of the task and repetition exists.
	ReasonPromptRunMissing Reason = "prompt-run-missing"
	// ReasonCommonDraftUnavailable: A and B cannot be rendered because the
	// shared draft produced no raw output (EVALUATOR-CONTROLS C23).
	ReasonCommonDraftUnavailable Reason = "common-draft-unavailable"
)

// RulePrompts is the rule cited by prompt rendering.
const RulePrompts = "PROMPTS.md fixed prompts and response contract v1.0"

// RenderedPrompt is the exact input bytes of one session's prompt, their
// SHA-256 (lowercase hex) and byte count.
type RenderedPrompt struct {
	Role   Role   `json:"role"`
	Bytes  []byte `json:"-"`
	SHA256 string `json:"sha256"`
	Size   int    `json:"bytes"`
}

// PromptSet is the D, A and B prompts of one repetition, and the region in
// which B differs from A: both share Prefix bytes at the start and Suffix
// bytes at the end; AOnly and BOnly are the differing middles (the role
// instruction and, for B, the reconciliation schema).
type PromptSet struct {
	Task       string         `json:"task"`
	Repetition int            `json:"repetition"`
	Draft      RenderedPrompt `json:"draft"`
	ReviewA    RenderedPrompt `json:"review_a"`
	ReviewB    RenderedPrompt `json:"review_b"`
	Prefix     int            `json:"common_prefix_bytes"`
	Suffix     int            `json:"common_suffix_bytes"`
	AOnly      []byte         `json:"-"`
	BOnly      []byte         `json:"-"`
}

// RenderPrompt returns the exact prompt bytes of a role (PROMPTS.md): the
// instruction part is the common instruction, the role's instruction, the
// common final-answer schema and — for B only — the reconciliation schema,
// each followed by one blank line; then the labelled data blocks TASK,
// EVIDENCE_PACKET and (A and B only) COMMON_DRAFT, in that order. Each
// block is
//
//	<<<LABEL bytes=N>>>\n<N bytes of data>\n<<<END LABEL>>>\n
//
// so that no data byte can end a block early. The task block holds the
// task text bytes, the packet block the packet as indented JSON (items in
// packet order, no HTML escaping), the draft block the raw shared-draft
// output bytes. texts is keyed by the Prompt* constants; draft is ignored
// for D. D and A never receive the B instruction or the reconciliation
// schema. Errors: ReasonPromptTextMissing, ReasonCommonDraftUnavailable.
func RenderPrompt(role Role, texts map[string][]byte, task *Task, draft []byte) ([]byte, error) {
	keys := []string{PromptCommon}
	switch role {
	case RoleDraft:
		keys = append(keys, PromptDraft, PromptFinalSchema)
	case RoleReviewA:
		keys = append(keys, PromptReviewA, PromptFinalSchema)
	case RoleReviewB:
		keys = append(keys, PromptReviewB, PromptFinalSchema, PromptReconciliationSchema)
	default:
		return nil, &Error{Reason: ReasonPromptTextMissing, Rule: RulePrompts, Detail: fmt.Sprintf("no prompt for role %q", role)}
	}
	var b bytes.Buffer
	for _, k := range keys {
		t, ok := texts[k]
		if !ok || len(bytes.TrimSpace(t)) == 0 {
			return nil, &Error{Reason: ReasonPromptTextMissing, File: ManifestFile, Pointer: "/prompts/" + k, Rule: RulePrompts,
				Detail: fmt.Sprintf("prompt text %s is not loaded", k)}
		}
		b.Write(bytes.TrimRight(t, "\n"))
		b.WriteString("\n\n")
	}
	block := func(label string, data []byte) {
		b.WriteString("<<<" + label + " bytes=" + strconv.Itoa(len(data)) + ">>>\n")
		b.Write(data)
		b.WriteString("\n<<<END " + label + ">>>\n")
	}
	block("TASK", task.Text)
	pkt, err := packetBytes(task.Packet)
	if err != nil {
		return nil, err
	}
	block("EVIDENCE_PACKET", pkt)
	if role != RoleDraft {
		if draft == nil {
			return nil, &Error{Reason: ReasonCommonDraftUnavailable, File: PacketPath(task.Entry.ID), Rule: "CONTRACT §2",
				Detail: "the shared draft has no raw output; A and B are not dispatched"}
		}
		block("COMMON_DRAFT", draft)
	}
	return b.Bytes(), nil
}

// packetBytes serializes a packet's evidence items as the prompt shows them.
func packetBytes(p Packet) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(p.Items); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

// RenderPrompts renders the D, A and B prompts of one repetition of a task
// from the campaign's prompt texts, task, packet and the repetition's
// shared-draft raw output (PROMPTS.md). A and B receive the identical
// task, packet and draft bytes. Errors: ReasonPromptRunMissing and those
// of RenderPrompt.
func RenderPrompts(c *Campaign, task string, repetition int) (*PromptSet, error) {
	var t *Task
	for _, x := range c.Tasks {
		if x.Entry.ID == task {
			t = x
		}
	}
	var run *Run
	for i := range c.Manifest.Runs {
		if r := &c.Manifest.Runs[i]; r.Task == task && r.Repetition == repetition {
			run = r // the last run of a task/repetition (a replacement) wins
		}
	}
	if t == nil || run == nil {
		return nil, &Error{Reason: ReasonPromptRunMissing, File: ManifestFile, Pointer: "/runs", Rule: RulePrompts,
			Detail: fmt.Sprintf("no run of task %s repetition %d", task, repetition)}
	}
	var draft []byte
	for _, s := range c.Sessions {
		if s.ID == run.Sessions.Draft && s.Role == RoleDraft {
			draft = s.Raw
		}
	}
	ps := &PromptSet{Task: task, Repetition: repetition}
	for _, x := range []struct {
		role Role
		dst  *RenderedPrompt
	}{{RoleDraft, &ps.Draft}, {RoleReviewA, &ps.ReviewA}, {RoleReviewB, &ps.ReviewB}} {
		b, err := RenderPrompt(x.role, c.Prompts, t, draft)
		if err != nil {
			return nil, err
		}
		sum := sha256.Sum256(b)
		*x.dst = RenderedPrompt{Role: x.role, Bytes: b, SHA256: hex.EncodeToString(sum[:]), Size: len(b)}
	}
	a, b := ps.ReviewA.Bytes, ps.ReviewB.Bytes
	for ps.Prefix < len(a) && ps.Prefix < len(b) && a[ps.Prefix] == b[ps.Prefix] {
		ps.Prefix++
	}
	for ps.Suffix < len(a)-ps.Prefix && ps.Suffix < len(b)-ps.Prefix && a[len(a)-1-ps.Suffix] == b[len(b)-1-ps.Suffix] {
		ps.Suffix++
	}
	ps.AOnly = a[ps.Prefix : len(a)-ps.Suffix]
	ps.BOnly = b[ps.Prefix : len(b)-ps.Suffix]
	return ps, nil
}
