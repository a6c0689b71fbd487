package tui

import (
	"encoding/base64"
	"fmt"
	"slices"

	"verdict/campaign"
	"verdict/verr"
)

// ledgerEntry is one review-B answer the ledger shows, of either design:
// a fixed-evidence review-b session over its task's excerpt packet, or a
// system comparison's review over its workflow's raw-observation packet
// (CONTRACT §6, when the first experiment selected review B).
type ledgerEntry struct {
	id, task string
	rep      int
	resp     *campaign.Response
	// ledgerFailure is the loader's refusal of the ledger beside a valid
	// final answer; failure the refusal of the whole answer.
	ledgerFailure, failure *verr.Error
	// Fixed evidence: the pair's order and the task with its packet.
	order campaign.Order
	ftask *campaign.Task
	// System comparison: the workflow (its packet) and its task.
	wf    *campaign.SystemWorkflow
	stask *campaign.SystemTask
}

// fixedEntries are the review-b sessions of c in manifest order.
func fixedEntries(c *campaign.Campaign) []*ledgerEntry {
	tasks := map[string]*campaign.Task{}
	for _, t := range c.Tasks {
		tasks[t.Entry.ID] = t
	}
	var out []*ledgerEntry
	for _, s := range c.Sessions {
		if s.Role != campaign.RoleReviewB {
			continue
		}
		out = append(out, &ledgerEntry{id: s.ID, task: s.Run.Task, rep: s.Run.Repetition, resp: s.Response, ledgerFailure: s.LedgerFailure,
			failure: s.Failure, order: s.Run.Order, ftask: tasks[s.Run.Task]})
	}
	return out
}

// systemEntries are the reviews of a system comparison whose selected
// review is B, in workflow order (the caller refuses one whose selected
// review is A).
func systemEntries(c *campaign.SystemCampaign) []*ledgerEntry {
	var out []*ledgerEntry
	for _, w := range c.Workflows {
		wf := w.Workflow
		out = append(out, &ledgerEntry{id: w.Review.ID, task: wf.Task, rep: wf.Repetition, resp: w.Review.Response, ledgerFailure: w.Review.LedgerFailure,
			failure: w.Review.Failure, wf: w, stask: c.Task(wf.Task)})
	}
	return out
}

// label names the entry in its list row after the session ID.
func (e *ledgerEntry) label() string {
	if e.wf != nil {
		return fmt.Sprintf("%s rep %d · %s %s", e.task, e.rep, e.wf.Workflow.ID, e.wf.Workflow.System)
	}
	return fmt.Sprintf("%s rep %d", e.task, e.rep)
}

// heading is the detail pane's first line of the entry's session row.
func (e *ledgerEntry) heading() string {
	if e.wf != nil {
		return fmt.Sprintf("%s · review (selected: review-b) · workflow %s · %s · task %s · repetition %d", e.id, e.wf.Workflow.ID, e.wf.Workflow.System, e.task, e.rep)
	}
	return fmt.Sprintf("%s · review-b · task %s · repetition %d · %s", e.id, e.task, e.rep, e.order)
}

// context says where the entry's evidence comes from: the repository,
// category and packet size ("" when the task is unknown).
func (e *ledgerEntry) context() string {
	switch {
	case e.ftask != nil:
		return "repository " + e.ftask.Entry.Repository + " · " + string(e.ftask.Entry.Category) + fmt.Sprintf(" · packet %d evidence items", len(e.ftask.Packet.Items))
	case e.stask != nil:
		s := "repository " + e.stask.Entry.Repository + " · " + string(e.stask.Entry.Category)
		if p := e.wf.Packet; p != nil {
			return s + fmt.Sprintf(" · raw-observation packet %s: %d observations (%s)", campaign.PacketFile(e.wf.Workflow.ID), len(p.Items), p.Status)
		}
		return s + " · no raw-observation packet"
	}
	return ""
}

// source returns evidence item id of the entry's packet for the viewer,
// nil when the packet has no such item. An observation shows its
// returned bytes, numbered from 1.
func (e *ledgerEntry) source(id string) *evidenceSource {
	if e.ftask != nil {
		for i := range e.ftask.Packet.Items {
			if e.ftask.Packet.Items[i].ID == id {
				return sourceOf(&e.ftask.Packet.Items[i])
			}
		}
	}
	if it := e.observation(id); it != nil {
		text := it.ResponseBase64
		if b, err := base64.StdEncoding.DecodeString(it.ResponseBase64); err == nil {
			text = string(b)
		}
		n := len(excerptLines(text))
		return &evidenceSource{ID: it.ID, Path: it.Tool + " " + it.Arguments, Origin: fmt.Sprintf("response lines · call %s · %s", it.CallID, it.Outcome),
			StartLine: 1, EndLine: n, Excerpt: text}
	}
	return nil
}

// observation returns item id of the workflow's packet, or nil.
func (e *ledgerEntry) observation(id string) *campaign.ObservationItem {
	if e.wf == nil || e.wf.Packet == nil {
		return nil
	}
	for i := range e.wf.Packet.Items {
		if e.wf.Packet.Items[i].ID == id {
			return &e.wf.Packet.Items[i]
		}
	}
	return nil
}

// itemLine describes evidence item id in a disposition's detail; ok is
// false when the packet has no such item.
func (e *ledgerEntry) itemLine(id string) (string, bool) {
	if it := e.observation(id); it != nil {
		s := fmt.Sprintf("observation %s: %s %s · %s · %d bytes", it.ID, it.Tool, it.Arguments, it.Outcome, it.ResponseBytes)
		for _, d := range it.DeclaredSources {
			s += fmt.Sprintf(" · declared %s:%d-%d", d.Path, d.StartLine, d.EndLine)
		}
		return s, true
	}
	if e.wf != nil {
		return "", false
	}
	if src := e.source(id); src != nil {
		return fmt.Sprintf("evidence item %s:%d-%d", src.Path, src.StartLine, src.EndLine), true
	}
	return "", false
}

// ref finds evidence item id in the entry's packet and the lines cited
// for it: by the final citations whose 1-based K index is in only, or,
// when only is nil, by every final citation of the item. An observation's
// lines are its response's, not the repository's a citation names: none
// is marked.
func (e *ledgerEntry) ref(id string, only []int) evidenceRef {
	ref := evidenceRef{missing: id, item: e.source(id)}
	if e.resp != nil && e.wf == nil {
		for i, c := range e.resp.Final.Citations {
			if c.EvidenceID != id || (only != nil && !slices.Contains(only, i+1)) {
				continue
			}
			ref.cited = append(ref.cited, LineRange{c.StartLine, c.EndLine})
		}
	}
	return ref
}
