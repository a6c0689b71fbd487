package scorer

import (
	"slices"
	"strings"
	"testing"

	"verdict/campaign"
	"verdict/verr"
)

func TestWorstCaseReservation(t *testing.T) {
	card := ContractPriceCard()
	w := WorstCase(&card, false)
	want := Budget{Sessions: 1, WallNS: 240_000_000_000, InputTokens: 90_000, OutputTokens: 8_000, ReferencePico: 520_000_000_000, ActualPico: 520_000_000_000}
	if w != want {
		t.Fatalf("%+v", w)
	}
	if WorstCase(&card, true).ReplacementSessions != 1 {
		t.Fatal("replacement reservation")
	}
}

// C18: every inclusive ceiling tested just below, equal and above.
func TestCeilingsJustBelowEqualAbove(t *testing.T) {
	card := ContractPriceCard()
	ceil := ContractCeilings()
	res := WorstCase(&card, true)
	fields := []struct {
		reason verr.Reason
		set    func(b *Budget, v int64)
		get    func(b Budget) int64
	}{
		{ReasonCeilingSessions, func(b *Budget, v int64) { b.Sessions = v }, func(b Budget) int64 { return b.Sessions }},
		{ReasonCeilingReplacements, func(b *Budget, v int64) { b.ReplacementSessions = v }, func(b Budget) int64 { return b.ReplacementSessions }},
		{ReasonCeilingWallTime, func(b *Budget, v int64) { b.WallNS = v }, func(b Budget) int64 { return b.WallNS }},
		{ReasonCeilingInput, func(b *Budget, v int64) { b.InputTokens = v }, func(b Budget) int64 { return b.InputTokens }},
		{ReasonCeilingOutput, func(b *Budget, v int64) { b.OutputTokens = v }, func(b Budget) int64 { return b.OutputTokens }},
		{ReasonCeilingReferenceCost, func(b *Budget, v int64) { b.ReferencePico = v }, func(b Budget) int64 { return b.ReferencePico }},
		{ReasonCeilingActualCost, func(b *Budget, v int64) { b.ActualPico = v }, func(b Budget) int64 { return b.ActualPico }},
	}
	for _, f := range fields {
		for _, tc := range []struct {
			name  string
			delta int64
			fits  bool
		}{{"just below", -1, true}, {"equal", 0, true}, {"above", 1, false}} {
			var used Budget
			f.set(&used, f.get(ceil)-f.get(res)+tc.delta)
			ok, why := Fits(ceil, used, res)
			if ok != tc.fits {
				t.Errorf("%s %s: fits=%v %v", f.reason, tc.name, ok, why)
			}
			if !tc.fits && !slices.Equal(why, []verr.Reason{f.reason}) {
				t.Errorf("%s %s: reasons %v", f.reason, tc.name, why)
			}
		}
	}
	// An exactly exhausted budget prohibits the next dispatch.
	if ok, why := Fits(ceil, ceil, res); ok || len(why) != 7 {
		t.Fatalf("exhausted budget: %v %v", ok, why)
	}
}

func TestAdmitReplay(t *testing.T) {
	c := testCampaign(campaign.PhaseEvaluation, 8, 3)
	used, unknown := Consumed(c)
	if used.Sessions != 72 || len(unknown) != 0 {
		t.Fatalf("%+v %v", used, unknown)
	}
	// Input: 24 × (20,212 + 22,000 + 23,000) = 1,565,088 recorded. The
	// remaining 1,434,912 admits 15 worst-case dispatches (1,350,000) and
	// refuses the 16th.
	if used.InputTokens != 1_565_088 {
		t.Fatalf("input %d", used.InputTokens)
	}
	var plan []Dispatch
	for i := range 17 {
		plan = append(plan, Dispatch{ID: "P" + string(rune('A'+i)), Task: "T1", Repetition: 1, Role: campaign.RoleDraft, Probe: true})
	}
	r := Admit(c, Budget{}, plan)
	if r.Refused != 2 || !r.Decisions[14].Admitted || r.Decisions[15].Admitted || r.Decisions[15].Reason != ReasonCeilingInput {
		t.Fatalf("refused %d; decision 16: %+v", r.Refused, r.Decisions[15])
	}
	// Missing tariff, unverified tariff, unenforced reservation and a
	// missing meter each prohibit the next dispatch.
	for _, tc := range []struct {
		name string
		mut  func(c *campaign.Campaign)
		want verr.Reason
	}{
		{"tariff missing", func(c *campaign.Campaign) { c.Manifest.Execution.PriceCard = nil }, ReasonTariffMissing},
		{"tariff unverified", func(c *campaign.Campaign) { c.Manifest.Execution.TariffVerified = bp(false) }, ReasonTariffUnverified},
		{"reservation unenforced", func(c *campaign.Campaign) { c.Manifest.Execution.ReservationEnforced = nil }, ReasonReservationUnenforced},
		{"meter missing", func(c *campaign.Campaign) { c.Sessions[4].Receipt.Meter = nil }, ReasonMeterMissing},
		{"receipt missing", func(c *campaign.Campaign) { c.Sessions[4].Receipt = nil }, ReasonMissingTerminalReceipt},
	} {
		c := testCampaign(campaign.PhaseEvaluation, 8, 3)
		tc.mut(c)
		r := Admit(c, Budget{}, plan[:1])
		if r.Refused != 1 || r.Decisions[0].Reason != tc.want {
			t.Errorf("%s: %+v", tc.name, r.Decisions[0])
		}
	}
}

func TestParsePlan(t *testing.T) {
	good := `{"format":"verdict-admission-plan/1","prior_consumption":{"sessions":2,"replacement_sessions":0,"wall_ns":5,"input_tokens":7,"output_tokens":8,"reference_micro_usd":3,"actual_micro_usd":4},
"dispatches":[{"id":"P1","task":"T1","repetition":1,"role":"draft","replacement":false}]}`
	p, err := ParsePlan([]byte(good), "plan.json")
	if err != nil {
		t.Fatal(err)
	}
	if p.Prior.ReferencePico != 3_000_000 || p.Prior.Sessions != 2 || len(p.Dispatches) != 1 || p.Dispatches[0].Role != campaign.RoleDraft {
		t.Fatalf("%+v", p)
	}
	for name, bad := range map[string]string{
		"unknown member":   `{"format":"verdict-admission-plan/1","prior_consumption":{"sessions":0,"replacement_sessions":0,"wall_ns":0,"input_tokens":0,"output_tokens":0,"reference_micro_usd":0,"actual_micro_usd":0},"dispatches":[],"x":1}`,
		"duplicate member": `{"format":"verdict-admission-plan/1","format":"verdict-admission-plan/1","prior_consumption":{"sessions":0,"replacement_sessions":0,"wall_ns":0,"input_tokens":0,"output_tokens":0,"reference_micro_usd":0,"actual_micro_usd":0},"dispatches":[]}`,
		"missing prior":    `{"format":"verdict-admission-plan/1","dispatches":[]}`,
		"missing field":    `{"format":"verdict-admission-plan/1","prior_consumption":{"sessions":0,"replacement_sessions":0,"wall_ns":0,"input_tokens":0,"output_tokens":0,"reference_micro_usd":0},"dispatches":[]}`,
		"negative":         `{"format":"verdict-admission-plan/1","prior_consumption":{"sessions":-1,"replacement_sessions":0,"wall_ns":0,"input_tokens":0,"output_tokens":0,"reference_micro_usd":0,"actual_micro_usd":0},"dispatches":[]}`,
		"bad role":         `{"format":"verdict-admission-plan/1","prior_consumption":{"sessions":0,"replacement_sessions":0,"wall_ns":0,"input_tokens":0,"output_tokens":0,"reference_micro_usd":0,"actual_micro_usd":0},"dispatches":[{"id":"P1","task":"T1","repetition":1,"role":"judge","replacement":false}]}`,
		"duplicate id":     `{"format":"verdict-admission-plan/1","prior_consumption":{"sessions":0,"replacement_sessions":0,"wall_ns":0,"input_tokens":0,"output_tokens":0,"reference_micro_usd":0,"actual_micro_usd":0},"dispatches":[{"id":"P1","task":"T1","repetition":1,"role":"draft","replacement":false},{"id":"P1","task":"T1","repetition":1,"role":"draft","replacement":false}]}`,
		"wrong format":     `{"format":"v2","prior_consumption":{},"dispatches":[]}`,
	} {
		if _, err := ParsePlan([]byte(bad), "plan.json"); err == nil || !strings.Contains(err.Error(), string(ReasonPlanMalformed)) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// TestAdmitPlanRerunRules: before any budget, a planned dispatch of a
// session with a receipt, of a run the manifest lacks, or a replacement of
// a triplet that is not infrastructure-invalid is refused; only the one
// replacement of an infrastructure-invalid triplet passes (CONTRACT §5).
func TestAdmitPlanRerunRules(t *testing.T) {
	c := testCampaign(campaign.PhaseEvaluation, 8, 3)
	session(c, "T2", 1, campaign.RoleReviewA).Receipt.ArmStateLeaked = true // infrastructure: cross-arm leakage
	c.Manifest.Execution.ReservationEnforced = nil                          // a prohibition the rules must not reach
	d := func(id, task string, rep int, role campaign.Role, repl bool) Dispatch {
		return Dispatch{ID: id, Task: task, Repetition: rep, Role: role, Replacement: repl}
	}
	r := Admit(c, Budget{}, []Dispatch{
		d("P1", "T1", 1, campaign.RoleDraft, false),
		d("P2", "T1", 4, campaign.RoleDraft, false),
		d("P3", "T1", 1, campaign.RoleDraft, true),
		d("P5", "T2", 1, campaign.RoleDraft, true),
		d("P6", "T2", 1, campaign.RoleDraft, true),
		d("P7", "T4", 1, campaign.RoleDraft, true),
	})
	want := []verr.Reason{ReasonDispatchRerun, ReasonDispatchUnknownRun, ReasonReplacementWithoutInvalid,
		ReasonReservationUnenforced, ReasonDispatchRerun, ReasonReplacementLimit}
	for i, dec := range r.Decisions {
		if dec.Reason != want[i] || (dec.Reason != ReasonReservationUnenforced && len(dec.Reasons) != 1) {
			t.Errorf("%s: %s %v (%s), want %s", dec.Dispatch.ID, dec.Reason, dec.Reasons, dec.Detail, want[i])
		}
	}
	// A wrong model is not verified infrastructure: no replacement.
	w := testCampaign(campaign.PhaseEvaluation, 8, 3)
	session(w, "T3", 1, campaign.RoleReviewA).Receipt.Model = sp("drifted")
	if r := Admit(w, Budget{}, []Dispatch{d("P1", "T3", 1, campaign.RoleDraft, true)}); r.Decisions[0].Reason != ReasonReplacementWithoutInvalid {
		t.Errorf("wrong-model replacement: %+v", r.Decisions[0])
	}
	// With the reservation enforced the one allowed replacement is admitted.
	c.Manifest.Execution.ReservationEnforced = bp(true)
	r = Admit(c, Budget{}, []Dispatch{d("P1", "T2", 1, campaign.RoleDraft, true), d("P2", "T2", 1, campaign.RoleReviewA, true), d("P3", "T2", 1, campaign.RoleReviewB, true)})
	if r.Refused != 0 || r.Decisions[2].Remaining.ReplacementSessions != 0 {
		t.Fatalf("%+v", r.Decisions)
	}
}
