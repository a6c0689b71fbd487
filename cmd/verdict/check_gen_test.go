package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	. "verdict/campaign"
)

// This file generates SYNTHETIC campaign directories for the check command
// tests (the same template as the campaign package's loader tests): every task has a six-item packet over
// six whole source files, four obligations, and each run has a draft, two
// reviews, their responses and receipts.

func chkSum(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

func chkGenSource(task, file int) []byte {
	var b strings.Builder
	for i := 1; i <= 20; i++ {
		fmt.Fprintf(&b, "export const t%dF%dL%d = %d; // SYNTHETIC\n", task, file, i, i)
	}
	return []byte(b.String())
}

func chkGenReceipt(id string, role Role, task string, rep int, status ReceiptStatus, taskSHA, packetSHA string) []byte {
	return fmt.Appendf(nil, `{"session_id": %q, "request_id": "req-%s", "role": %q, "task": %q, "repetition": %d,
 "status": %q, "error_kind": null, "started_utc": "2026-09-05T10:00:00.000000001Z", "ended_utc": "2026-09-05T10:01:00Z",
 "start_monotonic_ns": 1000, "end_monotonic_ns": 60000001000, "input_sha256": null, "input_bytes": 1200,
 "output_sha256": null, "output_bytes": 900,
 "meter": {"input_tokens": 1200, "cached_input_tokens": 0, "output_tokens": 300, "reasoning_tokens": 0, "input_includes_cached": true, "output_includes_reasoning": true},
 "price_card_id": "synthetic-card", "actual_charge_micro_usd": null, "ordinary_calls": 0, "mcp_calls": 0, "mcp_cost_micro_usd": 0,
 "validation_ns": 1000, "assembly_ns": 2000, "model": "synthetic-model", "permission_policy": "synthetic-no-tools",
 "task_sha256": %q, "packet_sha256": %q, "arm_state_leaked": false, "replacement": false, "infrastructure_invalid": null}
`, id, id, role, task, rep, status, taskSHA, packetSHA)
}

func chkStrp(s string) *string { return &s }
func chkBoolp(b bool) *bool    { return &b }

// genCampaign builds a bound SYNTHETIC campaign of tasks × reps runs (three sessions each).
func chkGenCampaign(t testing.TB, phase Phase, tasks, reps int) fstest.MapFS {
	t.Helper()
	respB, err := os.ReadFile("../../campaign/testdata/response_b.json")
	if err != nil {
		t.Fatal(err)
	}
	i := strings.Index(string(respB), `"reconciliation": {`)
	respA := []byte(string(respB[:i]) + "\"reconciliation\": null}\n")
	fsys := fstest.MapFS{}
	m := Manifest{
		ContractVersion: ContractVersion, Synthetic: true, CampaignID: "synthetic-load", Phase: phase,
		Seed:                 strings.Repeat("ab", 32),
		FrozenDocuments:      []FrozenDocument{{Name: "CONTRACT.md", SHA256: strings.Repeat("01", 32)}},
		ResponseSchemaSHA256: ResponseSchemaSHA256(),
		Execution: Execution{ConsumerVersion: chkStrp("SYNTHETIC consumer"), ExecutableSHA256: chkStrp(strings.Repeat("cd", 32)),
			Model: chkStrp("synthetic-model"), ModelSnapshot: chkStrp("synthetic-snapshot"), ReasoningEffort: chkStrp("medium"), Tokenizer: chkStrp("synthetic"),
			Host: chkStrp("synthetic host"), PermissionPolicy: chkStrp("synthetic-no-tools"),
			PriceCard:      &PriceCard{ID: "synthetic-card", UncachedInputMicroUSDPerMTok: 4000000, CachedInputMicroUSDPerMTok: 400000, OutputMicroUSDPerMTok: 20000000},
			TariffVerified: chkBoolp(true), ReservationEnforced: chkBoolp(true), OracleFrozen: chkBoolp(true)},
		Prompts: PromptFiles{Common: "prompts/common.txt", Draft: "prompts/draft.txt", ReviewA: "prompts/review_a.txt", ReviewB: "prompts/review_b.txt",
			FinalSchema: "prompts/final_schema.txt", ReconciliationSchema: "prompts/reconciliation_schema.txt"},
	}
	for _, p := range []string{"common", "draft", "review_a", "review_b", "final_schema", "reconciliation_schema"} {
		fsys["prompts/"+p+".txt"] = &fstest.MapFile{Data: []byte("SYNTHETIC prompt " + p + "\n")}
	}
	cats := []Category{CategoryBehaviorExplanation, CategoryChangeImpactPlan, CategoryCorrectnessBoundary, CategoryExplicitUncertainty}
	session := 0
	for ti := 1; ti <= tasks; ti++ {
		id := fmt.Sprintf("T%d", ti)
		genRepo := fmt.Sprintf("synthetic/repo%d", (ti+1)/2)
		m.Tasks = append(m.Tasks, TaskEntry{ID: id, Repository: genRepo, Category: cats[(ti-1)%4]})
		fsys[TaskTextPath(id)] = &fstest.MapFile{Data: []byte("SYNTHETIC task " + id + ": explain parsing.\n")}
		var items []string
		for e := 1; e <= 6; e++ {
			src := chkGenSource(ti, e)
			path := fmt.Sprintf("src/t%d/f%d.ts", ti, e)
			fsys[SourcePath(genRepo, path)] = &fstest.MapFile{Data: src}
			lines := PhysicalLines(src)
			start, end := e, e+2
			excerpt := string(src[lines[start-1].Start:lines[end-1].End])
			items = append(items, fmt.Sprintf(`{"id": "E%d", "repository": %q, "commit": %q, "path": %q, "start_line": %d, "end_line": %d, "file_sha256": %q, "excerpt": %s}`,
				e, genRepo, strings.Repeat("0a", 20), path, start, end, chkSum(src), chkMustJSON(t, excerpt)))
		}
		fsys[PacketPath(id)] = &fstest.MapFile{Data: fmt.Appendf(nil, "{\"task\": %q, \"complete_by_construction\": false, \"items\": [\n%s\n]}\n", id, strings.Join(items, ",\n"))}
		var obs []string
		for o := 1; o <= 4; o++ {
			obs = append(obs, fmt.Sprintf(`{"id": "O%d", "text": "SYNTHETIC obligation %d.", "critical": %v, "answerable": %v, "evidence_ids": ["E%d"], "accepted_alternatives": [], "required_verification": "A unit test.", "justified_exclusions": [], "source_justification": "Lines of E%d."}`,
				o, o, o == 1, o != 4, o, o))
		}
		fsys[TruthPath(id)] = &fstest.MapFile{Data: fmt.Appendf(nil, "{\"task\": %q, \"obligations\": [\n%s\n]}\n", id, strings.Join(obs, ",\n"))}
		for rep := 1; rep <= reps; rep++ {
			ids := [3]string{fmt.Sprintf("S%d", session+1), fmt.Sprintf("S%d", session+2), fmt.Sprintf("S%d", session+3)}
			session += 3
			order := OrderAFirst
			if rep%2 == 0 {
				order = OrderBFirst
			}
			m.Runs = append(m.Runs, Run{Task: id, Repetition: rep, Order: order, Sessions: Sessions{Draft: ids[0], ReviewA: ids[1], ReviewB: ids[2]}})
			for k, role := range []Role{RoleDraft, RoleReviewA, RoleReviewB} {
				data := respA
				if role == RoleReviewB {
					data = respB
				}
				fsys[ResponsePath(ids[k])] = &fstest.MapFile{Data: data}
				fsys[ReceiptPath(ids[k])] = &fstest.MapFile{Data: chkGenReceipt(ids[k], role, id, rep, StatusResponse, chkSum(fsys[TaskTextPath(id)].Data), chkSum(fsys[PacketPath(id)].Data))}
			}
		}
	}
	chkWriteManifest(t, fsys, &m)
	return fsys
}

func chkMustJSON(t testing.TB, v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// writeManifest binds every file of fsys (except the manifest) and writes manifest.json.
func chkWriteManifest(t testing.TB, fsys fstest.MapFS, m *Manifest) {
	m.Files = nil
	for p, f := range fsys {
		if p != ManifestFile {
			m.Files = append(m.Files, FileDigest{Path: p, SHA256: chkSum(f.Data)})
		}
	}
	slices.SortFunc(m.Files, func(a, b FileDigest) int { return strings.Compare(a.Path, b.Path) })
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	fsys[ManifestFile] = &fstest.MapFile{Data: append(b, '\n')}
}

// manifestOf decodes fsys's manifest.
func chkManifestOf(t testing.TB, fsys fstest.MapFS) *Manifest {
	m, err := DecodeManifest(fsys[ManifestFile].Data, ManifestFile)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// rebind rewrites the manifest so that every present file is bound again.
func chkRebind(t testing.TB, fsys fstest.MapFS) {
	chkWriteManifest(t, fsys, chkManifestOf(t, fsys))
}
