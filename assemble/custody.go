package assemble

import (
	"os"
	"path/filepath"

	"verdict/internal/fsutil"
)

// WriteLockFile is the lock file, at the campaign's root, that every
// verdict command writing into the campaign holds while it compares and
// writes its files (packet, receipt import, blind's blinding record,
// manifest): a second writer is refused (fsutil.ReasonOutputLocked)
// instead of mixing its files with the first one's. It lies outside the
// bound directories, so it is never a campaign file.
const WriteLockFile = ".verdict-write" + fsutil.LockSuffix

// LockCampaign takes the campaign dir's write lock (WriteLockFile), or
// refuses with fsutil.ReasonOutputLocked while another verdict process
// holds it. A writer that reads the campaign to decide what it writes
// (receipt import) takes it before that read, so that it never reads
// another writer's half-written files. For a dir that does not exist it
// returns a nil *fsutil.Output (whose Unlock does nothing), and the
// caller's own refusal of the missing campaign follows. Holding the lock,
// it first removes what a batch import killed while it wrote left
// (ImportJournalFile, recoverImport), or refuses with ReasonImportJournal.
func LockCampaign(dir string) (*fsutil.Output, error) {
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return nil, nil
	}
	o, err := fsutil.LockOutput(filepath.Join(dir, ".verdict-write"))
	if err != nil {
		return nil, err
	}
	// A batch import killed while it wrote is undone before anything
	// else reads or writes the campaign (recoverImport).
	if err := recoverImport(o, dir); err != nil {
		o.Unlock()
		return nil, err
	}
	return o, nil
}
