package adjudication_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"verdict/adjudication"
)

// TestJournalFreezeRefusesWrites: once Freeze signed a sheet, the journal
// refuses every write (a grade, a note, a batch, an item flag) with
// journal-frozen and its bytes stay the bytes the sheet's journal_digest
// names; a write during the signing is refused too; a second freeze is
// refused; a failed signing reopens the journal for writes.
func TestJournalFreezeRefusesWrites(t *testing.T) {
	res := testBundles(t)
	b := res.Bundles[0]
	path := filepath.Join(t.TempDir(), "j.jsonl")
	j, err := adjudication.Open(path, b, adjudication.WithClock(fixedClock()))
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	fields := adjudication.BundleFields(b)
	for i, f := range fields {
		if err := j.Append(adjudication.Grade{Field: f, Value: valueFor(f, i)}); err != nil {
			t.Fatal(err)
		}
	}
	g0 := adjudication.Grade{Field: fields[0], Value: valueFor(fields[0], 0), Note: "a note after the freeze"}
	writes := map[string]func() error{
		"grade": func() error { return j.Append(adjudication.Grade{Field: fields[0], Value: valueFor(fields[0], 0)}) },
		"note":  func() error { return j.Append(g0) },
		"batch": func() error { _, err := j.AppendBatch([]adjudication.Grade{g0}); return err },
		"flag":  func() error { return j.SetFlag(b.Items[0].ID, true) },
	}

	// A failed signing: nothing is frozen, the journal takes entries again.
	failed := errors.New("signing failed")
	if err := j.Freeze(func(adjudication.State) error { return failed }); !errors.Is(err, failed) {
		t.Fatalf("failed signing: %v", err)
	}
	if j.Frozen() {
		t.Fatal("frozen after a failed signing")
	}
	if err := j.SetFlag(b.Items[0].ID, false); err != nil {
		t.Fatalf("write after a failed signing: %v", err)
	}

	var signed []byte
	err = j.Freeze(func(st adjudication.State) error {
		if !st.Complete() {
			t.Error("the state given to sign is not complete")
		}
		for name, w := range writes {
			if err := w(); !errors.Is(err, adjudication.ReasonJournalFrozen) {
				t.Errorf("%s while signing: %v, want journal-frozen", name, err)
			}
		}
		var err error
		signed, err = os.ReadFile(path)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if !j.Frozen() {
		t.Fatal("not frozen after signing")
	}
	for name, w := range writes {
		if err := w(); !errors.Is(err, adjudication.ReasonJournalFrozen) {
			t.Errorf("%s after the freeze: %v, want journal-frozen", name, err)
		}
	}
	if err := j.Freeze(func(adjudication.State) error { t.Error("signed twice"); return nil }); !errors.Is(err, adjudication.ReasonJournalFrozen) {
		t.Errorf("second freeze: %v, want journal-frozen", err)
	}
	now, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(now, signed) {
		t.Fatal("the journal changed after the freeze: the sheet's journal_digest is stale")
	}
}
