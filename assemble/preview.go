package assemble

import (
	"io/fs"
	"os"
	"slices"
	"strings"
	"testing/fstest"

	"verdict/blinding"
	"verdict/campaign"
	"verdict/verr"
)

// AfterImport returns the campaign directory dir as it will read once
// WriteImport has written each of ims' response and receipt and
// `verdict manifest` has bound the new files: dir's files, with
// manifest.json's "files" listing every file bound already (with its bound
// digest, also when its bytes changed or it is gone, so that loading it
// refuses what binding would refuse) and every unbound file, im's among
// them. Nothing is written. A file WriteImport would refuse to replace is
// refused here the same way (ReasonFileDiffers). Loading it (campaign.Load) lets a caller run
// admission's rules on a receipt before it is written and bound for good:
// a bound receipt is never rebound (ReasonResultRebound). Errors: the
// manifest's "files" does not parse, or a file cannot be read or bound.
func AfterImport(dir string, ims ...*Imported) (fs.FS, error) {
	raw, err := readManifest(dir)
	if err != nil {
		return nil, err
	}
	bound, err := boundFiles(raw)
	if err != nil {
		return nil, err
	}
	now, err := scanFiles(dir, bound)
	if err != nil {
		return nil, err
	}
	var add []fileBytes
	for _, im := range ims {
		f, err := importFiles(dir, im)
		if err != nil {
			return nil, err
		}
		add = append(add, f...)
	}
	if _, err := compareExisting(dir, add, ruleResults); err != nil {
		return nil, err
	}
	over := fstest.MapFS{}
	for _, f := range add {
		over[f.path] = &fstest.MapFile{Data: f.data, Mode: 0o644}
		now[f.path] = blinding.Digest(f.data)
	}
	for _, f := range bound {
		now[f.Path] = f.SHA256
	}
	list := make([]campaign.FileDigest, 0, len(now))
	for p, d := range now {
		list = append(list, campaign.FileDigest{Path: p, SHA256: d})
	}
	slices.SortFunc(list, func(a, b campaign.FileDigest) int { return strings.Compare(a.Path, b.Path) })
	files, err := jsonOf(list)
	if err != nil {
		return nil, err
	}
	manifest, err := replaceMember(raw, "files", files)
	if err != nil {
		return nil, &verr.Error{Reason: campaign.ReasonSchema, File: campaign.ManifestFile, Rule: campaign.RuleManifest, Detail: err.Error(), Err: err}
	}
	over[campaign.ManifestFile] = &fstest.MapFile{Data: manifest, Mode: 0o644}
	return overlayFS{base: os.DirFS(dir), over: over}, nil
}

// overlayFS reads a name from over when over holds it, else from base.
type overlayFS struct {
	base fs.FS
	over fstest.MapFS
}

// Open implements fs.FS.
func (o overlayFS) Open(name string) (fs.File, error) {
	if _, ok := o.over[name]; ok {
		return o.over.Open(name)
	}
	return o.base.Open(name)
}
