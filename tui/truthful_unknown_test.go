package tui

import (
	"strings"
	"testing"

	"verdict/adjudication"
	"verdict/campaign"
)

// On a system comparison's bundle key 4 grades an uncertainty field (the
// U set) truthful_unknown, shown under the choices with its definition and
// in the codebook; key 4 is disabled on a repository-answerable obligation
// (whose truthful unknown is key 3: TestRateTruthfulUnknownObligationKey).
// On a fixed-evidence bundle key 4 is disabled everywhere and does
// nothing, and the screen never offers truthful unknown (CONTRACT §6).
func TestRateTruthfulUnknownKey(t *testing.T) {
	for _, design := range []campaign.Design{campaign.DesignSystemComparison, campaign.DesignFixedEvidence} {
		b := synthBundle(1)
		if design == campaign.DesignSystemComparison {
			b.Design = design
		}
		e := newRateEnv(t, b)
		m, r := newTestRater(t, e, 120, 40)
		sys := design == campaign.DesignSystemComparison
		if r.cur().Kind != adjudication.KindObligation || r.grade.keys.Values[3].Enabled() {
			t.Fatalf("%s: %v, key 4 enabled on an obligation: %v", design, r.cur(), r.grade.keys.Values[3].Enabled())
		}
		before := r.nGraded
		m = press(m, "4")
		if r.nGraded != before {
			t.Fatalf("%s: key 4 graded a repository-answerable obligation", design)
		}
		m = press(m, "j", "j") // O3, the obligation whose evidence is absent
		f := r.cur()
		if f.Kind != adjudication.KindUncertainty {
			t.Fatalf("%s: at %v", design, f)
		}
		if got := r.grade.keys.Values[3].Enabled(); got != sys {
			t.Fatalf("%s: key 4 enabled %v on an uncertainty field", design, got)
		}
		shown := screen(m)
		if strings.Contains(shown, "[4] truthful unknown") != sys {
			t.Errorf("%s: the choices offer truthful unknown: %v\n%s", design, !sys, shown)
		}
		m = press(m, "4")
		g, ok := e.j.Value(f)
		if sys && (!ok || g.Value != adjudication.ValueTruthfulUnknown) {
			t.Errorf("%s: key 4 saved %v %v", design, g, ok)
		}
		if !sys && ok {
			t.Errorf("%s: key 4 saved %v on a fixed-evidence field", design, g)
		}
		m = press(m, "g")
		if got := strings.Contains(screen(m), "truthful unknown"); got != sys {
			t.Errorf("%s: the codebook panel names truthful unknown: %v\n%s", design, got, screen(m))
		}
	}
}

// On a system comparison's bundle key 3 grades a repository-answerable
// obligation truthful_unknown (CONTRACT §6: U credit only, never
// addressed), shown under the choices; on a fixed-evidence bundle the
// obligation has two values, key 3 is disabled and does nothing.
func TestRateTruthfulUnknownObligationKey(t *testing.T) {
	for _, design := range []campaign.Design{campaign.DesignSystemComparison, campaign.DesignFixedEvidence} {
		b := synthBundle(1)
		if design == campaign.DesignSystemComparison {
			b.Design = design
		}
		e := newRateEnv(t, b)
		m, r := newTestRater(t, e, 120, 40)
		sys := design == campaign.DesignSystemComparison
		f := r.cur()
		if f.Kind != adjudication.KindObligation || r.grade.keys.Values[2].Enabled() != sys {
			t.Fatalf("%s: %v, key 3 enabled %v", design, f, r.grade.keys.Values[2].Enabled())
		}
		if shown := screen(m); strings.Contains(shown, "[3] truthful unknown") != sys {
			t.Errorf("%s: the choices offer truthful unknown: %v\n%s", design, !sys, shown)
		}
		press(m, "3")
		g, ok := e.j.Value(f)
		if sys && (!ok || g.Value != adjudication.ValueTruthfulUnknown) {
			t.Errorf("%s: key 3 saved %v %v", design, g, ok)
		}
		if !sys && ok {
			t.Errorf("%s: key 3 saved %v on a fixed-evidence obligation", design, g)
		}
	}
}

// An adjudicator's dispute between credited and truthful unknown on a
// system comparison's U-set field shows each rating with its definition;
// 2 settles it on truthful_unknown, and v offers only the values of the
// kind's vocabulary that neither rater chose (never truthful unknown,
// which a resolution may not add).
func TestAdjudicateTruthfulUnknownDispute(t *testing.T) {
	e := &adjEnv{}
	in := e.input()
	in.Bundle.Design = campaign.DesignSystemComparison
	it := in.Bundle.Items[0].ID
	// The rule verdict adjudicate checks a decision with.
	in.Check = func(d Dispute, final, note string) error {
		return adjudication.CheckResolution(adjudication.Disagreement{Field: d.Field, Values: d.Values}, final, note)
	}
	in.Disputes = []Dispute{{Field: adjudication.Field{Item: it, Kind: adjudication.KindUncertainty, Target: "O3"},
		Values: [2]string{adjudication.ValueCredited, adjudication.ValueTruthfulUnknown}}}
	m := NewAdjudicateModel(in, testOptions(120, 40))
	a := m.(*root).child.(*adjudicator)
	m = press(m, "esc")
	short, _ := adjudication.Definition(adjudication.KindUncertainty, adjudication.ValueTruthfulUnknown)
	if s := screen(m); !strings.Contains(s, "truthful unknown — "+short[:19]) {
		t.Fatalf("the second rating is not shown with its definition:\n%s", s)
	}
	if got := otherValues(&in.Disputes[0]); len(got) != 2 || got[0] != adjudication.ValueNotCredited || got[1] != adjudication.ValueFalselyResolved {
		t.Errorf("other values %v", got)
	}
	press(m, "2")
	if a.decisions[0] == nil || a.decisions[0].Final != adjudication.ValueTruthfulUnknown {
		t.Fatalf("2: %+v", a.decisions[0])
	}
}
