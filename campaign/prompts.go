package campaign

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"strconv"
	"verdict/verr"
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
	ReasonPromptTextMissing verr.Reason = "prompt-text-missing"
	// ReasonPromptRunMissing: no run of the task and repetition exists.
	ReasonPromptRunMissing verr.Reason = "prompt-run-missing"
	// ReasonCommonDraftUnavailable: A and B cannot be rendered because the
	// shared draft produced no raw output (EVALUATOR-CONTROLS C23).
	ReasonCommonDraftUnavailable verr.Reason = "common-draft-unavailable"
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

// PromptPart is one named part of a rendered prompt: "common",
// "role_instruction", "final_schema", "reconciliation_schema" (B only),
// "TASK", "EVIDENCE_PACKET", "COMMON_DRAFT" (A and B only).
type PromptPart struct {
	Name  string
	Bytes []byte
}

// PromptDifference is one part in which B's prompt differs from A's, with
// the byte count of that part in each (0 when the part is absent).
type PromptDifference struct {
	Part   string `json:"part"`
	ABytes int    `json:"a_bytes"`
	BBytes int    `json:"b_bytes"`
}

// PromptSet is the D, A and B prompts of one repetition and how B differs
// from A: the parts that differ (the role instruction and B's
// reconciliation schema; every data block is byte-identical), the bytes
// only A has and only B has (concatenated in prompt order), and
// ExtraBytes = len(B) − len(A).
type PromptSet struct {
	Task        string             `json:"task"`
	Repetition  int                `json:"repetition"`
	Draft       RenderedPrompt     `json:"draft"`
	ReviewA     RenderedPrompt     `json:"review_a"`
	ReviewB     RenderedPrompt     `json:"review_b"`
	Differences []PromptDifference `json:"differences"`
	ExtraBytes  int                `json:"b_extra_bytes"`
	AOnly       []byte             `json:"-"`
	BOnly       []byte             `json:"-"`
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
	return NewPromptRenderer(texts).Render(role, task, draft)
}

// RenderPromptParts returns the parts RenderPrompt concatenates, in order,
// each with its exact bytes (separators included).
func RenderPromptParts(role Role, texts map[string][]byte, task *Task, draft []byte) ([]PromptPart, error) {
	return NewPromptRenderer(texts).Parts(role, task, draft)
}

// PromptRenderer renders the prompts of many sessions from one set of
// prompt texts (keyed as for RenderPrompt), making each prompt text's part
// and each task's task and packet blocks once: a campaign's receipts are
// checked against every session's prompt (scorer.ReceiptIssues). Its bytes
// are exactly RenderPrompt's. The parts it returns share those bytes, so
// they must not be modified. It is not safe for concurrent use.
type PromptRenderer struct {
	texts     map[string][]byte
	textParts map[string][]byte
	blocks    map[*Task][2]PromptPart // the TASK and EVIDENCE_PACKET blocks
	// prefixes holds, for Identity, each role's prompt hashed up to its
	// COMMON_DRAFT block: a few hundred bytes per task and role, where the
	// blocks are the task's text and packet whole.
	prefixes map[prefixKey]prefix
	packet   bytes.Buffer // a packet's encoding, reused from task to task
}

// prefixKey names one role's prompt of one task.
type prefixKey struct {
	role Role
	task *Task
}

// prefix is role's prompt of a task up to its COMMON_DRAFT block: the
// SHA-256 state after those bytes and their count, or why the prompt cannot
// be rendered.
type prefix struct {
	h    hash.Hash
	size int64
	err  error
}

// NewPromptRenderer returns a renderer of the prompt texts.
func NewPromptRenderer(texts map[string][]byte) *PromptRenderer {
	return &PromptRenderer{texts: texts, textParts: map[string][]byte{}, blocks: map[*Task][2]PromptPart{},
		prefixes: map[prefixKey]prefix{}}
}

// Render returns the exact prompt bytes of role (see RenderPrompt).
func (r *PromptRenderer) Render(role Role, task *Task, draft []byte) ([]byte, error) {
	parts, err := r.Parts(role, task, draft)
	if err != nil {
		return nil, err
	}
	n := 0
	for _, p := range parts {
		n += len(p.Bytes)
	}
	b := make([]byte, 0, n)
	for _, p := range parts {
		b = append(b, p.Bytes...)
	}
	return b, nil
}

// instruction returns the instruction parts of role's prompt: the common
// instruction, the role's, the final-answer schema and, for B, the
// reconciliation schema, each with its blank line.
func (r *PromptRenderer) instruction(role Role) ([]PromptPart, error) {
	keys := []string{PromptCommon}
	switch role {
	case RoleDraft:
		keys = append(keys, PromptDraft, PromptFinalSchema)
	case RoleReviewA:
		keys = append(keys, PromptReviewA, PromptFinalSchema)
	case RoleReviewB:
		keys = append(keys, PromptReviewB, PromptFinalSchema, PromptReconciliationSchema)
	default:
		return nil, &verr.Error{Reason: ReasonPromptTextMissing, Rule: RulePrompts, Detail: fmt.Sprintf("no prompt for role %q", role)}
	}
	parts := make([]PromptPart, 0, len(keys)+3)
	for i, k := range keys {
		t, ok := r.texts[k]
		if !ok || len(bytes.TrimSpace(t)) == 0 {
			return nil, verr.Newf(ReasonPromptTextMissing, ManifestFile, "/prompts/"+k, RulePrompts, "prompt text %s is not loaded", k)
		}
		name := k
		if i == 1 {
			name = "role_instruction"
		}
		b, ok := r.textParts[k]
		if !ok {
			b = append(bytes.TrimRight(bytes.Clone(t), "\n"), "\n\n"...)
			r.textParts[k] = b
		}
		parts = append(parts, PromptPart{Name: name, Bytes: b})
	}
	return parts, nil
}

// draftMissing is the refusal of A's and B's prompt when the shared draft
// has no raw output.
func draftMissing(task *Task) error {
	return &verr.Error{Reason: ReasonCommonDraftUnavailable, File: PacketPath(task.Entry.ID), Rule: "CONTRACT §2",
		Detail: "the shared draft has no raw output; A and B are not dispatched"}
}

// parts is Parts with the shared draft's block (A and B) named and left
// empty, for the caller to write.
func (r *PromptRenderer) parts(role Role, task *Task, draft []byte) ([]PromptPart, error) {
	parts, err := r.instruction(role)
	if err != nil {
		return nil, err
	}
	blocks, ok := r.blocks[task]
	if !ok {
		pkt, err := packetBytes(&r.packet, task.Packet)
		if err != nil {
			return nil, err
		}
		blocks = [2]PromptPart{promptBlock("TASK", task.Text), promptBlock("EVIDENCE_PACKET", pkt)}
		r.blocks[task] = blocks
	}
	parts = append(parts, blocks[0], blocks[1])
	if role != RoleDraft {
		if draft == nil {
			return nil, draftMissing(task)
		}
		parts = append(parts, PromptPart{Name: "COMMON_DRAFT"})
	}
	return parts, nil
}

// Parts returns the parts of role's prompt, in order (see
// RenderPromptParts): their concatenation is RenderPrompt's bytes.
func (r *PromptRenderer) Parts(role Role, task *Task, draft []byte) ([]PromptPart, error) {
	parts, err := r.parts(role, task, draft)
	if err != nil {
		return nil, err
	}
	if n := len(parts) - 1; parts[n].Name == "COMMON_DRAFT" {
		var b bytes.Buffer
		writeBlock(&b, "COMMON_DRAFT", draft)
		parts[n].Bytes = b.Bytes()
	}
	return parts, nil
}

// Identity returns the SHA-256 (hex) and the size in bytes of role's
// prompt (the concatenation of Parts), hashed without building it: each
// task's packet is encoded once for the three roles and not kept, and the
// shared draft, which A's and B's prompts quote whole, is not copied. Its
// errors are Parts' errors, in the same order.
func (r *PromptRenderer) Identity(role Role, task *Task, draft []byte) (string, int64, error) {
	p, ok := r.prefixes[prefixKey{role, task}]
	if !ok {
		if _, err := r.instruction(role); err != nil {
			return "", 0, err // not a role of the contract
		}
		r.hashPrefixes(task)
		p = r.prefixes[prefixKey{role, task}]
	}
	if p.err != nil {
		return "", 0, p.err
	}
	h := p.h
	size := p.size
	if role != RoleDraft {
		if draft == nil {
			return "", 0, draftMissing(task)
		}
		c, err := p.h.(hash.Cloner).Clone()
		if err != nil {
			return "", 0, err
		}
		h = c
		size += int64(writeBlock(h, "COMMON_DRAFT", draft))
	}
	return hex.EncodeToString(h.Sum(nil)), size, nil
}

// hashPrefixes hashes the draft's, A's and B's prompts of task up to their
// COMMON_DRAFT block into r.prefixes, encoding the task's packet once.
func (r *PromptRenderer) hashPrefixes(task *Task) {
	pkt, pktErr := packetBytes(&r.packet, task.Packet)
	for _, role := range []Role{RoleDraft, RoleReviewA, RoleReviewB} {
		parts, err := r.instruction(role)
		if err == nil {
			err = pktErr
		}
		if err != nil {
			r.prefixes[prefixKey{role, task}] = prefix{err: err}
			continue
		}
		h := sha256.New()
		var size int64
		for _, part := range parts {
			h.Write(part.Bytes)
			size += int64(len(part.Bytes))
		}
		size += int64(writeBlock(h, "TASK", task.Text))
		size += int64(writeBlock(h, "EVIDENCE_PACKET", pkt))
		r.prefixes[prefixKey{role, task}] = prefix{h: h, size: size}
	}
}

// promptBlock is the part of label holding data, framed as the prompt
// shows it.
func promptBlock(label string, data []byte) PromptPart {
	var b bytes.Buffer
	writeBlock(&b, label, data)
	return PromptPart{Name: label, Bytes: b.Bytes()}
}

// writeBlock writes data framed as the prompt shows the block label and
// returns the number of bytes written.
func writeBlock(w io.Writer, label string, data []byte) int {
	n, _ := io.WriteString(w, "<<<"+label+" bytes="+strconv.Itoa(len(data))+">>>\n")
	m, _ := w.Write(data)
	k, _ := io.WriteString(w, "\n<<<END "+label+">>>\n")
	return n + m + k
}

// packetBytes serializes a packet's evidence items as the prompt shows
// them into buf (emptied first) and returns those bytes, which stay valid
// until buf is used again.
func packetBytes(buf *bytes.Buffer, p Packet) ([]byte, error) {
	buf.Reset()
	if err := EncodeJSON(buf, p.Items); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

// RenderPrompts renders the D, A and B prompts of one repetition of a task
// from the campaign's prompt texts, task, packet and the repetition's
// shared-draft raw output (PROMPTS.md). A and B receive the identical
// task, packet and draft bytes (the draft read again by
// Campaign.RawResponse). Errors: ReasonPromptRunMissing and those of
// RenderPrompt and Campaign.RawResponse.
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
		return nil, verr.Newf(ReasonPromptRunMissing, ManifestFile, "/runs", RulePrompts, "no run of task %s repetition %d", task, repetition)
	}
	var draft []byte
	for _, s := range c.Sessions {
		if s.ID == run.Sessions.Draft && s.Role == RoleDraft {
			b, err := c.RawResponse(s)
			if err != nil {
				return nil, err
			}
			draft = b
		}
	}
	ps := &PromptSet{Task: task, Repetition: repetition}
	var aParts, bParts []PromptPart
	for _, x := range []struct {
		role  Role
		dst   *RenderedPrompt
		parts *[]PromptPart
	}{{RoleDraft, &ps.Draft, nil}, {RoleReviewA, &ps.ReviewA, &aParts}, {RoleReviewB, &ps.ReviewB, &bParts}} {
		parts, err := RenderPromptParts(x.role, c.Prompts, t, draft)
		if err != nil {
			return nil, err
		}
		var b bytes.Buffer
		for _, p := range parts {
			b.Write(p.Bytes)
		}
		sum := sha256.Sum256(b.Bytes())
		*x.dst = RenderedPrompt{Role: x.role, Bytes: b.Bytes(), SHA256: hex.EncodeToString(sum[:]), Size: b.Len()}
		if x.parts != nil {
			*x.parts = parts
		}
	}
	find := func(ps []PromptPart, name string) []byte {
		for _, p := range ps {
			if p.Name == name {
				return p.Bytes
			}
		}
		return nil
	}
	for _, p := range bParts {
		a := find(aParts, p.Name)
		if !bytes.Equal(a, p.Bytes) {
			ps.Differences = append(ps.Differences, PromptDifference{Part: p.Name, ABytes: len(a), BBytes: len(p.Bytes)})
			ps.AOnly = append(ps.AOnly, a...)
			ps.BOnly = append(ps.BOnly, p.Bytes...)
		}
	}
	for _, p := range aParts {
		if find(bParts, p.Name) == nil {
			ps.Differences = append(ps.Differences, PromptDifference{Part: p.Name, ABytes: len(p.Bytes)})
			ps.AOnly = append(ps.AOnly, p.Bytes...)
		}
	}
	ps.ExtraBytes = ps.ReviewB.Size - ps.ReviewA.Size
	return ps, nil
}
