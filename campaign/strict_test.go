package campaign

import (
	"errors"
	"os"
	"strconv"
	"strings"
	"testing"
	"verdict/verr"
)

func validResponseB(t testing.TB) string {
	t.Helper()
	b, err := os.ReadFile("testdata/response_b.json")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// validResponseA is the B answer with reconciliation null.
func validResponseA(t testing.TB) string {
	s := validResponseB(t)
	i := strings.Index(s, `"reconciliation": {`)
	return s[:i] + `"reconciliation": null}`
}

func TestDecodeResponseValid(t *testing.T) {
	r, err := DecodeResponse([]byte(validResponseB(t)), "responses/S3.json", RoleReviewB)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Final.Claims) != 2 || r.Reconciliation == nil || len(r.Reconciliation.EvidenceDispositions) != 2 {
		t.Fatalf("decoded %+v", r)
	}
	for _, role := range []Role{RoleDraft, RoleReviewA} {
		if _, err := DecodeResponse([]byte(validResponseA(t)), "responses/S1.json", role); err != nil {
			t.Fatalf("%s: %v", role, err)
		}
	}
}

type refusalCase struct {
	name    string
	role    Role
	mutate  func(string) string
	reason  verr.Reason
	pointer string
}

func replace(old, new string) func(string) string {
	return func(s string) string {
		if !strings.Contains(s, old) {
			panic("fixture lacks " + old)
		}
		return strings.Replace(s, old, new, 1)
	}
}

func constant(s string) func(string) string { return func(string) string { return s } }

func TestDecodeResponseRefusals(t *testing.T) {
	deep := strings.Repeat("[", 10000) + strings.Repeat("]", 10000)
	deepObj := strings.Repeat(`{"a":`, 10000) + "1" + strings.Repeat("}", 10000)
	long := strings.Repeat("é", MaxTextScalars+1)
	claim := `{"id": "C%d", "text": "t", "status": "inference", "evidence_ids": [], "uncertainty_id": null}`
	many := func(n int) string {
		var parts []string
		for i := 1; i <= n; i++ {
			parts = append(parts, strings.Replace(claim, "%d", itoa(i), 1))
		}
		return strings.Join(parts, ",")
	}
	cases := []refusalCase{
		{"empty", RoleReviewB, constant(""), ReasonEmptyFile, ""},
		{"whitespace", RoleReviewB, constant(" \n"), ReasonEmptyFile, ""},
		{"bom", RoleReviewB, func(s string) string { return "\ufeff" + s }, ReasonBOM, ""},
		{"syntax", RoleReviewB, constant(`{"final":`), ReasonSyntax, "/final"},
		{"trailing", RoleReviewB, func(s string) string { return s + "{}" }, ReasonSyntax, ""},
		{"duplicate key", RoleReviewB, replace(`"final": {`, `"final": {"claims": [],`), ReasonDuplicateKey, "/final/claims"},
		{"unknown key", RoleReviewB, replace(`"final": {`, `"final": {"confidence": 1,`), ReasonUnknownKey, "/final/confidence"},
		{"missing nullable key", RoleReviewB, replace(`, "verification_limitation": null`, ``), ReasonMissingKey, "/final/implementation_plan/0/verification_limitation"},
		{"invalid utf8", RoleReviewB, replace(`SYNTHETIC: parseQuery`, "SYNTHETIC: \xffparseQuery"), ReasonInvalidUTF8, "/final/claims/0/text"},
		{"lone surrogate", RoleReviewB, replace(`SYNTHETIC: parseQuery`, `SYNTHETIC: \ud800parseQuery`), ReasonLoneSurrogate, "/final/claims/0/text"},
		{"huge number", RoleReviewB, replace(`"start_line": 3`, `"start_line": 1e400`), ReasonNumberRange, "/final/citations/0/start_line"},
		{"int64 overflow", RoleReviewB, replace(`"start_line": 3`, `"start_line": 99999999999999999999`), ReasonNumberRange, "/final/citations/0/start_line"},
		{"negative zero line", RoleReviewB, replace(`"start_line": 3`, `"start_line": -0`), ReasonNegativeZero, "/final/citations/0/start_line"},
		{"fractional line", RoleReviewB, replace(`"start_line": 3`, `"start_line": 3.5`), ReasonNonInteger, "/final/citations/0/start_line"},
		{"integral float line", RoleReviewB, replace(`"start_line": 3`, `"start_line": 3.0`), ReasonNonInteger, "/final/citations/0/start_line"},
		{"deep arrays", RoleReviewB, constant(deep), ReasonDepthLimit, strings.Repeat("/0", MaxDepth)},
		{"deep objects", RoleReviewB, constant(deepObj), ReasonDepthLimit, strings.Repeat("/a", MaxDepth)},
		{"wrong type", RoleReviewB, replace(`"evidence_ids": ["E2"]}`, `"evidence_ids": "E2"}`), ReasonWrongType, "/final/exclusions/0/evidence_ids"},
		{"enum", RoleReviewB, replace(`"status": "source_backed"`, `"status": "proved"`), ReasonEnum, "/final/claims/0/status"},
		{"text empty", RoleReviewB, replace(`"text": "Explain empty input handling."`, `"text": ""`), ReasonTextEmpty, "/reconciliation/obligations/0/text"},
		{"text not trimmed", RoleReviewB, replace(`"reason": "Logging`, `"reason": " Logging`), ReasonTextNotTrimmed, "/final/exclusions/0/reason"},
		{"text only space", RoleReviewB, replace(`"reason": "Logging does not affect query parsing."`, `"reason": "\t"`), ReasonTextNotTrimmed, "/final/exclusions/0/reason"},
		{"text nbsp", RoleReviewB, replace(`"reason": "Logging does not affect query parsing."`, `"reason": "Logging\u00a0"`), ReasonTextNotTrimmed, "/final/exclusions/0/reason"},
		{"text too long", RoleReviewB, replace(`"consequence": "The timeout bound cannot be stated."`, `"consequence": "`+long+`"`), ReasonTextTooLong, "/final/uncertainties/0/consequence"},
		{"nullable text not trimmed", RoleReviewB, replace(`"verification_limitation": null`, `"verification_limitation": "none "`), ReasonTextNotTrimmed, "/final/implementation_plan/0/verification_limitation"},
		{"id leading zero", RoleReviewB, replace(`"id": "A1"`, `"id": "A01"`), ReasonIDGrammar, "/final/implementation_plan/0/id"},
		{"id zero", RoleReviewB, replace(`"id": "V1"`, `"id": "V0"`), ReasonIDGrammar, "/final/verification_plan/0/id"},
		{"id wrong prefix", RoleReviewB, replace(`"id": "U1"`, `"id": "C3"`), ReasonIDGrammar, "/final/uncertainties/0/id"},
		{"id lowercase", RoleReviewB, replace(`"id": "X1"`, `"id": "x1"`), ReasonIDGrammar, "/final/exclusions/0/id"},
		{"obligation id", RoleReviewB, replace(`"id": "O1"`, `"id": "OB1"`), ReasonIDGrammar, "/reconciliation/obligations/0/id"},
		{"evidence id", RoleReviewB, replace(`"evidence_id": "E1", "path"`, `"evidence_id": "E-1", "path"`), ReasonIDGrammar, "/final/citations/0/evidence_id"},
		{"supports U id", RoleReviewB, replace(`"supports": ["C1", "A1", "V1"]`, `"supports": ["U1"]`), ReasonIDGrammar, "/final/citations/0/supports/0"},
		{"duplicate id", RoleReviewB, replace(`"id": "C2"`, `"id": "C1"`), ReasonDuplicateID, "/final/claims/1/id"},
		{"repeated string", RoleReviewB, replace(`"supports": ["C1", "A1", "V1"]`, `"supports": ["C1", "A1", "C1"]`), ReasonRepeatedString, "/final/citations/0/supports/2"},
		{"empty supports", RoleReviewB, replace(`"supports": ["C1", "A1", "V1"]`, `"supports": []`), ReasonArrayTooShort, "/final/citations/0/supports"},
		{"empty final_ids", RoleReviewB, replace(`"final_ids": ["X1"]`, `"final_ids": []`), ReasonArrayTooShort, "/reconciliation/evidence_dispositions/1/final_ids"},
		{"path absolute", RoleReviewB, replace(`"path": "src/query.ts"`, `"path": "/src/query.ts"`), ReasonPath, "/final/citations/0/path"},
		{"path dotdot", RoleReviewB, replace(`"path": "src/query.ts"`, `"path": "src/../query.ts"`), ReasonPath, "/final/citations/0/path"},
		{"path empty segment", RoleReviewB, replace(`"path": "src/query.ts"`, `"path": "src//query.ts"`), ReasonPath, "/final/citations/0/path"},
		{"path empty", RoleReviewB, replace(`"path": "src/query.ts"`, `"path": ""`), ReasonPath, "/final/citations/0/path"},
		{"line zero", RoleReviewB, replace(`"start_line": 3`, `"start_line": 0`), ReasonLineNotPositive, "/final/citations/0/start_line"},
		{"line negative", RoleReviewB, replace(`"end_line": 5`, `"end_line": -5`), ReasonLineNotPositive, "/final/citations/0/end_line"},
		{"line order", RoleReviewB, replace(`"start_line": 3`, `"start_line": 9`), ReasonLineOrder, "/final/citations/0/start_line"},
		{"claims over maximum", RoleReviewB, replace(`"claims": [`, `"claims": [`+many(33)+`,`), ReasonArrayTooLong, "/final/claims"},
		{"reconciliation for B null", RoleReviewB, func(string) string { return validResponseA(t) }, ReasonReconciliationRole, "/reconciliation"},
		{"reconciliation for A present", RoleReviewA, func(s string) string { return s }, ReasonReconciliationRole, "/reconciliation"},
		{"reconciliation for D present", RoleDraft, func(s string) string { return s }, ReasonReconciliationRole, "/reconciliation"},
		{"unknown role", Role("review-c"), func(string) string { return validResponseA(t) }, ReasonUnknownRole, ""},
		{"top-level array", RoleReviewB, constant(`[]`), ReasonWrongType, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			data := c.mutate(validResponseB(t))
			r, err := DecodeResponse([]byte(data), "responses/S9.json", c.role)
			if err == nil {
				t.Fatalf("accepted: %+v", r)
			}
			if !errors.Is(err, c.reason) {
				t.Fatalf("got %v, want reason %s", err, c.reason)
			}
			var e *verr.Error
			if !errors.As(err, &e) || e.File != "responses/S9.json" || e.Pointer != c.pointer || e.Rule == "" {
				t.Fatalf("got %#v, want pointer %q", e, c.pointer)
			}
		})
	}
}

func TestObligationsBounds(t *testing.T) {
	s := validResponseB(t)
	i := strings.Index(s, `"obligations": [`)
	j := strings.Index(s, `"evidence_dispositions"`)
	empty := s[:i] + `"obligations": [], ` + s[j:]
	if _, err := DecodeResponse([]byte(empty), "r.json", RoleReviewB); !errors.Is(err, ReasonArrayTooShort) {
		t.Fatalf("empty obligations: %v", err)
	}
	var obs []string
	for n := 1; n <= 17; n++ {
		obs = append(obs, `{"id": "O`+itoa(n)+`", "text": "t", "basis": "task", "status": "unresolved", "evidence_ids": [], "final_ids": ["U1"]}`)
	}
	over := s[:i] + `"obligations": [` + strings.Join(obs, ",") + `], ` + s[j:]
	_, err := DecodeResponse([]byte(over), "r.json", RoleReviewB)
	if !errors.Is(err, ReasonArrayTooLong) {
		t.Fatalf("17 obligations: %v", err)
	}
	sixteen := s[:i] + `"obligations": [` + strings.Join(obs[:16], ",") + `], ` + s[j:]
	if _, err := DecodeResponse([]byte(sixteen), "r.json", RoleReviewB); err != nil {
		t.Fatalf("16 obligations: %v", err)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
