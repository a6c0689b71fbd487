package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"verdict/adjudication"
	"verdict/fixtures"
)

// TestJournalDigestCheckedBeside: a sheet whose directory holds a journal
// of its bundle is checked against it by every command that reads the
// sheet (verify, disagreements, resolve, adjudicate, reveal, score: the
// one check in adjudication.VerifyRecord). The demo's journals lie beside
// its sheets; after the freeze, the journal's last grade cut off, a
// grade line edited, or the journal replaced by another journal of the
// same bundle, each command refuses with journal-mismatch. A journal of
// another bundle beside the sheet, or none at all, is not the sheet's
// journal and checks nothing.
func TestJournalDigestCheckedBeside(t *testing.T) {
	camp, ratings, keys := demoChain(t)
	journal := "bundle-ann.journal.jsonl"
	cases := []struct {
		name   string
		change func(t *testing.T, dir string)
		want   string
	}{
		{name: "control: journals as frozen", change: func(*testing.T, string) {}},
		{name: "no journal beside the sheets", change: func(t *testing.T, dir string) {
			mustRemove(t, filepath.Join(dir, "bundle-ann.journal.jsonl"), filepath.Join(dir, "bundle-bob.journal.jsonl"))
		}},
		{name: "another bundle's journal in place of ann's", change: func(t *testing.T, dir string) {
			copyFile(t, filepath.Join(dir, "bundle-bob.journal.jsonl"), filepath.Join(dir, journal))
		}},
		{name: "last grade cut off after the freeze", change: func(t *testing.T, dir string) {
			data := mustRead(t, filepath.Join(dir, journal))
			cut := bytes.LastIndexByte(data[:len(data)-1], '\n')
			writeFile(t, filepath.Join(dir, journal), data[:cut+1])
		}, want: string(adjudication.ReasonJournalMismatch)},
		{name: "one grade's value edited", change: func(t *testing.T, dir string) {
			data := mustRead(t, filepath.Join(dir, journal))
			edited := bytes.Replace(data, []byte(`"value":"supports"`), []byte(`"value":"does_not_support"`), 1)
			if bytes.Equal(edited, data) {
				t.Fatal("no supports grade to edit")
			}
			writeFile(t, filepath.Join(dir, journal), edited)
		}, want: string(adjudication.ReasonJournalMismatch)},
		{name: "a second journal of ann's bundle, the frozen one removed", change: func(t *testing.T, dir string) {
			data := mustRead(t, filepath.Join(dir, journal))
			mustRemove(t, filepath.Join(dir, journal))
			writeFile(t, filepath.Join(dir, "bundle-ann.journal.jsonl"), append(data, '\n'))
		}, want: string(adjudication.ReasonJournalMismatch)},
	}
	for _, c := range cases {
		dir := filepath.Join(t.TempDir(), "ratings")
		if err := os.CopyFS(dir, os.DirFS(ratings)); err != nil {
			t.Fatal(err)
		}
		c.change(t, dir)
		p := func(n string) string { return filepath.Join(dir, n) }
		allowed := p("allowed_signers")
		runs := map[string][]string{
			"verify":        {"verify", "--allowed-signers", allowed, p("sheet-ann.json"), p("sheet-bob.json"), p("adjudication.json"), p("reveal.json")},
			"disagreements": {"disagreements", "--allowed-signers", allowed, p("sheet-ann.json"), p("sheet-bob.json")},
			"resolve":       {"resolve", "--template", "--out", p("choices-again.json"), "--allowed-signers", allowed, p("sheet-ann.json"), p("sheet-bob.json")},
			"adjudicate":    {"adjudicate", p("bundle-ann.json"), p("sheet-ann.json"), p("sheet-bob.json"), "--allowed-signers", allowed, "--key", filepath.Join(keys, "adjudicator-cho"), "--name", "cho", "--out", p("adjudication-again.json")},
			"reveal": {"reveal", "--sheet", p("sheet-ann.json"), "--sheet", p("sheet-bob.json"), "--adjudication", p("adjudication.json"), "--map", p("sealed-map.json"),
				"--allowed-signers", allowed, "--key", filepath.Join(keys, "coordinator-dee"), "--name", "dee", "--out", p("reveal-again.json")},
		}
		for cmd, args := range runs {
			code, out, errs := runCapture(t, args...)
			switch {
			case c.want == "" && cmd != "adjudicate" && code != 0:
				t.Errorf("%s, %s: exit %d, want 0\n%.1500s%.1500s", c.name, cmd, code, out, errs)
			case c.want == "" && strings.Contains(out+errs, string(adjudication.ReasonJournalMismatch)):
				t.Errorf("%s, %s: refused %s\n%.1500s%.1500s", c.name, cmd, adjudication.ReasonJournalMismatch, out, errs)
			case c.want != "" && (code != 1 || !strings.Contains(out+errs, c.want)):
				t.Errorf("%s, %s: exit %d, want 1 with %s\n%.1500s%.1500s", c.name, cmd, code, c.want, out, errs)
			}
		}
		mustRemove(t, p("choices-again.json"), p("reveal-again.json"), p("reveal-again.json.sig"))
		code, reasons, out := scoreRefusal(t, camp, dir)
		if c.want == "" && len(reasons) != 0 || c.want != "" && (code != 1 || !containsReason(reasons, c.want)) {
			t.Errorf("score, %s: exit %d, reasons %v, want %q\n%.1500s", c.name, code, reasons, c.want, out)
		}
	}
}

// TestRecordsAfterTheRatedSessions: with the campaign at hand (verify
// --campaign, score) every record is dated after the last rated session's
// receipt ended. Records re-signed in their own order (sheets, then the
// adjudication, then the reveal) but all before the sessions ended pass
// verify without the campaign (nothing to compare them with) and are
// refused by verify --campaign, each record with bad-record-time, and by
// score.
func TestRecordsAfterTheRatedSessions(t *testing.T) {
	camp, ratings, _ := demoChain(t)
	cases := []struct {
		name  string
		forge fixtures.Forgery
		// refused are the records verify --campaign refuses.
		refused []string
	}{
		{name: "control: re-signed, unchanged"},
		{name: "every record in order, all before the sessions ended", forge: fixtures.Forgery{
			Sheet:        func(_ string, s *adjudication.Sheet, _ map[string]string) { s.TimeUTC = "2026-01-01T00:00:00Z" },
			Adjudication: func(a *adjudication.Adjudication) { a.TimeUTC = "2026-01-01T01:00:00Z" },
			Reveal:       func(r *adjudication.Reveal) { r.TimeUTC = "2026-01-01T02:00:00Z" },
		}, refused: []string{"sheet-ann.json", "sheet-bob.json", "adjudication.json", "reveal.json"}},
	}
	for _, c := range cases {
		dir := filepath.Join(t.TempDir(), "ratings")
		if err := os.CopyFS(dir, os.DirFS(ratings)); err != nil {
			t.Fatal(err)
		}
		if err := c.forge.Apply(dir); err != nil {
			t.Fatal(err)
		}
		p := func(n string) string { return filepath.Join(dir, n) }
		records := []string{p("sheet-ann.json"), p("sheet-bob.json"), p("adjudication.json"), p("reveal.json")}
		code, out, errs := runCapture(t, append([]string{"verify", "--allowed-signers", p("allowed_signers")}, records...)...)
		if code != 0 {
			t.Errorf("%s: verify without the campaign: exit %d, want 0 (the records' own order holds)\n%s%s", c.name, code, out, errs)
		}
		code, out, errs = runCapture(t, append([]string{"verify", "--campaign", camp, "--allowed-signers", p("allowed_signers")}, records...)...)
		if len(c.refused) == 0 {
			if code != 0 {
				t.Errorf("%s: verify --campaign: exit %d, want 0\n%s%s", c.name, code, out, errs)
			}
		} else {
			if code != 1 {
				t.Errorf("%s: verify --campaign: exit %d, want 1\n%s%s", c.name, code, out, errs)
			}
			for _, r := range c.refused {
				if !strings.Contains(out, "REFUSED  "+p(r)+"#/time_utc: bad-record-time") {
					t.Errorf("%s: verify --campaign does not refuse %s with bad-record-time\n%s%s", c.name, r, out, errs)
				}
			}
		}
		code, reasons, sout := scoreRefusal(t, camp, dir)
		if len(c.refused) == 0 && len(reasons) != 0 || len(c.refused) > 0 && (code != 1 || !containsReason(reasons, string(adjudication.ReasonBadRecordTime))) {
			t.Errorf("score, %s: exit %d, reasons %v\n%.1500s", c.name, code, reasons, sout)
		}
	}
}

func writeFile(t *testing.T, p string, b []byte) {
	t.Helper()
	if err := os.WriteFile(p, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

func copyFile(t *testing.T, from, to string) { t.Helper(); writeFile(t, to, mustRead(t, from)) }

func mustRemove(t *testing.T, paths ...string) {
	t.Helper()
	for _, p := range paths {
		if err := os.Remove(p); err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
	}
}
