package campaign

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"verdict/verr"

	"github.com/go-json-experiment/json/jsontext"
)

// Rules cited by the system-comparison refusals.
const (
	RuleSystemManifest = "CONTRACT §6 conditional system comparison: frozen providers, six tasks, 36 workflows"
	RuleProviderOrder  = "CONTRACT §6 provider order balanced across the six permutations"
	RuleSystemTruth    = "CONTRACT §6 frozen repository-answerable denominator and separate U set"
	RulePacketProc     = "PROMPTS.md conditional system comparison: neutral packetizer, raw observations"
	RuleSetup          = "CONTRACT §6 cold setup/index/startup/readiness charged per system and repository"
)

// Reasons of the system-comparison decoding and loading.
const (
	// ReasonDesign: manifest.json names a design this build does not know.
	ReasonDesign verr.Reason = "design-unknown"
	// ReasonSystemIdentity: a system's provider, allowlist, profile or
	// ordinary tools differ from the contract's frozen values.
	ReasonSystemIdentity verr.Reason = "system-identity-mismatch"
	// ReasonSystemShape: the campaign is not six tasks from three
	// repositories (two each), two repetitions, three systems: 36 workflows.
	ReasonSystemShape verr.Reason = "system-shape"
	// ReasonProviderOrder: the blocks' provider orders are not balanced
	// across the six permutations (each exactly twice, a task's two
	// repetitions in different orders) or a block's positions are not 1, 2, 3.
	ReasonProviderOrder verr.Reason = "provider-order-unbalanced"
	// ReasonReplacesUnknownWorkflow: a workflow's replaces names no earlier
	// workflow of the same task, repetition and system, or a second
	// replacement is declared.
	ReasonReplacesUnknownWorkflow verr.Reason = "replaces-unknown-workflow"
	// ReasonObservationLog: an observation log record is inconsistent
	// (times out of order, bytes not base64, arguments or metadata not
	// JSON, a delivered call without completion, a count not matching).
	ReasonObservationLog verr.Reason = "observation-log"
	// ReasonPacketNotByteIdentical: packets/<W>.json is not the packet the
	// neutral packetizer builds from its observation log, byte for byte.
	ReasonPacketNotByteIdentical verr.Reason = "packet-not-byte-identical"
	// ReasonSourceRef: a source reference names a file absent from the
	// frozen repository or lines beyond its last physical line.
	ReasonSourceRef verr.Reason = "source-ref"
	// ReasonSetupRecord: setup.json does not hold one cold entry per system
	// and repository attributed to that system's first workflow on it, a
	// phase ends before it starts, or an initial_instructions record does
	// not match the observation log.
	ReasonSetupRecord verr.Reason = "setup-record"
	// ReasonRecordMismatch: a log, packet or receipt names another
	// session, workflow or system than the manifest gives it.
	ReasonRecordMismatch verr.Reason = "record-mismatch"
)

// ManifestDesign returns the design a manifest.json names: its top-level
// "design" member, DesignFixedEvidence when the member is absent (the
// first-experiment manifest has none). It reads only the top level; the
// manifest's strict decoding decides everything else. An unknown design is
// ReasonDesign.
func ManifestDesign(data []byte, file string) (Design, error) {
	dec := jsontext.NewDecoder(bytes.NewReader(data))
	if tok, err := dec.ReadToken(); err != nil || tok.Kind() != '{' {
		return DesignFixedEvidence, nil // the strict decoding refuses it
	}
	for dec.PeekKind() == '"' {
		name, err := dec.ReadToken()
		if err != nil {
			return DesignFixedEvidence, nil
		}
		if name.String() != "design" {
			if dec.SkipValue() != nil {
				return DesignFixedEvidence, nil
			}
			continue
		}
		v, err := dec.ReadToken()
		if err != nil || v.Kind() != '"' {
			return "", verr.Newf(ReasonDesign, file, "/design", RuleSystemManifest, "design is not a string")
		}
		switch d := Design(v.String()); d {
		case DesignFixedEvidence, DesignSystemComparison:
			return d, nil
		default:
			return "", verr.Newf(ReasonDesign, file, "/design", RuleSystemManifest, "design %q is neither %q nor %q", d, DesignFixedEvidence, DesignSystemComparison)
		}
	}
	return DesignFixedEvidence, nil
}

// DecodeSystemManifest strictly decodes a system-comparison manifest.json:
// strict JSON, the embedded system-manifest schema, then the rules a
// schema cannot say: trimmed texts; the three systems in order native,
// madar, serena with the contract's frozen provider identities, exact MCP
// allowlists, Madar's core profile and one ordinary tool list shared by
// all three (ReasonSystemIdentity); six tasks, three repositories with two
// tasks each; 36 original workflows, one per task, repetition (1–2) and
// system, with unique W and S IDs; each block (task, repetition) holding
// positions 1, 2, 3 once, each of the six provider permutations used by
// exactly two blocks and a task's two repetitions in different
// permutations (ReasonProviderOrder); at most one replacement workflow,
// naming an earlier workflow of the same task, repetition and system.
// Every refusal is a *verr.Error.
func DecodeSystemManifest(data []byte, file string) (*SystemManifest, error) {
	var m SystemManifest
	if e := decodeReference(data, file, SchemaSystemManifest, &m); e != nil {
		return nil, e
	}
	r := rules{file: file, rule: RuleSystemManifest}
	r.text(at("/campaign_id"), m.CampaignID)
	r.text(at("/first_experiment/campaign_id"), m.FirstExperiment.CampaignID)
	r.execution(m.Execution)
	for i, s := range m.Systems {
		r.system(i, s)
		// The ordinary tools are one list for all three (CONTRACT §6 "Native
		// tools remain available to every system").
		if i > 0 && !slices.Equal(s.OrdinaryTools, m.Systems[0].OrdinaryTools) {
			r.fail(ReasonSystemIdentity, at("/systems").elem(i).field("/ordinary_tools"), "%s's ordinary tools [%s] differ from native's [%s]; every system has the same ordinary tools",
				s.Name, strings.Join(s.OrdinaryTools, ", "), strings.Join(m.Systems[0].OrdinaryTools, ", "))
		}
	}
	for _, p := range []struct {
		ptr, v string
	}{{"/prompts/investigator", m.Prompts.Investigator}, {"/prompts/common", m.Prompts.Common}, {"/prompts/review", m.Prompts.Review}, {"/prompts/final_schema", m.Prompts.FinalSchema}} {
		r.filePath(at(p.ptr), p.v)
	}
	if rs := m.Prompts.ReconciliationSchema; (rs != nil) != (m.SelectedReview == RoleReviewB) {
		r.fail(ReasonSystemShape, at("/prompts/reconciliation_schema"), "the reconciliation schema is bound exactly when the selected review is review-b")
	} else if rs != nil {
		r.filePath(at("/prompts/reconciliation_schema"), *rs)
	}
	r.systemTasks(m.Tasks)
	r.workflows(&m)
	r.boundFiles(m.Files)
	if r.err != nil {
		return nil, r.err
	}
	return &m, nil
}

// system checks systems[i] against the contract's frozen identity.
func (r *rules) system(i int, s System) {
	p := at("/systems").elem(i)
	want := SystemNames[i]
	if s.Name != want {
		r.fail(ReasonSystemIdentity, p.field("/name"), "system %d is %q; the systems are native, madar, serena in that order", i+1, s.Name)
		return
	}
	if fp := FrozenProvider(want); fp == nil {
		if s.Provider != nil {
			r.fail(ReasonSystemIdentity, p.field("/provider"), "native has no provider; it uses the ordinary tools only")
		}
	} else if s.Provider == nil {
		r.fail(ReasonSystemIdentity, p.field("/provider"), "%s's provider is missing; the contract pins %s@%s (source %s)", want, fp.Package, fp.Version, fp.SourceCommit)
	} else if s.Provider.Package != fp.Package || s.Provider.Version != fp.Version || s.Provider.SourceCommit != fp.SourceCommit {
		r.fail(ReasonSystemIdentity, p.field("/provider"), "%s's provider is %s@%s (source %s); the contract pins %s@%s (source %s)", want,
			s.Provider.Package, s.Provider.Version, s.Provider.SourceCommit, fp.Package, fp.Version, fp.SourceCommit)
	} else {
		r.optText(p.field("/provider/integrity"), s.Provider.Integrity)
	}
	if tools := FrozenMCPTools(want); !slices.Equal(s.MCPTools, tools) {
		r.fail(ReasonSystemIdentity, p.field("/mcp_tools"), "%s's MCP allowlist is [%s]; the frozen allowlist is exactly [%s]", want, strings.Join(s.MCPTools, ", "), strings.Join(tools, ", "))
	}
	profile := ""
	if s.ToolProfile != nil {
		profile = *s.ToolProfile
	}
	if fp := FrozenToolProfile(want); profile != fp || (s.ToolProfile != nil && fp == "") {
		r.fail(ReasonSystemIdentity, p.field("/tool_profile"), "%s's tool profile is %q; the contract fixes %q (null when none)", want, profile, fp)
	}
	r.optText(p.field("/permission_policy"), s.PermissionPolicy)
}

// execution checks the texts of the execution identities (both designs).
func (r *rules) execution(x Execution) {
	for _, f := range []struct {
		p string
		v *string
	}{{"/execution/consumer_version", x.ConsumerVersion}, {"/execution/model", x.Model}, {"/execution/model_snapshot", x.ModelSnapshot},
		{"/execution/reasoning_effort", x.ReasoningEffort}, {"/execution/tokenizer", x.Tokenizer}, {"/execution/host", x.Host},
		{"/execution/permission_policy", x.PermissionPolicy}} {
		r.optText(at(f.p), f.v)
	}
	if x.PriceCard != nil {
		r.text(at("/execution/price_card/id"), x.PriceCard.ID)
	}
}

// systemTasks checks six tasks from three repositories, two each.
func (r *rules) systemTasks(tasks []TaskEntry) {
	seen := map[string]loc{}
	repos := map[string]int{}
	var order []string
	for i, t := range tasks {
		r.declareMap(seen, at("/tasks").elem(i).field("/id"), "T", t.ID)
		if repos[t.Repository] == 0 {
			order = append(order, t.Repository)
		}
		repos[t.Repository]++
	}
	if len(tasks) != SystemTasks {
		r.fail(ReasonSystemShape, at("/tasks"), "%d tasks; the system comparison has exactly %d fresh tasks", len(tasks), SystemTasks)
		return
	}
	if len(repos) != SystemRepositories {
		r.fail(ReasonSystemShape, at("/tasks"), "the tasks come from %d repositories (%s); the system comparison uses exactly %d, two tasks each", len(repos), strings.Join(order, ", "), SystemRepositories)
		return
	}
	for _, repo := range order {
		if repos[repo] != SystemTasks/SystemRepositories {
			r.fail(ReasonSystemShape, at("/tasks"), "repository %s has %d tasks; each of the three repositories has exactly two", repo, repos[repo])
		}
	}
}

// workflows checks the 36 workflows and the provider-order balance.
func (r *rules) workflows(m *SystemManifest) {
	tasks := map[string]bool{}
	for _, t := range m.Tasks {
		tasks[t.ID] = true
	}
	ids := map[string]loc{}
	sessions := map[string]loc{}
	type slot struct {
		task string
		rep  int
		sys  SystemName
	}
	original := map[slot]int{} // index of the original workflow of each slot
	blocks := map[string][3]SystemName{}
	var blockOrder []string
	replacements := 0
	for i, w := range m.Workflows {
		p := at("/workflows").elem(i)
		r.declareMap(ids, p.field("/id"), "W", w.ID)
		r.declareMap(sessions, p.field("/sessions/investigation"), "S", w.Sessions.Investigation)
		r.declareMap(sessions, p.field("/sessions/review"), "S", w.Sessions.Review)
		if !tasks[w.Task] {
			r.fail(ReasonUnknownTask, p.field("/task"), "workflow names task %s, which the manifest does not list", w.Task)
			continue
		}
		k := slot{w.Task, w.Repetition, w.System}
		if w.Replaces != nil {
			replacements++
			j, ok := original[k]
			switch {
			case !ok || m.Workflows[j].ID != *w.Replaces:
				r.fail(ReasonReplacesUnknownWorkflow, p.field("/replaces"), "replaces %s, which is not an earlier workflow of task %s repetition %d system %s", *w.Replaces, w.Task, w.Repetition, w.System)
			case replacements > 1:
				r.fail(ReasonReplacesUnknownWorkflow, p.field("/replaces"), "a second replacement workflow; one infrastructure replacement at most")
			case w.Position != m.Workflows[j].Position:
				r.fail(ReasonProviderOrder, p.field("/position"), "a replacement keeps the position of the workflow it replaces (%d)", m.Workflows[j].Position)
			}
			continue
		}
		if j, dup := original[k]; dup {
			r.fail(ReasonSystemShape, p, "task %s repetition %d system %s already has workflow %s and this one does not say which it replaces", w.Task, w.Repetition, w.System, m.Workflows[j].ID)
			continue
		}
		original[k] = i
		key := fmt.Sprintf("%s#%d", w.Task, w.Repetition)
		b, seen := blocks[key]
		if !seen {
			blockOrder = append(blockOrder, key)
		}
		if b[w.Position-1] != "" {
			r.fail(ReasonProviderOrder, p.field("/position"), "task %s repetition %d already has %s at position %d", w.Task, w.Repetition, b[w.Position-1], w.Position)
			continue
		}
		b[w.Position-1] = w.System
		blocks[key] = b
	}
	if r.err != nil {
		return
	}
	if len(original) != SystemWorkflows {
		r.fail(ReasonSystemShape, at("/workflows"), "%d original workflows; the system comparison has exactly %d (6 tasks × 2 repetitions × 3 systems)", len(original), SystemWorkflows)
		return
	}
	uses := map[[3]SystemName]int{}
	perTask := map[string][3]SystemName{}
	for _, key := range blockOrder {
		b := blocks[key]
		uses[b]++
		task, _, _ := strings.Cut(key, "#")
		if prev, ok := perTask[task]; ok && prev == b {
			r.fail(ReasonProviderOrder, at("/workflows"), "task %s runs both repetitions in the order %s; its two repetitions use different permutations", task, orderString(b))
		}
		perTask[task] = b
	}
	for _, perm := range SystemPermutations() {
		if n := uses[perm]; n != 2 {
			r.fail(ReasonProviderOrder, at("/workflows"), "the provider order %s is used by %d blocks; each of the six permutations is used by exactly two of the twelve blocks", orderString(perm), n)
		}
	}
}

// SystemPermutations returns the six provider orders in lexicographic
// order of the manifest's system order (native, madar, serena).
func SystemPermutations() [][3]SystemName {
	n, m, s := SystemNative, SystemMadar, SystemSerena
	return [][3]SystemName{{n, m, s}, {n, s, m}, {m, n, s}, {m, s, n}, {s, n, m}, {s, m, n}}
}

func orderString(b [3]SystemName) string {
	return string(b[0]) + "→" + string(b[1]) + "→" + string(b[2])
}

// DecodeSystemTruth strictly decodes a system-comparison
// tasks/<T>/truth.json: strict JSON, the embedded schema (at least two
// repository-answerable obligations), trimmed texts, O IDs unique across
// both sets, relative paths and ordered lines. That the source references
// exist in the frozen repository is checked by LoadSystemComparison.
func DecodeSystemTruth(data []byte, file string) (*SystemTruth, error) {
	var t SystemTruth
	if e := decodeReference(data, file, SchemaSystemTruth, &t); e != nil {
		return nil, e
	}
	r := rules{file: file, rule: RuleSystemTruth}
	seen := map[string]loc{}
	for _, set := range []struct {
		ptr  string
		obls []SystemObligation
	}{{"/repository_answerable", t.RepositoryAnswerable}, {"/unanswerable", t.Unanswerable}} {
		for i, o := range set.obls {
			p := at(set.ptr).elem(i)
			r.declareMap(seen, p.field("/id"), "O", o.ID)
			r.text(p.field("/text"), o.Text)
			r.text(p.field("/required_verification"), o.RequiredVerification)
			r.text(p.field("/source_justification"), o.SourceJustification)
			for j, s := range o.Sources {
				q := at(fmt.Sprintf("%s/%d/sources/%d", set.ptr, i, j))
				r.path(q.field("/path"), s.Path)
				r.lines(q, s.StartLine, s.EndLine)
			}
		}
	}
	if r.err != nil {
		return nil, r.err
	}
	return &t, nil
}

// DecodeSystemReceipt strictly decodes a system-comparison
// receipts/<S>.json: strict JSON, the embedded system-receipt schema (the
// first experiment's receipt members plus workflow, system and the
// delivered provider identities), then trimmed texts.
func DecodeSystemReceipt(data []byte, file string) (*SystemReceipt, error) {
	var v SystemReceipt
	if e := decodeReference(data, file, SchemaSystemReceipt, &v); e != nil {
		return nil, e
	}
	if e := receiptRules(file, &v.Receipt, &v.Workflow); e != nil {
		return nil, e
	}
	return &v, nil
}

// DecodeObservationLog strictly decodes observations/<S>.json: strict
// JSON, the embedded schema, then per call: arguments and metadata are
// JSON texts (metadata an object), the response is standard base64, a
// delivered call has its completion time and monotonic reading at or
// after its request, an undelivered one may lack them, call IDs are
// unique, an ordinary call has no server and an MCP call names one, and
// declared source coordinates are relative paths with ordered lines.
func DecodeObservationLog(data []byte, file string) (*ObservationLog, error) {
	var v ObservationLog
	if e := decodeReference(data, file, SchemaObservationLog, &v); e != nil {
		return nil, e
	}
	r := rules{file: file, rule: RulePacketProc}
	r.text(at("/tokenizer"), v.Tokenizer)
	ids := map[string]bool{}
	for i, c := range v.Calls {
		p := at("/calls").elem(i)
		if ids[c.CallID] {
			r.fail(ReasonObservationLog, p.field("/call_id"), "call ID %q is recorded twice", c.CallID)
		}
		ids[c.CallID] = true
		r.observationCall(p, c.Kind, c.Server, c.Arguments, c.Metadata, c.ResponseBase64, c.DeclaredSources, fmt.Sprintf("/calls/%d", i))
		if c.Delivered && (c.CompletedUTC == nil || c.CompletionMonotonicNS == nil) {
			r.fail(ReasonObservationLog, p.field("/completed_utc"), "a delivered call has no completion time")
		}
		if c.CompletionMonotonicNS != nil && *c.CompletionMonotonicNS < c.RequestMonotonicNS {
			r.fail(ReasonObservationLog, p.field("/completion_monotonic_ns"), "the call completes before it was requested")
		}
		if c.CompletedUTC != nil && *c.CompletedUTC < c.RequestedUTC {
			r.fail(ReasonObservationLog, p.field("/completed_utc"), "the call completes (%s) before it was requested (%s)", *c.CompletedUTC, c.RequestedUTC)
		}
	}
	if r.err != nil {
		return nil, r.err
	}
	return &v, nil
}

// observationCall checks the members a log call and a packet item share.
func (r *rules) observationCall(p loc, kind string, server *string, args, meta, resp string, sources []SourceRef, base string) {
	if (kind == ToolMCP) != (server != nil) {
		r.fail(ReasonObservationLog, p.field("/server"), "an MCP call names its server and an ordinary call has none")
	}
	r.optText(p.field("/server"), server)
	if !json.Valid([]byte(args)) {
		r.fail(ReasonObservationLog, p.field("/arguments"), "the request arguments are not JSON text")
	}
	if !json.Valid([]byte(meta)) || !strings.HasPrefix(strings.TrimLeft(meta, " \t\r\n"), "{") {
		r.fail(ReasonObservationLog, p.field("/metadata"), "the metadata is not a JSON object text")
	}
	if _, err := base64.StdEncoding.Strict().DecodeString(resp); err != nil {
		r.fail(ReasonObservationLog, p.field("/response_base64"), "the response is not standard base64: %v", err)
	}
	for j, s := range sources {
		q := at(fmt.Sprintf("%s/declared_sources/%d", base, j))
		r.path(q.field("/path"), s.Path)
		r.lines(q, s.StartLine, s.EndLine)
	}
}

// DecodeObservationPacket strictly decodes packets/<W>.json: strict JSON,
// the embedded schema, then item IDs E1..EN in order and the members an
// item shares with its log call. Byte identity with the packet the
// packetizer builds from the log is checked by LoadSystemComparison.
func DecodeObservationPacket(data []byte, file string) (*ObservationPacket, error) {
	var v ObservationPacket
	if e := decodeReference(data, file, SchemaObservationPacket, &v); e != nil {
		return nil, e
	}
	r := rules{file: file, rule: RulePacketProc}
	for i, it := range v.Items {
		p := at("/items").elem(i)
		if want := fmt.Sprintf("E%d", i+1); it.ID != want {
			r.fail(ReasonPacketNotByteIdentical, p.field("/id"), "item %d is %s; the packetizer numbers E1..EN in completion order", i+1, it.ID)
		}
		r.observationCall(p, it.Kind, it.Server, it.Arguments, it.Metadata, it.ResponseBase64, it.DeclaredSources, fmt.Sprintf("/items/%d", i))
	}
	if r.err != nil {
		return nil, r.err
	}
	return &v, nil
}

// DecodeSetup strictly decodes setup.json: strict JSON, the embedded
// schema, then trimmed texts and every phase ending at or after its start
// (UTC and monotonic). Its completeness against the manifest is checked by
// LoadSystemComparison.
func DecodeSetup(data []byte, file string) (*SetupRecord, error) {
	var v SetupRecord
	if e := decodeReference(data, file, SchemaSetup, &v); e != nil {
		return nil, e
	}
	r := rules{file: file, rule: RuleSetup}
	phases := func(base string, ph []SetupPhase) {
		for j, s := range ph {
			p := at(fmt.Sprintf("%s/phases/%d", base, j))
			if s.EndMonotonicNS < s.StartMonotonicNS || s.EndedUTC < s.StartedUTC {
				r.fail(ReasonSetupRecord, p, "the %s phase ends before it starts", s.Phase)
			}
		}
	}
	for i, c := range v.Cold {
		phases(fmt.Sprintf("/cold/%d", i), c.Phases)
	}
	for i, s := range v.SessionStartup {
		phases(fmt.Sprintf("/session_startup/%d", i), s.Phases)
	}
	for i, p := range v.Preparation {
		r.text(at("/preparation").elem(i).field("/purpose"), p.Purpose)
		if p.EndedUTC < p.StartedUTC {
			r.fail(ReasonSetupRecord, at("/preparation").elem(i), "the preparation session ends before it starts")
		}
	}
	if r.err != nil {
		return nil, r.err
	}
	return &v, nil
}
