package campaign_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"

	. "verdict/campaign"
)

// maxResponse returns a SYNTHETIC review-b response at every array maximum
// of the final answer and of B's ledger (PROMPTS.md), with twelve evidence
// IDs per evidence array, texts of 200 characters and every record
// accepted by the rules.
func maxResponse() *Response {
	text := func(kind string, i int) string {
		s := fmt.Sprintf("SYNTHETIC %s %d: ", kind, i+1)
		return s + strings.Repeat("x", 200-len(s))
	}
	ids := func(prefix string, n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = fmt.Sprintf("%s%d", prefix, i+1)
		}
		return out
	}
	u := "U1"
	var f Final
	for i := range MaxClaims {
		f.Claims = append(f.Claims, Claim{ID: fmt.Sprintf("C%d", i+1), Text: text("claim", i), Status: ClaimSourceBacked,
			EvidenceIDs: ids("E", 12), UncertaintyID: &u})
	}
	for i := range MaxImplementationPlan {
		f.ImplementationPlan = append(f.ImplementationPlan, Action{ID: fmt.Sprintf("A%d", i+1), Action: text("action", i),
			Rationale: text("rationale", i), SupportBasis: BasisSource, EvidenceIDs: ids("E", 12), VerificationIDs: ids("V", MaxVerificationPlan)})
	}
	for i := range MaxVerificationPlan {
		f.VerificationPlan = append(f.VerificationPlan, Verification{ID: fmt.Sprintf("V%d", i+1), ExpectedBehavior: text("behavior", i),
			Method: text("method", i), SupportBasis: BasisSource, EvidenceIDs: ids("E", 12), UncertaintyID: &u})
	}
	for i := range MaxUncertainties {
		f.Uncertainties = append(f.Uncertainties, Uncertainty{ID: fmt.Sprintf("U%d", i+1), MissingInformation: text("missing", i),
			Consequence: text("consequence", i), VerificationStep: text("step", i)})
	}
	for i := range MaxExclusions {
		f.Exclusions = append(f.Exclusions, Exclusion{ID: fmt.Sprintf("X%d", i+1), ScopeItem: text("scope", i),
			Reason: text("reason", i), EvidenceIDs: ids("E", 12)})
	}
	for i := range MaxCitations {
		f.Citations = append(f.Citations, Citation{EvidenceID: fmt.Sprintf("E%d", i%12+1), Path: "src/pkg/file.go",
			StartLine: i + 1, EndLine: i + 3, Supports: []string{"C1", "A1", "V1", "X1"}})
	}
	rec := &Reconciliation{}
	for i := range MaxLedgerObligations {
		rec.Obligations = append(rec.Obligations, LedgerObligation{ID: fmt.Sprintf("O%d", i+1), Text: text("obligation", i),
			Basis: "task", Status: ObligationAddressed, EvidenceIDs: ids("E", 12), FinalIDs: append(ids("C", 16), ids("A", 16)...)})
	}
	for i := range 12 {
		rec.EvidenceDispositions = append(rec.EvidenceDispositions, Disposition{EvidenceID: fmt.Sprintf("E%d", i+1),
			Status: DispositionUsed, FinalIDs: ids("C", 8)})
	}
	return &Response{Final: f, Reconciliation: rec}
}

// maxResponseJSON is maxResponse as indented JSON.
func maxResponseJSON(tb testing.TB) []byte {
	b, err := json.MarshalIndent(maxResponse(), "", "  ")
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := DecodeResponse(b, "responses/S1.json", RoleReviewB); err != nil {
		tb.Fatalf("the maximum response is refused: %v", err)
	}
	return b
}

// BenchmarkDecodeResponse decodes one maximum-size review-b response
// (maxResponse, about 200 KB) with DecodeResponse: the strict JSON layer,
// the schema and the response rules. cpu-ns/op is the process CPU time
// per decode.
func BenchmarkDecodeResponse(b *testing.B) {
	data := maxResponseJSON(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	cpu := cpuTime()
	for b.Loop() {
		if _, err := DecodeResponse(data, "responses/S1.json", RoleReviewB); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, cpu)
}

// BenchmarkTokenizeResponse reads the same bytes as BenchmarkDecodeResponse
// token by token with jsontext and nothing else: the floor a strict
// streaming decoder cannot go below.
func BenchmarkTokenizeResponse(b *testing.B) {
	data := maxResponseJSON(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	dec := jsontext.NewDecoder(bytes.NewReader(nil))
	cpu := cpuTime()
	for b.Loop() {
		dec.Reset(bytes.NewReader(data))
		for {
			if _, err := dec.ReadToken(); err == io.EOF {
				break
			} else if err != nil {
				b.Fatal(err)
			}
		}
	}
	reportCPU(b, cpu)
}

// reportCPU reports the process CPU time per iteration since start.
func reportCPU(b *testing.B, start int64) {
	if start >= 0 && b.N > 0 {
		b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
	}
}
