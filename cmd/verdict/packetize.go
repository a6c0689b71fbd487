package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"verdict/assemble"
	"verdict/campaign"
	"verdict/internal/fsutil"
)

// newPacketizeCmd builds `verdict packetize LOG [--out FILE]`.
func newPacketizeCmd(a *app) *cobra.Command {
	var out string
	c := &cobra.Command{
		Use:   "packetize LOG [--out FILE]",
		Short: "Build a system workflow's raw-observation packet from its recorded observation log (the neutral packetizer)",
		Long: `packetize is the neutral packetizer of a system comparison (PROMPTS.md
"Conditional system comparison: frozen investigation and packet
procedure"). It reads an observation log (observations/<S>.json: every tool
call of one investigation session with its exact arguments, response bytes
and metadata) and writes the workflow's raw-observation packet
(packets/<W>.json): E1..EN in completion order for every delivered
observation, errors, truncation notices and empty responses included, each
copied verbatim; never filtered, summarised, deduplicated or reordered. The
one exception is Serena's declared initial_instructions call, set apart as
setup overhead and never evidence. Provider-declared source coordinates are
copied; none are invented.

Tokens are counted with the frozen tokenizer the log names when the
counting library (tiktoken-go, encodings embedded: o200k_base, cl100k_base,
p50k_base, r50k_base) serves it offline, and a runner-recorded count that
differs is refused; for any other tokenizer the runner-recorded counts are
used, checked for consistency. A packet over 60,000 tokens gets status
evidence_budget_exceeded with every item kept (never trimmed): a valid
system failure, its review not launched.

verdict check rebuilds every packet from its log and refuses a packet that
is not byte-identical (packet-not-byte-identical). Without --out the packet
is written to standard output; --out FILE must not exist. FILE appears
whole (staged beside it and renamed into place) and has one writer: a
second packetize to FILE while one runs is refused (output-locked). In a
campaign (its packets/ directory, or anywhere below its manifest.json)
the lock is the campaign's write lock (the one packet and receipt import
hold; no lock file among the bound files), elsewhere FILE.lock beside
FILE.
Exit 0 written; 1 the log was refused or FILE exists; 2 usage error.`,
		Args: cobra.ExactArgs(1),
	}
	c.Flags().StringVar(&out, "out", "", "write the packet to this new file")
	c.RunE = func(cmd *cobra.Command, args []string) error {
		data, err := readFlagFile(a, "packetize", args[0], campaign.FileResponse)
		if err != nil {
			return err
		}
		b, p, err := campaign.BuildObservationPacket(data, campaign.ObservationLogFile(sessionOfLog(args[0])))
		if err != nil {
			return refusal(a, err)
		}
		if out == "" {
			_, err := a.stdout.Write(b)
			return err
		}
		if err := writePacketFile(a, out, b); err != nil {
			return err
		}
		fmt.Fprintf(a.stderr, "packet %s of %s: %d evidence items, %d setup-overhead calls, %d tokens (%s), status %s\n",
			p.Workflow, p.System, len(p.Items), len(p.SetupOverhead), p.Tokens, p.Counting, p.Status)
		return nil
	}
	return c
}

// sessionOfLog is the session a log file is named after ("S3" for
// ".../S3.json"), for the file named in refusals.
func sessionOfLog(path string) string {
	return strings.TrimSuffix(filepath.Base(path), ".json")
}

// writePacketFile writes the new packet file out, whole and with one
// writer. A packet inside a campaign (campaignRoot: its packets/
// directory, the layout of a system comparison CAMPAIGN/packets/<W>.json,
// or any directory below a manifest.json) is written under the
// campaign's write lock (assemble.LockCampaign, the lock packet and
// receipt import hold), since a lock file among the bound files would be
// an unbound campaign file; a killed write's temporary file beside out is
// removed under it. Anywhere else it is writeOutputFile (out's own lock).
func writePacketFile(a *app, out string, data []byte) error {
	const why = "packetize never replaces a packet"
	abs, err := fsutil.Resolve(out)
	if err != nil {
		return err
	}
	root := campaignRoot(abs)
	if root == "" {
		return writeOutputFile(a, out, "--out", why, data, 0o644)
	}
	lock, err := assemble.LockCampaign(root)
	if err != nil {
		return refusal(a, err)
	}
	defer lock.Unlock()
	if err := newOutputFile(out, "--out", why); err != nil {
		return refusal(a, err)
	}
	if err := lock.RemoveStale(abs); err != nil {
		return err
	}
	return fsutil.WriteFile(out, data, 0o644)
}

// campaignRoot is the campaign directory the file abs (an absolute path
// with its existing part resolved) would be written into: the parent of
// the packets/ directory abs is directly in when it holds a manifest.json
// (a campaign's layout), else the nearest directory above abs that holds
// a manifest.json and the campaign's write lock file
// (assemble.WriteLockFile: a campaign verdict has written into; a web
// app's manifest.json makes no campaign); "" when abs is in no campaign
// (a packets/ directory of no campaign is one too).
func campaignRoot(abs string) string {
	isFile := func(p string) bool { fi, err := os.Lstat(p); return err == nil && fi.Mode().IsRegular() }
	if parent := filepath.Dir(filepath.Dir(abs)); filepath.Base(filepath.Dir(abs)) == "packets" && isFile(filepath.Join(parent, campaign.ManifestFile)) {
		return parent
	}
	for d := filepath.Dir(abs); ; d = filepath.Dir(d) {
		if isFile(filepath.Join(d, campaign.ManifestFile)) && isFile(filepath.Join(d, assemble.WriteLockFile)) {
			return d
		}
		if filepath.Dir(d) == d {
			return ""
		}
	}
}
