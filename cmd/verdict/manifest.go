package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"verdict/assemble"
	"verdict/campaign"
)

func newManifestCmd(a *app) *cobra.Command {
	var from string
	var dry bool
	c := &cobra.Command{
		Use:   "manifest CAMPAIGN [--from PROPOSED-MANIFEST] [--dry-run]",
		Short: "Start manifest.json from the proposed live manifest and bind every file's SHA-256",
		Long: `Manifest binds the SHA-256 of every regular file under tasks/, prompts/,
sources/, responses/ and receipts/ of the campaign, of the rating guidelines
guidelines.md when the campaign has them (they may change until a blinding),
and of any other file the manifest already binds, into manifest.json's
"files", sorted by path, and prints each file added, changed or removed. Every other member keeps its
exact value: an identity that is null stays null, nothing is invented.

When the campaign has no manifest.json, --from names the proposed live
manifest to start from (fixtures/live/manifest.json in this repository; copy
its prompts/ directory into the campaign too). The tasks and runs lists are
the coordinator's to write; manifest only binds digests.

Binding refuses (exit 1, nothing written):
  frozen-input-changed  a task, packet, truth, prompt or source file would be
                        added, changed or removed after any session ran (a
                        response or receipt exists)
  result-rebound        a bound response or receipt would get another digest
                        or be removed (only new ones may be added)
  campaign-blinded      verdict blind recorded a blinding of the campaign
                        (blindings/): no digest may change any more

--dry-run prints the changes and writes nothing.

Exit codes: 0 bound (or nothing to change); 1 refused; 2 usage error.`,
		Args: cobra.ExactArgs(1),
	}
	format := formatFlag(c, "text", "json")
	c.Flags().StringVar(&from, "from", "", "proposed manifest to start from when CAMPAIGN has no manifest.json")
	c.Flags().BoolVar(&dry, "dry-run", false, "print what would change; write nothing")
	c.RunE = func(cmd *cobra.Command, args []string) error {
		opt := assemble.BindOptions{DryRun: dry}
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
		if *format == "json" {
			return writeJSON(a.stdout, res)
		}
		w := a.stdout
		if res.Started {
			fmt.Fprintln(w, "started manifest.json from the proposed manifest")
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
	return c
}
