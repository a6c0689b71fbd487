package assemble

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"verdict/blinding"
	"verdict/verr"
)

// BlindingFormat names the format of a blinding record.
const BlindingFormat = "verdict-blinding-record-v1"

// BlindingRecord is blindings/<sealed map SHA-256>.json in the campaign:
// written by `verdict blind` before its bundles, it says the campaign was
// blinded with this manifest, so Bind refuses to rebind anything after it
// (ReasonCampaignBlinded).
type BlindingRecord struct {
	Format string `json:"format"`
	// ManifestSHA256 is the SHA-256 of the manifest.json bytes blinded.
	ManifestSHA256 string `json:"manifest_sha256"`
	// SealedMapSHA256 is the SHA-256 of the sealed map's bytes.
	SealedMapSHA256 string `json:"sealed_map_sha256"`
	// Bundles are the rater bundles' SHA-256, in rater order.
	Bundles []BlindingBundle `json:"bundles"`
}

// BlindingBundle is one rater's bundle digest.
type BlindingBundle struct {
	Rater  string `json:"rater"`
	SHA256 string `json:"sha256"`
}

// RecordBlinding writes the BlindingRecord of res (made from the manifest
// whose SHA-256 is manifestSHA256) into dir/blindings/, and returns its
// campaign-relative path. A record with the same name and other bytes is
// refused (ReasonFileDiffers).
func RecordBlinding(dir, manifestSHA256 string, res *blinding.Result) (string, error) {
	rec := BlindingRecord{Format: BlindingFormat, ManifestSHA256: manifestSHA256, SealedMapSHA256: blinding.Digest(res.MapBytes)}
	for i, b := range res.Bundles {
		rec.Bundles = append(rec.Bundles, BlindingBundle{Rater: b.Rater, SHA256: blinding.Digest(res.BundleBytes[i])})
	}
	data, err := blinding.MarshalCanonical(rec)
	if err != nil {
		return "", err
	}
	name := BlindingsDir + "/" + rec.SealedMapSHA256 + ".json"
	if _, err := writeNew(dir, []fileBytes{{name, data}}, ruleBlinded); err != nil {
		return "", err
	}
	return name, nil
}

// Blindings lists the campaign-relative paths of the blinding records in
// dir/blindings/, sorted; none when the directory does not exist.
func Blindings(dir string) ([]string, error) {
	ents, err := os.ReadDir(filepath.Join(dir, BlindingsDir))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, &verr.Error{Reason: ReasonCampaignBlinded, File: BlindingsDir, Rule: ruleBlinded, Detail: err.Error(), Err: err}
	}
	var out []string
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ".json") {
			out = append(out, BlindingsDir+"/"+e.Name())
		}
	}
	slices.Sort(out)
	return out, nil
}
