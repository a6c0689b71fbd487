package main

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"verdict/assemble"
	"verdict/campaign"
	"verdict/internal/visible"
	"verdict/verr"
)

// packetLine is one evidence item as `verdict packet` reports it.
type packetLine struct {
	ID         string `json:"id"`
	Path       string `json:"path"`
	StartLine  int    `json:"start_line"`
	EndLine    int    `json:"end_line"`
	FileSHA256 string `json:"file_sha256"`
}

// packetReport is `verdict packet --format json`.
type packetReport struct {
	Task       string             `json:"task"`
	Repository string             `json:"repository"`
	Commit     string             `json:"commit"`
	Items      []packetLine       `json:"items"`
	Files      []assemble.Written `json:"files"`
}

func newPacketCmd(a *app) *cobra.Command {
	var task, repo, commit, itemsFile string
	var complete bool
	c := &cobra.Command{
		Use:   "packet CAMPAIGN --task T --repo OWNER/NAME=DIR --commit SHA [PATH:START-END…] [--items FILE]",
		Short: "Build a task's evidence packet and sources/ from git blobs at one commit",
		Long: `Packet builds tasks/T/packet.json and sources/OWNER/NAME/PATH in the campaign
directory from the files of a local git clone at one commit. The blobs are
read with git cat-file at that commit, never from the work tree: uncommitted
changes, the index and line-ending conversion change nothing. --commit is
any name git resolves to one commit of the clone (HEAD, a branch, a tag, an
abbreviated or full object name); it is resolved once, and the full 40-digit
object name is what every item records and what is printed (a name that
resolves to no commit, or to a tree or blob: commit-missing). Every path
must be a regular file at that commit (path-missing).

Items are PATH:START-END (inclusive, 1-based lines) on the command line or
one per line in --items FILE, and become E1..En in that order. Each item
records the commit, path, lines, the SHA-256 of the whole file and the
exact bytes of its lines, cut by the same physical-line rule verdict check
uses: LF and CRLF each end a line and a final newline makes no extra line,
so an end line past the last physical line is refused (line-beyond-file).
The packet is decoded again with the strict packet rules (6-12 items)
before anything is written.

A source file or packet.json already in the campaign with other bytes is
refused (file-differs) and nothing is written; the same bytes are left as
they are. One line is printed per item.

Exit codes: 0 written; 1 refused; 2 usage error.`,
		Args: cobra.MinimumNArgs(1),
	}
	format := formatFlag(c, "text", "json")
	c.Flags().StringVar(&task, "task", "", "task ID, e.g. T1 (required)")
	c.Flags().StringVar(&repo, "repo", "", "OWNER/NAME=DIR: the repository's name and its local clone (required)")
	c.Flags().StringVar(&commit, "commit", "", "the commit: HEAD, a branch, a tag or an object name, recorded as its full object name (required)")
	c.Flags().StringVar(&itemsFile, "items", "", "file with one PATH:START-END per line (after any on the command line)")
	c.Flags().BoolVar(&complete, "complete-by-construction", false, "mark the packet as intentionally built to be complete (CONTRACT §3)")
	c.RunE = func(cmd *cobra.Command, args []string) error {
		name, dir, ok := strings.Cut(repo, "=")
		if task == "" || commit == "" || !ok || name == "" || dir == "" {
			return usagef("packet: --task, --repo OWNER/NAME=DIR and --commit are required")
		}
		if !campaign.ValidID('T', task) {
			return usagef("packet: --task %q is not a task ID (T1, T2, …)", task)
		}
		var specs []assemble.ItemSpec
		for _, s := range args[1:] {
			sp, err := assemble.ParseItemSpec(s)
			if err != nil {
				return usagef("packet: %v", err)
			}
			specs = append(specs, sp)
		}
		if itemsFile != "" {
			b, err := readFlagFile(a, "packet: --items", itemsFile, campaign.FileItemList)
			if err != nil {
				return err
			}
			more, err := assemble.ReadItemSpecs(bytes.NewReader(b))
			var ve *verr.Error
			if errors.As(err, &ve) && ve.Reason == assemble.ReasonTooManyItems {
				ve.File = itemsFile
				return refusal(a, ve)
			}
			if err != nil {
				return usagef("packet: --items %s: %v", itemsFile, err)
			}
			specs = append(specs, more...)
		}
		if len(specs) == 0 {
			return usagef("packet: no items (PATH:START-END arguments or --items FILE)")
		}
		built, err := assemble.BuildPacket(assemble.PacketRequest{Task: task, Repository: name, Commit: commit, Items: specs, CompleteByConstruction: complete}, assemble.GitRepo{Dir: dir})
		if err != nil {
			return refusal(a, err)
		}
		written, err := assemble.WritePacket(args[0], built)
		if err != nil {
			return refusal(a, err)
		}
		rep := packetReport{Task: task, Repository: name, Commit: built.Commit, Files: written}
		for _, it := range built.Packet.Items {
			rep.Items = append(rep.Items, packetLine{it.ID, it.Path, it.StartLine, it.EndLine, it.FileSHA256})
		}
		if *format == "json" {
			return writeJSON(a.stdout, rep)
		}
		if commit != built.Commit {
			fmt.Fprintf(a.stdout, "commit %s resolved to %s\n", visible.Text(commit), built.Commit)
		}
		for _, it := range rep.Items {
			fmt.Fprintf(a.stdout, "%s %s:%d-%d sha256 %s\n", it.ID, it.Path, it.StartLine, it.EndLine, it.FileSHA256)
		}
		for _, w := range written {
			state := "written"
			if w.Unchanged {
				state = "unchanged"
			}
			fmt.Fprintf(a.stdout, "%s %s\n", state, w.Path)
		}
		return nil
	}
	return c
}
