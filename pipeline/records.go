package pipeline

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"verdict/adjudication"
	"verdict/blinding"
	"verdict/campaign"
	"verdict/internal/par"
	"verdict/scorer"
	"verdict/verr"
)

// RecordSet is the signed records of a ratings directory, each read once
// and verified (ReadRecordSet).
type RecordSet struct {
	// Sheets are the rating sheets in file-name order (sheet-*.json).
	Sheets []adjudication.FrozenSheet
	// Adjudication is adjudication.json (nil when absent and optional),
	// AdjudicationSHA256 the SHA-256 of its bytes.
	Adjudication       *adjudication.Adjudication
	AdjudicationSHA256 string
	// Reveal is reveal.json (nil when absent and optional).
	Reveal *adjudication.Reveal
	// Refs name every record verified, in the order read.
	Refs []scorer.RecordRef
}

// ReadAllowedSigners is adjudication.LoadAllowedSigners with any failure
// to read the file that is not already a refusal (an I/O error) returned
// as ReasonRecordSet naming path. An empty path, or one that names no
// file, is adjudication.ReasonAllowedSignersMissing: the file is never
// looked for in the ratings directory.
func ReadAllowedSigners(path string) ([]adjudication.AllowedSigner, error) {
	allowed, err := adjudication.LoadAllowedSigners(path)
	if e := (*verr.Error)(nil); err == nil || errors.As(err, &e) {
		return allowed, err
	}
	return nil, &verr.Error{Reason: ReasonRecordSet, File: path, Rule: ruleScore, Detail: err.Error(), Err: err}
}

// ReadRecordSet reads the signed records of the ratings directory dir:
// the rating sheets (sheet-*.json, in name order), then adjudication.json
// and reveal.json. Each record is read once, with its detached FILE.sig,
// and verified on those bytes against allowed (adjudication.VerifyRecord:
// digest, signature, signer, strict canonical decoding); then all of them
// together against bundles, keyed by the SHA-256 of each bundle file's
// bytes (adjudication.CrossCheck). With optional set, a missing
// adjudication.json or reveal.json is left out (before adjudication or
// reveal: the set is what exists so far); without it, they are required.
//
// Refusals: a record or .sig that is not a regular file within its cap
// (campaign.ReadRegular's *verr.Error), a record that cannot be read or a
// .sig that cannot be read for another reason than being missing
// (ReasonRecordSet), and, when a record does not verify, errors.Join of
// one *verr.Error per such record with the record's own reason (a missing
// .sig is adjudication.ReasonSignatureMissing). The number of sheets is
// not checked here.
func ReadRecordSet(dir string, allowed []adjudication.AllowedSigner, bundles map[string]*blinding.Bundle, optional bool) (*RecordSet, error) {
	return ReadRecordSetWith(dir, allowed, adjudication.VerifyOptions{Bundles: bundles}, optional)
}

// ReadRecordSetWith is ReadRecordSet with the cross-checks of opt: a
// caller that holds its bundles without their items (score) gives their
// fields in opt.Fields, so that every sheet is checked against its
// bundle's fields (adjudication.CheckSheetFields).
func ReadRecordSetWith(dir string, allowed []adjudication.AllowedSigner, opt adjudication.VerifyOptions, optional bool) (*RecordSet, error) {
	checks, err := readRecords(allowed, recordPaths(dir, optional))
	if err != nil {
		return nil, err
	}
	return crossCheckSet(checks, opt)
}

// recordPaths are the records of ReadRecordSet in dir, in its order: the
// sheets in name order, then adjudication.json and reveal.json (left out
// when missing and optional).
func recordPaths(dir string, optional bool) []string {
	paths, _ := filepath.Glob(filepath.Join(dir, "sheet-*.json"))
	sort.Strings(paths)
	for _, n := range []string{"adjudication.json", "reveal.json"} {
		p := filepath.Join(dir, n)
		if _, err := os.Lstat(p); optional && errors.Is(err, fs.ErrNotExist) {
			continue
		}
		paths = append(paths, p)
	}
	return paths
}

// readRecords reads and verifies each record of paths (readRecord),
// GOMAXPROCS at a time: at most that many records' bytes are held at
// once (the two sheets of a large campaign are tens of megabytes each).
// It returns the checks in paths order, or the first refusal in paths
// order.
func readRecords(allowed []adjudication.AllowedSigner, paths []string) ([]adjudication.Check, error) {
	checks := make([]adjudication.Check, len(paths))
	errs := make([]error, len(paths))
	par.For(len(paths), func(_, i int) { checks[i], errs[i] = readRecord(allowed, paths[i]) })
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return checks, nil
}

// crossCheckSet checks the verified records against each other and opt
// (adjudication.CrossCheck) and collects them into a RecordSet, or
// errors.Join of every refusal.
func crossCheckSet(checks []adjudication.Check, opt adjudication.VerifyOptions) (*RecordSet, error) {
	checks = adjudication.CrossCheck(checks, opt)
	var refusals []error
	for _, ch := range checks {
		if !ch.OK {
			refusals = append(refusals, &verr.Error{Reason: ch.Reason, File: ch.File, Pointer: ch.Pointer, Rule: ruleScore, Detail: ch.Detail})
		}
	}
	if len(refusals) > 0 {
		return nil, errors.Join(refusals...)
	}
	set := &RecordSet{}
	for _, ch := range checks {
		set.Refs = append(set.Refs, scorer.RecordRef{Kind: ch.Kind, Signer: ch.Signer.Name, Role: string(ch.Signer.Role), Fingerprint: ch.Signer.KeyFingerprint, SHA256: ch.SHA256})
		switch ch.Kind {
		case "sheet":
			set.Sheets = append(set.Sheets, adjudication.FrozenSheet{Sheet: ch.Sheet(), SHA256: ch.SHA256})
		case "adjudication":
			set.Adjudication, set.AdjudicationSHA256 = ch.Adjudication(), ch.SHA256
		case "reveal":
			set.Reveal = ch.Reveal()
		}
	}
	return set, nil
}

// readRecord reads the record at path and its .sig once and verifies the
// record on those bytes (adjudication.VerifyRecord); the bytes are not
// kept.
func readRecord(allowed []adjudication.AllowedSigner, path string) (adjudication.Check, error) {
	data, err := campaign.ReadRegular(path, campaign.FileRecord)
	if e := (*verr.Error)(nil); errors.As(err, &e) {
		return adjudication.Check{}, err
	}
	if err != nil {
		return adjudication.Check{}, &verr.Error{Reason: ReasonRecordSet, File: path, Rule: ruleScore, Detail: err.Error(), Err: err}
	}
	sig, err := campaign.ReadRegular(path+".sig", campaign.FileSignature)
	if e := (*verr.Error)(nil); errors.As(err, &e) {
		return adjudication.Check{}, err
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		sig = nil // refused by VerifyRecord as a missing signature
	case err != nil:
		return adjudication.Check{}, &verr.Error{Reason: ReasonRecordSet, File: path + ".sig", Rule: ruleScore,
			Detail: fmt.Sprintf("the detached signature cannot be read: %v", err), Err: err}
	}
	return adjudication.VerifyRecord(allowed, adjudication.RecordFile{Name: path, Data: data, Sig: sig}), nil
}
