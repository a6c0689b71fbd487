package scorer

import (
	"errors"
	"strings"
	"testing"

	"verdict/adjudication"
	"verdict/verr"
)

func g(item string, kind adjudication.Kind, target, value string) SheetGrade {
	return SheetGrade{Field: adjudication.Field{Item: item, Kind: kind, Target: target}, Value: value}
}

func TestConsensus(t *testing.T) {
	s1 := []SheetGrade{g("I1", adjudication.KindObligation, "O10", adjudication.ValueAddressed), g("I1", adjudication.KindObligation, "O2", adjudication.ValueAddressed), g("I1", adjudication.KindClaim, "C1", adjudication.ValueSupported)}
	s2 := []SheetGrade{g("I1", adjudication.KindObligation, "O2", adjudication.ValueAddressed), g("I1", adjudication.KindObligation, "O10", adjudication.ValueNotAddressed), g("I1", adjudication.KindClaim, "C1", adjudication.ValueSupported)}
	t.Run("agreed and adjudicated", func(t *testing.T) {
		adj := []SheetGrade{g("I1", adjudication.KindObligation, "O10", adjudication.ValueNotAddressed)}
		out, err := Consensus(s1, s2, adj)
		if err != nil {
			t.Fatal(err)
		}
		want := []struct {
			target, value string
			src           GradeSource
		}{{"C1", adjudication.ValueSupported, SourceAgreed}, {"O2", adjudication.ValueAddressed, SourceAgreed}, {"O10", adjudication.ValueNotAddressed, SourceAdjudicated}}
		if len(out) != len(want) {
			t.Fatalf("got %d grades", len(out))
		}
		for i, w := range want {
			if out[i].Field.Target != w.target || out[i].Value != w.value || out[i].Source != w.src {
				t.Errorf("grade %d = %+v, want %+v", i, out[i], w)
			}
		}
	})
	errCases := []struct {
		name       string
		a, b, adj  []SheetGrade
		wantReason error
	}{
		{"open disagreement", s1, s2, nil, ReasonOpenDisagreement},
		{"field only one sheet holds", s1[:2], s2, []SheetGrade{g("I1", adjudication.KindObligation, "O10", adjudication.ValueAddressed)}, ReasonOpenDisagreement},
		{"adjudicating an agreed field", s1, s2, []SheetGrade{g("I1", adjudication.KindObligation, "O10", adjudication.ValueAddressed), g("I1", adjudication.KindObligation, "O2", adjudication.ValueNotAddressed)}, ReasonAdjudicatedAgreedField},
		{"adjudicating an ungraded field", s1, s2, []SheetGrade{g("I1", adjudication.KindObligation, "O10", adjudication.ValueAddressed), g("I9", adjudication.KindObligation, "O2", adjudication.ValueNotAddressed)}, ReasonAdjudicatedAgreedField},
		{"value outside GRADES.md", []SheetGrade{g("I1", adjudication.KindClaim, "C1", "maybe")}, nil, nil, ReasonGradeValue},
		{"unknown kind", []SheetGrade{g("I1", "vibe", "C1", adjudication.ValueSupported)}, nil, nil, ReasonGradeKind},
		{"duplicate", []SheetGrade{s1[0], s1[0]}, nil, nil, ReasonDuplicateGrade},
		{"oracle defect without reason", []SheetGrade{g("I1", adjudication.KindOracleDefect, "O1", adjudication.ValueDefective)}, nil, nil, ReasonOracleDefectNote},
		{"completeness target", []SheetGrade{g("I1", adjudication.KindCompleteness, "C1", adjudication.ValueFalseClaim)}, nil, nil, ReasonGradeValue},
	}
	for _, tc := range errCases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Consensus(tc.a, tc.b, tc.adj)
			if !errors.Is(err, tc.wantReason) {
				t.Fatalf("err = %v, want %v", err, tc.wantReason)
			}
		})
	}
	t.Run("single oracle flag confirmed or rejected", func(t *testing.T) {
		flag := SheetGrade{Field: adjudication.Field{Item: "I1", Kind: adjudication.KindOracleDefect, Target: "O3"}, Value: adjudication.ValueDefective, Note: "task text contradicts source"}
		out, err := Consensus([]SheetGrade{flag}, nil, []SheetGrade{g("I1", adjudication.KindOracleDefect, "O3", adjudication.ValueDefective)})
		if err != nil || len(out) != 1 || out[0].Value != adjudication.ValueDefective || len(out[0].Notes) != 1 {
			t.Fatalf("confirm: %v %+v", err, out)
		}
		out, err = Consensus([]SheetGrade{flag}, nil, []SheetGrade{g("I1", adjudication.KindOracleDefect, "O3", adjudication.ValueWithdrawn)})
		if err != nil || len(out) != 0 {
			t.Fatalf("reject: %v %+v", err, out)
		}
		if _, err := Consensus([]SheetGrade{flag}, nil, nil); !errors.Is(err, ReasonOpenDisagreement) {
			t.Fatalf("open flag: %v", err)
		}
		if _, err := Consensus([]SheetGrade{g("I1", adjudication.KindOracleDefect, "O3", adjudication.ValueWithdrawn)}, nil, nil); !errors.Is(err, ReasonGradeValue) {
			t.Fatalf("a withdrawn flag in a sheet: %v", err)
		}
	})
}

// TestConsensusJoinOrder checks the sorted join: sheets in any order, an
// adjudicated field before, between and after the sheets' fields, and the
// refusal naming the first offending grade.
func TestConsensusJoinOrder(t *testing.T) {
	s1 := []SheetGrade{g("I2", adjudication.KindClaim, "C1", adjudication.ValueWrong), g("I10", adjudication.KindClaim, "C1", adjudication.ValueSupported), g("I1", adjudication.KindClaim, "C1", adjudication.ValueSupported)}
	s2 := []SheetGrade{g("I1", adjudication.KindClaim, "C1", adjudication.ValueSupported), g("I2", adjudication.KindClaim, "C1", adjudication.ValueSupported), g("I10", adjudication.KindClaim, "C1", adjudication.ValueSupported)}
	out, err := Consensus(s1, s2, []SheetGrade{g("I2", adjudication.KindClaim, "C1", adjudication.ValueUnsupported)})
	if err != nil {
		t.Fatal(err)
	}
	var items []string
	for _, c := range out {
		items = append(items, c.Field.Item+"="+c.Value+"/"+string(c.Source))
	}
	if got, want := strings.Join(items, " "), "I1=supported/agreed I2=unsupported/adjudicated I10=supported/agreed"; got != want {
		t.Fatalf("got %s, want %s", got, want)
	}
	for _, orphan := range []string{"I0", "I3", "I11"} {
		_, err := Consensus(s1, s2, []SheetGrade{g("I2", adjudication.KindClaim, "C1", adjudication.ValueUnsupported), g(orphan, adjudication.KindClaim, "C1", adjudication.ValueWrong)})
		var ce *verr.Error
		if !errors.As(err, &ce) || ce.Reason != ReasonAdjudicatedAgreedField || ce.Pointer != orphan+"/claim/C1" {
			t.Fatalf("orphan %s: %v", orphan, err)
		}
	}
	dup := []SheetGrade{g("I3", adjudication.KindClaim, "C1", adjudication.ValueWrong), g("I1", adjudication.KindClaim, "C1", adjudication.ValueWrong), g("I1", adjudication.KindClaim, "C1", adjudication.ValueWrong), g("I3", adjudication.KindClaim, "C1", adjudication.ValueWrong)}
	var ce *verr.Error
	if _, err := Consensus(dup, nil, nil); !errors.As(err, &ce) || ce.Reason != ReasonDuplicateGrade || ce.Pointer != "I1/claim/C1" {
		t.Fatalf("duplicate: %v", err)
	}
	// A bad value before the first repeat decides the refusal.
	bad := append([]SheetGrade{g("I0", adjudication.KindClaim, "C1", "maybe")}, dup...)
	if _, err := Consensus(bad, nil, nil); !errors.Is(err, ReasonGradeValue) {
		t.Fatalf("bad value first: %v", err)
	}
}
