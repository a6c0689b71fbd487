package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"verdict/adjudication"
	"verdict/blinding"
)

// demoChain runs `verdict demo --out` into a new directory and returns the
// campaign, ratings and TEST ONLY keys directories of its SYNTHETIC chain.
func demoChain(t *testing.T) (camp, ratings, keys string) {
	t.Helper()
	demo := filepath.Join(t.TempDir(), "demo")
	if code, out, errs := runCapture(t, "demo", "--out", demo); code != 0 && code != 1 {
		t.Fatalf("demo: exit %d\n%s%s", code, out, errs)
	}
	return filepath.Join(demo, "campaign"), filepath.Join(demo, "ratings"), filepath.Join(demo, "keys")
}

// forgery edits a ratings directory and signs every record again with the
// TEST ONLY keys, as an attacker holding the keys would: each edit runs on
// the decoded record before it is signed, and every digest that names an
// earlier record or the map is brought up to date first.
type forgery struct {
	mapEdit  func(m *blinding.SealedMap)
	sheet    func(name string, s *adjudication.Sheet, bundles map[string]string)
	adj      func(a *adjudication.Adjudication)
	reveal   func(r *adjudication.Reveal)
	revealBy string // key file signing the reveal (default coordinator-dee)
}

func signWith(t *testing.T, path string, v any, keyFile, ns string) []byte {
	t.Helper()
	key, err := adjudication.LoadKey(keyFile)
	if err != nil {
		t.Fatal(err)
	}
	data, sig, err := adjudication.SignRecord(v, key, ns)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(path, data, 0o644)
	os.WriteFile(path+".sig", sig, 0o644)
	return data
}

// apply forges the records in ratings (keys: the TEST ONLY key files).
func (f forgery) apply(t *testing.T, ratings, keys string) {
	t.Helper()
	p := func(n string) string { return filepath.Join(ratings, n) }
	mapBytes, _ := os.ReadFile(p("sealed-map.json"))
	if f.mapEdit != nil {
		m, err := blinding.ParseSealedMap("sealed-map.json", mapBytes)
		if err != nil {
			t.Fatal(err)
		}
		f.mapEdit(m)
		if mapBytes, err = blinding.MarshalCanonical(m); err != nil {
			t.Fatal(err)
		}
		os.WriteFile(p("sealed-map.json"), mapBytes, 0o600)
	}
	commit := blinding.Digest(mapBytes)
	bundles := map[string]string{}
	for _, r := range []string{"ann", "bob"} {
		b, _, err := blinding.LoadBundle(p("bundle-" + r + ".json"))
		if err != nil {
			t.Fatal(err)
		}
		b.MapCommitment = commit
		bb, _ := blinding.MarshalCanonical(b)
		os.WriteFile(p("bundle-"+r+".json"), bb, 0o644)
		bundles[r] = blinding.Digest(bb)
	}
	sheetSHA := map[string]string{}
	for _, r := range []string{"ann", "bob"} {
		data, _ := os.ReadFile(p("sheet-" + r + ".json"))
		s, err := adjudication.ParseSheet(r, data)
		if err != nil {
			t.Fatal(err)
		}
		s.MapCommitment, s.BundleDigest = commit, bundles[s.BundleRater]
		if f.sheet != nil {
			f.sheet(r, s, bundles)
		}
		sheetSHA[r] = blinding.Digest(signWith(t, p("sheet-"+r+".json"), s, filepath.Join(keys, "rater-"+r), adjudication.NamespaceRating))
	}
	data, _ := os.ReadFile(p("adjudication.json"))
	a, err := adjudication.ParseAdjudication("adjudication.json", data)
	if err != nil {
		t.Fatal(err)
	}
	a.MapCommitment = commit
	for i := range a.Sheets {
		a.Sheets[i].SHA256 = sheetSHA[a.Sheets[i].Name]
	}
	if f.adj != nil {
		f.adj(a)
	}
	adjSHA := blinding.Digest(signWith(t, p("adjudication.json"), a, filepath.Join(keys, "adjudicator-cho"), adjudication.NamespaceAdjudication))
	data, _ = os.ReadFile(p("reveal.json"))
	r := &adjudication.Reveal{}
	if err := blinding.UnmarshalStrict("reveal.json", data, r); err != nil {
		t.Fatal(err)
	}
	r.MapCommitment, r.Adjudication.SHA256 = commit, adjSHA
	for i := range r.Sheets {
		r.Sheets[i].SHA256 = sheetSHA[r.Sheets[i].Name]
	}
	if f.reveal != nil {
		f.reveal(r)
	}
	by := "coordinator-dee"
	if f.revealBy != "" {
		by = f.revealBy
	}
	signWith(t, p("reveal.json"), r, filepath.Join(keys, by), adjudication.NamespaceReveal)
}

// scoreRefusal runs `verdict score --format json` and returns its exit
// code and the reasons of its refusals.
func scoreRefusal(t *testing.T, camp, ratings string) (int, []string, string) {
	t.Helper()
	code, out, _ := runCapture(t, "score", camp, "--ratings", ratings, "--format", "json")
	var reasons []string
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var p struct {
			Reason string `json:"reason"`
			File   string `json:"file"`
		}
		if json.Unmarshal([]byte(line), &p) == nil && p.Reason != "" && !strings.HasPrefix(line, "{\n") {
			reasons = append(reasons, p.Reason)
		}
	}
	return code, reasons, out
}

// TestScoreCustodyForgeries forges the SYNTHETIC demo's ratings directory
// with the TEST ONLY keys, every record signed again so that each
// signature verifies, and requires `verdict score` to refuse each forgery
// with its own reason (issue "chain of custody", items 1–5). The untouched
// forgery (every record re-signed, nothing changed) still scores.
func TestScoreCustodyForgeries(t *testing.T) {
	camp, ratings, keys := demoChain(t)
	cases := []struct {
		name   string
		forge  forgery
		remove []string
		allow  string // extra allowed_signers line
		want   string
	}{
		{name: "control: re-signed, unchanged", want: ""},
		{name: "A and B swapped in the sealed map", forge: forgery{mapEdit: func(m *blinding.SealedMap) {
			// Swap the sessions and roles of the first review A and the
			// review B of the same task and repetition.
			for i := range m.Items {
				for j := range m.Items {
					a, b := &m.Items[i], &m.Items[j]
					if a.Task == b.Task && a.Repetition == b.Repetition && a.Role == "review-a" && b.Role == "review-b" {
						a.Session, b.Session = b.Session, a.Session
						a.Role, b.Role = b.Role, a.Role
						return
					}
				}
			}
			t.Fatal("no A/B pair in the map")
		}}, want: "map-mismatch"},
		{name: "bob's sheet made on ann's bundle", forge: forgery{sheet: func(name string, s *adjudication.Sheet, bundles map[string]string) {
			if name == "bob" {
				s.BundleRater, s.BundleDigest = "ann", bundles["ann"]
			}
		}}, want: "other-bundle"},
		{name: "a bundle missing", remove: []string{"bundle-bob.json"}, want: "bundle-missing"},
		{name: "no bundles", remove: []string{"bundle-ann.json", "bundle-bob.json"}, want: "bundle-missing"},
		{name: "reveal dated yesterday", forge: forgery{reveal: func(r *adjudication.Reveal) { r.TimeUTC = "yesterday" }}, want: "bad-record-time"},
		{name: "reveal before the sheets", forge: forgery{reveal: func(r *adjudication.Reveal) { r.TimeUTC = "2020-01-01T00:00:00Z" }}, want: "bad-record-time"},
		{name: "adjudication before the sheets", forge: forgery{adj: func(a *adjudication.Adjudication) { a.TimeUTC = "2020-01-01T00:00:00Z" }}, want: "bad-record-time"},
		{name: "sheet meaning denies grading", forge: forgery{sheet: func(name string, s *adjudication.Sheet, _ map[string]string) {
			if name == "ann" {
				s.Meaning = "I did not grade anything"
			}
		}}, want: "bad-record-meaning"},
		{name: "reveal digests junk", forge: forgery{reveal: func(r *adjudication.Reveal) { r.ContentDigest = "junk" }}, want: "bad-record-digest"},
		{name: "reveal content digest of something else", forge: forgery{reveal: func(r *adjudication.Reveal) { r.ContentDigest = strings.Repeat("ab", 32) }}, want: "bad-record-digest"},
		{name: "swapped sheet labels", forge: forgery{adj: func(a *adjudication.Adjudication) {
			a.Sheets[0].Name, a.Sheets[1].Name = a.Sheets[1].Name, a.Sheets[0].Name
		}}, want: "bad-record-label"},
		{name: "reveal signed by the adjudicator", forge: forgery{revealBy: "adjudicator-cho", reveal: func(r *adjudication.Reveal) {
			key, _ := adjudication.LoadKey(filepath.Join(keys, "adjudicator-cho"))
			r.Signer.Name, r.Signer.KeyFingerprint = "cho", adjudication.Fingerprint(key.PublicKey())
		}}, allow: "cho", want: "role-reused"},
	}
	for _, c := range cases {
		dir := filepath.Join(t.TempDir(), "ratings")
		if err := os.CopyFS(dir, os.DirFS(ratings)); err != nil {
			t.Fatal(err)
		}
		if c.allow != "" {
			pub, _ := os.ReadFile(filepath.Join(keys, "adjudicator-cho.pub"))
			f, _ := os.OpenFile(filepath.Join(dir, "allowed_signers"), os.O_APPEND|os.O_WRONLY, 0)
			f.WriteString(c.allow + ` namespaces="verdict-reveal" ` + string(pub))
			f.Close()
		}
		c.forge.apply(t, dir, keys)
		for _, r := range c.remove {
			os.Remove(filepath.Join(dir, r))
		}
		code, reasons, out := scoreRefusal(t, camp, dir)
		if c.want == "" {
			if len(reasons) != 0 {
				t.Errorf("%s: refused %v\n%.1000s", c.name, reasons, out)
			}
			continue
		}
		if code != 1 || len(reasons) == 0 || !containsReason(reasons, c.want) {
			t.Errorf("%s: exit %d, reasons %v, want %s\n%.1500s", c.name, code, reasons, c.want, out)
		}
	}
}

func containsReason(rs []string, want string) bool {
	for _, r := range rs {
		if r == want {
			return true
		}
	}
	return false
}
