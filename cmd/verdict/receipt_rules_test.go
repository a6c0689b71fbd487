package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"verdict/campaign"
)

// plannedSessions copies the SYNTHETIC campaign with the given sessions
// taken out and unbound (planned, as before they ran), and returns the
// campaign directory with each session's original response and receipt.
func plannedSessions(t *testing.T, ids ...string) (string, map[string][]byte, map[string]campaign.Receipt) {
	t.Helper()
	camp, resp, rc := importFixture(t, ids[0])
	resps, rcs := map[string][]byte{ids[0]: resp}, map[string]campaign.Receipt{ids[0]: rc}
	for _, id := range ids[1:] {
		resps[id], _ = os.ReadFile(filepath.Join(camp, "responses", id+".json"))
		raw, _ := os.ReadFile(filepath.Join(camp, "receipts", id+".json"))
		var r campaign.Receipt
		if err := json.Unmarshal(raw, &r); err != nil {
			t.Fatal(err)
		}
		rcs[id] = r
		os.Remove(filepath.Join(camp, "responses", id+".json"))
		os.Remove(filepath.Join(camp, "receipts", id+".json"))
	}
	for _, id := range ids {
		unbindSession(t, camp, id)
	}
	return camp, resps, rcs
}

// editedLog rewrites the SYNTHETIC log file at path (one JSON object) with
// edit applied to its decoded members.
func editedLog(t *testing.T, path string, edit func(m map[string]any)) string {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	edit(m)
	return writeTemp(t, "response.json", m)
}

// importSession runs receipt import of one session from a Responses API
// log and timing file.
func importSession(t *testing.T, camp, id, log, timing string, extra ...string) (int, string) {
	t.Helper()
	code, out, errs := runCLI(t, append([]string{"receipt", "import", camp, "--session", id, "--log-format", "responses-api-json", "--log", log, "--timing", timing}, extra...)...)
	return code, out + errs
}

// shifted is rc with its UTC start and end moved to start at at (its
// duration kept, so the monotonic readings still agree).
func shifted(rc campaign.Receipt, at time.Time) map[string]any {
	st, _ := time.Parse(time.RFC3339Nano, *rc.StartedUTC)
	en, _ := time.Parse(time.RFC3339Nano, *rc.EndedUTC)
	return map[string]any{"started_utc": at.UTC().Format(time.RFC3339Nano), "ended_utc": at.Add(en.Sub(st)).UTC().Format(time.RFC3339Nano)}
}

// TestImportDecidesWhatItCan: receipt import decides every rule whose
// inputs are present, also while a sibling of the session is still
// planned: a host other than the manifest's, and an overlap with a session
// of another run, are refused at import (before, both were deferred
// while a sibling was planned and the import exited 0, leaving a receipt
// check then refused). What needs a planned sibling still waits: the arm
// declared second may be imported before the first.
func TestImportDecidesWhatItCan(t *testing.T) {
	t.Parallel()
	// T2 r1 runs A-first: S4 draft, S5 review A, S6 review B.
	camp, resps, rcs := plannedSessions(t, "S4", "S5", "S6")
	log := func(id string) string { return responsesLog(t, resps[id], rcs[id], "default", nil) }
	// logAt is id's log created when the moved timing starts: the log is
	// the session's own, only its recorded times are moved.
	logAt := func(id string, timing map[string]any) string {
		at, ok := timing["started_utc"].(string)
		if !ok {
			return log(id)
		}
		st, _ := time.Parse(time.RFC3339Nano, at)
		return editedLog(t, log(id), func(m map[string]any) { m["created_at"] = st.Unix() })
	}
	s1 := readReceipt(t, camp, "S1")
	s1Start, _ := time.Parse(time.RFC3339Nano, *s1.StartedUTC)
	for _, tc := range []struct {
		name, id string
		timing   map[string]any
		reason   string
	}{
		{"draft on another host, both reviews planned", "S4", map[string]any{"host": "SYNTHETIC other host"}, "host-mismatch"},
		{"draft overlapping S1 of another run, both reviews planned", "S4", shifted(rcs["S4"], s1Start.Add(time.Second)), "sessions-overlap"},
	} {
		code, out := importSession(t, camp, tc.id, logAt(tc.id, tc.timing), timingOf(t, rcs[tc.id], tc.timing))
		if code != 1 || !strings.Contains(out, "receipt-inadmissible") || !strings.Contains(out, tc.reason) {
			t.Errorf("%s: exit %d, want 1 with %s\n%s", tc.name, code, tc.reason, out)
		}
		if _, err := os.Stat(filepath.Join(camp, "receipts", tc.id+".json")); err == nil {
			t.Fatalf("%s: a refused import wrote its receipt", tc.name)
		}
	}
	if code, out := importSession(t, camp, "S4", log("S4"), timingOf(t, rcs["S4"], nil)); code != 0 {
		t.Fatalf("draft: exit %d\n%s", code, out)
	}
	// Review B (declared second) before review A: the order waits for A.
	// Its host does not: it is decided with A still planned.
	if code, out := importSession(t, camp, "S6", log("S6"), timingOf(t, rcs["S6"], map[string]any{"host": "SYNTHETIC other host"})); code != 1 || !strings.Contains(out, "host-mismatch") {
		t.Fatalf("review B on another host, review A planned: exit %d\n%s", code, out)
	}
	if code, out := importSession(t, camp, "S6", log("S6"), timingOf(t, rcs["S6"], nil)); code != 0 {
		t.Fatalf("review B before review A: exit %d\n%s", code, out)
	}
	// Review A overlapping review B, which ran: decided (the overlap is
	// reported on whichever started later, and refuses this import).
	s6Start, _ := time.Parse(time.RFC3339Nano, *rcs["S6"].StartedUTC)
	moved := shifted(rcs["S5"], s6Start.Add(-time.Second))
	if code, out := importSession(t, camp, "S5", logAt("S5", moved), timingOf(t, rcs["S5"], moved)); code != 1 || !strings.Contains(out, "sessions-overlap") {
		t.Fatalf("review A overlapping review B: exit %d\n%s", code, out)
	}
	if code, out := importSession(t, camp, "S5", log("S5"), timingOf(t, rcs["S5"], nil)); code != 0 {
		t.Fatalf("review A: exit %d\n%s", code, out)
	}
	if code, out := chkRunCaptured(t, "manifest", camp); code != 0 {
		t.Fatalf("manifest: exit %d\n%s", code, out)
	}
	if code, out := chkRunCaptured(t, "check", camp); code != 0 {
		t.Fatalf("check: exit %d\n%s", code, out)
	}
}

// readReceipt decodes receipts/id.json of camp.
func readReceipt(t *testing.T, camp, id string) campaign.Receipt {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(camp, "receipts", id+".json"))
	if err != nil {
		t.Fatal(err)
	}
	r, err := campaign.DecodeReceipt(raw, "receipts/"+id+".json")
	if err != nil {
		t.Fatal(err)
	}
	return *r
}

// TestImportRefusesAnotherSessionsLog: import records the log's own
// response ID and model and compares them with the timing file, the
// manifest and every other receipt: the log of S4 given for S5 is refused
// by its creation time, by the response ID the timing file records, by
// the response ID S4's receipt already holds; a model other than the
// timing file's or the manifest's is refused.
func TestImportRefusesAnotherSessionsLog(t *testing.T) {
	t.Parallel()
	camp, resps, rcs := plannedSessions(t, "S4", "S5", "S6")
	s4Log := responsesLog(t, resps["S4"], rcs["S4"], "default", nil)
	s4Start, _ := time.Parse(time.RFC3339Nano, *rcs["S4"].StartedUTC)
	if code, out := importSession(t, camp, "S4", editedLog(t, s4Log, func(m map[string]any) { m["created_at"] = s4Start.Unix() }),
		timingOf(t, rcs["S4"], map[string]any{"response_id": "resp_synthetic_S4"})); code != 0 {
		t.Fatalf("S4 with its own log: exit %d\n%s", code, out)
	}
	if got := readReceipt(t, camp, "S4"); got.ResponseID != "resp_synthetic_S4" || got.Model == nil || *got.Model != *rcs["S4"].Model {
		t.Fatalf("the receipt does not record the log's response ID and model: %+v", got)
	}
	s5Log := responsesLog(t, resps["S5"], rcs["S5"], "default", nil)
	for _, tc := range []struct {
		name        string
		log         string
		timing      map[string]any
		reason, why string
	}{
		{"S4's log (created at S4's start) for S5", editedLog(t, s4Log, func(m map[string]any) { m["created_at"] = s4Start.Unix() }), nil,
			"log-identity-mismatch", "/created_at"},
		{"S4's log for S5 whose timing file records S5's response ID", s4Log, map[string]any{"response_id": "resp_synthetic_S5"},
			"log-identity-mismatch", `its response ID is "resp_synthetic_S4"`},
		{"S4's log for S5 (created within S5's times), nothing in the timing file to tell", editedLog(t, s4Log, func(m map[string]any) {
			st, _ := time.Parse(time.RFC3339Nano, *rcs["S5"].StartedUTC)
			m["created_at"] = st.Unix()
		}), nil,
			"response-id-reused", `response ID "resp_synthetic_S4" is also the response ID of session S4`},
		{"the log's model is not the timing file's", s5Log, map[string]any{"model": "SYNTHETIC-other-model"},
			"log-identity-mismatch", "SYNTHETIC-other-model"},
		{"the log's model is not the manifest's", editedLog(t, s5Log, func(m map[string]any) { m["model"] = "SYNTHETIC-other-model" }), map[string]any{"model": nil},
			"wrong-model", "delivered model SYNTHETIC-other-model"},
	} {
		code, out := importSession(t, camp, "S5", tc.log, timingOf(t, rcs["S5"], tc.timing))
		if code != 1 || !strings.Contains(out, tc.reason) || !strings.Contains(out, tc.why) {
			t.Errorf("%s: exit %d, want 1 with %s (%s)\n%s", tc.name, code, tc.reason, tc.why, out)
		}
		if _, err := os.Stat(filepath.Join(camp, "receipts", "S5.json")); err == nil {
			t.Fatalf("%s: a refused import wrote its receipt", tc.name)
		}
	}
	if code, out := importSession(t, camp, "S5", editedLog(t, s5Log, func(m map[string]any) {
		st, _ := time.Parse(time.RFC3339Nano, *rcs["S5"].StartedUTC)
		m["created_at"] = st.Unix()
	}), timingOf(t, rcs["S5"], map[string]any{"response_id": "resp_synthetic_S5"})); code != 0 {
		t.Fatalf("S5 with its own log: exit %d\n%s", code, out)
	}
}

// TestImportCacheWriteShapes: a cache write is recorded in priced_modifiers
// and refused at admission in every documented shape and at any depth of
// the log (a Responses API usage detail, Anthropic's cache_creation_*
// members and nested cache_creation object, camelCase and dotted names, a
// count given as a string, a cost, a codex usage member); a zero count is
// none; a negative one is a malformed log.
func TestImportCacheWriteShapes(t *testing.T) {
	t.Parallel()
	camp, resps, rcs := plannedSessions(t, "S1", "S2", "S3")
	base := responsesLog(t, resps["S1"], rcs["S1"], "default", nil)
	timing := timingOf(t, rcs["S1"], nil)
	usage := func(m map[string]any) map[string]any { return m["usage"].(map[string]any) }
	for _, tc := range []struct {
		name   string
		edit   func(m map[string]any)
		code   int
		reason string
		mod    string
	}{
		{"input_tokens_details.cache_write_tokens", func(m map[string]any) {
			usage(m)["input_tokens_details"].(map[string]any)["cache_write_tokens"] = 12
		}, 1, "unsupported-modifier", "/usage/input_tokens_details/cache_write_tokens=12"},
		{"cache_creation_input_tokens", func(m map[string]any) { usage(m)["cache_creation_input_tokens"] = 7 }, 1, "unsupported-modifier", "/usage/cache_creation_input_tokens=7"},
		{"nested cache_creation", func(m map[string]any) {
			usage(m)["cache_creation"] = map[string]any{"ephemeral_5m_input_tokens": 0, "ephemeral_1h_input_tokens": 9}
		}, 1, "unsupported-modifier", `/usage/cache_creation={"ephemeral_1h_input_tokens":9,"ephemeral_5m_input_tokens":0}`},
		{"camelCase", func(m map[string]any) { usage(m)["cacheWriteInputTokens"] = 3 }, 1, "unsupported-modifier", "/usage/cacheWriteInputTokens=3"},
		{"dotted", func(m map[string]any) { m["metrics"] = map[string]any{"gen_ai.usage.input_tokens.cache_write": 4} }, 1, "unsupported-modifier", "/metrics/gen_ai.usage.input_tokens.cache_write=4"},
		{"count as a string", func(m map[string]any) {
			usage(m)["output_tokens_details"].(map[string]any)["cache_write_tokens"] = "15"
		}, 1, "unsupported-modifier", `/usage/output_tokens_details/cache_write_tokens="15"`},
		{"flex service tier", func(m map[string]any) { m["service_tier"] = "flex" }, 1, "unsupported-modifier", "/service_tier=flex"},
		{"zero cache writes", func(m map[string]any) {
			usage(m)["cache_creation"] = map[string]any{"ephemeral_5m_input_tokens": 0}
			usage(m)["cache_write_tokens"] = 0
		}, 0, "", ""},
		{"a cost", func(m map[string]any) { usage(m)["cache_creation_input_token_cost"] = 0.00125 }, 1, "unsupported-modifier", "/usage/cache_creation_input_token_cost=0.00125"},
		{"negative", func(m map[string]any) { usage(m)["cache_write_tokens"] = -1 }, 1, "log-malformed", "cache-write amount -1 is negative"},
		{"negative inside", func(m map[string]any) { usage(m)["cache_creation"] = map[string]any{"ephemeral_5m_input_tokens": -2} }, 1, "log-malformed", "cache-write amount -2 is negative"},
	} {
		dir := camp
		if tc.code == 0 {
			dir, _, _ = plannedSessions(t, "S1", "S2", "S3")
		}
		code, out := importSession(t, dir, "S1", editedLog(t, base, tc.edit), timing)
		if code != tc.code || !strings.Contains(out, tc.reason) || !strings.Contains(out, tc.mod) {
			t.Errorf("%s: exit %d, want %d with %s %s\n%s", tc.name, code, tc.code, tc.reason, tc.mod, out)
		}
	}
	// codex exec --json: a cache write in turn.completed's usage.
	m := *rcs["S1"].Meter
	cl, _ := os.ReadFile(codexLog(t, resps["S1"], &m, "turn.completed"))
	withCache := strings.Replace(string(cl), `"input_tokens":`, `"cache_creation_input_tokens":5,"input_tokens":`, 1)
	code, out, errs := runCLI(t, "receipt", "import", camp, "--session", "S1", "--log-format", "codex-exec-jsonl", "--log", writeTemp(t, "codex.jsonl", withCache), "--timing", timing, "--keep-inadmissible")
	if code != 1 || !strings.Contains(out+errs, "INADMISSIBLE: unsupported-modifier") {
		t.Fatalf("codex cache write: exit %d\n%s%s", code, out, errs)
	}
	if got := readReceipt(t, camp, "S1"); strings.Join(got.PricedModifiers, " ") != "/4/usage/cache_creation_input_tokens=5" {
		t.Fatalf("codex priced_modifiers: %v", got.PricedModifiers)
	}
}

// TestImportCountsToolsByAllowList: tool use is counted from known item
// types; an item type that is neither a known tool call nor known not to
// be one is refused (log-item-unknown) instead of counting as no call.
func TestImportCountsToolsByAllowList(t *testing.T) {
	t.Parallel()
	camp, resps, rcs := plannedSessions(t, "S1", "S2", "S3")
	base := responsesLog(t, resps["S1"], rcs["S1"], "default", nil)
	timing := timingOf(t, rcs["S1"], nil)
	item := func(typ string) func(m map[string]any) {
		return func(m map[string]any) {
			m["output"] = append([]any{map[string]any{"type": typ, "id": "SYNTHETIC-item"}}, m["output"].([]any)...)
		}
	}
	for _, tc := range []struct {
		typ, reason, detail string
	}{
		{"future_search_call", "log-item-unknown", `output item type "future_search_call"`},
		{"function_call", "tool-calls-in-fixed-evidence", "1 ordinary and 0 MCP calls"},
		{"mcp_list_tools", "tool-calls-in-fixed-evidence", "0 ordinary and 1 MCP calls"},
	} {
		code, out := importSession(t, camp, "S1", editedLog(t, base, item(tc.typ)), timing)
		if code != 1 || !strings.Contains(out, tc.reason) || !strings.Contains(out, tc.detail) {
			t.Errorf("%s: exit %d, want 1 with %s (%s)\n%s", tc.typ, code, tc.reason, tc.detail, out)
		}
	}
	m := *rcs["S1"].Meter
	cl, _ := os.ReadFile(codexLog(t, resps["S1"], &m, "turn.completed"))
	for _, tc := range []struct {
		typ, reason, detail string
	}{
		{"browser_action", "log-item-unknown", `item type "browser_action"`},
		{"todo_list", "tool-calls-in-fixed-evidence", "1 ordinary and 0 MCP calls"},
	} {
		line := `{"type":"item.completed","item":{"id":"item_9","type":"` + tc.typ + `"}}` + "\n"
		log := writeTemp(t, "codex.jsonl", line+string(cl))
		code, out, errs := runCLI(t, "receipt", "import", camp, "--session", "S1", "--log-format", "codex-exec-jsonl", "--log", log, "--timing", timing)
		if code != 1 || !strings.Contains(out+errs, tc.reason) || !strings.Contains(out+errs, tc.detail) {
			t.Errorf("codex %s: exit %d, want 1 with %s (%s)\n%s%s", tc.typ, code, tc.reason, tc.detail, out, errs)
		}
	}
}

// TestImportReviewBeforeItsDraft: a review whose timing file records its
// delivered input may be imported before its shared draft (its input and
// start are compared with the draft once the draft is imported); the
// draft's import then decides them: a review whose recorded input is not
// the prompt rendered from this draft's output refuses the draft's import.
func TestImportReviewBeforeItsDraft(t *testing.T) {
	t.Parallel()
	for _, wrongInput := range []bool{false, true} {
		camp, resps, rcs := plannedSessions(t, "S4", "S5", "S6")
		log := func(id string) string { return responsesLog(t, resps[id], rcs[id], "default", nil) }
		extra := map[string]any{}
		if wrongInput {
			extra["input_bytes"] = *rcs["S5"].InputBytes + 1
		}
		if code, out := importSession(t, camp, "S5", log("S5"), timingOf(t, rcs["S5"], extra)); code != 0 {
			t.Fatalf("review A before its draft (wrong input %v): exit %d\n%s", wrongInput, code, out)
		}
		code, out := importSession(t, camp, "S4", log("S4"), timingOf(t, rcs["S4"], nil))
		if wrongInput {
			if code != 1 || !strings.Contains(out, "receipts/S5.json#/input_sha256: delivered-input-mismatch") {
				t.Fatalf("the draft of a review whose recorded input is not its prompt: exit %d\n%s", code, out)
			}
			continue
		}
		if code != 0 {
			t.Fatalf("the draft after its review: exit %d\n%s", code, out)
		}
		if code, out := importSession(t, camp, "S6", log("S6"), timingOf(t, rcs["S6"], nil)); code != 0 {
			t.Fatalf("review B: exit %d\n%s", code, out)
		}
		chkRunCaptured(t, "manifest", camp)
		if code, out := chkRunCaptured(t, "check", camp); code != 0 {
			t.Fatalf("check: exit %d\n%s", code, out)
		}
	}
}
