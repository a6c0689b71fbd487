package pipeline

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"verdict/blinding"
	"verdict/campaign"
	"verdict/internal/fsutil"
	"verdict/verr"
)

// ReasonOutputExists refuses to write a blinding into a directory that
// already holds one (sealed-map.json, leak-findings.json or any
// bundle-*.json): a new blinding draws a new item-ID key, and sheets
// signed against the old bundles could no longer be scored.
const ReasonOutputExists verr.Reason = "output-exists"

// BlindOutputsFree returns a *verr.Error with ReasonOutputExists for
// the first output of a blinding for raters that already exists in dir
// (any bundle-*.json, sealed-map.json, leak-findings.json), nil when none
// does.
func BlindOutputsFree(dir string, raters []string) error {
	names := []string{"sealed-map.json", "leak-findings.json"}
	for _, r := range raters {
		names = append(names, "bundle-"+r+".json")
	}
	old, _ := filepath.Glob(filepath.Join(dir, "bundle-*.json"))
	for _, n := range names {
		old = append(old, filepath.Join(dir, n))
	}
	for _, p := range old {
		if _, err := os.Lstat(p); err == nil {
			return &verr.Error{Reason: ReasonOutputExists, File: p,
				Detail: "blind never replaces an earlier blinding (a new run draws a new item-ID key and the sheets signed against the old bundles could no longer be scored); choose a new --out directory",
				Rule:   "a sealed unblinding map is never replaced"}
		}
	}
	return nil
}

// ReasonMapInRaterFolder refuses a sealed-map path inside the directory
// that goes to the raters (blind --out): a rater holding the map can
// unblind every item.
const ReasonMapInRaterFolder verr.Reason = "map-in-rater-folder"

// MapOutsideRaterDir refuses (ReasonMapInRaterFolder) a sealed-map path
// mapPath that lies in the raters' directory dir or below it, comparing
// absolute paths with their symbolic links resolved, also a link whose
// target does not exist yet (fsutil.ResolveLinks: a map named through a
// link to the raters' directory blind is about to make is inside it).
func MapOutsideRaterDir(dir, mapPath string) error {
	in, err := fsutil.Within(dir, filepath.Dir(mapPath))
	if err != nil || !in {
		return err
	}
	return &verr.Error{Reason: ReasonMapInRaterFolder, File: mapPath, Rule: "the sealed map is for the coordinator only",
		Detail: fmt.Sprintf("the sealed map would be written inside %s, the directory that goes to the raters (a rater holding it can unblind every item); give --map-out a path outside it", dir)}
}

// Blinded is a campaign's blinding: the bundles, the sealed map and the
// leak scan (blinding.Result) and whether the campaign is synthetic.
type Blinded struct {
	*blinding.Result
	Synthetic bool
	// ManifestSHA256 is the SHA-256 of the blinded campaign's manifest.json.
	ManifestSHA256 string
	// AdmissionFailures are the campaign's admission failures
	// (AdmissionFailures); blinding a campaign that is not admitted is
	// allowed (a dry run), and the command says so.
	AdmissionFailures []*verr.Error
}

// Blind strictly loads the campaign fsys of either design, builds one
// bundle per rater and the sealed map from its design's blinding source
// (scorer.Design.Blinding, blinding.BuildSource) and records the
// campaign's admission failures. With extra leak tokens the leak
// scan is run again over every bundle with the campaign's default tokens
// and the extra ones.
func Blind(fsys fs.FS, opt blinding.Options, extraTokens []string) (*Blinded, error) {
	c, d, err := loadDesign(fsys, campaign.LoadOptions{})
	if err != nil {
		return nil, err
	}
	src := d.Blinding(c)
	res, err := blinding.BuildSource(src, opt)
	if err != nil {
		return nil, err
	}
	if len(extraTokens) > 0 {
		sc := blinding.NewScanner(append(src.LeakTokens(), extraTokens...))
		res.Findings = nil
		for _, found := range sc.ScanBundles(res.Bundles) {
			res.Findings = append(res.Findings, found...)
		}
	}
	return &Blinded{Result: res, Synthetic: c.Synthetic(), ManifestSHA256: src.ManifestSHA256, AdmissionFailures: Admit(c, nil).Failures()}, nil
}

// WriteBlinding writes the blinding into the new or empty directory dir
// as one set: sealed-map.json (mode 0600, coordinator only),
// bundle-<rater>.json per rater and leak-findings.json (canonical JSON,
// [] when there is no finding). See WriteBlindingMap.
func WriteBlinding(dir string, b *Blinded) error {
	return WriteBlindingMap(dir, filepath.Join(dir, "sealed-map.json"), b)
}

// WriteBlindingMap is WriteBlinding with the sealed map written to
// mapPath (mode 0600) instead of dir/sealed-map.json, so that the
// coordinator can keep the unblinding map out of the directory handed to
// the raters. mapPath must not exist (BlindOutputsFree checks dir only),
// and dir must not exist or be empty.
//
// The files of dir are written into a staging directory beside it and
// renamed into place together (fsutil.StageDir): a reader finds every
// bundle or none. A sealed map outside dir is written first (atomically),
// so a write killed in between leaves a map without bundles, which every
// reader of a blinding refuses (bundle-missing), never bundles without
// their map. The caller holds the locks of dir and mapPath.
func WriteBlindingMap(dir, mapPath string, b *Blinded) error {
	st, err := fsutil.StageDir(dir)
	if err != nil {
		return err
	}
	defer st.Cleanup()
	inside := filepath.Clean(mapPath) == filepath.Join(dir, "sealed-map.json")
	if inside {
		err = st.WriteFile("sealed-map.json", b.MapBytes, 0o600)
	} else {
		err = fsutil.WriteFile(mapPath, b.MapBytes, 0o600)
	}
	if err != nil {
		return err
	}
	for i, bu := range b.Bundles {
		if err := st.WriteFile("bundle-"+bu.Rater+".json", b.BundleBytes[i], 0o644); err != nil {
			return err
		}
	}
	findings := b.Findings
	if findings == nil {
		findings = []blinding.Finding{}
	}
	fb, err := blinding.MarshalCanonical(findings)
	if err != nil {
		return err
	}
	if err := st.WriteFile("leak-findings.json", fb, 0o644); err != nil {
		return err
	}
	return st.Commit()
}
