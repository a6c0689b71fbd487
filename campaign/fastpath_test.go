package campaign_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	. "verdict/campaign"
	"verdict/fixtures"
	"verdict/internal/campaigntest"
	"verdict/verr"
)

// newRecord returns a pointer to the zero record a schema decodes into.
func newRecord(schema string) any {
	switch schema {
	case SchemaManifest:
		return new(Manifest)
	case SchemaPacket:
		return new(Packet)
	case SchemaTruth:
		return new(Truth)
	case SchemaResponse:
		return new(Response)
	case SchemaReceipt:
		return new(Receipt)
	}
	panic("unknown schema " + schema)
}

// schemaOf names the schema of a campaign file, or "" for other files.
func schemaOf(path string) string {
	switch {
	case path == ManifestFile:
		return SchemaManifest
	case strings.HasSuffix(path, "/packet.json"):
		return SchemaPacket
	case strings.HasSuffix(path, "/truth.json"):
		return SchemaTruth
	case strings.HasPrefix(path, ResponsesDir+"/"):
		return SchemaResponse
	case strings.HasPrefix(path, ReceiptsDir+"/"):
		return SchemaReceipt
	}
	return ""
}

// checkSound is the soundness property of the fast accept path: when the
// fast pass accepts data, the reference path accepts it and decodes the
// same value; when it does not, the default decoder returns exactly the
// reference path's result. It reports whether the fast pass accepted.
func checkSound(t testing.TB, data []byte, schema string) bool {
	t.Helper()
	ref := newRecord(schema)
	refErr := DecodeReference(data, "f.json", schema, ref)
	got := newRecord(schema)
	gotErr := DecodeStrict(data, "f.json", schema, got)
	fast := FastValid(data, schema)
	if fast && refErr != nil {
		t.Fatalf("%s: the fast pass accepts %.300q, the reference path refuses it: %v", schema, data, refErr)
	}
	if !reflect.DeepEqual(refErr, gotErr) {
		t.Fatalf("%s: %.300q: the default decoder returns %v, the reference path %v", schema, data, gotErr, refErr)
	}
	if refErr == nil && !reflect.DeepEqual(ref, got) {
		t.Fatalf("%s: %.300q: decoded values differ:\nfast      %+v\nreference %+v", schema, data, got, ref)
	}
	return fast
}

// fuzzSeeds reads a committed fuzz corpus file (go test fuzz v1): its
// []byte argument, or nil when it has none.
func fuzzSeedBytes(t testing.TB, path string) []byte {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "[]byte("); ok {
			s, err := strconv.Unquote(strings.TrimSuffix(rest, ")"))
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			return []byte(s)
		}
	}
	return nil
}

// seedFiles are campaign files with their schema: the embedded SYNTHETIC
// campaign, a generated campaign, the response example and the committed
// fuzz corpora (each tried against every schema).
func seedFiles(t testing.TB) (data [][]byte, schemas []string) {
	add := func(b []byte, s string) { data, schemas = append(data, b), append(schemas, s) }
	for _, fsys := range []fs.FS{fixtures.Campaign(), campaigntest.Campaign(t, campaigntest.Options{}, 2, 1)} {
		err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || schemaOf(p) == "" {
				return err
			}
			b, err := fs.ReadFile(fsys, p)
			add(b, schemaOf(p))
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile("testdata/response_b.json")
	if err != nil {
		t.Fatal(err)
	}
	add(b, SchemaResponse)
	dirs, _ := filepath.Glob("testdata/fuzz/*/*")
	for _, p := range dirs {
		if b := fuzzSeedBytes(t, p); b != nil {
			for _, s := range SchemaNames {
				add(b, s)
			}
		}
	}
	return data, schemas
}

// doc decodes JSON for editing (numbers kept as written).
func doc(t testing.TB, b []byte) any {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

// jedit applies f to the value at the JSON pointer p of a copy of b's
// document: f returns the new value, or del to remove the member.
func jedit(t testing.TB, b []byte, p string, f func(v any) any) []byte {
	root := doc(t, b)
	toks := strings.Split(p, "/")[1:]
	var walk func(v any, toks []string) any
	walk = func(v any, toks []string) any {
		if len(toks) == 0 {
			return f(v)
		}
		switch c := v.(type) {
		case map[string]any:
			nv := walk(c[toks[0]], toks[1:])
			if nv == del {
				delete(c, toks[0])
			} else {
				c[toks[0]] = nv
			}
		case []any:
			i, err := strconv.Atoi(toks[0])
			if err != nil {
				t.Fatalf("pointer %s", p)
			}
			c[i] = walk(c[i], toks[1:])
		default:
			t.Fatalf("pointer %s leaves the document", p)
		}
		return v
	}
	root = walk(root, toks)
	out, err := json.Marshal(root)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// del is the edit result that removes a member.
var del any = &struct{ deleted bool }{}

func set(v any) func(any) any { return func(any) any { return v } }

// repeat makes an array of n copies of the array's first element.
func repeat(n int) func(any) any {
	return func(v any) any {
		a := v.([]any)
		out := make([]any, n)
		for i := range out {
			out[i] = a[0]
		}
		return out
	}
}

// numbered makes an array of n copies of the first element with ids prefix1…prefixN.
func numbered(n int, prefix string) func(any) any {
	return func(v any) any {
		a := v.([]any)
		out := make([]any, n)
		for i := range out {
			m := map[string]any{}
			for k, x := range a[0].(map[string]any) {
				m[k] = x
			}
			m["id"] = prefix + strconv.Itoa(i+1)
			out[i] = m
		}
		return out
	}
}

type fastCase struct {
	name   string
	schema string
	data   []byte
	want   verr.Reason // "" : the reference accepts it, and so must the fast pass
}

// fastCases are hand-made edge cases of every schema rule and every strict
// JSON rule, each next to the valid document it was made from.
func fastCases(t testing.TB) []fastCase {
	resp, err := os.ReadFile("testdata/response_b.json")
	if err != nil {
		t.Fatal(err)
	}
	rc := campaigntest.Receipt("S1", RoleDraft, "T1", 1, StatusResponse, "", "")
	camp := campaigntest.Campaign(t, campaigntest.Options{}, 2, 1)
	man, pkt, tru := camp[ManifestFile].Data, camp[PacketPath("T1")].Data, camp[TruthPath("T1")].Data
	runes := func(r string, n int) string { return strings.Repeat(r, n) }
	R, M, P, T, C := SchemaResponse, SchemaManifest, SchemaPacket, SchemaTruth, SchemaReceipt
	return []fastCase{
		// Valid documents and valid edges: the fast pass must accept them.
		{"response", R, resp, ""},
		{"receipt", C, rc, ""},
		{"manifest", M, man, ""},
		{"packet", P, pkt, ""},
		{"truth", T, tru, ""},
		{"text 2048 two-byte runes", R, jedit(t, resp, "/final/claims/0/text", set(runes("é", 2048))), ""},
		{"text 2048 four-byte runes", R, jedit(t, resp, "/final/claims/0/text", set(runes("😀", 2048))), ""},
		{"nullable id null", R, jedit(t, resp, "/final/claims/1/uncertainty_id", set(nil)), ""},
		{"reconciliation null", R, jedit(t, resp, "/reconciliation", set(nil)), ""},
		{"claims 32", R, jedit(t, resp, "/final/claims", numbered(32, "C")), ""},
		{"claims 0", R, jedit(t, resp, "/final/claims", set([]any{})), ""},
		{"meter null", C, jedit(t, rc, "/meter", set(nil)), ""},
		{"count zero", C, jedit(t, rc, "/ordinary_calls", set(json.Number("0"))), ""},
		{"int64 max", C, jedit(t, rc, "/end_monotonic_ns", set(json.Number("9223372036854775807"))), ""},
		{"int64 min", C, jedit(t, rc, "/start_monotonic_ns", set(json.Number("-9223372036854775808"))), ""},
		{"escaped text", R, jedit(t, resp, "/final/claims/0/text", set("a\"\\\u00e9\n\u2028b")), ""},
		{"packet 12 items", P, jedit(t, pkt, "/items", numbered(12, "E")), ""},
		{"truth 8 obligations", T, jedit(t, tru, "/obligations", numbered(8, "O")), ""},

		// The strict JSON layer.
		{"empty", R, []byte(" \n"), ReasonEmptyFile},
		{"bom", R, append([]byte{0xEF, 0xBB, 0xBF}, resp...), ReasonBOM},
		{"trailing data", R, append(bytes.Clone(resp), "{}"...), ReasonSyntax},
		{"truncated", R, resp[:len(resp)/2], ReasonSyntax},
		{"duplicate key", R, bytes.Replace(resp, []byte(`"final": {`), []byte(`"final": {"claims": [], `), 1), ReasonDuplicateKey},
		{"invalid utf-8", R, bytes.Replace(resp, []byte("SYNTHETIC: parse"), []byte("SYNTHETIC: \xffparse"), 1), ReasonInvalidUTF8},
		{"lone surrogate", R, bytes.Replace(resp, []byte("SYNTHETIC: parse"), []byte(`SYNTHETIC: \ud800parse`), 1), ReasonLoneSurrogate},
		{"depth", R, []byte(strings.Repeat("[", 40) + strings.Repeat("]", 40)), ReasonDepthLimit},
		{"deep in object", R, []byte(`{"final":` + strings.Repeat("[", 40) + strings.Repeat("]", 40) + `}`), ReasonDepthLimit},
		{"negative zero", R, jedit(t, resp, "/final/citations/0/start_line", set(json.Number("-0"))), ReasonNegativeZero},
		{"fraction", R, jedit(t, resp, "/final/citations/0/start_line", set(json.Number("1.5"))), ReasonNonInteger},
		{"integral fraction", R, jedit(t, resp, "/final/citations/0/start_line", set(json.Number("1.0"))), ReasonNonInteger},
		{"exponent", R, jedit(t, resp, "/final/citations/0/start_line", set(json.Number("1e2"))), ReasonNonInteger},
		{"infinite", R, jedit(t, resp, "/final/citations/0/start_line", set(json.Number("1e400"))), ReasonNumberRange},
		{"above int64", C, jedit(t, rc, "/end_monotonic_ns", set(json.Number("9223372036854775808"))), ReasonNumberRange},
		{"below int64", C, jedit(t, rc, "/start_monotonic_ns", set(json.Number("-9223372036854775809"))), ReasonNumberRange},
		{"big number", C, jedit(t, rc, "/input_bytes", set(json.Number("123456789012345678901234567890"))), ReasonNumberRange},

		// The schema rules.
		{"missing required", R, jedit(t, resp, "/final/claims", set(del)), ReasonMissingKey},
		{"nullable absent", R, jedit(t, resp, "/reconciliation", set(del)), ReasonMissingKey},
		{"nullable member absent", R, jedit(t, resp, "/final/claims/0/uncertainty_id", set(del)), ReasonMissingKey},
		{"receipt nullable absent", C, jedit(t, rc, "/actual_charge_micro_usd", set(del)), ReasonMissingKey},
		{"extra key", R, jedit(t, resp, "/final/claims/0/extra", set("x")), ReasonUnknownKey},
		{"extra root key", C, jedit(t, rc, "/extra", set(nil)), ReasonUnknownKey},
		{"wrong type object", R, jedit(t, resp, "/final", set([]any{})), ReasonWrongType},
		{"wrong type string", R, jedit(t, resp, "/final/claims/0/text", set(json.Number("1"))), ReasonWrongType},
		{"wrong type integer", R, jedit(t, resp, "/final/citations/0/start_line", set("3")), ReasonWrongType},
		{"wrong type boolean", C, jedit(t, rc, "/arm_state_leaked", set(nil)), ReasonWrongType},
		{"null not nullable", R, jedit(t, resp, "/final/claims/0/text", set(nil)), ReasonWrongType},
		{"enum", R, jedit(t, resp, "/final/claims/0/status", set("bogus")), ReasonEnum},
		{"enum null", R, jedit(t, resp, "/final/claims/0/status", set(nil)), ReasonEnum},
		{"enum number", R, jedit(t, resp, "/final/claims/0/status", set(json.Number("1"))), ReasonEnum},
		{"enum with null member, wrong", C, jedit(t, rc, "/error_kind", set("oops")), ReasonEnum},
		{"text empty", R, jedit(t, resp, "/final/claims/0/text", set("")), ReasonTextEmpty},
		{"text 2049 two-byte runes", R, jedit(t, resp, "/final/claims/0/text", set(runes("é", 2049))), ReasonTextTooLong},
		{"nullable text too long", R, jedit(t, resp, "/final/implementation_plan/0/verification_limitation", set(runes("😀", 2049))), ReasonTextTooLong},
		{"request id too long", C, jedit(t, rc, "/request_id", set(runes("x", 2049))), ReasonSchema},
		{"id pattern", R, jedit(t, resp, "/final/claims/0/id", set("C0")), ReasonIDGrammar},
		{"id pattern prefix", R, jedit(t, resp, "/final/claims/0/id", set("A1")), ReasonIDGrammar},
		{"id pattern newline", R, jedit(t, resp, "/final/claims/0/id", set("C1\n")), ReasonIDGrammar},
		{"nullable id pattern", R, jedit(t, resp, "/final/claims/1/uncertainty_id", set("X1")), ReasonIDGrammar},
		{"path pattern", R, jedit(t, resp, "/final/citations/0/path", set("/abs")), ReasonPath},
		{"path empty", R, jedit(t, resp, "/final/citations/0/path", set("")), ReasonPath},
		{"time pattern", C, jedit(t, rc, "/started_utc", set("2026-09-05 10:00:00Z")), ReasonTimeFormat},
		{"digest pattern", C, jedit(t, rc, "/input_sha256", set(strings.Repeat("A", 64))), ReasonDigestFormat},
		{"line minimum", R, jedit(t, resp, "/final/citations/0/start_line", set(json.Number("0"))), ReasonLineNotPositive},
		{"count minimum", C, jedit(t, rc, "/input_bytes", set(json.Number("-1"))), ReasonOutOfRange},
		{"meter minimum", C, jedit(t, rc, "/meter/output_tokens", set(json.Number("-1"))), ReasonOutOfRange},
		{"claims 33", R, jedit(t, resp, "/final/claims", numbered(33, "C")), ReasonArrayTooLong},
		{"supports empty", R, jedit(t, resp, "/final/citations/0/supports", set([]any{})), ReasonArrayTooShort},
		{"obligations empty", R, jedit(t, resp, "/reconciliation/obligations", set([]any{})), ReasonArrayTooShort},
		{"obligations 17", R, jedit(t, resp, "/reconciliation/obligations", numbered(17, "O")), ReasonArrayTooLong},
		{"unique ids", R, jedit(t, resp, "/final/citations/0/supports", set([]any{"C1", "A1", "C1"})), ReasonRepeatedString},
		{"unique escaped", R, jedit(t, resp, "/final/claims/0/evidence_ids", set([]any{"E1", "E2", "E1"})), ReasonRepeatedString},
		{"unique item pattern", R, jedit(t, resp, "/final/claims/0/evidence_ids", set([]any{"E1", "e2"})), ReasonIDGrammar},
		{"unique item type", R, jedit(t, resp, "/final/claims/0/evidence_ids", set([]any{"E1", json.Number("2")})), ReasonWrongType},
		{"items type", R, jedit(t, resp, "/final/claims", set([]any{"C1"})), ReasonWrongType},
		{"packet 5 items", P, jedit(t, pkt, "/items", numbered(5, "E")), ReasonArrayTooShort},
		{"packet 13 items", P, jedit(t, pkt, "/items", numbered(13, "E")), ReasonArrayTooLong},
		{"packet commit", P, jedit(t, pkt, "/items/0/commit", set("abc")), ReasonDigestFormat},
		{"packet excerpt empty", P, jedit(t, pkt, "/items/0/excerpt", set("")), ReasonSchema},
		{"truth 3 obligations", T, jedit(t, tru, "/obligations", numbered(3, "O")), ReasonArrayTooShort},
		{"truth texts repeated", T, jedit(t, tru, "/obligations/0/accepted_alternatives", set([]any{"same", "same"})), ReasonRepeatedString},
		{"truth evidence 13", T, jedit(t, tru, "/obligations/0/evidence_ids", set([]any{"E1", "E2", "E3", "E4", "E5", "E6", "E7", "E8", "E9", "E10", "E11", "E12", "E13"})), ReasonArrayTooLong},
		{"manifest repetition", M, jedit(t, man, "/runs/0/repetition", set(json.Number("0"))), ReasonRepetition},
		{"manifest phase", M, jedit(t, man, "/phase", set("final")), ReasonEnum},
		{"manifest no tasks", M, jedit(t, man, "/tasks", set([]any{})), ReasonArrayTooShort},
		{"manifest synthetic", M, jedit(t, man, "/synthetic", set("yes")), ReasonWrongType},
		{"manifest repository", M, jedit(t, man, "/tasks/0/repository", set("no-slash")), ReasonSchema},
		{"manifest contract empty", M, jedit(t, man, "/contract_version", set("")), ReasonSchema},
		{"manifest price card missing member", M, jedit(t, man, "/execution/price_card", set(map[string]any{"id": "x"})), ReasonMissingKey},
	}
}

// TestFastPassEnforcesEachRule: every schema rule and strict JSON rule is
// enforced by the fast pass itself (it declines, and the reference path
// returns the refusal), and the valid edges are accepted by it, so the
// fast path really is taken.
func TestFastPassEnforcesEachRule(t *testing.T) {
	runFastCases(t, fastCases(t))
}

// runFastCases runs each case through the reference path and the fast
// pass: a valid case must be accepted by both (so the fast path is taken),
// a refused one declined by the fast pass and refused by the reference
// with the case's reason.
func runFastCases(t *testing.T, cases []fastCase) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := DecodeReference(c.data, "f.json", c.schema, newRecord(c.schema))
			fast := checkSound(t, c.data, c.schema)
			if c.want == "" {
				if err != nil || !fast {
					t.Fatalf("reference %v, fast pass accepts %v; want both to accept", err, fast)
				}
				return
			}
			if fast {
				t.Fatalf("the fast pass accepts a document the reference refuses (%v)", err)
			}
			if !errors.Is(err, c.want) {
				t.Fatalf("reference refusal %v, want %s", err, c.want)
			}
		})
	}
}

// TestFastPathSoundOnSeeds runs the soundness property on every seed and
// checks that every valid campaign file takes the fast path.
func TestFastPathSoundOnSeeds(t *testing.T) {
	data, schemas := seedFiles(t)
	fastN := 0
	for i := range data {
		if checkSound(t, data[i], schemas[i]) {
			fastN++
		} else if DecodeReference(data[i], "f.json", schemas[i], newRecord(schemas[i])) == nil {
			t.Errorf("%s: a document the reference accepts is not accepted by the fast pass: %.200q", schemas[i], data[i])
		}
	}
	if fastN < 20 {
		t.Fatalf("only %d seeds took the fast path", fastN)
	}
}

// FuzzFastPathSound: for arbitrary bytes and any embedded schema, a file
// the fast pass accepts is accepted by the reference path with the same
// decoded value, and any other file gets the reference path's exact result.
func FuzzFastPathSound(f *testing.F) {
	data, schemas := seedFiles(f)
	index := map[string]uint8{}
	for i, s := range SchemaNames {
		index[s] = uint8(i)
	}
	for i := range data {
		f.Add(data[i], index[schemas[i]])
	}
	for _, c := range fastCases(f) {
		f.Add(c.data, index[c.schema])
	}
	f.Fuzz(func(t *testing.T, data []byte, which uint8) {
		checkSound(t, data, SchemaNames[int(which)%len(SchemaNames)])
	})
}

// TestEveryEmbeddedSchemaHasAFastProgram: no file kind is left to the
// slower reference path alone.
func TestEveryEmbeddedSchemaHasAFastProgram(t *testing.T) {
	for name, err := range FastSchemaErrors() {
		t.Errorf("embedded schema %s has no fast program (every file of its kind takes the slower reference path): %v", name, err)
	}
}

// TestLoadSameOnBothPaths: Load of a generated campaign (with a scored
// failure and a refused receipt) gives the same campaign and the same
// refusals as LoadWith ReferenceOnly.
func TestLoadSameOnBothPaths(t *testing.T) {
	t.Parallel()
	camp := campaigntest.Campaign(t, campaigntest.Options{}, 3, 2)
	camp[ResponsePath("S2")] = &fstest.MapFile{Data: []byte(`{"final": {}, "reconciliation": null}`)}
	camp[ReceiptPath("S3")] = &fstest.MapFile{Data: jedit(t, camp[ReceiptPath("S3")].Data, "/meter/input_tokens", set(json.Number("-5")))}
	// The one optional receipt member, present.
	camp[ReceiptPath("S4")] = &fstest.MapFile{Data: jedit(t, camp[ReceiptPath("S4")].Data, "/priced_modifiers", set([]any{"service_tier=priority"}))}
	campaigntest.Rebind(t, camp)
	for _, fsys := range []fs.FS{camp, fixtures.Campaign()} {
		fastC, fastErr := Load(fsys)
		refC, refErr := LoadWith(fsys, LoadOptions{ReferenceOnly: true})
		if !reflect.DeepEqual(fastErr, refErr) {
			t.Fatalf("refusals differ:\nfast      %v\nreference %v", fastErr, refErr)
		}
		if !reflect.DeepEqual(fastC, refC) {
			t.Fatal("loaded campaigns differ")
		}
	}
}

// TestFastFillBindsEveryRecord: the fast pass fills every record type in
// the same pass, and for a type it cannot fill (an untagged field, a
// field of an unhandled kind) it still decodes exactly as the reference
// path, with the typed decoding after the check.
func TestFastFillBindsEveryRecord(t *testing.T) {
	for _, s := range SchemaNames {
		if !FastBindable(s, newRecord(s)) {
			t.Errorf("schema %s: the fast pass does not fill %T", s, newRecord(s))
		}
	}
	type untagged struct {
		SessionID string
		Rest      map[string]any `json:",inline"`
	}
	type floaty struct {
		Final          map[string]any `json:"final"`
		Reconciliation any            `json:"reconciliation"`
	}
	resp, err := os.ReadFile("testdata/response_b.json")
	if err != nil {
		t.Fatal(err)
	}
	rc := campaigntest.Receipt("S1", RoleDraft, "T1", 1, StatusResponse, "", "")
	for _, c := range []struct {
		schema string
		data   []byte
		v, ref any
	}{
		{SchemaReceipt, rc, new(untagged), new(untagged)},
		{SchemaResponse, resp, new(floaty), new(floaty)},
	} {
		if FastBindable(c.schema, c.v) {
			t.Fatalf("%T is bindable", c.v)
		}
		ok := FastDecode(c.data, c.schema, c.v)
		refErr := DecodeReference(c.data, "f.json", c.schema, c.ref)
		if ok != (refErr == nil) || ok && !reflect.DeepEqual(c.v, c.ref) {
			t.Fatalf("%T: fast %v %+v, reference %v %+v", c.v, ok, c.v, refErr, c.ref)
		}
	}
}
