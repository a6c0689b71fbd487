package campaign_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"testing/fstest"

	. "verdict/campaign"
	"verdict/internal/campaigntest"
	"verdict/verr"
)

func TestLoadValid(t *testing.T) {
	fsys := campaigntest.Campaign(t, campaigntest.Options{}, 2, 2)
	c, err := Load(fsys)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Tasks) != 2 || len(c.Sessions) != 12 || len(c.Prompts) != 6 {
		t.Fatalf("tasks %d sessions %d prompts %d", len(c.Tasks), len(c.Sessions), len(c.Prompts))
	}
	for _, s := range c.Sessions {
		if s.Response == nil || s.Failure != nil || s.Receipt == nil || s.RawSHA256 == "" || s.Raw != nil {
			t.Fatalf("session %s: %+v", s.ID, s)
		}
		if (s.Role == RoleReviewB) != (s.Response.Reconciliation != nil) {
			t.Fatalf("session %s role %s", s.ID, s.Role)
		}
	}
	if len(c.Tasks[0].Packet.Items) != 6 || len(c.Tasks[0].Truth.Obligations) != 4 {
		t.Fatal("packet or truth not loaded")
	}
}

// mutation edits a generated campaign; rebind it afterwards unless the
// mutation is about the binding itself.
type mutation struct {
	name   string
	edit   func(t *testing.T, f fstest.MapFS)
	rebind bool
	reason verr.Reason
	file   string
}

func edit(path, old, new string) func(*testing.T, fstest.MapFS) {
	return func(t *testing.T, f fstest.MapFS) {
		t.Helper()
		d := f[path].Data
		if !bytes.Contains(d, []byte(old)) {
			t.Fatalf("%s lacks %q", path, old)
		}
		f[path] = &fstest.MapFile{Data: bytes.Replace(d, []byte(old), []byte(new), 1)}
	}
}

func TestLoadRefusals(t *testing.T) {
	src1 := SourcePath(campaigntest.Repository, "src/t1/f1.ts")
	cases := []mutation{
		{"manifest missing", func(t *testing.T, f fstest.MapFS) { delete(f, ManifestFile) }, false, ReasonFileMissing, ManifestFile},
		{"manifest duplicate key", edit(ManifestFile, `"synthetic": true,`, `"synthetic": true, "synthetic": true,`), false, ReasonDuplicateKey, ManifestFile},
		{"manifest unknown key", edit(ManifestFile, `"synthetic": true,`, `"synthetic": true, "extra": 1,`), false, ReasonUnknownKey, ManifestFile},
		{"contract version", edit(ManifestFile, `"741-v1.0"`, `"741-v0.9"`), false, ReasonContractVersion, ManifestFile},
		{"schema digest", edit(ManifestFile, ResponseSchemaSHA256(), strings.Repeat("0", 64)), false, ReasonSchemaDigest, ManifestFile},
		{"task id grammar", edit(ManifestFile, `"id": "T1"`, `"id": "T01"`), false, ReasonIDGrammar, ManifestFile},
		{"session id grammar", edit(ManifestFile, `"draft": "S1"`, `"draft": "X1"`), false, ReasonIDGrammar, ManifestFile},
		{"duplicate session", edit(ManifestFile, `"review_a": "S2"`, `"review_a": "S1"`), false, ReasonDuplicateID, ManifestFile},
		{"duplicate task", edit(ManifestFile, `"id": "T2"`, `"id": "T1"`), false, ReasonDuplicateID, ManifestFile},
		{"unknown run task", edit(ManifestFile, `"task": "T2"`, `"task": "T9"`), false, ReasonUnknownTask, ManifestFile},
		{"repetition zero", edit(ManifestFile, `"repetition": 1`, `"repetition": 0`), false, ReasonRepetition, ManifestFile},
		{"duplicate run", edit(ManifestFile, `"repetition": 2`, `"repetition": 1`), false, ReasonDuplicateRun, ManifestFile},
		{"file digest", edit(TaskTextPath("T1"), "SYNTHETIC", "synthetic"), false, ReasonFileDigest, TaskTextPath("T1")},
		{"bound file missing", func(t *testing.T, f fstest.MapFS) { delete(f, TaskTextPath("T2")) }, false, ReasonFileMissing, TaskTextPath("T2")},
		{"unlisted file", func(t *testing.T, f fstest.MapFS) {
			f["sources/synthetic/alpha/extra.ts"] = &fstest.MapFile{Data: []byte("x\n")}
		}, false, ReasonFileUnlisted, "sources/synthetic/alpha/extra.ts"},
		{"needed file unbound", func(t *testing.T, f fstest.MapFS) {
			delete(f, PacketPath("T1"))
			campaigntest.Rebind(t, f)
			f[PacketPath("T1")] = &fstest.MapFile{Data: []byte("{}")}
		}, false, ReasonFileUnlisted, PacketPath("T1")},
		{"orphan response", func(t *testing.T, f fstest.MapFS) { f[ResponsePath("S99")] = f[ResponsePath("S1")] }, true, ReasonOrphanFile, ResponsePath("S99")},
		{"packet malformed", edit(PacketPath("T1"), `"complete_by_construction": false`, `"complete_by_construction": 0`), true, ReasonWrongType, PacketPath("T1")},
		{"packet task mismatch", edit(PacketPath("T1"), `"task": "T1"`, `"task": "T2"`), true, ReasonTaskMismatch, PacketPath("T1")},
		{"packet commit", edit(PacketPath("T1"), strings.Repeat("0a", 20), strings.Repeat("0a", 19)), true, ReasonDigestFormat, PacketPath("T1")},
		{"packet duplicate E", edit(PacketPath("T1"), `"id": "E2"`, `"id": "E1"`), true, ReasonDuplicateID, PacketPath("T1")},
		{"packet too few items", func(t *testing.T, f fstest.MapFS) {
			d := f[PacketPath("T1")].Data
			i := bytes.Index(d, []byte(`,`+"\n"+`{"id": "E6"`))
			f[PacketPath("T1")] = &fstest.MapFile{Data: append(append([]byte{}, d[:i]...), "\n]}\n"...)}
		}, true, ReasonArrayTooShort, PacketPath("T1")},
		{"packet line order", edit(PacketPath("T1"), `"start_line": 1, "end_line": 3`, `"start_line": 4, "end_line": 3`), true, ReasonLineOrder, PacketPath("T1")},
		{"packet path", edit(PacketPath("T1"), `"path": "src/t1/f1.ts"`, `"path": "../t1/f1.ts"`), true, ReasonPath, PacketPath("T1")},
		{"repository mismatch", edit(PacketPath("T1"), `"repository": "synthetic/alpha"`, `"repository": "synthetic/beta"`), true, ReasonRepositoryMismatch, PacketPath("T1")},
		{"excerpt extra line", edit(PacketPath("T1"), `= 3; // SYNTHETIC"`, `= 3; // SYNTHETIC\nexport const t1F1L4 = 4; // SYNTHETIC"`), true, ReasonExcerptLines, PacketPath("T1")},
		{"excerpt final newline makes no line", edit(PacketPath("T1"), `"start_line": 1, "end_line": 3`, `"start_line": 1, "end_line": 4`), true, ReasonExcerptLines, PacketPath("T1")},
		{"excerpt byte changed", edit(PacketPath("T1"), `t1F1L2 = 2`, `t1F1L2 = 7`), true, ReasonExcerptMismatch, PacketPath("T1")},
		{"line beyond file", edit(PacketPath("T1"), `"start_line": 1, "end_line": 3`, `"start_line": 19, "end_line": 21`), true, ReasonLineBeyondFile, PacketPath("T1")},
		{"source byte changed", edit(src1, "t1F1L20 = 20", "t1F1L20 = 21"), true, ReasonSourceDigest, PacketPath("T1")},
		{"source missing", func(t *testing.T, f fstest.MapFS) { delete(f, src1) }, true, ReasonFileMissing, src1},
		{"truth malformed", edit(TruthPath("T1"), `"critical": true`, `"critical": "yes"`), true, ReasonWrongType, TruthPath("T1")},
		{"truth task mismatch", edit(TruthPath("T2"), `"task": "T2"`, `"task": "T1"`), true, ReasonTaskMismatch, TruthPath("T2")},
		{"truth unknown evidence", edit(TruthPath("T1"), `"evidence_ids": ["E1"]`, `"evidence_ids": ["E9"]`), true, ReasonUnknownEvidence, TruthPath("T1")},
		{"truth too few answerable", func(t *testing.T, f fstest.MapFS) {
			edit(TruthPath("T1"), `"answerable": true`, `"answerable": false`)(t, f)
			edit(TruthPath("T1"), `"answerable": true`, `"answerable": false`)(t, f)
		}, true, ReasonTooFewAnswerable, TruthPath("T1")},
		{"truth text not trimmed", edit(TruthPath("T1"), `"SYNTHETIC obligation 2."`, `"SYNTHETIC obligation 2. "`), true, ReasonTextNotTrimmed, TruthPath("T1")},
		{"receipt malformed", edit(ReceiptPath("S2"), `"mcp_calls": 0`, `"mcp_calls": 0, "mcp_calls": 0`), true, ReasonDuplicateKey, ReceiptPath("S2")},
		{"receipt time", edit(ReceiptPath("S2"), `"ended_utc": "2026-09-05T10:01:00Z"`, `"ended_utc": "2026-09-05 10:01"`), true, ReasonTimeFormat, ReceiptPath("S2")},
		{"response missing for response receipt", func(t *testing.T, f fstest.MapFS) { delete(f, ResponsePath("S3")) }, true, ReasonResponseMissing, ResponsePath("S3")},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := campaigntest.Campaign(t, campaigntest.Options{}, 2, 2)
			c.edit(t, f)
			if c.rebind {
				campaigntest.Rebind(t, f)
			}
			got, err := Load(f)
			if err == nil {
				t.Fatalf("loaded %d sessions", len(got.Sessions))
			}
			if !errors.Is(err, c.reason) {
				t.Fatalf("got %v\nwant reason %s", err, c.reason)
			}
			found := false
			for _, e := range unjoin(err) {
				var ce *verr.Error
				if !errors.As(e, &ce) {
					t.Fatalf("not a *Error: %v", e)
				}
				if ce.Reason == c.reason && ce.File == c.file && ce.Rule != "" {
					found = true
				}
			}
			if !found {
				t.Fatalf("no %s in %s: %v", c.reason, c.file, err)
			}
		})
	}
}

func unjoin(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}

// TestLoadModelAnswerFailures: malformed, empty or refused model answers are
// valid scored failures (EVALUATOR-CONTROLS C16), not refusals.
func TestLoadModelAnswerFailures(t *testing.T) {
	f := campaigntest.Campaign(t, campaigntest.Options{}, 2, 2)
	f[ResponsePath("S1")] = &fstest.MapFile{Data: []byte("I cannot help with that.")}
	f[ResponsePath("S2")] = &fstest.MapFile{Data: []byte{}}
	// S3 is review B answering with reconciliation null (a draft-shaped
	// answer): its final answer is valid, so it keeps the final and only
	// its ledger is refused (CONTRACT §4).
	f[ResponsePath("S3")] = &fstest.MapFile{Data: f[ResponsePath("S4")].Data}
	delete(f, ResponsePath("S5"))
	f[ReceiptPath("S5")] = &fstest.MapFile{Data: campaigntest.Receipt("S5", RoleReviewA, "T1", 2, StatusNotDispatched, "", "")}
	delete(f, ReceiptPath("S6"))
	campaigntest.Rebind(t, f)
	c, err := Load(f)
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]*Session{}
	for _, s := range c.Sessions {
		byID[s.ID] = s
	}
	want := map[string]verr.Reason{"S1": ReasonSyntax, "S2": ReasonEmptyFile}
	for id, r := range want {
		s := byID[id]
		if s.Response != nil || s.Failure == nil || !errors.Is(s.Failure, r) || s.RawSHA256 == "" {
			t.Errorf("%s: response %v failure %v, want %s", id, s.Response, s.Failure, r)
		}
	}
	if s := byID["S3"]; s.Response == nil || s.Response.Reconciliation != nil || s.Failure != nil ||
		!errors.Is(s.LedgerFailure, ReasonReconciliationRole) || s.LedgerFailure.Pointer != "/reconciliation" {
		t.Errorf("S3: response %v failure %v ledger %v, want a valid final and ledger refusal reconciliation-role", s.Response, s.Failure, s.LedgerFailure)
	}
	if s := byID["S5"]; s.RawSHA256 != "" || s.Response != nil || s.Failure != nil || s.Receipt == nil || s.Receipt.Status != StatusNotDispatched {
		t.Errorf("S5: %+v", s)
	}
	if s := byID["S6"]; s.Receipt != nil || s.Response == nil {
		t.Errorf("S6: %+v", s)
	}
}

func TestPhysicalLines(t *testing.T) {
	cases := []struct {
		in   string
		want int
	}{{"", 0}, {"a", 1}, {"a\n", 1}, {"a\nb", 2}, {"a\r\nb\r\n", 2}, {"\n", 1}, {"\n\n", 2}, {"a\rb", 1}}
	for _, c := range cases {
		if got := len(PhysicalLines([]byte(c.in))); got != c.want || CountPhysicalLines([]byte(c.in)) != c.want {
			t.Errorf("%q: %d lines, want %d", c.in, got, c.want)
		}
	}
	l := PhysicalLines([]byte("ab\r\ncd"))
	if l[0] != (Line{0, 2, 4}) || l[1] != (Line{4, 6, 6}) {
		t.Fatalf("%+v", l)
	}
}

func TestLoadDeterministicErrors(t *testing.T) {
	mk := func() error {
		f := campaigntest.Campaign(t, campaigntest.Options{}, 2, 1)
		edit(ManifestFile, `"741-v1.0"`, `"741-v0.9"`)(t, f)
		f["tasks/T1/extra.md"] = &fstest.MapFile{Data: []byte("x")}
		f["prompts/extra.txt"] = &fstest.MapFile{Data: []byte("x")}
		_, err := Load(f)
		return err
	}
	a, b := mk(), mk()
	if a == nil || a.Error() != b.Error() || len(unjoin(a)) != 3 {
		t.Fatalf("%v\n%v", a, b)
	}
}

// TestLoadCRLFSource: a CRLF source is authentic when its excerpt keeps
// the CRLF breaks; each CRLF is one break.
func TestLoadCRLFSource(t *testing.T) {
	f := campaigntest.Campaign(t, campaigntest.Options{}, 1, 1)
	src := SourcePath(campaigntest.Repository, "src/t1/f1.ts")
	old := f[src].Data
	crlf := bytes.ReplaceAll(old, []byte("\n"), []byte("\r\n"))
	f[src] = &fstest.MapFile{Data: crlf}
	edit(PacketPath("T1"), campaigntest.SHA256(old), campaigntest.SHA256(crlf))(t, f)
	edit(PacketPath("T1"), `= 1; // SYNTHETIC\n`, `= 1; // SYNTHETIC\r\n`)(t, f)
	edit(PacketPath("T1"), `= 2; // SYNTHETIC\n`, `= 2; // SYNTHETIC\r\n`)(t, f)
	campaigntest.Rebind(t, f)
	if _, err := Load(f); err != nil {
		t.Fatal(err)
	}
	// An excerpt with LF breaks is not byte-identical to CRLF source lines.
	edit(PacketPath("T1"), `= 2; // SYNTHETIC\r\n`, `= 2; // SYNTHETIC\n`)(t, f)
	campaigntest.Rebind(t, f)
	if _, err := Load(f); !errors.Is(err, ReasonExcerptMismatch) {
		t.Fatalf("got %v", err)
	}
}

// TestRawResponseReread: Load keeps no response bytes; RawResponse reads the
// bound file again, byte-identical, and refuses it once it has changed.
func TestRawResponseReread(t *testing.T) {
	fsys := campaigntest.Campaign(t, campaigntest.Options{}, 1, 1)
	c, err := Load(fsys)
	if err != nil {
		t.Fatal(err)
	}
	s := c.Sessions[0]
	want := fsys[ResponsePath(s.ID)].Data
	if s.Raw != nil || s.RawSize != len(want) {
		t.Fatalf("raw %v size %d, want nil and %d", s.Raw != nil, s.RawSize, len(want))
	}
	got, err := c.RawResponse(s)
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("RawResponse = %q, %v", got, err)
	}
	fsys[ResponsePath(s.ID)] = &fstest.MapFile{Data: append(bytes.Clone(want), ' ')}
	if _, err := c.RawResponse(s); !errors.Is(err, ReasonFileDigest) {
		t.Fatalf("changed file: %v, want %s", err, ReasonFileDigest)
	}
	delete(fsys, ResponsePath(s.ID))
	if _, err := c.RawResponse(s); !errors.Is(err, ReasonFileMissing) {
		t.Fatalf("missing file: %v, want %s", err, ReasonFileMissing)
	}
}
