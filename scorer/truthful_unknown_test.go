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

// A truthful_unknown is refused on a fixed-evidence run (its codebook has
// no such value) and on a repository-answerable obligation of a system
// comparison (an unknown there is not addressed; it never shrinks the
// denominator), naming the response file and the field.
func TestScoreRunTruthfulUnknownRefusedOutsideUSet(t *testing.T) {
	truth := testTruth(5)
	fixed := testRun("T1", 1, ArmB, truth, 5)
	fixed.Grades = setGrade(fixed.Grades, adjudication.KindUncertainty, "O6", adjudication.ValueTruthfulUnknown)
	_, err := ScoreRun(truth, fixed)
	e := wantReason(t, err, adjudication.ReasonTruthfulUnknownOutsideUSet)
	if e.File != campaign.ResponsePath(fixed.Session) || e.Pointer != fixed.Item+"/uncertainty/O6" {
		t.Errorf("file %q pointer %q", e.File, e.Pointer)
	}
	sys := testRun("T1", 1, ArmA, truth, 4)
	sys.SystemComparison = true
	sys.Grades = setGrade(sys.Grades, adjudication.KindObligation, "O5", adjudication.ValueTruthfulUnknown)
	_, err = ScoreRun(truth, sys)
	e = wantReason(t, err, adjudication.ReasonTruthfulUnknownOutsideUSet)
	if e.Pointer != sys.Item+"/obligation/O5" {
		t.Errorf("pointer %q", e.Pointer)
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
	w.Review.Grades = setGrade(w.Review.Grades, adjudication.KindObligation, "O2", adjudication.ValueTruthfulUnknown)
	_, err := EvaluateSystems(*in)
	wantReason(t, err, adjudication.ReasonTruthfulUnknownOutsideUSet)
}
