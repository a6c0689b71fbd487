package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// problemLines parses out as one JSON document, an array of refusal
// objects of the one shape: exactly the members reason, file, pointer,
// rule and message, with a reason code and a message.
func problemLines(t *testing.T, what, out string) []map[string]string {
	t.Helper()
	var ms []map[string]any
	if err := json.Unmarshal([]byte(out), &ms); err != nil {
		t.Fatalf("%s: stdout is not one JSON array of refusals: %v\n%s", what, err, out)
	}
	var ps []map[string]string
	for _, m := range ms {
		ps = append(ps, problemOfMap(t, what, m))
	}
	if len(ps) == 0 {
		t.Fatalf("%s: no refusal printed\n%s", what, out)
	}
	return ps
}

func problemOfMap(t *testing.T, what string, m map[string]any) map[string]string {
	t.Helper()
	keys := make([]string, 0, len(m))
	out := map[string]string{}
	for k, v := range m {
		keys = append(keys, k)
		s, ok := v.(string)
		if !ok {
			t.Fatalf("%s: member %s is not a string: %v", what, k, m)
		}
		out[k] = s
	}
	slices.Sort(keys)
	if !slices.Equal(keys, []string{"file", "message", "pointer", "reason", "rule"}) {
		t.Fatalf("%s: members %v, want file, message, pointer, reason, rule", what, keys)
	}
	if out["reason"] == "" || out["message"] == "" {
		t.Fatalf("%s: empty reason or message: %v", what, out)
	}
	return out
}

// TestRefusalsOneJSONShape: with --format json, score, grade, freeze,
// resolve, verify's neighbours and check print each refusal as one object
// {reason, file, pointer, rule, message} that names the user's file; each
// refusal has its own reason code (a bad signer name is bad-signer-name,
// not bad-role).
func TestRefusalsOneJSONShape(t *testing.T) {
	dir := t.TempDir()
	demo := filepath.Join(dir, "demo")
	if code, out, _ := runCapture(t, "demo", "--out", demo); code != 0 && code != 1 {
		t.Fatalf("demo: exit %d\n%s", code, out)
	}
	ratings := filepath.Join(demo, "ratings")
	camp := filepath.Join(demo, "campaign")
	keys := filepath.Join(demo, "keys")

	// score: a changed byte in a sheet.
	bad := filepath.Join(dir, "bad-ratings")
	if err := os.CopyFS(bad, os.DirFS(ratings)); err != nil {
		t.Fatal(err)
	}
	appendFile(t, filepath.Join(bad, "sheet-ann.json"), " ")
	code, out, _ := runCapture(t, "score", camp, "--ratings", bad, "--allowed-signers", filepath.Join(bad, "allowed_signers"), "--format", "json")
	ps := problemLines(t, "score", out)
	if code != 1 || ps[0]["reason"] != "bad-signature" || ps[0]["file"] != filepath.Join(bad, "sheet-ann.json") {
		t.Errorf("score: exit %d, first refusal %v", code, ps[0])
	}
	// score: no ratings directory.
	code, out, _ = runCapture(t, "score", camp, "--ratings", filepath.Join(dir, "nowhere"), "--allowed-signers", filepath.Join(ratings, "allowed_signers"), "--format", "json")
	if ps := problemLines(t, "score without ratings", out); code != 1 || !strings.HasPrefix(ps[0]["file"], filepath.Join(dir, "nowhere")) {
		t.Errorf("score without ratings: exit %d, %v", code, ps)
	}

	// grade: a value outside the vocabulary, named in the user's grades file.
	var bundle struct {
		Items []struct {
			ID string `json:"id"`
		} `json:"items"`
	}
	b, _ := os.ReadFile(filepath.Join(ratings, "bundle-ann.json"))
	json.Unmarshal(b, &bundle)
	grades := filepath.Join(dir, "grades.json")
	os.WriteFile(grades, []byte(`[{"item":"`+bundle.Items[0].ID+`","kind":"claim","target":"C1","value":"maybe"}]`), 0o600)
	code, out, _ = runCapture(t, "grade", filepath.Join(ratings, "bundle-ann.json"), "--journal", filepath.Join(dir, "j.jsonl"), "--from", grades, "--format", "json")
	var rep struct {
		Refusal map[string]any `json:"refusal"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil || rep.Refusal == nil {
		t.Fatalf("grade: exit %d, no refusal object: %v\n%.500s", code, err, out)
	}
	if p := problemOfMap(t, "grade", rep.Refusal); code != 1 || p["file"] != grades || p["pointer"] != "/0" {
		t.Errorf("grade: exit %d, refusal %v", code, p)
	}
	// grade: a journal that is not a journal.
	notes := filepath.Join(dir, "notes.txt")
	os.WriteFile(notes, []byte("notes"), 0o600)
	code, out, _ = runCapture(t, "grade", filepath.Join(ratings, "bundle-ann.json"), "--journal", notes, "--from", grades, "--format", "json")
	if ps := problemLines(t, "grade into a non-journal", out); code != 1 || ps[0]["reason"] != "not-a-journal" || ps[0]["file"] != notes {
		t.Errorf("grade into a non-journal: exit %d, %v", code, ps)
	}

	// freeze: a signer name that cannot be an allowed_signers principal.
	code, out, _ = runCapture(t, "freeze", "--journal", filepath.Join(ratings, "bundle-ann.journal.jsonl"), "--bundle", filepath.Join(ratings, "bundle-ann.json"),
		"--allowed-signers", filepath.Join(ratings, "allowed_signers"), "--key", filepath.Join(keys, "rater-ann"), "--name", "ann smith", "--out", filepath.Join(dir, "s.json"), "--format", "json")
	if ps := problemLines(t, "freeze", out); code != 1 || ps[0]["reason"] != "bad-signer-name" {
		t.Errorf("freeze with a bad signer name: exit %d, %v", code, ps)
	}
	// freeze over an existing sheet.
	code, out, _ = runCapture(t, "freeze", "--journal", filepath.Join(ratings, "bundle-ann.journal.jsonl"), "--bundle", filepath.Join(ratings, "bundle-ann.json"),
		"--allowed-signers", filepath.Join(ratings, "allowed_signers"), "--key", filepath.Join(keys, "rater-ann"), "--name", "ann", "--out", filepath.Join(ratings, "sheet-ann.json"), "--format", "json")
	if ps := problemLines(t, "freeze over a sheet", out); code != 1 || ps[0]["reason"] != "record-exists" || ps[0]["file"] != filepath.Join(ratings, "sheet-ann.json") {
		t.Errorf("freeze over a sheet: exit %d, %v", code, ps)
	}
	// reveal before the adjudication exists.
	code, out, _ = runCapture(t, "reveal", "--sheet", filepath.Join(ratings, "sheet-ann.json"), "--sheet", filepath.Join(ratings, "sheet-bob.json"),
		"--adjudication", filepath.Join(dir, "none.json"), "--map", filepath.Join(ratings, "sealed-map.json"), "--allowed-signers", filepath.Join(ratings, "allowed_signers"),
		"--key", filepath.Join(keys, "coordinator-dee"), "--name", "dee", "--out", filepath.Join(dir, "reveal.json"), "--format", "json")
	if ps := problemLines(t, "reveal", out); code != 1 || ps[0]["reason"] != "record-missing" || ps[0]["file"] != filepath.Join(dir, "none.json") {
		t.Errorf("reveal without an adjudication: exit %d, %v", code, ps)
	}

	// check: the refusals of a refused campaign have the same members.
	broken := filepath.Join(dir, "broken")
	os.CopyFS(broken, os.DirFS(camp))
	os.WriteFile(filepath.Join(broken, "manifest.json"), []byte("{"), 0o644)
	code, out, _ = runCapture(t, "check", broken, "--format", "json")
	var chk struct {
		Refusals []map[string]any `json:"refusals"`
	}
	if err := json.Unmarshal([]byte(out), &chk); err != nil || len(chk.Refusals) == 0 {
		t.Fatalf("check: exit %d, %v\n%.500s", code, err, out)
	}
	problemOfMap(t, "check", chk.Refusals[0])
}

// TestScoreJSONRefusalsOneDocument (trial T14): `score --format json` with
// several refusals (both sheets changed after signing) prints one JSON
// document, an array with one problem object per refusal, that a JSON
// parser reads whole; a single refusal is an array of one.
func TestScoreJSONRefusalsOneDocument(t *testing.T) {
	camp, ratings, _ := demoChain(t)
	bad := filepath.Join(t.TempDir(), "bad")
	if err := os.CopyFS(bad, os.DirFS(ratings)); err != nil {
		t.Fatal(err)
	}
	appendFile(t, filepath.Join(bad, "sheet-ann.json"), " ")
	appendFile(t, filepath.Join(bad, "sheet-bob.json"), " ")
	code, out, _ := runCapture(t, "score", camp, "--ratings", bad, "--allowed-signers", filepath.Join(bad, "allowed_signers"), "--format", "json")
	ps := problemLines(t, "score with two changed sheets", out)
	var sigs int
	for _, p := range ps {
		if p["reason"] == "bad-signature" {
			sigs++
		}
	}
	if code != 1 || len(ps) < 2 || sigs != 2 {
		t.Fatalf("score: exit %d, %d refusals (%d bad-signature), want one document with both sheets refused\n%s", code, len(ps), sigs, out)
	}
	appendFile(t, filepath.Join(bad, "allowed_signers"), "not a signer line\n")
	code, out, _ = runCapture(t, "score", camp, "--ratings", bad, "--allowed-signers", filepath.Join(bad, "allowed_signers"), "--format", "json")
	if ps := problemLines(t, "score with a bad allowed_signers", out); code != 1 || len(ps) != 1 || !strings.HasPrefix(strings.TrimSpace(out), "[") {
		t.Fatalf("score with one refusal: exit %d, %v\n%s", code, ps, out)
	}
}
