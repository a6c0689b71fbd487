package main

import (
	"errors"
	"fmt"

	"verdict/assemble"
	"verdict/campaign"
	"verdict/verr"
)

// receiptBatchReport is `verdict receipt import --logs DIR|--index FILE
// --format json`:
// one receiptImportReport per session, in dispatch order, and the
// manifest binding made once at the end.
type receiptBatchReport struct {
	Sessions []receiptImportReport `json:"sessions"`
	Bound    *assemble.BindResult  `json:"bound"`
}

// importBatch imports every session of the batch from (the log directory
// of --logs, or the index file of --index) into the campaign dir in
// dispatch order (assemble.BatchSessions, assemble.BatchIndex), each
// against the campaign as it reads with the sessions before it, stops at
// the first refusal with nothing written, then writes every file and binds
// the manifest once, all or nothing (assemble.CommitImports), all under
// the one campaign lock taken before the first read.
func importBatch(a *app, dir, flag, from, logFormat string, keep bool, format string) error {
	list, empty := assemble.BatchSessions, assemble.ReasonBatchFileUnknown
	if flag == "--index" {
		list, empty = assemble.BatchIndex, assemble.ReasonBatchIndex
	}
	batch, err := list(dir, from)
	if err != nil {
		return refusal(a, err)
	}
	if len(batch) == 0 {
		return refusal(a, verr.Newf(empty, from, "", campaign.RuleReceipt, "%s names no session log", flag))
	}
	// The campaign's write lock is held from the first read of the
	// campaign to the manifest's binding: no other writer comes between.
	lock, err := assemble.LockCampaign(dir)
	if err != nil {
		return refusal(a, err)
	}
	defer lock.Unlock()
	var ims []*assemble.Imported
	reports := make([]receiptImportReport, 0, len(batch))
	stopped := func(b assemble.BatchSession, err error) error {
		head := &verr.Error{Reason: ReasonBatchStopped, File: b.Log, Rule: campaign.RuleReceipt,
			Detail: fmt.Sprintf("session %s (%d of %d) was refused; nothing of the batch was written", b.Session, len(ims)+1, len(batch))}
		return refusal(a, errors.Join(head, err))
	}
	for _, b := range batch {
		// A file the batch names that cannot be read is a refusal of the
		// batch (exit 1), not a usage error.
		logBytes, err := campaign.ReadRegular(b.Log, campaign.FileRunLog)
		if err != nil {
			return stopped(b, err)
		}
		timing, err := campaign.ReadRegular(b.Timing, campaign.FileTiming)
		if err != nil {
			return stopped(b, err)
		}
		im, err := assemble.Import(dir, assemble.ImportRequest{Session: b.Session, Log: logBytes, LogFormat: logFormat, LogFile: b.Log,
			Timing: timing, TimingFile: b.Timing, ErrorKind: b.ErrorKind, Prior: ims})
		if err != nil {
			return stopped(b, err)
		}
		inadmissible, err := assemble.ImportAdmission(dir, im, ims...)
		if err != nil {
			return stopped(b, err)
		}
		if len(inadmissible) > 0 && !keep {
			return stopped(b, errors.Join(inadmissible...))
		}
		reports = append(reports, importReport(b.Session, im, inadmissible))
		ims = append(ims, im)
	}
	bound, err := assemble.CommitImports(lock, dir, ims)
	if err != nil {
		head := &verr.Error{Reason: ReasonBatchStopped, File: campaign.ManifestFile, Rule: campaign.RuleReceipt,
			Detail: fmt.Sprintf("every session of the batch (%d) passed, but writing or binding them failed; nothing of the batch was left", len(ims))}
		return refusal(a, errors.Join(head, err))
	}
	kept := 0
	for i := range reports {
		r := &reports[i]
		r.Files = ims[i].Files
		if len(r.Inadmissible) > 0 {
			kept++
		}
	}
	if bound.Changes == nil {
		bound.Changes = []assemble.BindChange{}
	}
	if format == "json" {
		if err := writeJSON(a.stdout, receiptBatchReport{Sessions: reports, Bound: bound}); err != nil {
			return err
		}
	} else {
		w := a.stdout
		for _, r := range reports {
			written := 0
			for _, f := range r.Files {
				if !f.Unchanged {
					written++
				}
			}
			fmt.Fprintf(w, "session %s: %s, %d file(s) written, %d unknown (left null)\n", r.Session, r.Status, written, len(r.Unknown))
			for _, u := range r.Unknown {
				fmt.Fprintln(w, "  unknown: "+u)
			}
			for _, p := range r.Inadmissible {
				fmt.Fprintf(w, "  INADMISSIBLE: %s: %s\n", p.Reason, p.Message)
			}
		}
		fmt.Fprintf(w, "%d session(s) imported; manifest.json bound: %d change(s), %d file(s)\n", len(reports), len(bound.Changes), len(bound.Files))
	}
	if kept > 0 {
		return &failedError{msg: fmt.Sprintf("%s: %d receipt(s) were kept but will fail admission; replace each run (runs[].replaces) with one new triplet", ReasonReceiptInadmissible, kept)}
	}
	return nil
}

// ReasonBatchStopped: a batch import stopped at a refused session; it
// heads the session's own refusals, and nothing was written.
const ReasonBatchStopped verr.Reason = "batch-stopped"
