package main

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io/fs"
	"path/filepath"

	"github.com/spf13/cobra"

	"verdict/assemble"
	"verdict/blinding"
	"verdict/internal/fsutil"
	"verdict/pipeline"
)

// blindReport is the machine form of `verdict blind`.
type blindReport struct {
	Notice        string              `json:"notice,omitempty"`
	Items         int                 `json:"items"`
	MapCommitment string              `json:"map_commitment"`
	ContentDigest string              `json:"content_digest"`
	Bundles       []blindBundleReport `json:"bundles"`
	Findings      []blinding.Finding  `json:"leak_findings"`
	// BlindingRecord is the campaign-relative path of the blinding record
	// written into the campaign (assemble.RecordBlinding); empty for the
	// embedded campaign.
	BlindingRecord string `json:"blinding_record,omitempty"`
	// Admission says whether the blinded campaign is admitted (verdict
	// check); a campaign that is not may be blinded for a dry run.
	Admission *admissionNote `json:"admission"`
}

type blindBundleReport struct {
	Rater  string `json:"rater"`
	File   string `json:"file"`
	SHA256 string `json:"sha256"`
}

func newBlindCmd(a *app) *cobra.Command {
	var out, mapOut, raters, keyHex string
	var tokens []string
	c := &cobra.Command{
		Use:   "blind [CAMPAIGN] --out DIR [--map-out FILE]",
		Short: "Write one anonymised bundle per rater and the sealed unblinding map",
		Long: `blind writes bundle-<rater>.json for every rater, sealed-map.json (for the
coordinator only: it holds the secret item-ID key and unblinds every item) and
leak-findings.json (the leak scan, to be disclosed in the report).

A bundle holds, per review answer with a decoded response, an opaque item ID,
the task text, the packet excerpts, the frozen obligations and the final answer
only; the shared draft and answers scored automatically are not bundled.

--raters names exactly two distinct raters (CONTRACT §5: two independent
source-based ratings); one rater, three or more, or a name listed twice is a
usage error.

Without CAMPAIGN, blind uses the embedded SYNTHETIC campaign (the default of
verdict check). With CAMPAIGN, blind first records the blinding in the
campaign (blindings/<sealed map SHA-256>.json: the manifest, sealed map and
bundle digests); from then on verdict manifest refuses to rebind any file
(campaign-blinded).

--out must not already hold a blinding: when sealed-map.json,
leak-findings.json or any bundle-*.json exists there, blind refuses (exit 1,
reason output-exists) and writes nothing, as freeze never replaces a sheet.
Any other file there is refused too (output-not-empty): DIR must be new or
empty, because its files appear together. They are written into a staging
directory beside DIR and renamed into place as one, so a reader finds every
bundle and leak-findings.json or no DIR at all; a killed blind leaves only
.DIR.staging<digits> (and, with --map-out, possibly the sealed map alone,
which every reader refuses for want of its bundles). A second blind writing
to the same DIR or --map-out while one runs is refused (output-locked, exit 1).

--map-out FILE writes the sealed map there instead of DIR/sealed-map.json:
keep it apart from DIR, which goes to the raters (a rater holding the map can
unblind every item): a FILE inside DIR is refused (map-in-rater-folder,
exit 1, nothing written). FILE must not exist (output-exists, exit 1). Pass it to
reveal --map and score --map.

A campaign that verdict check does not admit is still blinded (exit 0: a dry
run of the rating workflow is legitimate), but never silently: blind prints a
warning on stderr naming the count and reason codes of the admission failures
and "verdict check CAMPAIGN", which lists them; --format json reports the same
in "admission" {checked, admitted, admission_failures, reasons, see}.`,
		Args: cobra.MaximumNArgs(1),
	}
	format := formatFlag(c, "text", "json")
	c.Flags().StringVar(&out, "out", "", "output directory (required; must not already hold bundles or a sealed map)")
	c.Flags().StringVar(&mapOut, "map-out", "", "write the sealed map to this new file instead of DIR/sealed-map.json (keep it out of the raters' directory; pass it to reveal and score --map)")
	c.Flags().StringVar(&raters, "raters", blinding.DefaultRaters, "the two distinct rater names, comma-separated")
	c.Flags().StringVar(&keyHex, "item-key", "", "64 hex digits: fixed item-ID key for reproducible synthetic output (default: random)")
	c.Flags().StringSliceVar(&tokens, "leak-token", nil, "extra revealing token for the leak scan (repeatable)")
	c.RunE = func(cmd *cobra.Command, args []string) error {
		if out == "" {
			return usagef("--out is required")
		}
		rs, err := blinding.ParseRaters(raters)
		if err != nil {
			return usagef("--raters: %v", err)
		}
		if len(rs) != 2 {
			return usagef("--raters %q: the protocol needs exactly two distinct raters, got %d (CONTRACT §5: two source-based ratings)", raters, len(rs))
		}
		mapPath := filepath.Join(out, "sealed-map.json")
		if mapOut != "" {
			mapPath = mapOut
			if err := pipeline.MapOutsideRaterDir(out, mapOut); err != nil {
				return refusal(a, err)
			}
		}
		// One writer per output: the raters' directory and the sealed map
		// are locked from here until both are in place.
		for _, p := range []string{out, mapOut} {
			if p == "" {
				continue
			}
			lock, err := fsutil.LockOutput(p)
			if err != nil {
				return refusal(a, err)
			}
			defer lock.Unlock()
		}
		if err := pipeline.BlindOutputsFree(out, rs); err != nil {
			return refusal(a, err)
		}
		if err := emptyOutputDir(out); err != nil {
			return refusal(a, err)
		}
		if mapOut != "" {
			if err := newOutputFile(mapOut, "--map-out", "blind never replaces a sealed map"); err != nil {
				return refusal(a, err)
			}
		}
		key := make([]byte, 32)
		if keyHex != "" {
			if key, err = hex.DecodeString(keyHex); err != nil || len(key) != 32 {
				return usagef("--item-key must be 64 hex digits")
			}
		} else if _, err := rand.Read(key); err != nil {
			return err
		}
		var fsys fs.FS
		if len(args) == 1 {
			fsys = pipeline.DirFS(args[0])
		} else {
			if a.embedded == nil {
				return usagef("blind: this build has no embedded campaign; name a campaign directory")
			}
			fsys = a.embedded()
		}
		res, err := pipeline.Blind(fsys, blinding.Options{Raters: rs, Key: key}, tokens)
		if err != nil {
			return refusal(a, err)
		}
		var record string
		if len(args) == 1 {
			// The campaign records that it was blinded before the bundles
			// exist, so `verdict manifest` refuses to rebind it afterwards.
			if record, err = assemble.RecordBlinding(args[0], res.ManifestSHA256, res.Result); err != nil {
				return refusal(a, err)
			}
		}
		if err := pipeline.WriteBlindingMap(out, mapPath, res); err != nil {
			return err
		}
		rep := blindReport{Items: len(res.Map.Items), MapCommitment: blinding.Digest(res.MapBytes),
			ContentDigest: res.Bundles[0].ContentDigest, Findings: res.Findings, BlindingRecord: record}
		name := ""
		if len(args) == 1 {
			name = args[0]
		}
		rep.Admission = newAdmissionNote(name, res.AdmissionFailures)
		rep.Admission.warn(a.stderr, "these bundles", "")
		if res.Synthetic {
			rep.Notice = blinding.SyntheticNotice
		}
		if rep.Findings == nil {
			rep.Findings = []blinding.Finding{}
		}
		for i, b := range res.Bundles {
			rep.Bundles = append(rep.Bundles, blindBundleReport{Rater: b.Rater, File: "bundle-" + b.Rater + ".json", SHA256: blinding.Digest(res.BundleBytes[i])})
		}
		if *format == "json" {
			return writeJSON(a.stdout, rep)
		}
		w := a.stdout
		if rep.Notice != "" {
			fmt.Fprintln(w, rep.Notice)
		}
		fmt.Fprintf(w, "bundled items: %d\nmap commitment: %s\ncontent digest: %s\n", rep.Items, rep.MapCommitment, rep.ContentDigest)
		for _, b := range rep.Bundles {
			fmt.Fprintf(w, "bundle %s: %s sha256 %s\n", b.Rater, b.File, b.SHA256)
		}
		if rep.BlindingRecord != "" {
			fmt.Fprintf(w, "blinding recorded in the campaign: %s\n", rep.BlindingRecord)
		}
		fmt.Fprintf(w, "sealed map: %s (coordinator only: never give it to a rater)\nleak scan: %d finding(s)\n", mapPath, len(rep.Findings))
		for _, f := range rep.Findings {
			fmt.Fprintln(w, "  "+f.String())
		}
		return nil
	}
	return c
}
