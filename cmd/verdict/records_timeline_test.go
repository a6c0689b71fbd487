package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"verdict/adjudication"
	"verdict/fixtures"
)

// TestRecordsOnTheCampaignTimeline: every record is re-signed with the
// TEST ONLY keys so that each signature verifies, and score (and verify,
// for what the records alone say) refuses a record off the campaign's
// timeline: a sheet dated before the sessions it rates ended, a reveal or
// a sheet dated in the future (past the stated ClockTolerance), and a
// notice that is not the notice of the record's synthetic flag.
func TestRecordsOnTheCampaignTimeline(t *testing.T) {
	camp, ratings, _ := demoChain(t)
	cases := []struct {
		name  string
		forge fixtures.Forgery
		want  string
		// verify: verify alone (no campaign) refuses it too.
		verify bool
	}{
		{name: "control: re-signed, unchanged", want: ""},
		{name: "sheets dated 2020, before the sessions ended", forge: fixtures.Forgery{Sheet: func(_ string, s *adjudication.Sheet, _ map[string]string) {
			s.TimeUTC = "2020-01-01T00:00:00Z"
		}}, want: "bad-record-time"},
		{name: "reveal dated 2099", forge: fixtures.Forgery{Reveal: func(r *adjudication.Reveal) { r.TimeUTC = "2099-01-01T00:00:00Z" }}, want: "bad-record-time", verify: true},
		{name: "all records dated 2099", forge: fixtures.Forgery{
			Sheet:        func(_ string, s *adjudication.Sheet, _ map[string]string) { s.TimeUTC = "2099-01-01T00:00:00Z" },
			Adjudication: func(a *adjudication.Adjudication) { a.TimeUTC = "2099-01-02T00:00:00Z" },
			Reveal:       func(r *adjudication.Reveal) { r.TimeUTC = "2099-01-03T00:00:00Z" },
		}, want: "bad-record-time", verify: true},
		{name: "synthetic adjudication without its notice", forge: fixtures.Forgery{Adjudication: func(a *adjudication.Adjudication) { a.Notice = "" }}, want: "bad-record-notice", verify: true},
		{name: "synthetic sheet with another notice", forge: fixtures.Forgery{Sheet: func(name string, s *adjudication.Sheet, _ map[string]string) {
			if name == "bob" {
				s.Notice = "REAL DATA"
			}
		}}, want: "bad-record-notice", verify: true},
	}
	for _, c := range cases {
		dir := filepath.Join(t.TempDir(), "ratings")
		if err := os.CopyFS(dir, os.DirFS(ratings)); err != nil {
			t.Fatal(err)
		}
		if err := c.forge.Apply(dir); err != nil {
			t.Fatal(err)
		}
		code, reasons, out := scoreRefusal(t, camp, dir)
		if c.want == "" {
			if len(reasons) != 0 {
				t.Errorf("%s: refused %v\n%.1000s", c.name, reasons, out)
			}
			continue
		}
		if code != 1 || !containsReason(reasons, c.want) {
			t.Errorf("score, %s: exit %d, reasons %v, want %s\n%.1500s", c.name, code, reasons, c.want, out)
		}
		if c.verify {
			p := func(n string) string { return filepath.Join(dir, n) }
			code, out, _ := runCapture(t, "verify", "--format", "json", "--allowed-signers", p("allowed_signers"),
				p("sheet-ann.json"), p("sheet-bob.json"), p("adjudication.json"), p("reveal.json"))
			if code != 1 || !strings.Contains(out, `"reason": "`+c.want+`"`) {
				t.Errorf("verify, %s: exit %d, want %s\n%.1500s", c.name, code, c.want, out)
			}
		}
	}
}
