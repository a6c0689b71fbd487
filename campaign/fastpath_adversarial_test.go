package campaign_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"

	. "verdict/campaign"
	"verdict/internal/campaigntest"
	"verdict/verr"
)

// Adversarial inputs for the fast accept path: each case is a small,
// deliberate change to a valid SYNTHETIC document aimed at one place where
// a streaming check could disagree with the reference path (escapes,
// code point counting, number spellings, null against absent, escaped
// repeats, byte-level UTF-8, whitespace, array bounds). Every case runs
// checkSound (fast acceptance implies reference acceptance with a
// deep-equal record, and the default decoder returns the reference result); a
// case with a wanted reason must be refused by the reference with that
// reason and declined by the fast pass, and a case without one must be
// accepted by both, so the fast path is really exercised on it.

// rawReplace replaces the first occurrence of old in b by new and fails
// when old is absent (so a case cannot silently test the unchanged file).
func rawReplace(t testing.TB, b []byte, old, new string) []byte {
	t.Helper()
	if !bytes.Contains(b, []byte(old)) {
		t.Fatalf("%q is not in the document", old)
	}
	return bytes.Replace(b, []byte(old), []byte(new), 1)
}

// rawSet sets the value at pointer p to the raw JSON text raw (written
// verbatim, escapes and number spellings included).
func rawSet(t testing.TB, b []byte, p, raw string) []byte {
	t.Helper()
	const mark = "\"@@RAW@@\""
	out := jedit(t, b, p, set("@@RAW@@"))
	return rawReplace(t, out, mark, raw)
}

// quoted returns n copies of the JSON string fragment frag inside quotes.
func quoted(frag string, n int) string { return `"` + strings.Repeat(frag, n) + `"` }

func adversarialCases(t testing.TB) []fastCase {
	resp, err := os.ReadFile("testdata/response_b.json")
	if err != nil {
		t.Fatal(err)
	}
	rc := campaigntest.Receipt("S1", RoleDraft, "T1", 1, StatusResponse, "", "")
	camp := campaigntest.Campaign(t, campaigntest.Options{}, 2, 1)
	man, pkt, tru := camp[ManifestFile].Data, camp[PacketPath("T1")].Data, camp[TruthPath("T1")].Data
	R, M, P, T, C := SchemaResponse, SchemaManifest, SchemaPacket, SchemaTruth, SchemaReceipt
	text := "/final/claims/0/text"
	line := "/final/citations/0/start_line"
	ids := "/final/claims/0/evidence_ids"
	alts := "/obligations/0/accepted_alternatives"
	many := func(prefix string, n int, dup string) string {
		parts := make([]string, n)
		for i := range parts {
			parts[i] = strconv.Quote(prefix + strconv.Itoa(i+1))
		}
		if dup != "" {
			parts[n-1] = dup
		}
		return "[" + strings.Join(parts, ",") + "]"
	}
	return []fastCase{
		// Member names spelled with escapes: the same name, so a repeat
		// is a duplicate key, and a lone escaped spelling is the member.
		{"escaped duplicate root key", R, rawReplace(t, resp, `"reconciliation"`, `"fin\u0061l": {}, "reconciliation"`), ReasonDuplicateKey},
		{"escaped duplicate last root key", R, rawReplace(t, resp, "\n}", `, "\u0066inal": null`+"\n}"), ReasonDuplicateKey},
		{"escaped duplicate member", R, rawReplace(t, resp, `"id": "C1", `, `"id": "C1", "\u0069d": "C1", `), ReasonDuplicateKey},
		{"escaped duplicate, both escaped", R, rawReplace(t, resp, `"id": "C1", `, `"\u0069d": "C1", "\u0069\u0064": "C1", `), ReasonDuplicateKey},
		{"escaped member name", R, rawReplace(t, resp, `"id": "C1", `, `"\u0069d": "C1", `), ""},
		{"escaped solidus in name", R, rawReplace(t, resp, `"evidence_ids": ["E1"], "uncertainty_id": null`, `"evidence\u005fids": ["E1"], "uncertainty_id": null`), ""},
		{"name with NUL", R, rawReplace(t, resp, `"id": "C1", `, `"id": "C1", "id\u0000": "C1", `), ReasonUnknownKey},
		{"name differs in case", R, rawReplace(t, resp, `"id": "C1", `, `"ID": "C1", `), ReasonUnknownKey},

		// Code points: minLength and maxLength count code points, escapes
		// and surrogate pairs included.
		{"2048 escaped surrogate pairs", R, rawSet(t, resp, text, quoted(`\ud83d\ude00`, 2048)), ""},
		{"2049 escaped surrogate pairs", R, rawSet(t, resp, text, quoted(`\ud83d\ude00`, 2049)), ReasonTextTooLong},
		{"2048 escaped BMP", R, rawSet(t, resp, text, quoted(`\u00e9`, 2048)), ""},
		{"2049 escaped BMP", R, rawSet(t, resp, text, quoted(`\u00e9`, 2049)), ReasonTextTooLong},
		{"2048 mixed raw and escaped", R, rawSet(t, resp, text, quoted(`a\u00e9😀\n`, 512)), ""},
		{"2049 mixed raw and escaped", R, rawSet(t, resp, text, `"x`+quoted(`a\u00e9😀\n`, 512)[1:]), ReasonTextTooLong},
		{"2048 escaped newlines (rules refuse untrimmed)", R, rawSet(t, resp, text, `"x`+strings.Repeat(`\n`, 2046)+`x"`), ""},
		{"single escaped pair", R, rawSet(t, resp, text, `"\ud83d\ude00"`), ""},
		{"lone high surrogate", R, rawSet(t, resp, text, `"a\ud83d"`), ReasonLoneSurrogate},
		{"lone low surrogate", R, rawSet(t, resp, text, `"a\ude00b"`), ReasonLoneSurrogate},
		{"reversed pair", R, rawSet(t, resp, text, `"\ude00\ud83d"`), ReasonLoneSurrogate},
		{"high then BMP escape", R, rawSet(t, resp, text, `"\ud83d\u0041"`), ReasonLoneSurrogate},
		{"high then high", R, rawSet(t, resp, text, `"\ud83d\ud83d\ude00"`), ReasonLoneSurrogate},
		{"escaped U+FFFD", R, rawSet(t, resp, text, `"\ufffd"`), ""},
		{"raw U+FFFD", R, rawSet(t, resp, text, "\"\xef\xbf\xbd\""), ""},
		{"escaped U+FFFF", R, rawSet(t, resp, text, `"\uffff"`), ""},
		{"escaped NUL text", R, rawSet(t, resp, text, `"\u0000"`), ""},
		{"text empty", R, rawSet(t, resp, text, `""`), ReasonTextEmpty},
		{"nullable text empty", R, rawSet(t, resp, "/final/implementation_plan/0/verification_limitation", `""`), ReasonTextEmpty},
		{"nullable text 2049", R, rawSet(t, resp, "/final/implementation_plan/0/verification_limitation", quoted(`\ud83d\ude00`, 2049)), ReasonTextTooLong},
		{"receipt request_id 2048 pairs", C, rawSet(t, rc, "/request_id", quoted(`\ud83d\ude00`, 2048)), ""},
		{"receipt request_id 2049 pairs", C, rawSet(t, rc, "/request_id", quoted(`\ud83d\ude00`, 2049)), ReasonSchema},
		{"receipt request_id empty", C, rawSet(t, rc, "/request_id", `""`), ""},

		// White space around texts: the schema admits it, the response
		// rules refuse the Unicode white space strings.TrimSpace trims
		// (checkSound also compares the allocation-free rule check).
		{"leading escaped space", R, rawSet(t, resp, text, `"\u0020x"`), ""},
		{"trailing tab", R, rawSet(t, resp, text, `"x\t"`), ""},
		{"trailing NEL", R, rawSet(t, resp, text, `"x\u0085"`), ""},
		{"trailing NBSP", R, rawSet(t, resp, text, `"x\u00a0"`), ""},
		{"leading U+2028", R, rawSet(t, resp, text, `"\u2028x"`), ""},
		{"raw U+2028 and U+2029", R, rawSet(t, resp, text, "\"x\u2028y\u2029z\""), ""},
		{"trailing ideographic space", R, rawSet(t, resp, text, `"x\u3000"`), ""},
		{"trailing BOM code point", R, rawSet(t, resp, text, `"x\ufeff"`), ""},
		{"trailing zero width space", R, rawSet(t, resp, text, `"x\u200b"`), ""},
		{"only space", R, rawSet(t, resp, text, `" "`), ""},

		// Numbers, spelled every way the strict layer refuses.
		{"number -0", R, rawSet(t, resp, line, `-0`), ReasonNegativeZero},
		{"number -0.0", R, rawSet(t, resp, line, `-0.0`), ReasonNegativeZero},
		{"number -0e0", R, rawSet(t, resp, line, `-0e0`), ReasonNegativeZero},
		{"number 1.0", R, rawSet(t, resp, line, `1.0`), ReasonNonInteger},
		{"number 1e2", R, rawSet(t, resp, line, `1e2`), ReasonNonInteger},
		{"number 1E0", R, rawSet(t, resp, line, `1E0`), ReasonNonInteger},
		{"number 1e-0", R, rawSet(t, resp, line, `1e-0`), ReasonNonInteger},
		{"number 10E+0", R, rawSet(t, resp, line, `10E+0`), ReasonNonInteger},
		{"number +1", R, rawSet(t, resp, line, `+1`), ReasonSyntax},
		{"number 01", R, rawSet(t, resp, line, `01`), ReasonSyntax},
		{"number 1.", R, rawSet(t, resp, line, `1.`), ReasonSyntax},
		{"number .5", R, rawSet(t, resp, line, `.5`), ReasonSyntax},
		{"number 0x1", R, rawSet(t, resp, line, `0x1`), ReasonSyntax},
		{"number NaN", R, rawSet(t, resp, line, `NaN`), ReasonSyntax},
		{"number 2^63", R, rawSet(t, resp, line, `9223372036854775808`), ReasonNumberRange},
		{"number 2^64", R, rawSet(t, resp, line, `18446744073709551616`), ReasonNumberRange},
		{"number 20 digits", R, rawSet(t, resp, line, `10000000000000000000`), ReasonNumberRange},
		{"number 1e400", R, rawSet(t, resp, line, `1e400`), ReasonNumberRange},
		{"number -1", R, rawSet(t, resp, line, `-1`), ReasonLineNotPositive},
		{"number 0", R, rawSet(t, resp, line, `0`), ReasonLineNotPositive},
		{"line int64 max", R, rawSet(t, resp, "/final/citations/0/end_line", `9223372036854775807`), ""},
		{"line order (rules refuse)", R, rawSet(t, resp, line, `9223372036854775807`), ""},
		{"line as string", R, rawSet(t, resp, line, `"3"`), ReasonWrongType},
		{"line null", R, rawSet(t, resp, line, `null`), ReasonWrongType},
		{"line true", R, rawSet(t, resp, line, `true`), ReasonWrongType},
		{"receipt int64 min", C, rawSet(t, rc, "/start_monotonic_ns", `-9223372036854775808`), ""},
		{"receipt int64 min - 1", C, rawSet(t, rc, "/start_monotonic_ns", `-9223372036854775809`), ReasonNumberRange},
		{"receipt -0 count", C, rawSet(t, rc, "/ordinary_calls", `-0`), ReasonNegativeZero},
		{"receipt 0 count", C, rawSet(t, rc, "/ordinary_calls", `0`), ""},
		{"receipt nullable count -1", C, rawSet(t, rc, "/input_bytes", `-1`), ReasonOutOfRange},
		{"receipt nullable count 0", C, rawSet(t, rc, "/input_bytes", `0`), ""},
		{"receipt repetition 0", C, rawSet(t, rc, "/repetition", `0`), ReasonRepetition},
		{"receipt bool as 1", C, rawSet(t, rc, "/arm_state_leaked", `1`), ReasonWrongType},
		{"receipt bool as string", C, rawSet(t, rc, "/arm_state_leaked", `"true"`), ReasonWrongType},

		// Null against absent against the string "null".
		{"nullable id null", R, rawSet(t, resp, "/final/claims/0/uncertainty_id", `null`), ""},
		{"nullable id string null", R, rawSet(t, resp, "/final/claims/0/uncertainty_id", `"null"`), ReasonIDGrammar},
		{"nullable id absent", R, jedit(t, resp, "/final/claims/0/uncertainty_id", set(del)), ReasonMissingKey},
		{"required non-nullable null", R, rawSet(t, resp, "/final/claims", `null`), ReasonWrongType},
		{"reconciliation null (rules refuse for review B)", R, rawSet(t, resp, "/reconciliation", `null`), ""},
		{"reconciliation empty object", R, rawSet(t, resp, "/reconciliation", `{}`), ReasonMissingKey},
		{"reconciliation array", R, rawSet(t, resp, "/reconciliation", `[]`), ReasonWrongType},
		{"reconciliation false", R, rawSet(t, resp, "/reconciliation", `false`), ReasonWrongType},
		{"receipt meter null", C, rawSet(t, rc, "/meter", `null`), ""},
		{"receipt meter empty", C, rawSet(t, rc, "/meter", `{}`), ReasonMissingKey},
		{"receipt error_kind null", C, rawSet(t, rc, "/error_kind", `null`), ""},
		{"receipt error_kind escaped", C, rawSet(t, rc, "/error_kind", `"model\u005ftimeout"`), ""},
		{"receipt error_kind string null", C, rawSet(t, rc, "/error_kind", `"null"`), ReasonEnum},
		{"receipt error_kind absent", C, jedit(t, rc, "/error_kind", set(del)), ReasonMissingKey},
		{"receipt status empty string", C, rawSet(t, rc, "/status", `""`), ""},
		{"receipt status null", C, rawSet(t, rc, "/status", `null`), ReasonEnum},
		{"receipt role escaped", C, rawSet(t, rc, "/role", `"review\u002da"`), ""},
		{"receipt role with NUL", C, rawSet(t, rc, "/role", `"draft\u0000"`), ReasonEnum},
		{"receipt role in upper case", C, rawSet(t, rc, "/role", `"Draft"`), ReasonEnum},
		{"receipt time with fraction", C, rawSet(t, rc, "/started_utc", `"2026-09-05T10:00:00.123456789Z"`), ""},
		{"receipt time 10 fraction digits", C, rawSet(t, rc, "/started_utc", `"2026-09-05T10:00:00.1234567890Z"`), ReasonTimeFormat},
		{"receipt time empty fraction", C, rawSet(t, rc, "/started_utc", `"2026-09-05T10:00:00.Z"`), ReasonTimeFormat},
		{"receipt time escaped", C, rawSet(t, rc, "/started_utc", `"2026-09-05T10:00:00\u005a"`), ""},
		{"receipt time lower z", C, rawSet(t, rc, "/started_utc", `"2026-09-05T10:00:00z"`), ReasonTimeFormat},
		{"receipt time Arabic-Indic digit", C, rawSet(t, rc, "/started_utc", `"2026-09-05T10:00:0\u0661Z"`), ReasonTimeFormat},
		{"receipt digest escaped", C, rawSet(t, rc, "/input_sha256", `"`+strings.Repeat(`\u0061`, 64)+`"`), ""},
		{"receipt digest 63", C, rawSet(t, rc, "/input_sha256", quoted("a", 63)), ReasonDigestFormat},
		{"receipt digest 65", C, rawSet(t, rc, "/input_sha256", quoted("a", 65)), ReasonDigestFormat},
		{"receipt digest trailing newline", C, rawSet(t, rc, "/input_sha256", `"`+strings.Repeat("a", 64)+`\n"`), ReasonDigestFormat},

		// Patterns on escaped strings.
		{"id escaped", R, rawSet(t, resp, "/final/claims/0/id", `"\u00431"`), ""},
		{"id with NUL", R, rawSet(t, resp, "/final/claims/0/id", `"C1\u0000"`), ReasonIDGrammar},
		{"id leading zero", R, rawSet(t, resp, "/final/claims/0/id", `"C01"`), ReasonIDGrammar},
		{"id Arabic-Indic digit", R, rawSet(t, resp, "/final/claims/0/id", `"C\u0661"`), ReasonIDGrammar},
		{"id full-width digit", R, rawSet(t, resp, "/final/claims/0/id", `"C１"`), ReasonIDGrammar},
		{"id lower case", R, rawSet(t, resp, "/final/claims/0/id", `"c1"`), ReasonIDGrammar},
		{"id prefix only", R, rawSet(t, resp, "/final/claims/0/id", `"C"`), ReasonIDGrammar},
		{"id long", R, rawSet(t, resp, "/final/claims/0/id", `"C`+strings.Repeat("9", 300)+`"`), ""},
		{"duplicate declared id (rules refuse)", R, rawSet(t, resp, "/final/claims/1/id", `"C\u0031"`), ""},
		{"path escaped slash", R, rawSet(t, resp, "/final/citations/0/path", `"src\/query.ts"`), ""},
		{"path escaped leading slash", R, rawSet(t, resp, "/final/citations/0/path", `"\/src"`), ReasonPath},
		{"path double slash escaped", R, rawSet(t, resp, "/final/citations/0/path", `"a\u002f/b"`), ReasonPath},
		{"path trailing slash", R, rawSet(t, resp, "/final/citations/0/path", `"a/"`), ReasonPath},
		{"path newline segment", R, rawSet(t, resp, "/final/citations/0/path", `"a/\n/b"`), ""},
		{"path dot-dot (rules refuse)", R, rawSet(t, resp, "/final/citations/0/path", `"a/../b"`), ""},
		{"path dot-dot escaped (rules refuse)", R, rawSet(t, resp, "/final/citations/0/path", `"\u002e\u002e/b"`), ""},
		{"path backslash", R, rawSet(t, resp, "/final/citations/0/path", `"a\\b"`), ""},
		{"packet repository escaped", P, rawSet(t, pkt, "/items/0/repository", `"owner\/name"`), ""},
		{"packet repository two slashes", P, rawSet(t, pkt, "/items/0/repository", `"a/b/c"`), ReasonSchema},
		{"packet repository non-ASCII", P, rawSet(t, pkt, "/items/0/repository", `"own\u00e9r/name"`), ReasonSchema},
		{"packet commit upper", P, rawSet(t, pkt, "/items/0/commit", quoted("A", 40)), ReasonDigestFormat},

		// Enums.
		{"enum escaped", R, rawSet(t, resp, "/final/claims/0/status", `"source\u005fbacked"`), ""},
		{"enum case", R, rawSet(t, resp, "/final/claims/0/status", `"Source_backed"`), ReasonEnum},
		{"enum trailing space", R, rawSet(t, resp, "/final/claims/0/status", `"inference "`), ReasonEnum},
		{"enum array", R, rawSet(t, resp, "/final/claims/0/status", `["inference"]`), ReasonEnum},
		{"enum object", R, rawSet(t, resp, "/final/claims/0/status", `{}`), ReasonEnum},
		{"enum true", R, rawSet(t, resp, "/final/claims/0/status", `true`), ReasonEnum},

		// uniqueItems: repeats spelled differently are repeats.
		{"unique escaped digit", R, rawSet(t, resp, ids, `["E1", "E\u0031"]`), ReasonRepeatedString},
		{"unique escaped prefix", R, rawSet(t, resp, "/final/citations/0/supports", `["C1", "\u00431"]`), ReasonRepeatedString},
		{"unique escaped slash", T, rawSet(t, tru, alts, `["a/b", "a\/b"]`), ReasonRepeatedString},
		{"unique escaped pair vs raw", T, rawSet(t, tru, alts, `["😀", "\ud83d\ude00"]`), ReasonRepeatedString},
		{"unique different pairs", T, rawSet(t, tru, alts, `["😀", "😁"]`), ""},
		{"unique prefix strings", T, rawSet(t, tru, alts, `["ab", "a", "b"]`), ""},
		{"unique NUL suffix", T, rawSet(t, tru, alts, `["a", "a\u0000"]`), ""},
		{"unique 16 distinct", R, rawSet(t, resp, ids, many("E", 16, "")), ""},
		{"unique 16 repeat last", R, rawSet(t, resp, ids, many("E", 16, `"E\u0031"`)), ReasonRepeatedString},
		{"unique 17 distinct", R, rawSet(t, resp, ids, many("E", 17, "")), ""},
		{"unique 17 repeat last escaped", R, rawSet(t, resp, ids, many("E", 17, `"E\u0031"`)), ReasonRepeatedString},
		{"unique 200 repeat last", R, rawSet(t, resp, ids, many("E", 200, `"E199"`)), ReasonRepeatedString},
		{"unique 200 distinct", R, rawSet(t, resp, ids, many("E", 200, "")), ""},
		{"unique with null", R, rawSet(t, resp, ids, `["E1", null]`), ReasonWrongType},
		{"unique with array", R, rawSet(t, resp, ids, `["E1", ["E2"]]`), ReasonWrongType},
		{"unique repeated and badly typed", R, rawSet(t, resp, ids, `["E1", "E1", 1]`), ReasonRepeatedString},
		{"supports empty", R, rawSet(t, resp, "/final/citations/0/supports", `[]`), ReasonArrayTooShort},
		{"supports escaped one", R, rawSet(t, resp, "/final/citations/0/supports", `["\u00431"]`), ""},

		{"truth alternatives 32 distinct", T, rawSet(t, tru, alts, many("alt ", 32, "")), ""},
		{"truth alternatives 32 escaped repeat", T, rawSet(t, tru, alts, many("alt ", 32, `"alt\u00201"`)), ReasonRepeatedString},
		{"truth alternatives 33", T, rawSet(t, tru, alts, many("alt ", 33, "")), ReasonArrayTooLong},
		{"truth alternatives repeat differ in normalization", T, rawSet(t, tru, alts, `["\u00e9", "e\u0301"]`), ""},
		{"truth evidence 12 distinct", T, rawSet(t, tru, "/obligations/0/evidence_ids", many("E", 12, "")), ""},
		{"truth evidence 12 escaped repeat", T, rawSet(t, tru, "/obligations/0/evidence_ids", many("E", 12, `"\u00451"`)), ReasonRepeatedString},

		// Nullable members of the manifest and their escapes.
		{"manifest price card null", M, rawSet(t, man, "/execution/price_card", `null`), ""},
		{"manifest price card empty", M, rawSet(t, man, "/execution/price_card", `{}`), ReasonMissingKey},
		{"manifest nullable bool null", M, rawSet(t, man, "/execution/tariff_verified", `null`), ""},
		{"manifest nullable bool string", M, rawSet(t, man, "/execution/tariff_verified", `"true"`), ReasonWrongType},
		{"manifest nullable bool 0", M, rawSet(t, man, "/execution/tariff_verified", `0`), ReasonWrongType},
		{"manifest nullable name escaped", M, rawSet(t, man, "/execution/model", `"m\u006fdel \ud83d\ude00"`), ""},
		{"manifest nullable name empty", M, rawSet(t, man, "/execution/model", `""`), ReasonSchema},
		{"manifest rate -0", M, rawSet(t, man, "/execution/price_card", `{"id": "p", "uncached_input_micro_usd_per_mtok": -0, "cached_input_micro_usd_per_mtok": 0, "output_micro_usd_per_mtok": 0}`), ReasonNegativeZero},
		{"manifest rate int64 max", M, rawSet(t, man, "/execution/price_card", `{"id": "p", "uncached_input_micro_usd_per_mtok": 9223372036854775807, "cached_input_micro_usd_per_mtok": 0, "output_micro_usd_per_mtok": 0}`), ""},
		{"manifest price card duplicate escaped", M, rawSet(t, man, "/execution/price_card", `{"id": "p", "\u0069d": "q", "uncached_input_micro_usd_per_mtok": 0, "cached_input_micro_usd_per_mtok": 0, "output_micro_usd_per_mtok": 0}`), ReasonDuplicateKey},
		{"manifest seed upper hex", M, rawSet(t, man, "/seed", quoted("F", 64)), ReasonDigestFormat},
		{"manifest phase escaped", M, rawSet(t, man, "/phase", `"evalu\u0061tion"`), ""},
		{"manifest synthetic null", M, rawSet(t, man, "/synthetic", `null`), ReasonWrongType},
		{"packet excerpt escaped", P, rawSet(t, pkt, "/items/0/excerpt", `"\u0000"`), ""},
		{"packet complete null", P, rawSet(t, pkt, "/complete_by_construction", `null`), ReasonWrongType},

		// Array bounds at their edges.
		{"claims 32", R, jedit(t, resp, "/final/claims", numbered(32, "C")), ""},
		{"claims 33", R, jedit(t, resp, "/final/claims", numbered(33, "C")), ReasonArrayTooLong},
		{"exclusions 64", R, jedit(t, resp, "/final/exclusions", numbered(64, "X")), ""},
		{"exclusions 65", R, jedit(t, resp, "/final/exclusions", numbered(65, "X")), ReasonArrayTooLong},
		{"citations 128", R, jedit(t, resp, "/final/citations", repeat(128)), ""},
		{"citations 129", R, jedit(t, resp, "/final/citations", repeat(129)), ReasonArrayTooLong},
		{"obligations 16", R, jedit(t, resp, "/reconciliation/obligations", numbered(16, "O")), ""},
		{"obligations 17", R, jedit(t, resp, "/reconciliation/obligations", numbered(17, "O")), ReasonArrayTooLong},
		{"obligations 1", R, jedit(t, resp, "/reconciliation/obligations", numbered(1, "O")), ""},
		{"obligations 0", R, rawSet(t, resp, "/reconciliation/obligations", `[]`), ReasonArrayTooShort},
		{"claims 32 repeated ids (rules refuse)", R, jedit(t, resp, "/final/claims", repeat(32)), ""},
		{"packet 6 items", P, jedit(t, pkt, "/items", numbered(6, "E")), ""},
		{"packet 5 items", P, jedit(t, pkt, "/items", numbered(5, "E")), ReasonArrayTooShort},
		{"truth 4 obligations", T, jedit(t, tru, "/obligations", numbered(4, "O")), ""},
		{"truth 3 obligations", T, jedit(t, tru, "/obligations", numbered(3, "O")), ReasonArrayTooShort},
		{"manifest one task", M, man, ""},
		{"manifest tasks empty", M, rawSet(t, man, "/tasks", `[]`), ReasonArrayTooShort},

		// Depth: MaxDepth open objects and arrays is the limit. Every
		// embedded schema is closed and typed, so these are refused by
		// the schema as well; they check that deep input is declined, not
		// the fast pass's own depth count.
		{"depth 32 in an array", R, rawSet(t, resp, "/final/claims", strings.Repeat("[", 30)+strings.Repeat("]", 30)), ReasonWrongType},
		{"depth 33 in an array", R, rawSet(t, resp, "/final/claims", strings.Repeat("[", 31)+strings.Repeat("]", 31)), ReasonDepthLimit},
		{"depth 33 under unknown key", R, rawReplace(t, resp, `"final": {`, `"zz": `+strings.Repeat("[", 32)+strings.Repeat("]", 32)+`, "final": {`), ReasonDepthLimit},
		{"depth 32 root arrays", R, []byte(strings.Repeat("[", 32) + strings.Repeat("]", 32)), ReasonWrongType},
		{"depth 33 root arrays", R, []byte(strings.Repeat("[", 33) + strings.Repeat("]", 33)), ReasonDepthLimit},
		{"depth 33 unique array", R, rawSet(t, resp, ids, `["E1", `+strings.Repeat("[", 31)+strings.Repeat("]", 31)+`]`), ReasonDepthLimit},

		// The bytes around the value.
		{"bom", R, append([]byte("\xef\xbb\xbf"), resp...), ReasonBOM},
		{"bom after space", R, append([]byte(" \xef\xbb\xbf"), resp...), ReasonSyntax},
		{"utf-16 bom", R, append([]byte("\xfe\xff"), resp...), ReasonSyntax},
		{"empty", R, []byte{}, ReasonEmptyFile},
		{"whitespace only", R, []byte(" \t\r\n"), ReasonEmptyFile},
		{"NBSP only", R, []byte("\u00a0"), ReasonEmptyFile},
		{"NEL only", R, []byte("\u0085\n"), ReasonEmptyFile},
		{"leading NBSP", R, append([]byte("\u00a0"), resp...), ReasonSyntax},
		{"trailing NBSP", R, append(bytes.Clone(resp), "\u00a0"...), ReasonSyntax},
		{"trailing form feed", R, append(bytes.Clone(resp), '\f'), ReasonSyntax},
		{"trailing NUL", R, append(bytes.Clone(resp), 0), ReasonSyntax},
		{"trailing white space", R, append(append([]byte(" \r\n\t"), resp...), " \r\n\t"...), ""},
		{"trailing second value", R, append(bytes.Clone(resp), " null"...), ReasonSyntax},
		{"trailing comma", R, append(bytes.Clone(resp), ","...), ReasonSyntax},
		{"trailing comment", R, append(bytes.Clone(resp), "//x"...), ReasonSyntax},
		{"only null", R, []byte("null"), ReasonWrongType},
		{"only string", R, []byte(`"x"`), ReasonWrongType},
		{"truncated by one", R, bytes.TrimRight(resp, " \n")[:len(bytes.TrimRight(resp, " \n"))-1], ReasonSyntax},
		{"comma before close", R, rawReplace(t, resp, `"uncertainty_id": null}`, `"uncertainty_id": null,}`), ReasonSyntax},
		{"single quotes", R, rawSet(t, resp, text, `'x'`), ReasonSyntax},
		{"raw control in string", R, rawSet(t, resp, text, "\"a\tb\""), ReasonSyntax},
		{"bad escape", R, rawSet(t, resp, text, `"a\x41"`), ReasonSyntax},
		{"short unicode escape", R, rawSet(t, resp, text, `"a\u41"`), ReasonSyntax},

		// Byte-level UTF-8.
		{"overlong slash", R, rawSet(t, resp, text, "\"a\xc0\xafb\""), ReasonInvalidUTF8},
		{"overlong NUL", R, rawSet(t, resp, text, "\"a\xc0\x80b\""), ReasonInvalidUTF8},
		{"overlong three bytes", R, rawSet(t, resp, text, "\"a\xe0\x80\xafb\""), ReasonInvalidUTF8},
		{"encoded surrogate", R, rawSet(t, resp, text, "\"a\xed\xa0\x80b\""), ReasonInvalidUTF8},
		{"above U+10FFFF", R, rawSet(t, resp, text, "\"a\xf4\x90\x80\x80b\""), ReasonInvalidUTF8},
		{"lone continuation", R, rawSet(t, resp, text, "\"a\x80b\""), ReasonInvalidUTF8},
		{"truncated sequence", R, rawSet(t, resp, text, "\"a\xe2\x82\""), ReasonInvalidUTF8},
		{"invalid byte in name", R, rawReplace(t, resp, `"id": "C1", `, "\"id\xff\": \"C1\", "), ReasonInvalidUTF8},
		{"invalid byte outside strings", R, append(bytes.Clone(resp), 0xff), ReasonSyntax},
		{"U+10FFFF", R, rawSet(t, resp, text, "\"\U0010ffff\""), ""},
		{"escaped U+10FFFF", R, rawSet(t, resp, text, `"\udbff\udfff"`), ""},

		// Long input.
		{"text of a million bytes", R, rawSet(t, resp, text, quoted("x", 1<<20)), ReasonTextTooLong},
		{"a million spaces around", R, append(append(bytes.Repeat([]byte(" "), 1<<20), resp...), bytes.Repeat([]byte("\n"), 1<<20)...), ""},
		{"long unknown name", R, rawReplace(t, resp, `"id": "C1", `, `"id": "C1", `+quoted("k", 1<<16)+`: 1, `), ReasonUnknownKey},
	}
}

// TestFastPathAdversarial runs every adversarial case through both paths.
func TestFastPathAdversarial(t *testing.T) {
	runFastCases(t, adversarialCases(t))
}

// TestFastPathAdversarialRules: the responses above that the schema
// admits but the response rules refuse are refused by DecodeResponse with
// the rule's reason, on the fast path as on the reference path.
func TestFastPathAdversarialRules(t *testing.T) {
	resp, err := os.ReadFile("testdata/response_b.json")
	if err != nil {
		t.Fatal(err)
	}
	text := "/final/claims/0/text"
	for _, c := range []struct {
		name string
		data []byte
		want verr.Reason
	}{
		{"leading escaped space", rawSet(t, resp, text, `"\u0020x"`), ReasonTextNotTrimmed},
		{"trailing NEL", rawSet(t, resp, text, `"x\u0085"`), ReasonTextNotTrimmed},
		{"trailing NBSP", rawSet(t, resp, text, `"x\u00a0"`), ReasonTextNotTrimmed},
		{"leading U+2028", rawSet(t, resp, text, `"\u2028x"`), ReasonTextNotTrimmed},
		{"trailing ideographic space", rawSet(t, resp, text, `"x\u3000"`), ReasonTextNotTrimmed},
		{"only space", rawSet(t, resp, text, `" "`), ReasonTextNotTrimmed},
		{"duplicate declared id", rawSet(t, resp, "/final/claims/1/id", `"C\u0031"`), ReasonDuplicateID},
		{"path dot-dot escaped", rawSet(t, resp, "/final/citations/0/path", `"\u002e\u002e/b"`), ReasonPath},
		{"line order", rawSet(t, resp, "/final/citations/0/start_line", `9223372036854775807`), ReasonLineOrder},
		{"reconciliation null for review B", rawSet(t, resp, "/reconciliation", `null`), ReasonReconciliationRole},
		{"claims 32 repeated ids", jedit(t, resp, "/final/claims", repeat(32)), ReasonDuplicateID},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, fastErr := DecodeResponse(c.data, "f.json", RoleReviewB)
			if !errors.Is(fastErr, c.want) {
				t.Fatalf("DecodeResponse: %v, want %s", fastErr, c.want)
			}
			if !FastValid(c.data, SchemaResponse) {
				t.Fatal("the fast pass does not accept the document, so the case does not exercise it")
			}
		})
	}
	// Texts the rules keep: white space strings.TrimSpace does not trim.
	for _, raw := range []string{`"x\ufeff"`, `"x\u200b"`, `"\u200bx"`, "\"x\u2028y\""} {
		v, err := DecodeResponse(rawSet(t, resp, text, raw), "f.json", RoleReviewB)
		if err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
		var want string
		if err := json.Unmarshal([]byte(raw), &want); err != nil {
			t.Fatal(err)
		}
		if v.Final.Claims[0].Text != want {
			t.Fatalf("%s decodes to %q", raw, v.Final.Claims[0].Text)
		}
	}
}

// TestFastPathRecordOwnsItsStrings: a record the fast pass fills does not
// share memory with the input (Load reuses session file buffers after
// decoding): overwriting the input after decoding leaves the record
// deep-equal to the record of a pristine copy, for unescaped strings, for
// escaped ones and for uniqueItems arrays.
func TestFastPathRecordOwnsItsStrings(t *testing.T) {
	resp, err := os.ReadFile("testdata/response_b.json")
	if err != nil {
		t.Fatal(err)
	}
	rc := campaigntest.Receipt("S1", RoleDraft, "T1", 1, StatusResponse, "", "")
	for _, c := range []struct {
		schema string
		data   []byte
	}{
		{SchemaResponse, resp},
		{SchemaResponse, rawSet(t, resp, "/final/claims/0/text", `"esc\u00e9aped"`)},
		{SchemaResponse, rawSet(t, resp, "/final/claims/0/evidence_ids", `["E1", "E\u0032", "E3"]`)},
		{SchemaReceipt, rc},
	} {
		if !FastValid(c.data, c.schema) {
			t.Fatalf("%s: the fast pass does not accept the document", c.schema)
		}
		data := bytes.Clone(c.data)
		got := newRecord(c.schema)
		if err := DecodeStrict(data, "f.json", c.schema, got); err != nil {
			t.Fatal(err)
		}
		for i := range data {
			data[i] = 'Z'
		}
		want := newRecord(c.schema)
		if err := DecodeReference(c.data, "f.json", c.schema, want); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: the record changed with its input:\n%+v\nwant %+v", c.schema, got, want)
		}
	}
}
