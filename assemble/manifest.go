package assemble

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"verdict/blinding"
	"verdict/campaign"
	"verdict/internal/fsutil"
	"verdict/verr"
)

// Refusals of binding a manifest.
const (
	// ReasonFrozenInputChanged: a task, packet, truth, prompt or source
	// file would be added, changed or removed after a session ran; the
	// inputs are frozen before the first session (CONTRACT §3, §7).
	ReasonFrozenInputChanged verr.Reason = "frozen-input-changed"
	// ReasonResultRebound: a response or receipt already bound would get
	// another digest or be removed; only new ones may be added.
	ReasonResultRebound verr.Reason = "result-rebound"
	// ReasonCampaignBlinded: a blinding of the campaign exists
	// (blindings/), so no digest may change at all.
	ReasonCampaignBlinded verr.Reason = "campaign-blinded"
	// ReasonManifestMissing: the campaign has no manifest.json and no
	// proposed manifest to start from was given.
	ReasonManifestMissing verr.Reason = "manifest-missing"
	// ReasonUnbindable: a file under a bound directory is not a regular
	// file (a link, device or pipe), so it cannot be bound.
	ReasonUnbindable verr.Reason = "unbindable-file"
)

const (
	ruleFrozen  = "CONTRACT §3 freeze tasks, packets, truth, prompts and sources before any session; §7 changed inputs invalidate the comparison"
	ruleResults = "CONTRACT §5 preserve every attempt: a recorded response or receipt is never rebound"
	ruleBlinded = "CONTRACT §5 ratings are frozen against the blinded campaign: nothing is rebound after blinding"
)

// BlindingsDir is the campaign directory where `verdict blind` records
// each blinding it made of the campaign (BlindingRecord).
const BlindingsDir = "blindings"

// frozenDirs hold the inputs frozen before the first session.
var frozenDirs = []string{campaign.TasksDir, campaign.PromptsDir, campaign.SourcesDir}

// resultDirs hold what sessions produce.
var resultDirs = []string{campaign.ResponsesDir, campaign.ReceiptsDir}

// BindChange is one difference between the old and the new file list.
type BindChange struct {
	// Change is "added", "changed" or "removed".
	Change string `json:"change"`
	Path   string `json:"path"`
	// Old and New are the digests before and after ("" when none).
	Old string `json:"old,omitempty"`
	New string `json:"new,omitempty"`
}

// BindResult is what Bind did or, in a dry run, would do.
type BindResult struct {
	// Started is true when manifest.json was started from the proposed
	// manifest.
	Started bool `json:"started"`
	// Changes are sorted by path; empty when every digest is already bound.
	Changes []BindChange `json:"changes"`
	// Files is the new sorted file list.
	Files []campaign.FileDigest `json:"files"`
	// Bytes are the new manifest.json bytes.
	Bytes []byte `json:"-"`
	// Identities are the execution identities set (BindOptions.Identities),
	// by name: Change "set", Old and New their values ("" for null).
	Identities []BindChange `json:"identities"`
	// Written is false in a dry run and when nothing changed.
	Written bool `json:"written"`
}

// BindOptions configure Bind.
type BindOptions struct {
	// From is the proposed manifest's bytes to start from when the
	// campaign has no manifest.json (ignored when it has one).
	From []byte
	// DryRun computes the changes without writing anything: it takes no
	// lock (a campaign another command is writing may show that write
	// half done) and refuses (ReasonImportJournal) while an interrupted
	// import's journal waits for the next write to undo it.
	DryRun bool
	// Identities sets execution identities by name ("execution.host",
	// as manifest init's --identity): any of them until a session ran; once
	// one ran, only those still null (a bound identity is then frozen,
	// ReasonFrozenInputChanged); none after a blinding
	// (ReasonCampaignBlinded).
	Identities map[string]string
}

// Bind binds the SHA-256 of every regular file under tasks/, prompts/,
// sources/, responses/ and receipts/ of the campaign directory dir, of the
// rating guidelines (guidelines.md) when present, and of every other file
// the manifest already binds, into manifest.json's
// "files" (sorted by path). Every other member of the manifest keeps its
// exact value: a null identity stays null, nothing is invented. Without a
// manifest.json it starts from opt.From (the proposed live manifest).
//
// It refuses (nothing written):
//   - any change once a blinding of the campaign exists
//     (ReasonCampaignBlinded);
//   - once any session has run (a response or receipt is bound or on
//     disk), any added, changed or removed task, packet, truth, prompt or
//     source file (ReasonFrozenInputChanged);
//   - a changed or removed digest of a bound response or receipt
//     (ReasonResultRebound); new ones may always be added.
//
// Only "files" is read and written: the rest of the manifest (identities,
// tasks, runs) is the coordinator's and `verdict check` judges it, so a
// proposed manifest with empty tasks and runs can be bound. The document
// must be one JSON object without duplicate member names, and "files" a
// list of {path, sha256} with canonical paths.
func Bind(dir string, opt BindOptions) (*BindResult, error) {
	if opt.DryRun {
		// A dry run writes nothing: not the campaign's lock file (whose
		// presence tells later writers that a verdict writer held the
		// campaign) and no recovery of an interrupted import, which it
		// leaves to the next write.
		if _, err := os.Lstat(filepath.Join(dir, ImportJournalFile)); err == nil {
			return nil, verr.Newf(ReasonImportJournal, ImportJournalFile, "", ruleBatch,
				"an interrupted import's journal is here; a dry run changes nothing, so it shows nothing until the next verdict write into the campaign has undone that import (or refused, naming why)")
		}
		return bindHeld(dir, opt)
	}
	lock, err := LockCampaign(dir)
	if err != nil {
		return nil, err
	}
	defer lock.Unlock()
	return bindHeld(dir, opt)
}

// bindHeld is Bind for a caller that already holds the campaign's write
// lock (LockCampaign).
func bindHeld(dir string, opt BindOptions) (*BindResult, error) {
	res := &BindResult{}
	mpath := filepath.Join(dir, campaign.ManifestFile)
	raw, err := readRegular(mpath)
	switch {
	case errors.Is(err, fs.ErrNotExist) && opt.From != nil:
		raw, res.Started = opt.From, true
	case errors.Is(err, fs.ErrNotExist):
		return nil, &verr.Error{Reason: ReasonManifestMissing, File: campaign.ManifestFile, Rule: campaign.RuleFileIdentity,
			Detail: "the campaign has no manifest.json; start one from the proposed live manifest (--from)"}
	case err != nil:
		return nil, err
	}
	bound, err := boundFiles(raw)
	if err != nil {
		return nil, err
	}
	old := map[string]string{}
	for _, f := range bound {
		old[f.Path] = f.SHA256
	}
	now, err := scanFiles(dir, bound)
	if err != nil {
		return nil, err
	}
	res.Files = make([]campaign.FileDigest, 0, len(now))
	for p, d := range now {
		res.Files = append(res.Files, campaign.FileDigest{Path: p, SHA256: d})
	}
	slices.SortFunc(res.Files, func(a, b campaign.FileDigest) int { return strings.Compare(a.Path, b.Path) })
	for _, f := range res.Files {
		if o, ok := old[f.Path]; !ok {
			res.Changes = append(res.Changes, BindChange{Change: "added", Path: f.Path, New: f.SHA256})
		} else if o != f.SHA256 {
			res.Changes = append(res.Changes, BindChange{Change: "changed", Path: f.Path, Old: o, New: f.SHA256})
		}
	}
	for p, o := range old {
		if _, ok := now[p]; !ok {
			res.Changes = append(res.Changes, BindChange{Change: "removed", Path: p, Old: o})
		}
	}
	slices.SortFunc(res.Changes, func(a, b BindChange) int { return strings.Compare(a.Path, b.Path) })
	if err := checkRebind(dir, res.Changes, old, now); err != nil {
		return nil, err
	}
	base := raw
	if len(opt.Identities) > 0 {
		if base, err = setIdentities(dir, raw, opt.Identities, sessionsRan(old, now), res); err != nil {
			return nil, err
		}
	}
	files, err := jsonOf(res.Files)
	if err != nil {
		return nil, err
	}
	if res.Bytes, err = replaceMember(base, "files", files); err != nil {
		return nil, &verr.Error{Reason: campaign.ReasonSchema, File: campaign.ManifestFile, Rule: campaign.RuleManifest, Detail: err.Error(), Err: err}
	}
	if opt.DryRun || (!res.Started && bytes.Equal(res.Bytes, raw)) {
		return res, nil
	}
	if err := fsutil.WriteFile(mpath, res.Bytes, 0o644); err != nil {
		return nil, err
	}
	res.Written = true
	return res, nil
}

// checkRebind applies the freeze rules of Bind to the changes.
func checkRebind(dir string, changes []BindChange, old, now map[string]string) error {
	if len(changes) == 0 {
		return nil
	}
	if bl, err := Blindings(dir); err != nil {
		return err
	} else if len(bl) > 0 {
		c := changes[0]
		return &verr.Error{Reason: ReasonCampaignBlinded, File: c.Path, Rule: ruleBlinded,
			Detail: fmt.Sprintf("%s would be %s, but the campaign was blinded (%s); no digest changes after a blinding", c.Path, c.Change, strings.Join(bl, ", "))}
	}
	ran := sessionsRan(old, now)
	for _, c := range changes {
		switch {
		case ran && inDirs(c.Path, frozenDirs):
			return &verr.Error{Reason: ReasonFrozenInputChanged, File: c.Path, Rule: ruleFrozen,
				Detail: fmt.Sprintf("%s would be %s after sessions ran; tasks, packets, truth, prompts and sources are frozen", c.Path, c.Change)}
		case c.Change != "added" && inDirs(c.Path, resultDirs):
			return &verr.Error{Reason: ReasonResultRebound, File: c.Path, Rule: ruleResults,
				Detail: fmt.Sprintf("%s is bound as %s and would be %s; a recorded response or receipt is never rebound, only new ones are added", c.Path, c.Old, c.Change)}
		}
	}
	return nil
}

// sessionsRan reports whether a response or receipt is bound (old) or
// present (now): a session ran.
func sessionsRan(old, now map[string]string) bool {
	for _, m := range []map[string]string{old, now} {
		for p := range m {
			if inDirs(p, resultDirs) {
				return true
			}
		}
	}
	return false
}

// setIdentities sets the identities ids in the manifest raw (see
// BindOptions.Identities), records each change in res.Identities and
// returns the manifest with its "execution" member replaced.
func setIdentities(dir string, raw []byte, ids map[string]string, ran bool, res *BindResult) ([]byte, error) {
	var m campaign.Manifest
	if err := jsonv2.Unmarshal(raw, &m, jsonv2.RejectUnknownMembers(false)); err != nil {
		return nil, &verr.Error{Reason: campaign.ReasonSchema, File: campaign.ManifestFile, Rule: campaign.RuleManifest, Detail: err.Error(), Err: err}
	}
	blinded, err := Blindings(dir)
	if err != nil {
		return nil, err
	}
	for _, name := range slices.Sorted(maps.Keys(ids)) {
		key := strings.TrimPrefix(name, "execution.")
		old := identityValue(&m.Execution, key)
		if err := setIdentity(&m, name, ids[name]); err != nil {
			return nil, err
		}
		now := identityValue(&m.Execution, key)
		if now == old {
			continue
		}
		ptr := "/execution/" + key
		switch {
		case len(blinded) > 0:
			return nil, &verr.Error{Reason: ReasonCampaignBlinded, File: campaign.ManifestFile, Pointer: ptr, Rule: ruleBlinded,
				Detail: fmt.Sprintf("execution.%s would change, but the campaign was blinded (%s)", key, strings.Join(blinded, ", "))}
		case ran && old != "":
			return nil, &verr.Error{Reason: ReasonFrozenInputChanged, File: campaign.ManifestFile, Pointer: ptr, Rule: ruleFrozen,
				Detail: fmt.Sprintf("execution.%s is bound as %q and sessions ran; a bound identity is frozen (only a null one may still be set)", key, old)}
		}
		res.Identities = append(res.Identities, BindChange{Change: "set", Path: "execution." + key, Old: old, New: now})
	}
	ex, err := campaign.MarshalJSON(&m.Execution)
	if err != nil {
		return nil, err
	}
	return replaceMember(raw, "execution", ex)
}

// readManifest reads the manifest.json of the campaign dir; one that
// cannot be read is ReasonManifestMissing.
func readManifest(dir string) ([]byte, error) {
	raw, err := readRegular(filepath.Join(dir, campaign.ManifestFile))
	if err != nil {
		return nil, &verr.Error{Reason: ReasonManifestMissing, File: campaign.ManifestFile, Rule: campaign.RuleFileIdentity, Detail: err.Error(), Err: err}
	}
	return raw, nil
}

func inDirs(path string, dirs []string) bool {
	d, _, _ := strings.Cut(path, "/")
	return slices.Contains(dirs, d)
}

// scanFiles hashes every regular file under the bound directories and every
// other file bound already that still exists. A link, device or pipe under
// a bound directory is ReasonUnbindable.
func scanFiles(dir string, bound []campaign.FileDigest) (map[string]string, error) {
	out := map[string]string{}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	fsys := campaign.RootFS(root)
	for _, d := range append(slices.Clone(frozenDirs), resultDirs...) {
		err := fs.WalkDir(fsys, d, func(p string, e fs.DirEntry, err error) error {
			if err != nil {
				if errors.Is(err, fs.ErrNotExist) && p == d {
					return nil
				}
				return err
			}
			if e.IsDir() {
				return nil
			}
			if !e.Type().IsRegular() {
				return &verr.Error{Reason: ReasonUnbindable, File: p, Rule: campaign.RuleFileIdentity, Detail: "not a regular file; only regular files are bound"}
			}
			if fsutil.IsStaging(e.Name()) {
				return &verr.Error{Reason: ReasonUnbindable, File: p, Rule: campaign.RuleFileIdentity,
					Detail: "a temporary file of an interrupted write (\".NAME\" and digits), never a campaign file; remove it once no verdict command is running in the campaign, and bind again"}
			}
			d, err := campaign.HashRegularFS(fsys, p, campaign.FileKindOf(p))
			if err != nil {
				return err
			}
			out[p] = d
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	// bindFile hashes the file p (fi its Lstat) into out; a file that is
	// not regular is ReasonUnbindable.
	bindFile := func(p string, fi fs.FileInfo) error {
		if !fi.Mode().IsRegular() {
			return &verr.Error{Reason: ReasonUnbindable, File: p, Rule: campaign.RuleFileIdentity, Detail: "not a regular file; only regular files are bound"}
		}
		d, err := campaign.HashRegularFS(fsys, p, campaign.FileKindOf(p))
		if err != nil {
			return err
		}
		out[p] = d
		return nil
	}
	// The rating guidelines: optional, but check refuses them present and
	// unbound (file-unlisted). They reach no model session, so they may be
	// added or changed until a blinding carries them (campaign-blinded).
	if fi, err := fs.Lstat(fsys, campaign.GuidelinesFile); err == nil {
		if err := bindFile(campaign.GuidelinesFile, fi); err != nil {
			return nil, err
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	for _, f := range bound {
		if _, ok := out[f.Path]; ok || inDirs(f.Path, frozenDirs) || inDirs(f.Path, resultDirs) {
			continue
		}
		fi, err := fs.Lstat(fsys, f.Path)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		if err := bindFile(f.Path, fi); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// boundFiles reads the "files" member of the manifest bytes raw strictly:
// one JSON object, no duplicate names, files a list of {path, sha256} with
// no other member, each path canonical (campaign.CheckFilePath) and
// listed once, never manifest.json itself. A manifest without "files"
// binds nothing yet.
func boundFiles(raw []byte) ([]campaign.FileDigest, error) {
	bad := func(ptr, format string, a ...any) error {
		return verr.Newf(campaign.ReasonSchema, campaign.ManifestFile, ptr, campaign.RuleManifest, format, a...)
	}
	dec := jsontext.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.ReadToken(); err != nil || tok.Kind() != '{' {
		return nil, bad("", "manifest.json is not a JSON object")
	}
	var files []campaign.FileDigest
	for dec.PeekKind() != '}' {
		k, err := dec.ReadToken()
		if err != nil {
			return nil, bad("", "%v", err)
		}
		key := k.String()
		v, err := dec.ReadValue()
		if err != nil {
			return nil, bad("", "%v", err)
		}
		if key != "files" {
			continue
		}
		if err := jsonv2.Unmarshal(v, &files, jsonv2.RejectUnknownMembers(true)); err != nil {
			return nil, bad("/files", "%v", err)
		}
	}
	if _, err := dec.ReadToken(); err != nil {
		return nil, bad("", "%v", err)
	}
	if _, err := dec.ReadToken(); err != io.EOF {
		return nil, bad("", "data after the manifest object")
	}
	seen := map[string]bool{}
	for i, f := range files {
		if why := campaign.CheckFilePath(f.Path); why != "" {
			return nil, bad(fmt.Sprintf("/files/%d/path", i), "%s: %q", why, f.Path)
		}
		if seen[f.Path] {
			return nil, bad(fmt.Sprintf("/files/%d/path", i), "%s is listed twice", f.Path)
		}
		if f.Path == campaign.ManifestFile {
			return nil, bad(fmt.Sprintf("/files/%d/path", i), "%s cannot bind itself: writing its own digest changes its bytes, so the entry could never hold", f.Path)
		}
		seen[f.Path] = true
	}
	return files, nil
}

// jsonOf is the compact JSON of v.
func jsonOf(v any) ([]byte, error) {
	b, err := blinding.MarshalCanonical(v)
	if err != nil {
		return nil, err
	}
	val := jsontext.Value(b)
	if err := val.Compact(); err != nil {
		return nil, err
	}
	return val, nil
}

// replaceMember returns the JSON object raw with the value of its top-level
// member name replaced by value (appended when absent), every other member
// kept with its exact value and in its order, indented by two spaces with a
// final newline.
func replaceMember(raw []byte, name string, value []byte) ([]byte, error) {
	dec := jsontext.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.ReadToken(); err != nil || tok.Kind() != '{' {
		return nil, fmt.Errorf("manifest.json is not a JSON object")
	}
	var b bytes.Buffer
	enc := jsontext.NewEncoder(&b, jsontext.WithIndent("  "), jsontext.EscapeForHTML(false))
	if err := enc.WriteToken(jsontext.BeginObject); err != nil {
		return nil, err
	}
	done := false
	for dec.PeekKind() != '}' {
		k, err := dec.ReadToken()
		if err != nil {
			return nil, err
		}
		key := k.String()
		v, err := dec.ReadValue()
		if err != nil {
			return nil, err
		}
		if err := enc.WriteToken(jsontext.String(key)); err != nil {
			return nil, err
		}
		if key == name {
			v, done = value, true
		}
		if err := enc.WriteValue(v); err != nil {
			return nil, err
		}
	}
	if !done {
		if err := enc.WriteToken(jsontext.String(name)); err != nil {
			return nil, err
		}
		if err := enc.WriteValue(value); err != nil {
			return nil, err
		}
	}
	if err := enc.WriteToken(jsontext.EndObject); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
