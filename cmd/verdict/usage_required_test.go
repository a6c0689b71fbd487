package main

import (
	"strings"
	"testing"
)

// TestRequiredFlagsNamedAtOnce: a signing command run without its
// required flags names every one left out in one usage error (exit 2),
// --key and --name included, so a user fixes the line once.
func TestRequiredFlagsNamedAtOnce(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"reveal", "--allowed-signers", "F"}, "reveal: required and not given: exactly two --sheet (0 given), --adjudication, --map, --out, --key, --name"},
		{[]string{"reveal", "--sheet", "a", "--sheet", "b", "--adjudication", "c", "--map", "m", "--out", "o", "--allowed-signers", "F"}, "reveal: required and not given: --key, --name"},
		{[]string{"reveal", "--sheet", "a", "--sheet", "b", "--sheet", "c", "--adjudication", "c", "--map", "m", "--out", "o", "--key", "k", "--name", "dee", "--allowed-signers", "F"}, "reveal: required and not given: exactly two --sheet (3 given)"},
		{[]string{"freeze", "--out", "o"}, "freeze: required and not given: --journal, --bundle, --key, --name"},
		{[]string{"resolve", "s1", "s2", "--name", "cho"}, "resolve: required and not given: --from, --out, --key"},
	} {
		code, _, out := runCLI(t, c.args...)
		if code != 2 || !strings.Contains(out, c.want) {
			t.Errorf("%v: exit %d, want 2 and %q\n%s", c.args, code, c.want, out)
		}
	}
}

// TestMissingArgumentShowsUseLine: a command given the wrong number of
// arguments says which it takes (its use line), not only how many.
func TestMissingArgumentShowsUseLine(t *testing.T) {
	t.Parallel()
	code, _, out := runCLI(t, "score")
	if want := "score: accepts 1 arg(s), received 0; usage: verdict score CAMPAIGN --ratings DIR --allowed-signers FILE"; code != 2 || !strings.Contains(out, want) {
		t.Errorf("score without CAMPAIGN: exit %d, want 2 and %q\n%s", code, want, out)
	}
}
