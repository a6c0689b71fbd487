package campaign

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// frozenTexts returns the contract's frozen prompt texts (FrozenPrompt).
func frozenTexts(t *testing.T) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for _, key := range PromptKeys() {
		out[key] = FrozenPrompt(key)
	}
	return out
}

// TestShippedPromptsAreFrozen: the prompt files of the live manifest and
// of the embedded SYNTHETIC campaign are byte-identical to the frozen
// texts.
func TestShippedPromptsAreFrozen(t *testing.T) {
	for _, dir := range []string{"live", "campaign"} {
		for key, name := range frozenPromptFiles {
			if key == PromptInvestigator {
				continue // a system-comparison prompt; the fixed-evidence campaigns do not bind it
			}
			b, err := os.ReadFile(filepath.Join("..", "fixtures", dir, "prompts", filepath.Base(name)))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(b, FrozenPrompt(key)) {
				t.Errorf("fixtures/%s/prompts/%s differs from the frozen %s text", dir, filepath.Base(name), key)
			}
		}
	}
}

func promptCampaign(t *testing.T) *Campaign {
	task := &Task{Entry: TaskEntry{ID: "T1", Repository: "synthetic/repo", Category: CategoryBehaviorExplanation},
		Text: []byte("SYNTHETIC task: explain <parse> & report.\n"),
		Packet: Packet{Task: "T1", Items: []EvidenceItem{{ID: "E1", Repository: "synthetic/repo", Commit: strings.Repeat("a", 40),
			Path: "src/a.ts", StartLine: 1, EndLine: 2, FileSHA256: strings.Repeat("b", 64), Excerpt: "const a = 1;\nexport { a };"}}}}
	run := Run{Task: "T1", Repetition: 1, Order: OrderAFirst, Sessions: Sessions{Draft: "S1", ReviewA: "S2", ReviewB: "S3"}}
	return &Campaign{
		Manifest: Manifest{Runs: []Run{run}},
		Tasks:    []*Task{task},
		Sessions: []*Session{{ID: "S1", Role: RoleDraft, Run: run, Raw: []byte(`{"final":{},"reconciliation":null}`)}},
		Prompts:  frozenTexts(t),
	}
}

func TestRenderPromptsStructure(t *testing.T) {
	c := promptCampaign(t)
	ps, err := RenderPrompts(c, "T1", 1)
	if err != nil {
		t.Fatal(err)
	}
	texts := c.Prompts
	d, a, b := string(ps.Draft.Bytes), string(ps.ReviewA.Bytes), string(ps.ReviewB.Bytes)
	trim := func(k string) string { return strings.TrimRight(string(texts[k]), "\n") }
	// D and A never receive B's instruction or the ledger rules.
	for name, p := range map[string]string{"D": d, "A": a} {
		if strings.Contains(p, trim(PromptReviewB)) || strings.Contains(p, trim(PromptReconciliationSchema)) ||
			strings.Contains(p, "Give every supplied evidence ID exactly one disposition") || strings.Contains(p, "A used evidence disposition") {
			t.Fatalf("%s prompt contains B's instruction or ledger rules", name)
		}
	}
	if !strings.Contains(b, trim(PromptReviewB)) || !strings.Contains(b, trim(PromptReconciliationSchema)) {
		t.Fatal("B lacks its instruction or reconciliation schema")
	}
	// Order: common, role, final schema, [reconciliation], TASK, EVIDENCE_PACKET, COMMON_DRAFT.
	want := []string{trim(PromptCommon), trim(PromptReviewB), trim(PromptFinalSchema), trim(PromptReconciliationSchema),
		"<<<TASK bytes=", "<<<EVIDENCE_PACKET bytes=", "<<<COMMON_DRAFT bytes="}
	pos := -1
	for _, w := range want {
		i := strings.Index(b, w)
		if i <= pos {
			t.Fatalf("%q out of order in B", w)
		}
		pos = i
	}
	if strings.Contains(d, "COMMON_DRAFT") || !strings.Contains(a, "<<<COMMON_DRAFT bytes=34>>>\n{\"final\":{},\"reconciliation\":null}\n<<<END COMMON_DRAFT>>>\n") {
		t.Fatal("draft block wrong")
	}
	if !strings.Contains(d, "<<<TASK bytes=42>>>\nSYNTHETIC task: explain <parse> & report.\n\n<<<END TASK>>>\n") {
		t.Fatal(d)
	}
	// A and B share every data byte; they differ only in the instruction part.
	var parts []string
	for _, d := range ps.Differences {
		parts = append(parts, d.Part)
	}
	if strings.Join(parts, ",") != "role_instruction,reconciliation_schema" {
		t.Fatalf("differences %v", ps.Differences)
	}
	if string(ps.BOnly) != trim(PromptReviewB)+"\n\n"+trim(PromptReconciliationSchema)+"\n\n" || string(ps.AOnly) != trim(PromptReviewA)+"\n\n" {
		t.Fatalf("B-only %q A-only %q", ps.BOnly, ps.AOnly)
	}
	if ps.ExtraBytes != len(b)-len(a) || len(b)-len(a) != len(ps.BOnly)-len(ps.AOnly) {
		t.Fatal("extra bytes")
	}
	sum := sha256.Sum256(ps.ReviewB.Bytes)
	if ps.ReviewB.SHA256 != hex.EncodeToString(sum[:]) || ps.ReviewB.Size != len(b) {
		t.Fatal("digest")
	}
	ps2, _ := RenderPrompts(c, "T1", 1)
	if !bytes.Equal(ps2.ReviewB.Bytes, ps.ReviewB.Bytes) {
		t.Fatal("not deterministic")
	}
}

func TestRenderPromptsRefusals(t *testing.T) {
	c := promptCampaign(t)
	if _, err := RenderPrompts(c, "T1", 2); err == nil || !strings.Contains(err.Error(), string(ReasonPromptRunMissing)) {
		t.Fatal(err)
	}
	c.Sessions[0].Raw = nil
	if _, err := RenderPrompts(c, "T1", 1); err == nil || !strings.Contains(err.Error(), string(ReasonCommonDraftUnavailable)) {
		t.Fatal(err)
	}
	c = promptCampaign(t)
	delete(c.Prompts, PromptReconciliationSchema)
	if _, err := RenderPrompts(c, "T1", 1); err == nil || !strings.Contains(err.Error(), string(ReasonPromptTextMissing)) {
		t.Fatal(err)
	}
}

// TestPromptIdentityIsRenderedBytes: PromptRenderer.Identity, which hashes
// a prompt without building it, gives the SHA-256 and size of the bytes
// RenderPrompts renders, for each role, also on a second call (the parts
// it keeps), and refuses A and B without a draft as Parts does.
func TestPromptIdentityIsRenderedBytes(t *testing.T) {
	c := promptCampaign(t)
	ps, err := RenderPrompts(c, "T1", 1)
	if err != nil {
		t.Fatal(err)
	}
	var task *Task
	for _, x := range c.Tasks {
		if x.Entry.ID == "T1" {
			task = x
		}
	}
	draft := ps.ReviewA.Bytes[bytes.Index(ps.ReviewA.Bytes, []byte("<<<COMMON_DRAFT bytes=")):]
	draft = draft[bytes.IndexByte(draft, '\n')+1 : bytes.LastIndex(draft, []byte("\n<<<END COMMON_DRAFT>>>"))]
	r := NewPromptRenderer(c.Prompts)
	for range 2 {
		for _, p := range []RenderedPrompt{ps.Draft, ps.ReviewA, ps.ReviewB} {
			sha, size, err := r.Identity(p.Role, task, draft)
			if err != nil || sha != p.SHA256 || size != int64(p.Size) {
				t.Fatalf("%s: identity %s %d %v, rendered %s %d", p.Role, sha, size, err, p.SHA256, p.Size)
			}
			sum := sha256.Sum256(p.Bytes)
			if hex.EncodeToString(sum[:]) != sha {
				t.Fatalf("%s: identity is not the digest of the rendered bytes", p.Role)
			}
		}
	}
	if _, _, err := r.Identity(RoleReviewA, task, nil); err == nil {
		t.Fatal("A's identity without a draft")
	}
	// Identity keeps no task or packet block (only each role's hash
	// state), and refuses what Parts refuses, with the same error.
	if len(r.blocks) != 0 {
		t.Fatalf("Identity kept %d task's blocks", len(r.blocks))
	}
	for _, missing := range []string{PromptCommon, PromptReviewA, PromptReconciliationSchema} {
		texts := maps.Clone(c.Prompts)
		delete(texts, missing)
		for _, role := range []Role{RoleDraft, RoleReviewA, RoleReviewB, "review_c"} {
			for _, d := range [][]byte{draft, nil} {
				_, want := NewPromptRenderer(texts).Parts(role, task, d)
				_, _, got := NewPromptRenderer(texts).Identity(role, task, d)
				if fmt.Sprint(got) != fmt.Sprint(want) {
					t.Fatalf("without %s, %s (draft %v): Identity says %v, Parts %v", missing, role, d != nil, got, want)
				}
			}
		}
	}
}
