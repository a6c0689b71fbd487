package scorer

import (
	"errors"
	"slices"
	"testing"

	"verdict/campaign"
	"verdict/verr"
)

// SYNTHETIC test data: a three-item packet and a structurally valid review
// B response. Each test breaks one rule and asserts exactly its own code.

func ptr(s string) *string { return &s }

func testPacket() *campaign.Packet {
	item := func(id, path string, start, end int, excerpt string) campaign.EvidenceItem {
		return campaign.EvidenceItem{ID: id, Repository: "synthetic/shop", Commit: "0123456789abcdef0123456789abcdef01234567",
			Path: path, StartLine: start, EndLine: end, FileSHA256: "00", Excerpt: excerpt}
	}
	return &campaign.Packet{Task: "T1", Items: []campaign.EvidenceItem{
		item("E1", "src/cart.ts", 10, 12, "export function total(items: Item[]) {\n  return items.reduce(add, 0);\n}\n"),
		item("E2", "src/add.ts", 1, 3, "export function add(a: number, i: Item) {\n  return a + i.price;\n}"),
		item("E3", "README.md", 5, 6, "Prices are in cents.\nTaxes are out of scope.\n"),
	}}
}

// validResponse is a review B answer that satisfies every structural rule.
func validResponse() *campaign.Response {
	return &campaign.Response{
		Final: campaign.Final{
			Claims: []campaign.Claim{
				{ID: "C1", Text: "total sums item prices with reduce.", Status: campaign.ClaimSourceBacked, EvidenceIDs: []string{"E1"}},
				{ID: "C2", Text: "An empty cart totals 0.", Status: campaign.ClaimInference, EvidenceIDs: []string{"E1", "E2"}},
				{ID: "C3", Text: "Whether prices can be negative is unknown.", Status: campaign.ClaimUnknown, UncertaintyID: ptr("U1")},
			},
			ImplementationPlan: []campaign.Action{
				{ID: "A1", Action: "Reject negative prices in add.", Rationale: "add trusts price.", SupportBasis: campaign.BasisSource,
					EvidenceIDs: []string{"E2"}, VerificationIDs: []string{"V1"}},
				{ID: "A2", Action: "Document the cents unit.", Rationale: "The task asks for documentation.", SupportBasis: campaign.BasisTask,
					VerificationLimitation: ptr("Documentation wording cannot be tested mechanically.")},
			},
			VerificationPlan: []campaign.Verification{
				{ID: "V1", ExpectedBehavior: "add throws on a negative price.", Method: "Unit test add.", SupportBasis: campaign.BasisSource,
					EvidenceIDs: []string{"E2"}},
				{ID: "V2", ExpectedBehavior: "Callers never pass negative prices.", Method: "Search callers.", SupportBasis: campaign.BasisMissingSource,
					UncertaintyID: ptr("U1")},
			},
			Uncertainties: []campaign.Uncertainty{
				{ID: "U1", MissingInformation: "The price producer is not in the packet.", Consequence: "Negative prices may occur.", VerificationStep: "Read the price producer."},
			},
			Exclusions: []campaign.Exclusion{
				{ID: "X1", ScopeItem: "Taxes", Reason: "The README puts taxes out of scope.", EvidenceIDs: []string{"E3"}},
			},
			Citations: []campaign.Citation{
				{EvidenceID: "E1", Path: "src/cart.ts", StartLine: 10, EndLine: 12, Supports: []string{"C1", "C2"}},
				{EvidenceID: "E2", Path: "src/add.ts", StartLine: 2, EndLine: 2, Supports: []string{"A1", "V1"}},
			},
		},
		Reconciliation: &campaign.Reconciliation{
			Obligations: []campaign.LedgerObligation{
				{ID: "O1", Text: "Explain total.", Basis: campaign.BasisSource, Status: campaign.ObligationAddressed, EvidenceIDs: []string{"E1"}, FinalIDs: []string{"C1", "V1"}},
				{ID: "O2", Text: "Document units.", Basis: campaign.BasisTask, Status: campaign.ObligationAddressed, FinalIDs: []string{"A2"}},
				{ID: "O3", Text: "Negative prices.", Basis: campaign.BasisTask, Status: campaign.ObligationUnresolved, FinalIDs: []string{"U1"}},
				{ID: "O4", Text: "Taxes.", Basis: campaign.BasisSource, Status: campaign.ObligationExcluded, EvidenceIDs: []string{"E3"}, FinalIDs: []string{"X1"}},
			},
			EvidenceDispositions: []campaign.Disposition{
				{EvidenceID: "E1", Status: campaign.DispositionUsed, FinalIDs: []string{"C1"}},
				{EvidenceID: "E2", Status: campaign.DispositionUsed, FinalIDs: []string{"A1", "V1"}},
				{EvidenceID: "E3", Status: campaign.DispositionExcluded, FinalIDs: []string{"X1"}},
			},
		},
	}
}

const testFile = "responses/S3.json"

func validate(r *campaign.Response) []Finding {
	return ValidateResponse(r, campaign.RoleReviewB, testPacket(), testFile)
}

type want struct {
	code    verr.Reason
	pointer string
	scope   Scope
}

// expect asserts that fs holds exactly the wanted findings (code, pointer,
// scope), in order, and that each carries the file, a rule and a message.
func expect(t *testing.T, fs []Finding, ws ...want) {
	t.Helper()
	if len(fs) != len(ws) {
		t.Fatalf("got %d findings, want %d:\n%v", len(fs), len(ws), fs)
	}
	for i, w := range ws {
		f := fs[i]
		if f.Code != w.code || f.Pointer != w.pointer || f.Scope != w.scope {
			t.Errorf("finding %d = %s %s %s, want %s %s %s", i, f.Code, f.Pointer, f.Scope, w.code, w.pointer, w.scope)
		}
		if f.File != testFile || f.Rule == "" || f.Message == "" {
			t.Errorf("finding %d lacks file, rule or message: %+v", i, f)
		}
		if !errors.Is(f.Err(), w.code) {
			t.Errorf("finding %d: errors.Is(Err(), %s) is false", i, w.code)
		}
	}
}

func TestValidResponseHasNoFindings(t *testing.T) {
	if fs := validate(validResponse()); fs != nil {
		t.Fatalf("valid response: %v", fs)
	}
	// Draft and review A have no ledger; the same final answer is valid.
	r := validResponse()
	r.Reconciliation = nil
	for _, role := range []campaign.Role{campaign.RoleDraft, campaign.RoleReviewA} {
		if fs := ValidateResponse(r, role, testPacket(), testFile); fs != nil {
			t.Fatalf("%s: %v", role, fs)
		}
	}
}

func TestEvidenceNotInPacket(t *testing.T) {
	r := validResponse()
	r.Final.Claims[1].EvidenceIDs = []string{"E1", "E9"}
	r.Final.Exclusions[0].EvidenceIDs = []string{"E3", "E7"}
	r.Reconciliation.Obligations[0].EvidenceIDs = []string{"E8"}
	expect(t, validate(r),
		want{ReasonEvidenceNotInPacket, "/final/claims/1/evidence_ids/1", ScopeFinal},
		want{ReasonEvidenceNotInPacket, "/final/exclusions/0/evidence_ids/1", ScopeFinal},
		want{ReasonEvidenceNotInPacket, "/reconciliation/obligations/0/evidence_ids/0", ScopeProtocol},
	)
}

func TestCitationEvidenceNotInPacket(t *testing.T) {
	r := validResponse()
	r.Final.Citations = append(r.Final.Citations, campaign.Citation{EvidenceID: "E4", Path: "src/x.ts", StartLine: 1, EndLine: 1, Supports: []string{"C1"}})
	expect(t, validate(r), want{ReasonEvidenceNotInPacket, "/final/citations/2/evidence_id", ScopeFinal})
}

func TestDanglingFinalLinks(t *testing.T) {
	r := validResponse()
	r.Final.Claims[2].UncertaintyID = ptr("U2")
	r.Final.VerificationPlan[1].UncertaintyID = ptr("U3")
	r.Final.ImplementationPlan[0].VerificationIDs = []string{"V1", "V5"}
	r.Final.Citations[0].Supports = []string{"C1", "C2", "X4"}
	expect(t, validate(r),
		want{ReasonDanglingLink, "/final/citations/0/supports/2", ScopeFinal},
		want{ReasonDanglingLink, "/final/claims/2/uncertainty_id", ScopeFinal},
		want{ReasonDanglingLink, "/final/implementation_plan/0/verification_ids/1", ScopeFinal},
		want{ReasonDanglingLink, "/final/verification_plan/1/uncertainty_id", ScopeFinal},
	)
}

func TestLinkWrongType(t *testing.T) {
	r := validResponse()
	r.Final.Citations[0].Supports = []string{"C1", "C2", "U1"}
	r.Final.Claims[2].UncertaintyID = ptr("V2")
	r.Reconciliation.EvidenceDispositions[0].FinalIDs = []string{"C1", "O1"}
	expect(t, validate(r),
		want{ReasonLinkWrongType, "/final/citations/0/supports/2", ScopeFinal},
		want{ReasonLinkWrongType, "/final/claims/2/uncertainty_id", ScopeFinal},
		want{ReasonLinkWrongType, "/reconciliation/evidence_dispositions/0/final_ids/1", ScopeProtocol},
	)
}

func TestSourceBackedClaimWithoutEvidence(t *testing.T) {
	r := validResponse()
	r.Final.Claims[0].EvidenceIDs = nil
	expect(t, validate(r), want{ReasonSourceBackedWithoutEvidence, "/final/claims/0/evidence_ids", ScopeFinal})
}

func TestSourceBackedClaimWithoutCitation(t *testing.T) {
	r := validResponse()
	r.Final.Citations[0].Supports = []string{"C2"}
	// C1 is still linked by O1 and by E1's disposition; E1's used
	// disposition now has no cited C/A/V link, which is its own rule.
	r.Reconciliation.EvidenceDispositions[0].FinalIDs = []string{"C2"}
	expect(t, validate(r), want{ReasonSourceBackedWithoutCitation, "/final/claims/0", ScopeFinal})
}

func TestInferenceWithoutPremises(t *testing.T) {
	r := validResponse()
	r.Final.Claims[1].EvidenceIDs = []string{}
	expect(t, validate(r), want{ReasonInferenceWithoutPremises, "/final/claims/1/evidence_ids", ScopeFinal})
}

func TestUnknownClaimWithoutUncertainty(t *testing.T) {
	r := validResponse()
	r.Final.Claims[2].UncertaintyID = nil
	expect(t, validate(r), want{ReasonUnknownWithoutUncertainty, "/final/claims/2/uncertainty_id", ScopeFinal})
}

func TestSourceBasisWithoutEvidence(t *testing.T) {
	r := validResponse()
	r.Final.ImplementationPlan[0].EvidenceIDs = nil
	r.Final.VerificationPlan[0].EvidenceIDs = nil
	expect(t, validate(r),
		want{ReasonSourceBasisWithoutEvidence, "/final/implementation_plan/0/evidence_ids", ScopeFinal},
		want{ReasonSourceBasisWithoutEvidence, "/final/verification_plan/0/evidence_ids", ScopeFinal},
	)
}

func TestSourceBasisWithoutCitation(t *testing.T) {
	r := validResponse()
	r.Final.Citations[1].Supports = []string{"C1"}
	r.Reconciliation.EvidenceDispositions[1].FinalIDs = []string{"C1"}
	// E2's citation now supports only C1, so E2's used disposition via C1
	// is cited; A1 and V1 have no citation.
	expect(t, validate(r),
		want{ReasonSourceBasisWithoutCitation, "/final/implementation_plan/0", ScopeFinal},
		want{ReasonSourceBasisWithoutCitation, "/final/verification_plan/0", ScopeFinal},
	)
}

func TestTaskBasisMayHaveEmptyEvidence(t *testing.T) {
	r := validResponse()
	r.Final.VerificationPlan[0].SupportBasis = campaign.BasisTask
	r.Final.VerificationPlan[0].EvidenceIDs = nil
	r.Final.ImplementationPlan[0].SupportBasis = campaign.BasisTask
	r.Final.ImplementationPlan[0].EvidenceIDs = nil
	if fs := validate(r); fs != nil {
		t.Fatalf("task-based steps without evidence: %v", fs)
	}
}

func TestMissingSourceWithoutUncertainty(t *testing.T) {
	r := validResponse()
	r.Final.VerificationPlan[1].UncertaintyID = nil
	expect(t, validate(r), want{ReasonMissingSourceWithoutUncertainty, "/final/verification_plan/1/uncertainty_id", ScopeFinal})
}

func TestActionWithoutVerification(t *testing.T) {
	r := validResponse()
	r.Final.ImplementationPlan[1].VerificationLimitation = nil
	expect(t, validate(r),
		want{ReasonActionWithoutVerification, "/final/implementation_plan/1/verification_ids", ScopeFinal},
		// O2 relied on A2's limitation; it is now unlinked as well.
		want{ReasonAddressedWithoutLinks, "/reconciliation/obligations/1/final_ids", ScopeProtocol},
	)
}

// C09: a citation on the right path that ends one line past the excerpt.
// E1's excerpt ends in "\n"; that final newline makes no line 13.
func TestC09EndLinePastExcerptWithFinalNewline(t *testing.T) {
	r := validResponse()
	r.Final.Citations[0].EndLine = 13
	expect(t, validate(r), want{ReasonCitationOutsideLines, "/final/citations/0/end_line", ScopeFinal})
}

// C09: E2's excerpt has no final newline; one line past it is refused too.
func TestC09EndLinePastExcerptWithoutFinalNewline(t *testing.T) {
	r := validResponse()
	r.Final.Citations[1].EndLine = 4
	expect(t, validate(r), want{ReasonCitationOutsideLines, "/final/citations/1/end_line", ScopeFinal})
}

func TestC09StartBeforeAndInverted(t *testing.T) {
	r := validResponse()
	r.Final.Citations[0].StartLine = 9
	r.Final.Citations[1].StartLine, r.Final.Citations[1].EndLine = 3, 2
	expect(t, validate(r),
		want{ReasonCitationOutsideLines, "/final/citations/0/start_line", ScopeFinal},
		want{ReasonCitationOutsideLines, "/final/citations/1/start_line", ScopeFinal},
	)
}

func TestC09CitationAtExactBoundsIsValid(t *testing.T) {
	r := validResponse()
	r.Final.Citations[0].StartLine, r.Final.Citations[0].EndLine = 10, 12
	r.Final.Citations[1].StartLine, r.Final.Citations[1].EndLine = 1, 3
	if fs := validate(r); fs != nil {
		t.Fatalf("citation at the item's exact lines: %v", fs)
	}
}

func TestC09CitationPathMismatch(t *testing.T) {
	r := validResponse()
	r.Final.Citations[0].Path = "src/Cart.ts"
	expect(t, validate(r), want{ReasonCitationPathMismatch, "/final/citations/0/path", ScopeFinal})
}

// C12: the draft had actions A1..A3; the revision deleted A1 and
// renumbered A2→A1 and A3→A2, but links to the draft's A3 and to a deleted
// verification V3 survive in the final answer and in the ledger.
func TestC12RenumberedAndDeletedActionsLeaveStaleLinks(t *testing.T) {
	r := validResponse()
	r.Final.Citations[1].Supports = []string{"A1", "A3", "V1"}     // A3 existed only in the draft
	r.Final.ImplementationPlan[0].VerificationIDs = []string{"V3"} // V3 was deleted
	r.Reconciliation.Obligations[1].FinalIDs = []string{"A2", "A3"}
	r.Reconciliation.EvidenceDispositions[1].FinalIDs = []string{"A3"}
	expect(t, validate(r),
		want{ReasonDanglingLink, "/final/citations/1/supports/1", ScopeFinal},
		want{ReasonDanglingLink, "/final/implementation_plan/0/verification_ids/0", ScopeFinal},
		// The only link of E2's used disposition is stale, so it is uncited.
		want{ReasonUsedDispositionUncited, "/reconciliation/evidence_dispositions/1/final_ids", ScopeProtocol},
		want{ReasonDanglingLink, "/reconciliation/evidence_dispositions/1/final_ids/0", ScopeProtocol},
		want{ReasonDanglingLink, "/reconciliation/obligations/1/final_ids/1", ScopeProtocol},
	)
}

func TestAddressedObligationWithoutLinks(t *testing.T) {
	r := validResponse()
	r.Reconciliation.Obligations[0].FinalIDs = []string{"C1"} // C link but no V link
	r.Reconciliation.Obligations[1].FinalIDs = []string{"A1"} // A1 has no limitation and no V link here
	r.Reconciliation.Obligations = append(r.Reconciliation.Obligations, campaign.LedgerObligation{
		ID: "O5", Text: "Verify add.", Basis: campaign.BasisTask, Status: campaign.ObligationAddressed, FinalIDs: []string{"V1"}})
	expect(t, validate(r),
		want{ReasonAddressedWithoutLinks, "/reconciliation/obligations/0/final_ids", ScopeProtocol},
		want{ReasonAddressedWithoutLinks, "/reconciliation/obligations/1/final_ids", ScopeProtocol},
		want{ReasonAddressedWithoutLinks, "/reconciliation/obligations/4/final_ids", ScopeProtocol},
	)
}

func TestAddressedObligationLinkVariantsAreValid(t *testing.T) {
	r := validResponse()
	r.Reconciliation.Obligations[0].FinalIDs = []string{"A1", "V1"} // A + V
	r.Reconciliation.Obligations[1].FinalIDs = []string{"A2"}       // A with limitation
	if fs := validate(r); fs != nil {
		t.Fatalf("valid addressed links: %v", fs)
	}
}

func TestAddressedObligationWithoutEvidence(t *testing.T) {
	r := validResponse()
	r.Reconciliation.Obligations[0].EvidenceIDs = nil
	expect(t, validate(r), want{ReasonAddressedWithoutEvidence, "/reconciliation/obligations/0/evidence_ids", ScopeProtocol})
}

func TestUnresolvedObligationWithoutUncertainty(t *testing.T) {
	r := validResponse()
	r.Reconciliation.Obligations[2].FinalIDs = []string{"C3"}
	expect(t, validate(r), want{ReasonUnresolvedObligationWithoutUncertainty, "/reconciliation/obligations/2/final_ids", ScopeProtocol})
}

func TestExcludedObligationWithoutExclusion(t *testing.T) {
	r := validResponse()
	r.Reconciliation.Obligations[3].FinalIDs = []string{"U1"}
	expect(t, validate(r), want{ReasonExcludedObligationWithoutExclusion, "/reconciliation/obligations/3/final_ids", ScopeProtocol})
}

func TestUsedDispositionUncited(t *testing.T) {
	r := validResponse()
	// C2 is cited, but only by a citation of E1, not of E2.
	r.Reconciliation.EvidenceDispositions[1].FinalIDs = []string{"C2"}
	expect(t, validate(r), want{ReasonUsedDispositionUncited, "/reconciliation/evidence_dispositions/1/final_ids", ScopeProtocol})
}

func TestExcludedDispositionWithoutExclusion(t *testing.T) {
	r := validResponse()
	r.Final.Exclusions[0].EvidenceIDs = []string{}
	expect(t, validate(r), want{ReasonExcludedDispositionWithoutExclusion, "/reconciliation/evidence_dispositions/2/final_ids", ScopeProtocol})
}

func TestUnresolvedDispositionWithoutUncertainty(t *testing.T) {
	r := validResponse()
	r.Reconciliation.EvidenceDispositions[2] = campaign.Disposition{EvidenceID: "E3", Status: campaign.DispositionUnresolved, FinalIDs: []string{"X1"}}
	expect(t, validate(r), want{ReasonUnresolvedDispositionWithoutUncertainty, "/reconciliation/evidence_dispositions/2/final_ids", ScopeProtocol})
	r.Reconciliation.EvidenceDispositions[2].FinalIDs = []string{"U1"}
	if fs := validate(r); fs != nil {
		t.Fatalf("unresolved disposition with U link: %v", fs)
	}
}

// C13: the disposition set must equal the packet's E-ID set exactly.
func TestC13MissingDisposition(t *testing.T) {
	r := validResponse()
	r.Reconciliation.EvidenceDispositions = r.Reconciliation.EvidenceDispositions[:2]
	expect(t, validate(r), want{ReasonDispositionMissing, "/reconciliation/evidence_dispositions", ScopeProtocol})
	if fs := validate(r); fs[0].Message != "packet evidence ID E3 has no disposition" {
		t.Errorf("message %q does not name E3", fs[0].Message)
	}
}

func TestC13DuplicatedDisposition(t *testing.T) {
	r := validResponse()
	r.Reconciliation.EvidenceDispositions = append(r.Reconciliation.EvidenceDispositions,
		campaign.Disposition{EvidenceID: "E1", Status: campaign.DispositionExcluded, FinalIDs: []string{"X1"}})
	r.Final.Exclusions[0].EvidenceIDs = []string{"E1", "E3"}
	expect(t, validate(r), want{ReasonDispositionDuplicate, "/reconciliation/evidence_dispositions/3/evidence_id", ScopeProtocol})
}

func TestC13SubstitutedDisposition(t *testing.T) {
	r := validResponse()
	// E3 is replaced by E4, an ID the packet does not have.
	r.Reconciliation.EvidenceDispositions[2] = campaign.Disposition{EvidenceID: "E4", Status: campaign.DispositionUnresolved, FinalIDs: []string{"U1"}}
	expect(t, validate(r),
		want{ReasonDispositionMissing, "/reconciliation/evidence_dispositions", ScopeProtocol},
		want{ReasonDispositionInvented, "/reconciliation/evidence_dispositions/2/evidence_id", ScopeProtocol},
	)
}

func TestC13InventedDisposition(t *testing.T) {
	r := validResponse()
	r.Reconciliation.EvidenceDispositions = append(r.Reconciliation.EvidenceDispositions,
		campaign.Disposition{EvidenceID: "E12", Status: campaign.DispositionUnresolved, FinalIDs: []string{"U1"}})
	expect(t, validate(r), want{ReasonDispositionInvented, "/reconciliation/evidence_dispositions/3/evidence_id", ScopeProtocol})
}

func TestMissingDispositionsInPacketOrder(t *testing.T) {
	p := testPacket()
	for _, id := range []string{"E10", "E4", "E11"} {
		it := p.Items[0]
		it.ID = id
		p.Items = append(p.Items, it)
	}
	fs := ValidateResponse(validResponse(), campaign.RoleReviewB, p, testFile)
	var got []string
	for _, f := range fs {
		got = append(got, f.Message)
	}
	wantMsgs := []string{"packet evidence ID E4 has no disposition", "packet evidence ID E10 has no disposition", "packet evidence ID E11 has no disposition"}
	if !slices.Equal(got, wantMsgs) {
		t.Fatalf("got %q, want %q", got, wantMsgs)
	}
}

func TestLedgerIgnoredOutsideReviewB(t *testing.T) {
	r := validResponse()
	r.Reconciliation.EvidenceDispositions = nil
	if fs := ValidateResponse(r, campaign.RoleReviewA, testPacket(), testFile); fs != nil {
		t.Fatalf("review A ledger examined: %v", fs)
	}
}

func TestNilPacketReportsEveryEvidenceID(t *testing.T) {
	r := validResponse()
	r.Reconciliation = nil
	fs := ValidateResponse(r, campaign.RoleReviewA, nil, testFile)
	if len(fs) == 0 {
		t.Fatal("no findings against a nil packet")
	}
	for _, f := range fs {
		if f.Code != ReasonEvidenceNotInPacket {
			t.Errorf("unexpected %v", f)
		}
	}
}

func TestValidateCampaign(t *testing.T) {
	bad := validResponse()
	bad.Final.Citations[0].EndLine = 13
	stale := validResponse()
	stale.Reconciliation.Obligations[2].FinalIDs = []string{"U9"}
	draft := validResponse()
	draft.Reconciliation = nil
	run := campaign.Run{Task: "T1", Repetition: 1, Order: campaign.OrderAFirst, Sessions: campaign.Sessions{Draft: "S1", ReviewA: "S2", ReviewB: "S10"}}
	c := &campaign.Campaign{
		Tasks: []*campaign.Task{{Entry: campaign.TaskEntry{ID: "T1"}, Packet: *testPacket()}},
		Sessions: []*campaign.Session{
			{ID: "S10", Role: campaign.RoleReviewB, Run: run, Response: stale},
			{ID: "S2", Role: campaign.RoleReviewA, Run: run, Response: func() *campaign.Response { b := *bad; b.Reconciliation = nil; return &b }()},
			{ID: "S1", Role: campaign.RoleDraft, Run: run, Response: draft},
			{ID: "S4", Role: campaign.RoleReviewA, Run: run}, // malformed answer: no decoded response
		},
	}
	fs := ValidateCampaign(c)
	type key struct{ file, pointer string }
	var got []key
	for _, f := range fs {
		got = append(got, key{f.File, f.Pointer})
	}
	wantKeys := []key{
		{"responses/S10.json", "/reconciliation/obligations/2/final_ids"},
		{"responses/S10.json", "/reconciliation/obligations/2/final_ids/0"},
		{"responses/S2.json", "/final/citations/0/end_line"},
	}
	if !slices.Equal(got, wantKeys) {
		t.Fatalf("got %v, want %v", got, wantKeys)
	}
	again := ValidateCampaign(c)
	if !slices.Equal(fs, again) {
		t.Fatal("ValidateCampaign is not deterministic")
	}
}

func TestComparePointers(t *testing.T) {
	ps := []string{"/final/claims/10", "/final/claims/2/evidence_ids", "/final/claims/2", "/final/citations/1", "/reconciliation", ""}
	slices.SortFunc(ps, comparePointers)
	want := []string{"", "/final/citations/1", "/final/claims/2", "/final/claims/2/evidence_ids", "/final/claims/10", "/reconciliation"}
	if !slices.Equal(ps, want) {
		t.Fatalf("got %q, want %q", ps, want)
	}
}
