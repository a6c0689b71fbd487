package pipeline

import (
	"io/fs"

	"verdict/campaign"
	"verdict/internal/buildinfo"
	"verdict/scorer"
	"verdict/verr"
)

// Counts are a loaded campaign's counts of sessions by outcome and
// receipts.
type Counts struct {
	// ResponsesValid, ResponsesFailed and ResponsesAbsent count sessions
	// with a decoded response, a model answer refused by the strict loader
	// (a valid scored failure, C16) and no response.
	ResponsesValid, ResponsesFailed, ResponsesAbsent int
	// Receipts and ReceiptsMissing count sessions with and without a
	// receipt.
	Receipts, ReceiptsMissing int
}

// Checked is the result of Check on one campaign.
type Checked struct {
	// Manifest is the loaded manifest, or, when the campaign was refused,
	// the manifest decoded strictly from its bytes alone (nil when even
	// that fails).
	Manifest *campaign.Manifest
	// Campaign is the loaded campaign (nil when refused).
	Campaign *campaign.Campaign
	// Refusals are the strict loader's refusals, flattened; when non-empty
	// nothing else was evaluated.
	Refusals []error
	// MissingIdentities names every execution identity the manifest leaves
	// unset, also when the strict loader refused the manifest (CONTRACT §7).
	MissingIdentities []string
	// Counts are the session counts of the loaded campaign.
	Counts Counts
	// ScoredFailures are model answers refused by the strict loader: valid
	// scored failures (EVALUATOR-CONTROLS C16), not refusals.
	ScoredFailures []*verr.Error
	// LedgerRefusals are B reconciliation records refused by the strict
	// loader while their final answers are valid: those answers are graded
	// and only those reviews' protocol gates fail (CONTRACT §4).
	LedgerRefusals []*verr.Error
	// Findings are the automatic structural findings of decoded answers.
	Findings []scorer.Finding
	// Admission is every admission rule of the loaded campaign.
	Admission *Admission
	// Revision is B's instruction as a v1.1 diff: against the previous
	// round's text when one was given, else against the frozen v1.0 text;
	// nil when B's instruction did not change (CONTRACT §5 "Record both
	// rounds and any v1.1 prompt diff").
	Revision *scorer.PromptRevision
	// RoundIssues are the round-discipline violations found against the
	// previous round (CheckOptions.PreviousDir); each fails admission.
	RoundIssues []*verr.Error
	// RoundNotes are round-discipline issues reported without failing
	// admission: the unverified previous round of a synthetic manifest
	// (scorer.UnverifiedRound).
	RoundNotes []*verr.Error
	// Replacements are the campaign's replacement triplets, each with the
	// triplet it replaces and why that one was invalid (scorer.Replacements).
	Replacements []scorer.Replacement
	// System is the check of a system-comparison campaign (CONTRACT §6),
	// set instead of every field above when the manifest names that
	// design; nil for fixed evidence.
	System *SystemCheck
}

// CheckOptions names the previous round a campaign is checked against
// (CONTRACT §5 round discipline): the previous campaign's directory and,
// for an evaluation, the round-2 report.json bytes and their file name.
// Load chooses how every campaign file is decided (campaign.LoadOptions:
// ReferenceOnly decides with the reference validator alone, with the same
// result).
type CheckOptions struct {
	PreviousDir string
	Report      []byte
	ReportFile  string
	Load        campaign.LoadOptions
}

// Check strictly loads the campaign fsys, counts its sessions, runs the
// structural validator on every decoded answer and evaluates admission
// (Admit without a plan). The structural validator runs beside admission.
func Check(fsys fs.FS) *Checked { return CheckWith(fsys, CheckOptions{}) }

// CheckWith is Check, and when opts.PreviousDir is set, round discipline
// against that previous campaign (scorer.RoundDiscipline): the previous
// campaign is loaded strictly and its manifest bytes hashed.
func CheckWith(fsys fs.FS, opts CheckOptions) *Checked {
	out := &Checked{}
	l, d, err := loadDesign(fsys, opts.Load)
	if d != nil && d.Shape().Name == campaign.DesignSystemComparison {
		out.System = systemCheckOf(l, err)
		return out
	}
	var c *campaign.Campaign
	if err == nil {
		c, err = fixedOnly(l)
	}
	if err != nil {
		// The report's manifest fields and missing identities come from
		// the manifest bytes alone: its strict decoding when it decodes,
		// and a lenient one for the missing identities.
		out.Refusals = verr.Flatten(err)
		raw, ids := missingIdentitiesRaw(fsys)
		if raw != nil {
			out.MissingIdentities = ids
			out.Manifest, _ = campaign.DecodeManifestWith(raw, campaign.ManifestFile, opts.Load)
		}
		return out
	}
	out.Campaign, out.Manifest = c, &c.Manifest
	out.MissingIdentities = scorer.MissingIdentities(&c.Manifest)
	for _, s := range c.Sessions {
		switch {
		case s.Response != nil:
			out.Counts.ResponsesValid++
			if s.LedgerFailure != nil {
				out.LedgerRefusals = append(out.LedgerRefusals, s.LedgerFailure)
			}
		case s.Failure != nil:
			out.Counts.ResponsesFailed++
			out.ScoredFailures = append(out.ScoredFailures, s.Failure)
		default:
			out.Counts.ResponsesAbsent++
		}
		if s.Receipt != nil {
			out.Counts.Receipts++
		} else {
			out.Counts.ReceiptsMissing++
		}
	}
	done := make(chan struct{})
	go func() {
		out.Findings = scorer.ValidateCampaign(c)
		close(done)
	}()
	out.Admission = Admit(c, nil)
	<-done
	out.Replacements = scorer.Replacements(c, out.Admission.Validity)
	out.Revision = scorer.BRevision(c)
	if opts.PreviousDir != "" {
		in := scorer.RoundInput{Report: opts.Report, ReportFile: opts.ReportFile, Build: buildinfo.Read()}
		in.Previous, in.PreviousRefusal = LoadDirWith(opts.PreviousDir, opts.Load)
		in.PreviousManifest, _ = campaign.ReadRegularFS(DirFS(opts.PreviousDir), campaign.ManifestFile, campaign.FileManifest)
		rc := scorer.RoundDiscipline(c, in)
		out.RoundIssues = rc.Issues
		if c.Manifest.Phase == campaign.PhaseDevelopmentRound2 {
			out.Revision = rc.Revision
		}
	} else if u := scorer.UnverifiedRound(&c.Manifest); u != nil {
		// B's frozen-check exemption rests on a previous round nobody
		// verified: a real manifest is not admitted, a synthetic one is
		// reported.
		if c.Manifest.Synthetic {
			out.RoundNotes = append(out.RoundNotes, u)
		} else {
			out.RoundIssues = append(out.RoundIssues, u)
		}
	}
	return out
}
