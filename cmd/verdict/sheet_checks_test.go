package main

import (
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"verdict/adjudication"
	"verdict/fixtures"
	"verdict/verr"
)

// TestSheetChecksEveryCommand forges ann's rating sheet of the SYNTHETIC
// demo (re-signed by her TEST ONLY key, adjudication and reveal re-chained)
// in each way a signed sheet may be wrong, and requires every command that
// reads sheets to refuse it alike: exit 1, the same reason code, the same
// file and the same JSON pointer (adjudication.ParseSheet for what the
// sheet alone says; the cross-check against its bundle for unknown items
// and fields and for completeness).
func TestSheetChecksEveryCommand(t *testing.T) {
	camp, ratings, keys := demoChain(t)
	cases := []struct {
		name string
		edit func(s *adjudication.Sheet)
		want verr.Reason
	}{
		{"item_flag among the grades", func(s *adjudication.Sheet) {
			s.Grades = append(s.Grades, adjudication.Grade{Field: adjudication.Field{Item: s.Grades[len(s.Grades)-1].Item, Kind: "item_flag"}, Value: "flagged"})
		}, adjudication.ReasonGradeKind},
		{"made-up kind", func(s *adjudication.Sheet) {
			s.Grades = append(s.Grades, adjudication.Grade{Field: adjudication.Field{Item: s.Grades[len(s.Grades)-1].Item, Kind: "bogus_kind", Target: "Z9"}, Value: "whatever"})
		}, adjudication.ReasonGradeKind},
		{"value outside the vocabulary", func(s *adjudication.Sheet) { s.Grades[0].Value = "supported" }, adjudication.ReasonBadValue},
		{"field graded twice", func(s *adjudication.Sheet) {
			g := s.Grades[0]
			g.Value = "not_addressed"
			if s.Grades[0].Value == g.Value {
				g.Value = "addressed"
			}
			s.Grades = slices.Insert(s.Grades, 1, g)
		}, adjudication.ReasonDuplicateGrade},
		{"grades out of canonical order", func(s *adjudication.Sheet) { slices.Reverse(s.Grades) }, adjudication.ReasonGradeOrder},
		{"unknown item", func(s *adjudication.Sheet) {
			g := s.Grades[0]
			g.Item = "item-0000000000000000"
			s.Grades = slices.Insert(s.Grades, 0, g)
		}, adjudication.ReasonUnknownItem},
		{"unknown field", func(s *adjudication.Sheet) {
			// An oracle-defect flag on an obligation the item does not
			// have, last among the first item's grades (canonical order).
			i := 0
			for i < len(s.Grades) && s.Grades[i].Item == s.Grades[0].Item {
				i++
			}
			g := adjudication.Grade{Field: adjudication.Field{Item: s.Grades[0].Item, Kind: adjudication.KindOracleDefect, Target: "O999"},
				Value: adjudication.ValueDefective, Note: "SYNTHETIC no such obligation"}
			s.Grades = slices.Insert(s.Grades, i, g)
		}, adjudication.ReasonUnknownField},
		{"required field left out", func(s *adjudication.Sheet) { s.Grades = slices.Delete(s.Grades, 5, 6) }, adjudication.ReasonSheetIncomplete},
	}
	at := regexp.MustCompile(`sheet-ann\.json#(/grades[/0-9]*)`)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "ratings")
			if err := os.CopyFS(dir, os.DirFS(ratings)); err != nil {
				t.Fatal(err)
			}
			err := fixtures.Forgery{Sheet: func(name string, s *adjudication.Sheet, _ map[string]string) {
				if name == "ann" {
					tc.edit(s)
				}
			}}.Apply(dir)
			if err != nil {
				t.Fatal(err)
			}
			p := func(n string) string { return filepath.Join(dir, n) }
			out := func(n string) string { return filepath.Join(t.TempDir(), n) }
			allowed := p("allowed_signers")
			commands := map[string][]string{
				"verify --bundle": {"verify", "--allowed-signers", allowed, "--bundle", p("bundle-ann.json"), "--bundle", p("bundle-bob.json"), p("sheet-ann.json"), p("sheet-bob.json")},
				"verify":          {"verify", "--allowed-signers", allowed, p("sheet-ann.json"), p("sheet-bob.json"), p("adjudication.json"), p("reveal.json")},
				"agreement":       {"agreement", p("sheet-ann.json"), p("sheet-bob.json"), "--allowed-signers", allowed, "--bundle", p("bundle-ann.json")},
				"disagreements":   {"disagreements", p("sheet-ann.json"), p("sheet-bob.json"), "--allowed-signers", allowed},
				"resolve":         {"resolve", p("sheet-ann.json"), p("sheet-bob.json"), "--allowed-signers", allowed, "--template", "--out", out("choices.json")},
				"reveal": {"reveal", "--sheet", p("sheet-ann.json"), "--sheet", p("sheet-bob.json"), "--adjudication", p("adjudication.json"),
					"--map", p("sealed-map.json"), "--allowed-signers", allowed, "--key", filepath.Join(keys, "coordinator-dee"), "--name", "dee",
					"--out", out("reveal.json"), "--time", demoRevealTime},
				"score":         {"score", camp, "--ratings", dir, "--allowed-signers", filepath.Join(dir, "allowed_signers")},
				"export grades": {"export", "grades", camp, "--ratings", dir, "--allowed-signers", filepath.Join(dir, "allowed_signers")},
			}
			pointer := ""
			for _, name := range slices.Sorted(maps.Keys(commands)) {
				code, stdout, stderr := runCapture(t, commands[name]...)
				text := stdout + stderr
				m := at.FindStringSubmatch(text)
				if code != 1 || !regexp.MustCompile(`\b`+regexp.QuoteMeta(string(tc.want))+`\b`).MatchString(text) || m == nil {
					t.Fatalf("%s: exit %d, want 1 with %s at sheet-ann.json#/grades…\n%s", name, code, tc.want, text)
				}
				if pointer == "" {
					pointer = m[1]
				} else if m[1] != pointer {
					t.Errorf("%s: refused at %s, another command at %s", name, m[1], pointer)
				}
			}
		})
	}
}

// TestSheetBundleRequired: resolve and reveal sign over rating sheets, so
// each sheet must be checked against its bundle: with the bundles neither
// beside the sheets nor given they refuse (bundle-missing, naming the
// sheet); given with --bundle they accept the demo's complete sheets.
func TestSheetBundleRequired(t *testing.T) {
	_, ratings, keys := demoChain(t)
	elsewhere := t.TempDir()
	var given []string
	for _, r := range []string{"ann", "bob"} {
		n := "bundle-" + r + ".json"
		if err := os.Rename(filepath.Join(ratings, n), filepath.Join(elsewhere, n)); err != nil {
			t.Fatal(err)
		}
		given = append(given, "--bundle", filepath.Join(elsewhere, n))
	}
	p := func(n string) string { return filepath.Join(ratings, n) }
	out := func(n string) string { return filepath.Join(t.TempDir(), n) }
	commands := map[string][]string{
		"resolve": {"resolve", p("sheet-ann.json"), p("sheet-bob.json"), "--allowed-signers", p("allowed_signers"), "--template", "--out", ""},
		"reveal": {"reveal", "--sheet", p("sheet-ann.json"), "--sheet", p("sheet-bob.json"), "--adjudication", p("adjudication.json"),
			"--map", p("sealed-map.json"), "--allowed-signers", p("allowed_signers"), "--key", filepath.Join(keys, "coordinator-dee"), "--name", "dee",
			"--time", demoRevealTime, "--out", ""},
	}
	for _, name := range slices.Sorted(maps.Keys(commands)) {
		args := slices.Clone(commands[name])
		args[len(args)-1] = out(name + ".json")
		code, stdout, stderr := runCapture(t, args...)
		if code != 1 || !strings.Contains(stdout+stderr, string(ReasonBundleMissing)) || !strings.Contains(stdout+stderr, "sheet-ann.json") {
			t.Fatalf("%s without bundles: exit %d, want 1 bundle-missing\n%s%s", name, code, stdout, stderr)
		}
		args[len(args)-1] = out(name + "-2.json")
		if code, stdout, stderr := runCapture(t, append(args, given...)...); code != 0 {
			t.Fatalf("%s with --bundle: exit %d\n%s%s", name, code, stdout, stderr)
		}
	}
}
