package scorer

import (
	"errors"
	"testing"

	"verdict/adjudication"
	"verdict/campaign"
	"verdict/verr"
)

func wantReason(t *testing.T, err error, r verr.Reason) *verr.Error {
	t.Helper()
	var e *verr.Error
	if !errors.As(err, &e) || e.Reason != r {
		t.Fatalf("error %v, want reason %s", err, r)
	}
	return e
}

// A settled truthful_unknown on a system comparison's U-set obligation
// earns U credit as credited does, and R never moves: whatever the U set's
// grade, R is the share of the repository-answerable obligations
// addressed over all of them (CONTRACT §6).
func TestScoreRunTruthfulUnknownUCreditOnly(t *testing.T) {
	truth := testTruth(5) // O1..O5 repository-answerable, O6 the U set
	for _, tc := range []struct {
		u     string
		wantU string
		met   bool
	}{
		{adjudication.ValueTruthfulUnknown, "1/1", true},
		{adjudication.ValueCredited, "1/1", true},
		{adjudication.ValueNotCredited, "0/1", false},
	} {
		in := testRun("T1", 1, ArmA, truth, 3)
		in.SystemComparison = true
		in.Grades = setGrade(in.Grades, adjudication.KindUncertainty, "O6", tc.u)
		rs, err := ScoreRun(truth, in)
		if err != nil {
			t.Fatalf("%s: %v", tc.u, err)
		}
		if rs.R.String() != "3/5" || rs.U == nil || rs.U.String() != tc.wantU {
			t.Errorf("%s: R %s U %v, want R 3/5 U %s", tc.u, rs.R, rs.U, tc.wantU)
		}
		if o := rs.Obligations[5]; o.ID != "O6" || o.Value != tc.u || o.Met != tc.met {
			t.Errorf("%s: outcome %+v", tc.u, o)
		}
	}
}

// A settled truthful_unknown on a system comparison's repository-answerable
// obligation is accepted and counted apart, never addressed: R keeps its
// whole denominator, and on a critical obligation critical completion
// fails (CONTRACT §6).
func TestScoreRunTruthfulUnknownOnAnswerable(t *testing.T) {
	truth := testTruth(5) // O1 critical
	for _, tc := range []struct {
		target, v string
		wantR     string
		count     int
		critical  bool
	}{
		{"O5", adjudication.ValueTruthfulUnknown, "4/5", 1, false},
		{"O5", adjudication.ValueNotAddressed, "4/5", 0, false},
		{"O1", adjudication.ValueTruthfulUnknown, "4/5", 1, true},
	} {
		in := testRun("T1", 1, ArmA, truth, 5)
		in.SystemComparison = true
		in.Grades = setGrade(in.Grades, adjudication.KindObligation, tc.target, tc.v)
		rs, err := ScoreRun(truth, in)
		if err != nil {
			t.Fatalf("%s=%s: %v", tc.target, tc.v, err)
		}
		if rs.R.String() != tc.wantR || rs.TruthfulUnknowns != tc.count || rs.CriticalCompletionFailed != tc.critical || rs.U.String() != "1/1" {
			t.Errorf("%s=%s: R %s truthful unknowns %d critical failed %v U %s", tc.target, tc.v, rs.R, rs.TruthfulUnknowns, rs.CriticalCompletionFailed, rs.U)
		}
		for _, o := range rs.Obligations {
			if o.ID == tc.target && o.Met {
				t.Errorf("%s=%s: outcome met", tc.target, tc.v)
			}
		}
	}
}

// A truthful_unknown is refused on a fixed-evidence run (its codebook has
// no such value) and, in a system comparison, on a target that is none of
// the task's obligations of its kind, naming the response file and the
// field.
func TestScoreRunTruthfulUnknownRefusedOutsideObligations(t *testing.T) {
	truth := testTruth(5)
	fixed := testRun("T1", 1, ArmB, truth, 5)
	fixed.Grades = setGrade(fixed.Grades, adjudication.KindUncertainty, "O6", adjudication.ValueTruthfulUnknown)
	_, err := ScoreRun(truth, fixed)
	e := wantReason(t, err, adjudication.ReasonTruthfulUnknownOutsideObligations)
	if e.File != campaign.ResponsePath(fixed.Session) || e.Pointer != fixed.Item+"/uncertainty/O6" {
		t.Errorf("file %q pointer %q", e.File, e.Pointer)
	}
	for _, f := range []struct {
		kind   adjudication.Kind
		target string
	}{{adjudication.KindObligation, "O6"}, {adjudication.KindUncertainty, "O2"}, {adjudication.KindObligation, "O9"}} {
		sys := testRun("T1", 1, ArmA, truth, 4)
		sys.SystemComparison = true
		sys.Grades = append(sys.Grades, ConsensusGrade{Field: adjudication.Field{Item: sys.Item, Kind: f.kind, Target: f.target},
			Value: adjudication.ValueTruthfulUnknown, Source: SourceAgreed})
		_, err = ScoreRun(truth, sys)
		e = wantReason(t, err, adjudication.ReasonTruthfulUnknownOutsideObligations)
		if e.File != campaign.ResponsePath(sys.Session) || e.Pointer != sys.Item+"/"+string(f.kind)+"/"+f.target || e.Rule != "CONTRACT §6" {
			t.Errorf("%s/%s: file %q pointer %q rule %q", f.kind, f.target, e.File, e.Pointer, e.Rule)
		}
	}
}

// In the system scorecard a review whose U set is a truthful unknown has
// U credit and the same R_sys over the same frozen denominator as one
// whose U set is not credited; the system's U count rises, its macro R_sys
// does not. EvaluateSystems marks every review as a system comparison's
// even when its input did not.
func TestSystemsTruthfulUnknownUCreditNeverRaisesRSys(t *testing.T) {
	score := func(u string) *SystemScorecard {
		in := passingSys()
		w := in.wf(campaign.SystemNative, "T3", 2)
		w.Review.Grades = testGrades(w.Review.Item, in.Tasks[0].Obligations, 3)
		w.Review.Grades = setGrade(w.Review.Grades, adjudication.KindUncertainty, "O6", u)
		return evalSys(t, in)
	}
	tu, none := score(adjudication.ValueTruthfulUnknown), score(adjudication.ValueNotCredited)
	for _, sc := range []*SystemScorecard{tu, none} {
		for _, w := range sc.Workflows {
			if w.System == campaign.SystemNative && w.Task == "T3" && w.Repetition == 2 && w.RSys.String() != "3/5" {
				t.Errorf("R_sys %s, want 3/5 whatever the U set's grade", w.RSys)
			}
		}
	}
	a, b := tu.System(campaign.SystemNative), none.System(campaign.SystemNative)
	if a.UncertaintyCredited != b.UncertaintyCredited+1 || a.UncertaintyCases != b.UncertaintyCases {
		t.Errorf("U credited %d/%d against %d/%d", a.UncertaintyCredited, a.UncertaintyCases, b.UncertaintyCredited, b.UncertaintyCases)
	}
	if a.MacroMedianRSys.String() != b.MacroMedianRSys.String() {
		t.Errorf("macro R_sys %s with the truthful unknown, %s without", a.MacroMedianRSys, b.MacroMedianRSys)
	}

	in := passingSys()
	w := in.wf(campaign.SystemMadar, "T1", 1)
	w.Review.Grades = append(w.Review.Grades, ConsensusGrade{Field: adjudication.Field{Item: w.Review.Item, Kind: adjudication.KindObligation, Target: "O6"},
		Value: adjudication.ValueTruthfulUnknown, Source: SourceAgreed})
	_, err := EvaluateSystems(*in)
	wantReason(t, err, adjudication.ReasonTruthfulUnknownOutsideObligations)
}
