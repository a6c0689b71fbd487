package adjudication

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"verdict/campaign"
	"verdict/verr"
)

// ReasonJournalMismatch: a journal of the sheet's bundle lies beside the
// sheet and none of them has the SHA-256 the sheet's journal_digest
// names: the journal changed after the freeze (a grade appended, a line
// edited or cut), or the sheet names a journal that is not there.
const ReasonJournalMismatch verr.Reason = "journal-mismatch"

// ruleJournalDigest is the rule CheckJournalBeside applies.
const ruleJournalDigest = "DESIGN Signed records: a sheet's journal_digest is the SHA-256 of the journal it froze"

// maxJournalHeader bounds how much of a .jsonl file is read to tell
// whether it is a journal and of which bundle (a header line is a few
// hundred bytes).
const maxJournalHeader = 4096

// journalsBeside returns the journals of the bundle with digest
// bundleDigest in dir, sorted: every regular file named *.jsonl whose first
// line is a journal header (JournalFormat, seq 0) naming that bundle.
// Other .jsonl files (another bundle's journal, a decision log) are not
// the sheet's journal and are left out; so is anything that is not a
// regular file.
func journalsBeside(dir, bundleDigest string) ([]string, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if err != nil {
		return nil, err
	}
	sort.Strings(paths)
	var out []string
	for _, p := range paths {
		if fi, err := os.Lstat(p); err != nil || !fi.Mode().IsRegular() {
			continue
		}
		f, err := campaign.OpenRegular(p, campaign.FileJournal)
		if err != nil {
			return nil, err
		}
		line, err := bufio.NewReaderSize(io.LimitReader(f, maxJournalHeader), maxJournalHeader).ReadSlice('\n')
		f.Close()
		if err != nil && !errors.Is(err, io.EOF) {
			continue // no complete first line within the bound: not a journal header
		}
		var h struct {
			Seq          int    `json:"seq"`
			Format       string `json:"format"`
			BundleDigest string `json:"bundle_digest"`
		}
		if json.Unmarshal(bytes.TrimSpace(line), &h) != nil || h.Seq != 0 || h.Format != JournalFormat {
			continue
		}
		if h.BundleDigest == bundleDigest {
			out = append(out, p)
		}
	}
	return out, nil
}

// CheckJournalBeside checks sheet s, read from file, against the journal
// it froze when that journal lies beside it: when the sheet's directory
// holds journals of the sheet's bundle (journalsBeside; verdict rate
// writes bundle-NAME.journal.jsonl beside the bundle and the sheet), one
// of them must have the SHA-256 the sheet's journal_digest names, else
// ReasonJournalMismatch naming the first. The journals are hashed
// streamed, within the journal cap. With no journal of the bundle beside
// the sheet nothing is checked: a journal kept elsewhere (freeze
// --journal) is the rater's, and the sheet stands on its signature. A
// journal that cannot be read is refused with its reader's error.
func CheckJournalBeside(file string, s *Sheet) error {
	paths, err := journalsBeside(filepath.Dir(file), s.BundleDigest)
	if err != nil || len(paths) == 0 {
		return err
	}
	var first string
	for _, p := range paths {
		d, err := campaign.HashRegular(p, campaign.FileJournal)
		if errors.Is(err, fs.ErrNotExist) {
			continue // removed since it was listed
		}
		if err != nil {
			return err
		}
		if d == s.JournalDigest {
			return nil
		}
		if first == "" {
			first = p + " has SHA-256 " + d
		}
	}
	if first == "" {
		return nil
	}
	return verr.Newf(ReasonJournalMismatch, file, "/journal_digest", ruleJournalDigest,
		"the sheet names journal %s, but no journal of its bundle beside it has that digest (%s; %d journal(s) of the bundle found): the journal changed after the sheet was frozen, or is not the one frozen",
		s.JournalDigest, first, len(paths))
}
