package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"verdict/campaign"
	"verdict/verr"
)

// SYNTHETIC packet: six one-to-three-line excerpts of an invented file.
func writePacket(t *testing.T, dir string) string {
	t.Helper()
	p := campaign.Packet{Task: "T1"}
	for i := range 6 {
		p.Items = append(p.Items, campaign.EvidenceItem{
			ID: fmt.Sprintf("E%d", i+1), Repository: "synthetic/shop",
			Commit: strings.Repeat("ab", 20), Path: fmt.Sprintf("src/m%d.ts", i+1),
			StartLine: 10, EndLine: 11, FileSHA256: strings.Repeat("cd", 32),
			Excerpt: "export const a = 1;\nexport const b = 2;\n",
		})
	}
	data, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "packet.json")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// SYNTHETIC review B answer: one cited claim and one excluded item per
// remaining packet ID. It is structurally valid.
const validB = `{
  "final": {
    "claims": [{"id": "C1", "text": "a is 1.", "status": "source_backed", "evidence_ids": ["E1"], "uncertainty_id": null}],
    "implementation_plan": [],
    "verification_plan": [],
    "uncertainties": [],
    "exclusions": [{"id": "X1", "scope_item": "Modules m2 to m6", "reason": "They do not concern a.", "evidence_ids": ["E2", "E3", "E4", "E5", "E6"]}],
    "citations": [{"evidence_id": "E1", "path": "src/m1.ts", "start_line": 10, "end_line": 10, "supports": ["C1"]}]
  },
  "reconciliation": {
    "obligations": [{"id": "O1", "text": "Explain a.", "basis": "task", "status": "excluded", "evidence_ids": [], "final_ids": ["X1"]}],
    "evidence_dispositions": [
      {"evidence_id": "E1", "status": "used", "final_ids": ["C1"]},
      {"evidence_id": "E2", "status": "excluded", "final_ids": ["X1"]},
      {"evidence_id": "E3", "status": "excluded", "final_ids": ["X1"]},
      {"evidence_id": "E4", "status": "excluded", "final_ids": ["X1"]},
      {"evidence_id": "E5", "status": "excluded", "final_ids": ["X1"]},
      {"evidence_id": "E6", "status": "excluded", "final_ids": ["X1"]}
    ]
  }
}
`

// runCapture runs the command line with stdout and stderr captured.
func runCapture(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	return runCLI(t, args...)
}

func writeResponse(t *testing.T, dir, name, body string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestValidateCommandExitCodes(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	dir := t.TempDir()
	packet := writePacket(t, dir)
	valid := writeResponse(t, dir, "valid.json", validB)
	c09 := writeResponse(t, dir, "c09.json", strings.Replace(validB, `"start_line": 10, "end_line": 10`, `"start_line": 10, "end_line": 12`, 1))
	c12 := writeResponse(t, dir, "c12.json", strings.Replace(validB, `"final_ids": ["C1"]`, `"final_ids": ["A3"]`, 1))
	c13 := writeResponse(t, dir, "c13.json", strings.Replace(validB, `"evidence_id": "E6"`, `"evidence_id": "E7"`, 1))
	dup := writeResponse(t, dir, "dup.json", strings.Replace(validB, `"implementation_plan": [],`, `"implementation_plan": [], "implementation_plan": [],`, 1))

	cases := []struct {
		name string
		args []string
		code int
		want []string // substrings of stdout
	}{
		{"valid B", []string{"validate", valid, "--packet", packet}, 0, []string{"role:     review-b (inferred)", "VALID"}},
		{"valid B explicit role", []string{"validate", valid, "--packet", packet, "--role", "review-b"}, 0, []string{"VALID"}},
		{"C09 phantom line", []string{"validate", c09, "--packet", packet}, 1, []string{"INVALID", "citation-outside-lines", "/final/citations/0/end_line", "[final]"}},
		{"C12 stale link", []string{"validate", c12, "--packet", packet}, 1, []string{"dangling-link", "/reconciliation/evidence_dispositions/0/final_ids/0", "[protocol]"}},
		{"C13 substituted", []string{"validate", c13, "--packet", packet}, 1, []string{"disposition-missing", "disposition-invented"}},
		{"duplicate key refused", []string{"validate", dup, "--packet", packet}, 1, []string{"REFUSED"}},
		{"role mismatch refused", []string{"validate", valid, "--packet", packet, "--role", "review-a"}, 1, []string{"REFUSED"}},
		{"packet refused", []string{"validate", valid, "--packet", valid}, 1, []string{"REFUSED", "packet"}},
		{"missing --packet", []string{"validate", valid}, 2, nil},
		{"bad --role", []string{"validate", valid, "--packet", packet, "--role", "review-c"}, 2, nil},
		{"bad --format", []string{"validate", valid, "--packet", packet, "--format", "xml"}, 2, nil},
		{"no argument", []string{"validate", "--packet", packet}, 2, nil},
		{"two arguments", []string{"validate", valid, valid, "--packet", packet}, 2, nil},
		{"unreadable response", []string{"validate", filepath.Join(dir, "absent.json"), "--packet", packet}, 1, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := runCapture(t, tc.args...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tc.code, out, errOut)
			}
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("stdout lacks %q:\n%s", w, out)
				}
			}
		})
	}
}

func TestValidateCommandJSON(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	dir := t.TempDir()
	packet := writePacket(t, dir)
	c09 := writeResponse(t, dir, "c09.json", strings.Replace(validB, `"end_line": 10`, `"end_line": 12`, 1))
	code, out, _ := runCapture(t, "validate", c09, "--packet", packet, "--format", "json")
	if code != 1 {
		t.Fatalf("exit %d, want 1", code)
	}
	var rep validateReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, out)
	}
	if rep.Valid || rep.FinalValid || rep.LedgerValid == nil || !*rep.LedgerValid || rep.Refusal != nil || len(rep.Findings) != 1 ||
		rep.Findings[0].Code != "citation-outside-lines" || rep.Role != campaign.RoleReviewB {
		t.Fatalf("unexpected report: %+v", rep)
	}
	_, again, _ := runCapture(t, "validate", c09, "--packet", packet, "--format", "json")
	if again != out {
		t.Fatal("JSON output is not deterministic")
	}
}

// TestValidateLedgerApartFromFinal checks CONTRACT §4 through `verdict
// validate`: a valid final with a broken B reconciliation is reported as a
// valid final and an invalid ledger with the ledger's own refusal, while a
// top level outside the contract's shape or a broken final refuses the
// whole answer.
func TestValidateLedgerApartFromFinal(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	dir := t.TempDir()
	packet := writePacket(t, dir)
	recon := validB[strings.Index(validB, `"reconciliation": {`):strings.LastIndex(validB, "}")]
	cases := []struct {
		name, body      string
		final           bool
		ledger          *bool // nil: not decided
		ledgerCode      verr.Reason
		ledgerPointer   string
		refusalCode     verr.Reason
		refusalFinalish bool
	}{
		{name: "null reconciliation", body: strings.Replace(validB, recon, `"reconciliation": null`+"\n", 1),
			final: true, ledger: ptrBool(false), ledgerCode: campaign.ReasonReconciliationRole, ledgerPointer: "/reconciliation"},
		{name: "reconciliation outside the schema", body: strings.Replace(validB, `"status": "used"`, `"status": "skipped"`, 1),
			final: true, ledger: ptrBool(false), ledgerCode: campaign.ReasonEnum, ledgerPointer: "/reconciliation/evidence_dispositions/0/status"},
		{name: "reconciliation with a duplicate key", body: strings.Replace(validB, `"status": "used",`, `"status": "used", "status": "used",`, 1),
			final: true, ledger: ptrBool(false), ledgerCode: campaign.ReasonDuplicateKey, ledgerPointer: "/reconciliation/evidence_dispositions/0/status"},
		{name: "reconciliation against a loader rule", body: strings.Replace(validB, `"final_ids": ["X1"]}],`, `"final_ids": ["X1", "X1"]}],`, 1),
			final: true, ledger: ptrBool(false), ledgerCode: campaign.ReasonRepeatedString, ledgerPointer: "/reconciliation/obligations/0/final_ids/1"},
		{name: "reconciliation text not trimmed", body: strings.Replace(validB, `"text": "Explain a."`, `"text": "Explain a. "`, 1),
			final: true, ledger: ptrBool(false), ledgerCode: campaign.ReasonTextNotTrimmed, ledgerPointer: "/reconciliation/obligations/0/text"},
		{name: "extra top-level member", body: strings.Replace(validB, `"final": {`, `"notes": "x", "final": {`, 1),
			refusalCode: campaign.ReasonUnknownKey},
		{name: "no final", body: `{"reconciliation": null}`, refusalCode: campaign.ReasonMissingKey},
		{name: "top level not an object", body: `[]`, refusalCode: campaign.ReasonWrongType},
		{name: "broken final, valid ledger", body: strings.Replace(validB, `"text": "a is 1."`, `"text": " a is 1."`, 1),
			refusalCode: campaign.ReasonTextNotTrimmed},
		{name: "broken final, broken ledger", body: strings.Replace(strings.Replace(validB, `"text": "a is 1."`, `"text": ""`, 1), recon, `"reconciliation": null`+"\n", 1),
			refusalCode: campaign.ReasonTextEmpty},
	}
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := writeResponse(t, dir, fmt.Sprintf("case%d.json", i), tc.body)
			code, out, errOut := runCapture(t, "validate", path, "--packet", packet, "--role", "review-b", "--format", "json")
			if code != 1 {
				t.Fatalf("exit %d, want 1\n%s\n%s", code, out, errOut)
			}
			var rep validateReport
			if err := json.Unmarshal([]byte(out), &rep); err != nil {
				t.Fatalf("output is not JSON: %v\n%s", err, out)
			}
			if rep.Valid || rep.FinalValid != tc.final || (rep.LedgerValid == nil) != (tc.ledger == nil) ||
				tc.ledger != nil && *rep.LedgerValid != *tc.ledger {
				t.Fatalf("final_valid %t ledger_valid %v, want %t %v\n%s", rep.FinalValid, rep.LedgerValid, tc.final, tc.ledger, out)
			}
			if tc.refusalCode != "" {
				if rep.Refusal == nil || rep.Refusal.Reason != tc.refusalCode || rep.LedgerRefusal != nil {
					t.Fatalf("want a whole-answer refusal %s and no ledger refusal\n%s", tc.refusalCode, out)
				}
				return
			}
			if rep.Refusal != nil || rep.LedgerRefusal == nil || rep.LedgerRefusal.Reason != tc.ledgerCode ||
				rep.LedgerRefusal.Pointer != tc.ledgerPointer || !strings.Contains(rep.LedgerRefusal.Rule, "CONTRACT §4") ||
				rep.LedgerRefusal.File != filepath.ToSlash(path) {
				t.Fatalf("want ledger refusal %s at %s naming the file and CONTRACT §4\n%s", tc.ledgerCode, tc.ledgerPointer, out)
			}
			_, text, _ := runCapture(t, "validate", path, "--packet", packet, "--role", "review-b")
			for _, w := range []string{"final:    valid", "ledger:   invalid", "LEDGER REFUSED", string(tc.ledgerCode)} {
				if !strings.Contains(text, w) {
					t.Errorf("text output lacks %q:\n%s", w, text)
				}
			}
		})
	}
}

func ptrBool(b bool) *bool { return &b }
