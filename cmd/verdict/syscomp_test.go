package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"verdict/campaign"
	"verdict/fixtures"
)

// sysCampaign writes the SYNTHETIC system comparison, edited by mutate
// (nil: unchanged), to a new directory and returns it.
func sysCampaign(t *testing.T, mutate func(*fixtures.SystemFixture) error) string {
	t.Helper()
	fsys, err := fixtures.GenerateSystemComparison(fixtures.SystemOptions{Mutate: mutate})
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "sys")
	if err := fixtures.WriteDir(fsys, dir); err != nil {
		t.Fatal(err)
	}
	return dir
}

// sysCheck runs `verdict check --format json DIR` and decodes its report.
func sysCheck(t *testing.T, dir string) (int, systemCheckReport) {
	t.Helper()
	code, out, errs := runCLI(t, "check", "--format", "json", dir)
	var rep systemCheckReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("check output is not its JSON report (%v): %s %s", err, out, errs)
	}
	return code, rep
}

// reasonsOf lists the reasons of the report's refusals and admission findings.
func reasonsOf(rep systemCheckReport) string {
	var b strings.Builder
	for _, p := range rep.Refusals {
		b.WriteString(string(p.Reason) + " ")
	}
	for _, p := range rep.Admission {
		b.WriteString(string(p.Reason) + " ")
	}
	return b.String()
}

// workflowOf returns the fixture's workflow of system s at its first block.
func workflowOf(f *fixtures.SystemFixture, s campaign.SystemName) campaign.Workflow {
	for _, w := range f.Manifest.Workflows {
		if w.System == s {
			return w
		}
	}
	panic("no workflow of " + s)
}

// TestSystemCheckAdmitsSynthetic: the generated SYNTHETIC system
// comparison loads and is admitted, 6 tasks, 36 workflows, 72 sessions,
// Serena's 12 initial_instructions calls set apart as setup overhead.
func TestSystemCheckAdmitsSynthetic(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "gen")
	code, out, errs := runCLI(t, "fixtures", "generate", "--design", "system-comparison", "--out", dir)
	if code != 0 || !strings.Contains(out, "SYNTHETIC system-comparison campaign written: 6 tasks × 2 repetitions × 3 systems = 36 workflows, 72 sessions") {
		t.Fatalf("generate: %d %s %s", code, out, errs)
	}
	code, rep := sysCheck(t, dir)
	if code != 0 || !rep.Admitted || rep.Counts == nil || rep.Counts.Workflows != 36 || rep.Counts.Sessions != 72 || rep.Counts.SetupOverheadCalls != 12 || !rep.Synthetic {
		t.Fatalf("check: exit %d, %+v, %s", code, rep.Counts, reasonsOf(rep))
	}
	if code, _, _ := runCLI(t, "fixtures", "generate", "--design", "system-comparison", "--tasks", "3", "--out", filepath.Join(t.TempDir(), "x")); code != 2 {
		t.Errorf("--tasks with the fixed §6 shape: exit %d, want 2", code)
	}
}

// TestSystemRefusals: each contract rule of the format refuses the
// campaign that breaks it, with its reason.
func TestSystemRefusals(t *testing.T) {
	for name, c := range map[string]struct {
		mutate func(*fixtures.SystemFixture) error
		reason string
	}{
		"madar provider version": {func(f *fixtures.SystemFixture) error {
			f.Manifest.Systems[1].Provider.Version = "0.33.0"
			return nil
		}, "system-identity-mismatch"},
		"serena allowlist without a tool": {func(f *fixtures.SystemFixture) error {
			f.Manifest.Systems[2].MCPTools = f.Manifest.Systems[2].MCPTools[:6]
			return nil
		}, "system-identity-mismatch"},
		"madar extra tool": {func(f *fixtures.SystemFixture) error {
			f.Manifest.Systems[1].MCPTools = append(f.Manifest.Systems[1].MCPTools, "context_pack")
			return nil
		}, "system-identity-mismatch"},
		"ordinary tools differ": {func(f *fixtures.SystemFixture) error {
			f.Manifest.Systems[2].OrdinaryTools = []string{"read_file", "search_text", "run_shell"}
			return nil
		}, "system-identity-mismatch"},
		"provider order unbalanced": {func(f *fixtures.SystemFixture) error {
			// Block T1 repetition 1 takes block T1 repetition 2's order.
			ws := f.Manifest.Workflows
			for i := 0; i < 3; i++ {
				ws[i].Position = ws[3+indexOf(ws[3:6], ws[i].System)].Position
			}
			return nil
		}, "provider-order-unbalanced"},
		"five tasks": {func(f *fixtures.SystemFixture) error {
			f.Manifest.Tasks = f.Manifest.Tasks[:5]
			return nil
		}, "system-shape"},
		"packet reordered": {func(f *fixtures.SystemFixture) error {
			return f.EditPacket("W1", func(p *campaign.ObservationPacket) {
				p.Items[0], p.Items[1] = p.Items[1], p.Items[0]
				p.Items[0].ID, p.Items[1].ID = "E1", "E2"
			})
		}, "packet-not-byte-identical"},
		"packet item dropped": {func(f *fixtures.SystemFixture) error {
			return f.EditPacket("W1", func(p *campaign.ObservationPacket) { p.Items = p.Items[:1] })
		}, "packet-not-byte-identical"},
		"serena manual passed off as evidence": {func(f *fixtures.SystemFixture) error {
			w := workflowOf(f, campaign.SystemSerena)
			return f.EditPacket(w.ID, func(p *campaign.ObservationPacket) {
				p.SetupOverhead = []campaign.SetupObservation{}
				lg := f.Logs[w.Sessions.Investigation]
				c := lg.Calls[0]
				item := campaign.ObservationItem{ID: "E1", CallID: c.CallID, Tool: c.Tool, Kind: c.Kind, Server: c.Server, Arguments: c.Arguments, RequestedUTC: c.RequestedUTC,
					CompletedUTC: *c.CompletedUTC, CompletionMonotonicNS: *c.CompletionMonotonicNS, Outcome: c.Outcome, ResponseBase64: c.ResponseBase64,
					ResponseSHA256: strings.Repeat("0", 64), Metadata: c.Metadata, DeclaredSources: c.DeclaredSources, Tokens: c.Tokens}
				p.Items = append([]campaign.ObservationItem{item}, p.Items...)
				for i := range p.Items {
					p.Items[i].ID = "E" + string(rune('1'+i))
				}
			})
		}, "packet-not-byte-identical"},
		"receipt operations differ from the log": {func(f *fixtures.SystemFixture) error {
			f.Receipts[f.Manifest.Workflows[0].Sessions.Investigation].OrdinaryCalls++
			return nil
		}, "record-mismatch"},
		"runner count contradicts the tokenizer": {func(f *fixtures.SystemFixture) error {
			f.Logs[f.Manifest.Workflows[0].Sessions.Investigation].Calls[0].Tokens++
			return nil
		}, "observation-log"},
		"cold setup attributed to a later workflow": {func(f *fixtures.SystemFixture) error {
			for i := range f.Setup.Cold {
				if f.Setup.Cold[i].System == campaign.SystemMadar {
					f.Setup.Cold[i].Workflow = "W36"
					break
				}
			}
			return nil
		}, "setup-record"},
		"cold setup entry missing": {func(f *fixtures.SystemFixture) error {
			f.Setup.Cold = f.Setup.Cold[1:]
			return nil
		}, "setup-record"},
		"initial_instructions not charged": {func(f *fixtures.SystemFixture) error {
			f.Setup.InitialInstructions = f.Setup.InitialInstructions[1:]
			return nil
		}, "setup-record"},
		"delivered runtime differs": {func(f *fixtures.SystemFixture) error {
			w := workflowOf(f, campaign.SystemSerena)
			x := strings.Repeat("f", 64)
			f.Receipts[w.Sessions.Investigation].RuntimeSHA256 = &x
			return nil
		}, "delivered-identity-mismatch"},
		"review of an evidence_budget_exceeded packet launched": {func(f *fixtures.SystemFixture) error {
			return f.PadPacket(f.Manifest.Workflows[0], campaign.PacketTokenLimit+1)
		}, "review-not-launched"},
		"review after a timed-out investigation": {func(f *fixtures.SystemFixture) error {
			f.FailInvestigation(f.Manifest.Workflows[0])
			return nil
		}, "review-not-launched"},
		"draft altered before the review": {func(f *fixtures.SystemFixture) error {
			// The review's recorded input is the prompt with the draft the
			// investigation returned; a filtered draft breaks it.
			id := f.Manifest.Workflows[0].Sessions.Investigation
			f.Drafts[id] = []byte("SYNTHETIC filtered draft.\n")
			return nil
		}, "delivered-input-mismatch"},
	} {
		t.Run(name, func(t *testing.T) {
			code, rep := sysCheck(t, sysCampaign(t, c.mutate))
			if code != 1 || !strings.Contains(reasonsOf(rep), c.reason) {
				t.Fatalf("exit %d, reasons %q; want exit 1 with %s", code, reasonsOf(rep), c.reason)
			}
		})
	}
}

func indexOf(ws []campaign.Workflow, s campaign.SystemName) int {
	for i, w := range ws {
		if w.System == s {
			return i
		}
	}
	return -1
}

// TestSystemValidFailures: an investigation-stage failure and an
// over-budget packet are valid system failures (charges kept, review not
// launched): the campaign stays admitted, the packet keeps every item.
func TestSystemValidFailures(t *testing.T) {
	dir := sysCampaign(t, func(f *fixtures.SystemFixture) error {
		f.FailInvestigation(f.Manifest.Workflows[0])
		f.NotDispatched(f.Manifest.Workflows[0])
		if err := f.PadPacket(f.Manifest.Workflows[1], campaign.PacketTokenLimit+1); err != nil {
			return err
		}
		f.NotDispatched(f.Manifest.Workflows[1])
		if err := f.PadPacket(f.Manifest.Workflows[2], campaign.PacketTokenLimit); err != nil {
			return err
		}
		return f.RebindReview(f.Manifest.Workflows[2])
	})
	code, rep := sysCheck(t, dir)
	if code != 0 || rep.Counts.EvidenceBudgetExceeded != 1 {
		t.Fatalf("exit %d, counts %+v, reasons %s", code, rep.Counts, reasonsOf(rep))
	}
	var p campaign.ObservationPacket
	b, _ := os.ReadFile(filepath.Join(dir, "packets", "W2.json"))
	if err := json.Unmarshal(b, &p); err != nil || p.Status != campaign.PacketEvidenceBudgetExceeded || p.Tokens != campaign.PacketTokenLimit+1 || len(p.Items) != 3 {
		t.Fatalf("over-budget packet: %v %s %d tokens %d items", err, p.Status, p.Tokens, len(p.Items))
	}
	b, _ = os.ReadFile(filepath.Join(dir, "packets", "W3.json"))
	if err := json.Unmarshal(b, &p); err != nil || p.Status != campaign.PacketDelivered || p.Tokens != campaign.PacketTokenLimit {
		t.Fatalf("packet at the bound: %v %s %d tokens", err, p.Status, p.Tokens)
	}
}

// TestSystemPacketizeByteIdentity: verdict packetize rebuilds every
// packet of the campaign byte for byte, and refuses to replace a file.
func TestSystemPacketizeByteIdentity(t *testing.T) {
	dir := sysCampaign(t, nil)
	c, err := campaign.LoadSystemComparison(os.DirFS(dir))
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range c.Workflows {
		code, out, errs := runCLI(t, "packetize", filepath.Join(dir, campaign.ObservationLogFile(w.Workflow.Sessions.Investigation)))
		want, _ := os.ReadFile(filepath.Join(dir, campaign.PacketFile(w.Workflow.ID)))
		if code != 0 || out != string(want) {
			t.Fatalf("%s: exit %d %s; packet not byte-identical", w.Workflow.ID, code, errs)
		}
	}
	if code, _, _ := runCLI(t, "packetize", filepath.Join(dir, "observations", "S1.json"), "--out", filepath.Join(dir, "packets", "W1.json")); code != 1 {
		t.Errorf("packetize over an existing packet: exit %d, want 1", code)
	}
	// verdict prompts renders exactly the inputs the receipts record.
	for _, s := range []struct{ raw, session string }{{"investigation", "S1"}, {"review", "S2"}} {
		code, out, errs := runCLI(t, "prompts", dir, "--workflow", "W1", "--raw", s.raw)
		var r campaign.SystemReceipt
		b, _ := os.ReadFile(filepath.Join(dir, "receipts", s.session+".json"))
		if err := json.Unmarshal(b, &r); err != nil || code != 0 || hexSHA(out) != *r.InputSHA256 {
			t.Fatalf("prompts --raw %s: exit %d %s; digest differs from the receipt's input", s.raw, code, errs)
		}
	}
}

func hexSHA(s string) string { h := sha256.Sum256([]byte(s)); return hex.EncodeToString(h[:]) }

// TestSystemAdmitPlan: `verdict admit` runs a system comparison through
// its design (scorer.Design): admitted without a plan, and a plan's
// dispatches decided by the design's replay: a workflow's session that
// already has a receipt is a rerun, a workflow the manifest lacks and a
// fixed-evidence (task, repetition) dispatch are unknown workflows; a
// dispatch naming both a workflow and a task is a malformed plan.
func TestSystemAdmitPlan(t *testing.T) {
	dir := sysCampaign(t, nil)
	code, out, errs := runCLI(t, "admit", "--format", "json", dir)
	if code != 0 || !strings.Contains(out, `"design": "system-comparison"`) || !strings.Contains(out, `"sessions": 90`) {
		t.Fatalf("admit: exit %d %s %s", code, out, errs)
	}
	plan := func(disp string) string {
		p := filepath.Join(t.TempDir(), "plan.json")
		body := `{"format": "verdict-admission-plan/1", "prior_consumption": {"sessions": 0, "replacement_sessions": 0, "wall_ns": 0,
 "input_tokens": 0, "output_tokens": 0, "reference_micro_usd": 0, "actual_micro_usd": 0}, "dispatches": [` + disp + `]}`
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	p := plan(`{"id": "P1", "workflow": "W1", "role": "investigation", "replacement": false},
 {"id": "P2", "workflow": "W99", "role": "review", "replacement": false},
 {"id": "P3", "task": "T1", "repetition": 1, "role": "draft", "replacement": false}`)
	code, out, errs = runCLI(t, "admit", "--format", "json", "--plan", p, dir)
	var got struct {
		Replay struct {
			Decisions []struct {
				Dispatch struct{ Workflow string }
				Admitted bool
				Reason   string
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v: %s %s", err, out, errs)
	}
	var reasons []string
	for _, d := range got.Replay.Decisions {
		reasons = append(reasons, d.Dispatch.Workflow+"="+d.Reason)
	}
	if code != 1 || strings.Join(reasons, " ") != "W1=dispatch-rerun W99=dispatch-unknown-workflow =dispatch-unknown-workflow" {
		t.Fatalf("exit %d, decisions %v", code, reasons)
	}
	code, out, _ = runCLI(t, "admit", "--plan", plan(`{"id": "P1", "workflow": "W1", "task": "T1", "role": "review", "replacement": false}`), dir)
	if code != 1 || !strings.Contains(out, "plan-malformed") {
		t.Fatalf("both a workflow and a task: exit %d %s", code, out)
	}
}

// TestSystemCitationSupport: `verdict check` lists every review citation
// whose text the cited observation did not return, or that the frozen
// repository does not hold, as a citation finding (a scored failure of
// that review's source gate, not an admission finding: exit 0); the
// fixture's own citations, each at the span its observation returned,
// give none.
func TestSystemCitationSupport(t *testing.T) {
	if code, rep := sysCheck(t, sysCampaign(t, nil)); code != 0 || len(rep.Citations) != 0 {
		t.Fatalf("fixture: exit %d, citation findings %v", code, rep.Citations)
	}
	var w1 campaign.Workflow
	dir := sysCampaign(t, func(f *fixtures.SystemFixture) error {
		w1 = f.Manifest.Workflows[0]
		// citation 0 keeps E1's span but names E2, which did not return it;
		// citation 1 names a file the frozen repository does not hold
		if err := f.EditCitation(w1, 0, func(c *campaign.Citation) { c.EvidenceID = "E2" }); err != nil {
			return err
		}
		return f.EditCitation(w1, 1, func(c *campaign.Citation) { c.Path = "src/absent.ts" })
	})
	code, rep := sysCheck(t, dir)
	if code != 0 || !rep.Admitted {
		t.Fatalf("exit %d, admitted %t: %s", code, rep.Admitted, reasonsOf(rep))
	}
	var got []string
	for _, p := range rep.Citations {
		got = append(got, p.File+p.Pointer+"="+string(p.Reason))
	}
	rp := campaign.ResponsePath(w1.Sessions.Review)
	want := []string{rp + "/final/citations/0=citation-not-visible", rp + "/final/citations/1/path=citation-not-in-repository"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("citation findings %v, want %v", got, want)
	}
	code, out, _ := runCLI(t, "check", dir)
	if code != 0 || !strings.Contains(out, "citation findings (scored: each fails its review's source gate): 2\n  "+rp) {
		t.Errorf("text report: exit %d\n%s", code, out)
	}
}

// TestSystemBlind: `verdict blind` blinds a system comparison through its
// design (scorer.Design.Blinding): one item per answered review (36), no
// evidence (a raw-observation packet would name the system's tools and
// packet kind), the obligations of both sets (repository-answerable, and
// the U set marked not answerable), no system name, tool or cost in any
// bundle; a review answer that names a provider is a leak finding
// (blinding.SystemLeakTokens).
func TestSystemBlind(t *testing.T) {
	dir := sysCampaign(t, nil)
	out := t.TempDir()
	code, stdout, errs := runCLI(t, "blind", dir, "--out", filepath.Join(out, "r"), "--map-out", filepath.Join(out, "map.json"))
	if code != 0 || !strings.Contains(stdout, "bundled items: 36") || !strings.Contains(stdout, "leak scan: 0 finding(s)") {
		t.Fatalf("blind: exit %d %s %s", code, stdout, errs)
	}
	b, err := os.ReadFile(filepath.Join(out, "r", "bundle-rater-1.json"))
	if err != nil {
		t.Fatal(err)
	}
	var bundle struct {
		Items []struct {
			Evidence    []json.RawMessage
			Obligations []struct{ Answerable bool }
		}
	}
	if err := json.Unmarshal(b, &bundle); err != nil {
		t.Fatal(err)
	}
	unanswerable := 0
	for _, it := range bundle.Items {
		if len(it.Evidence) != 0 {
			t.Fatalf("a system item shows evidence: %d items", len(it.Evidence))
		}
		for _, o := range it.Obligations {
			if !o.Answerable {
				unanswerable++
			}
		}
	}
	low := strings.ToLower(string(b))
	for _, word := range []string{"madar", "serena", `"native"`, "initial_instructions", "raw-observation", "usd", "investigation"} {
		if strings.Contains(low, word) {
			t.Errorf("bundle holds %q", word)
		}
	}
	if len(bundle.Items) != 36 || unanswerable == 0 {
		t.Fatalf("%d items, %d U-set obligations", len(bundle.Items), unanswerable)
	}
	leaky := sysCampaign(t, func(f *fixtures.SystemFixture) error {
		s := f.Manifest.Workflows[0].Sessions.Review
		f.Reviews[s] = []byte(strings.Replace(string(f.Reviews[s]), "SYNTHETIC: observation", "SYNTHETIC: Serena's find_symbol observation", 1))
		return nil
	})
	code, stdout, errs = runCLI(t, "blind", leaky, "--out", filepath.Join(out, "leaky"), "--map-out", filepath.Join(out, "leaky-map.json"))
	if !strings.Contains(stdout+errs, "serena") || strings.Contains(stdout, "leak scan: 0 finding(s)") {
		t.Fatalf("a provider name in an answer: exit %d %s %s", code, stdout, errs)
	}
}
