package adjudication_test

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"

	"verdict/adjudication"
	"verdict/blinding"
	"verdict/verr"
)

const keysDir = "../fixtures/keys"

func key(t testing.TB, file string) ssh.Signer {
	t.Helper()
	k, err := adjudication.LoadKey(filepath.Join(keysDir, file))
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func allowedSigners(t testing.TB) []adjudication.AllowedSigner {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(keysDir, "allowed_signers"))
	if err != nil {
		t.Fatal(err)
	}
	as, err := adjudication.ParseAllowedSigners("allowed_signers", data)
	if err != nil {
		t.Fatal(err)
	}
	return as
}

var t0 = time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)

// chain is the whole signed chain of the synthetic test campaign.
type chain struct {
	res      *blinding.Result
	sheets   [2]adjudication.RecordFile
	frozen   [2]adjudication.FrozenSheet
	adj      adjudication.RecordFile
	adjRec   *adjudication.Adjudication
	reveal   adjudication.RecordFile
	disputes []adjudication.Disagreement
}

// rateAll grades every field of b in a journal, independently of bundle
// order; with flip it picks the next value for claim C1 and obligation O2.
func rateAll(t testing.TB, dir string, b *blinding.Bundle, flip bool) (adjudication.State, string) {
	t.Helper()
	path := filepath.Join(dir, "journal-"+b.Rater+".jsonl")
	j, err := adjudication.Open(path, b, adjudication.WithClock(fixedClock()))
	if err != nil {
		t.Fatal(err)
	}
	defer mustClose(t, j)
	for i, f := range adjudication.BundleFields(b) {
		k := len(f.Item) + len(f.Target) // independent of bundle order
		if flip && ((f.Kind == adjudication.KindClaim && f.Target == "C1") || f.Target == "O2") {
			k++
		}
		if err := j.Append(adjudication.Grade{Field: f, Value: valueFor(f, k), Spent: time.Duration(i) * time.Second}); err != nil {
			t.Fatal(err)
		}
	}
	data, _ := os.ReadFile(path)
	return j.State(), blinding.Digest(data)
}

func sheetFile(t testing.TB, dir string, res *blinding.Result, i int, name, keyFile string, flip bool) (adjudication.RecordFile, adjudication.FrozenSheet) {
	t.Helper()
	b := res.Bundles[i]
	st, jd := rateAll(t, dir, b, flip)
	k := key(t, keyFile)
	sh, err := adjudication.NewSheet(b, blinding.Digest(res.BundleBytes[i]), jd, st, name, adjudication.RoleRater, k.PublicKey(), t0)
	if err != nil {
		t.Fatal(err)
	}
	data, sig, err := adjudication.SignRecord(sh, k, adjudication.NamespaceRating)
	if err != nil {
		t.Fatal(err)
	}
	return adjudication.RecordFile{Name: "sheet-" + name + ".json", Data: data, Sig: sig}, adjudication.FrozenSheet{Sheet: sh, SHA256: blinding.Digest(data)}
}

func buildChain(t testing.TB) *chain {
	t.Helper()
	dir := t.TempDir()
	c := &chain{res: testBundles(t)}
	c.sheets[0], c.frozen[0] = sheetFile(t, dir, c.res, 0, "ann", "rater-ann", false)
	c.sheets[1], c.frozen[1] = sheetFile(t, dir, c.res, 1, "bob", "rater-bob", true)
	ds, err := adjudication.Disagreements(c.frozen[0].Sheet, c.frozen[1].Sheet)
	if err != nil {
		t.Fatal(err)
	}
	if len(ds) == 0 {
		t.Fatal("no disagreements: the test needs some")
	}
	c.disputes = ds
	var choices []adjudication.Choice
	for _, d := range ds {
		choices = append(choices, adjudication.Choice{Field: d.Field, Final: d.Values[1]})
	}
	ck := key(t, "adjudicator-cho")
	adj, err := adjudication.NewAdjudication(c.frozen[1], c.frozen[0], choices, "cho", adjudication.RoleAdjudicator, ck.PublicKey(), t0)
	if err != nil {
		t.Fatal(err)
	}
	c.adjRec = adj
	data, sig, err := adjudication.SignRecord(adj, ck, adjudication.NamespaceAdjudication)
	if err != nil {
		t.Fatal(err)
	}
	c.adj = adjudication.RecordFile{Name: "adjudication.json", Data: data, Sig: sig}
	dk := key(t, "coordinator-dee")
	rev, err := adjudication.NewReveal(c.frozen[0], c.frozen[1], adj, blinding.Digest(data), c.res.MapBytes, "dee", adjudication.RoleCoordinator, dk.PublicKey(), t0)
	if err != nil {
		t.Fatal(err)
	}
	rd, rs, err := adjudication.SignRecord(rev, dk, adjudication.NamespaceReveal)
	if err != nil {
		t.Fatal(err)
	}
	c.reveal = adjudication.RecordFile{Name: "reveal.json", Data: rd, Sig: rs}
	return c
}

func (c *chain) files() []adjudication.RecordFile {
	return []adjudication.RecordFile{c.sheets[0], c.sheets[1], c.adj, c.reveal}
}

func (c *chain) bundles() adjudication.VerifyOptions {
	m := map[string]*blinding.Bundle{}
	for i, b := range c.res.Bundles {
		m[blinding.Digest(c.res.BundleBytes[i])] = b
	}
	return adjudication.VerifyOptions{Bundles: m}
}

func TestChainVerifies(t *testing.T) {
	c := buildChain(t)
	for _, ch := range adjudication.Verify(allowedSigners(t), c.files(), c.bundles()) {
		if !ch.OK {
			t.Errorf("%s: %s: %s", ch.File, ch.Reason, ch.Detail)
		}
	}
	// Same inputs, same bytes.
	c2 := buildChain(t)
	if !bytes.Equal(c.sheets[0].Data, c2.sheets[0].Data) || !bytes.Equal(c.adj.Data, c2.adj.Data) || !bytes.Equal(c.reveal.Data, c2.reveal.Data) {
		t.Fatal("records are not deterministic")
	}
	// The adjudication resolves every disagreement (consensus itself is
	// scorer.Consensus, tested in the scorer).
	if err := adjudication.CheckAdjudication(c.adjRec, c.frozen[0], c.frozen[1]); err != nil {
		t.Fatal(err)
	}
}

func TestFreezeRefusesUngraded(t *testing.T) {
	res := testBundles(t)
	b := res.Bundles[0]
	j, err := adjudication.Open(filepath.Join(t.TempDir(), "j"), b)
	if err != nil {
		t.Fatal(err)
	}
	defer mustClose(t, j)
	f := adjudication.BundleFields(b)[0]
	j.Append(adjudication.Grade{Field: f, Value: valueFor(f, 0)})
	k := key(t, "rater-ann")
	if _, err := adjudication.NewSheet(b, "d", "j", j.State(), "ann", adjudication.RoleRater, k.PublicKey(), t0); !errors.Is(err, adjudication.ReasonUngraded) {
		t.Fatalf("err = %v, want ungraded", err)
	}
}

func TestAdjudicationRefusals(t *testing.T) {
	c := buildChain(t)
	ck := key(t, "adjudicator-cho").PublicKey()
	d := c.disputes[0]
	var rest []adjudication.Choice
	for _, x := range c.disputes[1:] {
		rest = append(rest, adjudication.Choice{Field: x.Field, Final: x.Values[0]})
	}
	if _, err := adjudication.NewAdjudication(c.frozen[0], c.frozen[1], rest, "cho", adjudication.RoleAdjudicator, ck, t0); !errors.Is(err, adjudication.ReasonUnresolved) {
		t.Errorf("missing: %v", err)
	}
	other := ""
	for _, v := range adjudication.AllowedValues(d.Field.Kind) {
		if v != d.Values[0] && v != d.Values[1] {
			other = v
		}
	}
	if other != "" {
		bad := append(rest, adjudication.Choice{Field: d.Field, Final: other})
		if _, err := adjudication.NewAdjudication(c.frozen[0], c.frozen[1], bad, "cho", adjudication.RoleAdjudicator, ck, t0); !errors.Is(err, adjudication.ReasonNoteRequired) {
			t.Errorf("other value without note: %v", err)
		}
		bad[len(bad)-1].Note = "both raters misread E1"
		if _, err := adjudication.NewAdjudication(c.frozen[0], c.frozen[1], bad, "cho", adjudication.RoleAdjudicator, ck, t0); err != nil {
			t.Errorf("other value with note: %v", err)
		}
	}
	g := c.frozen[0].Sheet.Grades[0]
	for _, x := range c.disputes {
		if x.Field == g.Field {
			t.Skip("first field disputed")
		}
	}
	extra := append(rest, adjudication.Choice{Field: d.Field, Final: d.Values[0]}, adjudication.Choice{Field: g.Field, Final: g.Value})
	if _, err := adjudication.NewAdjudication(c.frozen[0], c.frozen[1], extra, "cho", adjudication.RoleAdjudicator, ck, t0); !errors.Is(err, adjudication.ReasonNotDisputed) {
		t.Errorf("undisputed: %v", err)
	}
	if _, err := adjudication.NewAdjudication(c.frozen[0], c.frozen[1], extra, "cho", adjudication.RoleRater, ck, t0); !errors.Is(err, adjudication.ReasonBadRole) {
		t.Errorf("role: %v", err)
	}
}

func reasons(cs []adjudication.Check) map[string]verr.Reason {
	m := map[string]verr.Reason{}
	for _, c := range cs {
		m[c.File] = c.Reason
	}
	return m
}

func TestVerifyRefusals(t *testing.T) {
	c := buildChain(t)
	as := allowedSigners(t)

	t.Run("changed byte", func(t *testing.T) {
		s := c.sheets[0]
		s.Data = bytes.Replace(bytes.Clone(s.Data), []byte(`"value": "`), []byte(`"value": "X`), 1)
		r := reasons(adjudication.Verify(as, []adjudication.RecordFile{s}, adjudication.VerifyOptions{}))
		if r[s.Name] != adjudication.ReasonBadSignature {
			t.Fatal(r)
		}
	})
	t.Run("key not allowed for role", func(t *testing.T) {
		// cho (an adjudicator) signs a rating sheet.
		k := key(t, "adjudicator-cho")
		sh := *c.frozen[0].Sheet
		sh.Signer = adjudication.Signer{Name: "cho", Role: adjudication.RoleRater, KeyFingerprint: adjudication.Fingerprint(k.PublicKey())}
		data, sig, _ := adjudication.SignRecord(&sh, k, adjudication.NamespaceRating)
		r := reasons(adjudication.Verify(as, []adjudication.RecordFile{{Name: "s", Data: data, Sig: sig}}, adjudication.VerifyOptions{}))
		if r["s"] != adjudication.ReasonKeyNotAllowedForRole {
			t.Fatal(r)
		}
		// ann's key under bob's name: not listed.
		ak := key(t, "rater-ann")
		sh.Signer = adjudication.Signer{Name: "bob", Role: adjudication.RoleRater, KeyFingerprint: adjudication.Fingerprint(ak.PublicKey())}
		data, sig, _ = adjudication.SignRecord(&sh, ak, adjudication.NamespaceRating)
		r = reasons(adjudication.Verify(as, []adjudication.RecordFile{{Name: "s", Data: data, Sig: sig}}, adjudication.VerifyOptions{}))
		if r["s"] != adjudication.ReasonSignerNotAllowed {
			t.Fatal(r)
		}
	})
	t.Run("both raters with one key", func(t *testing.T) {
		ak := key(t, "rater-ann")
		line := `ann,bob namespaces="verdict-rating" ` + string(bytes.TrimSpace(ssh.MarshalAuthorizedKey(ak.PublicKey())))
		shared, err := adjudication.ParseAllowedSigners("x", []byte(line))
		if err != nil {
			t.Fatal(err)
		}
		sh := *c.frozen[1].Sheet
		sh.Signer.KeyFingerprint = adjudication.Fingerprint(ak.PublicKey())
		data, sig, _ := adjudication.SignRecord(&sh, ak, adjudication.NamespaceRating)
		r := reasons(adjudication.Verify(shared, []adjudication.RecordFile{c.sheets[0], {Name: "bob", Data: data, Sig: sig}}, adjudication.VerifyOptions{}))
		if r["bob"] != adjudication.ReasonSharedKey || r[c.sheets[0].Name] != adjudication.ReasonSharedKey {
			t.Fatal(r)
		}
	})
	t.Run("wrong namespace", func(t *testing.T) {
		s := c.sheets[0]
		sig, _ := adjudication.SignBytes(s.Data, key(t, "rater-ann"), adjudication.NamespaceReveal)
		s.Sig = sig
		r := reasons(adjudication.Verify(as, []adjudication.RecordFile{s}, adjudication.VerifyOptions{}))
		if r[s.Name] != adjudication.ReasonWrongNamespace {
			t.Fatal(r)
		}
	})
	t.Run("sheet for another bundle", func(t *testing.T) {
		opt := c.bundles()
		for d, b := range opt.Bundles {
			if b.Rater == c.frozen[0].Sheet.BundleRater {
				delete(opt.Bundles, d)
			}
		}
		r := reasons(adjudication.Verify(as, c.files(), opt))
		if r[c.sheets[0].Name] != adjudication.ReasonOtherBundle {
			t.Fatal(r)
		}
		if r[c.reveal.Name] == "" || r[c.adj.Name] == "" {
			t.Fatalf("records over a refused sheet accepted: %v", r)
		}
	})
	t.Run("reveal not naming the sheets used", func(t *testing.T) {
		// A third sheet by a new rater replaces bob's.
		dir := t.TempDir()
		eve := c.sheets[1]
		sh := *c.frozen[1].Sheet
		sh.TimeUTC = adjudication.FormatTime(t0.Add(time.Hour))
		data, sig, _ := adjudication.SignRecord(&sh, key(t, "rater-bob"), adjudication.NamespaceRating)
		eve.Data, eve.Sig, eve.Name = data, sig, "sheet-bob-later.json"
		_ = dir
		r := reasons(adjudication.Verify(as, []adjudication.RecordFile{c.sheets[0], eve, c.adj, c.reveal}, c.bundles()))
		if r[eve.Name] != "" || r[c.reveal.Name] != adjudication.ReasonSheetMismatch || r[c.adj.Name] != adjudication.ReasonSheetMismatch {
			t.Fatal(r)
		}
	})
	t.Run("missing signature", func(t *testing.T) {
		s := c.sheets[0]
		s.Sig = nil
		if r := reasons(adjudication.Verify(as, []adjudication.RecordFile{s}, adjudication.VerifyOptions{})); r[s.Name] != adjudication.ReasonSignatureMissing {
			t.Fatal(r)
		}
	})
}

// TestSSHKeygenInterop checks every record with the real `ssh-keygen -Y
// verify`, and that a sheet signed by `ssh-keygen -Y sign` verifies here.
func TestSSHKeygenInterop(t *testing.T) {
	if _, err := exec.LookPath("ssh-keygen"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("ssh-keygen is required in CI: the signatures must be checked by the real program")
		}
		t.Skip("ssh-keygen not installed")
	}
	c := buildChain(t)
	dir := t.TempDir()
	allowed, _ := filepath.Abs(filepath.Join(keysDir, "allowed_signers"))
	for _, x := range []struct {
		f      adjudication.RecordFile
		signer string
		ns     string
	}{{c.sheets[0], "ann", adjudication.NamespaceRating}, {c.sheets[1], "bob", adjudication.NamespaceRating},
		{c.adj, "cho", adjudication.NamespaceAdjudication}, {c.reveal, "dee", adjudication.NamespaceReveal}} {
		p := filepath.Join(dir, x.f.Name)
		os.WriteFile(p, x.f.Data, 0o600)
		os.WriteFile(p+".sig", x.f.Sig, 0o600)
		cmd := exec.Command("ssh-keygen", "-Y", "verify", "-f", allowed, "-I", x.signer, "-n", x.ns, "-s", p+".sig")
		cmd.Stdin = bytes.NewReader(x.f.Data)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("ssh-keygen -Y verify %s: %v\n%s", x.f.Name, err, out)
		}
		// And a changed byte fails there too.
		cmd = exec.Command("ssh-keygen", "-Y", "verify", "-f", allowed, "-I", x.signer, "-n", x.ns, "-s", p+".sig")
		cmd.Stdin = bytes.NewReader(append(bytes.Clone(x.f.Data), ' '))
		if err := cmd.Run(); err == nil {
			t.Errorf("ssh-keygen accepted a changed %s", x.f.Name)
		}
	}
	// Sign ann's sheet with ssh-keygen itself.
	p := filepath.Join(dir, "by-ssh-keygen.json")
	os.WriteFile(p, c.sheets[0].Data, 0o600)
	keyCopy := filepath.Join(dir, "ann-key")
	kb, _ := os.ReadFile(filepath.Join(keysDir, "rater-ann"))
	os.WriteFile(keyCopy, kb, 0o600)
	if out, err := exec.Command("ssh-keygen", "-Y", "sign", "-f", keyCopy, "-n", adjudication.NamespaceRating, p).CombinedOutput(); err != nil {
		t.Fatalf("ssh-keygen -Y sign: %v\n%s", err, out)
	}
	sig, err := os.ReadFile(p + ".sig")
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(sig, c.sheets[0].Sig) {
		t.Log("identical signature bytes (ed25519 is deterministic)")
	}
	if !strings.HasPrefix(string(sig), "-----BEGIN SSH SIGNATURE-----") {
		t.Fatal("unexpected ssh-keygen output")
	}
	files := []adjudication.RecordFile{{Name: "by-ssh-keygen.json", Data: c.sheets[0].Data, Sig: sig}, c.sheets[1], c.adj, c.reveal}
	for _, ch := range adjudication.Verify(allowedSigners(t), files, c.bundles()) {
		if !ch.OK {
			t.Errorf("%s: %s: %s", ch.File, ch.Reason, ch.Detail)
		}
	}
}

// TestRevealNames: a reveal names its two sheets in either order and its
// adjudication, and nothing else.
func TestRevealNames(t *testing.T) {
	r := &adjudication.Reveal{Sheets: [2]adjudication.RecordRef{{Name: "ann", SHA256: "s1"}, {Name: "bob", SHA256: "s2"}}, Adjudication: adjudication.RecordRef{Name: "cho", SHA256: "a"}}
	for _, c := range []struct {
		s1, s2, adj string
		want        bool
	}{{"s1", "s2", "a", true}, {"s2", "s1", "a", true}, {"s1", "s3", "a", false}, {"s1", "s1", "a", false}, {"s1", "s2", "b", false}} {
		if got := r.Names(c.s1, c.s2, c.adj); got != c.want {
			t.Errorf("Names(%s, %s, %s) = %v, want %v", c.s1, c.s2, c.adj, got, c.want)
		}
	}
}
