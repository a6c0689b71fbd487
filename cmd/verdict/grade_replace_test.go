package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"verdict/adjudication"
)

// TestGradeFromNeverReplacesSilently: a grades file run over a journal
// that already holds grades (as the rating screen leaves it) never
// replaces a grade without being asked: the same value is left as it is,
// without counting its time again; a grade without a note keeps the
// journal's note; a different value or note is refused (grade-conflict,
// naming the grade and field) with nothing written; --replace replaces and
// says how many, without adding time.
func TestGradeFromNeverReplacesSilently(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bundle, b := gradeTestBundle(t, dir)
	it := b.Items[0]
	claim := it.Final.Claims[0].ID
	journal := filepath.Join(dir, "j.jsonl")
	write := func(name string, gs ...gradeInput) string {
		data, _ := json.Marshal(gs)
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	first := gradeInput{Item: it.ID, Kind: adjudication.KindClaim, Target: claim, Value: "supported", Note: "lines 3-9 say it", SpentMS: 60000}
	mustRun(t, 0, "grade", bundle, "--journal", journal, "--from", write("first.json", first))
	state := func() (adjudication.Grade, time.Duration) {
		t.Helper()
		j, err := adjudication.Open(journal, b)
		if err != nil {
			t.Fatal(err)
		}
		defer j.Close()
		cur, spent := j.Saved()
		return cur[adjudication.Field{Item: it.ID, Kind: adjudication.KindClaim, Target: claim}], spent[it.ID]
	}
	// The same value again, without a note and with time: nothing written,
	// the note kept, the time not counted twice.
	before, _ := os.ReadFile(journal)
	same := gradeInput{Item: it.ID, Kind: adjudication.KindClaim, Target: claim, Value: "supported", SpentMS: 60000}
	code, out, _ := runCapture(t, "grade", bundle, "--journal", journal, "--from", write("same.json", same), "--format", "json")
	var rep struct {
		Saved, Unchanged, NotesKept, TimeNotCounted, Replaced int
	}
	json.Unmarshal([]byte(strings.NewReplacer("notes_kept", "NotesKept", "time_not_counted", "TimeNotCounted").Replace(out)), &rep)
	if code != 0 || rep.Saved != 0 || rep.Unchanged != 1 || rep.NotesKept != 1 || rep.TimeNotCounted != 1 {
		t.Errorf("same value again: exit %d %+v\n%s", code, rep, out)
	}
	if after, _ := os.ReadFile(journal); string(after) != string(before) {
		t.Error("the same value again was written to the journal")
	}
	if g, spent := state(); g.Note != first.Note || spent != time.Minute {
		t.Errorf("after the same value again: note %q, time %v; want %q and 1m0s", g.Note, spent, first.Note)
	}
	// Another value: refused, naming the field; nothing written.
	other := gradeInput{Item: it.ID, Kind: adjudication.KindClaim, Target: claim, Value: "wrong", SpentMS: 1000}
	code, out, _ = runCapture(t, "grade", bundle, "--journal", journal, "--from", write("other.json", other))
	if code != 1 || !strings.Contains(out, "grade-conflict") || !strings.Contains(out, "#/0/value") || !strings.Contains(out, it.ID+" claim "+claim) ||
		!strings.Contains(out, `"wrong" differs from "supported"`) {
		t.Errorf("another value without --replace: exit %d\n%s", code, out)
	}
	// Another note on the same value: refused too (a note is never dropped).
	renote := gradeInput{Item: it.ID, Kind: adjudication.KindClaim, Target: claim, Value: "supported", Note: "on second thought"}
	if code, out, _ = runCapture(t, "grade", bundle, "--journal", journal, "--from", write("renote.json", renote)); code != 1 || !strings.Contains(out, "#/0/note: grade-conflict") {
		t.Errorf("another note without --replace: exit %d\n%s", code, out)
	}
	if after, _ := os.ReadFile(journal); string(after) != string(before) {
		t.Error("a refused conflict wrote to the journal")
	}
	// --replace: replaced and said so, the note kept, no time added.
	code, out, _ = runCapture(t, "grade", bundle, "--journal", journal, "--from", filepath.Join(dir, "other.json"), "--replace")
	if code != 0 || !strings.Contains(out, "replaced 1 grade the journal already held") {
		t.Errorf("--replace: exit %d\n%s", code, out)
	}
	if g, spent := state(); g.Value != "wrong" || g.Note != first.Note || spent != time.Minute {
		t.Errorf("after --replace: %q note %q time %v; want wrong, %q, 1m0s", g.Value, g.Note, spent, first.Note)
	}
}

// TestGradeTemplateShowsWhatIsJudged: every entry of `grade --template`
// carries what the rater judges (the codebook question and the obligation,
// claim, citation lines or exclusion) and every allowed value with its
// codebook definition; a filled template whose judged text was changed
// (a template of another bundle) is refused (template-mismatch).
func TestGradeTemplateShowsWhatIsJudged(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bundle, _ := gradeTestBundle(t, dir)
	code, out := chkRunCaptured(t, "grade", bundle, "--template")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, out)
	}
	var tpl []gradeInput
	if err := json.Unmarshal([]byte(out), &tpl); err != nil {
		t.Fatal(err)
	}
	kinds := map[adjudication.Kind]bool{}
	for _, e := range tpl {
		kinds[e.Kind] = true
		j := e.Judge
		if j == nil || j.Question != adjudication.Codebook[e.Kind].Question {
			t.Fatalf("%s %s %s: no judge with the codebook question: %+v", e.Item, e.Kind, e.Target, j)
		}
		switch e.Kind {
		case adjudication.KindObligation, adjudication.KindUncertainty:
			if j.Obligation == nil || j.Obligation.ID != e.Target || j.Obligation.Text == "" {
				t.Errorf("%s %s: obligation not shown: %+v", e.Kind, e.Target, j)
			}
		case adjudication.KindClaim, adjudication.KindClaimCritical:
			if j.Claim == nil || j.Claim.ID != e.Target || j.Claim.Text == "" {
				t.Errorf("%s %s: claim not shown: %+v", e.Kind, e.Target, j)
			}
		case adjudication.KindCitation:
			if j.Citation == nil || len(j.Citation.Lines) != j.Citation.EndLine-j.Citation.StartLine+1 || len(j.Citation.Supported) != len(j.Citation.Supports) {
				t.Errorf("%s %s: citation lines or supported statements missing: %+v", e.Kind, e.Target, j.Citation)
			}
		case adjudication.KindExclusion:
			if j.Exclusion == nil || j.Exclusion.Reason == "" {
				t.Errorf("%s %s: exclusion reason missing: %+v", e.Kind, e.Target, j)
			}
		}
		vals := adjudication.AllowedValues(e.Kind)
		if len(e.Allowed) != len(vals) {
			t.Fatalf("%s: allowed %+v, want %v", e.Kind, e.Allowed, vals)
		}
		for i, a := range e.Allowed {
			if a.Value != vals[i] || a.Definition != adjudication.Codebook[e.Kind].Values[i] {
				t.Errorf("%s: allowed %d = %+v, want %s with its codebook definition", e.Kind, i, a, vals[i])
			}
		}
	}
	for _, k := range []adjudication.Kind{adjudication.KindObligation, adjudication.KindClaim, adjudication.KindCitation, adjudication.KindCompleteness} {
		if !kinds[k] {
			t.Errorf("the test bundle has no %s field", k)
		}
	}
	for i := range tpl {
		tpl[i].Value = adjudication.AllowedValues(tpl[i].Kind)[0]
	}
	tpl[0].Judge.Question = "Is this the other bundle?"
	bad, _ := json.Marshal(tpl)
	from := filepath.Join(dir, "bad.json")
	os.WriteFile(from, bad, 0o600)
	journal := filepath.Join(dir, "j.jsonl")
	if code, out := chkRunCaptured(t, "grade", bundle, "--journal", journal, "--from", from); code != 1 || !strings.Contains(out, "#/0/judge: template-mismatch") {
		t.Errorf("a template whose judged text changed: exit %d\n%s", code, out)
	}
	if _, err := os.Stat(journal); err == nil {
		t.Error("a journal was written for a mismatched template")
	}
	// verdict help grade and the docs carry the codebook, word for word.
	_, help, _ := runCapture(t, "help", "grade")
	docs, err := os.ReadFile("../../docs/campaign-format.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range adjudication.Kinds {
		for _, d := range adjudication.Codebook[k].Values {
			if !strings.Contains(help, d) {
				t.Errorf("verdict help grade lacks the definition %q", d)
			}
			if !strings.Contains(string(docs), d) {
				t.Errorf("docs/campaign-format.md lacks the definition %q (copy it from verdict help grade)", d)
			}
		}
	}
}
