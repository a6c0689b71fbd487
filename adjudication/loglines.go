package adjudication

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"

	"verdict/campaign"
)

// ReasonNotAJournal: the file named as a journal or decision log is not
// one (its first line is not a header verdict writes). It is refused and
// left untouched; only a verdict log's torn last line is ever cut off.
const ReasonNotAJournal campaign.Reason = "not-a-journal"

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
// data is the whole file as read, f the same file opened for appending.
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
func replayLines(f *os.File, data []byte, accept func(line int, raw []byte) error) (size, torn int64, err error) {
	if first, _, _ := bytes.Cut(data, []byte{'\n'}); len(data) > 0 && !looksLikeHeader(first) {
		return 0, 0, &campaign.Error{Reason: ReasonNotAJournal, File: f.Name(), Pointer: "/0", Rule: ruleJournal,
			Detail: fmt.Sprintf("the file is not a verdict journal or decision log (line 1 does not start with %s); it is left untouched", logHeaderStart)}
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
			if _, err := f.Write([]byte{'\n'}); err != nil {
				return size, 0, err
			}
			if err := f.Sync(); err != nil {
				return size, 0, err
			}
			return size + int64(len(data)) + 1, 0, nil
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
