package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"

	"verdict/campaign"
	"verdict/pipeline"
	"verdict/scorer"
	"verdict/verr"
)

// systemPromptsOutput is the JSON report of `verdict prompts --workflow`.
type systemPromptsOutput struct {
	Synthetic bool         `json:"synthetic"`
	Workflow  string       `json:"workflow"`
	System    string       `json:"system"`
	Prompts   []promptJSON `json:"prompts"`
}

// systemPrompts renders a system workflow's investigation and review
// prompts (campaign.RenderInvestigatorPrompt, RenderSystemReviewPrompt).
func systemPrompts(a *app, dir, workflow, raw, format string) error {
	if workflow == "" {
		return usagef("--workflow W is required for a system-comparison campaign")
	}
	l, _, err := pipeline.LoadDesign(dir)
	if err != nil {
		for _, r := range admissionRefusalsOf(verr.Flatten(err)) {
			writeAdmissionRefusal(a.stderr, "", r)
		}
		return failed("campaign refused")
	}
	c, ok := l.(*scorer.SystemLoaded)
	if !ok {
		return failed("campaign %s is no longer a system comparison", dir)
	}
	var w *campaign.SystemWorkflow
	for _, x := range c.Workflows {
		if x.Workflow.ID == workflow {
			w = x
		}
	}
	if w == nil {
		return usagef("--workflow %s: the manifest has no such workflow", workflow)
	}
	t := c.Task(w.Workflow.Task)
	inv, err := campaign.RenderInvestigatorPrompt(c.Prompts, t.Text)
	if err != nil {
		return failed("%v", err)
	}
	out := systemPromptsOutput{Synthetic: c.Manifest.Synthetic, Workflow: workflow, System: string(w.Workflow.System)}
	add := func(role campaign.Role, b []byte) {
		sum := sha256.Sum256(b)
		out.Prompts = append(out.Prompts, promptJSON{Role: role, SHA256: hex.EncodeToString(sum[:]), Bytes: len(b), Text: string(b)})
	}
	add(campaign.RoleInvestigation, inv)
	if w.Packet != nil && w.Draft != nil {
		rev, err := campaign.RenderSystemReviewPrompt(c.Manifest.SelectedReview, c.Prompts, t.Text, w.Packet, w.Draft)
		if err != nil {
			return failed("%v", err)
		}
		add(campaign.RoleReview, rev)
	}
	if raw != "" {
		for _, p := range out.Prompts {
			if string(p.Role) == raw {
				_, err := a.stdout.Write([]byte(p.Text))
				return err
			}
		}
		return failed("the %s prompt of %s cannot be rendered: the review is not launched", raw, workflow)
	}
	if format == "json" {
		return admitJSON(a.stdout, out)
	}
	wr := a.stdout
	if out.Synthetic {
		fmt.Fprintln(wr, "SYNTHETIC campaign: prompts rendered from inert synthetic fixtures")
	}
	fmt.Fprintf(wr, "workflow %s (%s, task %s repetition %d); review instruction: %s\n", workflow, w.Workflow.System, w.Workflow.Task, w.Workflow.Repetition, c.Manifest.SelectedReview)
	for _, p := range out.Prompts {
		fmt.Fprintf(wr, "%s  sha256 %s  %d bytes\n", p.Role, p.SHA256, p.Bytes)
	}
	if len(out.Prompts) == 1 {
		fmt.Fprintln(wr, "review: not launched (no draft or no packet)")
	}
	for _, p := range out.Prompts {
		fmt.Fprintf(wr, "\n----- BEGIN %s PROMPT (%d bytes) -----\n", p.Role, p.Bytes)
		fmt.Fprint(wr, p.Text)
		fmt.Fprintf(wr, "----- END %s PROMPT -----\n", p.Role)
	}
	return nil
}
