package scorer

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"time"

	"verdict/campaign"
)

// SYNTHETIC in-memory campaigns for accounting, admission and validity
// tests. Every value is invented for these tests.

func sp(s string) *string { return &s }
func bp(b bool) *bool     { return &b }
func ip(n int64) *int64   { return &n }

func hexSum(b []byte) string { s := sha256.Sum256(b); return hex.EncodeToString(s[:]) }

// meterSpec is a session's synthetic usage: input total (including
// cached), cached, billed output and duration in seconds.
type meterSpec struct {
	in, cached, out int64
	secs            int64
}

var (
	specD = meterSpec{20212, 16298, 931, 60}
	specA = meterSpec{22000, 16000, 1000, 50}
	specB = meterSpec{23000, 16000, 1100, 55}
)

// testCampaign builds an evaluation-shape (or other phase) SYNTHETIC
// campaign: nTasks tasks, two per repository, categories cycling, reps
// repetitions with orders alternating so that every task sees both orders
// when reps ≥ 2, and complete valid receipts for every session.
func testCampaign(phase campaign.Phase, nTasks, reps int) *campaign.Campaign {
	card := ContractPriceCard()
	ex := campaign.Execution{
		ConsumerVersion:     sp("SYNTHETIC consumer 0"),
		ExecutableSHA256:    sp(hexSum([]byte("SYNTHETIC executable"))),
		Model:               sp("synthetic-model"),
		ModelSnapshot:       sp("synthetic-model-snapshot-1"),
		ReasoningEffort:     sp("medium"),
		Tokenizer:           sp("synthetic-tokenizer"),
		Host:                sp("SYNTHETIC host"),
		PermissionPolicy:    sp("no-tools-no-mcp"),
		PriceCard:           &card,
		TariffVerified:      bp(true),
		ReservationEnforced: bp(true),
		OracleFrozen:        bp(true),
	}
	c := &campaign.Campaign{Manifest: campaign.Manifest{
		ContractVersion: campaign.ContractVersion, Synthetic: true, CampaignID: "synthetic-accounting",
		Phase: phase, Seed: hexSum([]byte("seed")), Execution: ex,
		Prompts:              campaign.PromptFiles{Common: "prompts/common.txt", Draft: "prompts/draft.txt", ReviewA: "prompts/review-a.txt", ReviewB: "prompts/review-b.txt", FinalSchema: "prompts/final-schema.txt", ReconciliationSchema: "prompts/reconciliation-schema.txt"},
		ResponseSchemaSHA256: hexSum([]byte("schema")),
		FrozenDocuments:      campaign.FrozenDocuments(),
	}, Prompts: map[string][]byte{}}
	for _, k := range []string{campaign.PromptCommon, campaign.PromptDraft, campaign.PromptReviewA, campaign.PromptReviewB, campaign.PromptFinalSchema, campaign.PromptReconciliationSchema} {
		c.Prompts[k] = campaign.FrozenPrompt(k)
	}
	cats := []campaign.Category{campaign.CategoryBehaviorExplanation, campaign.CategoryChangeImpactPlan, campaign.CategoryCorrectnessBoundary, campaign.CategoryExplicitUncertainty}
	for i := range nTasks {
		id := fmt.Sprintf("T%d", i+1)
		e := campaign.TaskEntry{ID: id, Repository: fmt.Sprintf("synthetic/repo%d", i/2+1), Category: cats[i%4]}
		c.Manifest.Tasks = append(c.Manifest.Tasks, e)
		text := []byte("SYNTHETIC task " + id + "\n")
		t := &campaign.Task{Entry: e, Text: text, Packet: campaign.Packet{Task: id}, Truth: campaign.Truth{Task: id}}
		for k := range 6 {
			t.Packet.Items = append(t.Packet.Items, campaign.EvidenceItem{ID: fmt.Sprintf("E%d", k+1), Repository: e.Repository, Path: "src/a.ts", StartLine: 1, EndLine: 1, Excerpt: "x"})
		}
		for k := range 4 {
			t.Truth.Obligations = append(t.Truth.Obligations, campaign.TruthObligation{ID: fmt.Sprintf("O%d", k+1), Answerable: k < 3})
		}
		c.Tasks = append(c.Tasks, t)
		c.Manifest.Files = append(c.Manifest.Files,
			campaign.FileDigest{Path: campaign.PacketPath(id), SHA256: hexSum([]byte("packet " + id))},
			campaign.FileDigest{Path: campaign.TaskTextPath(id), SHA256: hexSum(text)})
	}
	n := 0
	for rep := 1; rep <= reps; rep++ {
		for i := range nTasks {
			order := campaign.OrderAFirst
			if (i+rep)%2 == 0 {
				order = campaign.OrderBFirst
			}
			r := campaign.Run{Task: c.Manifest.Tasks[i].ID, Repetition: rep, Order: order}
			ids := [3]string{}
			for j := range 3 {
				n++
				ids[j] = fmt.Sprintf("S%d", n)
			}
			r.Sessions = campaign.Sessions{Draft: ids[0], ReviewA: ids[1], ReviewB: ids[2]}
			c.Manifest.Runs = append(c.Manifest.Runs, r)
		}
	}
	for _, r := range c.Manifest.Runs {
		for j, role := range []campaign.Role{campaign.RoleDraft, campaign.RoleReviewA, campaign.RoleReviewB} {
			id := [3]string{r.Sessions.Draft, r.Sessions.ReviewA, r.Sessions.ReviewB}[j]
			spec := [3]meterSpec{specD, specA, specB}[j]
			s := &campaign.Session{ID: id, Role: role, Run: r, Raw: []byte("{}"), Response: &campaign.Response{}}
			s.Receipt = receiptFor(c, s, spec)
			c.Sessions = append(c.Sessions, s)
		}
	}
	return c
}

// testSlot is the time slot of one session: sessions run serially, one
// slot each, in dispatch order.
const testSlot = 10 * time.Minute

// testEpoch is the UTC start of the first slot.
var testEpoch = time.Date(2026, 9, 6, 10, 0, 0, 0, time.UTC)

// receiptFor makes a complete, valid receipt for session s, the
// len(c.Sessions)-th session appended (D, A, B per run): its slot follows
// the run's dispatch order, its input is the prompt campaign.RenderPrompt
// renders for its role (reviews are given the draft's "{}"), its output
// the session's Raw bytes.
func receiptFor(c *campaign.Campaign, s *campaign.Session, spec meterSpec) *campaign.Receipt {
	ex := c.Manifest.Execution
	var task *campaign.Task
	for _, t := range c.Tasks {
		if t.Entry.ID == s.Run.Task {
			task = t
		}
	}
	n := len(c.Sessions)
	slot := n - n%3
	switch {
	case s.Role == campaign.RoleDraft:
	case (s.Role == campaign.RoleReviewA) == (s.Run.Order == campaign.OrderAFirst):
		slot++
	default:
		slot += 2
	}
	start := testEpoch.Add(time.Duration(slot) * testSlot)
	mono := int64(slot) * int64(testSlot)
	in, err := campaign.RenderPrompt(s.Role, c.Prompts, task, []byte("{}"))
	if err != nil {
		panic(err)
	}
	return &campaign.Receipt{
		SessionID: s.ID, RequestID: "R" + s.ID[1:], Role: s.Role, Task: s.Run.Task, Repetition: s.Run.Repetition,
		Status:     campaign.StatusResponse,
		StartedUTC: sp(start.Format(time.RFC3339Nano)), EndedUTC: sp(start.Add(time.Duration(spec.secs) * time.Second).Format(time.RFC3339Nano)),
		StartMonotonicNS: ip(mono), EndMonotonicNS: ip(mono + spec.secs*1_000_000_000),
		InputSHA256: sp(hexSum(in)), InputBytes: ip(int64(len(in))),
		OutputSHA256: sp(hexSum(s.Raw)), OutputBytes: ip(int64(len(s.Raw))), Host: ex.Host,
		Meter:       &campaign.Meter{InputTokens: spec.in, CachedInputTokens: spec.cached, OutputTokens: spec.out, InputIncludesCached: true, OutputIncludesReasoning: true},
		PriceCardID: sp(ex.PriceCard.ID), ActualChargeMicroUSD: nil,
		ValidationNS: 1_000_000_000, AssemblyNS: 500_000_000,
		Model: ex.Model, PermissionPolicy: ex.PermissionPolicy,
		TaskSHA256: sp(hexSum(task.Text)), PacketSHA256: sp(hexSum([]byte("packet " + task.Entry.ID))),
	}
}

// session returns the session of a task/repetition/role.
func session(c *campaign.Campaign, task string, rep int, role campaign.Role) *campaign.Session {
	for _, s := range c.Sessions {
		if s.Run.Task == task && s.Run.Repetition == rep && s.Role == role {
			return s
		}
	}
	panic("no session")
}

// setSpec replaces a session's meter and duration.
func setSpec(s *campaign.Session, spec meterSpec) {
	s.Receipt.Meter = &campaign.Meter{InputTokens: spec.in, CachedInputTokens: spec.cached, OutputTokens: spec.out, InputIncludesCached: true, OutputIncludesReasoning: true}
	*s.Receipt.EndMonotonicNS = *s.Receipt.StartMonotonicNS + spec.secs*1_000_000_000
	st, _ := time.Parse(time.RFC3339Nano, *s.Receipt.StartedUTC)
	s.Receipt.EndedUTC = sp(st.Add(time.Duration(spec.secs) * time.Second).Format(time.RFC3339Nano))
}

// failDraft makes the shared draft of task/rep a timed-out model failure
// with not-dispatched reviews (CONTRACT §2, C23).
func failDraft(c *campaign.Campaign, task string, rep int) {
	d := session(c, task, rep, campaign.RoleDraft)
	k := campaign.ErrorTimeout
	d.Receipt.Status, d.Receipt.ErrorKind = campaign.StatusError, &k
	d.Raw, d.Response = nil, nil
	d.Receipt.OutputSHA256, d.Receipt.OutputBytes = nil, nil
	for _, role := range []campaign.Role{campaign.RoleReviewA, campaign.RoleReviewB} {
		s := session(c, task, rep, role)
		kd := campaign.ErrorSharedDraft
		s.Raw, s.Response = nil, nil
		s.Receipt = &campaign.Receipt{SessionID: s.ID, RequestID: "", Role: role, Task: task, Repetition: rep,
			Status: campaign.StatusNotDispatched, ErrorKind: &kd}
	}
}
