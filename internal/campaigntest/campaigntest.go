package campaigntest

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"verdict/campaign"
)

// Options choose between the two shapes of the generated campaign.
type Options struct {
	// Phase is the manifest's phase (default campaign.PhaseEvaluation).
	Phase campaign.Phase
	// Admissible generates the shape `verdict check` admits for a
	// development round (CONTRACT §2 manifest admission): the execution
	// names a model snapshot, tasks are spread over repositories two by
	// two (synthetic/repo1, repo2, ...) with categories in order from
	// behavior explanation, and every receipt binds its task's and packet's
	// SHA-256. Without it every task is in repository synthetic/alpha, the
	// model snapshot is null, categories start at change-impact plan and
	// receipts bind no task or packet digest (the loader's tests).
	//
	// An admissible campaign's receipts are also true to what they
	// describe (scorer.ReceiptIssues): serial one-minute sessions two
	// minutes apart in UTC and monotonic time, in run order, the input
	// digest and size of the prompt campaign.RenderPrompt renders for the
	// role, the output digest and size of the response file.
	Admissible bool
}

// Repository is the one repository of every task when Options.Admissible
// is false.
const Repository = "synthetic/alpha"

// SHA256 is the lowercase hex SHA-256 of b (the manifest's file digests).
func SHA256(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// Source is the SYNTHETIC source file number file of task number task:
// twenty lines of exported constants.
func Source(task, file int) []byte {
	var b strings.Builder
	for i := 1; i <= 20; i++ {
		fmt.Fprintf(&b, "export const t%dF%dL%d = %d; // SYNTHETIC\n", task, file, i, i)
	}
	return []byte(b.String())
}

// Receipt is a SYNTHETIC receipt of session id (one minute of wall and
// monotonic time, 1,200 input and 300 output tokens). taskSHA and
// packetSHA are the bound task and packet digests; "" writes null.
func Receipt(id string, role campaign.Role, task string, rep int, status campaign.ReceiptStatus, taskSHA, packetSHA string) []byte {
	orNull := func(s string) string {
		if s == "" {
			return "null"
		}
		return fmt.Sprintf("%q", s)
	}
	return fmt.Appendf(nil, `{"session_id": %q, "request_id": "req-%s", "role": %q, "task": %q, "repetition": %d,
 "status": %q, "error_kind": null, "started_utc": "2026-09-05T10:00:00.000000001Z", "ended_utc": "2026-09-05T10:01:00Z",
 "start_monotonic_ns": 1000, "end_monotonic_ns": 60000001000, "input_sha256": null, "input_bytes": 1200,
 "output_sha256": null, "output_bytes": 900,
 "meter": {"input_tokens": 1200, "cached_input_tokens": 0, "output_tokens": 300, "reasoning_tokens": 0, "input_includes_cached": true, "output_includes_reasoning": true},
 "price_card_id": "synthetic-card", "actual_charge_micro_usd": null, "ordinary_calls": 0, "mcp_calls": 0, "mcp_cost_micro_usd": 0,
 "validation_ns": 1000, "assembly_ns": 2000, "model": "synthetic-model", "permission_policy": "synthetic-no-tools",
 "task_sha256": %s, "packet_sha256": %s, "arm_state_leaked": false, "host": "synthetic host", "infrastructure_invalid": null}
`, id, id, role, task, rep, status, orNull(taskSHA), orNull(packetSHA))
}

func strp(s string) *string { return &s }
func boolp(b bool) *bool    { return &b }

// testdataPath is the path of a file in the campaign package's testdata,
// found from this source file (tests run in their own package directory).
func testdataPath(t testing.TB, name string) string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("campaigntest: cannot locate its source file")
	}
	return filepath.Join(filepath.Dir(file), "..", "..", "campaign", "testdata", name)
}

// Campaign builds a bound SYNTHETIC campaign of tasks × reps runs (three
// sessions each: draft, review A, review B; review B's response carries a
// reconciliation, the others' do not). Runs alternate A-first and B-first.
func Campaign(t testing.TB, opt Options, tasks, reps int) fstest.MapFS {
	t.Helper()
	respB, err := os.ReadFile(testdataPath(t, "response_b.json"))
	if err != nil {
		t.Fatal(err)
	}
	i := strings.Index(string(respB), `"reconciliation": {`)
	respA := []byte(string(respB[:i]) + "\"reconciliation\": null}\n")
	phase := opt.Phase
	if phase == "" {
		phase = campaign.PhaseEvaluation
	}
	var snapshot *string
	if opt.Admissible {
		snapshot = strp("synthetic-snapshot")
	}
	fsys := fstest.MapFS{}
	m := campaign.Manifest{
		ContractVersion: campaign.ContractVersion, Synthetic: true, CampaignID: "synthetic-load", Phase: phase,
		Seed:                 strings.Repeat("ab", 32),
		FrozenDocuments:      campaign.FrozenDocuments(),
		ResponseSchemaSHA256: campaign.ResponseSchemaSHA256(),
		Execution: campaign.Execution{ConsumerVersion: strp("SYNTHETIC consumer"), ExecutableSHA256: strp(strings.Repeat("cd", 32)),
			Model: strp("synthetic-model"), ModelSnapshot: snapshot, ReasoningEffort: strp("medium"), Tokenizer: strp("synthetic"),
			Host: strp("synthetic host"), PermissionPolicy: strp("synthetic-no-tools"),
			PriceCard:      &campaign.PriceCard{ID: "synthetic-card", UncachedInputMicroUSDPerMTok: 4000000, CachedInputMicroUSDPerMTok: 400000, OutputMicroUSDPerMTok: 20000000},
			TariffVerified: boolp(true), ReservationEnforced: boolp(true), OracleFrozen: boolp(true)},
		Prompts: campaign.PromptFiles{Common: "prompts/common.txt", Draft: "prompts/draft.txt", ReviewA: "prompts/review_a.txt", ReviewB: "prompts/review_b.txt",
			FinalSchema: "prompts/final_schema.txt", ReconciliationSchema: "prompts/reconciliation_schema.txt"},
	}
	for _, p := range campaign.PromptKeys() {
		fsys["prompts/"+p+".txt"] = &fstest.MapFile{Data: campaign.FrozenPrompt(p)}
	}
	cats := []campaign.Category{campaign.CategoryBehaviorExplanation, campaign.CategoryChangeImpactPlan, campaign.CategoryCorrectnessBoundary, campaign.CategoryExplicitUncertainty}
	session := 0
	for ti := 1; ti <= tasks; ti++ {
		id := fmt.Sprintf("T%d", ti)
		repo, cat := Repository, cats[ti%4]
		if opt.Admissible {
			repo, cat = fmt.Sprintf("synthetic/repo%d", (ti+1)/2), cats[(ti-1)%4]
		}
		m.Tasks = append(m.Tasks, campaign.TaskEntry{ID: id, Repository: repo, Category: cat})
		fsys[campaign.TaskTextPath(id)] = &fstest.MapFile{Data: []byte("SYNTHETIC task " + id + ": explain parsing.\n")}
		var items []string
		for e := 1; e <= 6; e++ {
			src := Source(ti, e)
			path := fmt.Sprintf("src/t%d/f%d.ts", ti, e)
			fsys[campaign.SourcePath(repo, path)] = &fstest.MapFile{Data: src}
			lines := campaign.PhysicalLines(src)
			start, end := e, e+2
			excerpt := string(src[lines[start-1].Start:lines[end-1].End])
			items = append(items, fmt.Sprintf(`{"id": "E%d", "repository": %q, "commit": %q, "path": %q, "start_line": %d, "end_line": %d, "file_sha256": %q, "excerpt": %s}`,
				e, repo, strings.Repeat("0a", 20), path, start, end, SHA256(src), MustJSON(t, excerpt)))
		}
		fsys[campaign.PacketPath(id)] = &fstest.MapFile{Data: fmt.Appendf(nil, "{\"task\": %q, \"complete_by_construction\": false, \"items\": [\n%s\n]}\n", id, strings.Join(items, ",\n"))}
		var obs []string
		for o := 1; o <= 4; o++ {
			obs = append(obs, fmt.Sprintf(`{"id": "O%d", "text": "SYNTHETIC obligation %d.", "critical": %v, "answerable": %v, "evidence_ids": ["E%d"], "accepted_alternatives": [], "required_verification": "A unit test.", "justified_exclusions": [], "source_justification": "Lines of E%d."}`,
				o, o, o == 1, o != 4, o, o))
		}
		fsys[campaign.TruthPath(id)] = &fstest.MapFile{Data: fmt.Appendf(nil, "{\"task\": %q, \"obligations\": [\n%s\n]}\n", id, strings.Join(obs, ",\n"))}
		var taskSHA, packetSHA string
		if opt.Admissible {
			taskSHA, packetSHA = SHA256(fsys[campaign.TaskTextPath(id)].Data), SHA256(fsys[campaign.PacketPath(id)].Data)
		}
		for rep := 1; rep <= reps; rep++ {
			ids := [3]string{fmt.Sprintf("S%d", session+1), fmt.Sprintf("S%d", session+2), fmt.Sprintf("S%d", session+3)}
			session += 3
			order := campaign.OrderAFirst
			if rep%2 == 0 {
				order = campaign.OrderBFirst
			}
			m.Runs = append(m.Runs, campaign.Run{Task: id, Repetition: rep, Order: order, Sessions: campaign.Sessions{Draft: ids[0], ReviewA: ids[1], ReviewB: ids[2]}})
			for k, role := range []campaign.Role{campaign.RoleDraft, campaign.RoleReviewA, campaign.RoleReviewB} {
				data := respA
				if role == campaign.RoleReviewB {
					data = respB
				}
				fsys[campaign.ResponsePath(ids[k])] = &fstest.MapFile{Data: data}
				fsys[campaign.ReceiptPath(ids[k])] = &fstest.MapFile{Data: Receipt(ids[k], role, id, rep, campaign.StatusResponse, taskSHA, packetSHA)}
			}
		}
	}
	if opt.Admissible {
		trueReceipts(t, fsys, &m)
	}
	WriteManifest(t, fsys, &m)
	return fsys
}

// trueReceipts rewrites every receipt of an admissible campaign so that
// its times are serial and its input and output identities are those of
// the bytes it describes.
func trueReceipts(t testing.TB, fsys fstest.MapFS, m *campaign.Manifest) {
	texts := map[string][]byte{}
	for k, p := range map[string]string{campaign.PromptCommon: m.Prompts.Common, campaign.PromptDraft: m.Prompts.Draft,
		campaign.PromptReviewA: m.Prompts.ReviewA, campaign.PromptReviewB: m.Prompts.ReviewB,
		campaign.PromptFinalSchema: m.Prompts.FinalSchema, campaign.PromptReconciliationSchema: m.Prompts.ReconciliationSchema} {
		texts[k] = fsys[p].Data
	}
	n := 0
	for _, run := range m.Runs {
		pkt, err := campaign.DecodePacket(fsys[campaign.PacketPath(run.Task)].Data, campaign.PacketPath(run.Task))
		if err != nil {
			t.Fatal(err)
		}
		task := &campaign.Task{Entry: campaign.TaskEntry{ID: run.Task}, Text: fsys[campaign.TaskTextPath(run.Task)].Data, Packet: *pkt}
		draft := fsys[campaign.ResponsePath(run.Sessions.Draft)].Data
		ids := []string{run.Sessions.Draft, run.Sessions.ReviewA, run.Sessions.ReviewB}
		roles := []campaign.Role{campaign.RoleDraft, campaign.RoleReviewA, campaign.RoleReviewB}
		if run.Order == campaign.OrderBFirst {
			ids[1], ids[2], roles[1], roles[2] = ids[2], ids[1], roles[2], roles[1]
		}
		for k, id := range ids {
			var rc campaign.Receipt
			if err := json.Unmarshal(fsys[campaign.ReceiptPath(id)].Data, &rc); err != nil {
				t.Fatal(err)
			}
			in, err := campaign.RenderPrompt(roles[k], texts, task, draft)
			if err != nil {
				t.Fatal(err)
			}
			out := fsys[campaign.ResponsePath(id)].Data
			start := time.Date(2026, 9, 5, 10, 0, 0, 0, time.UTC).Add(time.Duration(n) * 2 * time.Minute)
			mono := int64(1000) + int64(n)*int64(2*time.Minute)
			n++
			rc.StartedUTC, rc.EndedUTC = strp(start.Format(time.RFC3339Nano)), strp(start.Add(time.Minute).Format(time.RFC3339Nano))
			rc.StartMonotonicNS, rc.EndMonotonicNS = &mono, new(mono+int64(time.Minute))
			rc.InputSHA256, rc.InputBytes = strp(SHA256(in)), new(int64(len(in)))
			rc.OutputSHA256, rc.OutputBytes = strp(SHA256(out)), new(int64(len(out)))
			b, err := json.MarshalIndent(rc, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			fsys[campaign.ReceiptPath(id)] = &fstest.MapFile{Data: append(b, '\n')}
		}
	}
}

// TrueReceipts rewrites every receipt of an admissible campaign fsys so
// that its input and output identities are those of the bytes it
// describes now (after a test changed a prompt or a response), then binds
// every file again.
func TrueReceipts(t testing.TB, fsys fstest.MapFS) {
	m := ManifestOf(t, fsys)
	trueReceipts(t, fsys, m)
	WriteManifest(t, fsys, m)
}

// MustJSON is the compact JSON of v; a marshalling error fails t.
func MustJSON(t testing.TB, v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// WriteManifest binds every file of fsys (except the manifest) in m.Files,
// sorted by path, and writes m as manifest.json.
func WriteManifest(t testing.TB, fsys fstest.MapFS, m *campaign.Manifest) {
	m.Files = nil
	for p, f := range fsys {
		if p != campaign.ManifestFile {
			m.Files = append(m.Files, campaign.FileDigest{Path: p, SHA256: SHA256(f.Data)})
		}
	}
	slices.SortFunc(m.Files, func(a, b campaign.FileDigest) int { return strings.Compare(a.Path, b.Path) })
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	fsys[campaign.ManifestFile] = &fstest.MapFile{Data: append(b, '\n')}
}

// ManifestOf decodes fsys's manifest; a decoding error fails t.
func ManifestOf(t testing.TB, fsys fstest.MapFS) *campaign.Manifest {
	m, err := campaign.DecodeManifest(fsys[campaign.ManifestFile].Data, campaign.ManifestFile)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// Rebind rewrites the manifest so that every present file is bound again.
func Rebind(t testing.TB, fsys fstest.MapFS) {
	WriteManifest(t, fsys, ManifestOf(t, fsys))
}
