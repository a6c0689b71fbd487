package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/spf13/cobra"

	"verdict/adjudication"
	"verdict/blinding"
	"verdict/campaign"
	"verdict/pipeline"
	"verdict/verr"
)

// ReasonRecordMissing: a sheet or the adjudication a reveal must bind does
// not exist yet.
const ReasonRecordMissing verr.Reason = "record-missing"

func newRevealCmd(a *app) *cobra.Command {
	var allowed, adjPath, mapPath, out, campDir string
	var sheets, bundles []string
	var sf signingFlags
	c := &cobra.Command{
		Use:   "reveal --sheet SHEET --sheet SHEET --adjudication ADJ --map sealed-map.json --allowed-signers FILE --key KEYFILE --name NAME --out REVEAL.json",
		Short: "Sign the reveal record binding the frozen sheets and adjudication to the sealed map (namespace verdict-reveal)",
		Long: `reveal refuses while a sheet or the adjudication is unfrozen (missing or bad
signature, signer not allowed) or any disagreement is unresolved; otherwise it
writes the coordinator's reveal record naming the exact SHA-256 digests of both
sheets and of the adjudication and the sealed map's commitment. Each sheet is
checked against its bundle (--bundle, else the bundle-*.json files beside the
sheets; refused bundle-missing when not found): every grade names an item and
field of it and every required field has a grade (sheet-incomplete).
allowed_signers is --allowed-signers, else the config key allowed_signers,
never a file found beside the sheets; with neither,
allowed-signers-missing.

--campaign DIR names the blinded campaign: reveal refuses when the sealed map
was not made from it as it is now (map-other-campaign: another campaign_id;
campaign-changed-after-blinding: its manifest.json is not the one the map
bound at blinding), then checks its admission
(as verdict check does) and, when it is not admitted, still writes the reveal
(exit 0) but warns on stderr with the count and reason codes of the admission
failures and "verdict check DIR", which lists them. Without --campaign a note
on stderr says admission was not checked. --format json reports either in
"admission" {checked, admitted, admission_failures, reasons, see}.`,
		Args: cobra.NoArgs,
	}
	c.Flags().StringArrayVar(&sheets, "sheet", nil, "rating sheet (give exactly two)")
	c.Flags().StringVar(&adjPath, "adjudication", "", "adjudication record")
	c.Flags().StringArrayVar(&bundles, "bundle", nil, "bundle a sheet is for (repeatable; default: the bundle-*.json files beside the sheets); each sheet is checked against its bundle")
	c.Flags().StringVar(&mapPath, "map", "", "sealed-map.json")
	addAllowedSignersFlag(c, &allowed, "allowed_signers file (required)")
	c.Flags().StringVar(&out, "out", "", "reveal record to write")
	c.Flags().StringVar(&campDir, "campaign", "", "the blinded campaign directory: warn when it is not admitted (verdict check)")
	addSigningFlags(c, &sf, string(adjudication.RoleCoordinator))
	format := formatFlag(c, "text", "json")
	c.RunE = func(cmd *cobra.Command, args []string) error {
		if err := sf.required(a, "reveal", flagGiven{fmt.Sprintf("exactly two --sheet (%d given)", len(sheets)), len(sheets) == 2}, flagGiven{"--adjudication", adjPath != ""},
			flagGiven{"--map", mapPath != ""}, flagGiven{"--out", out != ""}); err != nil {
			return err
		}
		allowed, at, err := trustedSigning(a, allowed, &sf)
		if err != nil {
			return err
		}
		note := uncheckedAdmission()
		if campDir != "" {
			if st, err := os.Stat(campDir); err != nil || !st.IsDir() {
				return usagef("reveal: --campaign %s is not a campaign directory", campDir)
			}
			note = campaignAdmission(campDir)
		}
		key, err := adjudication.LoadKey(sf.key)
		if err != nil {
			return refusal(a, err)
		}
		as, err := adjudication.LoadAllowedSigners(allowed)
		if err != nil {
			return refusal(a, err)
		}
		var files []adjudication.RecordFile
		for _, p := range append(append([]string{}, sheets...), adjPath) {
			f, err := adjudication.ReadRecordFile(p)
			if errors.Is(err, fs.ErrNotExist) {
				return refusal(a, &verr.Error{Reason: ReasonRecordMissing, File: p, Rule: "CONTRACT §5 two frozen ratings before reveal",
					Detail: "does not exist: nothing can be revealed before both sheets are frozen and every disagreement is resolved"})
			}
			if err != nil {
				return err
			}
			files = append(files, f)
		}
		bs, err := sheetBundles(bundles, files, true)
		if err != nil {
			return refusal(a, err)
		}
		for _, ch := range adjudication.Verify(as, files, adjudication.VerifyOptions{Bundles: bs}) {
			if !ch.OK {
				return refusal(a, &verr.Error{Reason: ch.Reason, File: ch.File, Pointer: ch.Pointer, Rule: "CONTRACT §5 two frozen ratings before reveal", Detail: "not frozen and usable: " + ch.Detail})
			}
		}
		var sheetsF [2]adjudication.FrozenSheet
		for i := range 2 {
			s, err := adjudication.ParseSheet(files[i].Name, files[i].Data)
			if err != nil {
				return refusal(a, err)
			}
			sheetsF[i] = adjudication.FrozenSheet{Sheet: s, SHA256: blinding.Digest(files[i].Data)}
		}
		adj, err := adjudication.ParseAdjudication(adjPath, files[2].Data)
		if err != nil {
			return refusal(a, err)
		}
		mapBytes, err := campaign.ReadRegular(mapPath, campaign.FileSealedMap)
		if err != nil {
			return err
		}
		sealed, err := blinding.ParseSealedMap(mapPath, mapBytes)
		if err != nil {
			return refusal(a, err)
		}
		if campDir != "" {
			// The admission reported is the campaign's only when the
			// records are of it: the map names its campaign and the
			// manifest it was blinded from.
			if err := pipeline.MapOfCampaign(pipeline.DirFS(campDir), mapPath, sealed); err != nil {
				return refusal(a, err)
			}
		}
		rev, err := adjudication.NewReveal(sheetsF[0], sheetsF[1], adj, blinding.Digest(files[2].Data), mapBytes, sf.name, adjudication.Role(sf.role), key.PublicKey(), at)
		if err != nil {
			return refusal(a, err)
		}
		data, err := adjudication.SignCheckWrite(rev, key, adjudication.NamespaceReveal, as, files, out)
		if err != nil {
			return signedRecordResult(a, err)
		}
		note.warn(a.stderr, "this reveal and what is scored from it", "reveal was given no --campaign; run verdict check CAMPAIGN, or pass --campaign CAMPAIGN")
		if *format == "json" {
			w := written(rev.Synthetic, out, data, rev.Signer)
			w.Admission = note
			return writeJSON(a.stdout, w)
		}
		if rev.Synthetic {
			fmt.Fprintln(a.stdout, blinding.SyntheticNotice)
		}
		fmt.Fprintf(a.stdout, "reveal by %s binds sheets %s, %s and adjudication %s to map %s\nwrote %s (sha256 %s)\n",
			rev.Signer.Name, rev.Sheets[0].SHA256, rev.Sheets[1].SHA256, rev.Adjudication.SHA256, rev.MapCommitment, out, blinding.Digest(data))
		return nil
	}
	return c
}
