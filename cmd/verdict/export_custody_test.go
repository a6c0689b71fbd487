package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"verdict/adjudication"
	"verdict/fixtures"
)

// rebindEdit replaces old with new once in the campaign file rel of camp
// and re-binds the file's new SHA-256 in manifest.json by hand, as an
// editor after the reveal would.
func rebindEdit(t *testing.T, camp, rel, old, new string) {
	t.Helper()
	p := filepath.Join(camp, rel)
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	edited := bytes.Replace(data, []byte(old), []byte(new), 1)
	if bytes.Equal(edited, data) {
		t.Fatalf("%s does not hold %q", rel, old)
	}
	if err := os.WriteFile(p, edited, 0o644); err != nil {
		t.Fatal(err)
	}
	hexOf := func(b []byte) string { s := sha256.Sum256(b); return hex.EncodeToString(s[:]) }
	mpath := filepath.Join(camp, "manifest.json")
	m, err := os.ReadFile(mpath)
	if err != nil {
		t.Fatal(err)
	}
	entry := []byte(`"path": "` + filepath.ToSlash(rel) + `",` + "\n" + `      "sha256": "` + hexOf(data) + `"`)
	rebound := bytes.Replace(m, entry, bytes.Replace(entry, []byte(hexOf(data)), []byte(hexOf(edited)), 1), 1)
	if bytes.Equal(rebound, m) {
		t.Fatalf("manifest.json does not bind %s", rel)
	}
	if err := os.WriteFile(mpath, rebound, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestExportGradesRefusesAsScore (trial T7): export grades checks the
// ratings directory exactly as score does (custody derived again under
// the sealed map, each sheet against its bundle's fields), so every
// forgery score refuses is refused by export grades with the same reason
// code, and nothing is written to stdout: a graded answer rewritten after
// the reveal and re-bound, a campaign_id changed, a sheet with a grade for
// an unknown item, a sheet with a required field left out, a bundle whose
// item differs from the derived one. The untouched demo still exports.
func TestExportGradesRefusesAsScore(t *testing.T) {
	camp, ratings, _ := demoChain(t)
	cases := []struct {
		name  string
		camp  func(t *testing.T, dir string)
		forge fixtures.Forgery
		edit  func(t *testing.T, dir string)
		want  string
	}{
		{name: "control: unchanged"},
		{name: "graded answer rewritten after the reveal, manifest re-bound", camp: func(t *testing.T, dir string) {
			rebindEdit(t, dir, filepath.Join("responses", "S3.json"), `"text": "`, `"text": "SYNTHETIC rewritten. `)
		}, want: "campaign-changed-after-blinding"},
		{name: "campaign_id changed", camp: func(t *testing.T, dir string) {
			p := filepath.Join(dir, "manifest.json")
			m, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			os.WriteFile(p, regexp.MustCompile(`"campaign_id": "[^"]*"`).ReplaceAll(m, []byte(`"campaign_id": "another-campaign"`)), 0o644)
		}, want: "map-other-campaign"},
		{name: "bundle item rewritten", edit: func(t *testing.T, dir string) {
			p := filepath.Join(dir, "bundle-ann.json")
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			os.WriteFile(p, bytes.Replace(b, []byte(`"text": "`), []byte(`"text": "SYNTHETIC rewritten. `), 1), 0o644)
		}, want: "bundle-item-mismatch"},
		{name: "a bundle missing", edit: func(t *testing.T, dir string) { os.Remove(filepath.Join(dir, "bundle-bob.json")) }, want: "bundle-missing"},
		{name: "unknown item", forge: fixtures.Forgery{Sheet: func(name string, s *adjudication.Sheet, _ map[string]string) {
			if name == "ann" {
				g := s.Grades[0]
				g.Item = "item-0000000000000000"
				s.Grades = slices.Insert(s.Grades, 0, g)
			}
		}}, want: "unknown-item"},
		{name: "incomplete sheet", forge: fixtures.Forgery{Sheet: func(name string, s *adjudication.Sheet, _ map[string]string) {
			if name == "bob" {
				s.Grades = slices.Delete(s.Grades, 3, 4)
			}
		}}, want: "sheet-incomplete"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cdir := filepath.Join(t.TempDir(), "campaign")
			dir := filepath.Join(t.TempDir(), "ratings")
			if err := os.CopyFS(cdir, os.DirFS(camp)); err != nil {
				t.Fatal(err)
			}
			if err := os.CopyFS(dir, os.DirFS(ratings)); err != nil {
				t.Fatal(err)
			}
			if c.camp != nil {
				c.camp(t, cdir)
			}
			if err := c.forge.Apply(dir); err != nil {
				t.Fatal(err)
			}
			if c.edit != nil {
				c.edit(t, dir)
			}
			code, reasons, out := scoreRefusal(t, cdir, dir)
			ecode, eout, eerr := runCapture(t, "export", "grades", cdir, "--ratings", dir, "--allowed-signers", filepath.Join(dir, "allowed_signers"))
			if c.want == "" {
				if len(reasons) != 0 || !strings.Contains(out, `"decision"`) || ecode != 0 || !strings.Contains(strings.SplitN(eout, "\n", 2)[0], "arm") {
					t.Fatalf("unchanged: score exit %d %v, export grades exit %d\n%.800s%.800s", code, reasons, ecode, eout, eerr)
				}
				return
			}
			if code != 1 || !containsReason(reasons, c.want) {
				t.Fatalf("score: exit %d, reasons %v, want %s\n%.1500s", code, reasons, c.want, out)
			}
			// The refusal names score's reason code itself (not a wrapper).
			re := regexp.MustCompile(`(?m)^verdict: ` + regexp.QuoteMeta(c.want) + `\b`)
			if ecode != 1 || eout != "" && !strings.Contains(eout, c.want) || !re.MatchString(eerr) && !strings.Contains(eout, "REFUSED "+c.want) {
				t.Fatalf("export grades: exit %d, want 1 with %s and no rows\nstdout:\n%.1500s\nstderr:\n%.1500s", ecode, c.want, eout, eerr)
			}
			if strings.Contains(eout, "item,kind,target") {
				t.Fatalf("export grades wrote rows of a refused ratings directory\n%.500s", eout)
			}
		})
	}
}

// TestExportGradesWithoutMap: before the coordinator's sealed map is
// beside the ratings (no file at --map), there is nothing to derive:
// export grades stays blinded and still checks each sheet against the
// bundle found beside it (an unknown item is refused as score refuses it).
func TestExportGradesWithoutMap(t *testing.T) {
	camp, ratings, _ := demoChain(t)
	dir := filepath.Join(t.TempDir(), "ratings")
	if err := os.CopyFS(dir, os.DirFS(ratings)); err != nil {
		t.Fatal(err)
	}
	mapFile := filepath.Join(dir, "sealed-map.json")
	mapBytes, err := os.ReadFile(mapFile)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(mapFile); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runCapture(t, "export", "grades", camp, "--ratings", dir, "--allowed-signers", filepath.Join(dir, "allowed_signers"))
	if head := strings.SplitN(out, "\n", 2)[0]; code != 0 || !strings.HasPrefix(head, "item,kind,target,rater_1") || strings.Contains(head, "arm") {
		t.Fatalf("without the map: exit %d, want 0 and blinded columns\n%.500s%s", code, out, errs)
	}
	if code, _, _ := runCapture(t, "export", "grades", camp, "--ratings", dir, "--allowed-signers", filepath.Join(dir, "allowed_signers"), "--unblinded"); code != 1 {
		t.Fatalf("--unblinded without the map: exit %d, want 1 (not-revealed)", code)
	}
	// The forgery re-commits the records to the map: put it back for it.
	if err := os.WriteFile(mapFile, mapBytes, 0o644); err != nil {
		t.Fatal(err)
	}
	err = fixtures.Forgery{Sheet: func(name string, s *adjudication.Sheet, _ map[string]string) {
		if name == "ann" {
			g := s.Grades[0]
			g.Item = "item-0000000000000000"
			s.Grades = slices.Insert(s.Grades, 0, g)
		}
	}}.Apply(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(mapFile); err != nil {
		t.Fatal(err)
	}
	code, out, errs = runCapture(t, "export", "grades", camp, "--ratings", dir, "--allowed-signers", filepath.Join(dir, "allowed_signers"))
	if code != 1 || !strings.Contains(out+errs, "unknown-item") || strings.Contains(out, "item,kind,target") {
		t.Fatalf("unknown item without the map: exit %d, want 1 unknown-item\n%.500s%s", code, out, errs)
	}
}
