package adjudication_test

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"verdict/adjudication"
	"verdict/verr"
)

// decisionSheets returns two frozen sheets of the synthetic test campaign
// that disagree, and their disagreements.
func decisionSheets(t *testing.T) ([2]adjudication.FrozenSheet, []adjudication.Disagreement) {
	t.Helper()
	dir := t.TempDir()
	res := testBundles(t)
	_, a := sheetFile(t, dir, res, 0, "ann", "rater-ann", false)
	_, b := sheetFile(t, dir, res, 1, "bob", "rater-bob", true)
	ds, err := adjudication.Disagreements(a.Sheet, b.Sheet)
	if err != nil {
		t.Fatal(err)
	}
	if len(ds) < 2 {
		t.Fatalf("the test needs at least two disagreements, got %d", len(ds))
	}
	return [2]adjudication.FrozenSheet{a, b}, ds
}

// otherValue returns an allowed value of d's kind that neither rating chose.
func otherValue(d adjudication.Disagreement) string {
	for _, v := range adjudication.AllowedValues(d.Field.Kind) {
		if v != d.Values[0] && v != d.Values[1] {
			return v
		}
	}
	return ""
}

func TestDecisionLogResumeSupersedeLock(t *testing.T) {
	fs, ds := decisionSheets(t)
	path := filepath.Join(t.TempDir(), "adjudication.decisions.jsonl")
	l, err := adjudication.OpenDecisions(path, fs[1], fs[0], adjudication.WithDecisionClock(fixedClock()))
	if err != nil {
		t.Fatal(err)
	}
	if got := l.Disputes(); len(got) != len(ds) || got[0].Field != ds[0].Field {
		t.Fatalf("disputes %v, want %v", got, ds)
	}
	// A second writer is refused while the first holds the lock.
	if _, err := adjudication.OpenDecisions(path, fs[0], fs[1]); !errors.Is(err, adjudication.ReasonJournalLocked) {
		t.Fatalf("second writer: %v", err)
	}
	first := adjudication.Choice{Field: ds[0].Field, Final: ds[0].Values[0]}
	if err := l.Record(first); err != nil {
		t.Fatal(err)
	}
	// Supersede with the other rating's value; the first entry stays.
	first.Final = ds[0].Values[1]
	if err := l.Record(first); err != nil {
		t.Fatal(err)
	}
	// Refusals change nothing.
	var ce *verr.Error
	if err := l.Record(adjudication.Choice{Field: adjudication.Field{Item: ds[0].Field.Item, Kind: adjudication.KindCompleteness, Target: "nope"}, Final: "x"}); !errors.As(err, &ce) || ce.Reason != adjudication.ReasonNotDisputed {
		t.Fatalf("undisputed field: %v", err)
	}
	if v := otherValue(ds[1]); v != "" {
		if err := l.Record(adjudication.Choice{Field: ds[1].Field, Final: v}); !errors.Is(err, adjudication.ReasonNoteRequired) {
			t.Fatalf("other value without note: %v", err)
		}
	}
	if n := len(l.Entries()); n != 3 {
		t.Fatalf("%d entries, want header + 2", n)
	}
	mustClose(t, l)
	if err := l.Record(first); !errors.Is(err, adjudication.ReasonJournalClosed) {
		t.Fatalf("record after close: %v", err)
	}

	l2, err := adjudication.OpenDecisions(path, fs[0], fs[1])
	if err != nil {
		t.Fatal(err)
	}
	defer mustClose(t, l2)
	cs := l2.Choices()
	if len(cs) != 1 || !reflect.DeepEqual(cs[0], first) {
		t.Fatalf("resumed choices %v, want [%v]", cs, first)
	}
	// Decide the rest, then build the adjudication from the log.
	for _, d := range ds[1:] {
		if err := l2.Record(adjudication.Choice{Field: d.Field, Final: d.Values[0], Note: "kept the first rating"}); err != nil {
			t.Fatal(err)
		}
	}
	k := key(t, "adjudicator-cho")
	adj, err := adjudication.NewAdjudication(fs[0], fs[1], l2.Choices(), "cho", adjudication.RoleAdjudicator, k.PublicKey(), t0)
	if err != nil {
		t.Fatal(err)
	}
	if len(adj.Resolutions) != len(ds) || adj.Resolutions[0].Final != ds[0].Values[1] {
		t.Fatalf("adjudication %+v", adj.Resolutions)
	}
}

func TestDecisionLogOtherSheetsAndCorruption(t *testing.T) {
	fs, ds := decisionSheets(t)
	path := filepath.Join(t.TempDir(), "d.jsonl")
	l, err := adjudication.OpenDecisions(path, fs[0], fs[1])
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range ds[:2] {
		if err := l.Record(adjudication.Choice{Field: d.Field, Final: d.Values[1]}); err != nil {
			t.Fatal(err)
		}
	}
	mustClose(t, l)
	// Another pair of sheets (here: a sheet paired with itself) is refused.
	if _, err := adjudication.OpenDecisions(path, fs[0], fs[0]); !errors.Is(err, adjudication.ReasonSheetMismatch) {
		t.Fatalf("other sheets: %v", err)
	}
	data, _ := os.ReadFile(path)
	lines := strings.SplitAfter(string(data), "\n") // header, d1, d2, ""
	edited := lines[0] + strings.Replace(lines[1], `"final":"`, `"final":"x`, 1) + lines[2]
	os.WriteFile(path, []byte(edited), 0o600)
	if _, err := adjudication.OpenDecisions(path, fs[0], fs[1]); !errors.Is(err, adjudication.ReasonJournalCorrupt) {
		t.Fatalf("edited entry: %v", err)
	}
	if after, _ := os.ReadFile(path); string(after) != edited {
		t.Fatal("a corrupt decision log was changed")
	}
	os.WriteFile(path, []byte(lines[0]+lines[2]), 0o600)
	if _, err := adjudication.OpenDecisions(path, fs[0], fs[1]); !errors.Is(err, adjudication.ReasonJournalCorrupt) {
		t.Fatalf("removed entry: %v", err)
	}
	// A torn final line is cut off; earlier decisions stay.
	os.WriteFile(path, []byte(lines[0]+lines[1]+lines[2][:len(lines[2])/2]), 0o600)
	l2, err := adjudication.OpenDecisions(path, fs[0], fs[1])
	if err != nil {
		t.Fatal(err)
	}
	if l2.Recovered() == 0 || len(l2.Choices()) != 1 {
		t.Fatalf("torn: recovered %d, choices %v", l2.Recovered(), l2.Choices())
	}
	if err := l2.Record(adjudication.Choice{Field: ds[1].Field, Final: ds[1].Values[0]}); err != nil {
		t.Fatal(err)
	}
	mustClose(t, l2)
	l3, err := adjudication.OpenDecisions(path, fs[0], fs[1])
	if err != nil {
		t.Fatal(err)
	}
	defer mustClose(t, l3)
	if cs := l3.Choices(); len(cs) != 2 || cs[1].Final != ds[1].Values[0] {
		t.Fatalf("after recovery: %v", cs)
	}
	// A torn header starts the log afresh.
	mustClose(t, l3)
	os.WriteFile(path, []byte(lines[0][:10]), 0o600)
	l4, err := adjudication.OpenDecisions(path, fs[0], fs[1])
	if err != nil {
		t.Fatal(err)
	}
	defer mustClose(t, l4)
	if len(l4.Entries()) != 1 || len(l4.Choices()) != 0 {
		t.Fatalf("torn header: %d entries", len(l4.Entries()))
	}
}

// TestDecisionLogFinalLineWithoutNewline: a last decision complete but for
// its newline is kept (the newline is added on open); a truly torn one is
// cut off.
func TestDecisionLogFinalLineWithoutNewline(t *testing.T) {
	fs, ds := decisionSheets(t)
	path := filepath.Join(t.TempDir(), "d.jsonl")
	l, err := adjudication.OpenDecisions(path, fs[0], fs[1])
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range ds[:2] {
		if err := l.Record(adjudication.Choice{Field: d.Field, Final: d.Values[1]}); err != nil {
			t.Fatal(err)
		}
	}
	mustClose(t, l)
	data, _ := os.ReadFile(path)
	noNL := strings.TrimSuffix(string(data), "\n")
	os.WriteFile(path, []byte(noNL), 0o600)
	l2, err := adjudication.OpenDecisions(path, fs[0], fs[1])
	if err != nil {
		t.Fatal(err)
	}
	if l2.Recovered() != 0 || len(l2.Choices()) != 2 {
		t.Fatalf("no final newline: recovered %d, choices %d, want 0 and 2", l2.Recovered(), len(l2.Choices()))
	}
	if after, _ := os.ReadFile(path); string(after) != string(data) {
		t.Fatal("the newline was not restored")
	}
	mustClose(t, l2)
	os.WriteFile(path, []byte(noNL[:len(noNL)-1]), 0o600)
	l3, err := adjudication.OpenDecisions(path, fs[0], fs[1])
	if err != nil {
		t.Fatal(err)
	}
	defer mustClose(t, l3)
	if l3.Recovered() == 0 || len(l3.Choices()) != 1 {
		t.Fatalf("torn: recovered %d, choices %d, want >0 and 1", l3.Recovered(), len(l3.Choices()))
	}
}
