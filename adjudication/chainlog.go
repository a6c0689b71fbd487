package adjudication

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"verdict/campaign"
	"verdict/internal/fsutil"
	"verdict/verr"
)

// chainLog is the one hash-chained, append-only line log under Journal and
// DecisionLog: a file held under its exclusive lock, one compact JSON
// object per line, each line naming its number (seq, from 0) and the
// lowercase hex SHA-256 of the line before it (prev, "" for the header),
// so an edited, removed or reordered line breaks the chain. A line counts
// as written when it was written and fsync'd. What a line holds beyond
// seq, prev and time is its owner's: the owner decodes, checks and applies
// each line.
type chainLog struct {
	path string
	rule string // the rule every refusal names
	what string // "journal" or "decision log", for messages
	f    *lockedFile
	// lines is the number of verified lines (the seq of the next line);
	// last is the SHA-256 of the last one.
	lines int
	last  string
	// size is the byte length of the verified lines.
	size int64
	// recovered is the number of torn bytes cut off at open.
	recovered int64
	// broken is the write error that left the file in an unknown state.
	broken error
}

// openChainLog takes the exclusive, non-blocking lock on path (another
// writer gives ReasonJournalLocked), opens or creates the file for
// appending and reads it whole (a regular file under the journal cap).
func openChainLog(path, rule, what string) (*chainLog, []byte, error) {
	f, err := openLocked(path)
	if errors.Is(err, fsutil.ErrLocked) {
		return nil, nil, &verr.Error{Reason: ReasonJournalLocked, File: path, Rule: rule, Detail: "another writer holds this " + what, Err: err}
	}
	if err != nil {
		return nil, nil, err
	}
	data, err := readLog(path)
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return &chainLog{path: path, rule: rule, what: what, f: f}, data, nil
}

// maxLogLine is the longest line (bytes, newline included) a journal or
// decision log may hold: an entry with a note of MaxNote scalar values,
// each escaped to six bytes, is under 16 KiB, so a longer line is not
// one verdict wrote.
const maxLogLine = 1 << 20

// readLog reads the journal or decision log at path whole (a regular
// file under the journal cap), line by line: a file whose first line
// cannot be a log header (looksLikeHeader) is refused with
// ReasonNotAJournal after its first bytes, and a line longer than
// maxLogLine (a torn last line included) with ReasonJournalCorrupt as
// soon as it passes that length, so a large file named by mistake (or put
// in a ratings directory to slow a status poll) is never read whole.
func readLog(path string) ([]byte, error) {
	f, err := campaign.OpenRegular(path, campaign.FileJournal)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var data []byte
	if fi, err := f.Stat(); err == nil {
		data = make([]byte, 0, min(fi.Size(), campaign.FileJournal.MaxSize())+1)
	}
	br := bufio.NewReaderSize(io.LimitReader(f, campaign.FileJournal.MaxSize()+1), 64<<10)
	line, lineLen := 1, 0
	for {
		chunk, err := br.ReadSlice('\n')
		if len(data) == 0 && len(chunk) > 0 {
			first, _, _ := bytes.Cut(chunk[:min(len(chunk), len(logHeaderStart))], []byte{'\n'})
			if !looksLikeHeader(first) {
				return nil, notALog(path)
			}
		}
		if lineLen += len(chunk); lineLen > maxLogLine {
			return nil, verr.Newf(ReasonJournalCorrupt, path, fmt.Sprintf("/%d", line-1), ruleJournal, "line %d is longer than %d bytes: not a line verdict writes", line, maxLogLine)
		}
		data = append(data, chunk...)
		if int64(len(data)) > campaign.FileJournal.MaxSize() {
			return nil, &verr.Error{Reason: campaign.ReasonFileTooLarge, File: path, Rule: campaign.RuleFileKinds,
				Detail: fmt.Sprintf("more than %d bytes; a %s may hold at most that", campaign.FileJournal.MaxSize(), campaign.FileJournal)}
		}
		switch {
		case err == nil:
			line, lineLen = line+1, 0
		case errors.Is(err, io.EOF):
			return data, nil
		case !errors.Is(err, bufio.ErrBufferFull):
			return nil, err
		}
	}
}

// notALog is the ReasonNotAJournal refusal of the file name.
func notALog(name string) error {
	return verr.Newf(ReasonNotAJournal, name, "/0", ruleJournal, "the file is not a verdict journal or decision log (line 1 does not start with %s); it is left untouched", logHeaderStart)
}

// corrupt is a ReasonJournalCorrupt refusal of line (from 1).
func (c *chainLog) corrupt(line int, format string, a ...any) error {
	return verr.Newf(ReasonJournalCorrupt, c.path, fmt.Sprintf("/%d", line-1), c.rule, "line %d: %s", line, fmt.Sprintf(format, a...))
}

// checkLink checks the chain members of line (from 1) as it is replayed:
// seq is line−1, prev the SHA-256 of the line before, time RFC 3339.
func (c *chainLog) checkLink(line, seq int, prev, t string) error {
	if seq != line-1 {
		return c.corrupt(line, "seq %d, want %d", seq, line-1)
	}
	if prev != c.last {
		return c.corrupt(line, "hash chain broken: prev %q, want %q", prev, c.last)
	}
	if _, err := time.Parse(time.RFC3339Nano, t); err != nil {
		return c.corrupt(line, "time %q is not RFC 3339", t)
	}
	return nil
}

// chainHash is the prev member of the line after raw.
func chainHash(raw []byte) string {
	sum := sha256.Sum256(raw)
	return hex.EncodeToString(sum[:])
}

// advance links raw (a verified or written line) into the chain.
func (c *chainLog) advance(raw []byte) {
	c.last = chainHash(raw)
	c.lines++
}

// replay verifies data (the file as read) line by line: accept decodes,
// checks (checkLink and the owner's rules) and applies one line, and must
// change nothing when it refuses. A last line missing only its newline is
// kept, a torn last line is cut off and counted in recovered, any other
// damage refuses (replayLines).
func (c *chainLog) replay(data []byte, accept func(line int, raw []byte) error) error {
	var f *os.File
	if c.f != nil {
		f = c.f.File
	}
	size, torn, err := replayLines(f, c.path, data, func(line int, raw []byte) error {
		if err := accept(line, raw); err != nil {
			return err
		}
		c.advance(raw)
		return nil
	})
	if err != nil {
		return err
	}
	c.size, c.recovered = size, torn
	return nil
}

// usable refuses with ReasonJournalClosed when the log is closed or a
// failed write left it in an unknown state.
func (c *chainLog) usable() error {
	if c.f == nil || c.broken != nil {
		return &verr.Error{Reason: ReasonJournalClosed, File: c.path, Rule: c.rule, Detail: c.what + " is closed or failed; reopen it", Err: c.broken}
	}
	return nil
}

// appendLines appends raws (compact JSON, each chained to the one before
// it) as consecutive lines with a single write and a single fsync, then
// links them into the chain. On a failed write it cuts the file back to
// its last verified size, so none of them is kept; if that fails, or the
// fsync fails, the log refuses further appends (usable). A line is saved
// exactly when appendLines returns nil.
func (c *chainLog) appendLines(raws ...[]byte) error {
	var buf bytes.Buffer
	for _, raw := range raws {
		buf.Write(raw)
		buf.WriteByte('\n')
	}
	if _, err := c.f.Write(buf.Bytes()); err != nil {
		if terr := c.f.Truncate(c.size); terr != nil {
			c.broken = err
		}
		return err
	}
	if err := c.f.Sync(); err != nil {
		c.broken = err
		return err
	}
	c.size += int64(buf.Len())
	for _, raw := range raws {
		c.advance(raw)
	}
	return nil
}

// begin writes a new log's header line with write, then makes the
// file's directory entry durable too: a log that could vanish in a crash
// is refused, not used. On failure it closes the log.
func (c *chainLog) begin(write func() error) error {
	err := write()
	if err == nil {
		err = fsutil.SyncDir(filepath.Dir(c.path))
	}
	if err != nil {
		c.close()
	}
	return err
}

// close releases the lock and closes the file; safe to call twice.
func (c *chainLog) close() error {
	if c.f == nil {
		return nil
	}
	err := c.f.Close()
	c.f = nil
	return err
}

// ReasonNotAJournal: the file named as a journal or decision log is not
// one (its first line is not a header verdict writes). It is refused and
// left untouched; only a verdict log's torn last line is ever cut off.
const ReasonNotAJournal verr.Reason = "not-a-journal"

// logHeaderStart is how the header line of every journal and decision log
// starts (Entry and DecisionEntry marshal seq, prev and time first).
const logHeaderStart = `{"seq":0,"prev":"","time":"`

// looksLikeHeader reports whether line 1 of a log (possibly torn) can be a
// header verdict wrote: it starts with logHeaderStart, or is a prefix of
// it (a write torn that early).
func looksLikeHeader(line []byte) bool {
	if len(line) < len(logHeaderStart) {
		return len(line) > 0 && bytes.HasPrefix([]byte(logHeaderStart), line)
	}
	return bytes.HasPrefix(line, []byte(logHeaderStart))
}

// replayLines replays the hash-chained lines of a journal or decision log:
// data is the whole file as read, f the same file opened for appending
// (name is its path), or nil for a read-only replay (ReadJournal), which
// neither appends a newline nor cuts a torn line: the torn line is only
// left out.
// accept decodes, verifies and applies one line (numbered from 1, raw
// without its newline); it must change nothing when it returns an error.
//
// Every newline-terminated line must be accepted; the first refusal is
// returned. A last line without its newline is
//   - kept when it is complete JSON that accept takes (an editor that
//     saved the file without a final newline, or a write cut exactly
//     before its newline): the newline is appended and fsynced;
//   - refused with accept's error when it is complete JSON that accept
//     refuses: a write cut short is never complete JSON, so this is
//     damage, not a tear, and the file is left unchanged;
//   - otherwise a torn write (a crash before Append or Record returned):
//     it is cut off, the cut fsynced, and its length returned as torn.
//
// A file whose first line is not a log header (looksLikeHeader) is
// refused with ReasonNotAJournal before anything is written or cut: a
// user's file named by mistake is never truncated.
//
// size is the byte length of the kept lines after any repair.
func replayLines(f *os.File, name string, data []byte, accept func(line int, raw []byte) error) (size, torn int64, err error) {
	if first, _, _ := bytes.Cut(data, []byte{'\n'}); len(data) > 0 && !looksLikeHeader(first) {
		return 0, 0, notALog(name)
	}
	line := 0
	for len(data) > 0 {
		line++
		nl := bytes.IndexByte(data, '\n')
		if nl >= 0 {
			if err := accept(line, data[:nl]); err != nil {
				return size, 0, err
			}
			size += int64(nl + 1)
			data = data[nl+1:]
			continue
		}
		if json.Valid(data) {
			if err := accept(line, data); err != nil {
				return size, 0, err
			}
			if f == nil {
				return size + int64(len(data)), 0, nil
			}
			if _, err := f.Write([]byte{'\n'}); err != nil {
				return size, 0, err
			}
			if err := f.Sync(); err != nil {
				return size, 0, err
			}
			return size + int64(len(data)) + 1, 0, nil
		}
		if f == nil {
			return size, int64(len(data)), nil
		}
		if err := f.Truncate(size); err != nil {
			return size, 0, err
		}
		if err := f.Sync(); err != nil {
			return size, 0, err
		}
		return size, int64(len(data)), nil
	}
	return size, 0, nil
}
