package campaign

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"verdict/verr"
)

// systemBoundDirs are the directories of a system comparison every file of
// which the manifest must bind.
var systemBoundDirs = []string{TasksDir, ResponsesDir, ReceiptsDir, SourcesDir, PromptsDir, ObservationsDir, PacketsDir}

// SystemCampaign is a strictly loaded system-comparison campaign (CONTRACT
// §6). Tasks and Workflows keep manifest order.
type SystemCampaign struct {
	Manifest       SystemManifest
	ManifestSHA256 string
	// Prompts holds the prompt texts by key: PromptInvestigator,
	// PromptCommon, PromptReviewA or PromptReviewB (the selected review),
	// PromptFinalSchema and, for B, PromptReconciliationSchema.
	Prompts   map[string][]byte
	Tasks     []*SystemTask
	Workflows []*SystemWorkflow
	Setup     SetupRecord
}

// SystemTask is one task with its text and frozen truth.
type SystemTask struct {
	Entry TaskEntry
	Text  []byte
	Truth SystemTruth
}

// SystemWorkflow is one workflow with its two sessions, its observation
// log, its raw-observation packet and its investigation draft.
type SystemWorkflow struct {
	Workflow      Workflow
	Investigation SystemSession
	Review        SystemSession
	// Log is the observation log; nil when absent (no investigation output).
	Log *ObservationLog
	// Packet is the raw-observation packet (byte-identical to the one the
	// packetizer builds from Log); nil when absent.
	Packet *ObservationPacket
	// Draft is the investigation's plain-text draft; nil when absent.
	Draft []byte
}

// SystemSession is one session of a workflow: its receipt (nil when
// absent) and, for the review, the decoded answer or its refusal (a valid
// scored failure, as in the first experiment).
type SystemSession struct {
	ID      string
	Role    Role
	Receipt *SystemReceipt
	// Response, LedgerFailure and Failure are DecodeAnswer's results for
	// a review's raw output; all nil for an investigation.
	Response      *Response
	LedgerFailure *verr.Error
	Failure       *verr.Error
	// RawSHA256 and RawSize identify the raw output bytes ("" when absent).
	RawSHA256 string
	RawSize   int
}

// Task returns the task of a workflow, or nil.
func (c *SystemCampaign) Task(id string) *SystemTask {
	for _, t := range c.Tasks {
		if t.Entry.ID == id {
			return t
		}
	}
	return nil
}

// LoadSystemComparison strictly loads the system-comparison campaign rooted
// at fsys (CONTRACT §6, §7) through the shared loader: manifest.json
// (DecodeSystemManifest; a manifest of another design is ReasonDesign),
// its contract version and response-schema binding, the SHA-256 of every
// bound file (an unbound file under tasks/, responses/, receipts/,
// sources/, prompts/, observations/ or packets/ is refused), the prompts
// (the investigator instruction must be the frozen PROMPTS.md text), each
// task's text and truth (every source reference inside a whole file of the
// frozen repository under sources/<repository>/), and per workflow: the
// receipts of both sessions (their session, role, workflow, system, task
// and repetition must be the manifest's), the observation log, the packet
// (byte-identical to BuildObservationPacket of the log:
// ReasonPacketNotByteIdentical), the draft and the review's answer; last,
// setup.json (one cold entry per system and repository attributed to that
// system's first workflow on it, and every Serena initial_instructions
// call exactly as the packets set it apart). Every refusal is a
// *verr.Error; on refusal it returns nil and errors.Join of all, sorted.
func LoadSystemComparison(fsys fs.FS) (*SystemCampaign, error) {
	l := &loader{fsys: fsys, files: map[string][]byte{}, bound: map[string]bool{}, deferred: map[string]int{}, dec: decoder{reference: true}, dirs: systemBoundDirs}
	c := l.loadSystem()
	if len(l.errs) > 0 {
		return nil, l.joined()
	}
	return c, nil
}

func (l *loader) loadSystem() *SystemCampaign {
	raw, ok := l.readManifest()
	if !ok {
		return nil
	}
	if d, err := ManifestDesign(raw, ManifestFile); err != nil {
		l.addErr(err)
		return nil
	} else if d != DesignSystemComparison {
		l.refuse(ReasonDesign, ManifestFile, "/design", RuleSystemManifest, "the manifest is of design %s, not %s", d, DesignSystemComparison)
		return nil
	}
	m, err := DecodeSystemManifest(raw, ManifestFile)
	if err != nil {
		l.addErr(err)
		return nil
	}
	if m.ContractVersion != ContractVersion {
		l.refuse(ReasonContractVersion, ManifestFile, "/contract_version", RuleManifest, "contract version %q is not %q", m.ContractVersion, ContractVersion)
	}
	if want := ResponseSchemaSHA256(); m.ResponseSchemaSHA256 != want {
		l.refuse(ReasonSchemaDigest, ManifestFile, "/response_schema_sha256", RuleSchemaBind,
			"manifest binds response schema %s, the embedded schema is %s", m.ResponseSchemaSHA256, want)
	}
	l.bindFiles(&Manifest{Files: m.Files})
	sum := sha256.Sum256(raw)
	c := &SystemCampaign{Manifest: *m, ManifestSHA256: hex.EncodeToString(sum[:]), Prompts: map[string][]byte{}}
	review := PromptReviewA
	if m.SelectedReview == RoleReviewB {
		review = PromptReviewB
	}
	prompts := []struct{ key, path string }{{PromptInvestigator, m.Prompts.Investigator}, {PromptCommon, m.Prompts.Common}, {review, m.Prompts.Review}, {PromptFinalSchema, m.Prompts.FinalSchema}}
	if m.Prompts.ReconciliationSchema != nil {
		prompts = append(prompts, struct{ key, path string }{PromptReconciliationSchema, *m.Prompts.ReconciliationSchema})
	}
	for _, p := range prompts {
		if b, ok := l.need(p.path); ok {
			c.Prompts[p.key] = b
		}
	}
	if b, ok := c.Prompts[PromptInvestigator]; ok && !bytes.Equal(b, FrozenPrompt(PromptInvestigator)) {
		l.refuse(ReasonSystemIdentity, m.Prompts.Investigator, "", RuleSystemManifest, "the investigator instruction is not the frozen PROMPTS.md text")
	}
	repoOf := map[string]string{}
	for _, e := range m.Tasks {
		repoOf[e.ID] = e.Repository
		c.Tasks = append(c.Tasks, l.loadSystemTask(e))
	}
	claimed := map[string]bool{}
	for _, w := range m.Workflows {
		c.Workflows = append(c.Workflows, l.loadWorkflow(m, w, claimed))
	}
	if b, ok := l.need(SetupFile); ok {
		if s, err := DecodeSetup(b, SetupFile); err != nil {
			l.addErr(err)
		} else {
			c.Setup = *s
			l.checkSetup(c, repoOf)
		}
	}
	for i, f := range m.Files {
		dir, _, _ := strings.Cut(f.Path, "/")
		if dir != ResponsesDir && dir != ReceiptsDir && dir != ObservationsDir && dir != PacketsDir {
			continue
		}
		if !claimed[f.Path] {
			if _, deferred := l.deferred[f.Path]; deferred {
				l.readBound(f.Path, i)
			}
			l.refuse(ReasonOrphanFile, f.Path, "", RuleFileIdentity, "the file belongs to no workflow of the manifest")
		}
	}
	return c
}

// loadSystemTask loads a task's text and truth and checks every source
// reference against the frozen repository.
func (l *loader) loadSystemTask(e TaskEntry) *SystemTask {
	t := &SystemTask{Entry: e}
	if b, ok := l.need(TaskTextPath(e.ID)); ok {
		t.Text = b
	}
	file := TruthPath(e.ID)
	b, ok := l.need(file)
	if !ok {
		return t
	}
	tr, err := DecodeSystemTruth(b, file)
	if err != nil {
		l.addErr(err)
		return t
	}
	t.Truth = *tr
	if tr.Task != e.ID {
		l.refuse(ReasonTaskMismatch, file, "/task", RuleSystemTruth, "truth names task %s, its directory is task %s", tr.Task, e.ID)
	}
	for _, set := range []struct {
		ptr  string
		obls []SystemObligation
	}{{"/repository_answerable", tr.RepositoryAnswerable}, {"/unanswerable", tr.Unanswerable}} {
		for i, o := range set.obls {
			for j, s := range o.Sources {
				l.checkSourceRef(e.Repository, s, file, fmt.Sprintf("%s/%d/sources/%d", set.ptr, i, j))
			}
		}
	}
	return t
}

// checkSourceRef refuses a reference to a file the frozen repository does
// not hold or to lines beyond its last physical line.
func (l *loader) checkSourceRef(repo string, s SourceRef, file, pointer string) {
	src := SourcePath(repo, s.Path)
	b, ok := l.files[src]
	if !ok {
		l.refuse(ReasonSourceRef, file, pointer, RuleSystemTruth, "%s is not a file of the frozen repository %s (no bound %s)", s.Path, repo, src)
		return
	}
	if n := CountPhysicalLines(b); s.EndLine > n {
		l.refuse(ReasonSourceRef, file, pointer+"/end_line", RuleSystemTruth, "line %d is beyond the last physical line %d of %s", s.EndLine, n, src)
	}
}

// SourceLines returns lines start..end (inclusive, 1-based) of a frozen
// repository file's bytes, each without its line break, or ok false when
// the span is outside the file's physical lines.
func SourceLines(src []byte, start, end int) (lines [][]byte, ok bool) {
	all := PhysicalLines(src)
	if start < 1 || end < start || end > len(all) {
		return nil, false
	}
	for _, ln := range all[start-1 : end] {
		lines = append(lines, src[ln.Start:ln.End])
	}
	return lines, true
}

// loadWorkflow loads one workflow's files, recording in claimed the
// session files it reads.
func (l *loader) loadWorkflow(m *SystemManifest, w Workflow, claimed map[string]bool) *SystemWorkflow {
	sw := &SystemWorkflow{Workflow: w,
		Investigation: SystemSession{ID: w.Sessions.Investigation, Role: RoleInvestigation},
		Review:        SystemSession{ID: w.Sessions.Review, Role: RoleReview}}
	for _, s := range []*SystemSession{&sw.Investigation, &sw.Review} {
		rp := ReceiptPath(s.ID)
		claimed[rp] = true
		if b, ok := l.sessionFile(rp, nil); ok {
			rc, err := DecodeSystemReceipt(b, rp)
			if err != nil {
				l.addErr(err)
			} else {
				s.Receipt = rc
				l.checkReceiptNames(rc, rp, w, s.Role)
			}
		}
	}
	dp := DraftPath(w.Sessions.Investigation)
	claimed[dp] = true
	if b, ok := l.sessionFile(dp, nil); ok {
		sw.Draft = b
		sw.Investigation.RawSHA256, sw.Investigation.RawSize = l.manifest.Files[l.deferred[dp]].SHA256, len(b)
	} else if !l.bound[dp] && sw.Investigation.Receipt != nil && sw.Investigation.Receipt.Status == StatusResponse {
		l.refuse(ReasonResponseMissing, dp, "", RuleReceipt, "receipt %s records status response but the draft is absent", ReceiptPath(sw.Investigation.ID))
	}
	lp := ObservationLogFile(w.Sessions.Investigation)
	claimed[lp] = true
	logBytes, logOK := l.need(lp)
	if logOK {
		lg, err := DecodeObservationLog(logBytes, lp)
		if err != nil {
			l.addErr(err)
			logOK = false
		} else {
			sw.Log = lg
			if lg.Session != w.Sessions.Investigation || lg.Workflow != w.ID || lg.System != w.System {
				l.refuse(ReasonRecordMismatch, lp, "", RulePacketProc, "the log names session %s, workflow %s, system %s; the manifest gives %s, %s, %s",
					lg.Session, lg.Workflow, lg.System, w.Sessions.Investigation, w.ID, w.System)
			}
			if tk := m.Execution.Tokenizer; tk != nil && lg.Tokenizer != *tk {
				l.refuse(ReasonRecordMismatch, lp, "/tokenizer", RulePacketProc, "the log counts with tokenizer %s; the manifest freezes %s", lg.Tokenizer, *tk)
			}
		}
	}
	if r := sw.Investigation.Receipt; r != nil && sw.Log != nil {
		ord, mcp := 0, 0
		for _, c := range sw.Log.Calls {
			if c.Kind == ToolMCP {
				mcp++
			} else {
				ord++
			}
		}
		if r.OrdinaryCalls != ord || r.MCPCalls != mcp {
			l.refuse(ReasonRecordMismatch, ReceiptPath(sw.Investigation.ID), "/ordinary_calls", RuleReceipt,
				"the receipt counts %d ordinary and %d MCP operations; its observation log %s records %d and %d", r.OrdinaryCalls, r.MCPCalls, lp, ord, mcp)
		}
	}
	pp := PacketFile(w.ID)
	claimed[pp] = true
	if b, ok := l.need(pp); ok {
		p, err := DecodeObservationPacket(b, pp)
		switch {
		case err != nil:
			l.addErr(err)
		case !logOK:
			l.refuse(ReasonPacketNotByteIdentical, pp, "", RulePacketProc, "the packet has no valid observation log %s to be built from", lp)
		default:
			sw.Packet = p
			want, _, err := BuildObservationPacket(logBytes, lp)
			if err != nil {
				l.addErr(err)
			} else if !bytes.Equal(b, want) {
				l.refuse(ReasonPacketNotByteIdentical, pp, firstDifference(b, want), RulePacketProc,
					"the packet is not the packet the neutral packetizer builds from %s (verdict packetize): observations may not be filtered, summarised, deduplicated, reordered or trimmed", lp)
			}
		}
	} else if logOK {
		if _, _, err := BuildObservationPacket(logBytes, lp); err != nil {
			l.addErr(err)
		} else {
			l.refuse(ReasonFileMissing, pp, "", RulePacketProc, "the workflow's observation log exists but its packet does not (verdict packetize builds it)")
		}
	}
	if b, ok := l.sessionFile(ResponsePath(w.Sessions.Review), nil); ok {
		sp := ResponsePath(w.Sessions.Review)
		sw.Review.RawSHA256, sw.Review.RawSize = l.manifest.Files[l.deferred[sp]].SHA256, len(b)
		resp, ledger, err := l.dec.answer(b, sp, m.SelectedReview)
		if err != nil {
			var e *verr.Error
			errors.As(err, &e)
			sw.Review.Failure = e
		} else {
			sw.Review.Response, sw.Review.LedgerFailure = resp, ledger
		}
	}
	claimed[ResponsePath(w.Sessions.Review)] = true
	return sw
}

// firstDifference names where two encodings first differ, as a byte offset.
func firstDifference(a, b []byte) string {
	n := min(len(a), len(b))
	for i := range n {
		if a[i] != b[i] {
			return fmt.Sprintf("byte %d", i)
		}
	}
	return fmt.Sprintf("byte %d", n)
}

// checkReceiptNames refuses a receipt naming another session, role,
// workflow, system, task or repetition than the manifest gives it.
func (l *loader) checkReceiptNames(rc *SystemReceipt, file string, w Workflow, role Role) {
	want := w.Sessions.Investigation
	if role == RoleReview {
		want = w.Sessions.Review
	}
	if rc.SessionID != want || rc.Role != role || rc.Workflow != w.ID || rc.System != w.System || rc.Task != w.Task || rc.Repetition != w.Repetition {
		l.refuse(ReasonRecordMismatch, file, "", RuleReceipt, "the receipt names session %s (%s) of workflow %s, system %s, task %s repetition %d; the manifest gives %s (%s) of %s, %s, %s repetition %d",
			rc.SessionID, rc.Role, rc.Workflow, rc.System, rc.Task, rc.Repetition, want, role, w.ID, w.System, w.Task, w.Repetition)
	}
}

// checkSetup checks setup.json against the manifest and the packets.
func (l *loader) checkSetup(c *SystemCampaign, repoOf map[string]string) {
	first := map[string]string{} // system#repository -> first original workflow
	for _, w := range c.Manifest.Workflows {
		k := string(w.System) + "#" + repoOf[w.Task]
		if _, ok := first[k]; !ok && w.Replaces == nil {
			first[k] = w.ID
		}
	}
	seen := map[string]bool{}
	for i, cs := range c.Setup.Cold {
		k := string(cs.System) + "#" + cs.Repository
		p := fmt.Sprintf("/cold/%d", i)
		want, ok := first[k]
		switch {
		case seen[k]:
			l.refuse(ReasonSetupRecord, SetupFile, p, RuleSetup, "a second cold entry for %s on %s", cs.System, cs.Repository)
		case !ok:
			l.refuse(ReasonSetupRecord, SetupFile, p+"/repository", RuleSetup, "%s has no workflow on %s", cs.System, cs.Repository)
		case cs.Workflow != want:
			l.refuse(ReasonSetupRecord, SetupFile, p+"/workflow", RuleSetup, "the cold setup of %s on %s is attributed to %s; the first workflow of that system on that repository is %s", cs.System, cs.Repository, cs.Workflow, want)
		}
		seen[k] = true
	}
	for k := range first {
		if !seen[k] {
			sys, repo, _ := strings.Cut(k, "#")
			l.refuse(ReasonSetupRecord, SetupFile, "/cold", RuleSetup, "no cold entry for %s on %s: setup is charged per system and repository (an empty phases list records none)", sys, repo)
		}
	}
	// Every declared initial_instructions call, exactly as the packets set it apart.
	type key struct{ workflow, call string }
	want := map[key]SetupObservation{}
	session := map[string]string{}
	for _, w := range c.Workflows {
		if w.Packet == nil {
			continue
		}
		session[w.Workflow.ID] = w.Workflow.Sessions.Investigation
		for _, s := range w.Packet.SetupOverhead {
			want[key{w.Workflow.ID, s.CallID}] = s
		}
	}
	for i, ii := range c.Setup.InitialInstructions {
		k := key{ii.Workflow, ii.CallID}
		s, ok := want[k]
		p := fmt.Sprintf("/initial_instructions/%d", i)
		if !ok || ii.Session != session[ii.Workflow] || ii.ResponseSHA256 != s.ResponseSHA256 || ii.ResponseBytes != s.ResponseBytes || ii.Tokens != s.Tokens {
			l.refuse(ReasonSetupRecord, SetupFile, p, RuleSetup, "call %s of workflow %s is not an initial_instructions call the packet set apart with these bytes and tokens", ii.CallID, ii.Workflow)
		}
		delete(want, k)
	}
	for k := range want {
		l.refuse(ReasonSetupRecord, SetupFile, "/initial_instructions", RuleSetup, "the initial_instructions call %s of workflow %s is not recorded as setup overhead", k.call, k.workflow)
	}
}
