package adjudication

import (
	"bytes"
	"encoding/json"
	"os"
)

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
// size is the byte length of the kept lines after any repair.
func replayLines(f *os.File, data []byte, accept func(line int, raw []byte) error) (size, torn int64, err error) {
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
