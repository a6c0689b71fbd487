package campaign_test

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"

	. "verdict/campaign"
	"verdict/internal/campaigntest"
	"verdict/verr"
)

var updateRules = flag.Bool("update-rules", false, "rewrite testdata/rules.golden from the current rules")

// ruleCase is one record broken in one or more places, with the first
// refusal the rules make of it.
type ruleCase struct {
	name string
	err  error
}

// responseRuleCases breaks a decoded response (testdata/response_b.json,
// or maxResponse) in Go, below the schema, once for each response rule
// and each pointer shape, and a few times in several places at once (the
// first refusal in document order wins).
func responseRuleCases(t *testing.T) []ruleCase {
	raw, err := os.ReadFile("testdata/response_b.json")
	if err != nil {
		t.Fatal(err)
	}
	base := func() *Response {
		v, err := DecodeResponse(raw, "f.json", RoleReviewB)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	s := func(x string) *string { return &x }
	many := func(prefix string, n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = fmt.Sprintf("%s%d", prefix, i+1)
		}
		return out
	}
	type edit struct {
		name string
		role Role
		f    func(v *Response)
	}
	edits := []edit{
		{"clean", RoleReviewB, func(*Response) {}},
		{"clean maximum", RoleReviewB, func(v *Response) { *v = *maxResponse() }},
		{"draft with reconciliation", RoleDraft, func(*Response) {}},
		{"review-a with reconciliation", RoleReviewA, func(*Response) {}},
		{"review-b without reconciliation", RoleReviewB, func(v *Response) { v.Reconciliation = nil }},
		{"unknown role", "other", func(*Response) {}},
		{"claims 33", RoleReviewB, func(v *Response) {
			v.Final.Claims = maxResponse().Final.Claims
			v.Final.Claims = append(v.Final.Claims, v.Final.Claims[0])
		}},
		{"implementation plan 33", RoleReviewB, func(v *Response) {
			v.Final.ImplementationPlan = append(maxResponse().Final.ImplementationPlan, v.Final.ImplementationPlan[0])
		}},
		{"verification plan 33", RoleReviewB, func(v *Response) {
			v.Final.VerificationPlan = append(maxResponse().Final.VerificationPlan, v.Final.VerificationPlan[0])
		}},
		{"uncertainties 33", RoleReviewB, func(v *Response) {
			v.Final.Uncertainties = append(maxResponse().Final.Uncertainties, v.Final.Uncertainties[0])
		}},
		{"exclusions 65", RoleReviewB, func(v *Response) { v.Final.Exclusions = append(maxResponse().Final.Exclusions, v.Final.Exclusions[0]) }},
		{"citations 129", RoleReviewB, func(v *Response) { v.Final.Citations = append(maxResponse().Final.Citations, v.Final.Citations[0]) }},
		{"claim id grammar", RoleReviewB, func(v *Response) { v.Final.Claims[0].ID = "C0" }},
		{"claim id duplicate", RoleReviewB, func(v *Response) { v.Final.Claims[1].ID = "C1" }},
		{"claim id third of three", RoleReviewB, func(v *Response) {
			v.Final.Claims = append(v.Final.Claims, v.Final.Claims[0])
			v.Final.Claims[1].ID = "C3"
		}},
		{"claim id bad and duplicate", RoleReviewB, func(v *Response) { v.Final.Claims[0].ID, v.Final.Claims[1].ID = "c1", "c1" }},
		{"claim text empty", RoleReviewB, func(v *Response) { v.Final.Claims[1].Text = "" }},
		{"claim text not trimmed", RoleReviewB, func(v *Response) { v.Final.Claims[0].Text = "x\n" }},
		{"claim text too long", RoleReviewB, func(v *Response) { v.Final.Claims[0].Text = strings.Repeat("é", 2049) }},
		{"claim evidence grammar", RoleReviewB, func(v *Response) { v.Final.Claims[0].EvidenceIDs = []string{"E1", "E01"} }},
		{"claim evidence repeated", RoleReviewB, func(v *Response) { v.Final.Claims[0].EvidenceIDs = []string{"E1", "E2", "E1"} }},
		{"claim evidence repeated in a long array", RoleReviewB, func(v *Response) {
			v.Final.Claims[0].EvidenceIDs = append(many("E", 200), "E150", "E7")
		}},
		{"claim evidence long array clean", RoleReviewB, func(v *Response) { v.Final.Claims[0].EvidenceIDs = many("E", 300) }},
		{"claim uncertainty grammar", RoleReviewB, func(v *Response) { v.Final.Claims[0].UncertaintyID = s("V1") }},
		{"action id duplicate", RoleReviewB, func(v *Response) {
			v.Final.ImplementationPlan = append(v.Final.ImplementationPlan, v.Final.ImplementationPlan[0])
		}},
		{"action id grammar", RoleReviewB, func(v *Response) { v.Final.ImplementationPlan[0].ID = "B1" }},
		{"action text", RoleReviewB, func(v *Response) { v.Final.ImplementationPlan[0].Action = " a" }},
		{"action rationale", RoleReviewB, func(v *Response) { v.Final.ImplementationPlan[0].Rationale = "" }},
		{"action evidence", RoleReviewB, func(v *Response) { v.Final.ImplementationPlan[0].EvidenceIDs = []string{"E1", "E1"} }},
		{"action verification ids", RoleReviewB, func(v *Response) { v.Final.ImplementationPlan[0].VerificationIDs = []string{"V1", "U1"} }},
		{"action limitation", RoleReviewB, func(v *Response) { v.Final.ImplementationPlan[0].VerificationLimitation = s("\tx") }},
		{"verification id duplicate", RoleReviewB, func(v *Response) {
			v.Final.VerificationPlan = append(v.Final.VerificationPlan, v.Final.VerificationPlan[0])
		}},
		{"verification behavior", RoleReviewB, func(v *Response) { v.Final.VerificationPlan[0].ExpectedBehavior = "" }},
		{"verification method", RoleReviewB, func(v *Response) { v.Final.VerificationPlan[0].Method = "m " }},
		{"verification evidence", RoleReviewB, func(v *Response) { v.Final.VerificationPlan[0].EvidenceIDs = []string{"X1"} }},
		{"verification uncertainty", RoleReviewB, func(v *Response) { v.Final.VerificationPlan[0].UncertaintyID = s("U0") }},
		{"uncertainty id duplicate", RoleReviewB, func(v *Response) { v.Final.Uncertainties = append(v.Final.Uncertainties, v.Final.Uncertainties[0]) }},
		{"uncertainty missing information", RoleReviewB, func(v *Response) { v.Final.Uncertainties[0].MissingInformation = "" }},
		{"uncertainty consequence", RoleReviewB, func(v *Response) { v.Final.Uncertainties[0].Consequence = " " }},
		{"uncertainty step", RoleReviewB, func(v *Response) { v.Final.Uncertainties[0].VerificationStep = strings.Repeat("😀", 2049) }},
		{"exclusion id duplicate", RoleReviewB, func(v *Response) { v.Final.Exclusions = append(v.Final.Exclusions, v.Final.Exclusions[0]) }},
		{"exclusion scope", RoleReviewB, func(v *Response) { v.Final.Exclusions[0].ScopeItem = "" }},
		{"exclusion reason", RoleReviewB, func(v *Response) { v.Final.Exclusions[0].Reason = "r\n" }},
		{"exclusion evidence", RoleReviewB, func(v *Response) { v.Final.Exclusions[0].EvidenceIDs = []string{"E2", "E2"} }},
		{"citation evidence id", RoleReviewB, func(v *Response) { v.Final.Citations[0].EvidenceID = "C1" }},
		{"citation path empty", RoleReviewB, func(v *Response) { v.Final.Citations[0].Path = "" }},
		{"citation path absolute", RoleReviewB, func(v *Response) { v.Final.Citations[0].Path = "/src/a.go" }},
		{"citation path empty segment", RoleReviewB, func(v *Response) { v.Final.Citations[0].Path = "src//a.go" }},
		{"citation path trailing slash", RoleReviewB, func(v *Response) { v.Final.Citations[0].Path = "src/" }},
		{"citation path dot-dot", RoleReviewB, func(v *Response) { v.Final.Citations[0].Path = "src/../../a.go" }},
		{"citation path dot allowed", RoleReviewB, func(v *Response) { v.Final.Citations[0].Path = "./src/a\\b.go" }},
		{"citation start line", RoleReviewB, func(v *Response) { v.Final.Citations[0].StartLine = 0 }},
		{"citation end line", RoleReviewB, func(v *Response) { v.Final.Citations[0].EndLine = -2 }},
		{"citation both lines", RoleReviewB, func(v *Response) { v.Final.Citations[0].StartLine, v.Final.Citations[0].EndLine = 0, 0 }},
		{"citation line order", RoleReviewB, func(v *Response) { v.Final.Citations[0].StartLine = 9 }},
		{"citation supports empty", RoleReviewB, func(v *Response) { v.Final.Citations[0].Supports = nil }},
		{"citation supports grammar", RoleReviewB, func(v *Response) { v.Final.Citations[0].Supports = []string{"C1", "U1"} }},
		{"citation supports repeated", RoleReviewB, func(v *Response) { v.Final.Citations[0].Supports = []string{"C1", "A1", "C1"} }},
		{"obligations none", RoleReviewB, func(v *Response) { v.Reconciliation.Obligations = nil }},
		{"obligations 17", RoleReviewB, func(v *Response) {
			v.Reconciliation.Obligations = append(maxResponse().Reconciliation.Obligations, v.Reconciliation.Obligations[0])
		}},
		{"obligation id duplicate", RoleReviewB, func(v *Response) {
			v.Reconciliation.Obligations = append(v.Reconciliation.Obligations, v.Reconciliation.Obligations[0])
		}},
		{"obligation id grammar", RoleReviewB, func(v *Response) { v.Reconciliation.Obligations[0].ID = "O" }},
		{"obligation text", RoleReviewB, func(v *Response) { v.Reconciliation.Obligations[0].Text = "" }},
		{"obligation evidence", RoleReviewB, func(v *Response) { v.Reconciliation.Obligations[0].EvidenceIDs = []string{"E1", "E1"} }},
		{"obligation final ids empty", RoleReviewB, func(v *Response) { v.Reconciliation.Obligations[0].FinalIDs = []string{} }},
		{"obligation final ids grammar", RoleReviewB, func(v *Response) { v.Reconciliation.Obligations[0].FinalIDs = []string{"O1"} }},
		{"obligation final ids repeated", RoleReviewB, func(v *Response) { v.Reconciliation.Obligations[0].FinalIDs = []string{"U1", "U1"} }},
		{"disposition evidence id", RoleReviewB, func(v *Response) { v.Reconciliation.EvidenceDispositions[1].EvidenceID = "E" }},
		{"disposition final ids empty", RoleReviewB, func(v *Response) { v.Reconciliation.EvidenceDispositions[1].FinalIDs = nil }},
		{"disposition final ids repeated", RoleReviewB, func(v *Response) { v.Reconciliation.EvidenceDispositions[0].FinalIDs = []string{"C1", "X1", "C1"} }},
		{"first of many: claim before citation", RoleReviewB, func(v *Response) {
			v.Final.Citations[0].Path = "/x"
			v.Final.Claims[1].Text = " t"
		}},
		{"first of many: within one claim", RoleReviewB, func(v *Response) {
			v.Final.Claims[0].UncertaintyID = s("X9")
			v.Final.Claims[0].EvidenceIDs = []string{"E1", "E1"}
			v.Final.Claims[0].Text = ""
		}},
		{"first of many: bounds before records", RoleReviewB, func(v *Response) {
			v.Final.Claims[0].Text = ""
			v.Final.Citations = append(maxResponse().Final.Citations, v.Final.Citations[0])
		}},
		{"first of many: role before everything", RoleDraft, func(v *Response) { v.Final.Claims[0].ID = "C0" }},
	}
	var out []ruleCase
	for _, e := range edits {
		v := base()
		e.f(v)
		out = append(out, ruleCase{"response " + e.name, ResponseRulesErr(v, e.role)})
	}
	return out
}

// fileRuleCases breaks the manifest, a packet, a truth file and a receipt
// of a generated campaign in JSON, once for each of their Go rules, and
// decodes them.
func fileRuleCases(t *testing.T) []ruleCase {
	camp := campaigntest.Campaign(t, campaigntest.Options{}, 2, 2)
	man, pkt, tru := camp[ManifestFile].Data, camp[PacketPath("T1")].Data, camp[TruthPath("T1")].Data
	rc := campaigntest.Receipt("S1", RoleDraft, "T1", 1, StatusResponse, "", "")
	var out []ruleCase
	add := func(name string, err error) { out = append(out, ruleCase{name, err}) }
	manifest := func(name, p string, f func(any) any) {
		_, err := DecodeManifest(jedit(t, man, p, f), ManifestFile)
		add("manifest "+name, err)
	}
	packet := func(name, p string, f func(any) any) {
		_, err := DecodePacket(jedit(t, pkt, p, f), "p.json")
		add("packet "+name, err)
	}
	truth := func(name, p string, f func(any) any) {
		_, err := DecodeTruth(jedit(t, tru, p, f), "t.json")
		add("truth "+name, err)
	}
	receipt := func(name, p string, f func(any) any) {
		_, err := DecodeReceipt(jedit(t, rc, p, f), "r.json")
		add("receipt "+name, err)
	}
	field := func(k string, x any) func(any) any {
		return func(v any) any { v.(map[string]any)[k] = x; return v }
	}
	manifest("clean", "/campaign_id", func(v any) any { return v })
	manifest("campaign id not trimmed", "/campaign_id", set(" c"))
	manifest("model not trimmed", "/execution/model", set("m "))
	manifest("host not trimmed", "/execution/host", set("\th"))
	manifest("prompt path dot", "/prompts/draft", set("prompts/./draft.txt"))
	manifest("prompt path backslash", "/prompts/common", set(`prompts\common.txt`))
	manifest("task id duplicate", "/tasks/1/id", set("T1"))
	manifest("run unknown task", "/runs/0/task", set("T9"))
	manifest("run repetition duplicate", "/runs/1/repetition", set(json.Number("1")))
	manifest("run replaces unknown", "/runs/1", field("replaces", "S99"))
	manifest("session duplicate", "/runs/1/sessions/review_a", set("S1"))
	manifest("session duplicate within run", "/runs/0/sessions/review_b", set("S1"))
	manifest("file duplicate", "/files/1/path", func(any) any {
		var m map[string]any
		json.Unmarshal(jedit(t, man, "/files/0/path", func(v any) any { return v }), &m)
		return m["files"].([]any)[0].(map[string]any)["path"]
	})
	manifest("file path dot-dot", "/files/0/path", set("../x"))
	packet("clean", "/task", func(v any) any { return v })
	packet("item id duplicate", "/items/1/id", set("E1"))
	packet("item path dot", "/items/0/path", set("./a.go"))
	packet("item line order", "/items/0/start_line", set(json.Number("900")))
	truth("clean", "/task", func(v any) any { return v })
	truth("obligation id duplicate", "/obligations/2/id", set("O1"))
	truth("text not trimmed", "/obligations/0/text", set("t "))
	truth("alternative not trimmed", "/obligations/1/accepted_alternatives", set([]any{"ok", " alt"}))
	truth("exclusion not trimmed", "/obligations/1/justified_exclusions", set([]any{"x\n"}))
	truth("verification not trimmed", "/obligations/1/required_verification", set(" v"))
	truth("justification not trimmed", "/obligations/3/source_justification", set("j "))
	truth("too few answerable", "/obligations", func(v any) any {
		for _, o := range v.([]any) {
			o.(map[string]any)["answerable"] = false
		}
		return v
	})
	receipt("clean", "/task", func(v any) any { return v })
	receipt("model not trimmed", "/model", set(" m"))
	receipt("permission policy not trimmed", "/permission_policy", set("p "))
	return out
}

// TestRuleRefusalsGolden: every refusal of the Go rules of each file kind
// keeps its reason, pointer, rule and detail text byte for byte
// (testdata/rules.golden; -update-rules rewrites it).
func TestRuleRefusalsGolden(t *testing.T) {
	var b strings.Builder
	for _, c := range append(responseRuleCases(t), fileRuleCases(t)...) {
		fmt.Fprintf(&b, "%s\n", c.name)
		var e *verr.Error
		switch {
		case c.err == nil:
			b.WriteString("\taccepted\n")
		case errors.As(c.err, &e):
			fmt.Fprintf(&b, "\t%s %s %q\n\t%s\n\t%s\n", e.Reason, e.File, e.Pointer, e.Rule, e.Detail)
		default:
			t.Fatalf("%s: refusal %v is not a *verr.Error", c.name, c.err)
		}
	}
	const golden = "testdata/rules.golden"
	if *updateRules {
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got := b.String(); got != string(want) {
		t.Fatalf("rule refusals differ from %s:\n%s", golden, lineDiff(string(want), got))
	}
}

// lineDiff lists the lines of got that differ from want.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	for i := range max(len(w), len(g)) {
		var a, c string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			c = g[i]
		}
		if a != c {
			fmt.Fprintf(&b, "line %d\n  want %s\n  got  %s\n", i+1, a, c)
		}
	}
	return b.String()
}

// TestResponseRulesAllocateNothing: the response rules accept a clean
// maximum-size response (maxResponse: every array at its maximum, ID
// arrays of up to 32 entries) without allocating, and the example
// response too; a refusal is rendered only when one is made.
func TestResponseRulesAllocateNothing(t *testing.T) {
	raw, err := os.ReadFile("testdata/response_b.json")
	if err != nil {
		t.Fatal(err)
	}
	example, err := DecodeResponse(raw, "f.json", RoleReviewB)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []*Response{maxResponse(), example} {
		if err := ResponseRulesErr(v, RoleReviewB); err != nil {
			t.Fatalf("refused: %v", err)
		}
		if n := testing.AllocsPerRun(50, func() { _ = ResponseRulesErr(v, RoleReviewB) }); n != 0 {
			t.Fatalf("the rules allocate %v times on a clean response of %d claims", n, len(v.Final.Claims))
		}
	}
}
