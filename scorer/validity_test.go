package scorer

import (
	"slices"
	"testing"

	"verdict/campaign"
	"verdict/verr"
)

func reasonsOf(v ValidityReport) []verr.Reason {
	var out []verr.Reason
	for _, f := range v.Findings {
		if !slices.Contains(out, f.Reason) {
			out = append(out, f.Reason)
		}
	}
	return out
}

func TestValidityPassing(t *testing.T) {
	v := ExecutionValidity(testCampaign(campaign.PhaseEvaluation, 8, 3))
	if !v.Valid || len(v.Findings) != 0 || v.InvalidTriplets != 0 {
		t.Fatalf("%+v", v.Findings)
	}
}

func TestValidityEachRule(t *testing.T) {
	cases := []struct {
		name string
		mut  func(c *campaign.Campaign)
		want verr.Reason
	}{
		{"C15 receipt file missing", func(c *campaign.Campaign) { session(c, "T2", 1, campaign.RoleReviewB).Receipt = nil }, ReasonMissingTerminalReceipt},
		{"C15 start without terminal status", func(c *campaign.Campaign) { session(c, "T2", 1, campaign.RoleReviewB).Receipt.Status = "" }, ReasonMissingTerminalReceipt},
		{"C17 wrong model", func(c *campaign.Campaign) {
			session(c, "T2", 1, campaign.RoleReviewA).Receipt.Model = sp("other-model")
		}, ReasonWrongModel},
		{"C17 wrong permissions", func(c *campaign.Campaign) {
			session(c, "T2", 1, campaign.RoleReviewA).Receipt.PermissionPolicy = sp("shell")
		}, ReasonWrongPermissions},
		{"C17 wrong task bytes", func(c *campaign.Campaign) {
			session(c, "T2", 1, campaign.RoleDraft).Receipt.TaskSHA256 = sp(hexSum([]byte("other")))
		}, ReasonWrongTaskBytes},
		{"C17 wrong source hash", func(c *campaign.Campaign) {
			session(c, "T2", 1, campaign.RoleDraft).Receipt.PacketSHA256 = sp(hexSum([]byte("other")))
		}, ReasonWrongSourceHash},
		{"C17 leaked arm state", func(c *campaign.Campaign) { session(c, "T2", 1, campaign.RoleReviewB).Receipt.ArmStateLeaked = true }, ReasonArmStateLeaked},
		{"MCP call in fixed evidence", func(c *campaign.Campaign) {
			r := session(c, "T2", 1, campaign.RoleReviewB).Receipt
			r.MCPCalls, r.MCPCostMicroUSD = 1, ip(0)
		}, ReasonToolCalls},
		{"ordinary call in fixed evidence", func(c *campaign.Campaign) { session(c, "T2", 1, campaign.RoleReviewA).Receipt.OrdinaryCalls = 3 }, ReasonToolCalls},
		{"C16 timeout relabelled infrastructure", func(c *campaign.Campaign) {
			r := session(c, "T2", 1, campaign.RoleReviewB).Receipt
			k := campaign.ErrorInfrastructure
			r.Status, r.ErrorKind, r.InfrastructureInvalid = campaign.StatusError, &k, sp("platform_outage")
			*r.EndMonotonicNS = *r.StartMonotonicNS + SessionMaxNS
		}, ReasonTimeoutRelabelled},
		{"unverified infrastructure", func(c *campaign.Campaign) {
			r := session(c, "T2", 1, campaign.RoleReviewB).Receipt
			k := campaign.ErrorInfrastructure
			r.Status, r.ErrorKind = campaign.StatusError, &k
		}, ReasonInfrastructureUnverified},
		{"C23 reviews dispatched after failed draft", func(c *campaign.Campaign) {
			d := session(c, "T2", 1, campaign.RoleDraft)
			k := campaign.ErrorRefusal
			d.Receipt.Status, d.Receipt.ErrorKind, d.Response = campaign.StatusError, &k, nil
		}, ReasonReviewsAfterFailedDraft},
		{"not dispatched without draft failure", func(c *campaign.Campaign) {
			session(c, "T2", 1, campaign.RoleReviewA).Receipt.Status = campaign.StatusNotDispatched
		}, ReasonNotDispatchedWithoutFailure},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := testCampaign(campaign.PhaseEvaluation, 8, 3)
			tc.mut(c)
			v := ExecutionValidity(c)
			if v.Valid || !slices.Contains(reasonsOf(v), tc.want) {
				t.Fatalf("want %s, got %v", tc.want, reasonsOf(v))
			}
			if v.InvalidTriplets != 1 {
				t.Fatalf("invalid triplets %d", v.InvalidTriplets)
			}
		})
	}
}

func TestValidityScoredFailures(t *testing.T) {
	c := testCampaign(campaign.PhaseEvaluation, 8, 3)
	// C16: a model timeout and a malformed answer are valid scored failures.
	r := session(c, "T1", 1, campaign.RoleReviewB).Receipt
	k := campaign.ErrorTimeout
	r.Status, r.ErrorKind = campaign.StatusError, &k
	session(c, "T1", 2, campaign.RoleReviewA).Response = nil
	// C23: failed draft with not-dispatched reviews.
	failDraft(c, "T3", 3)
	v := ExecutionValidity(c)
	if !v.Valid || len(v.Findings) != 0 {
		t.Fatalf("valid failures must not invalidate: %+v", v.Findings)
	}
	var kinds []campaign.ErrorKind
	for _, f := range v.ScoredFailures {
		kinds = append(kinds, f.Kind)
	}
	want := []campaign.ErrorKind{campaign.ErrorTimeout, campaign.ErrorMalformed, campaign.ErrorTimeout, campaign.ErrorSharedDraft, campaign.ErrorSharedDraft}
	slices.Sort(kinds)
	slices.Sort(want)
	if !slices.Equal(kinds, want) {
		t.Fatalf("%v", kinds)
	}
}

func TestValidityReplacementAndStop(t *testing.T) {
	// One invalid triplet replaced under identical inputs: valid.
	c := testCampaign(campaign.PhaseEvaluation, 8, 3)
	session(c, "T4", 2, campaign.RoleReviewA).Receipt.PermissionPolicy = sp("undeclared shell")
	addReplacement(c, "T4", 2)
	v := ExecutionValidity(c)
	if !v.Valid || v.InvalidTriplets != 1 || v.ReplacementTriplets != 1 {
		t.Fatalf("replaced triplet: %+v", v)
	}
	acct := Accounting(c)
	if len(acct.Pairs) != 24 || acct.PhysicalBilling.Sessions != 75 {
		t.Fatalf("pairs %d physical %d", len(acct.Pairs), acct.PhysicalBilling.Sessions)
	}
	if len(ManifestAdmission(c)) != 0 {
		t.Fatalf("%v", ManifestAdmission(c))
	}
	// A wrong model is not a verified infrastructure invalidity: its
	// replacement is refused.
	w := testCampaign(campaign.PhaseEvaluation, 8, 3)
	session(w, "T4", 2, campaign.RoleReviewA).Receipt.Model = sp("drifted")
	addReplacement(w, "T4", 2)
	if v := ExecutionValidity(w); v.Valid || !slices.Contains(reasonsOf(v), ReasonReplacementWithoutInvalid) {
		t.Fatalf("wrong-model replacement: %v", reasonsOf(v))
	}
	// A second invalid triplet stops the campaign.
	session(c, "T6", 1, campaign.RoleReviewB).Receipt.ArmStateLeaked = true
	v = ExecutionValidity(c)
	if v.Valid || !v.Stopped || !slices.Contains(reasonsOf(v), ReasonSecondInvalidTriplet) {
		t.Fatalf("%v", reasonsOf(v))
	}
	if r := Admit(c, Budget{}, []Dispatch{{ID: "P1", Task: "T6", Repetition: 1, Role: campaign.RoleDraft, Probe: true}}); r.Decisions[0].Reason != ReasonCampaignStopped {
		t.Fatalf("%+v", r.Decisions[0])
	}
}

// addReplacement appends a replacement run for task/rep with fresh valid receipts.
func addReplacement(c *campaign.Campaign, task string, rep int) {
	var orig campaign.Run
	for _, r := range c.Manifest.Runs {
		if r.Task == task && r.Repetition == rep {
			orig = r
		}
	}
	n := len(c.Sessions)
	r := campaign.Run{Task: task, Repetition: rep, Order: orig.Order,
		Sessions: campaign.Sessions{Draft: sid(n + 1), ReviewA: sid(n + 2), ReviewB: sid(n + 3)}, Replaces: sp(orig.Sessions.Draft)}
	c.Manifest.Runs = append(c.Manifest.Runs, r)
	for j, role := range []campaign.Role{campaign.RoleDraft, campaign.RoleReviewA, campaign.RoleReviewB} {
		s := &campaign.Session{ID: sid(n + 1 + j), Role: role, Run: r, Raw: []byte("{}"), Response: &campaign.Response{}}
		s.Receipt = receiptFor(c, s, [3]meterSpec{specD, specA, specB}[j])
		c.Sessions = append(c.Sessions, s)
	}
}

func sid(n int) string { return "S" + itoa(n) }

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}
