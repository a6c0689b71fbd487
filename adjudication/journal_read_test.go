package adjudication_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"verdict/adjudication"
)

// TestReadJournalWhileLocked reads a journal another writer holds open:
// the snapshot has every saved grade, a torn last line is left out and
// never cut from the file, a missing journal reads as empty, and the
// snapshot takes no entries.
func TestReadJournalWhileLocked(t *testing.T) {
	b := testBundles(t).Bundles[0]
	path := filepath.Join(t.TempDir(), "j.jsonl")
	if j, err := adjudication.ReadJournal(path, b); err != nil || j.State().Entries != 0 {
		t.Fatalf("missing journal: %v", err)
	}
	j, err := adjudication.Open(path, b, adjudication.WithClock(fixedClock()))
	if err != nil {
		t.Fatal(err)
	}
	defer mustClose(t, j)
	fields := adjudication.BundleFields(b)
	for i, f := range fields[:3] {
		if err := j.Append(adjudication.Grade{Field: f, Value: valueFor(f, i)}); err != nil {
			t.Fatal(err)
		}
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(`{"seq":4,"prev":"ab`); err != nil {
		t.Fatal(err)
	}
	f.Close()
	before, _ := os.ReadFile(path)
	r, err := adjudication.ReadJournal(path, b)
	if err != nil {
		t.Fatal(err)
	}
	if st := r.State(); st.Entries != 3 || len(st.Ungraded) != len(fields)-3 {
		t.Fatalf("snapshot: %d entries, %d ungraded", st.Entries, len(st.Ungraded))
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
		t.Fatal("ReadJournal changed the file")
	}
	if err := r.Append(adjudication.Grade{Field: fields[4], Value: valueFor(fields[4], 0)}); !errors.Is(err, adjudication.ReasonJournalClosed) {
		t.Fatalf("append to a snapshot: %v", err)
	}
}
