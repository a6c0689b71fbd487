package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"verdict/campaign"
	"verdict/fixtures"
	"verdict/scorer"
)

// importFixture copies the embedded SYNTHETIC campaign, takes session id's
// response and receipt out of it and returns the campaign directory, the
// original response bytes and the decoded original receipt.
func importFixture(t *testing.T, id string) (string, []byte, campaign.Receipt) {
	t.Helper()
	camp := filepath.Join(t.TempDir(), "campaign")
	if err := os.CopyFS(camp, fixtures.Campaign()); err != nil {
		t.Fatal(err)
	}
	resp, err := os.ReadFile(filepath.Join(camp, "responses", id+".json"))
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(filepath.Join(camp, "receipts", id+".json"))
	var rc campaign.Receipt
	if err := json.Unmarshal(raw, &rc); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(camp, "responses", id+".json"))
	os.Remove(filepath.Join(camp, "receipts", id+".json"))
	return camp, resp, rc
}

// unbindSession removes session id's response and receipt from the
// SYNTHETIC campaign's manifest "files", as before its first import.
func unbindSession(t *testing.T, camp, id string) {
	t.Helper()
	mp := filepath.Join(camp, "manifest.json")
	raw, err := os.ReadFile(mp)
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		t.Fatal(err)
	}
	var keep []any
	for _, f := range m["files"].([]any) {
		if p := f.(map[string]any)["path"]; p != "responses/"+id+".json" && p != "receipts/"+id+".json" {
			keep = append(keep, f)
		}
	}
	m["files"] = keep
	out, _ := json.MarshalIndent(m, "", "  ")
	if err := os.WriteFile(mp, out, 0o644); err != nil {
		t.Fatal(err)
	}
}

// timingOf writes the runner timing file a receipt's values come from.
func timingOf(t *testing.T, rc campaign.Receipt, extra map[string]any) string {
	t.Helper()
	m := map[string]any{"session_id": rc.SessionID, "request_id": rc.RequestID, "started_utc": rc.StartedUTC, "ended_utc": rc.EndedUTC,
		"start_monotonic_ns": rc.StartMonotonicNS, "end_monotonic_ns": rc.EndMonotonicNS, "input_sha256": rc.InputSHA256,
		"input_bytes": rc.InputBytes, "host": rc.Host, "model": rc.Model, "permission_policy": rc.PermissionPolicy,
		"task_sha256": rc.TaskSHA256, "packet_sha256": rc.PacketSHA256, "validation_ns": rc.ValidationNS, "assembly_ns": rc.AssemblyNS}
	for k, v := range extra {
		m[k] = v
	}
	return writeTemp(t, "timing.json", m)
}

func writeTemp(t *testing.T, name string, v any) string {
	t.Helper()
	var b []byte
	switch x := v.(type) {
	case string:
		b = []byte(x)
	default:
		var err error
		if b, err = json.Marshal(v); err != nil {
			t.Fatal(err)
		}
	}
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// responsesLog is a SYNTHETIC Responses API response object whose final
// message is text (split over two output_text parts) and whose usage is the
// receipt's meter; tier is its service_tier.
func responsesLog(t *testing.T, text []byte, rc campaign.Receipt, tier string, inputDetails map[string]any) string {
	t.Helper()
	half := len(text) / 2
	m := rc.Meter
	if inputDetails == nil {
		inputDetails = map[string]any{}
	}
	inputDetails["cached_tokens"] = m.CachedInputTokens
	created := int64(0)
	if rc.StartedUTC != nil {
		at, err := time.Parse(time.RFC3339Nano, *rc.StartedUTC)
		if err != nil {
			t.Fatal(err)
		}
		created = at.Unix()
	}
	return writeTemp(t, "response.json", map[string]any{
		"id": "resp_synthetic_" + rc.SessionID, "object": "response", "created_at": created, "model": rc.Model, "status": "completed", "service_tier": tier,
		"output": []any{
			map[string]any{"type": "reasoning", "summary": []any{}},
			map[string]any{"type": "message", "role": "assistant", "content": []any{
				map[string]any{"type": "output_text", "text": string(text[:half])},
				map[string]any{"type": "output_text", "text": string(text[half:])}}},
		},
		"usage": map[string]any{"input_tokens": m.InputTokens, "input_tokens_details": inputDetails,
			"output_tokens": m.OutputTokens, "output_tokens_details": map[string]any{"reasoning_tokens": m.ReasoningTokens},
			"total_tokens": m.InputTokens + m.OutputTokens},
	})
}

// withoutResponseID is a receipt import wrote without its response_id
// member: the bytes of the receipt the fixture holds (made without a log).
func withoutResponseID(b []byte) []byte {
	return regexp.MustCompile(`,\n  "response_id": "[^"]*"`).ReplaceAll(b, nil)
}

// codexLog is a SYNTHETIC codex exec --json event stream whose final
// agent_message is text.
func codexLog(t *testing.T, text []byte, m *campaign.Meter, terminal string) string {
	t.Helper()
	lines := []any{
		map[string]any{"type": "thread.started", "thread_id": "synthetic-thread"},
		map[string]any{"type": "turn.started"},
		map[string]any{"type": "item.completed", "item": map[string]any{"id": "item_0", "type": "reasoning", "text": "SYNTHETIC reasoning summary"}},
		map[string]any{"type": "item.completed", "item": map[string]any{"id": "item_1", "type": "agent_message", "text": string(text)}},
	}
	switch terminal {
	case "turn.completed":
		lines = append(lines, map[string]any{"type": "turn.completed", "usage": map[string]any{
			"input_tokens": m.InputTokens, "cached_input_tokens": m.CachedInputTokens, "output_tokens": m.OutputTokens}})
	case "turn.failed":
		lines = append(lines, map[string]any{"type": "turn.failed", "error": map[string]any{"message": "SYNTHETIC stream error"}})
	}
	var b strings.Builder
	for _, l := range lines {
		j, _ := json.Marshal(l)
		b.Write(j)
		b.WriteByte('\n')
	}
	return writeTemp(t, "codex.jsonl", b.String())
}

// TestReceiptImportResponsesAPI: a Responses API log and the runner's
// timing file give back, byte for byte, the response and receipt the
// SYNTHETIC campaign holds (with the log's response ID recorded), and
// check admits the campaign again once it is bound.
func TestReceiptImportResponsesAPI(t *testing.T) {
	t.Parallel()
	camp, resp, rc := importFixture(t, "S1")
	unbindSession(t, camp, "S1")
	before, _ := os.ReadFile(filepath.Join("..", "..", "fixtures", "campaign", "receipts", "S1.json"))
	code, out := chkRunCaptured(t, "receipt", "import", camp, "--session", "S1", "--log-format", "responses-api-json",
		"--log", responsesLog(t, resp, rc, "default", nil), "--timing", timingOf(t, rc, nil))
	if code != 0 || !strings.Contains(out, "session S1: response") {
		t.Fatalf("exit %d\n%s", code, out)
	}
	gotResp, _ := os.ReadFile(filepath.Join(camp, "responses", "S1.json"))
	gotRc, _ := os.ReadFile(filepath.Join(camp, "receipts", "S1.json"))
	if string(gotResp) != string(resp) || string(withoutResponseID(gotRc)) != string(before) || !strings.Contains(string(gotRc), `"response_id": "resp_synthetic_S1"`) {
		t.Fatalf("imported files differ from the campaign's:\n%s\nwant\n%s", gotRc, before)
	}
	// Only the actual charge is unknown (the log has no billing).
	if !strings.Contains(out, "unknown (left null): 1\n  actual_charge_micro_usd") {
		t.Fatalf("unknowns:\n%s", out)
	}
	if code, out := chkRunCaptured(t, "manifest", camp); code != 0 {
		t.Fatalf("manifest: exit %d\n%s", code, out)
	}
	if code, out := chkRunCaptured(t, "check", camp); code != 0 {
		t.Fatalf("check: exit %d\n%s", code, out)
	}
	// Importing again leaves the same bytes; other bytes are refused.
	if code, out := chkRunCaptured(t, "receipt", "import", camp, "--session", "S1", "--log-format", "responses-api-json",
		"--log", responsesLog(t, resp, rc, "default", nil), "--timing", timingOf(t, rc, nil)); code != 0 || !strings.Contains(out, "unchanged receipts/S1.json") {
		t.Fatalf("again: exit %d\n%s", code, out)
	}
	if code, out := chkRunCaptured(t, "receipt", "import", camp, "--session", "S1", "--log-format", "responses-api-json",
		"--log", responsesLog(t, resp, rc, "default", nil), "--timing", timingOf(t, rc, map[string]any{"request_id": "another"})); code != 1 || !strings.Contains(out, "file-differs") {
		t.Fatalf("other bytes: exit %d\n%s", code, out)
	}
}

// TestReceiptImportCodexExec: the codex exec --json stream gives the exact
// final message, and since it reports no reasoning count the meter stays
// null and is listed; a failed turn is an error the importer does not
// classify.
func TestReceiptImportCodexExec(t *testing.T) {
	t.Parallel()
	camp, resp, rc := importFixture(t, "S1")
	unbindSession(t, camp, "S1")
	log, timing := codexLog(t, resp, rc.Meter, "turn.completed"), timingOf(t, rc, nil)
	// Admission would refuse the null meter: nothing is written, exit 1.
	code, out := chkRunCaptured(t, "receipt", "import", camp, "--session", "S1", "--log-format", "codex-exec-jsonl", "--log", log, "--timing", timing)
	if code != 1 || !strings.Contains(out, string(ReasonReceiptInadmissible)) || !strings.Contains(out, string(scorer.ReasonMeterIncomplete)) || !strings.Contains(out, "--keep-inadmissible") {
		t.Fatalf("inadmissible receipt: exit %d\n%s", code, out)
	}
	if _, err := os.Stat(filepath.Join(camp, "receipts", "S1.json")); err == nil {
		t.Fatal("an inadmissible receipt was written without --keep-inadmissible")
	}
	// --keep-inadmissible writes the record (evidence) and still exits 1.
	code, out = chkRunCaptured(t, "receipt", "import", camp, "--session", "S1", "--log-format", "codex-exec-jsonl", "--log", log, "--timing", timing, "--format", "json", "--keep-inadmissible")
	if code != 1 {
		t.Fatalf("exit %d\n%s", code, out)
	}
	var rep receiptImportReport
	json.Unmarshal([]byte(out[:strings.LastIndex(out, "}")+1]), &rep)
	if rep.Status != "response" || len(rep.Unknown) != 2 || !strings.Contains(rep.Unknown[0], "meter: the log does not report reasoning tokens") ||
		len(rep.Inadmissible) == 0 || rep.Inadmissible[0].Reason != scorer.ReasonMeterIncomplete {
		t.Fatalf("%s", out)
	}
	gotResp, _ := os.ReadFile(filepath.Join(camp, "responses", "S1.json"))
	raw, _ := os.ReadFile(filepath.Join(camp, "receipts", "S1.json"))
	got, err := campaign.DecodeReceipt(raw, "receipts/S1.json")
	if err != nil || string(gotResp) != string(resp) || got.Meter != nil || *got.OutputSHA256 != *rc.OutputSHA256 {
		t.Fatalf("receipt %+v, %v", got, err)
	}
	// A failed turn: status error, no response, error_kind left to the
	// coordinator, which admission refuses (error-kind-missing): kept only
	// with --keep-inadmissible.
	camp2, resp2, rc2 := importFixture(t, "S2")
	unbindSession(t, camp2, "S2")
	code, out = chkRunCaptured(t, "receipt", "import", camp2, "--session", "S2", "--log-format", "codex-exec-jsonl", "--log", codexLog(t, resp2, rc2.Meter, "turn.failed"), "--timing", timingOf(t, rc2, nil))
	if code != 1 || !strings.Contains(out, string(scorer.ReasonErrorKindMissing)) {
		t.Fatalf("failed turn without an error kind: exit %d\n%s", code, out)
	}
	code, out = chkRunCaptured(t, "receipt", "import", camp2, "--session", "S2", "--log-format", "codex-exec-jsonl", "--log", codexLog(t, resp2, rc2.Meter, "turn.failed"), "--timing", timingOf(t, rc2, nil), "--keep-inadmissible")
	raw, _ = os.ReadFile(filepath.Join(camp2, "receipts", "S2.json"))
	got, _ = campaign.DecodeReceipt(raw, "receipts/S2.json")
	if code != 1 || !strings.Contains(out, "INADMISSIBLE: "+string(scorer.ReasonErrorKindMissing)) || got == nil || got.Status != campaign.StatusError || got.ErrorKind != nil || got.OutputSHA256 != nil || !strings.Contains(out, "error_kind: the log does not classify") {
		t.Fatalf("failed turn: exit %d\n%s", code, out)
	}
	if _, err := os.Stat(filepath.Join(camp2, "responses", "S2.json")); err == nil {
		t.Fatal("a failed turn wrote a response file")
	}
	os.Remove(filepath.Join(camp2, "receipts", "S2.json"))
	if code, out = chkRunCaptured(t, "receipt", "import", camp2, "--session", "S2", "--log-format", "codex-exec-jsonl", "--log", codexLog(t, resp2, rc2.Meter, "turn.failed"),
		"--timing", timingOf(t, rc2, nil), "--error-kind", "model_timeout", "--keep-inadmissible"); code != 1 || strings.Contains(out, string(scorer.ReasonErrorKindMissing)) {
		t.Fatalf("with --error-kind: exit %d\n%s", code, out)
	}
	raw, _ = os.ReadFile(filepath.Join(camp2, "receipts", "S2.json"))
	if got, _ = campaign.DecodeReceipt(raw, "receipts/S2.json"); got == nil || got.ErrorKind == nil || *got.ErrorKind != campaign.ErrorTimeout {
		t.Fatalf("error kind not recorded: %s", raw)
	}
}

// TestReceiptImportPricedModifier: a log reporting a Fast (priority)
// service tier and cache-write tokens is recorded in priced_modifiers,
// never priced; import says before writing that admission refuses it
// (unsupported-modifier), keeps it with --keep-inadmissible, and check
// then refuses it at admission.
func TestReceiptImportPricedModifier(t *testing.T) {
	t.Parallel()
	camp, resp, rc := importFixture(t, "S1")
	unbindSession(t, camp, "S1")
	args := []string{"receipt", "import", camp, "--session", "S1", "--log-format", "responses-api-json",
		"--log", responsesLog(t, resp, rc, "priority", map[string]any{"cache_write_tokens": 12}), "--timing", timingOf(t, rc, nil)}
	if code, out := chkRunCaptured(t, args...); code != 1 || !strings.Contains(out, string(scorer.ReasonUnsupportedModifier)) {
		t.Fatalf("exit %d\n%s", code, out)
	}
	code, out := chkRunCaptured(t, append(args, "--keep-inadmissible")...)
	if code != 1 || !strings.Contains(out, "priced modifier /service_tier=priority") || !strings.Contains(out, "INADMISSIBLE: "+string(scorer.ReasonUnsupportedModifier)) {
		t.Fatalf("exit %d\n%s", code, out)
	}
	raw, _ := os.ReadFile(filepath.Join(camp, "receipts", "S1.json"))
	got, _ := campaign.DecodeReceipt(raw, "receipts/S1.json")
	if got == nil || strings.Join(got.PricedModifiers, " ") != "/service_tier=priority /usage/input_tokens_details/cache_write_tokens=12" {
		t.Fatalf("priced_modifiers: %s", raw)
	}
	if code, out := chkRunCaptured(t, "manifest", camp); code != 0 || !strings.Contains(out, "added   receipts/S1.json") {
		t.Fatalf("manifest: exit %d\n%s", code, out)
	}
	if code, out := chkRunCaptured(t, "check", camp); code != 1 || !strings.Contains(out, "unsupported-modifier") {
		t.Fatalf("check: exit %d\n%s", code, out)
	}
}

// TestReceiptImportRefusals: an unknown session, an error kind for a
// completed turn, contradictory counts, a timing file for another session,
// and usage errors (among them a missing --log-format: there is no default,
// and the error lists both formats and which can be admitted).
func TestReceiptImportRefusals(t *testing.T) {
	t.Parallel()
	camp, resp, rc := importFixture(t, "S1")
	log := responsesLog(t, resp, rc, "default", nil)
	timing := timingOf(t, rc, nil)
	bad := *rc.Meter
	bad.CachedInputTokens = bad.InputTokens + 1
	for _, tc := range []struct {
		name   string
		args   []string
		code   int
		reason string
	}{
		{"unknown session", []string{"--session", "S9999", "--log-format", "responses-api-json", "--log", log, "--timing", timing}, 1, "session-unknown"},
		{"error kind for a completed turn", []string{"--session", "S1", "--log-format", "responses-api-json", "--log", log, "--timing", timing, "--error-kind", "refusal"}, 1, "log-inconsistent"},
		{"cached above input", []string{"--session", "S1", "--log-format", "codex-exec-jsonl", "--log", codexLog(t, resp, &bad, "turn.completed"), "--timing", timing}, 1, "log-inconsistent"},
		{"timing of another session", []string{"--session", "S1", "--log-format", "responses-api-json", "--log", log, "--timing", timingOf(t, rc, map[string]any{"session_id": "S2"})}, 1, "timing-malformed"},
		{"timing without validation_ns", []string{"--session", "S1", "--log-format", "responses-api-json", "--log", log, "--timing", timingOf(t, rc, map[string]any{"validation_ns": nil})}, 1, "timing-malformed"},
		{"unknown timing member", []string{"--session", "S1", "--log-format", "responses-api-json", "--log", log, "--timing", timingOf(t, rc, map[string]any{"extra": 1})}, 1, "timing-malformed"},
		{"not a response object", []string{"--session", "S1", "--log-format", "responses-api-json", "--log", timing, "--timing", timing}, 1, "log-malformed"},
		{"unknown log format", []string{"--session", "S1", "--log-format", "other", "--log", log, "--timing", timing}, 2, ""},
		{"no log format", []string{"--session", "S1", "--log", log, "--timing", timing}, 2, "--log-format is required; give the format of --log:\n  responses-api-json "},
		{"bad error kind", []string{"--session", "S1", "--log", log, "--timing", timing, "--error-kind", "shrug"}, 2, ""},
	} {
		code, out, errs := runCLI(t, append([]string{"receipt", "import", camp}, tc.args...)...)
		out += errs
		if code != tc.code || !strings.Contains(out, tc.reason) {
			t.Errorf("%s: exit %d, want %d with %q\n%s", tc.name, code, tc.code, tc.reason, out)
		}
	}
	for _, p := range []string{"responses/S1.json", "receipts/S1.json"} {
		if _, err := os.Stat(filepath.Join(camp, p)); err == nil {
			t.Errorf("a refused import wrote %s", p)
		}
	}
}
