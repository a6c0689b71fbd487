package scorer

import (
	"errors"
	"slices"
	"testing"
	"verdict/adjudication"
)

func TestScoreRun(t *testing.T) {
	truth := testTruth(4) // O1 critical answerable, O2–O4 answerable, O5 unanswerable
	base := func(arm Arm) RunInput { return testRun("T1", 1, arm, truth, 4) }
	type want struct {
		r               Fraction
		u               *Fraction
		critical        bool
		claimsNil       bool
		source          bool
		sourceFailures  []string
		protocol        *bool // nil: not applicable (arm A)
		structural      *bool
		protocolFailure []string
	}
	tru, fal := true, false
	u := func(n, d int64) *Fraction { f := Frac(n, d); return &f }
	cases := []struct {
		name string
		in   func() RunInput
		want want
	}{
		{"C01 full credit (B)", func() RunInput { return base(ArmB) },
			want{r: Frac(4, 4), u: u(1, 1), source: true, protocol: &tru, structural: &tru}},
		{"full credit (A) has no protocol gate", func() RunInput { return base(ArmA) },
			want{r: Frac(4, 4), u: u(1, 1), source: true}},
		{"C05 non-critical omission loses R only", func() RunInput { return testRun("T1", 1, ArmA, truth, 3) },
			want{r: Frac(3, 4), u: u(1, 1), source: true}},
		{"C05 critical omission fails completion", func() RunInput {
			in := base(ArmA)
			in.Grades = setGrade(in.Grades, adjudication.KindObligation, "O1", adjudication.ValueNotAddressed)
			return in
		}, want{r: Frac(3, 4), u: u(1, 1), critical: true, source: true}},
		{"C07 generic caveat: no uncertainty credit", func() RunInput {
			in := base(ArmA)
			in.Grades = setGrade(in.Grades, adjudication.KindUncertainty, "O5", adjudication.ValueNotCredited)
			return in
		}, want{r: Frac(4, 4), u: u(0, 1), source: true}},
		{"C08 falsely resolved unknown fails source gate", func() RunInput {
			in := base(ArmA)
			in.Grades = setGrade(in.Grades, adjudication.KindUncertainty, "O5", adjudication.ValueFalselyResolved)
			return in
		}, want{r: Frac(4, 4), u: u(0, 1), sourceFailures: []string{"falsely-resolved-uncertainty:O5"}}},
		{"C08 critical unsupported claim is an invented critical fact", func() RunInput {
			in := base(ArmA)
			in.Grades = setGrade(in.Grades, adjudication.KindClaim, "C2", adjudication.ValueUnsupported)
			in.Grades = setGrade(in.Grades, adjudication.KindClaimCritical, "C2", adjudication.ValueCritical)
			return in
		}, want{r: Frac(4, 4), u: u(1, 1), sourceFailures: []string{"invented-critical-fact:C2"}}},
		{"C10 citation does not support", func() RunInput {
			in := base(ArmA)
			in.Grades = setGrade(in.Grades, adjudication.KindCitation, "K1", adjudication.ValueDoesNotSupport)
			return in
		}, want{r: Frac(4, 4), u: u(1, 1), sourceFailures: []string{"citation-does-not-support:K1"}}},
		{"false completeness", func() RunInput {
			in := base(ArmA)
			in.Grades = setGrade(in.Grades, adjudication.KindCompleteness, adjudication.TargetFinal, adjudication.ValueFalseClaim)
			return in
		}, want{r: Frac(4, 4), u: u(1, 1), sourceFailures: []string{"false-completeness"}}},
		{"C09 structural citation finding fails source gate", func() RunInput {
			in := base(ArmA)
			in.FinalFindings = []string{"citation-line-range:/final/citations/0/end_line"}
			return in
		}, want{r: Frac(4, 4), u: u(1, 1), sourceFailures: []string{"structural:citation-line-range:/final/citations/0/end_line"}}},
		{"packet identity", func() RunInput {
			in := base(ArmA)
			in.PacketIdentityOK = false
			return in
		}, want{r: Frac(4, 4), u: u(1, 1), sourceFailures: []string{"packet-identity"}}},
		{"C11 wrongly excluded: structural pass, protocol gate fails", func() RunInput {
			in := base(ArmB)
			in.Grades = setGrade(in.Grades, adjudication.KindExclusion, "X1", adjudication.ValueWronglyExcludes)
			return in
		}, want{r: Frac(4, 4), u: u(1, 1), source: true, protocol: &fal, structural: &tru, protocolFailure: []string{"wrongly-excludes:X1"}}},
		{"C13 ledger finding fails protocol only", func() RunInput {
			in := base(ArmB)
			in.ProtocolFindings = []string{"disposition-set:/reconciliation/evidence_dispositions"}
			return in
		}, want{r: Frac(4, 4), u: u(1, 1), source: true, protocol: &fal, structural: &fal,
			protocolFailure: []string{"structural:disposition-set:/reconciliation/evidence_dispositions"}}},
		{"valid final with malformed ledger scores final normally", func() RunInput {
			in := base(ArmB)
			in.ReconciliationPresent = false
			return in
		}, want{r: Frac(4, 4), u: u(1, 1), source: true, protocol: &fal, structural: &fal, protocolFailure: []string{"reconciliation-missing"}}},
		{"C16 valid failure", func() RunInput {
			return RunInput{Task: "T1", Repetition: 1, Arm: ArmB, Session: "S3", Outcome: OutcomeValidFailure, FailureKind: "model_timeout"}
		}, want{r: Frac(0, 4), u: u(0, 1), critical: true, claimsNil: true, sourceFailures: []string{"valid-failure"},
			protocol: &fal, structural: &fal, protocolFailure: []string{"valid-failure"}}},
		{"C23 shared-draft failure", func() RunInput {
			return RunInput{Task: "T1", Repetition: 1, Arm: ArmA, Session: "S2", Outcome: OutcomeSharedDraftFailure, FailureKind: "shared_draft_failed"}
		}, want{r: Frac(0, 4), u: u(0, 1), critical: true, claimsNil: true, sourceFailures: []string{"shared-draft-failure"}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rs, err := ScoreRun(truth, tc.in())
			if err != nil {
				t.Fatal(err)
			}
			w := tc.want
			if rs.R.Num() != w.r.Num() || rs.R.Den() != w.r.Den() {
				t.Errorf("R = %d/%d, want %d/%d (denominator never shrinks)", rs.R.Num(), rs.R.Den(), w.r.Num(), w.r.Den())
			}
			if (rs.U == nil) != (w.u == nil) || rs.U != nil && (rs.U.Num() != w.u.Num() || rs.U.Den() != w.u.Den()) {
				t.Errorf("U = %v, want %v", rs.U, w.u)
			}
			if rs.CriticalCompletionFailed != w.critical {
				t.Errorf("critical = %v", rs.CriticalCompletionFailed)
			}
			if (rs.Claims == nil) != w.claimsNil {
				t.Errorf("claims = %+v", rs.Claims)
			}
			wantSource := w.sourceFailures
			if wantSource == nil {
				wantSource = []string{}
			}
			if rs.SourceGate != (len(wantSource) == 0) || !slices.Equal(rs.SourceFailures, wantSource) {
				t.Errorf("source gate %v failures %v, want %v", rs.SourceGate, rs.SourceFailures, wantSource)
			}
			if (rs.ProtocolGate == nil) != (w.protocol == nil) || w.protocol != nil && *rs.ProtocolGate != *w.protocol {
				t.Errorf("protocol gate %v, want %v", rs.ProtocolGate, w.protocol)
			}
			if w.structural != nil && (rs.ProtocolStructural == nil || *rs.ProtocolStructural != *w.structural) {
				t.Errorf("protocol structural %v, want %v", rs.ProtocolStructural, *w.structural)
			}
			wantP := w.protocolFailure
			if wantP == nil {
				wantP = []string{}
			}
			if !slices.Equal(rs.ProtocolFailures, wantP) {
				t.Errorf("protocol failures %v, want %v", rs.ProtocolFailures, wantP)
			}
		})
	}
}

func TestScoreRunUndefinedUAndGradeCompleteness(t *testing.T) {
	truth := testTruth(3)[:3] // no unanswerable obligation
	in := testRun("T1", 1, ArmA, truth, 3)
	rs, err := ScoreRun(truth, in)
	if err != nil {
		t.Fatal(err)
	}
	if rs.U != nil {
		t.Errorf("U = %v, want undefined", rs.U)
	}
	missing := testRun("T1", 1, ArmA, truth, 3)
	missing.Grades = missing.Grades[1:]
	if _, err := ScoreRun(truth, missing); !errors.Is(err, ReasonMissingGrade) {
		t.Errorf("missing grade: %v", err)
	}
	extra := testRun("T1", 1, ArmA, truth, 3)
	extra.Grades = setGrade(extra.Grades, adjudication.KindClaim, "C9", adjudication.ValueSupported)
	if _, err := ScoreRun(truth, extra); !errors.Is(err, ReasonUnexpectedGrade) {
		t.Errorf("unexpected grade: %v", err)
	}
}

func TestMedianAndMeanExact(t *testing.T) {
	if m := MedianFraction([]Fraction{Frac(3, 4), Frac(1, 4)}); m.Cmp(Frac(1, 2)) != 0 {
		t.Errorf("even median %v", m)
	}
	if m := MedianFraction([]Fraction{Frac(9, 10), Frac(1, 10), Frac(7, 10)}); m.Cmp(Frac(7, 10)) != 0 {
		t.Errorf("odd median %v", m)
	}
	if MedianFraction(nil) != nil || MeanFraction(nil) != nil {
		t.Error("empty median/mean must be undefined")
	}
	// 0.1 is not exact in binary floating point; the comparison must be.
	if m := MeanFraction([]Fraction{Frac(1, 10), Frac(2, 10)}); m.Cmp(Frac(3, 20)) != 0 {
		t.Errorf("mean %v", m)
	}
}
