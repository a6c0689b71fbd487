package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"verdict/adjudication"
	"verdict/blinding"
	"verdict/internal/synth"
	"verdict/tui"
)

// frozenPair grades, freezes and signs the two synthetic sheets (ann, bob)
// in dir and writes choices.json resolving every disputed field.
func frozenPair(t *testing.T, dir string) (p func(string) string, keys string) {
	t.Helper()
	res, err := blinding.Build(synth.Campaign(), blinding.Options{Key: synth.Key, Raters: []string{"ann", "bob"}})
	if err != nil {
		t.Fatal(err)
	}
	p = func(n string) string { return filepath.Join(dir, n) }
	keys = "../../fixtures/keys/"
	os.WriteFile(p("sealed-map.json"), res.MapBytes, 0o600)
	for i, r := range []string{"ann", "bob"} {
		os.WriteFile(p("bundle-"+r+".json"), res.BundleBytes[i], 0o600)
		gradesFile(t, p("grades-"+r+".json"), res.Bundles[i], r == "bob", false)
		mustRun(t, 0, "grade", p("bundle-"+r+".json"), "--journal", p("bundle-"+r+".journal.jsonl"), "--from", p("grades-"+r+".json"))
		mustRun(t, 0, "freeze", "--journal", p("bundle-"+r+".journal.jsonl"), "--bundle", p("bundle-"+r+".json"), "--allowed-signers", keys+"allowed_signers", "--key", keys+"rater-"+r, "--name", r,
			"--out", p("sheet-"+r+".json"), "--time", "2026-03-04T05:06:07Z")
	}
	sa, _ := os.ReadFile(p("sheet-ann.json"))
	sb, _ := os.ReadFile(p("sheet-bob.json"))
	sha, _ := adjudication.ParseSheet("a", sa)
	shb, _ := adjudication.ParseSheet("b", sb)
	ds, err := adjudication.Disagreements(sha, shb)
	if err != nil || len(ds) == 0 {
		t.Fatalf("disagreements %d, %v", len(ds), err)
	}
	var choices []adjudication.Choice
	for _, d := range ds {
		choices = append(choices, adjudication.Choice{Field: d.Field, Final: d.Values[0]})
	}
	data, _ := json.Marshal(choices)
	os.WriteFile(p("choices.json"), data, 0o600)
	return p, keys
}

func mustNotExist(t *testing.T, paths ...string) {
	t.Helper()
	for _, f := range paths {
		if _, err := os.Stat(f); err == nil {
			t.Errorf("%s was written", f)
		}
	}
}

// TestSigningCommandsRefuseUnusableSigner: resolve and reveal verify the
// record they are about to sign against the same allowed_signers and
// refuse, writing nothing, when verify would refuse it: a signer whose key
// may not sign that record kind, or a rater adjudicating her own sheets
// (CONTRACT §5 "a documented third adjudicator").
func TestSigningCommandsRefuseUnusableSigner(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	dir := t.TempDir()
	p, keys := frozenPair(t, dir)
	allowed := keys + "allowed_signers"
	resolve := func(allowed, key, name, out string) []string {
		return []string{"resolve", p("sheet-ann.json"), p("sheet-bob.json"), "--from", p("choices.json"), "--allowed-signers", allowed,
			"--key", keys + key, "--name", name, "--out", p(out), "--time", "2026-03-04T09:00:00Z"}
	}
	// ann's key may only rate.
	if code, out, _ := runCapture(t, resolve(allowed, "rater-ann", "ann", "adj-ann.json")...); code != 1 || !strings.Contains(out, string(adjudication.ReasonKeyNotAllowedForRole)) {
		t.Fatalf("resolve by a rater key: exit %d\n%s", code, out)
	}
	mustNotExist(t, p("adj-ann.json"), p("adj-ann.json.sig"))
	// Even when allowed_signers lets ann adjudicate, she rated these sheets.
	base, _ := os.ReadFile(allowed)
	pub, _ := os.ReadFile(keys + "rater-ann.pub")
	f := strings.Fields(string(pub))
	both := p("allowed-both")
	os.WriteFile(both, append(base, []byte(`ann namespaces="verdict-adjudication" `+f[0]+" "+f[1]+"\n")...), 0o600)
	if code, out, _ := runCapture(t, resolve(both, "rater-ann", "ann", "adj-ann.json")...); code != 1 || !strings.Contains(out, string(adjudication.ReasonAdjudicatorIsRater)) {
		t.Fatalf("resolve by a rater allowed to adjudicate: exit %d\n%s", code, out)
	}
	mustNotExist(t, p("adj-ann.json"), p("adj-ann.json.sig"))
	mustRun(t, 0, resolve(allowed, "adjudicator-cho", "cho", "adjudication.json")...)

	reveal := func(key, name, out string) []string {
		return []string{"reveal", "--sheet", p("sheet-ann.json"), "--sheet", p("sheet-bob.json"), "--adjudication", p("adjudication.json"), "--map", p("sealed-map.json"),
			"--allowed-signers", allowed, "--key", keys + key, "--name", name, "--out", p(out), "--time", "2026-03-05T00:00:00Z"}
	}
	if code, out, _ := runCapture(t, reveal("rater-ann", "ann", "reveal-ann.json")...); code != 1 || !strings.Contains(out, string(adjudication.ReasonKeyNotAllowedForRole)) {
		t.Fatalf("reveal by a rater key: exit %d\n%s", code, out)
	}
	mustNotExist(t, p("reveal-ann.json"), p("reveal-ann.json.sig"))
	mustRun(t, 0, reveal("coordinator-dee", "dee", "reveal.json")...)
	mustRun(t, 0, "verify", "--allowed-signers", allowed, p("sheet-ann.json"), p("sheet-bob.json"), p("adjudication.json"), p("reveal.json"))
}

// TestRecordOutputsSaySynthetic: every output made from synthetic records
// says SYNTHETIC in its first lines (DESIGN "Defaults and embedded input"),
// in text and in JSON.
func TestRecordOutputsSaySynthetic(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	dir := t.TempDir()
	p, keys := frozenPair(t, dir)
	allowed := keys + "allowed_signers"
	for _, args := range [][]string{
		{"verify", "--allowed-signers", allowed, p("sheet-ann.json"), p("sheet-bob.json")},
		{"verify", "--allowed-signers", allowed, p("sheet-ann.json"), p("sheet-bob.json"), "--format", "json"},
		{"disagreements", p("sheet-ann.json"), p("sheet-bob.json"), "--allowed-signers", allowed},
		{"disagreements", p("sheet-ann.json"), p("sheet-bob.json"), "--allowed-signers", allowed, "--format", "json"},
	} {
		code, out, errOut := runCapture(t, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d\n%s%s", args, code, out, errOut)
		}
		lines := strings.SplitN(out, "\n", 4)
		if !strings.Contains(strings.Join(lines[:min(3, len(lines))], "\n"), "SYNTHETIC") {
			t.Errorf("%v: no SYNTHETIC in the first lines:\n%.300s", args, out)
		}
		if args[len(args)-1] == "json" && !json.Valid([]byte(out)) {
			t.Errorf("%v: not JSON:\n%.300s", args, out)
		}
	}
}

// TestAgreementRefusesOneRaterTwice: agreement between two sheets of one
// rater (or one key) is not inter-rater agreement; it is refused even when
// both sheets verify (DESIGN "Signed records": both raters using one key).
func TestAgreementRefusesOneRaterTwice(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	dir := t.TempDir()
	p, keys := frozenPair(t, dir)
	allowed := keys + "allowed_signers"
	mustRun(t, 0, "freeze", "--journal", p("bundle-ann.journal.jsonl"), "--bundle", p("bundle-ann.json"), "--allowed-signers", keys+"allowed_signers", "--key", keys+"rater-ann", "--name", "ann",
		"--out", p("sheet-ann-again.json"), "--time", "2026-03-04T06:00:00Z")
	if code, out, _ := runCapture(t, "agreement", p("sheet-ann.json"), p("sheet-ann-again.json"), "--allowed-signers", allowed); code != 1 || !strings.Contains(out, string(adjudication.ReasonSharedKey)) {
		t.Fatalf("agreement of ann with ann: exit %d\n%s", code, out)
	}
	mustRun(t, 0, "agreement", p("sheet-ann.json"), p("sheet-bob.json"), "--allowed-signers", allowed)
}

// TestAgreementVerifiesSheets: agreement reports statistics only of sheets
// that verify against allowed_signers (DESIGN "Signed records"). A sheet
// edited after signing, kept with its old signature, is refused with the
// verification's reason code and no statistic is printed; without
// --allowed-signers (or the config key) it refuses allowed-signers-missing
// (exit 1) naming the flag, even when an allowed_signers file lies beside
// the sheets: that file is never the trust root.
func TestAgreementVerifiesSheets(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	dir := t.TempDir()
	p, keys := frozenPair(t, dir)
	allowed := keys + "allowed_signers"
	mustRun(t, 0, "agreement", p("sheet-ann.json"), p("sheet-bob.json"), "--allowed-signers", allowed)

	// None named: allowed-signers-missing, with or without a file beside.
	ab, err := os.ReadFile(allowed)
	if err != nil {
		t.Fatal(err)
	}
	for _, beside := range []bool{false, true} {
		if beside {
			os.WriteFile(p("allowed_signers"), ab, 0o600)
		}
		code, out, errOut := runCapture(t, "agreement", p("sheet-ann.json"), p("sheet-bob.json"))
		if code != 1 || !strings.Contains(out, string(adjudication.ReasonAllowedSignersMissing)) || !strings.Contains(out, "--allowed-signers") || strings.Contains(out, "kappa") {
			t.Fatalf("agreement without allowed_signers (a file beside: %v): exit %d\n%s%s", beside, code, out, errOut)
		}
	}

	// bob's sheet with one grade changed, beside its old signature.
	data, err := os.ReadFile(p("sheet-bob.json"))
	if err != nil {
		t.Fatal(err)
	}
	tampered := strings.Replace(string(data), `"not_addressed"`, `"addressed"`, 1)
	if tampered == string(data) {
		tampered = strings.Replace(string(data), `"addressed"`, `"not_addressed"`, 1)
	}
	if tampered == string(data) {
		t.Fatal("no grade to change in the sheet")
	}
	os.MkdirAll(p("x"), 0o755)
	os.WriteFile(p("x/sheet-bob.json"), []byte(tampered), 0o600)
	sig, _ := os.ReadFile(p("sheet-bob.json.sig"))
	os.WriteFile(p("x/sheet-bob.json.sig"), sig, 0o600)
	for _, args := range [][]string{
		{"agreement", p("sheet-ann.json"), p("x/sheet-bob.json"), "--allowed-signers", allowed},
		{"agreement", p("sheet-ann.json"), p("x/sheet-bob.json"), "--allowed-signers", allowed, "--format", "json"},
	} {
		code, out, errOut := runCapture(t, args...)
		if code != 1 || !strings.Contains(out+errOut, string(adjudication.ReasonBadSignature)) || strings.Contains(out, "kappa") || strings.Contains(out, `"agreement"`) {
			t.Fatalf("%v: exit %d\n%s%s", args, code, out, errOut)
		}
	}
}

// TestAllowedSignersFromConfig: verify, disagreements, resolve and reveal
// take --allowed-signers from the config key allowed_signers, as a
// verdict.yaml key or VERDICT_ALLOWED_SIGNERS, when the flag is not given;
// without either they refuse allowed-signers-missing (exit 1), even with an
// allowed_signers file beside the sheets (never the trust root), and every
// command that checks a signature says so in its flag's help.
func TestAllowedSignersFromConfig(t *testing.T) {
	dir := t.TempDir()
	p, keys := frozenPair(t, dir)
	allowed, err := filepath.Abs(keys + "allowed_signers")
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("XDG_CONFIG_HOME", t.TempDir()) // no user config
	sheets := []string{p("sheet-ann.json"), p("sheet-bob.json")}
	for _, cmd := range []string{"verify", "disagreements", "agreement"} {
		if code, out, _ := runCLI(t, append([]string{cmd}, sheets...)...); code != 1 || !strings.Contains(out, "allowed-signers-missing") {
			t.Fatalf("%s without allowed_signers: exit %d, want 1 with allowed-signers-missing\n%s", cmd, code, out)
		}
	}
	// A file beside the sheets is never the trust root: still refused.
	beside := p("allowed_signers")
	os.WriteFile(beside, mustRead(t, allowed), 0o644)
	for _, cmd := range []string{"verify", "disagreements", "agreement"} {
		if code, out, _ := runCLI(t, append([]string{cmd}, sheets...)...); code != 1 || !strings.Contains(out, "allowed-signers-missing") {
			t.Fatalf("%s with allowed_signers only beside the sheets: exit %d, want 1 with allowed-signers-missing\n%s", cmd, code, out)
		}
	}
	os.Remove(beside)

	cfg := p("verdict.yaml")
	os.WriteFile(cfg, []byte("allowed_signers: "+allowed+"\n"), 0o600)
	mustRun(t, 0, append([]string{"--config", cfg, "verify"}, sheets...)...)
	mustRun(t, 0, append([]string{"--config", cfg, "disagreements"}, sheets...)...)

	t.Setenv("VERDICT_ALLOWED_SIGNERS", allowed)
	mustRun(t, 0, append([]string{"verify"}, sheets...)...)
	mustRun(t, 0, append([]string{"disagreements", "--format", "json"}, sheets...)...)
	mustRun(t, 0, "resolve", sheets[0], sheets[1], "--from", p("choices.json"), "--key", keys+"adjudicator-cho", "--name", "cho",
		"--out", p("adjudication.json"), "--time", "2026-03-04T09:00:00Z")
	mustRun(t, 0, "reveal", "--sheet", sheets[0], "--sheet", sheets[1], "--adjudication", p("adjudication.json"), "--map", p("sealed-map.json"),
		"--key", keys+"coordinator-dee", "--name", "dee", "--out", p("reveal.json"), "--time", "2026-03-05T00:00:00Z")
	mustRun(t, 0, "verify", sheets[0], sheets[1], p("adjudication.json"), p("reveal.json"))
	// The flag still wins over the config: a missing file is refused.
	mustRun(t, 1, "verify", "--allowed-signers", p("missing"), sheets[0])

	for _, cmd := range []string{"verify", "disagreements", "agreement", "resolve", "reveal", "adjudicate", "freeze", "rate", "score", "status", "serve", "export all", "export grades"} {
		root := newRootCmd(newApp(strings.NewReader(""), io.Discard, io.Discard))
		sub, _, err := root.Find(strings.Fields(cmd))
		if err != nil {
			t.Fatal(err)
		}
		if f := sub.Flags().Lookup("allowed-signers"); f == nil || !strings.Contains(f.Usage, "config: allowed_signers") {
			t.Errorf("%s --allowed-signers help does not name the config key", cmd)
		}
	}
}

// TestDisagreementsBlindToRaters: disagreements labels the two values
// "first rating" and "second rating" in the order the sheets are given and
// names no rater, in text and JSON; --show-raters (coordinator) adds the
// names in that same order.
func TestDisagreementsBlindToRaters(t *testing.T) {
	t.Parallel()
	p, keys := frozenPair(t, t.TempDir())
	allowed := keys + "allowed_signers"
	base := []string{"disagreements", p("sheet-bob.json"), p("sheet-ann.json"), "--allowed-signers", allowed}
	for _, format := range []string{"text", "json"} {
		code, stdout, _ := runCapture(t, append(base, "--format", format)...)
		if code != 0 {
			t.Fatalf("%s: exit %d", format, code)
		}
		if strings.Contains(stdout, "ann") || strings.Contains(stdout, "bob") {
			t.Errorf("%s output names a rater:\n%s", format, stdout)
		}
		if !strings.Contains(stdout, "first rating") || !strings.Contains(stdout, "second rating") {
			t.Errorf("%s output lacks the rating labels:\n%s", format, stdout)
		}
	}
	_, text, _ := runCapture(t, append(base, "--show-raters")...)
	if !strings.Contains(text, "first rating (bob)") || !strings.Contains(text, "second rating (ann)") {
		t.Errorf("--show-raters text does not name the raters in sheet order:\n%s", text)
	}
	_, js, _ := runCapture(t, append(base, "--show-raters", "--format", "json")...)
	var rep disagreementsReport
	if err := json.Unmarshal([]byte(js), &rep); err != nil || rep.Raters == nil || *rep.Raters != [2]string{"bob", "ann"} {
		t.Errorf("--show-raters json raters %v, %v", rep.Raters, err)
	}
	// The values follow the sheet order given: swapping the sheets swaps them.
	var fwd, rev disagreementsReport
	_, a, _ := runCapture(t, append(base, "--format", "json")...)
	_, b, _ := runCapture(t, "disagreements", p("sheet-ann.json"), p("sheet-bob.json"), "--allowed-signers", allowed, "--format", "json")
	json.Unmarshal([]byte(a), &fwd)
	json.Unmarshal([]byte(b), &rev)
	if len(fwd.Disagreements) == 0 || len(fwd.Disagreements) != len(rev.Disagreements) {
		t.Fatalf("disagreements %d and %d", len(fwd.Disagreements), len(rev.Disagreements))
	}
	for i, d := range fwd.Disagreements {
		if r := rev.Disagreements[i]; d.Values[0] != r.Values[1] || d.Values[1] != r.Values[0] {
			t.Errorf("%s: values %v with bob first, %v with ann first", d.Field, d.Values, r.Values)
		}
	}
}

// TestSignCheckWriteRefusesBeforeWriting: the sign step of the adjudicate
// screen (adjudication.SignCheckWrite, shared with resolve and reveal) refuses an
// adjudication signed by a rater's key, names the reason, and writes
// neither the record nor its signature; an adjudicator's key writes both.
func TestSignCheckWriteRefusesBeforeWriting(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	dir := t.TempDir()
	p, keys := frozenPair(t, dir)
	a := &app{stdout: &strings.Builder{}}
	fs, as, sheetFiles, err := loadFrozenSheetFiles(a, keys+"allowed_signers", []string{p("sheet-ann.json"), p("sheet-bob.json")}, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(p("choices.json"))
	var choices []adjudication.Choice
	if err := json.Unmarshal(data, &choices); err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 3, 4, 9, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		key, name, out, reason string
	}{{"rater-ann", "ann", "adj-ann.json", string(adjudication.ReasonKeyNotAllowedForRole)}, {"adjudicator-cho", "cho", "adj-cho.json", ""}} {
		key, err := adjudication.LoadKey(keys + c.key)
		if err != nil {
			t.Fatal(err)
		}
		adj, err := adjudication.NewAdjudication(fs[0], fs[1], choices, c.name, adjudication.RoleAdjudicator, key.PublicKey(), at)
		if err != nil {
			t.Fatal(err)
		}
		_, err = adjudication.SignCheckWrite(adj, key, adjudication.NamespaceAdjudication, as, sheetFiles, p(c.out))
		if c.reason == "" {
			if err != nil {
				t.Fatalf("%s: %v", c.key, err)
			}
			if _, err := os.Stat(p(c.out + ".sig")); err != nil {
				t.Fatalf("%s: signature not written: %v", c.key, err)
			}
			continue
		}
		var r *adjudication.RecordRefusal
		if !errors.As(err, &r) || r.Reason != c.reason {
			t.Fatalf("%s: err = %v, want a refusal %s", c.key, err, c.reason)
		}
		mustNotExist(t, p(c.out), p(c.out+".sig"))
	}
}

// TestAdjudicateShowsSheetsInGivenOrder: the adjudicate screen's "first
// rating" is the first SHEET argument, as in verdict disagreements, also
// when that is not the adjudication's canonical order (sheets given as bob,
// ann).
func TestAdjudicateShowsSheetsInGivenOrder(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	dir := t.TempDir()
	p, keys := frozenPair(t, dir)
	allowed := keys + "allowed_signers"
	given := []string{p("sheet-bob.json"), p("sheet-ann.json")}
	code, out, _ := runCapture(t, append(append([]string{"disagreements"}, given...), "--allowed-signers", allowed, "--format", "json")...)
	if code != 0 {
		t.Fatalf("disagreements: exit %d\n%s", code, out)
	}
	var listed disagreementsReport
	if err := json.Unmarshal([]byte(out), &listed); err != nil {
		t.Fatal(err)
	}
	a := &app{stdout: &strings.Builder{}}
	fs, _, _, err := loadFrozenSheetFiles(a, allowed, given, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	ord := adjudication.OrderSheets(fs[0], fs[1])
	if fs[0].SHA256 == ord[0].SHA256 {
		t.Fatal("the test needs sheets given in the reverse of the canonical order")
	}
	log, err := adjudication.OpenDecisions(p("decisions.jsonl"), fs[0], fs[1])
	if err != nil {
		t.Fatal(err)
	}
	defer mustClose(t, log)
	var in tui.AdjudicateInput
	in.UseDecisionLog(log)
	shown := inGivenOrder(in.Disputes, fs[0].SHA256 != ord[0].SHA256)
	if len(shown) != len(listed.Disagreements) || len(shown) == 0 {
		t.Fatalf("%d disputes shown, %d listed", len(shown), len(listed.Disagreements))
	}
	for i, d := range shown {
		l := listed.Disagreements[i]
		if d.Field != l.Field || d.Values != l.Values || d.Notes != l.Notes {
			t.Errorf("dispute %d: screen %v %q %q, disagreements %v %q %q", i, d.Field, d.Values, d.Notes, l.Field, l.Values, l.Notes)
		}
	}
	if shown[0].Values == in.Disputes[0].Values {
		t.Error("values not swapped from the canonical order")
	}
}

// TestKeyNotAllowedForRoleSaysWhatToAdd: an allowed_signers file written as
// for git (no namespaces=) lets no key sign a verdict record; the refusal
// (key-not-allowed-for-role) names the line and shows the line to write,
// with the role's namespace and the signer's key.
func TestKeyNotAllowedForRoleSaysWhatToAdd(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	dir := t.TempDir()
	p, keys := frozenPair(t, dir)
	ab, err := os.ReadFile(keys + "allowed_signers")
	if err != nil {
		t.Fatal(err)
	}
	plain := regexp.MustCompile(` namespaces="[^"]*"`).ReplaceAllString(string(ab), "")
	os.WriteFile(p("plain_signers"), []byte(plain), 0o600)
	var annLine string
	for _, l := range strings.Split(string(ab), "\n") {
		if strings.HasPrefix(l, "ann ") {
			annLine = strings.TrimSpace(l)
		}
	}
	code, out, errOut := runCapture(t, "disagreements", p("sheet-ann.json"), p("sheet-bob.json"), "--allowed-signers", p("plain_signers"))
	if code != 1 || !strings.Contains(out, string(adjudication.ReasonKeyNotAllowedForRole)) || annLine == "" || !strings.Contains(out, annLine) {
		t.Fatalf("disagreements with a git-style allowed_signers: exit %d, want 1 and the line %q\n%s%s", code, annLine, out, errOut)
	}
}

// TestDisagreementsShowNotesResolvePrintsSignature: disagreements' text
// shows each rater's note on a disputed field (as its JSON does), and
// resolve prints its signature line (file, key, namespace) as freeze does.
func TestDisagreementsShowNotesResolvePrintsSignature(t *testing.T) {
	t.Parallel()
	p, keys := frozenPair(t, t.TempDir())
	allowed := keys + "allowed_signers"
	// bob's grades again, with a note on every claim he grades otherwise.
	var in []map[string]any
	data, _ := os.ReadFile(p("grades-bob.json"))
	if err := json.Unmarshal(data, &in); err != nil {
		t.Fatal(err)
	}
	const note = "SYNTHETIC bob disagrees"
	for _, g := range in {
		if g["target"] == "C1" {
			g["note"] = note
		}
	}
	data, _ = json.Marshal(in)
	os.WriteFile(p("grades-bob2.json"), data, 0o600)
	mustRun(t, 0, "grade", p("bundle-bob.json"), "--journal", p("journal-bob2.jsonl"), "--from", p("grades-bob2.json"))
	mustRun(t, 0, "freeze", "--journal", p("journal-bob2.jsonl"), "--bundle", p("bundle-bob.json"), "--allowed-signers", keys+"allowed_signers", "--key", keys+"rater-bob", "--name", "bob",
		"--out", p("sheet-bob2.json"), "--time", "2026-03-04T05:06:07Z")
	code, out, errOut := runCapture(t, "disagreements", p("sheet-ann.json"), p("sheet-bob2.json"), "--allowed-signers", allowed)
	if code != 0 || !strings.Contains(out, fmt.Sprintf("note of the second rating: %q", note)) {
		t.Fatalf("disagreements text has no note %q: exit %d\n%s%s", note, code, out, errOut)
	}

	code, out, errOut = runCapture(t, "resolve", p("sheet-ann.json"), p("sheet-bob.json"), "--from", p("choices.json"), "--allowed-signers", keys+"allowed_signers",
		"--key", keys+"adjudicator-cho", "--name", "cho", "--out", p("adjudication.json"), "--time", "2026-03-05T05:06:07Z")
	if code != 0 || !strings.Contains(out, "signed "+p("adjudication.json")+".sig with SHA256:") || !strings.Contains(out, "in namespace "+adjudication.NamespaceAdjudication) {
		t.Fatalf("resolve: exit %d\n%s%s", code, out, errOut)
	}
}

// TestConfigRelativeAllowedSigners: a relative allowed_signers (or key)
// written in the configuration file is read from the file's directory,
// never from the directory the command runs in: a coordinator who runs
// verify inside a ratings directory is not given the allowed_signers a
// rater put there. From VERDICT_ALLOWED_SIGNERS it is relative to the
// working directory, as the flag is.
func TestConfigRelativeAllowedSigners(t *testing.T) {
	dir := t.TempDir()
	p, keys := frozenPair(t, dir)
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	coord := filepath.Join(dir, "coordinator")
	if err := os.MkdirAll(coord, 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(coord, "trusted_signers"), mustRead(t, keys+"allowed_signers"), 0o644)
	cfg := filepath.Join(coord, "verdict.yaml")
	os.WriteFile(cfg, []byte("allowed_signers: trusted_signers\n"), 0o600)
	sheet, err := filepath.Abs(p("sheet-ann.json"))
	if err != nil {
		t.Fatal(err)
	}
	// The working directory holds a file of the same name listing no one
	// the sheet's key belongs to.
	work := t.TempDir()
	os.WriteFile(filepath.Join(work, "trusted_signers"), []byte("mallory@example.invalid ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIBzmn1DXBCGV7jfBmp1YDDbIKsUXBMqC0uUlJ7gwkx9J\n"), 0o644)
	t.Chdir(work)
	if code, out, errs := runCLI(t, "--config", cfg, "verify", sheet); code != 0 {
		t.Fatalf("verify with the config's relative allowed_signers: exit %d (the working directory's file was read?)\n%s%s", code, out, errs)
	}
	t.Setenv("VERDICT_ALLOWED_SIGNERS", "trusted_signers")
	if code, out, _ := runCLI(t, "--config", cfg, "verify", sheet); code != 1 || !strings.Contains(out, "signer-not-allowed") {
		t.Fatalf("VERDICT_ALLOWED_SIGNERS relative to the working directory: exit %d, want 1 with signer-not-allowed\n%s", code, out)
	}
}
