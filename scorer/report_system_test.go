package scorer

import (
	"bytes"
	"encoding/xml"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"verdict/campaign"
)

// A system comparison's report shows the decision, every gate, the three
// scorecards, the paired results, every startup cost and every failure, in
// json, Markdown, text and SVG, the same bytes every time.
func TestSystemReport(t *testing.T) {
	in := passingSys()
	in.Setup = []SetupCharge{{System: campaign.SystemSerena, Repository: "synthetic/repo1", Workflow: in.wf(campaign.SystemSerena, "T1", 1).ID, Kind: "index",
		SystemCharge: SystemCharge{Cost: MicroUSD(70), Time: Of[Nanosecond](30e9)}}}
	w := in.wf(campaign.SystemMadar, "T2", 2)
	w.Review = RunInput{Task: "T2", Repetition: 2, Arm: ArmA, Session: w.Review.Session, Outcome: OutcomeInvestigationFailure, FailureKind: "evidence_budget_exceeded"}
	w.ReviewCharge = zeroCharge()
	in.wf(campaign.SystemMadar, "T3", 1).Investigation.Time = Of[Nanosecond](300e9)
	sc := evalSys(t, in)
	render := func() (js, md, txt []byte, charts []ChartFile) {
		r := BuildSystemReport(sc, ReportContext{})
		var jb, tb bytes.Buffer
		if err := r.WriteJSON(&jb); err != nil {
			t.Fatal(err)
		}
		if err := r.WriteText(&tb, "notty", 100); err != nil {
			t.Fatal(err)
		}
		cs, err := r.Charts()
		if err != nil {
			t.Fatal(err)
		}
		return jb.Bytes(), r.Markdown(true), tb.Bytes(), cs
	}
	js, md, txt, charts := render()
	js2, md2, txt2, charts2 := render()
	if !bytes.Equal(js, js2) || !bytes.Equal(md, md2) || !bytes.Equal(txt, txt2) {
		t.Fatal("a system report is not deterministic")
	}
	for _, want := range []string{
		SyntheticNotice, "**no-madar-advantage**", GateCondition1, GateSerenaPairedTime, "Madar stable core", "Serena", "Native",
		"evidence_budget_exceeded", "| Serena | synthetic/repo1 | W", "index", "0.00007 USD", "30s",
		"### Madar against Native", "### Madar against Serena", "packet-supported coverage", "U set credited",
		ChartSystemMedianR, ChartSystemRatios, ChartSystemPairs,
	} {
		if !bytes.Contains(md, []byte(want)) {
			t.Errorf("report.md lacks %q", want)
		}
	}
	if !strings.HasPrefix(string(txt), SyntheticNotice) || !bytes.Contains(txt, []byte("madar-vs-serena-paired-time")) {
		t.Errorf("text report:\n%s", txt[:min(len(txt), 400)])
	}
	for _, want := range []string{`"format": "verdict-system-report-v1"`, `"design": "system-comparison"`, `"r_sys"`, `"suite_cost_ratio"`, `"cold_first"`} {
		if !bytes.Contains(js, []byte(want)) {
			t.Errorf("report.json lacks %s", want)
		}
	}
	for i, c := range charts {
		if !bytes.Equal(c.SVG, charts2[i].SVG) {
			t.Errorf("%s is not deterministic", c.Name)
		}
		d := xml.NewDecoder(bytes.NewReader(c.SVG))
		for {
			_, err := d.Token()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("%s is not well-formed: %v", c.Name, err)
			}
		}
		if !bytes.Contains(c.SVG, []byte("SYNTHETIC")) {
			t.Errorf("%s has no SYNTHETIC title", c.Name)
		}
		if dir := os.Getenv("VERDICT_SYSTEM_REPORT_DIR"); dir != "" {
			_ = os.WriteFile(dir+"/"+c.Name, c.SVG, 0o644)
			_ = os.WriteFile(dir+"/report.md", md, 0o644)
		}
	}
	if !bytes.Contains(charts[2].SVG, []byte("above 1.25")) {
		t.Errorf("the paired chart does not mark the failing pair")
	}
}

// TestSystemReportTextFitsWidth: a system comparison's text report
// follows the fixed report's width rules at 80 and 120 columns: no line is
// wider than the terminal (in the plain and the colour style), a table too
// wide for it becomes one paragraph per row (its key cells in bold, then
// "heading: value"), and every column heading of report.md appears whole.
func TestSystemReportTextFitsWidth(t *testing.T) {
	in := passingSys()
	in.Setup = []SetupCharge{{System: campaign.SystemSerena, Repository: "synthetic/repo1", Workflow: in.wf(campaign.SystemSerena, "T1", 1).ID, Kind: "index",
		SystemCharge: SystemCharge{Cost: MicroUSD(70), Time: Of[Nanosecond](30e9)}}}
	w := in.wf(campaign.SystemMadar, "T2", 2)
	w.Review = RunInput{Task: "T2", Repetition: 2, Arm: ArmA, Session: w.Review.Session, Outcome: OutcomeInvestigationFailure, FailureKind: "evidence_budget_exceeded"}
	w.ReviewCharge = zeroCharge()
	r := BuildSystemReport(evalSys(t, in), ReportContext{})
	var heads []string
	lines := strings.Split(string(r.Markdown(false)), "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "| ") && i+1 < len(lines) && strings.HasPrefix(lines[i+1], "|---") {
			heads = append(heads, strings.Split(strings.Trim(l, "| "), " | ")...)
		}
	}
	if len(heads) < 60 {
		t.Fatalf("report.md has %d table headings; the test needs the system report's tables", len(heads))
	}
	for _, width := range []int{80, 120} {
		for _, style := range []string{"notty", "dark"} {
			var buf bytes.Buffer
			if err := r.WriteText(&buf, style, width); err != nil {
				t.Fatal(err)
			}
			text := visible(buf.String())
			for i, l := range strings.Split(text, "\n") {
				if n := ansi.StringWidth(l); n > width {
					t.Errorf("%s, width %d: line %d is %d columns: %q", style, width, i+1, n, l)
				}
			}
			if style != "notty" {
				continue
			}
			flat := " " + strings.Join(strings.Fields(strings.NewReplacer("|", " ", "**", "").Replace(text)), " ") + " "
			// The table of every workflow (14 columns) cannot fit: it is
			// one paragraph per workflow.
			if !strings.Contains(flat, " workflow W1 — task: T1; rep: 1; position: 1;") {
				t.Errorf("width %d: the workflow table is not one paragraph per row:\n%s", width, text)
			}
			for _, h := range heads {
				if h == "what" || h == "identity" {
					continue // the two-column identity tables drop their headings when narrow
				}
				if !strings.Contains(flat, " "+h+" ") && !strings.Contains(flat, " "+h+":") {
					t.Errorf("width %d: the table heading %q is not whole in the text", width, h)
				}
			}
		}
	}
}
