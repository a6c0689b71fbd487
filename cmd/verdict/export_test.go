package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// readCSV parses an export and returns its header and rows.
func readCSV(t *testing.T, out string) ([]string, [][]string) {
	t.Helper()
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil || len(recs) == 0 {
		t.Fatalf("not CSV (%v):\n%s", err, out)
	}
	return recs[0], recs[1:]
}

func col(t *testing.T, header []string, name string) int {
	t.Helper()
	i := slices.Index(header, name)
	if i < 0 {
		t.Fatalf("no column %s in %v", name, header)
	}
	return i
}

// TestExportGradesBlindedUntilReveal: the demo's ratings export one row
// per graded field, agreed or adjudicated, with the unblinded columns only
// after the verified reveal; without the reveal --unblinded is refused, and
// a changed sheet refuses the export.
func TestExportGradesBlindedUntilReveal(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "demo")
	if code, out := chkRunCaptured(t, "demo", "--out", dir); code != 0 && code != 1 {
		t.Fatalf("demo exit %d\n%s", code, out)
	}
	camp, ratings := filepath.Join(dir, "campaign"), filepath.Join(dir, "ratings")
	code, out := chkRunCaptured(t, "export", "grades", camp, "--ratings", ratings, "--allowed-signers", filepath.Join(ratings, "allowed_signers"))
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, out)
	}
	h, rows := readCSV(t, out)
	settled, final, arm := col(t, h, "settled"), col(t, h, "final_value"), col(t, h, "arm")
	spent, why := col(t, h, "rater_1_item_time_spent_ms"), col(t, h, "rater_1_item_time_spent_ms_unknown")
	kinds := map[string]int{}
	for _, r := range rows {
		kinds[r[settled]]++
		// Time spent is known, or empty with its reason; never both.
		if r[final] == "" || (r[arm] != "A" && r[arm] != "B") || (r[spent] == "") == (r[why] == "") {
			t.Fatalf("row %v", r)
		}
	}
	if kinds["agreed"] == 0 || kinds["adjudicated"] == 0 || kinds["open"] != 0 {
		t.Fatalf("settled counts %v", kinds)
	}
	// JSONL: the same rows; an unknown time is null (never 0).
	code, jl := chkRunCaptured(t, "export", "grades", camp, "--ratings", ratings, "--allowed-signers", filepath.Join(ratings, "allowed_signers"), "--format", "jsonl")
	lines := strings.Split(strings.TrimSpace(jl), "\n")
	var first map[string]any
	if code != 0 || len(lines) != len(rows) || json.Unmarshal([]byte(lines[0]), &first) != nil ||
		(first["rater_1_item_time_spent_ms"] == nil) == (first["rater_1_item_time_spent_ms_unknown"] == nil) {
		t.Fatalf("jsonl: exit %d, %d lines for %d rows: %s", code, len(lines), len(rows), lines[0])
	}
	// Before the reveal: blinded columns only, --unblinded refused.
	os.Rename(filepath.Join(ratings, "reveal.json"), filepath.Join(dir, "reveal.json"))
	code, out = chkRunCaptured(t, "export", "grades", camp, "--ratings", ratings, "--allowed-signers", filepath.Join(ratings, "allowed_signers"))
	h2, rows2 := readCSV(t, out)
	if code != 0 || len(rows2) != len(rows) {
		t.Fatalf("blinded: exit %d\n%s", code, out)
	}
	for _, c := range []string{"task", "repetition", "order", "arm", "session"} {
		if slices.Contains(h2, c) {
			t.Fatalf("blinded export has column %s", c)
		}
	}
	if code, out := chkRunCaptured(t, "export", "grades", camp, "--ratings", ratings, "--allowed-signers", filepath.Join(ratings, "allowed_signers"), "--unblinded"); code != 1 || !strings.Contains(out, "not-revealed") {
		t.Fatalf("--unblinded before the reveal: exit %d\n%s", code, out)
	}
	os.Rename(filepath.Join(dir, "reveal.json"), filepath.Join(ratings, "reveal.json"))
	if code, out := chkRunCaptured(t, "export", "grades", camp, "--ratings", ratings, "--allowed-signers", filepath.Join(ratings, "allowed_signers"), "--blinded"); code != 0 || strings.Contains(strings.SplitN(out, "\n", 2)[0], "arm") {
		t.Fatalf("--blinded: exit %d", code)
	}
	// A changed sheet byte refuses the export.
	sheets, _ := filepath.Glob(filepath.Join(ratings, "sheet-*.json"))
	orig, _ := os.ReadFile(sheets[0])
	os.WriteFile(sheets[0], bytes.Replace(orig, []byte(`"addressed"`), []byte(`"not_addressed"`), 1), 0o600)
	if code, out := chkRunCaptured(t, "export", "grades", camp, "--ratings", ratings, "--allowed-signers", filepath.Join(ratings, "allowed_signers")); code != 1 || !strings.Contains(out, "bad-signature") {
		t.Fatalf("changed sheet: exit %d\n%s", code, out)
	}
	os.WriteFile(sheets[0], orig, 0o600)
}

// TestExportReportTables: runs, pairs, tasks and sessions flatten the
// score report; a fraction is three columns, an unknown value an empty
// cell with its reason (never 0), and --out never replaces a file
// (output-exists, exit 1).
func TestExportReportTables(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "demo")
	if code, out := chkRunCaptured(t, "demo", "--out", dir); code != 0 && code != 1 {
		t.Fatalf("demo exit %d\n%s", code, out)
	}
	camp, ratings := filepath.Join(dir, "campaign"), filepath.Join(dir, "ratings")
	want := map[string]int{"runs": 48, "pairs": 24, "tasks": 8, "sessions": 72}
	for name, n := range want {
		code, out := chkRunCaptured(t, "export", name, camp, "--ratings", ratings, "--allowed-signers", filepath.Join(ratings, "allowed_signers"))
		h, rows := readCSV(t, out)
		if code != 0 || len(rows) != n {
			t.Fatalf("%s: exit %d, %d rows, want %d\n%s", name, code, len(rows), n, out)
		}
		switch name {
		case "runs":
			num, den, dec := col(t, h, "r_num"), col(t, h, "r_den"), col(t, h, "r_decimal")
			if rows[0][den] == "" || rows[0][num] == "" || !strings.Contains(rows[0][dec], ".") {
				t.Fatalf("runs row %v", rows[0])
			}
			pg, why := col(t, h, "protocol_gate"), col(t, h, "protocol_gate_unknown")
			for _, r := range rows {
				if r[col(t, h, "arm")] == "A" && (r[pg] != "" || r[why] == "") {
					t.Fatalf("arm A protocol gate %q / %q", r[pg], r[why])
				}
			}
		case "sessions":
			v, why := col(t, h, "actual_charge_pico_usd"), col(t, h, "actual_charge_unknown")
			for _, r := range rows {
				if (r[v] == "") == (r[why] == "") {
					t.Fatalf("actual charge %q with reason %q", r[v], r[why])
				}
			}
		}
	}
	out := filepath.Join(t.TempDir(), "pairs.jsonl")
	if code, _ := chkRunCaptured(t, "export", "pairs", camp, "--ratings", ratings, "--allowed-signers", filepath.Join(ratings, "allowed_signers"), "--format", "jsonl", "--out", out); code != 0 {
		t.Fatalf("--out: exit %d", code)
	}
	_, stdout := chkRunCaptured(t, "export", "pairs", camp, "--ratings", ratings, "--allowed-signers", filepath.Join(ratings, "allowed_signers"), "--format", "jsonl")
	if got, _ := os.ReadFile(out); string(got) != stdout {
		t.Fatal("--out differs from stdout")
	}
	if code, out := chkRunCaptured(t, "export", "pairs", camp, "--ratings", ratings, "--allowed-signers", filepath.Join(ratings, "allowed_signers"), "--out", out); code != 1 || !strings.Contains(out, "output-exists") {
		t.Fatalf("existing --out: exit %d, want 1 (output-exists)\n%s", code, out)
	}
}
