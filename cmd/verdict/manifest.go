package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"verdict/assemble"
	"verdict/campaign"
	"verdict/internal/visible"
)

func newManifestCmd(a *app) *cobra.Command {
	var from string
	var dry bool
	var identities []string
	c := &cobra.Command{
		Use:   "manifest CAMPAIGN [--from PROPOSED-MANIFEST] [--dry-run]",
		Short: "Start manifest.json from the proposed live manifest and bind every file's SHA-256",
		Long: `Manifest binds the SHA-256 of every regular file under tasks/, prompts/,
sources/, responses/ and receipts/ of the campaign, of the rating guidelines
guidelines.md when the campaign has them (they may change until a blinding),
and of any other file the manifest already binds, into manifest.json's
"files", sorted by path, and prints each file added, changed or removed. Every other member keeps its
exact value: an identity that is null stays null, nothing is invented.

A campaign is started with verdict manifest init (the prompt texts, the
tasks and every run its phase requires). When the campaign has no
manifest.json, --from names a proposed manifest to start from instead
(fixtures/live/manifest.json in this repository; copy its prompts/
directory into the campaign too); its tasks and runs lists are then the
coordinator's to write. manifest itself only binds digests.

Binding refuses (exit 1, nothing written):
  frozen-input-changed  a task, packet, truth, prompt or source file would be
                        added, changed or removed after any session ran (a
                        response or receipt exists)
  result-rebound        a bound response or receipt would get another digest
                        or be removed (only new ones may be added)
  campaign-blinded      verdict blind recorded a blinding of the campaign
                        (blindings/): no digest may change any more

--identity NAME=VALUE sets an execution identity that manifest init left
null (or set), by the name check lists (execution.host,
execution.model_snapshot, execution.tariff_verified, ...; booleans true or
false), repeatable: any identity until a session ran; once a response or
receipt exists only a null one (a bound identity is then frozen:
frozen-input-changed); none after a blinding (campaign-blinded).

--dry-run prints the changes and writes nothing, not even the campaign's
lock file; it is refused (import-journal) while an interrupted import
waits for the next write to undo it.

Exit codes: 0 bound (or nothing to change); 1 refused; 2 usage error.`,
		Args: cobra.ExactArgs(1),
	}
	format := formatFlag(c, "text", "json")
	c.Flags().StringVar(&from, "from", "", "proposed manifest to start from when CAMPAIGN has no manifest.json")
	c.Flags().BoolVar(&dry, "dry-run", false, "print what would change; write nothing")
	c.Flags().StringArrayVar(&identities, "identity", nil, "NAME=VALUE: set one execution identity (as manifest init's --identity), repeatable")
	c.RunE = func(cmd *cobra.Command, args []string) error {
		opt := assemble.BindOptions{DryRun: dry}
		if len(identities) > 0 {
			opt.Identities = map[string]string{}
			for _, kv := range identities {
				k, v, ok := strings.Cut(kv, "=")
				if !ok || k == "" {
					return usagef("manifest: --identity %q: want NAME=VALUE", kv)
				}
				opt.Identities[k] = v
			}
		}
		if from != "" {
			b, err := readFlagFile(a, "manifest: --from", from, campaign.FileManifest)
			if err != nil {
				return err
			}
			opt.From = b
		}
		res, err := assemble.Bind(args[0], opt)
		if err != nil {
			return refusal(a, err)
		}
		if res.Changes == nil {
			res.Changes = []assemble.BindChange{}
		}
		if res.Identities == nil {
			res.Identities = []assemble.BindChange{}
		}
		if *format == "json" {
			return writeJSON(a.stdout, res)
		}
		w := a.stdout
		if res.Started {
			fmt.Fprintln(w, "started manifest.json from the proposed manifest")
		}
		for _, ch := range res.Identities {
			fmt.Fprintf(w, "set     %s %s -> %s\n", ch.Path, assemble.IdentityLiteral(ch.Path, ch.Old), assemble.IdentityLiteral(ch.Path, ch.New))
		}
		for _, ch := range res.Changes {
			switch ch.Change {
			case "added":
				fmt.Fprintf(w, "added   %s %s\n", ch.Path, ch.New)
			case "changed":
				fmt.Fprintf(w, "changed %s %s -> %s\n", ch.Path, ch.Old, ch.New)
			default:
				fmt.Fprintf(w, "removed %s %s\n", ch.Path, ch.Old)
			}
		}
		switch {
		case dry:
			fmt.Fprintf(w, "dry run: %d change(s), %d file(s); nothing written\n", len(res.Changes), len(res.Files))
		case res.Written:
			fmt.Fprintf(w, "manifest.json written: %d change(s), %d file(s) bound\n", len(res.Changes), len(res.Files))
		default:
			fmt.Fprintf(w, "manifest.json unchanged: %d file(s) bound\n", len(res.Files))
		}
		return nil
	}
	c.AddCommand(newManifestInitCmd(a))
	return c
}

// newManifestInitCmd is `verdict manifest init`: a new campaign of a
// phase, its prompt texts and a manifest.json with the runs the phase
// requires.
func newManifestInitCmd(a *app) *cobra.Command {
	var phase, id, seed, previous, previousReport string
	var synthetic bool
	var tasks, identities []string
	c := &cobra.Command{
		Use:   "init CAMPAIGN --phase PHASE --task OWNER/NAME:CATEGORY… [--seed HEX|new] [--identity NAME=VALUE…]",
		Short: "Start a campaign of a phase: prompt texts, tasks, and the runs the phase requires",
		Long: `Init starts the campaign directory CAMPAIGN (created when absent): the frozen
prompt texts under prompts/, and manifest.json with the contract's frozen
document digests, the response schema digest, the pinned consumer (Codex CLI
0.149.0), the requested model alias (gpt-5.6-sol), reasoning effort medium
and the reference price card, the tasks, and every run the phase requires:

  development-round-1  4 tasks from 2 repositories (2 each), one triplet
                       (draft D, reviews A and B) per task: 12 sessions
  development-round-2  the same 4 tasks, a new triplet each (--previous
                       names round 1: its tasks, identities and prompt
                       texts carry over, B's instruction may be revised)
  evaluation           8 tasks from 4 repositories (2 each), 2 of each
                       category, 3 repetitions per task: 72 sessions

--task OWNER/NAME:CATEGORY is given once per task in the frozen (seeded)
order and becomes T1, T2, ...; CATEGORY is behavior-explanation,
change-impact-plan, correctness-boundary or explicit-uncertainty.

Runs are listed in dispatch order, repetition by repetition and task by
task; session IDs S1, S2, ... follow that order (the draft, then the review
dispatched first, then the other), and every run's replaces is null. Orders
are counterbalanced: in evaluation every task gets both orders (12 A-first,
12 B-first); in development round 1 odd tasks run A-first and even tasks
B-first, and round 2 swaps them.

Every identity init cannot know stays null and is listed (check refuses the
campaign until each is bound): the seed unless --seed (64 hex digits, or
"new" to draw one), the executable hash, model snapshot, tokenizer, host,
permission policy, and the tariff, reservation and oracle verifications.
--identity NAME=VALUE sets one (NAME as listed, e.g. execution.host;
booleans true or false).

--synthetic marks the campaign synthetic ("synthetic": true): tasks, runs
or answers made up for a trial or a test. Every report, bundle and signed
record of it then carries the SYNTHETIC notice; a round started with
--previous from a synthetic round is synthetic too.

Then: build each task's packet (verdict packet), write tasks/T<n>/task.md
and truth.json, and bind everything with verdict manifest CAMPAIGN.

Refusals (exit 1, nothing written):
  init-design   the tasks cannot make the phase's design (task count,
                repositories, two tasks per repository, category balance),
                or an unknown phase, category or identity, or a bad seed
  file-differs  manifest.json or a prompt text is already in CAMPAIGN with
                other bytes (a started campaign is never replaced)

Exit codes: 0 started (or already started with the same bytes); 1 refused;
2 usage error.`,
		Args: cobra.ExactArgs(1),
	}
	format := formatFlag(c, "text", "json")
	c.Flags().StringVar(&phase, "phase", "", "development-round-1, development-round-2 or evaluation (required)")
	c.Flags().StringArrayVar(&tasks, "task", nil, "OWNER/NAME:CATEGORY, once per task in frozen order (T1, T2, ...)")
	c.Flags().StringVar(&id, "id", "", "campaign_id (default PHASE-DIRNAME)")
	c.Flags().BoolVar(&synthetic, "synthetic", false, "mark the campaign SYNTHETIC (made-up tasks, runs or answers, for trials and tests; every report and record says so)")
	c.Flags().StringVar(&seed, "seed", "", "the frozen seed: 64 lowercase hex digits, or new to draw one (default: null, listed as missing)")
	c.Flags().StringArrayVar(&identities, "identity", nil, "NAME=VALUE: set one identity (e.g. execution.host=...), repeatable")
	c.Flags().StringVar(&previous, "previous", "", "the previous round's campaign directory (round 2: round 1; evaluation: round 2)")
	c.Flags().StringVar(&previousReport, "previous-report", "", "evaluation: the round-2 report.json that admitted it")
	c.RunE = func(cmd *cobra.Command, args []string) error {
		if phase == "" {
			return usagef("manifest init: --phase is required")
		}
		req := assemble.InitRequest{Phase: campaign.Phase(phase), CampaignID: id, Seed: seed, Previous: previous, PreviousReport: previousReport, Identities: map[string]string{}, Synthetic: synthetic}
		for _, t := range tasks {
			repo, cat, ok := strings.Cut(t, ":")
			if !ok {
				return usagef("manifest init: --task %q: want OWNER/NAME:CATEGORY", t)
			}
			req.Tasks = append(req.Tasks, assemble.InitTask{Repository: repo, Category: campaign.Category(cat)})
		}
		for _, kv := range identities {
			k, v, ok := strings.Cut(kv, "=")
			if !ok {
				return usagef("manifest init: --identity %q: want NAME=VALUE", kv)
			}
			req.Identities[k] = v
		}
		res, err := assemble.InitCampaign(args[0], req)
		if err != nil {
			return refusal(a, err)
		}
		if *format == "json" {
			return writeJSON(a.stdout, res)
		}
		w := a.stdout
		for _, f := range res.Files {
			state := "written  "
			if f.Unchanged {
				state = "unchanged"
			}
			fmt.Fprintf(w, "%s %s\n", state, f.Path)
		}
		if res.Seed != "" {
			fmt.Fprintf(w, "seed %s\n", res.Seed)
		}
		fmt.Fprintf(w, "%d run(s), %d session(s), in dispatch order:\n", len(res.Runs), 3*len(res.Runs))
		fmt.Fprintf(w, "  %-5s %-10s %-8s %-6s %-8s %s\n", "task", "repetition", "order", "draft", "review A", "review B")
		for _, r := range res.Runs {
			fmt.Fprintf(w, "  %-5s %-10d %-8s %-6s %-8s %s\n", r.Task, r.Repetition, r.Order, r.Sessions.Draft, r.Sessions.ReviewA, r.Sessions.ReviewB)
		}
		if len(res.Missing) > 0 {
			fmt.Fprintf(w, "still null or unverified (%d), check refuses the campaign until each is bound:\n", len(res.Missing))
			for _, m := range res.Missing {
				fmt.Fprintf(w, "  %s\n", m)
			}
		}
		for _, p := range res.Pending {
			fmt.Fprintf(w, "pending: %s: %s\n", p.Reason, visible.Text(p.Message))
		}
		return nil
	}
	return c
}
