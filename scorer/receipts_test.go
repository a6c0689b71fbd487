package scorer

import (
	"slices"
	"testing"
	"time"

	"verdict/campaign"
	"verdict/verr"
)

// TestReceiptIssuesTable checks ReceiptIssues rule by rule on the
// in-memory SYNTHETIC campaign, including the records a status may leave
// null and the boundaries that are allowed.
func TestReceiptIssuesTable(t *testing.T) {
	if got := ReceiptIssues(testCampaign(campaign.PhaseEvaluation, 8, 3)); len(got) != 0 {
		t.Fatalf("passing campaign: %+v", got)
	}
	cases := []struct {
		name string
		mut  func(c *campaign.Campaign)
		want []verr.Reason // nil: no finding
	}{
		{"error without output is allowed", func(c *campaign.Campaign) {
			s := session(c, "T1", 1, campaign.RoleReviewA)
			k := campaign.ErrorTimeout
			s.Receipt.Status, s.Receipt.ErrorKind, s.Receipt.OutputSHA256, s.Receipt.OutputBytes = campaign.StatusError, &k, nil, nil
			s.Raw, s.Response = nil, nil
		}, nil},
		{"error with a response file must record its output", func(c *campaign.Campaign) {
			s := session(c, "T1", 1, campaign.RoleReviewA)
			k := campaign.ErrorMalformed
			s.Receipt.Status, s.Receipt.ErrorKind, s.Receipt.OutputSHA256, s.Receipt.OutputBytes = campaign.StatusError, &k, nil, nil
		}, []verr.Reason{ReasonReceiptRecordMissing}},
		{"half an input pair", func(c *campaign.Campaign) { session(c, "T1", 2, campaign.RoleDraft).Receipt.InputBytes = nil },
			[]verr.Reason{ReasonReceiptRecordMissing}},
		{"no host", func(c *campaign.Campaign) { session(c, "T1", 2, campaign.RoleDraft).Receipt.Host = nil },
			[]verr.Reason{ReasonReceiptRecordMissing}},
		{"start without terminal receipt may lack end and meter", func(c *campaign.Campaign) {
			r := session(c, "T2", 2, campaign.RoleReviewB).Receipt
			r.Status, r.EndedUTC, r.EndMonotonicNS, r.Meter = "", nil, nil, nil
		}, nil},
		{"response without meter", func(c *campaign.Campaign) { session(c, "T2", 2, campaign.RoleReviewB).Receipt.Meter = nil },
			[]verr.Reason{ReasonMeterIncomplete}},
		{"not dispatched with an input", func(c *campaign.Campaign) {
			failDraft(c, "T3", 1)
			r := session(c, "T3", 1, campaign.RoleReviewA).Receipt
			r.InputSHA256, r.InputBytes = sp(hexSum([]byte("x"))), ip(1)
		}, []verr.Reason{ReasonReceiptRecordUnexpected}},
		{"monotonic end before start", func(c *campaign.Campaign) {
			r := session(c, "T4", 1, campaign.RoleReviewA).Receipt
			*r.EndMonotonicNS = *r.StartMonotonicNS - 1
		}, []verr.Reason{ReasonReceiptEndBeforeStart}},
		{"wrong delivered input", func(c *campaign.Campaign) {
			session(c, "T4", 1, campaign.RoleReviewA).Receipt.InputBytes = ip(1)
		}, []verr.Reason{ReasonDeliveredInputMismatch}},
		{"misattributed output", func(c *campaign.Campaign) {
			session(c, "T4", 1, campaign.RoleReviewA).Receipt.OutputSHA256 = sp(hexSum([]byte("other")))
		}, []verr.Reason{ReasonOutputMismatch}},
		{"a session may start the instant the previous ended", func(c *campaign.Campaign) {
			d := session(c, "T5", 1, campaign.RoleDraft).Receipt
			first := session(c, "T5", 1, campaign.RoleReviewA).Receipt
			if c.Manifest.Runs[4].Order == campaign.OrderBFirst {
				first = session(c, "T5", 1, campaign.RoleReviewB).Receipt
			}
			end, _ := time.Parse(time.RFC3339Nano, *d.EndedUTC)
			st, _ := time.Parse(time.RFC3339Nano, *first.StartedUTC)
			first.StartedUTC = sp(end.Format(time.RFC3339Nano))
			*first.StartMonotonicNS -= int64(st.Sub(end))
		}, nil},
		{"other host", func(c *campaign.Campaign) { session(c, "T6", 1, campaign.RoleDraft).Receipt.Host = sp("other host") },
			[]verr.Reason{ReasonHostMismatch}},
		{"UTC and monotonic durations 2 s apart agree", func(c *campaign.Campaign) {
			skewMonotonic(session(c, "T6", 2, campaign.RoleReviewA).Receipt, ClockTolerance)
		}, nil},
		{"UTC and monotonic durations 2 s + 1 ns apart: a clock jump", func(c *campaign.Campaign) {
			skewMonotonic(session(c, "T6", 2, campaign.RoleReviewA).Receipt, ClockTolerance+1)
		}, []verr.Reason{ReasonReceiptClocksDisagree}},
		{"a planned run has nothing to check", func(c *campaign.Campaign) {
			for _, role := range []campaign.Role{campaign.RoleDraft, campaign.RoleReviewA, campaign.RoleReviewB} {
				plan(session(c, "T7", 3, role))
			}
		}, nil},
		{"reviews that ran while their draft is planned", func(c *campaign.Campaign) { plan(session(c, "T7", 2, campaign.RoleDraft)) },
			// The reviews' inputs embed a draft output the campaign does not hold.
			[]verr.Reason{ReasonDeliveredInputMismatch, ReasonDeliveredInputMismatch, ReasonReviewBeforeDraftEnded, ReasonReviewBeforeDraftEnded}},
		{"an arm that ran while the arm declared first is planned", func(c *campaign.Campaign) {
			role := campaign.RoleReviewA
			for _, r := range c.Manifest.Runs {
				if r.Task == "T8" && r.Repetition == 1 && r.Order == campaign.OrderBFirst {
					role = campaign.RoleReviewB
				}
			}
			plan(session(c, "T8", 1, role))
		}, []verr.Reason{ReasonArmOrderViolated}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := testCampaign(campaign.PhaseEvaluation, 8, 3)
			tc.mut(c)
			var got []verr.Reason
			for _, f := range ReceiptIssues(c) {
				got = append(got, f.Reason)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

// TestSessionBoundInclusive: exactly 4 minutes, 90,000 input and 8,000
// output tokens are within the limits; one more is a timeout or budget
// exhaustion (CONTRACT §5, inclusive).
func TestSessionBoundInclusive(t *testing.T) {
	r := &campaign.Receipt{StartMonotonicNS: ip(0), EndMonotonicNS: ip(SessionMaxNS),
		Meter: &campaign.Meter{InputTokens: SessionMaxInputTokens, OutputTokens: SessionMaxOutputTokens, InputIncludesCached: true, OutputIncludesReasoning: true}}
	if k, why := SessionBound(r); k != "" {
		t.Fatalf("at the limits: %s %s", k, why)
	}
	*r.EndMonotonicNS = SessionMaxNS + 1
	if k, _ := SessionBound(r); k != campaign.ErrorTimeout {
		t.Errorf("1 ns past 4 minutes: %q", k)
	}
	*r.EndMonotonicNS = SessionMaxNS
	r.Meter.InputTokens++
	if k, _ := SessionBound(r); k != campaign.ErrorBudget {
		t.Errorf("90,001 input: %q", k)
	}
	r.Meter.InputTokens--
	r.Meter.OutputTokens++
	if k, _ := SessionBound(r); k != campaign.ErrorBudget {
		t.Errorf("8,001 output: %q", k)
	}
}

// plan makes a session planned, not started: no receipt, no response.
func plan(s *campaign.Session) {
	s.Receipt, s.Raw, s.RawSHA256, s.RawSize, s.Response, s.Failure = nil, nil, "", 0, nil, nil
}

// TestPlannedSessionsAreNotInvalid: a session with neither receipt nor
// response is planned (ExecutionValidity lists it, no finding, and
// IncompleteError names it); a response without a receipt is a start
// without a terminal receipt (C15).
func TestPlannedSessionsAreNotInvalid(t *testing.T) {
	c := testCampaign(campaign.PhaseEvaluation, 8, 3)
	last := c.Manifest.Runs[len(c.Manifest.Runs)-1]
	for _, role := range []campaign.Role{campaign.RoleDraft, campaign.RoleReviewA, campaign.RoleReviewB} {
		plan(session(c, last.Task, last.Repetition, role))
	}
	v := ExecutionValidity(c)
	want := []string{last.Sessions.Draft, last.Sessions.ReviewA, last.Sessions.ReviewB}
	if !v.Valid || !slices.Equal(v.Planned, want) || !slices.Equal(PlannedSessions(c), want) {
		t.Fatalf("valid %v planned %v findings %+v", v.Valid, v.Planned, v.Findings)
	}
	if e := IncompleteError(v.Planned); e == nil || e.Reason != ReasonCampaignIncomplete || e.Pointer != "/runs" {
		t.Fatalf("incomplete: %+v", e)
	}
	if IncompleteError(nil) != nil {
		t.Fatal("a complete campaign is incomplete")
	}
	if r := Accounting(c).Aggregate.ReviewCostRatio; r.Why != ReasonSessionPlanned {
		t.Errorf("review-only ratio of a campaign in progress: unknown for %q, want %q", r.Why, ReasonSessionPlanned)
	}
	b, _ := Consumed(c)
	if b.Sessions != int64(3*len(c.Manifest.Runs)-3) {
		t.Errorf("planned sessions consumed: %d sessions", b.Sessions)
	}
	s := session(c, "T1", 1, campaign.RoleReviewB)
	s.Receipt = nil
	v = ExecutionValidity(c)
	if v.Valid || v.Findings[0].Reason != ReasonMissingTerminalReceipt || v.Findings[0].Session != s.ID {
		t.Fatalf("a response without a receipt: %+v", v.Findings)
	}
}

// skewMonotonic sets a receipt's monotonic end so that its monotonic
// duration is its UTC duration less d.
func skewMonotonic(r *campaign.Receipt, d time.Duration) {
	st, _ := time.Parse(time.RFC3339Nano, *r.StartedUTC)
	en, _ := time.Parse(time.RFC3339Nano, *r.EndedUTC)
	*r.EndMonotonicNS = *r.StartMonotonicNS + int64(en.Sub(st)-d)
}
