package main

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"slices"
	"sort"
	"strings"

	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"
	"verdict/internal/fsutil"

	"verdict/adjudication"
	"verdict/blinding"
	"verdict/campaign"
	"verdict/internal/buildinfo"
	"verdict/scorer"
)

func init() { register(newScoreCmd) }

// Reason codes of `verdict score` refusals of the ratings directory.
const (
	// ReasonRecordRefused: a signed record failed verification.
	ReasonRecordRefused campaign.Reason = "record-refused"
	// ReasonRecordSet: the ratings directory does not hold exactly two
	// sheets, one adjudication and one reveal.
	ReasonRecordSet campaign.Reason = "record-set"
	// ReasonRevealMismatch: the reveal does not name the exact sheets and
	// adjudication used, or the sealed map is not the committed one.
	ReasonRevealMismatch campaign.Reason = "reveal-mismatch"
)

const ruleScore = "DESIGN Signed records; CONTRACT §5 two frozen ratings before reveal"

// scoreRun is everything `verdict score` produced for one campaign.
type scoreRun struct {
	report *scorer.Report
}

func newScoreCmd(a *app) *cobra.Command {
	var ratings, allowed, mapFile, out string
	c := &cobra.Command{
		Use:   "score CAMPAIGN --ratings DIR",
		Short: "verify the signed records, settle grades and print the three scorecards and the decision",
		Long: `score verifies every signed record in the ratings directory (two frozen
rating sheets, the adjudication and the reveal, each with its detached .sig)
against allowed_signers; it refuses if any record fails or the reveal does
not name the exact sheets and adjudication used. It settles every field
(agreed, or adjudicated), unblinds items with the sealed map, combines them
with the structural findings and the accounting, and prints the report.
With --out DIR it writes report.json, report.md and the SVG charts there.
Exit 0 when every gate passes, 1 otherwise (the report names each failing gate).`,
		Args: cobra.ExactArgs(1),
	}
	format := formatFlag(c, "text", "md", "json")
	c.Flags().StringVar(&ratings, "ratings", "", "directory with sheet-*.json, adjudication.json, reveal.json (each with .sig), sealed-map.json, bundle-*.json")
	c.Flags().StringVar(&allowed, "allowed-signers", "", "allowed_signers file (default: DIR/allowed_signers)")
	c.Flags().StringVar(&mapFile, "map", "", "sealed unblinding map (default: DIR/sealed-map.json)")
	c.Flags().StringVar(&out, "out", "", "write report.json, report.md and charts to this directory")
	c.RunE = func(cmd *cobra.Command, args []string) error {
		if ratings == "" {
			return usagef("score: --ratings DIR is required")
		}
		if allowed == "" {
			allowed = filepath.Join(ratings, "allowed_signers")
		}
		if mapFile == "" {
			mapFile = filepath.Join(ratings, "sealed-map.json")
		}
		// The memory limit covers scoring and printing; the text view is
		// rendered one section at a time (Report.WriteText).
		afterLoad, restore := limitScoreMemory()
		defer restore()
		res, err := scoreCampaign(campaignFS(args[0]), ratings, allowed, mapFile, afterLoad)
		if err != nil {
			fmt.Fprintln(a.stdout, "score refused:")
			for _, e := range flattenErrors(err) {
				fmt.Fprintln(a.stdout, "  "+e.Error())
			}
			return failed("score refused the input")
		}
		if out != "" {
			if err := writeReport(res.report, out); err != nil {
				return err
			}
		}
		if err := printReport(a, res.report, *format); err != nil {
			return err
		}
		if out != "" {
			fmt.Fprintf(a.stderr, "report written to %s\n", out)
		}
		if d := res.report.Scorecard.Decision; d.Kind != scorer.DecisionAllGatesPass {
			return failed("decision %s: %s", d.Kind, d.Summary)
		}
		return nil
	}
	return c
}

// scoreMemoryFloor is the least soft memory limit (bytes) `verdict score`
// scores under once the campaign is loaded (limitScoreMemory): 150 MiB,
// so that scoring a campaign of 10,000 sessions stays within 200 MB of
// resident memory (the Go heap plus the program itself).
const scoreMemoryFloor = 150 << 20

// limitScoreMemory sets the Go runtime's soft memory limit
// (runtime/debug.SetMemoryLimit) for the scoring and printing of one
// `verdict score` run, from the loaded campaign on (afterLoad) until
// restore (when the command returns): the garbage
// collector then collects before the heap reaches its default target of
// twice the live heap, whenever that target would pass the limit.
// afterLoad collects once to measure the loaded campaign's live heap and
// sets the limit to scoreMemoryFloor, or to 7/4 of that live heap for a
// larger campaign (the scoring phases that follow hold the campaign plus
// less than half of it again; a limit near the live heap would make the
// collector run continuously). Loading itself runs without a limit, so a
// large campaign is never loaded under a limit it exceeds. restore puts
// the previous limit back. With GOMEMLIMIT set in the environment both do
// nothing: the user's limit stands.
func limitScoreMemory() (afterLoad, restore func()) {
	if os.Getenv("GOMEMLIMIT") != "" {
		return func() {}, func() {}
	}
	prev := debug.SetMemoryLimit(-1) // reads the current limit
	afterLoad = func() {
		runtime.GC()
		s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		metrics.Read(s)
		limit := int64(scoreMemoryFloor)
		if s[0].Value.Kind() == metrics.KindUint64 {
			limit = max(limit, int64(s[0].Value.Uint64())*7/4)
		}
		debug.SetMemoryLimit(limit)
	}
	return afterLoad, func() { debug.SetMemoryLimit(prev) }
}

// printReport prints the report in the chosen format.
func printReport(a *app, r *scorer.Report, format string) error {
	switch format {
	case "json":
		w := bufio.NewWriterSize(a.stdout, 1<<16)
		if err := r.WriteJSON(w); err != nil {
			return err
		}
		return w.Flush()
	case "md":
		_, err := a.stdout.Write(r.Markdown(false))
		return err
	}
	// Rendered and written one section at a time (Report.WriteText).
	return r.WriteText(a.stdout, textStyle(a.stdout), 100)
}

// textStyle is the glamour style of `--format text` on w: "dark" (colour)
// only when w is a terminal and NO_COLOR is unset (no-color.org);
// otherwise "notty", plain text without escape codes for a pipe or a file.
func textStyle(w io.Writer) string {
	f, ok := w.(interface{ Fd() uintptr })
	if !ok || !term.IsTerminal(f.Fd()) || os.Getenv("NO_COLOR") != "" {
		return "notty"
	}
	return "dark"
}

// writeReport writes report.json, report.md and the two SVG charts into
// dir, each atomically (fsutil). report.json is streamed to its file
// (Report.WriteJSON), never held whole.
func writeReport(r *scorer.Report, dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := writeReportJSON(r, filepath.Join(dir, "report.json")); err != nil {
		return err
	}
	mr, err := r.MedianRChartSVG()
	if err != nil {
		return err
	}
	rt, err := r.RatiosChartSVG()
	if err != nil {
		return err
	}
	for _, f := range []struct {
		name string
		data []byte
	}{{"report.md", r.Markdown(true)}, {scorer.ChartMedianR, mr}, {scorer.ChartRatios, rt}} {
		if err := fsutil.WriteFile(filepath.Join(dir, f.name), f.data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// writeReportJSON streams report.json into a temporary file beside path
// and renames it over path once complete.
func writeReportJSON(r *scorer.Report, path string) error {
	return fsutil.WriteWith(path, 0o644, r.WriteJSON)
}

// scoreCampaign is the whole score pipeline: load, verify the records,
// settle grades, unblind, score and build the report.
// afterLoad, when given, is called once the campaign is loaded (the score
// command raises its memory limit there, see limitScoreMemory).
func scoreCampaign(fsys fs.FS, ratings, allowedPath, mapPath string, afterLoad ...func()) (*scoreRun, error) {
	c, err := campaign.Load(fsys)
	if err != nil {
		return nil, err
	}
	for _, f := range afterLoad {
		f()
	}
	// Everything score needs of the campaign is computed now (the leak
	// tokens, the response count, and the campaign's side of the score
	// input); the campaign itself, tens of megabytes for 10,000 sessions,
	// is not used after this and is not held while the bundles and the
	// rating records are read.
	tokens := blinding.DefaultLeakTokens(c)
	responses := 0
	for _, s := range c.Sessions {
		if s.Response != nil {
			responses++
		}
	}
	prep, findings := scorer.PrepareScoreInput(c)
	prov := scorer.Provenance{Build: buildinfo.Read(), ManifestSHA256: c.ManifestSHA256, Schemas: campaign.SchemaDigests()}
	allowedBytes, err := os.ReadFile(allowedPath)
	if err != nil {
		return nil, err
	}
	allowed, err := adjudication.ParseAllowedSigners(allowedPath, allowedBytes)
	if err != nil {
		return nil, err
	}
	// Bundles (for the "sheet for another bundle" check and the leak scan),
	// streamed one at a time: a bundle holds every final answer in full.
	bundlePaths, _ := filepath.Glob(filepath.Join(ratings, "bundle-*.json"))
	sort.Strings(bundlePaths)
	bundles := map[string]*blinding.Bundle{}
	var leaks []string
	scan := blinding.NewScanner(tokens)
	for _, p := range bundlePaths {
		hdr, digest, found, err := scanBundleFile(p, scan)
		if err != nil {
			return nil, err
		}
		bundles[digest] = hdr
		for _, f := range found {
			leaks = append(leaks, f.String())
		}
	}
	// Records, verified one at a time and streamed from their files
	// (adjudication.VerifyRecordFile): two sheets of a 10,000-session
	// campaign are tens of megabytes each, and only their decoded forms
	// are held.
	sheetPaths, _ := filepath.Glob(filepath.Join(ratings, "sheet-*.json"))
	sort.Strings(sheetPaths)
	paths := append(slices.Clone(sheetPaths), filepath.Join(ratings, "adjudication.json"), filepath.Join(ratings, "reveal.json"))
	checks := make([]adjudication.Check, 0, len(paths))
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			return nil, &campaign.Error{Reason: ReasonRecordSet, File: p, Rule: ruleScore, Detail: err.Error()}
		}
		f.Close()
		sig, err := os.ReadFile(p + ".sig")
		if err != nil {
			sig = nil
		}
		checks = append(checks, adjudication.VerifyRecordFile(allowed, p, sig))
	}
	checks = adjudication.CrossCheck(checks, adjudication.VerifyOptions{Bundles: bundles})
	var refusals []error
	for _, ch := range checks {
		if !ch.OK {
			refusals = append(refusals, &campaign.Error{Reason: ch.Reason, File: ch.File, Rule: ruleScore, Detail: ch.Detail})
		}
	}
	if len(refusals) > 0 {
		return nil, errors.Join(refusals...)
	}
	// Verify decoded every record; use its decoded values (every check is OK).
	var sheets []adjudication.FrozenSheet
	var adj *adjudication.Adjudication
	var adjSHA string
	var rev *adjudication.Reveal
	var refs []scorer.RecordRef
	for _, ch := range checks {
		refs = append(refs, scorer.RecordRef{Kind: ch.Kind, Signer: ch.Signer.Name, Role: string(ch.Signer.Role), Fingerprint: ch.Signer.KeyFingerprint, SHA256: ch.SHA256})
		switch ch.Kind {
		case "sheet":
			sheets = append(sheets, adjudication.FrozenSheet{Sheet: ch.Sheet(), SHA256: ch.SHA256})
		case "adjudication":
			adj, adjSHA = ch.Adjudication(), ch.SHA256
		case "reveal":
			rev = ch.Reveal()
		}
	}
	checks = nil // the decoded records are held by sheets, adj and rev
	if len(sheets) != 2 || adj == nil || rev == nil {
		return nil, &campaign.Error{Reason: ReasonRecordSet, File: ratings, Rule: ruleScore,
			Detail: fmt.Sprintf("want exactly two rating sheets, one adjudication and one reveal; found %d sheet(s)", len(sheets))}
	}
	// The reveal must name exactly the sheets and adjudication used.
	if !rev.Names(sheets[0].SHA256, sheets[1].SHA256, adjSHA) {
		return nil, &campaign.Error{Reason: ReasonRevealMismatch, File: filepath.Join(ratings, "reveal.json"), Pointer: "/sheets", Rule: ruleScore,
			Detail: "the reveal does not name the exact sheets and adjudication used"}
	}
	mapBytes, err := os.ReadFile(mapPath)
	if err != nil {
		return nil, err
	}
	if blinding.Digest(mapBytes) != rev.MapCommitment {
		return nil, &campaign.Error{Reason: ReasonRevealMismatch, File: mapPath, Rule: ruleScore,
			Detail: "the sealed map is not the one the reveal committed to"}
	}
	sealed, err := blinding.ParseSealedMap(mapPath, mapBytes)
	if err != nil {
		return nil, err
	}
	// Settle every field.
	adjGrades := scorer.AdjudicatedGrades(adj.Resolutions)
	agreement := agreementRows(sheets[0].Sheet, sheets[1].Sheet)
	// Every later step reads the converted grades; each sheet's decoded
	// grades are dropped as soon as they are converted.
	g1 := scorer.SheetGradesOf(sheets[0].Sheet.Grades)
	sheets[0].Sheet.Grades = nil
	g2 := scorer.SheetGradesOf(sheets[1].Sheet.Grades)
	sheets = nil
	settled, err := scorer.Consensus(g1, g2, adjGrades)
	if err != nil {
		return nil, err
	}
	g1, g2 = nil, nil
	var bindings []scorer.ItemBinding
	for _, it := range sealed.Items {
		if it.Role == campaign.RoleReviewA || it.Role == campaign.RoleReviewB {
			bindings = append(bindings, scorer.ItemBinding{Item: it.Item, Session: it.Session})
		}
	}
	in, err := prep.Join(bindings, settled)
	if err != nil {
		return nil, err
	}
	sc, err := scorer.Evaluate(in)
	if err != nil {
		return nil, err
	}
	rep := scorer.BuildReport(sc, scorer.ReportContext{
		Responses: responses, Findings: findings, LeakFindings: leaks, Consensus: settled,
		Agreement: agreement, Records: refs, Provenance: prov,
	})
	return &scoreRun{report: rep}, nil
}

// scanBundleFile streams the bundle file at path once: its SHA-256 (the
// digest a rating sheet binds as bundle_digest), its header members (format,
// rater, content and obligations digests; Items stays nil) and the leak
// scan of every member and item (blinding.Scanner.ScanReader, the same
// findings as ScanBundle). A bundle is never held whole: it holds every
// final answer of the campaign. The bundle's items are not re-verified
// here: a sheet is accepted only for a bundle whose exact bytes it signed
// (bundle_digest, checked by adjudication.Verify), and freeze verified
// those bytes (blinding.ParseBundle) before signing.
func scanBundleFile(path string, scan *blinding.Scanner) (*blinding.Bundle, string, []blinding.Finding, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, "", nil, err
	}
	defer f.Close()
	h := sha256.New()
	r := io.TeeReader(bufio.NewReaderSize(f, 1<<16), h)
	found, header, err := scan.ScanReader(filepath.Base(path), r)
	if err != nil {
		return nil, "", nil, &campaign.Error{Reason: blinding.ReasonMalformedBundle, File: path, Rule: "strict JSON", Detail: err.Error(), Err: err}
	}
	if _, err := io.Copy(h, r); err != nil {
		return nil, "", nil, err
	}
	var obj bytes.Buffer
	obj.WriteByte('{')
	for _, k := range slices.Sorted(maps.Keys(header)) {
		if obj.Len() > 1 {
			obj.WriteByte(',')
		}
		kb, _ := json.Marshal(k)
		obj.Write(kb)
		obj.WriteByte(':')
		obj.Write(header[k])
	}
	obj.WriteByte('}')
	var hdr blinding.Bundle
	if err := blinding.DecodeStrict(path, obj.Bytes(), &hdr); err != nil {
		return nil, "", nil, err
	}
	if hdr.Format != blinding.BundleFormat {
		return nil, "", nil, &campaign.Error{Reason: blinding.ReasonMalformedBundle, File: path, Pointer: "/format", Rule: "blinding bundle",
			Detail: fmt.Sprintf("format %q, want %q", hdr.Format, blinding.BundleFormat)}
	}
	// The findings name the bundle's rater, as ScanBundle's do.
	for i := range found {
		found[i].Rater = hdr.Rater
	}
	return &hdr, hex.EncodeToString(h.Sum(nil)), found, nil
}

// agreementRows computes percent agreement, Cohen's kappa and
// Krippendorff's nominal alpha of the two frozen sheets over every required
// field, and per grade kind. A field graded on one sheet only pairs with
// ""; a field graded twice on one sheet counts with its last grade. The
// statistics depend only on how often each pair of values occurs, so the
// fields are joined by a sort of each sheet's grades and counted into one
// adjudication.PairTable per kind (no per-field map or value list: a
// campaign of 10,000 sessions has hundreds of thousands of fields).
func agreementRows(a, b *adjudication.Sheet) []scorer.AgreementRow {
	byKind := map[adjudication.Kind]adjudication.PairTable{}
	all := adjudication.PairTable{}
	adjudication.JoinGrades(a.Grades, b.Grades, func(f adjudication.Field, x, y adjudication.Grade) {
		if f.Kind == adjudication.KindOracleDefect {
			return
		}
		all.Add(x.Value, y.Value)
		t := byKind[f.Kind]
		if t == nil {
			t = adjudication.PairTable{}
			byKind[f.Kind] = t
		}
		t.Add(x.Value, y.Value)
	})
	row := func(scope string, t adjudication.PairTable) scorer.AgreementRow {
		p, k, al := t.Statistics()
		return scorer.AgreementRow{Scope: scope, PercentAgreement: stat(p), CohensKappa: stat(k), KrippendorffAlpha: stat(al)}
	}
	rows := []scorer.AgreementRow{row("all fields", all)}
	for _, k := range adjudication.Kinds {
		if k == adjudication.KindOracleDefect {
			continue
		}
		rows = append(rows, row("kind "+string(k), byKind[k]))
	}
	return rows
}

func stat(s adjudication.Statistic) scorer.AgreementStat {
	out := scorer.AgreementStat{N: s.N, Defined: s.Defined, Reason: s.Reason}
	if s.Defined {
		out.Value = strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.4f", s.Value), "0"), ".")
	}
	return out
}
