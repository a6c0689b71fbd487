package main

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"verdict/adjudication"
	"verdict/blinding"
)

// TestSheetItemTimes: freeze carries the rater's time per item from the
// journal into the sheet (item_times, milliseconds, sorted by item);
// agreement prints the same statistics with or without them (time is not
// a grade); and verify refuses a re-signed sheet whose item_times are not
// positive, sorted and about graded items (bad-item-times).
func TestSheetItemTimes(t *testing.T) {
	t.Parallel()
	p, keys := frozenPair(t, t.TempDir())
	b, _, err := blinding.LoadBundle(p("bundle-ann.json"))
	if err != nil {
		t.Fatal(err)
	}
	old, err := adjudication.Open(p("journal-ann.jsonl"), b)
	if err != nil {
		t.Fatal(err)
	}
	st := old.State()
	mustClose(t, old)
	j, err := adjudication.Open(p("journal-timed.jsonl"), b)
	if err != nil {
		t.Fatal(err)
	}
	for i, g := range st.Grades {
		g.Spent = time.Duration(1000+i) * time.Millisecond
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
		if it.SpentMS <= 0 || i > 0 && sh.ItemTimes[i-1].Item >= it.Item {
			t.Fatalf("item_times not positive and sorted: %v", sh.ItemTimes)
		}
		total += it.SpentMS
	}
	if want := int64(len(st.Grades))*1000 + int64(len(st.Grades)*(len(st.Grades)-1)/2); total != want {
		t.Fatalf("item_times total %d ms, want %d", total, want)
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
		"zero":     func(s *adjudication.Sheet) { s.ItemTimes[0].SpentMS = 0 },
		"unsorted": func(s *adjudication.Sheet) { s.ItemTimes[0], s.ItemTimes[1] = s.ItemTimes[1], s.ItemTimes[0] },
		"ungraded": func(s *adjudication.Sheet) { s.ItemTimes[0].Item = "item-ffffffffffffffff" },
	} {
		bad, _ := adjudication.ParseSheet("timed", data)
		mutate(bad)
		out, sig, err := adjudication.SignRecord(bad, key, adjudication.NamespaceRating)
		if err != nil {
			t.Fatal(err)
		}
		path := p("bad-" + name + ".json")
		os.WriteFile(path, out, 0o600)
		os.WriteFile(path+".sig", sig, 0o600)
		code, stdout, stderr := runCapture(t, "verify", "--allowed-signers", allowed, path)
		if code != 1 || !strings.Contains(stdout+stderr, string(adjudication.ReasonBadItemTimes)) {
			t.Errorf("%s item_times: exit %d, want 1 with %s\n%s%s", name, code, adjudication.ReasonBadItemTimes, stdout, stderr)
		}
	}
}
