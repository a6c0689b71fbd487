package pipeline

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"sync"

	"verdict/adjudication"
	"verdict/blinding"
	"verdict/campaign"
	"verdict/internal/buildinfo"
	"verdict/internal/par"
	"verdict/scorer"
	"verdict/verr"
)

// Reason codes of Score's refusals of a ratings directory.
const (
	// ReasonRecordSet: the ratings directory does not hold exactly two
	// sheets, one adjudication and one reveal (or allowed_signers or the
	// sealed map cannot be read).
	ReasonRecordSet verr.Reason = "record-set"
	// ReasonRevealMismatch: the reveal does not name the exact sheets and
	// adjudication used, or the sealed map is not the committed one.
	ReasonRevealMismatch verr.Reason = "reveal-mismatch"
)

// ruleScore is the rule every refusal of the ratings directory names.
const ruleScore = "DESIGN Signed records; CONTRACT §5 two frozen ratings before reveal"

// Ratings names the files Score reads besides the campaign: the ratings
// directory (sheet-*.json, adjudication.json, reveal.json, each with its
// detached .sig, and bundle-*.json), the allowed_signers file and the
// sealed unblinding map.
type Ratings struct {
	Dir string
	// AllowedSigners is the coordinator's allowed_signers file, given
	// explicitly: it is never looked for in Dir, whose writers could put
	// their own key there (empty: adjudication.ReasonAllowedSignersMissing).
	AllowedSigners string
	Map            string
}

// RatingsIn is the Ratings of directory dir with sealed-map.json inside it
// (the default of `verdict score`) and the allowed_signers file allowed,
// which the caller names (never a file found in dir).
func RatingsIn(dir, allowed string) Ratings {
	return Ratings{Dir: dir, AllowedSigners: allowed, Map: filepath.Join(dir, "sealed-map.json")}
}

// ScoreOptions tune a Score run without changing its result.
type ScoreOptions struct {
	// AfterLoad, when set, is called once the campaign is loaded (the
	// score command sets its memory limit there).
	AfterLoad func()
}

// Score is the whole score pipeline: strictly load the campaign, refuse a
// campaign in progress (scorer.ReasonCampaignIncomplete: sessions planned,
// not started), scan the
// bundles for leaks, verify every signed record against allowed_signers
// (any failing record refuses), require the reveal to name the exact
// sheets and adjudication and to commit to the sealed map, settle every
// field (scorer.Consensus), unblind with the sealed map, score
// (scorer.Evaluate) and build the report. Refusals are *verr.Error
// values (errors.Join of every failing record).
//
// Score is ScoreReport for a fixed-evidence campaign, whose report it
// returns as its own type; a system comparison is refused
// (campaign.ReasonDesign): its report is ScoreReport's.
func Score(fsys fs.FS, r Ratings, opt ScoreOptions) (*scorer.Report, error) {
	rep, err := ScoreReport(fsys, r, opt)
	if err != nil {
		return nil, err
	}
	fixed, ok := rep.(*scorer.Report)
	if !ok {
		return nil, &verr.Error{Reason: campaign.ReasonDesign, File: campaign.ManifestFile, Pointer: "/design", Rule: scorer.RuleDesign,
			Detail: "the fixed-evidence report of a campaign of another design was asked for (its report is the design's own)"}
	}
	return fixed, nil
}

// ScoreReport is the score pipeline of a campaign of either design
// (scorer.Design): the campaign loaded by its design's loader, the
// blinding derived again from the design's blinding source, the records
// verified, the grades settled, the design's Prepare joined with them,
// scored by the design (scorer.EvaluateDesign) and reported
// (scorer.BuildDesignReport: a Report for fixed evidence, a SystemReport
// for the system comparison, CONTRACT §6). Refusals are Score's.
func ScoreReport(fsys fs.FS, r Ratings, opt ScoreOptions) (scorer.ScoreReport, error) {
	in, ctx, d, err := prepareScore(fsys, r, opt)
	if err != nil {
		return nil, err
	}
	sc, err := scorer.EvaluateDesign(d, in)
	if err != nil {
		return nil, err
	}
	return scorer.BuildDesignReport(sc, ctx), nil
}

// ScoreInput runs Score's steps up to the score input that scorer.Evaluate
// decides on, and returns it (the control suite mutates it).
func ScoreInput(fsys fs.FS, r Ratings) (scorer.ScoreInput, error) {
	in, _, _, err := prepareScore(fsys, r, ScoreOptions{})
	return in, err
}

// prepareScore is Score up to the score input, the report context and
// the campaign's design (scorer.DesignOf), which prepares the campaign's
// side of the input (scorer.Design.Prepare) and names the scored roles
// the sealed map binds.
func prepareScore(fsys fs.FS, r Ratings, opt ScoreOptions) (scorer.ScoreInput, scorer.ReportContext, scorer.Design, error) {
	var ctx scorer.ReportContext
	l, d, err := loadDesign(fsys, campaign.LoadOptions{})
	if err != nil {
		return scorer.ScoreInput{}, ctx, nil, err
	}
	if opt.AfterLoad != nil {
		opt.AfterLoad()
	}
	// A campaign in progress is refused before anything is scored.
	sctx := d.ScoreContext(l)
	if e := scorer.IncompleteError(sctx.Planned); e != nil {
		return scorer.ScoreInput{}, ctx, nil, e
	}
	// Everything score needs of the campaign is computed now (the
	// blinding source with its leak tokens, the report context, and the
	// campaign's side of the score input); the campaign itself, tens of
	// megabytes for 10,000 sessions, is not used after this and is not
	// held while the blinding is derived and the rating records are read.
	src := d.Blinding(l)
	tokens := src.LeakTokens()
	ctx.Identity, ctx.Responses = sctx.Identity, sctx.Responses
	allowed, err := ReadAllowedSigners(r.AllowedSigners)
	if err != nil {
		return scorer.ScoreInput{}, ctx, nil, err
	}
	// The sealed map is read once: its bytes are derived again from the
	// campaign here and checked against the reveal's commitment later.
	mapBytes, err := readSealedMap(r.Map)
	if err != nil {
		return scorer.ScoreInput{}, ctx, nil, err
	}
	// The campaign's side of the score input, then the blinding derived
	// again (each runs on every core; side by side they would only hold
	// more memory at once).
	prep, findings := d.Prepare(l)
	ctx.Findings = findings
	ctx.Provenance = scorer.Provenance{Build: buildinfo.Read(), ManifestSHA256: src.ManifestSHA256, Schemas: campaign.SchemaDigests(),
		PromptRevision: sctx.PromptRevision}
	// The derivation reads only the blinding source (each bundled answer's
	// final part and its receipt's ended_utc, copied into the source when
	// it was made, the task templates and the manifest's identity): the
	// campaign, its receipts, drafts and ledgers are released before it,
	// with the source's token function, which holds the campaign. The
	// rated sessions' last end (derivation.lastEnd, which dates every
	// record) is taken from those copied ends, so it is still there.
	derive := detached(src)
	l, src = nil, nil
	derived, err := deriveCustody(derive, func() (*blinding.Source, error) { return BlindingSource(fsys) }, r.Map, mapBytes, blinding.NewScanner(tokens))
	if err != nil {
		return scorer.ScoreInput{}, ctx, nil, err
	}
	guidelines := derive.Guidelines
	// The source is released before the records are read, and collected
	// at once: a rating sheet of a large campaign is read whole (tens of
	// megabytes) and must not come on top of the answers' memory while
	// the collector catches up (the peak memory of score).
	derive = nil
	runtime.GC()
	rec, err := verifyRecords(r, allowed, guidelines, derived, mapBytes, d.Shape().ScoredRoles)
	if err != nil {
		return scorer.ScoreInput{}, ctx, nil, err
	}
	ctx.LeakFindings, ctx.Records = rec.leaks, rec.refs
	// The agreement of the two sheets (adjudication.AgreementOf, which
	// only reads them and refuses nothing) is counted beside the
	// consensus, whose merge of the sheets runs on one core.
	var ag adjudication.Agreement
	var wg sync.WaitGroup
	wg.Go(func() { ag = adjudication.AgreementOf(rec.g1, rec.g2, nil) })
	ctx.Consensus, err = scorer.Consensus(rec.g1, rec.g2, rec.adjudicated)
	wg.Wait()
	ctx.Agreement = &ag
	if err != nil {
		return scorer.ScoreInput{}, ctx, nil, err
	}
	rec.g1, rec.g2 = nil, nil
	in, err := prep.Join(rec.bindings, ctx.Consensus)
	return in, ctx, d, err
}

// detached is a copy of the blinding source src without its leak-token
// function (which holds the loaded campaign): what the derivation of the
// blinding reads, so that the campaign can be released before it.
func detached(src *blinding.Source) *blinding.Source {
	cp := *src
	cp.LeakTokens = nil
	return &cp
}

// BlindingSource strictly loads the campaign in fsys with its design's
// loader and returns its blinding source (scorer.Design.Blinding:
// blinding.FixedSource or blinding.SystemSource), from which
// blinding.BuildSource makes the bundles and the sealed map and
// blinding.DeriveSource makes them again. Refusals are the loader's.
func BlindingSource(fsys fs.FS) (*blinding.Source, error) {
	l, d, err := loadDesign(fsys, campaign.LoadOptions{})
	if err != nil {
		return nil, err
	}
	return d.Blinding(l), nil
}

// verified is what verifyRecords takes from a ratings directory.
type verified struct {
	leaks []string
	refs  []scorer.RecordRef
	// g1 and g2 are the two sheets' grades, adjudicated the adjudication's
	// resolutions, bindings the sealed map's bundled reviews.
	g1, g2      []scorer.SheetGrade
	adjudicated []scorer.SheetGrade
	bindings    []scorer.ItemBinding
}

// verifyRecords reads and checks the ratings directory: it reads each
// bundle file once (derivation.readBundle: a bundle is accepted only when
// its bytes are a derived bundle's, whose leak findings it then takes),
// reads and verifies every signed record once against allowed_signers and
// the bundles (ReadRecordSet), checks that the reveal names the exact
// sheets and adjudication and commits to the sealed map, and converts the
// records into consensus input, binding the items of the design's scored
// roles (scorer.Shape.ScoredRoles). Every bundle must carry the campaign's
// rating guidelines (blinding.Bundle.Guidelines) exactly.
func verifyRecords(r Ratings, allowed []adjudication.AllowedSigner, guidelines string, derived *derivation, mapBytes []byte, scored []campaign.Role) (*verified, error) {
	out := &verified{}
	leaks, set, err := readCustodied(r.Dir, allowed, guidelines, derived, false)
	if err != nil {
		return nil, err
	}
	out.leaks = leaks
	out.refs = set.Refs
	sheets, adj, adjSHA, rev := set.Sheets, set.Adjudication, set.AdjudicationSHA256, set.Reveal
	if len(sheets) != 2 || adj == nil || rev == nil {
		return nil, &verr.Error{Reason: ReasonRecordSet, File: r.Dir, Rule: ruleScore,
			Detail: fmt.Sprintf("want exactly two rating sheets, one adjudication and one reveal; found %d sheet(s)", len(sheets))}
	}
	if e := revealMismatch(r, rev, sheets[0].SHA256, sheets[1].SHA256, adjSHA, mapBytes); e != nil {
		return nil, e
	}
	// The sealed map was parsed (and mapBytes checked to be the derived
	// map's bytes) by deriveCustody.
	sealed := derived.sealed
	out.adjudicated = scorer.AdjudicatedGrades(adj.Resolutions)
	// The two sheets' grades are the consensus and agreement input as
	// they are (scorer.SheetGrade); the record set no longer holds them.
	out.g1, out.g2 = sheets[0].Sheet.Grades, sheets[1].Sheet.Grades
	sheets[0].Sheet.Grades, sheets[1].Sheet.Grades = nil, nil
	for _, it := range sealed.Items {
		if slices.Contains(scored, it.Role) {
			out.bindings = append(out.bindings, scorer.ItemBinding{Item: it.Item, Session: it.Session})
		}
	}
	return out, nil
}

// revealMismatch is the refusal (ReasonRevealMismatch) of a reveal that
// does not name exactly the sheets sheet1 and sheet2 (SHA-256, either
// order) and the adjudication adjSHA, or that does not commit to the
// sealed map mapBytes; nil when the reveal binds them (CONTRACT §5: the
// reveal binds the frozen records to the map). Score refuses on it and
// CheckedRatings.Revealed decides with it.
func revealMismatch(r Ratings, rev *adjudication.Reveal, sheet1, sheet2, adjSHA string, mapBytes []byte) *verr.Error {
	if !rev.Names(sheet1, sheet2, adjSHA) {
		return &verr.Error{Reason: ReasonRevealMismatch, File: filepath.Join(r.Dir, "reveal.json"), Pointer: "/sheets", Rule: ruleScore,
			Detail: "the reveal does not name the exact sheets and adjudication used"}
	}
	if blinding.Digest(mapBytes) != rev.MapCommitment {
		return &verr.Error{Reason: ReasonRevealMismatch, File: r.Map, Rule: ruleScore,
			Detail: "the sealed map is not the one the reveal committed to"}
	}
	return nil
}

// readCustodied reads the ratings directory dir against the derivation:
// each bundle file once (derivation.matchBundle: a bundle is accepted
// only when its bytes are a derived bundle's, whose leak findings it then
// takes; every bundle must carry the campaign's rating guidelines
// exactly, and every rater of the sealed map needs one), then every signed
// record once, verified against allowed_signers, the bundles and the
// derived bundles' fields (as ReadRecordSetWith; optional as there). The
// bundle files are compared and the records read and verified side by
// side; the refusals are the same as one after the other (a bundle's
// before any record's). It returns the leak findings of the bundles read
// and the record set.
func readCustodied(dir string, allowed []adjudication.AllowedSigner, guidelines string, derived *derivation, optional bool) ([]string, *RecordSet, error) {
	// Bundles (for the "sheet for another bundle" check and the leak
	// scan), each read once and compared as a stream, never held: a bundle
	// holds every final answer in full.
	bundlePaths, _ := filepath.Glob(filepath.Join(dir, "bundle-*.json"))
	sort.Strings(bundlePaths)
	recordPaths := recordPaths(dir, optional)
	matched := make([]bundleMatch, len(bundlePaths))
	var checks []adjudication.Check
	var recordsErr error
	var wg sync.WaitGroup
	wg.Go(func() { checks, recordsErr = readRecords(allowed, recordPaths) })
	par.For(len(bundlePaths), func(_, i int) { matched[i] = derived.matchBundle(bundlePaths[i]) })
	wg.Wait()
	var leaks []string
	bundles := map[string]*blinding.Bundle{}
	seen := map[string]bool{}
	for i, p := range bundlePaths {
		m := matched[i]
		switch {
		case m.err != nil:
			return nil, nil, m.err
		case m.header == nil:
			// Not a derived bundle: refused, naming what differs (this
			// loads the campaign and derives the items again; the records
			// read are dropped first).
			checks = nil
			return nil, nil, derived.refuseBundle(p, guidelines)
		case m.header.Guidelines != guidelines:
			return nil, nil, &verr.Error{Reason: blinding.ReasonGuidelinesMismatch, File: p, Pointer: "/guidelines", Rule: ruleScore,
				Detail: "the bundle carries other rating guidelines than the campaign's " + campaign.GuidelinesFile}
		}
		seen[m.header.Rater] = true
		bundles[m.digest] = m.header
		derived.fields[m.digest] = derived.allFields
		for _, f := range derived.findings[m.header.Rater] {
			leaks = append(leaks, f.String())
		}
	}
	if err := derived.missingBundles(dir, seen); err != nil {
		return nil, nil, err
	}
	if recordsErr != nil {
		return nil, nil, recordsErr
	}
	// Every record is dated after the rated sessions ended (RatedEnd; the
	// records' own order, and no record from the future, Verify checks).
	set, err := crossCheckSet(checks, adjudication.VerifyOptions{Bundles: bundles, Fields: derived.fields, RatedEnd: derived.lastEnd})
	if err != nil {
		return nil, nil, err
	}
	return leaks, set, nil
}

// CheckedRatings is what ReadRatings returns: the verified records that
// exist so far and the sealed map they were checked under.
type CheckedRatings struct {
	*RecordSet
	// MapBytes are the sealed map's bytes and Sealed the map parsed (both
	// nil when the ratings name no map file that exists).
	MapBytes []byte
	Sealed   *blinding.SealedMap
	// Manifest is the manifest of the fixed-evidence campaign the records
	// were checked against, SystemManifest that of a system comparison
	// (both nil when no sealed map exists: nothing was derived; one is set
	// otherwise, by the campaign's design).
	Manifest       *campaign.Manifest
	SystemManifest *campaign.SystemManifest
	// ratings are the files read.
	ratings Ratings
}

// Revealed reports whether the records count as revealed: a sealed map,
// an adjudication and a reveal exist, and the reveal names exactly the
// sheets sheet1 and sheet2 (SHA-256) and the adjudication and commits to
// the sealed map read, the check Score refuses on (revealMismatch).
func (c *CheckedRatings) Revealed(sheet1, sheet2 string) bool {
	return c.Reveal != nil && c.Adjudication != nil && c.Sealed != nil &&
		revealMismatch(c.ratings, c.Reveal, sheet1, sheet2, c.AdjudicationSHA256, c.MapBytes) == nil
}

// ReadRatings is Score's check of a ratings directory for the records
// that exist so far (a missing adjudication.json or reveal.json is left
// out; the number of sheets and the reveal's names are the caller's): it
// loads the campaign in fsys, derives its blinding again under the sealed
// map r.Map and refuses a map or campaign that differs (deriveCustody:
// ReasonMapOtherCampaign, ReasonCampaignChanged, ReasonMapMismatch), then
// reads the bundles and records as Score does (bundle-item-mismatch,
// bundle-missing, bundle-unknown, each record's own refusal, a sheet
// against its derived bundle's fields: unknown-item, unknown-field,
// sheet-incomplete). Before the sealed map exists (no file at r.Map) there
// is nothing to derive: the bundles found in r.Dir are read whole
// (blinding.LoadBundle) and the records checked against them
// (ReadRecordSet).
func ReadRatings(fsys fs.FS, r Ratings) (*CheckedRatings, error) {
	allowed, err := ReadAllowedSigners(r.AllowedSigners)
	if err != nil {
		return nil, err
	}
	mapBytes, err := readSealedMap(r.Map)
	if errors.Is(err, fs.ErrNotExist) {
		return readFound(r.Dir, allowed)
	}
	if err != nil {
		return nil, err
	}
	l, d, err := loadDesign(fsys, campaign.LoadOptions{})
	if err != nil {
		return nil, err
	}
	src := d.Blinding(l)
	derived, err := deriveCustody(src, func() (*blinding.Source, error) { return BlindingSource(fsys) }, r.Map, mapBytes, blinding.NewScanner(src.LeakTokens()))
	if err != nil {
		return nil, err
	}
	_, set, err := readCustodied(r.Dir, allowed, src.Guidelines, derived, true)
	if err != nil {
		return nil, err
	}
	out := &CheckedRatings{RecordSet: set, MapBytes: mapBytes, Sealed: derived.sealed, ratings: r}
	switch c := l.(type) {
	case *campaign.Campaign:
		out.Manifest = &c.Manifest
	case *scorer.SystemLoaded:
		out.SystemManifest = &c.Manifest
	}
	return out, nil
}

// readSealedMap reads the sealed map file at path (a regular file within
// its size cap). A refusal of the file itself is returned as it is; any
// other failure to read it is a ReasonRecordSet refusal naming path that
// wraps the cause (so errors.Is(err, fs.ErrNotExist) still reports a
// missing map).
func readSealedMap(path string) ([]byte, error) {
	data, err := campaign.ReadRegular(path, campaign.FileSealedMap)
	if e := (*verr.Error)(nil); err == nil || errors.As(err, &e) {
		return data, err
	}
	detail := err.Error()
	if errors.Is(err, fs.ErrNotExist) {
		detail = "no sealed map here: the map is read from the ratings directory's sealed-map.json unless --map names the file blind --map-out wrote (" + detail + ")"
	}
	return nil, &verr.Error{Reason: ReasonRecordSet, File: path, Rule: ruleScore, Detail: detail, Err: err}
}

// readFound is ReadRatings before a sealed map exists: the records
// against the bundles found in dir, each parsed whole.
func readFound(dir string, allowed []adjudication.AllowedSigner) (*CheckedRatings, error) {
	bundles := map[string]*blinding.Bundle{}
	paths, _ := filepath.Glob(filepath.Join(dir, "bundle-*.json"))
	sort.Strings(paths)
	for _, p := range paths {
		b, d, err := blinding.LoadBundle(p)
		if err != nil {
			return nil, err
		}
		bundles[d] = b
	}
	set, err := ReadRecordSet(dir, allowed, bundles, true)
	if err != nil {
		return nil, err
	}
	return &CheckedRatings{RecordSet: set, ratings: Ratings{Dir: dir}}, nil
}
