package serve

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"verdict/adjudication"
	"verdict/blinding"
	"verdict/campaign"
	"verdict/pipeline"
	"verdict/verr"
)

// Refusals of a served directory (CheckServedDir) besides
// pipeline.ReasonMapInRaterFolder (a sealed map inside it).
const (
	// ReasonCampaignInServedDir: the directory is, or holds, a campaign
	// (a manifest.json): its receipts and responses name the arms.
	ReasonCampaignInServedDir verr.Reason = "campaign-in-served-dir"
	// ReasonSecretInServedDir: the directory holds a reveal record (it
	// binds the sealed map), a private key, or a symbolic link to a
	// directory that cannot be checked.
	ReasonSecretInServedDir verr.Reason = "secret-in-served-dir"
	// ReasonNoBundle: the directory holds no bundle-<rater>.json.
	ReasonNoBundle verr.Reason = "no-bundle"
	// ReasonBundleName: a bundle-<name>.json holds another rater's bundle.
	ReasonBundleName verr.Reason = "bundle-name"
)

const ruleServedDir = "the sealed map is for the coordinator only: nothing raters must not see sits where they are served"

// scan bounds: how deep and how many entries CheckServedDir looks at,
// and how much of each file it reads.
const (
	maxScanDepth   = 4
	maxScanEntries = 20000
	sniffBytes     = 4096
)

// Layout is the set of files of a served directory, every path by the
// convention of the local commands (`verdict rate` and `verdict
// adjudicate` defaults): bundle-NAME.json, its journal
// bundle-NAME.journal.jsonl, the sheet sheet-NAME.json (and .sig), the
// adjudication adjudication.json with its decision log
// adjudication.decisions.jsonl.
type Layout struct {
	Dir string
	// Raters are the raters with a bundle, sorted.
	Raters []string
}

// BundlePath is the bundle of rater.
func (l Layout) BundlePath(rater string) string {
	return filepath.Join(l.Dir, "bundle-"+rater+".json")
}

// JournalPath is the journal of rater (verdict rate's default).
func (l Layout) JournalPath(rater string) string {
	return filepath.Join(l.Dir, "bundle-"+rater+".journal.jsonl")
}

// SheetPath is the frozen sheet of rater (verdict rate's default).
func (l Layout) SheetPath(rater string) string {
	return filepath.Join(l.Dir, "sheet-"+rater+".json")
}

// AdjudicationPath is the adjudication record.
func (l Layout) AdjudicationPath() string { return filepath.Join(l.Dir, "adjudication.json") }

// DecisionsPath is the adjudicator's decision log.
func (l Layout) DecisionsPath() string {
	return filepath.Join(l.Dir, "adjudication.decisions.jsonl")
}

// CheckServedDir checks dir before it is served and returns its layout:
// it refuses (one *verr.Error) a directory that is or holds a campaign
// (manifest.json), a sealed map (ReasonMapInRaterFolder, the rule of
// `blind --map-out`), a reveal record, a private key or a symbolic link
// to a directory, looking at most maxScanDepth levels deep, and one
// without any bundle-NAME.json. A bundle whose rater is not NAME is
// refused (ReasonBundleName).
func CheckServedDir(dir string) (Layout, error) {
	l := Layout{Dir: dir}
	fi, err := os.Stat(dir)
	if err != nil {
		return l, err
	}
	if !fi.IsDir() {
		return l, &verr.Error{Reason: ReasonNoBundle, File: dir, Rule: ruleServedDir, Detail: "not a directory"}
	}
	n := 0
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if n++; n > maxScanEntries {
			return &verr.Error{Reason: ReasonSecretInServedDir, File: dir, Rule: ruleServedDir, Detail: fmt.Sprintf("more than %d entries; serve a directory that holds only the bundles", maxScanEntries)}
		}
		rel, _ := filepath.Rel(dir, p)
		if d.IsDir() && rel != "." && strings.Count(rel, string(filepath.Separator)) >= maxScanDepth {
			return &verr.Error{Reason: ReasonSecretInServedDir, File: p, Rule: ruleServedDir, Detail: fmt.Sprintf("directories nested deeper than %d levels cannot be checked; serve a directory that holds only the bundles", maxScanDepth)}
		}
		if d.IsDir() {
			return nil
		}
		if d.Name() == "manifest.json" {
			return &verr.Error{Reason: ReasonCampaignInServedDir, File: p, Rule: ruleServedDir, Detail: "a campaign directory (manifest.json) is inside the served directory; its receipts and responses name the arms. Serve the directory blind --out wrote, apart from the campaign"}
		}
		if d.Type()&fs.ModeSymlink != 0 {
			if st, err := os.Stat(p); err == nil && st.IsDir() {
				return &verr.Error{Reason: ReasonSecretInServedDir, File: p, Rule: ruleServedDir, Detail: "a symbolic link to a directory cannot be checked; remove it"}
			}
		}
		return sniff(p)
	})
	if err != nil {
		return l, err
	}
	return ReadLayout(dir)
}

// ReadLayout returns the layout of dir: its raters are the names of its
// bundle-NAME.json files, each a bundle of rater NAME (ReasonBundleName
// otherwise); a directory without one is refused (ReasonNoBundle). It
// does not check for secrets (CheckServedDir does): `verdict status`
// reads the coordinator's own directory.
func ReadLayout(dir string) (Layout, error) {
	l := Layout{Dir: dir}
	bundles, _ := filepath.Glob(filepath.Join(dir, "bundle-*.json"))
	for _, p := range bundles {
		name := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(p), "bundle-"), ".json")
		b, _, err := blinding.LoadBundle(p)
		if err != nil {
			return l, err
		}
		if err := adjudication.CheckBundleRater(b, name); err != nil {
			return l, &verr.Error{Reason: ReasonBundleName, File: p, Pointer: "/rater", Rule: ruleServedDir, Detail: fmt.Sprintf("the bundle of rater %q is named for %q; a rater is served the bundle named for them", b.Rater, name), Err: err}
		}
		l.Raters = append(l.Raters, name)
	}
	if len(l.Raters) == 0 {
		return l, &verr.Error{Reason: ReasonNoBundle, File: dir, Rule: ruleServedDir, Detail: "no bundle-<rater>.json to serve; serve the directory verdict blind --out wrote"}
	}
	sort.Strings(l.Raters)
	return l, nil
}

// sniff refuses the file at p when its first sniffBytes are a sealed
// map, a reveal record or a private key.
func sniff(p string) error {
	f, err := campaign.OpenRegular(p, campaign.FileRecord)
	if err != nil {
		var ve *verr.Error
		if errors.As(err, &ve) {
			return &verr.Error{Reason: ReasonSecretInServedDir, File: p, Rule: ruleServedDir, Detail: "cannot be checked: " + err.Error(), Err: err}
		}
		return err
	}
	defer f.Close()
	head := make([]byte, sniffBytes)
	k, err := io.ReadFull(f, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return err
	}
	head = head[:k]
	switch {
	case bytes.Contains(head, []byte(`"`+blinding.SealedMapFormat+`"`)) || filepath.Base(p) == "sealed-map.json":
		return &verr.Error{Reason: pipeline.ReasonMapInRaterFolder, File: p, Rule: "the sealed map is for the coordinator only",
			Detail: "a sealed map is inside the served directory (whoever reads it can unblind every item); move it out and pass it to reveal and score with --map (blind --map-out writes it elsewhere)"}
	case bytes.Contains(head, []byte(`"`+adjudication.RevealFormat+`"`)):
		return &verr.Error{Reason: ReasonSecretInServedDir, File: p, Rule: ruleServedDir, Detail: "a reveal record is inside the served directory; serve only before the reveal, with the reveal kept by the coordinator"}
	case bytes.Contains(head, []byte("PRIVATE KEY-----")):
		return &verr.Error{Reason: ReasonSecretInServedDir, File: p, Rule: ruleServedDir, Detail: "a private key is inside the served directory; keep the host key and signing keys elsewhere"}
	}
	return nil
}
