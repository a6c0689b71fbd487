package main

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"verdict/adjudication"
	"verdict/blinding"
)

// TestSheetItemTimes: freeze carries the rater's time per item from the
// journal into the sheet (item_times, milliseconds, sorted by item);
// agreement prints the same statistics with or without them (time is not
// a grade); an item the journal recorded no time on has its entry, 0 ms;
// and verify refuses a re-signed sheet whose item_times are negative,
// unsorted, about an ungraded item, or leave out an item (bad-item-times:
// every item of the bundle has its entry).
func TestSheetItemTimes(t *testing.T) {
	t.Parallel()
	p, keys := frozenPair(t, t.TempDir())
	b, _, err := blinding.LoadBundle(p("bundle-ann.json"))
	if err != nil {
		t.Fatal(err)
	}
	old, err := adjudication.Open(p("bundle-ann.journal.jsonl"), b)
	if err != nil {
		t.Fatal(err)
	}
	st := old.State()
	mustClose(t, old)
	j, err := adjudication.Open(p("journal-timed.jsonl"), b)
	if err != nil {
		t.Fatal(err)
	}
	// The first item's grades carry no time: the sheet still has its
	// entry, 0 ms (every item of the bundle has one).
	untimed := st.Grades[0].Item
	var wantTotal int64
	for i, g := range st.Grades {
		g.Spent = time.Duration(1000+i) * time.Millisecond
		if g.Item == untimed {
			g.Spent = 0
		}
		wantTotal += g.Spent.Milliseconds()
		if err := j.Append(g); err != nil {
			t.Fatal(err)
		}
	}
	mustClose(t, j)
	os.MkdirAll(p("timed"), 0o755)
	mustRun(t, 0, "freeze", "--journal", p("journal-timed.jsonl"), "--bundle", p("bundle-ann.json"), "--allowed-signers", keys+"allowed_signers", "--key", keys+"rater-ann", "--name", "ann",
		"--out", p("timed/sheet-ann.json"), "--time", "2026-03-04T05:06:07Z")
	data, err := os.ReadFile(p("timed/sheet-ann.json"))
	if err != nil {
		t.Fatal(err)
	}
	sh, err := adjudication.ParseSheet("timed", data)
	if err != nil {
		t.Fatal(err)
	}
	if len(sh.ItemTimes) != len(b.Items) {
		t.Fatalf("item_times %v, want one per item (%d)", sh.ItemTimes, len(b.Items))
	}
	var total int64
	for i, it := range sh.ItemTimes {
		if (it.SpentMS <= 0) != (it.Item == untimed) || i > 0 && sh.ItemTimes[i-1].Item >= it.Item {
			t.Fatalf("item_times not sorted, or not positive but for %s (0 ms): %v", untimed, sh.ItemTimes)
		}
		total += it.SpentMS
	}
	if total != wantTotal {
		t.Fatalf("item_times total %d ms, want %d", total, wantTotal)
	}
	allowed := keys + "allowed_signers"
	mustRun(t, 0, "verify", "--allowed-signers", allowed, p("timed/sheet-ann.json"))

	_, plain, _ := runCapture(t, "agreement", p("sheet-ann.json"), p("sheet-bob.json"), "--format", "json", "--allowed-signers", allowed)
	_, timed, _ := runCapture(t, "agreement", p("timed/sheet-ann.json"), p("sheet-bob.json"), "--format", "json", "--allowed-signers", allowed)
	stats := func(out string) string {
		var v struct {
			Agreement json.RawMessage `json:"agreement"`
		}
		if err := json.Unmarshal([]byte(out), &v); err != nil || len(v.Agreement) == 0 {
			t.Fatalf("agreement output: %v\n%s", err, out)
		}
		return string(v.Agreement)
	}
	if stats(plain) != stats(timed) {
		t.Fatalf("agreement changed with item_times:\n%s\nvs\n%s", plain, timed)
	}

	key, err := adjudication.LoadKey(keys + "rater-ann")
	if err != nil {
		t.Fatal(err)
	}
	for name, mutate := range map[string]func(s *adjudication.Sheet){
		"negative": func(s *adjudication.Sheet) { s.ItemTimes[1].SpentMS = -1 },
		"unsorted": func(s *adjudication.Sheet) { s.ItemTimes[0], s.ItemTimes[1] = s.ItemTimes[1], s.ItemTimes[0] },
		"ungraded": func(s *adjudication.Sheet) { s.ItemTimes[0].Item = "item-ffffffffffffffff" },
		// The sheet format before every item had its entry: a zero-time
		// item left out.
		"zero-time item left out": func(s *adjudication.Sheet) {
			s.ItemTimes = slices.DeleteFunc(s.ItemTimes, func(it adjudication.ItemTime) bool { return it.SpentMS == 0 })
		},
		"member absent": func(s *adjudication.Sheet) { s.ItemTimes = nil },
	} {
		bad, _ := adjudication.ParseSheet("timed", data)
		mutate(bad)
		out, sig, err := adjudication.SignRecord(bad, key, adjudication.NamespaceRating)
		if err != nil {
			t.Fatal(err)
		}
		path := p("bad-" + strings.ReplaceAll(name, " ", "-") + ".json")
		os.WriteFile(path, out, 0o600)
		os.WriteFile(path+".sig", sig, 0o600)
		code, stdout, stderr := runCapture(t, "verify", "--allowed-signers", allowed, path)
		if code != 1 || !strings.Contains(stdout+stderr, string(adjudication.ReasonBadItemTimes)) {
			t.Errorf("%s item_times: exit %d, want 1 with %s\n%s%s", name, code, adjudication.ReasonBadItemTimes, stdout, stderr)
		}
	}
}
