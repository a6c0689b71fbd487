package pipeline

import (
	"io/fs"
	"os"

	"verdict/campaign"
	"verdict/scorer"
	"verdict/verr"
)

// DirFS opens the campaign directory dir confined to it: every path is
// resolved by os.Root, so a symbolic link (or "..") that leads outside dir
// cannot be read and campaign.Load refuses that file with
// campaign.ReasonOutsideCampaign. When dir cannot be opened, the returned
// file system fails every open with that error (Load then reports the
// manifest as unreadable). The root stays open for the life of the process
// (os.Root closes itself when it is collected). campaign.RootFS reads the
// many files under responses/ and receipts/ with fewer system calls, with
// the same confinement.
func DirFS(dir string) fs.FS {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return failingFS{err}
	}
	return campaign.RootFS(root)
}

// failingFS is a file system whose every open fails with err.
type failingFS struct{ err error }

// Open returns the error the campaign directory failed to open with.
func (f failingFS) Open(name string) (fs.File, error) {
	return nil, &fs.PathError{Op: "open", Path: name, Err: f.err}
}

// LoadDir strictly loads the campaign in directory dir (DirFS). A path
// that does not exist or is not a directory is refused with reason
// "file-missing" naming dir.
func LoadDir(dir string) (*campaign.Campaign, error) { return LoadDirWith(dir, campaign.LoadOptions{}) }

// LoadDirWith is LoadDir with the loader's options (campaign.LoadWith).
func LoadDirWith(dir string, opts campaign.LoadOptions) (*campaign.Campaign, error) {
	if err := campaignDir(dir); err != nil {
		return nil, err
	}
	return load(DirFS(dir), opts)
}

// campaignDir refuses ("file-missing") a campaign path that does not
// exist or is not a directory.
func campaignDir(dir string) error {
	st, err := os.Stat(dir)
	if err != nil {
		return &verr.Error{Reason: "file-missing", File: dir, Detail: err.Error()}
	}
	if !st.IsDir() {
		return &verr.Error{Reason: "file-missing", File: dir, Detail: "not a directory"}
	}
	return nil
}

// loadDesign strictly loads the campaign fsys with the loader of its
// manifest's design (campaign.ManifestDesign, scorer.LookupDesign,
// Design.Load) and returns the design with it; the design is returned
// also when its loader refuses the campaign (nil when the manifest names
// a design this build does not score: campaign.ReasonDesign,
// "design-unknown"). A manifest that cannot be read is left to the
// fixed-evidence loader, which refuses it. Every command that loads a
// campaign loads it here.
func loadDesign(fsys fs.FS, opts campaign.LoadOptions) (campaign.Loaded, scorer.Design, error) {
	d, err := designOf(fsys)
	if err != nil {
		return nil, nil, err
	}
	l, err := d.Load(fsys, opts)
	if err != nil {
		return nil, d, err
	}
	return l, d, nil
}

// designOf is the design the manifest of fsys names
// (campaign.ManifestDesign, scorer.LookupDesign): fixed-evidence when the
// manifest cannot be read (its loader then refuses it), the refusal of a
// design this build does not score.
func designOf(fsys fs.FS) (scorer.Design, error) {
	var name campaign.Design
	if raw, err := campaign.ReadRegularFS(fsys, campaign.ManifestFile, campaign.FileManifest); err == nil {
		if name, err = campaign.ManifestDesign(raw, campaign.ManifestFile); err != nil {
			return nil, err
		}
	}
	d, derr := scorer.LookupDesign(name)
	if derr != nil {
		return nil, derr
	}
	return d, nil
}

// DesignOfDir is the design the manifest of the campaign in directory dir
// names (see designOf), for a command that decides its usage by design
// before it loads the campaign.
func DesignOfDir(dir string) (scorer.Design, error) { return designOf(DirFS(dir)) }

// LoadDesign is loadDesign of the campaign in directory dir (a path that
// does not exist or is not a directory is refused as by LoadDir).
func LoadDesign(dir string) (campaign.Loaded, scorer.Design, error) {
	if err := campaignDir(dir); err != nil {
		return nil, nil, err
	}
	return loadDesign(DirFS(dir), campaign.LoadOptions{})
}

// load is loadDesign for the commands that run only fixed-evidence
// campaigns: a campaign of another design is refused
// (campaign.ReasonDesign) naming the design.
func load(fsys fs.FS, opts campaign.LoadOptions) (*campaign.Campaign, error) {
	l, _, err := loadDesign(fsys, opts)
	if err != nil {
		return nil, err
	}
	return fixedOnly(l)
}

// fixedOnly is the fixed-evidence campaign l, or the refusal
// (campaign.ReasonDesign) of a campaign of another design.
func fixedOnly(l campaign.Loaded) (*campaign.Campaign, error) {
	c, ok := l.(*campaign.Campaign)
	if !ok {
		return nil, &verr.Error{Reason: campaign.ReasonDesign, File: campaign.ManifestFile, Pointer: "/design", Rule: scorer.RuleDesign,
			Detail: "this command runs only fixed-evidence campaigns; design " + string(l.Design()) + " is not run by it"}
	}
	return c, nil
}

// missingIdentitiesRaw lists the missing execution identities of the
// campaign's manifest.json read leniently (scorer.MissingIdentitiesJSON),
// for a manifest the strict loader refused: a proposed live manifest with
// null placeholders is still listed identity by identity. It is nil when
// the manifest cannot be read as a JSON object.
func missingIdentitiesRaw(fsys fs.FS) ([]byte, []string) {
	raw, err := campaign.ReadRegularFS(fsys, campaign.ManifestFile, campaign.FileManifest)
	if err != nil {
		return nil, nil
	}
	ids, err := scorer.MissingIdentitiesJSON(raw)
	if err != nil {
		return raw, nil
	}
	return raw, ids
}
