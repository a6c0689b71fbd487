package campaign

import (
	"fmt"
	"slices"
	"verdict/verr"
)

// Rule names cited by refusals of the non-response file kinds.
const (
	RuleManifest = "CONTRACT §2-§3, §7 manifest"
	RulePacket   = "CONTRACT §3 evidence packet"
	RuleTruth    = "CONTRACT §3-§4 truth"
	RuleReceipt  = "CONTRACT §5 Required records"
)

// Reasons of the manifest, packet, truth and receipt rules that the schema
// cannot say.
const (
	// ReasonDuplicateRun: two runs name the same task and repetition and
	// the later one does not say which run it replaces (runs[].replaces).
	ReasonDuplicateRun verr.Reason = "duplicate-run"
	// ReasonReplacesUnknownRun: a run's replaces names no shared-draft
	// session of an earlier run of the same task and repetition.
	ReasonReplacesUnknownRun verr.Reason = "replaces-unknown-run"
	// ReasonDuplicateFile: the manifest binds one path twice.
	ReasonDuplicateFile verr.Reason = "duplicate-file"
	// ReasonUnknownTask: a run names a task the manifest does not list.
	ReasonUnknownTask verr.Reason = "unknown-task"
	// ReasonRepetition: a run's repetition is below 1.
	ReasonRepetition verr.Reason = "repetition"
	// ReasonUnknownEvidence: a truth obligation names an E ID its packet lacks.
	ReasonUnknownEvidence verr.Reason = "unknown-evidence"
	// ReasonTooFewAnswerable: a truth file has fewer than two obligations
	// answerable from the packet (CONTRACT §4).
	ReasonTooFewAnswerable verr.Reason = "too-few-answerable"
)

// MinAnswerableObligations is the least number of answerable obligations
// every task's truth holds (CONTRACT §4 "All tasks must have at least two
// answerable obligations").
const MinAnswerableObligations = 2

// DecodeManifest strictly decodes manifest.json: strict JSON, the embedded
// manifest schema, then trimmed texts, task IDs T<n> unique, session IDs
// S<n> unique across all runs, every run's task listed, repetition ≥ 1 and
// unique per task unless the later run replaces an earlier one (its
// replaces names the shared-draft session of an earlier run of the same
// task and repetition; CONTRACT §5), and each bound file path relative,
// valid and unique. How many replacements are allowed, and of what, is
// execution validity (scorer), not decoding.
// The contract version and file digests are checked by Load. file names
// the manifest in refusals; every refusal is a *Error.
func DecodeManifest(data []byte, file string) (*Manifest, error) {
	return decoder{}.manifest(data, file)
}

// DecodeManifestWith is DecodeManifest deciding as opts choose
// (LoadOptions.ReferenceOnly): the same manifest or the same refusal.
func DecodeManifestWith(data []byte, file string, opts LoadOptions) (*Manifest, error) {
	return opts.decoder().manifest(data, file)
}

// manifest is DecodeManifest on d.
func (d decoder) manifest(data []byte, file string) (*Manifest, error) {
	var m Manifest
	if e := d.strict(data, file, SchemaManifest, &m); e != nil {
		return nil, e
	}
	r := rules{file: file, rule: RuleManifest}
	r.text(at("/campaign_id"), m.CampaignID)
	for i, d := range m.FrozenDocuments {
		r.text(at("/frozen_documents").elem(i).field("/name"), d.Name)
	}
	r.execution(m.Execution)
	r.filePath(at("/prompts/common"), m.Prompts.Common)
	r.filePath(at("/prompts/draft"), m.Prompts.Draft)
	r.filePath(at("/prompts/review_a"), m.Prompts.ReviewA)
	r.filePath(at("/prompts/review_b"), m.Prompts.ReviewB)
	r.filePath(at("/prompts/final_schema"), m.Prompts.FinalSchema)
	r.filePath(at("/prompts/reconciliation_schema"), m.Prompts.ReconciliationSchema)
	tasks := map[string]loc{}
	for i, t := range m.Tasks {
		r.declareMap(tasks, at("/tasks").elem(i).field("/id"), "T", t.ID)
	}
	sessions := map[string]loc{}
	runs := map[string]loc{}
	drafts := map[string][]string{} // shared-draft sessions of earlier runs by task#repetition
	for i, run := range m.Runs {
		p := at("/runs").elem(i)
		r.id(p.field("/task"), "T", run.Task)
		if _, ok := tasks[run.Task]; !ok {
			r.fail(ReasonUnknownTask, p.field("/task"), "run names task %s, which the manifest does not list", run.Task)
		}
		if run.Repetition < 1 {
			r.fail(ReasonRepetition, p.field("/repetition"), "repetition %d is below 1", run.Repetition)
		}
		key := fmt.Sprintf("%s#%d", run.Task, run.Repetition)
		if run.Replaces != nil {
			if !slices.Contains(drafts[key], *run.Replaces) {
				r.fail(ReasonReplacesUnknownRun, p.field("/replaces"), "replaces %s, which is not the shared draft of an earlier run of task %s repetition %d", *run.Replaces, run.Task, run.Repetition)
			}
		} else if first, dup := runs[key]; dup {
			r.fail(ReasonDuplicateRun, p, "task %s repetition %d is already run at %s and this run does not say which run it replaces (replaces)", run.Task, run.Repetition, first)
		}
		if _, seen := runs[key]; !seen {
			runs[key] = p
		}
		drafts[key] = append(drafts[key], run.Sessions.Draft)
		r.declareMap(sessions, p.field("/sessions/draft"), "S", run.Sessions.Draft)
		r.declareMap(sessions, p.field("/sessions/review_a"), "S", run.Sessions.ReviewA)
		r.declareMap(sessions, p.field("/sessions/review_b"), "S", run.Sessions.ReviewB)
	}
	r.boundFiles(m.Files)
	if r.err != nil {
		return nil, r.err
	}
	return &m, nil
}

// DecodePacket strictly decodes tasks/<T>/packet.json: strict JSON, the
// embedded packet schema (6–12 items, 40-hex commit, 64-hex file SHA-256),
// then E IDs unique, paths relative, start ≤ end. Authenticity against the
// source files is checked by Load. Every refusal is a *Error.
func DecodePacket(data []byte, file string) (*Packet, error) { return decoder{}.packet(data, file) }

// packet is DecodePacket on d.
func (d decoder) packet(data []byte, file string) (*Packet, error) {
	var p Packet
	if e := d.strict(data, file, SchemaPacket, &p); e != nil {
		return nil, e
	}
	r := rules{file: file, rule: RulePacket}
	r.id(at("/task"), "T", p.Task)
	items := at("/items")
	r.bounds(items, len(p.Items), 6, 12)
	for i, it := range p.Items {
		ip := items.elem(i)
		declareIn(&r, items, "E", p.Items, i, func(it *EvidenceItem) string { return it.ID })
		r.filePath(ip.field("/path"), it.Path)
		r.lines(ip, it.StartLine, it.EndLine)
	}
	if r.err != nil {
		return nil, r.err
	}
	return &p, nil
}

// DecodeTruth strictly decodes tasks/<T>/truth.json: strict JSON, the
// embedded truth schema (4–8 obligations), then O IDs unique, trimmed
// texts, E ID arrays without repeats and at least two answerable
// obligations (CONTRACT §4). Whether the E IDs exist in the packet is
// checked by Load. Every refusal is a *Error.
func DecodeTruth(data []byte, file string) (*Truth, error) { return decoder{}.truth(data, file) }

// truth is DecodeTruth on d.
func (d decoder) truth(data []byte, file string) (*Truth, error) {
	var t Truth
	if e := d.strict(data, file, SchemaTruth, &t); e != nil {
		return nil, e
	}
	r := rules{file: file, rule: RuleTruth}
	r.id(at("/task"), "T", t.Task)
	obligations := at("/obligations")
	r.bounds(obligations, len(t.Obligations), 4, 8)
	answerable := 0
	for i, o := range t.Obligations {
		p := obligations.elem(i)
		declareIn(&r, obligations, "O", t.Obligations, i, func(o *TruthObligation) string { return o.ID })
		r.text(p.field("/text"), o.Text)
		r.idArray(p.field("/evidence_ids"), "E", o.EvidenceIDs, 0, 12)
		for j, a := range o.AcceptedAlternatives {
			r.text(p.field("/accepted_alternatives").elem(j), a)
		}
		r.text(p.field("/required_verification"), o.RequiredVerification)
		for j, x := range o.JustifiedExclusions {
			r.text(p.field("/justified_exclusions").elem(j), x)
		}
		r.text(p.field("/source_justification"), o.SourceJustification)
		if o.Answerable {
			answerable++
		}
	}
	if answerable < MinAnswerableObligations {
		r.fail(ReasonTooFewAnswerable, obligations, "%d obligations are answerable from the packet, at least %d are required", answerable, MinAnswerableObligations)
	}
	if r.err != nil {
		return nil, r.err
	}
	return &t, nil
}

// DecodeReceipt strictly decodes receipts/<S>.json: strict JSON, the
// embedded receipt schema (every member present, null where unrecorded),
// then trimmed texts. Accounting and admission rules live in the scorer.
// Every refusal is a *Error.
func DecodeReceipt(data []byte, file string) (*Receipt, error) { return decoder{}.receipt(data, file) }

// receipt is DecodeReceipt on d.
func (d decoder) receipt(data []byte, file string) (*Receipt, error) {
	var v Receipt
	if e := d.strict(data, file, SchemaReceipt, &v); e != nil {
		return nil, e
	}
	if e := receiptRules(file, &v, nil); e != nil {
		return nil, e
	}
	return &v, nil
}

// receiptRules checks a decoded receipt's IDs and trimmed texts (RuleReceipt),
// the first experiment's and, with a workflow ID, a system comparison's;
// the first refusal, or nil.
func receiptRules(file string, v *Receipt, workflow *string) *verr.Error {
	r := rules{file: file, rule: RuleReceipt}
	r.id(at("/session_id"), "S", v.SessionID)
	r.id(at("/task"), "T", v.Task)
	if workflow != nil {
		r.id(at("/workflow"), "W", *workflow)
	}
	r.optText(at("/price_card_id"), v.PriceCardID)
	r.optText(at("/model"), v.Model)
	r.optText(at("/permission_policy"), v.PermissionPolicy)
	r.optText(at("/infrastructure_invalid"), v.InfrastructureInvalid)
	r.label(at("/request_id"), v.RequestID)
	r.label(at("/response_id"), v.ResponseID)
	if v.Host != nil {
		r.label(at("/host"), *v.Host)
	}
	return r.err
}
