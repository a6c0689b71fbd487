package main

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"verdict/adjudication"
	"verdict/blinding"
	"verdict/pipeline"
	"verdict/verr"
)

// verifyReport is the --format json output of verify: the SYNTHETIC notice
// when any record is synthetic (DESIGN "Defaults and embedded input"), one
// report per record in input order, and every refused record's refusal in
// the one JSON form of a refusal {reason, file, pointer, rule, message}
// (verr.Problem), as check and every other command write them.
type verifyReport struct {
	Notice    string         `json:"notice,omitempty"`
	Synthetic bool           `json:"synthetic"`
	Records   []verifyRecord `json:"records"`
	Refusals  []verr.Problem `json:"refusals"`
}

// verifyRecord is one record's report: its file, kind, signer and SHA-256
// and whether it verified (why not is in verifyReport.Refusals).
type verifyRecord struct {
	File   string              `json:"file"`
	Kind   string              `json:"kind"`
	Signer adjudication.Signer `json:"signer"`
	SHA256 string              `json:"sha256"`
	OK     bool                `json:"ok"`
}

func newVerifyCmd(a *app) *cobra.Command {
	var allowed, campDir string
	var bundles []string
	c := &cobra.Command{
		Use:   "verify --allowed-signers FILE [--bundle BUNDLE]... [--campaign DIR] RECORD...",
		Short: "Check signed sheets, adjudications and reveal records against allowed_signers",
		Long: `verify checks every RECORD (with its detached RECORD.sig) as git checks a
signed object: the signature over the exact bytes, the namespace of the record
kind (verdict-rating, verdict-adjudication, verdict-reveal), the signer's
principal and key in allowed_signers and the role its namespaces allow.
allowed_signers is --allowed-signers, else the config key allowed_signers,
never a file found beside the records (whoever writes a record there could
write a key too): with neither, allowed-signers-missing (exit 1). Then
across records: two raters with one key, an adjudication signed by one of the
raters (the adjudicator is a third person), a sheet for another bundle (with
--bundle), an adjudication or reveal that does not name the sheets given.
A sheet's grades are checked against the grade vocabulary (one grade per
field, in canonical order) and, with its bundle (--bundle, or found beside
the sheet as bundle-*.json), against the bundle: every grade names an item
and field of it, and every required field has a grade (sheet-incomplete).
Every sheet whose directory holds a journal of its bundle (verdict rate writes
bundle-NAME.journal.jsonl beside the bundle) is checked against it: one such
journal must have the SHA-256 the sheet's journal_digest names
(journal-mismatch: the journal changed after the freeze). Every sheet has an
item_times entry for every item it grades, 0 ms included (bad-item-times).
The records' own times are checked alone (an adjudication dated before a sheet
it names, a reveal before the adjudication, a record dated in the future:
bad-record-time); with --campaign DIR, the campaign the records rate, every
sheet, adjudication and reveal must also be dated after the last rated
session's receipt ended, as score checks it.
Principals and namespaces in allowed_signers are pattern lists as in
ssh-keygen: "*" and "?" are wildcards and a matching "!pattern" refuses. Each
refused record is listed with its own reason code; exit 1 if any is refused.

--format json writes one report per record {file, kind, signer, sha256, ok}
under "records" and each refused record's refusal under "refusals" in the one
form every command uses: {reason, file, pointer, rule, message}.`,
		Args: cobra.MinimumNArgs(1),
	}
	format := formatFlag(c, "text", "json")
	addAllowedSignersFlag(c, &allowed, "allowed_signers file (required)")
	c.Flags().StringArrayVar(&bundles, "bundle", nil, "bundle every sheet must be for (repeatable)")
	c.Flags().StringVar(&campDir, "campaign", "", "the campaign the records rate: every record must be dated after its rated sessions ended")
	c.RunE = func(cmd *cobra.Command, args []string) error {
		allowed, err := trustedSigners(a, allowed)
		if err != nil {
			return refusal(a, err)
		}
		as, err := adjudication.LoadAllowedSigners(allowed)
		if err != nil {
			return refusal(a, err)
		}
		opt := adjudication.VerifyOptions{Bundles: map[string]*blinding.Bundle{}}
		for _, p := range bundles {
			b, d, err := blinding.LoadBundle(p)
			if err != nil {
				return refusal(a, err)
			}
			opt.Bundles[d] = b
		}
		var files []adjudication.RecordFile
		for _, p := range args {
			f, err := adjudication.ReadRecordFile(p)
			if err != nil {
				return err
			}
			files = append(files, f)
		}
		if len(bundles) == 0 {
			// No --bundle: the sheets' own bundles beside them, when found.
			if opt.Bundles, err = sheetBundles(nil, files, false); err != nil {
				return refusal(a, err)
			}
		}
		if campDir != "" {
			if st, err := os.Stat(campDir); err != nil || !st.IsDir() {
				return usagef("verify: --campaign %s is not a campaign directory", campDir)
			}
			camp, d, err := pipeline.LoadDesign(campDir)
			if err != nil {
				return refusal(a, err)
			}
			opt.RatedEnd = pipeline.RatedEnd(d.Blinding(camp))
		}
		checks := adjudication.Verify(as, files, opt)
		bad := 0
		for _, ch := range checks {
			if !ch.OK {
				bad++
			}
		}
		synthetic := false
		for _, f := range files {
			var head struct {
				Synthetic bool `json:"synthetic"`
			}
			if json.Unmarshal(f.Data, &head) == nil && head.Synthetic {
				synthetic = true
			}
		}
		if *format == "json" {
			rep := verifyReport{Synthetic: synthetic, Refusals: []verr.Problem{}}
			for _, ch := range checks {
				rep.Records = append(rep.Records, verifyRecord{File: ch.File, Kind: ch.Kind, Signer: ch.Signer, SHA256: ch.SHA256, OK: ch.OK})
				if e := ch.Err(); e != nil {
					rep.Refusals = append(rep.Refusals, verr.ProblemOf(e))
				}
			}
			if synthetic {
				rep.Notice = blinding.SyntheticNotice
			}
			if err := writeJSON(a.stdout, rep); err != nil {
				return err
			}
		} else {
			if synthetic {
				fmt.Fprintln(a.stdout, blinding.SyntheticNotice)
			}
			for _, ch := range checks {
				if ch.OK {
					fmt.Fprintf(a.stdout, "OK       %s: %s signed by %s (%s, %s)\n", ch.File, ch.Kind, ch.Signer.Name, ch.Signer.Role, ch.Signer.KeyFingerprint)
				} else {
					at := ch.File
					if ch.Pointer != "" {
						at += "#" + ch.Pointer
					}
					fmt.Fprintf(a.stdout, "REFUSED  %s: %s: %s\n", at, ch.Reason, ch.Detail)
				}
			}
		}
		if bad > 0 {
			return failed("%d of %d record(s) refused", bad, len(checks))
		}
		return nil
	}
	return c
}
