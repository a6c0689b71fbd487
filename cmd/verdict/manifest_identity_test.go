package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestManifestSetsIdentities: `verdict manifest C --identity NAME=VALUE`
// sets an identity manifest init left null (no hand edit of
// manifest.json): any identity before a session ran, only a null one once
// one ran (a bound identity is frozen), and an unknown name is refused;
// every refusal leaves manifest.json as it was.
func TestManifestSetsIdentities(t *testing.T) {
	t.Parallel()
	camp := filepath.Join(t.TempDir(), "C")
	run1(t, 0, "manifest", "init", camp, "--synthetic", "--phase", "development-round-1", "--seed", "new",
		"--task", "synthetic/a:behavior-explanation", "--task", "synthetic/a:change-impact-plan",
		"--task", "synthetic/b:correctness-boundary", "--task", "synthetic/b:explicit-uncertainty")
	manifest := filepath.Join(camp, "manifest.json")
	out := run1(t, 0, "manifest", camp, "--identity", "execution.host=SYNTHETIC host", "--identity", "tariff_verified=true")
	if !strings.Contains(out, `set     execution.host null -> "SYNTHETIC host"`) || !strings.Contains(out, `set     execution.tariff_verified null -> true`) {
		t.Fatalf("manifest --identity:\n%s", out)
	}
	m := string(mustRead(t, manifest))
	if !strings.Contains(m, `"host": "SYNTHETIC host"`) || !strings.Contains(m, `"tariff_verified": true`) || !strings.Contains(m, `"tokenizer": null`) {
		t.Fatalf("manifest.json after --identity:\n%s", m)
	}
	// Before any session: a bound identity may still change.
	run1(t, 0, "manifest", camp, "--identity", "execution.host=SYNTHETIC host 2")
	unchanged := func(what string) {
		t.Helper()
		if got := string(mustRead(t, manifest)); got != m {
			t.Fatalf("%s changed manifest.json", what)
		}
	}
	m = string(mustRead(t, manifest))
	if out := run1(t, 1, "manifest", camp, "--identity", "execution.colour=blue"); !strings.Contains(out, "unknown identity") {
		t.Fatalf("unknown identity:\n%s", out)
	}
	unchanged("an unknown identity")
	if out := run1(t, 1, "manifest", camp, "--identity", "execution.oracle_frozen=yes"); !strings.Contains(out, "is not true or false") {
		t.Fatalf("bad boolean:\n%s", out)
	}
	unchanged("a bad boolean")

	// Once a session ran, a bound identity is frozen; a null one may be set.
	os.MkdirAll(filepath.Join(camp, "responses"), 0o755)
	os.WriteFile(filepath.Join(camp, "responses", "S1.json"), []byte("{}\n"), 0o644)
	if out := run1(t, 1, "manifest", camp, "--identity", "execution.host=SYNTHETIC host 3"); !strings.Contains(out, "frozen-input-changed") {
		t.Fatalf("a bound identity after a session ran:\n%s", out)
	}
	unchanged("a frozen identity")
	out = run1(t, 0, "manifest", camp, "--identity", "execution.tokenizer=SYNTHETIC-tokenizer", "--identity", "execution.host=SYNTHETIC host 2")
	if !strings.Contains(out, `set     execution.tokenizer null -> "SYNTHETIC-tokenizer"`) || strings.Contains(out, "execution.host") || !strings.Contains(out, "added   responses/S1.json") {
		t.Fatalf("a null identity after a session ran:\n%s", out)
	}
}
