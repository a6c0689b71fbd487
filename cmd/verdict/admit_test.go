package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"verdict/campaign"
	"verdict/scorer"
)

// diskCampaign is a SYNTHETIC evaluation-shape campaign written to disk for
// the admission controls: 8 tasks in 4 repositories, 3 repetitions, 12
// A-first and 12 B-first pairs, valid answers and complete receipts. Tests
// mutate Receipts (nil = no receipt file) and the manifest before write.
type diskCampaign struct {
	Manifest  campaign.Manifest
	Files     map[string][]byte
	Receipts  map[string]*campaign.Receipt
	Responses map[string][]byte
}

func admHex(b []byte) string  { s := sha256.Sum256(b); return hex.EncodeToString(s[:]) }
func admStr(s string) *string { return &s }
func admBool(b bool) *bool    { return &b }
func admI64(n int64) *int64   { return &n }

// admEpoch is the UTC time of monotonic reading 0 of the disk campaign's
// synthetic host.
var admEpoch = time.Date(2026, 9, 6, 10, 0, 0, 0, time.UTC)

const minimalFinal = `{"claims":[],"implementation_plan":[],"verification_plan":[],"uncertainties":[{"id":"U1","missing_information":"SYNTHETIC missing fact","consequence":"SYNTHETIC consequence","verification_step":"SYNTHETIC step"}],"exclusions":[],"citations":[]}`

func newDiskCampaign(t *testing.T) *diskCampaign {
	t.Helper()
	card := scorer.ContractPriceCard()
	d := &diskCampaign{Files: map[string][]byte{}, Receipts: map[string]*campaign.Receipt{}, Responses: map[string][]byte{}}
	d.Manifest = campaign.Manifest{
		ContractVersion: campaign.ContractVersion, Synthetic: true, CampaignID: "synthetic-admission-controls",
		Phase: campaign.PhaseEvaluation, Seed: admHex([]byte("SYNTHETIC seed")),
		FrozenDocuments:      campaign.FrozenDocuments(),
		ResponseSchemaSHA256: campaign.ResponseSchemaSHA256(),
		Execution: campaign.Execution{
			ConsumerVersion: admStr("SYNTHETIC consumer"), ExecutableSHA256: admStr(admHex([]byte("SYNTHETIC executable"))),
			Model: admStr("synthetic-model"), ModelSnapshot: admStr("synthetic-model-snapshot"), ReasoningEffort: admStr("medium"),
			Tokenizer: admStr("synthetic-tokenizer"), Host: admStr("SYNTHETIC host"), PermissionPolicy: admStr("no-tools-no-mcp"),
			PriceCard: &card, TariffVerified: admBool(true), ReservationEnforced: admBool(true), OracleFrozen: admBool(true),
		},
		Prompts: campaign.PromptFiles{Common: "prompts/common.txt", Draft: "prompts/draft.txt", ReviewA: "prompts/review-a.txt",
			ReviewB: "prompts/review-b.txt", FinalSchema: "prompts/final-schema.txt", ReconciliationSchema: "prompts/reconciliation-schema.txt"},
	}
	for _, n := range []string{"common", "draft", "review-a", "review-b", "final-schema", "reconciliation-schema"} {
		b, err := os.ReadFile(filepath.Join("..", "..", "campaign", "frozen", n+".txt"))
		if err != nil {
			t.Fatal(err)
		}
		d.Files["prompts/"+n+".txt"] = b
	}
	prompts := map[string][]byte{campaign.PromptCommon: d.Files["prompts/common.txt"], campaign.PromptDraft: d.Files["prompts/draft.txt"],
		campaign.PromptReviewA: d.Files["prompts/review-a.txt"], campaign.PromptReviewB: d.Files["prompts/review-b.txt"],
		campaign.PromptFinalSchema: d.Files["prompts/final-schema.txt"], campaign.PromptReconciliationSchema: d.Files["prompts/reconciliation-schema.txt"]}
	cats := []campaign.Category{campaign.CategoryBehaviorExplanation, campaign.CategoryChangeImpactPlan, campaign.CategoryCorrectnessBoundary, campaign.CategoryExplicitUncertainty}
	taskText := map[string][]byte{}
	packetBytes := map[string][]byte{}
	for i := range 8 {
		id := fmt.Sprintf("T%d", i+1)
		repo := fmt.Sprintf("synthetic/repo%d", i/2+1)
		d.Manifest.Tasks = append(d.Manifest.Tasks, campaign.TaskEntry{ID: id, Repository: repo, Category: cats[i%4]})
		src := fmt.Sprintf("src/t%d.ts", i+1)
		var lines []string
		for k := range 6 {
			lines = append(lines, fmt.Sprintf("export const v%d = %d; // SYNTHETIC", k+1, k+1))
		}
		file := []byte(strings.Join(lines, "\n") + "\n")
		d.Files[campaign.SourcePath(repo, src)] = file
		p := campaign.Packet{Task: id}
		for k := range 6 {
			p.Items = append(p.Items, campaign.EvidenceItem{ID: fmt.Sprintf("E%d", k+1), Repository: repo, Commit: strings.Repeat("c", 40),
				Path: src, StartLine: k + 1, EndLine: k + 1, FileSHA256: admHex(file), Excerpt: lines[k]})
		}
		pb, _ := json.Marshal(p)
		packetBytes[id] = pb
		d.Files[campaign.PacketPath(id)] = pb
		tr := campaign.Truth{Task: id}
		for k := range 4 {
			tr.Obligations = append(tr.Obligations, campaign.TruthObligation{ID: fmt.Sprintf("O%d", k+1), Text: "SYNTHETIC obligation",
				Critical: k == 0, Answerable: k < 3, EvidenceIDs: []string{"E1"}, AcceptedAlternatives: []string{},
				RequiredVerification: "SYNTHETIC verification", JustifiedExclusions: []string{}, SourceJustification: "SYNTHETIC justification"})
		}
		tb, _ := json.Marshal(tr)
		d.Files[campaign.TruthPath(id)] = tb
		taskText[id] = []byte("SYNTHETIC task " + id + ": explain the exported constants.\n")
		d.Files[campaign.TaskTextPath(id)] = taskText[id]
	}
	n := 0
	var clock int64
	for rep := 1; rep <= 3; rep++ {
		for i, te := range d.Manifest.Tasks {
			order := campaign.OrderAFirst
			if (i+rep)%2 == 0 {
				order = campaign.OrderBFirst
			}
			ids := [3]string{fmt.Sprintf("S%d", n+1), fmt.Sprintf("S%d", n+2), fmt.Sprintf("S%d", n+3)}
			n += 3
			run := campaign.Run{Task: te.ID, Repetition: rep, Order: order, Sessions: campaign.Sessions{Draft: ids[0], ReviewA: ids[1], ReviewB: ids[2]}}
			d.Manifest.Runs = append(d.Manifest.Runs, run)
			specs := [3][4]int64{{20212, 16298, 931, 60}, {22000, 16000, 1000, 50}, {23000, 16000, 1100, 55}}
			roles := []campaign.Role{campaign.RoleDraft, campaign.RoleReviewA, campaign.RoleReviewB}
			for j, role := range roles {
				recon := "null"
				if role == campaign.RoleReviewB {
					var disp []string
					for k := range 6 {
						disp = append(disp, fmt.Sprintf(`{"evidence_id":"E%d","status":"unresolved","final_ids":["U1"]}`, k+1))
					}
					recon = `{"obligations":[{"id":"O1","text":"SYNTHETIC obligation","basis":"task","status":"unresolved","evidence_ids":[],"final_ids":["U1"]}],"evidence_dispositions":[` + strings.Join(disp, ",") + `]}`
				}
				d.Responses[ids[j]] = []byte(`{"final":` + minimalFinal + `,"reconciliation":` + recon + `}`)
			}
			// Receipts true to what they describe: sessions run serially in
			// dispatch order (D, then the declared first arm), each given
			// the exact prompt bytes `verdict prompts` renders.
			var pkt campaign.Packet
			if err := json.Unmarshal(packetBytes[te.ID], &pkt); err != nil {
				t.Fatal(err)
			}
			task := &campaign.Task{Entry: te, Text: taskText[te.ID], Packet: pkt}
			dispatch := []int{0, 1, 2}
			if order == campaign.OrderBFirst {
				dispatch = []int{0, 2, 1}
			}
			for _, j := range dispatch {
				role, sp := roles[j], specs[j]
				start := clock
				clock += sp[3]*1_000_000_000 + 10_000_000_000
				in, err := campaign.RenderPrompt(role, prompts, task, d.Responses[ids[0]])
				if err != nil {
					t.Fatal(err)
				}
				out := d.Responses[ids[j]]
				utc := func(ns int64) *string { return admStr(admEpoch.Add(time.Duration(ns)).Format(time.RFC3339Nano)) }
				d.Receipts[ids[j]] = &campaign.Receipt{
					SessionID: ids[j], RequestID: "R" + ids[j][1:], Role: role, Task: te.ID, Repetition: rep, Status: campaign.StatusResponse,
					StartedUTC: utc(start), EndedUTC: utc(start + sp[3]*1_000_000_000),
					StartMonotonicNS: admI64(start), EndMonotonicNS: admI64(start + sp[3]*1_000_000_000),
					InputSHA256: admStr(admHex(in)), InputBytes: admI64(int64(len(in))),
					OutputSHA256: admStr(admHex(out)), OutputBytes: admI64(int64(len(out))),
					Meter:       &campaign.Meter{InputTokens: sp[0], CachedInputTokens: sp[1], OutputTokens: sp[2], InputIncludesCached: true, OutputIncludesReasoning: true},
					PriceCardID: admStr(card.ID), ValidationNS: 1_000_000_000, AssemblyNS: 500_000_000,
					Model: admStr("synthetic-model"), PermissionPolicy: admStr("no-tools-no-mcp"),
					TaskSHA256: admStr(admHex(taskText[te.ID])), PacketSHA256: admStr(admHex(packetBytes[te.ID])),
					Host: d.Manifest.Execution.Host,
				}
			}
		}
	}
	return d
}

// receipt returns the receipt of task/rep/role.
func (d *diskCampaign) session(task string, rep int, role campaign.Role) string {
	for _, r := range d.Manifest.Runs {
		if r.Task == task && r.Repetition == rep {
			switch role {
			case campaign.RoleDraft:
				return r.Sessions.Draft
			case campaign.RoleReviewA:
				return r.Sessions.ReviewA
			default:
				return r.Sessions.ReviewB
			}
		}
	}
	panic("no run")
}

// write materializes the campaign in a temporary directory, binding every
// file by SHA-256, and returns the directory.
func (d *diskCampaign) write(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string][]byte{}
	for p, b := range d.Files {
		files[p] = b
	}
	for id, r := range d.Receipts {
		if r == nil {
			continue
		}
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		files[campaign.ReceiptPath(id)] = b
	}
	for id, b := range d.Responses {
		if b != nil {
			files[campaign.ResponsePath(id)] = b
		}
	}
	m := d.Manifest
	m.Files = nil
	var paths []string
	for p := range files {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	for _, p := range paths {
		m.Files = append(m.Files, campaign.FileDigest{Path: p, SHA256: admHex(files[p])})
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, files[p], 0o644); err != nil {
			t.Fatal(err)
		}
	}
	mb, _ := json.MarshalIndent(m, "", "  ")
	if err := os.WriteFile(filepath.Join(dir, campaign.ManifestFile), mb, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// runCmd runs the verdict command line capturing stdout.
func admRun(t *testing.T, args ...string) (int, string) {
	t.Helper()
	code, out, _ := runCLI(t, args...)
	return code, out
}

// admitJSONOut runs `verdict admit DIR --format json [extra...]` and decodes it.
func admitJSONOut(t *testing.T, dir string, extra ...string) (int, map[string]any, string) {
	t.Helper()
	code, out := admRun(t, append([]string{"admit", dir, "--format", "json"}, extra...)...)
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, out)
	}
	return code, m, out
}

func TestAdmitPassingCampaign(t *testing.T) {
	t.Parallel()
	dir := newDiskCampaign(t).write(t)
	code, m, out := admitJSONOut(t, dir)
	adm := m["admission"].(map[string]any)
	if code != 0 || adm["admitted"] != true {
		t.Fatalf("exit %d\n%s", code, out)
	}
	_, again := admRun(t, "admit", dir, "--format", "json")
	if again != out {
		t.Fatal("admit --format json is not byte-identical across runs")
	}
	code, text := admRun(t, "admit", dir)
	if code != 0 || !strings.HasPrefix(text, "SYNTHETIC") || !strings.Contains(text, "increased cost by 6.58%") {
		t.Fatalf("exit %d\n%s", code, text)
	}
}

// Each control fails for its own reason code through `verdict admit`.
func TestAdmitControlsThroughCommandLine(t *testing.T) {
	t.Parallel()
	cases := []struct {
		control string
		mut     func(d *diskCampaign)
		where   string // "validity", "gate" or "billing"
		want    string
	}{
		{"C15 missing completion receipt", func(d *diskCampaign) { d.Receipts[d.session("T2", 1, campaign.RoleReviewB)] = nil }, "validity", string(scorer.ReasonMissingTerminalReceipt)},
		{"C15 start without terminal status", func(d *diskCampaign) {
			id := d.session("T2", 1, campaign.RoleReviewB)
			d.Receipts[id].Status = ""
			d.Responses[id] = nil
		}, "validity", string(scorer.ReasonMissingTerminalReceipt)},
		{"C17 changed model identity", func(d *diskCampaign) {
			d.Receipts[d.session("T3", 2, campaign.RoleReviewA)].Model = admStr("other-model")
		}, "validity", string(scorer.ReasonWrongModel)},
		{"C17 changed permission identity", func(d *diskCampaign) {
			d.Receipts[d.session("T3", 2, campaign.RoleReviewA)].PermissionPolicy = admStr("shell-allowed")
		}, "validity", string(scorer.ReasonWrongPermissions)},
		{"C17 leaked arm state", func(d *diskCampaign) { d.Receipts[d.session("T3", 2, campaign.RoleReviewB)].ArmStateLeaked = true }, "validity", string(scorer.ReasonArmStateLeaked)},
		{"C16 timeout relabelled as infrastructure", func(d *diskCampaign) {
			id := d.session("T4", 1, campaign.RoleReviewB)
			r := d.Receipts[id]
			k := campaign.ErrorInfrastructure
			r.Status, r.ErrorKind, r.InfrastructureInvalid = campaign.StatusError, &k, admStr("platform_outage")
			*r.EndMonotonicNS = *r.StartMonotonicNS + scorer.SessionMaxNS
			d.Responses[id] = nil
		}, "validity", string(scorer.ReasonTimeoutRelabelled)},
		{"C23 reviews dispatched after failed draft", func(d *diskCampaign) {
			id := d.session("T5", 3, campaign.RoleDraft)
			k := campaign.ErrorRefusal
			d.Receipts[id].Status, d.Receipts[id].ErrorKind = campaign.StatusError, &k
			d.Responses[id] = nil
		}, "validity", string(scorer.ReasonReviewsAfterFailedDraft)},
		{"C14 one outlier pair, aggregate green", func(d *diskCampaign) {
			d.Receipts[d.session("T1", 2, campaign.RoleReviewB)].Meter.OutputTokens = 7000
		}, "gate", string(scorer.ReasonCostPairExceeded)},
		{"C14 excessive time with no calls saved", func(d *diskCampaign) {
			r := d.Receipts[d.session("T6", 1, campaign.RoleReviewB)]
			*r.EndMonotonicNS = *r.StartMonotonicNS + 200_000_000_000
		}, "gate", string(scorer.ReasonTimePairExceeded)},
		{"C20 shared draft billed twice", func(d *diskCampaign) {
			d.Receipts[d.session("T7", 2, campaign.RoleDraft)].RequestID = d.Receipts[d.session("T7", 1, campaign.RoleDraft)].RequestID
		}, "gate", string(scorer.ReasonSharedDraftBilledTwice)},
		{"C18 missing tariff", func(d *diskCampaign) { d.Manifest.Execution.TariffVerified = nil }, "identity", "execution.tariff_verified"},
		{"C18 reservation not enforced", func(d *diskCampaign) { d.Manifest.Execution.ReservationEnforced = admBool(false) }, "identity", "execution.reservation_enforced"},
	}
	for _, tc := range cases {
		t.Run(tc.control, func(t *testing.T) {
			d := newDiskCampaign(t)
			tc.mut(d)
			code, m, out := admitJSONOut(t, d.write(t))
			if code != 1 {
				t.Fatalf("exit %d, want 1\n%s", code, out)
			}
			adm, ok := m["admission"].(map[string]any)
			if !ok {
				t.Fatalf("campaign refused by the loader, not by its control:\n%s", out)
			}
			var got []string
			switch tc.where {
			case "validity":
				for _, f := range admList(adm["execution_validity"].(map[string]any)["findings"]) {
					got = append(got, f.(map[string]any)["reason"].(string))
				}
			case "gate":
				for _, g := range admList(adm["cost_time_gates"]) {
					if g.(map[string]any)["pass"] == false {
						got = append(got, g.(map[string]any)["reason"].(string))
					}
				}
			case "identity":
				for _, s := range admList(adm["missing_identities"]) {
					got = append(got, s.(string))
				}
				nd := adm["next_dispatch"].(map[string]any)
				if nd["admitted"] != false {
					t.Fatalf("next dispatch admitted: %v", nd)
				}
			}
			if !slices.Contains(got, tc.want) {
				t.Fatalf("want %s, got %v\n%s", tc.want, got, out)
			}
		})
	}
}

func admList(v any) []any {
	l, _ := v.([]any)
	return l
}

// C23 as a valid failure: failed draft, not-dispatched reviews, admitted,
// both workflows charged D, every pair still counted.
func TestAdmitFailedSharedDraftIsValidFailure(t *testing.T) {
	t.Parallel()
	d := newDiskCampaign(t)
	id := d.session("T5", 3, campaign.RoleDraft)
	k := campaign.ErrorTimeout
	d.Receipts[id].Status, d.Receipts[id].ErrorKind = campaign.StatusError, &k
	d.Receipts[id].OutputSHA256, d.Receipts[id].OutputBytes = nil, nil // the timed-out draft returned nothing
	d.Responses[id] = nil
	for _, role := range []campaign.Role{campaign.RoleReviewA, campaign.RoleReviewB} {
		sid := d.session("T5", 3, role)
		kd := campaign.ErrorSharedDraft
		d.Receipts[sid] = &campaign.Receipt{SessionID: sid, RequestID: "", Role: role, Task: "T5", Repetition: 3, Status: campaign.StatusNotDispatched, ErrorKind: &kd}
		d.Responses[sid] = nil
	}
	code, m, out := admitJSONOut(t, d.write(t))
	adm := m["admission"].(map[string]any)
	v := adm["execution_validity"].(map[string]any)
	if adm["admitted"] != true || v["valid"] != true || len(admList(v["scored_failures"])) != 3 {
		t.Fatalf("exit %d\n%s", code, out)
	}
	if pb := adm["physical_billing"].(map[string]any); pb["sessions"].(float64) != 70 {
		t.Fatalf("physical sessions %v", pb["sessions"])
	}
}

// C18 through `verdict admit --plan`: the replay refuses the dispatch that
// would exceed a ceiling, admits the one that exactly reaches it, and
// exits 1.
func TestAdmitPlanReplayC18(t *testing.T) {
	t.Parallel()
	// One triplet is infrastructure-invalid (cross-arm leakage): the plan
	// replaces it, the only dispatch the rerun rules let through.
	d := newDiskCampaign(t)
	d.Receipts[d.session("T1", 1, campaign.RoleReviewA)].ArmStateLeaked = true
	dir := d.write(t)
	// Recorded: 72 sessions. Prior 47 sessions → 119 used: P1 reaches 120
	// exactly (admitted), P2 would make 121 (refused).
	plan := `{"format":"verdict-admission-plan/1","prior_consumption":{"sessions":47,"replacement_sessions":0,"wall_ns":0,"input_tokens":0,"output_tokens":0,"reference_micro_usd":0,"actual_micro_usd":0},
"dispatches":[{"id":"P1","task":"T1","repetition":1,"role":"draft","replacement":true},{"id":"P2","task":"T1","repetition":1,"role":"review-a","replacement":true}]}`
	pf := filepath.Join(t.TempDir(), "plan.json")
	os.WriteFile(pf, []byte(plan), 0o644)
	code, m, out := admitJSONOut(t, dir, "--plan", pf)
	ds := admList(m["replay"].(map[string]any)["decisions"])
	if code != 1 || len(ds) != 2 {
		t.Fatalf("exit %d\n%s", code, out)
	}
	if d0 := ds[0].(map[string]any); d0["admitted"] != true || d0["reason"] != string(scorer.ReasonFits) {
		t.Fatalf("P1: %v", d0)
	}
	if d1 := ds[1].(map[string]any); d1["admitted"] != false || d1["reason"] != string(scorer.ReasonCeilingSessions) {
		t.Fatalf("P2: %v", d1)
	}
	// Just below: prior 46 admits both (admit still exits 1: the invalid
	// triplet is not replaced yet).
	os.WriteFile(pf, []byte(strings.Replace(plan, `"sessions":47`, `"sessions":46`, 1)), 0o644)
	if code, out := admRun(t, "admit", dir, "--plan", pf); code != 1 || !strings.Contains(out, "2 admitted, 0 refused") {
		t.Fatalf("exit %d\n%s", code, out)
	}
	// A malformed plan is refused with its reason code.
	os.WriteFile(pf, []byte(`{"format":"verdict-admission-plan/1"}`), 0o644)
	if code, out := admRun(t, "admit", dir, "--plan", pf); code != 1 || !strings.Contains(out, string(scorer.ReasonPlanMalformed)) {
		t.Fatalf("exit %d\n%s", code, out)
	}
}

// The proposed live manifest is refused, each missing identity named, and
// every planned dispatch refused.
func TestAdmitLiveManifestRefused(t *testing.T) {
	t.Parallel()
	live := filepath.Join("..", "..", "fixtures", "live")
	b, err := os.ReadFile(filepath.Join(live, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m campaign.Manifest
	json.Unmarshal(b, &m)
	if m.ResponseSchemaSHA256 != campaign.ResponseSchemaSHA256() {
		t.Fatalf("live manifest binds response schema %s, embedded is %s", m.ResponseSchemaSHA256, campaign.ResponseSchemaSHA256())
	}
	pf := filepath.Join(t.TempDir(), "plan.json")
	os.WriteFile(pf, []byte(`{"format":"verdict-admission-plan/1","prior_consumption":{"sessions":0,"replacement_sessions":0,"wall_ns":0,"input_tokens":0,"output_tokens":0,"reference_micro_usd":0,"actual_micro_usd":0},"dispatches":[{"id":"P1","task":"T1","repetition":1,"role":"draft","replacement":false}]}`), 0o644)
	code, out := admRun(t, "admit", live, "--plan", pf)
	if code != 1 {
		t.Fatalf("exit %d\n%s", code, out)
	}
	for _, id := range []string{"seed", "execution.executable_sha256", "execution.model_snapshot", "execution.tokenizer", "execution.host",
		"execution.permission_policy", "execution.tariff_verified", "execution.reservation_enforced", "execution.oracle_frozen", "tasks", "runs"} {
		if !strings.Contains(out, "missing identity: "+id+"\n") {
			t.Errorf("identity %s not listed\n%s", id, out)
		}
	}
	if !strings.Contains(out, "REFUSE "+string(scorer.ReasonCampaignRefused)) {
		t.Fatalf("dispatch not refused\n%s", out)
	}
}

// The admission controls through `verdict check`: each fails admission
// (exit 1) for its own reason code; C14 shows as a failing gate.
func TestCheckAdmissionControls(t *testing.T) {
	t.Parallel()
	checkJSON := func(t *testing.T, dir string) (int, map[string]any, string) {
		code, out := admRun(t, "check", dir, "--format", "json")
		var m map[string]any
		if err := json.Unmarshal([]byte(out), &m); err != nil {
			t.Fatalf("not JSON: %v\n%s", err, out)
		}
		return code, m, out
	}
	dir := newDiskCampaign(t).write(t)
	code, _, out := checkJSON(t, dir)
	if code != 0 {
		t.Fatalf("passing campaign: exit %d\n%s", code, out)
	}
	if _, again := admRun(t, "check", dir, "--format", "json"); again != out {
		t.Fatal("check --format json not byte-identical across runs")
	}
	cases := []struct {
		control string
		mut     func(d *diskCampaign)
		want    string
		exit    int
		field   string
	}{
		{"C15", func(d *diskCampaign) { d.Receipts[d.session("T2", 1, campaign.RoleReviewA)] = nil }, string(scorer.ReasonMissingTerminalReceipt), 1, "admission"},
		{"C17", func(d *diskCampaign) {
			d.Receipts[d.session("T2", 1, campaign.RoleDraft)].Model = admStr("changed-model")
		}, string(scorer.ReasonWrongModel), 1, "admission"},
		{"C18", func(d *diskCampaign) { d.Manifest.Execution.ReservationEnforced = nil }, string(scorer.ReasonMissingIdentity), 1, "admission"},
		{"C23", func(d *diskCampaign) {
			id := d.session("T5", 1, campaign.RoleDraft)
			k := campaign.ErrorMalformed
			d.Receipts[id].Status, d.Receipts[id].ErrorKind = campaign.StatusError, &k
			d.Responses[id] = nil
		}, string(scorer.ReasonReviewsAfterFailedDraft), 1, "admission"},
		{"C14", func(d *diskCampaign) { d.Receipts[d.session("T1", 2, campaign.RoleReviewB)].Meter.OutputTokens = 7000 }, string(scorer.ReasonCostPairExceeded), 0, "cost_time_gates"},
		{"C20", func(d *diskCampaign) {
			d.Receipts[d.session("T7", 2, campaign.RoleDraft)].RequestID = d.Receipts[d.session("T7", 1, campaign.RoleDraft)].RequestID
		}, string(scorer.ReasonSharedDraftBilledTwice), 0, "cost_time_gates"},
	}
	for _, tc := range cases {
		t.Run(tc.control, func(t *testing.T) {
			d := newDiskCampaign(t)
			tc.mut(d)
			code, m, out := checkJSON(t, d.write(t))
			if code != tc.exit || len(admList(m["refusals"])) != 0 {
				t.Fatalf("exit %d want %d\n%s", code, tc.exit, out)
			}
			var got []string
			for _, x := range admList(m[tc.field]) {
				e := x.(map[string]any)
				if e["pass"] == false || tc.field == "admission" {
					got = append(got, e["reason"].(string))
				}
			}
			if !slices.Contains(got, tc.want) {
				t.Fatalf("want %s in %s, got %v", tc.want, tc.field, got)
			}
		})
	}
	// The proposed live manifest: exit 1, each missing identity by name.
	code, out = admRun(t, "check", filepath.Join("..", "..", "fixtures", "live"))
	if code != 1 || !strings.Contains(out, "missing identities: 11\n  seed\n  execution.executable_sha256\n  execution.model_snapshot\n") ||
		!strings.Contains(out, "  execution.reservation_enforced\n  execution.oracle_frozen\n  tasks\n  runs\n") {
		t.Fatalf("exit %d\n%s", code, out)
	}
}

// TestAdmitResultSaysWhyExitIsOne: when every planned dispatch is admitted
// but a cost/time gate fails, admit still exits 1 and its last line says
// so, naming the failed gate; a passing campaign's result line says every
// part passed.
func TestAdmitResultSaysWhyExitIsOne(t *testing.T) {
	t.Parallel()
	d := newDiskCampaign(t)
	// One outlier pair's cost (C14): admitted, but a cost gate fails. (A
	// stretched monotonic end alone would now contradict its UTC end:
	// receipt-clocks-disagree, an invalid execution.)
	d.Receipts[d.session("T1", 2, campaign.RoleReviewB)].Meter.OutputTokens = 7000
	dir := d.write(t)
	plan := `{"format":"verdict-admission-plan/1","prior_consumption":{"sessions":0,"replacement_sessions":0,"wall_ns":0,"input_tokens":0,"output_tokens":0,"reference_micro_usd":0,"actual_micro_usd":0},
"dispatches":[{"id":"P1","task":"T1","repetition":4,"role":"draft","replacement":false}]}`
	pf := filepath.Join(t.TempDir(), "plan.json")
	os.WriteFile(pf, []byte(plan), 0o644)
	code, m, out := admitJSONOut(t, dir, "--plan", pf)
	var failedGates []string
	for _, g := range admList(m["admission"].(map[string]any)["cost_time_gates"]) {
		if g.(map[string]any)["pass"] == false {
			failedGates = append(failedGates, g.(map[string]any)["name"].(string))
		}
	}
	if code != 1 || len(failedGates) == 0 {
		t.Fatalf("exit %d, failed gates %v\n%s", code, failedGates, out)
	}
	// T1 repetition 4 is not in the manifest: refused before any budget.
	want := "FAILED (exit 1): campaign admitted; 1 of 1 planned dispatches refused; cost/time gates failed: " + strings.Join(failedGates, ", ")
	if m["result"] != want {
		t.Errorf("json result %q, want %q", m["result"], want)
	}
	code, text := admRun(t, "admit", dir, "--plan", pf)
	lines := strings.Split(strings.TrimSpace(text), "\n")
	if code != 1 || !strings.Contains(text, "0 admitted, 1 refused") || !strings.Contains(text, string(scorer.ReasonDispatchUnknownRun)) || lines[len(lines)-1] != "result: "+want {
		t.Errorf("exit %d, last line %q, want %q", code, lines[len(lines)-1], "result: "+want)
	}

	// A complete campaign has nothing left to dispatch: an empty plan passes.
	os.WriteFile(pf, []byte(strings.Replace(plan, `[{"id":"P1","task":"T1","repetition":4,"role":"draft","replacement":false}]`, `[]`, 1)), 0o644)
	code, text = admRun(t, "admit", newDiskCampaign(t).write(t), "--plan", pf)
	lines = strings.Split(strings.TrimSpace(text), "\n")
	if code != 0 || lines[len(lines)-1] != "result: campaign admitted; all 0 planned dispatches admitted; every cost/time gate passes" {
		t.Errorf("passing campaign: exit %d, last line %q", code, lines[len(lines)-1])
	}
}
