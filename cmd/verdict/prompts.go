package main

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"verdict/blinding"
	"verdict/campaign"
	"verdict/pipeline"
	"verdict/verr"
)

// promptJSON is one rendered prompt in `verdict prompts --format json`.
type promptJSON struct {
	Role   campaign.Role `json:"role"`
	SHA256 string        `json:"sha256"`
	Bytes  int           `json:"bytes"`
	Text   string        `json:"text"`
}

// promptsOutput is the JSON report of `verdict prompts`.
type promptsOutput struct {
	Synthetic  bool         `json:"synthetic"`
	Task       string       `json:"task"`
	Repetition int          `json:"repetition"`
	Prompts    []promptJSON `json:"prompts"`
	// Waiting says, before the shared draft ran, that A's and B's prompts
	// quote its output and cannot be rendered yet (Prompts then holds D's
	// alone); omitted once they are rendered.
	Waiting    string `json:"waiting,omitempty"`
	Difference struct {
		Parts      []campaign.PromptDifference `json:"parts"`
		ExtraBytes int                         `json:"b_extra_bytes"`
		AOnly      string                      `json:"a_only"`
		BOnly      string                      `json:"b_only"`
	} `json:"b_differs_from_a"`
}

// newPromptsCmd builds `verdict prompts CAMPAIGN --task ID [--repetition N] [--raw ROLE] [--format text|json]`.
func newPromptsCmd(a *app) *cobra.Command {
	var task, raw, workflow string
	var rep int
	c := &cobra.Command{
		Use:   "prompts CAMPAIGN --task ID",
		Short: "Exact rendered D, A and B prompt bytes, their SHA-256 and how B differs from A",
		Long: `prompts renders the exact prompt bytes of the shared draft D and the
reviews A and B of one repetition of a task (PROMPTS.md): the common
instruction, the role's instruction, the common final-answer schema and —
for B only — the reconciliation schema, then the labelled data blocks TASK,
EVIDENCE_PACKET and (A, B) COMMON_DRAFT. It prints each prompt's bytes,
SHA-256 and byte count, and the bytes by which B differs from A.
--raw draft|review-a|review-b writes exactly one prompt's bytes and nothing
else, so that its digest can be checked with any sha256 tool.

Before the shared draft of the repetition has run (its response is not in
the campaign), prompts shows D's prompt alone and says that A and B wait
for D's output (their prompts quote it); --raw draft works then too.

For a system-comparison campaign (CONTRACT §6), --workflow W renders the
workflow's two prompts instead: the investigation's (the frozen standalone
investigator instruction and TASK) and the review's (the instruction the
first experiment selected, the same for all three systems, then TASK, the
workflow's raw-observation packet as EVIDENCE_PACKET and the investigation
draft as COMMON_DRAFT); --raw investigation|review writes one of them.`,
		Args: cobra.ExactArgs(1),
	}
	format := formatFlag(c, "text", "json")
	c.Flags().StringVar(&task, "task", "", "task ID (T<n>), required")
	c.Flags().IntVar(&rep, "repetition", 1, "repetition number")
	c.Flags().StringVar(&raw, "raw", "", "write only this role's exact prompt bytes: draft, review-a or review-b")
	c.Flags().StringVar(&workflow, "workflow", "", "workflow ID (W<n>) of a system-comparison campaign: its investigator and review prompts")
	c.RunE = func(cmd *cobra.Command, args []string) error {
		d, derr := pipeline.DesignOfDir(args[0])
		if derr == nil && raw != "" && !slices.Contains(d.Shape().PromptRoles, campaign.Role(raw)) {
			return usagef("--raw %q: want %s", raw, roleList(d.Shape().PromptRoles))
		}
		if derr == nil && d.Shape().Name == campaign.DesignSystemComparison {
			return systemPrompts(a, args[0], workflow, raw, *format)
		}
		if workflow != "" {
			return usagef("--workflow applies to a system-comparison campaign; this one is fixed-evidence (use --task)")
		}
		if task == "" {
			return usagef("--task is required")
		}
		// With --raw, stdout carries exactly one prompt's bytes or nothing:
		// refusals go to stderr so that a digest of stdout is never the
		// digest of an error message.
		errw := a.stdout
		if raw != "" {
			errw = a.stderr
		}
		cam, err := pipeline.LoadDir(args[0])
		if err != nil {
			for _, r := range admissionRefusalsOf(verr.Flatten(err)) {
				writeAdmissionRefusal(errw, "", r)
			}
			return failed("campaign refused")
		}
		if raw == string(campaign.RoleDraft) {
			// The draft's prompt holds no draft: a runner renders it
			// before the shared draft has run.
			for _, t := range cam.Tasks {
				if t.Entry.ID == task {
					b, err := campaign.RenderPrompt(campaign.RoleDraft, cam.Prompts, t, nil)
					if err != nil {
						fmt.Fprintln(errw, err)
						return failed("%v", err)
					}
					_, err = a.stdout.Write(b)
					return err
				}
			}
		}
		ps, err := campaign.RenderPrompts(cam, task, rep)
		if e := (*verr.Error)(nil); errors.As(err, &e) && e.Reason == campaign.ReasonCommonDraftUnavailable && raw == "" {
			return draftOnly(a, cam, task, rep, *format)
		}
		if err != nil {
			fmt.Fprintln(errw, err)
			return failed("%v", err)
		}
		all := []campaign.RenderedPrompt{ps.Draft, ps.ReviewA, ps.ReviewB}
		if raw != "" {
			for _, p := range all {
				if string(p.Role) == raw {
					_, err := a.stdout.Write(p.Bytes)
					return err
				}
			}
		}
		if *format == "json" {
			var out promptsOutput
			out.Synthetic, out.Task, out.Repetition = cam.Manifest.Synthetic, task, rep
			for _, p := range all {
				out.Prompts = append(out.Prompts, promptJSON{Role: p.Role, SHA256: p.SHA256, Bytes: p.Size, Text: string(p.Bytes)})
			}
			d := &out.Difference
			d.Parts, d.ExtraBytes, d.AOnly, d.BOnly = ps.Differences, ps.ExtraBytes, string(ps.AOnly), string(ps.BOnly)
			return admitJSON(a.stdout, out)
		}
		w := a.stdout
		if cam.Manifest.Synthetic {
			fmt.Fprintln(w, "SYNTHETIC campaign: prompts rendered from inert synthetic fixtures")
		}
		fmt.Fprintf(w, "task %s repetition %d\n", task, rep)
		for _, p := range all {
			fmt.Fprintf(w, "%s  sha256 %s  %d bytes\n", p.Role, p.SHA256, p.Size)
		}
		fmt.Fprintf(w, "B differs from A by %+d bytes; every data block is identical; differing parts:\n", ps.ExtraBytes)
		for _, d := range ps.Differences {
			fmt.Fprintf(w, "  %s: A %d bytes, B %d bytes\n", d.Part, d.ABytes, d.BBytes)
		}
		for _, p := range all {
			fmt.Fprintf(w, "\n----- BEGIN %s PROMPT (%d bytes) -----\n", p.Role, p.Size)
			w.Write(p.Bytes)
			fmt.Fprintf(w, "----- END %s PROMPT -----\n", p.Role)
		}
		fmt.Fprintf(w, "\n----- BEGIN B-ONLY BYTES (%d) -----\n", len(ps.BOnly))
		w.Write(ps.BOnly)
		fmt.Fprintf(w, "----- END B-ONLY BYTES -----\n")
		fmt.Fprintf(w, "----- BEGIN A-ONLY BYTES (%d) -----\n", len(ps.AOnly))
		w.Write(ps.AOnly)
		fmt.Fprintf(w, "----- END A-ONLY BYTES -----\n")
		return nil
	}
	return c
}

// draftWaiting is what prompts says about A and B before the shared draft
// of their repetition has an output.
const draftWaiting = "A's and B's prompts quote the shared draft's output (COMMON_DRAFT): they wait for D to run and its response to be imported"

// draftOnly is `verdict prompts` before the shared draft ran: D's prompt,
// its SHA-256 and size, and the sentence that A and B wait for D's output.
func draftOnly(a *app, cam *campaign.Campaign, task string, rep int, format string) error {
	var t *campaign.Task
	for _, x := range cam.Tasks {
		if x.Entry.ID == task {
			t = x
		}
	}
	b, err := campaign.RenderPrompt(campaign.RoleDraft, cam.Prompts, t, nil)
	if err != nil {
		fmt.Fprintln(a.stdout, err)
		return failed("%v", err)
	}
	sum := blinding.Digest(b)
	if format == "json" {
		out := promptsOutput{Synthetic: cam.Manifest.Synthetic, Task: task, Repetition: rep, Waiting: draftWaiting,
			Prompts: []promptJSON{{Role: campaign.RoleDraft, SHA256: sum, Bytes: len(b), Text: string(b)}}}
		out.Difference.Parts = []campaign.PromptDifference{}
		return admitJSON(a.stdout, out)
	}
	w := a.stdout
	if cam.Manifest.Synthetic {
		fmt.Fprintln(w, "SYNTHETIC campaign: prompts rendered from inert synthetic fixtures")
	}
	fmt.Fprintf(w, "task %s repetition %d\n", task, rep)
	fmt.Fprintf(w, "%s  sha256 %s  %d bytes\n", campaign.RoleDraft, sum, len(b))
	fmt.Fprintf(w, "review-a, review-b: not yet: %s\n", draftWaiting)
	fmt.Fprintf(w, "\n----- BEGIN %s PROMPT (%d bytes) -----\n", campaign.RoleDraft, len(b))
	w.Write(b)
	fmt.Fprintf(w, "----- END %s PROMPT -----\n", campaign.RoleDraft)
	return nil
}

// roleList is roles as prose: "draft, review-a or review-b".
func roleList(roles []campaign.Role) string {
	var b strings.Builder
	for i, r := range roles {
		switch {
		case i == 0:
		case i == len(roles)-1:
			b.WriteString(" or ")
		default:
			b.WriteString(", ")
		}
		b.WriteString(string(r))
	}
	return b.String()
}
