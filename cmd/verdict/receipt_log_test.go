package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestImportLogShapes: receipt import reads a Responses API log by what
// it is known to hold. A log without its identity (id, created_at), a
// content part of an unknown type, a message of role "user" among the
// output, a service tier that does not say which tier served it ("auto",
// "") and a cache write spelled cached_write_tokens are refused, each
// naming the JSON pointer, and nothing is written; a refusal part and an
// incomplete response are recorded as what they are: an error of the
// kind the log states, whose output is kept (CONTRACT §5, C16).
func TestImportLogShapes(t *testing.T) {
	t.Parallel()
	camp, resps, rcs := plannedSessions(t, "S4", "S5", "S6")
	base := responsesLog(t, resps["S4"], rcs["S4"], "default", nil)
	timing := timingOf(t, rcs["S4"], nil)
	msg := func(m map[string]any) map[string]any { return m["output"].([]any)[1].(map[string]any) }
	for _, tc := range []struct {
		name  string
		edit  func(m map[string]any)
		wants []string
	}{
		{"no id", func(m map[string]any) { delete(m, "id") }, []string{"#/id: log-malformed", "no id"}},
		{"a null id", func(m map[string]any) { m["id"] = nil }, []string{"#/id: log-malformed"}},
		{"no created_at", func(m map[string]any) { delete(m, "created_at") }, []string{"#/created_at: log-malformed", "no created_at"}},
		{"an unknown content part", func(m map[string]any) {
			msg(m)["content"] = append(msg(m)["content"].([]any), map[string]any{"type": "output_audio", "transcript": "SYNTHETIC"})
		}, []string{"#/output/1/content/2/type: log-content-unknown", `"output_audio"`}},
		{"a user message", func(m map[string]any) { msg(m)["role"] = "user" }, []string{"#/output/1/role: log-role-unexpected", `role "user"`}},
		{"service tier auto", func(m map[string]any) { m["service_tier"] = "auto" }, []string{"receipt-inadmissible", "unsupported-modifier", "/service_tier=auto"}},
		{"an empty service tier", func(m map[string]any) { m["service_tier"] = "" }, []string{"unsupported-modifier", `/service_tier=""`}},
		{"a null service tier", func(m map[string]any) { m["service_tier"] = nil }, []string{"unsupported-modifier", "/service_tier=null"}},
		{"cached_write_tokens", func(m map[string]any) {
			m["usage"].(map[string]any)["input_tokens_details"].(map[string]any)["cached_write_tokens"] = 5
		}, []string{"unsupported-modifier", "/usage/input_tokens_details/cached_write_tokens=5"}},
		{"incomplete for another reason", func(m map[string]any) {
			m["status"], m["incomplete_details"] = "incomplete", map[string]any{"reason": "SYNTHETIC-reason"}
		}, []string{"#/error_kind: error-kind-missing"}},
	} {
		code, out := importSession(t, camp, "S4", editedLog(t, base, tc.edit), timing)
		for _, w := range tc.wants {
			if code != 1 || !strings.Contains(out, w) {
				t.Errorf("%s: exit %d, want 1 with %q\n%s", tc.name, code, w, out)
			}
		}
		for _, f := range []string{"responses/S4.json", "receipts/S4.json"} {
			if _, err := os.Stat(filepath.Join(camp, f)); err == nil {
				t.Fatalf("%s: a refused import wrote %s", tc.name, f)
			}
		}
	}
	// An answer cut short is recorded as the log says: budget exhaustion,
	// the partial output kept; a coordinator's other kind contradicts it.
	cut := editedLog(t, base, func(m map[string]any) {
		m["status"], m["incomplete_details"] = "incomplete", map[string]any{"reason": "max_output_tokens"}
		msg(m)["content"] = []any{map[string]any{"type": "output_text", "text": "SYNTHETIC partial answer"}}
	})
	if code, out := importSession(t, camp, "S4", cut, timing, "--error-kind", "model_timeout"); code != 1 || !strings.Contains(out, "log-inconsistent") {
		t.Fatalf("incomplete with another --error-kind: exit %d\n%s", code, out)
	}
	if code, out := importSession(t, camp, "S4", cut, timing); code != 0 || !strings.Contains(out, "session S4: error") || !strings.Contains(out, "error_kind budget_exhausted") {
		t.Fatalf("incomplete (max_output_tokens): exit %d\n%s", code, out)
	}
	rc := readReceipt(t, camp, "S4")
	got, _ := os.ReadFile(filepath.Join(camp, "responses", "S4.json"))
	if rc.Status != "error" || rc.ErrorKind == nil || *rc.ErrorKind != "budget_exhausted" || string(got) != "SYNTHETIC partial answer" || rc.OutputBytes == nil {
		t.Fatalf("incomplete: receipt %+v, response %q", rc, got)
	}

	// A refusal part: the model refused; the refusal's words are its raw
	// output, and the receipt says refusal.
	camp, resps, rcs = plannedSessions(t, "S4", "S5", "S6")
	refused := editedLog(t, responsesLog(t, resps["S4"], rcs["S4"], "default", nil), func(m map[string]any) {
		msg(m)["content"] = []any{map[string]any{"type": "refusal", "refusal": "SYNTHETIC: I cannot help with that."}}
	})
	if code, out := importSession(t, camp, "S4", refused, timingOf(t, rcs["S4"], nil)); code != 0 || !strings.Contains(out, "the model refused: SYNTHETIC") {
		t.Fatalf("refusal: exit %d\n%s", code, out)
	}
	rc = readReceipt(t, camp, "S4")
	got, _ = os.ReadFile(filepath.Join(camp, "responses", "S4.json"))
	if rc.Status != "error" || rc.ErrorKind == nil || *rc.ErrorKind != "refusal" || string(got) != "SYNTHETIC: I cannot help with that." {
		t.Fatalf("refusal: receipt %+v, response %q", rc, got)
	}
}

// TestImportCodexLogIdentity: a codex exec event stream is tied to its
// session by its thread ID, as a Responses API log is by its id: a stream
// without thread.started, with an empty thread_id, or with a second
// thread is refused log-malformed naming the line, and nothing is written.
func TestImportCodexLogIdentity(t *testing.T) {
	t.Parallel()
	camp, resps, rcs := plannedSessions(t, "S4", "S5", "S6")
	good, err := os.ReadFile(codexLog(t, resps["S4"], rcs["S4"].Meter, "turn.completed"))
	if err != nil {
		t.Fatal(err)
	}
	started := `{"thread_id":"synthetic-thread","type":"thread.started"}` + "\n"
	if !strings.Contains(string(good), started) {
		t.Fatalf("the SYNTHETIC codex log has no %q:\n%s", started, good)
	}
	timing := timingOf(t, rcs["S4"], nil)
	for _, tc := range []struct{ name, log, want string }{
		{"no thread.started", strings.Replace(string(good), started, "", 1), "#/0: log-malformed"},
		{"an empty thread_id", strings.Replace(string(good), `"thread_id":"synthetic-thread"`, `"thread_id":""`, 1), "#/0: log-malformed"},
		{"a second thread", strings.Replace(string(good), started, started+`{"thread_id":"other-thread","type":"thread.started"}`+"\n", 1), "#/1: log-malformed"},
	} {
		code, out, errs := runCLI(t, "receipt", "import", camp, "--session", "S4", "--log-format", "codex-exec-jsonl",
			"--log", writeTemp(t, "codex.jsonl", tc.log), "--timing", timing)
		if code != 1 || !strings.Contains(out+errs, tc.want) {
			t.Errorf("%s: exit %d, want 1 with %q\n%s%s", tc.name, code, tc.want, out, errs)
		}
		for _, f := range []string{"responses/S4.json", "receipts/S4.json"} {
			if _, err := os.Stat(filepath.Join(camp, f)); err == nil {
				t.Fatalf("%s: a refused import wrote %s", tc.name, f)
			}
		}
	}
	if code, out, errs := runCLI(t, "receipt", "import", camp, "--session", "S4", "--log-format", "codex-exec-jsonl",
		"--log", writeTemp(t, "codex.jsonl", string(good)), "--timing", timing); strings.Contains(out+errs, "log-malformed") {
		t.Fatalf("the whole log is refused as malformed: exit %d\n%s%s", code, out, errs)
	}
}
