package assemble

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	jsonv2 "github.com/go-json-experiment/json"

	"verdict/blinding"
	"verdict/campaign"
	"verdict/internal/fsutil"
	"verdict/verr"
)

// ImportJournalFile is the journal of a batch import being written, at the
// campaign's root (outside the bound directories, so never a campaign
// file): the campaign-relative path and SHA-256 of every response and
// receipt the batch creates, written before the first of them. It exists
// only while CommitImports writes, or after a writer was killed while it
// did; then the next writer of the campaign (LockCampaign) removes what
// the batch left before it does anything else (see CommitImports).
const ImportJournalFile = ".verdict-import-journal.json"

// Refusals of writing a batch import.
const (
	// ReasonWriteFailed: a response or receipt of a batch import could not
	// be written (the file system's error: no space, a file size limit, no
	// permission); every file of the batch written before it was removed
	// and the manifest was not bound.
	ReasonWriteFailed verr.Reason = "write-failed"
	// ReasonImportJournal: the journal a killed batch import left
	// (ImportJournalFile) cannot be read or undone; the campaign is left as
	// it is for a person to inspect.
	ReasonImportJournal verr.Reason = "import-journal"
)

const ruleBatch = "DESIGN Chain of custody: a reader sees all of an output set or none of it (a batch import writes every file and binds them, or leaves none)"

// importJournal is ImportJournalFile's content.
type importJournal struct {
	Files []campaign.FileDigest `json:"files"`
}

// CommitImports writes the responses and receipts of every session of ims
// (a batch, in dispatch order) into the campaign dir and binds the
// manifest (Bind), all or nothing; the caller holds the campaign's write
// lock (lock, from LockCampaign) from before the batch read the campaign
// until CommitImports returns, so no other writer comes between the files
// and their binding. What a killed write left beside a destination is
// removed only when that lock was held by a verdict writer before
// (fsutil.Output.RemoveStale). Each im's Files says what was written.
//
// Every file is compared first: one already there with other bytes is
// refused (ReasonFileDiffers) before anything is written. Then the journal
// (ImportJournalFile) names every file the batch creates, the files are
// written (each staged beside its destination and renamed into place) and
// the manifest is bound: its rename is the commit. A file that cannot be
// written (ReasonWriteFailed, naming it and the file system's error) or a
// binding Bind refuses (its own reason) removes every file the batch
// created, and the error is returned with its own reason. A writer killed
// before the manifest's rename leaves files the manifest does not bind
// (every reader refuses them, file-unlisted) and the journal; the next
// LockCampaign removes them (recoverImport). Killed after it, every file
// is bound and only the journal is left, which the next LockCampaign
// removes.
func CommitImports(lock *fsutil.Output, dir string, ims []*Imported) (*BindResult, error) {
	var files []fileBytes
	counts := make([]int, len(ims))
	for i, im := range ims {
		f, err := importFiles(dir, im)
		if err != nil {
			return nil, err
		}
		counts[i] = len(f)
		files = append(files, f...)
	}
	w, err := compareExisting(dir, files, ruleResults)
	if err != nil {
		return nil, err
	}
	var bound *BindResult
	if err := writeJournaled(lock, dir, files, w, func() (err error) {
		bound, err = bindHeld(dir, BindOptions{})
		return err
	}); err != nil {
		return nil, err
	}
	for i, im := range ims {
		im.Files, w = w[:counts[i]], w[counts[i]:]
	}
	return bound, nil
}

// writeJournaled writes files (w is compareExisting's answer for them)
// into dir under the import journal (ImportJournalFile): the journal names
// every file created, then each is written (staged beside its destination
// and renamed into place), then commit runs (nil: none), then the journal
// is removed. A file that cannot be written (ReasonWriteFailed) or a
// commit that fails removes every file created and returns the error; a
// writer killed before the journal is removed leaves it for the next
// LockCampaign, which removes what the manifest does not bind
// (recoverImport).
func writeJournaled(lock *fsutil.Output, dir string, files []fileBytes, w []Written, commit func() error) error {
	var created []campaign.FileDigest
	for i, f := range files {
		if !w[i].Unchanged {
			created = append(created, campaign.FileDigest{Path: f.path, SHA256: w[i].SHA256})
		}
	}
	journal := filepath.Join(dir, ImportJournalFile)
	b, err := jsonv2.Marshal(importJournal{Files: created})
	if err != nil {
		return err
	}
	if err := fsutil.WriteFile(journal, b, 0o644); err != nil {
		return &verr.Error{Reason: ReasonWriteFailed, File: ImportJournalFile, Rule: ruleBatch, Detail: "the import's journal cannot be written, so nothing was: " + err.Error(), Err: err}
	}
	undo := func(err error) error {
		if uerr := undoImport(lock, dir, created); uerr != nil {
			return errors.Join(err, uerr)
		}
		return err
	}
	for i, f := range files {
		if w[i].Unchanged {
			continue
		}
		p := filepath.Join(dir, filepath.FromSlash(f.path))
		err := mkdirBeneath(dir, path.Dir(f.path))
		if err == nil {
			err = lock.RemoveStale(p)
		}
		if err == nil {
			err = fsutil.WriteFile(p, f.data, 0o644)
		}
		if err != nil {
			return undo(&verr.Error{Reason: ReasonWriteFailed, File: f.path, Rule: ruleBatch,
				Detail: fmt.Sprintf("%v; every file of the import written before it was removed and the manifest was not bound: nothing of the import is left", unwrapPath(err)), Err: err})
		}
	}
	if commit != nil {
		if err := commit(); err != nil {
			return undo(err)
		}
	}
	if err := os.Remove(journal); err != nil {
		return &verr.Error{Reason: ReasonImportJournal, File: ImportJournalFile, Rule: ruleBatch, Detail: "the import is written (and bound, for a batch), but its journal cannot be removed: " + err.Error(), Err: err}
	}
	return fsutil.SyncDir(dir)
}

// unwrapPath is err's cause without the path an *fs.PathError repeats
// (the refusal names the campaign-relative file).
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s: %w", pe.Op, pe.Err)
	}
	return err
}

// undoImport removes every file of created (a batch import's journal)
// that is in dir with the journal's digest and that the manifest on disk
// does not bind (a bound file is the campaign's record and is never
// removed), with the temporary files a killed write left beside each, and
// then the journal itself. A created file is a name directly in one of
// the result directories (recoverImport checks that); each directory is
// opened once as an os.Root and used only when it is the real directory
// of that name (not a symbolic link, not swapped for one before it was
// opened), and every look-up and removal of its files goes through that
// root with a single name, so nothing outside it, the manifest or
// another directory's files included, can be reached by a link or a
// swap while the undo runs. A manifest that cannot be read or decoded
// refuses the undo (ReasonImportJournal) before anything is removed:
// without it no file can be known to be unbound.
func undoImport(lock *fsutil.Output, dir string, created []campaign.FileDigest) error {
	refuse := func(file string, err error) error {
		return &verr.Error{Reason: ReasonImportJournal, File: file, Rule: ruleBatch, Detail: "undoing the batch: " + unwrapPath(err).Error(), Err: err}
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return refuse(ImportJournalFile, err)
	}
	defer root.Close()
	raw, err := campaign.ReadRegularFS(campaign.RootFS(root), campaign.ManifestFile, campaign.FileManifest)
	if err != nil {
		return &verr.Error{Reason: ReasonImportJournal, File: campaign.ManifestFile, Rule: ruleBatch,
			Detail: "an interrupted import's journal is here, but the manifest cannot be read, so which of its files are bound is unknown; nothing was changed: correct the manifest and run again (" + unwrapPath(err).Error() + ")", Err: err}
	}
	list, err := boundFiles(raw)
	if err != nil {
		return &verr.Error{Reason: ReasonImportJournal, File: campaign.ManifestFile, Rule: ruleBatch,
			Detail: "an interrupted import's journal is here, but the manifest does not decode, so which of its files are bound is unknown; nothing was changed: correct the manifest and run again (" + err.Error() + ")", Err: err}
	}
	bound := map[string]string{}
	for _, f := range list {
		bound[f.Path] = f.SHA256
	}
	// The result directories, each opened once (nil: it does not exist).
	subs := map[string]*os.Root{}
	defer func() {
		for _, r := range subs {
			if r != nil {
				r.Close()
			}
		}
	}()
	open := func(d string) (*os.Root, error) {
		if r, ok := subs[d]; ok {
			return r, nil
		}
		fi, err := root.Lstat(d)
		if errors.Is(err, fs.ErrNotExist) {
			subs[d] = nil
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
		if !fi.IsDir() {
			return nil, fmt.Errorf("%s is not a directory (a symbolic link?)", d)
		}
		r, err := root.OpenRoot(d)
		if err != nil {
			return nil, err
		}
		if st, err := r.Stat("."); err != nil || !os.SameFile(fi, st) {
			r.Close()
			return nil, fmt.Errorf("%s changed while the undo ran (a directory swapped for a link?)", d)
		}
		subs[d] = r
		return r, nil
	}
	// Every directory is opened, and a link refused, before anything is
	// removed.
	for _, f := range created {
		if _, err := open(path.Dir(f.Path)); err != nil {
			return refuse(f.Path, err)
		}
	}
	dirs := map[string]bool{}
	for _, f := range created {
		d, name := path.Split(f.Path)
		d = path.Clean(d)
		sub, err := open(d)
		if err != nil {
			return refuse(f.Path, err)
		}
		if sub == nil {
			continue
		}
		if err := lock.RemoveStaleIn(sub, name); err != nil {
			return refuse(f.Path, err)
		}
		if bound[f.Path] == f.SHA256 {
			continue
		}
		fi, err := sub.Lstat(name)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return refuse(f.Path, err)
		}
		if !fi.Mode().IsRegular() {
			continue // not the batch's file: never removed
		}
		b, err := campaign.ReadRegularFS(campaign.RootFS(sub), name, campaign.FileKindOf(f.Path))
		if err != nil || blinding.Digest(b) != f.SHA256 {
			continue // not the batch's file: never removed
		}
		if err := sub.Remove(name); err != nil {
			return refuse(f.Path, err)
		}
		dirs[d] = true
	}
	for d := range dirs {
		if err := fsutil.SyncDir(filepath.Join(dir, filepath.FromSlash(d))); err != nil {
			return err
		}
	}
	if err := root.Remove(ImportJournalFile); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return refuse(ImportJournalFile, err)
	}
	return fsutil.SyncDir(dir)
}

// recoverImport finishes what a batch import killed while it wrote left
// in dir (ImportJournalFile): it removes the batch's files the manifest
// does not bind (none when the manifest was bound before the kill) and
// the journal. The caller holds the campaign's write lock. No journal:
// nothing to do. It changes nothing and refuses (ReasonImportJournal) a
// journal that cannot be read, one in a campaign whose write lock no
// verdict writer held before (lock not Prior: the killed import would
// have left it, so this journal is not a verdict import's), and one that
// names a file outside responses/ and receipts/; undoImport refuses a
// directory that is a symbolic link before it removes anything.
func recoverImport(lock *fsutil.Output, dir string) error {
	journal := filepath.Join(dir, ImportJournalFile)
	if err := lock.RemoveStale(journal); err != nil {
		return err
	}
	fi, err := os.Lstat(journal)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	bad := func(format string, a ...any) error {
		return verr.Newf(ReasonImportJournal, ImportJournalFile, "", ruleBatch, "a batch import was interrupted and its journal "+format+"; nothing was changed: inspect the campaign and remove the journal", a...)
	}
	if err != nil {
		return bad("cannot be read: %v", err)
	}
	if !lock.Prior() {
		return bad("is here, but no verdict writer held the campaign's write lock (%s) before, so no verdict import left it", WriteLockFile)
	}
	if !fi.Mode().IsRegular() {
		return bad("is not a regular file")
	}
	raw, err := campaign.ReadRegular(journal, campaign.FileManifest)
	if err != nil {
		return bad("cannot be read: %v", err)
	}
	var j importJournal
	if err := jsonv2.Unmarshal(raw, &j, jsonv2.RejectUnknownMembers(true)); err != nil {
		return bad("is malformed: %v", err)
	}
	for _, f := range j.Files {
		if d := path.Dir(f.Path); campaign.CheckFilePath(f.Path) != "" || !slices.Contains(resultDirs, d) {
			return bad("names %q, not a response or receipt (a file directly in %s)", f.Path, strings.Join(resultDirs, " or "))
		}
	}
	return undoImport(lock, dir, j.Files)
}
