package scorer

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"verdict/adjudication"
	"verdict/campaign"
	"verdict/internal/buildinfo"
)

var update = flag.Bool("update", false, "rewrite golden files")

// goldenReport is a SYNTHETIC evaluation campaign with one B valid failure,
// one wrongly excluded evidence item and real accounting.
func goldenReport(t *testing.T) *Report {
	t.Helper()
	in := testInput(campaign.PhaseEvaluation, 8, 3, 10, 8, 10)
	r := in.run("T2", 2, ArmB)
	r.Outcome, r.FailureKind, r.Final, r.Grades, r.Item = OutcomeValidFailure, "model_timeout", nil, nil, ""
	x := in.run("T5", 1, ArmB)
	x.Grades = setGrade(x.Grades, adjudication.KindExclusion, "X1", adjudication.ValueWronglyExcludes)
	c := testCampaign(campaign.PhaseEvaluation, 8, 3)
	for i, task := range c.Tasks {
		for k := range task.Packet.Items {
			task.Packet.Items[k].Commit = strings.Repeat(string(rune('a'+i/2)), 40)
		}
	}
	id := IdentityOf(c)
	acct := Accounting(c)
	in.Accounting = &acct
	sc, err := Evaluate(*in)
	if err != nil {
		t.Fatal(err)
	}
	var cons []ConsensusGrade
	for _, run := range in.Runs {
		cons = append(cons, run.Grades...)
	}
	cons[3].Source = SourceAdjudicated
	return BuildReport(sc, ReportContext{
		Responses: 48,
		Findings: []Finding{{Code: "dangling-link", File: "responses/S9.json", Pointer: "/final/citations/0/supports/0", Scope: ScopeFinal,
			Rule: "EVALUATOR-CONTROLS C12", Message: "C7 is not in the revised final answer"}},
		LeakFindings: []string{"rater-2 item-00aa#/items/3/final/claims/0/text: revealing-token \"ledger\""},
		Consensus:    cons,
		Agreement:    reportAgreement(),
		Identity:     &id,
		Records:      []RecordRef{{Kind: "rating-sheet", Signer: "rater-1", Role: "rater", Fingerprint: "SHA256:synthetic", SHA256: strings.Repeat("ab", 32)}},
		Provenance: Provenance{Build: buildinfo.Build{Module: "verdict", Version: "(devel)", GoVersion: "go1.26.8"},
			ManifestSHA256: strings.Repeat("cd", 32), Schemas: campaign.SchemaDigests()},
	})
}

// reportAgreement is the agreement of two small synthetic sheets: three
// obligation fields and one claim, the second rater differing on one
// obligation and flagging one obligation as an oracle defect.
func reportAgreement() *adjudication.Agreement {
	g := func(item string, k adjudication.Kind, target, v string) adjudication.Grade {
		return adjudication.Grade{Field: adjudication.Field{Item: item, Kind: k, Target: target}, Value: v}
	}
	a := []adjudication.Grade{g("i1", adjudication.KindObligation, "O1", adjudication.ValueAddressed), g("i1", adjudication.KindObligation, "O2", adjudication.ValueAddressed),
		g("i2", adjudication.KindObligation, "O1", adjudication.ValueNotAddressed), g("i2", adjudication.KindClaim, "C1", adjudication.ValueSupported)}
	b := []adjudication.Grade{g("i1", adjudication.KindObligation, "O1", adjudication.ValueAddressed), g("i1", adjudication.KindObligation, "O2", adjudication.ValueNotAddressed),
		g("i2", adjudication.KindObligation, "O1", adjudication.ValueNotAddressed), g("i2", adjudication.KindClaim, "C1", adjudication.ValueSupported),
		g("i2", adjudication.KindOracleDefect, "O1", adjudication.ValueDefective)}
	ag := adjudication.AgreementOf(a, b, nil)
	return &ag
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./scorer -run TestReportGolden -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file; rerun with -update after checking the change", name)
	}
}

func TestReportGolden(t *testing.T) {
	r := goldenReport(t)
	js, err := r.JSON()
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "report.golden.json", js)
	md := r.Markdown(true)
	golden(t, "report.golden.md", md)
	if !bytes.HasPrefix(md, []byte(SyntheticNotice+"\n")) {
		t.Errorf("report.md does not start with the SYNTHETIC notice")
	}
	for _, want := range []string{"quality-improves-gate-fails", "condition-4-protocol", "1 of 24", "unknown", "Automatic validation", "Recorded human decisions", "Krippendorff",
		// page 1
		"| model snapshot | synthetic-model-snapshot-1 |", "| consumer | SYNTHETIC consumer 0 |", "| host | SYNTHETIC host |",
		"| price card | codex-work-2026-09-05: US$4 uncached input, US$0.40 cached input, US$20 output", "synthetic/repo4 @ `dddd", "| verdict build | verdict (devel) revision unknown go1.26.8 |",
		"Synthetic: **yes**", ArmsSentence,
		// agreement caveats and confusion matrices
		"not meaningful: n=", "pooled across kinds", "### Confusion matrix: obligation", "| rater 1 \\ rater 2 | addressed | not_addressed |"} {
		if !bytes.Contains(md, []byte(want)) {
			t.Errorf("report.md lacks %q", want)
		}
	}
}

func TestReportDeterministic(t *testing.T) {
	a, b := goldenReport(t), goldenReport(t)
	ja, _ := a.JSON()
	jb, _ := b.JSON()
	if !bytes.Equal(ja, jb) || !bytes.Equal(a.Markdown(true), b.Markdown(true)) {
		t.Fatal("same input, different report bytes")
	}
	for _, f := range []func(*Report) ([]byte, error){(*Report).MedianRChartSVG, (*Report).RatiosChartSVG, (*Report).PairedRatiosChartSVG} {
		sa, err := f(a)
		if err != nil {
			t.Fatal(err)
		}
		sb, _ := f(b)
		if !bytes.Equal(sa, sb) || !bytes.Contains(sa, []byte("<svg")) || !bytes.Contains(sa, []byte("SYNTHETIC")) {
			t.Fatal("chart is not a deterministic SYNTHETIC-labelled SVG")
		}
	}
}

func TestReportText(t *testing.T) {
	r := goldenReport(t)
	out, err := r.Text("notty", 100)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "SYNTHETIC") || !strings.Contains(out, "█") {
		t.Errorf("terminal view lacks the notice or the bars:\n%s", out[:min(len(out), 400)])
	}
}

// TestReportTextPlainAndNoticeFirst: the plain styles give text without
// escape codes, margin or padding spaces, and every style starts with the
// SYNTHETIC notice on the very first line.
func TestReportTextPlainAndNoticeFirst(t *testing.T) {
	r := goldenReport(t)
	for _, style := range []string{"notty", "ascii"} {
		out, err := r.Text(style, 100)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(out, "\x1b") {
			t.Errorf("%s: escape codes in plain text", style)
		}
		if !strings.HasPrefix(out, "SYNTHETIC") {
			t.Errorf("%s: first line is not the notice: %q", style, out[:min(len(out), 80)])
		}
		for i, l := range strings.Split(out, "\n") {
			if strings.HasSuffix(l, " ") {
				t.Errorf("%s: line %d ends with padding spaces: %q", style, i+1, l)
				break
			}
		}
	}
	out, err := r.Text("dark", 100)
	if err != nil {
		t.Fatal(err)
	}
	first, _, _ := strings.Cut(out, "\n")
	if !strings.Contains(first, "SYNTHETIC") {
		t.Errorf("dark: first line %q lacks the notice", first)
	}
	if _, err := r.Text("no-such-style", 100); err == nil {
		t.Error("unknown style accepted")
	}
}

// TestReportWriteJSONIsEncodingJSON checks that the streamed report.json is
// byte for byte what encoding/json's indented Encoder writes.
func TestReportWriteJSONIsEncodingJSON(t *testing.T) {
	r := goldenReport(t)
	var want bytes.Buffer
	enc := json.NewEncoder(&want)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(r); err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	if err := r.WriteJSON(&got); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Bytes(), want.Bytes()) {
		t.Fatalf("WriteJSON differs from encoding/json (%d vs %d bytes)", got.Len(), want.Len())
	}
}

// TestDuration: times are rounded with their units, never printed as
// raw seconds with nine decimals.
func TestDuration(t *testing.T) {
	for _, c := range []struct {
		ns   int64
		want string
	}{
		{0, "0ms"}, {850_400_000, "850ms"}, {999_400_000, "999ms"}, {12_345_000_000, "12.3s"}, {59_940_000_000, "59.9s"},
		{59_960_000_000, "1m00s"}, {110_758_001_538, "1m51s"}, {123_000_000_000, "2m03s"}, {3_599_400_000_000, "59m59s"},
		{3_723_000_000_000, "1h02m03s"}, {-2_000_000_000, "-2.0s"},
	} {
		if got := duration(Of[Nanosecond](c.ns)); got != c.want {
			t.Errorf("duration(%d ns) = %q, want %q", c.ns, got, c.want)
		}
	}
	if got := duration(Unknown[Nanosecond]("time-missing")); got != "unknown" {
		t.Errorf("unknown time renders %q", got)
	}
}

// TestIdentityNulls: page 1 says what the manifest leaves null instead of
// guessing, and names every source commit once with its tasks.
func TestIdentityNulls(t *testing.T) {
	c := testCampaign(campaign.PhaseEvaluation, 4, 1)
	c.Manifest.Execution.ModelSnapshot, c.Manifest.Execution.Host, c.Manifest.Execution.PriceCard = nil, nil, nil
	c.Tasks[0].Packet.Items[0].Commit = strings.Repeat("e", 40)
	id := IdentityOf(c)
	if len(id.SourceCommits) != 3 || id.SourceCommits[0].Commit != "" || id.SourceCommits[1].Commit != strings.Repeat("e", 40) ||
		strings.Join(id.SourceCommits[0].Tasks, ",") != "T1,T2" || strings.Join(id.SourceCommits[1].Tasks, ",") != "T1" {
		t.Fatalf("source commits %+v", id.SourceCommits)
	}
	var b bytes.Buffer
	markdownIdentity(&b, &id, Provenance{}, 0)
	for _, want := range []string{"| model snapshot | none recorded: the model name is an alias", "| host | not recorded |", "| price card | none: no defensible tariff", "synthetic/repo1 @ `unknown` (T1, T2)"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("page 1 lacks %q:\n%s", want, b.String())
		}
	}
}
