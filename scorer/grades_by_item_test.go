package scorer

import (
	"testing"
	"verdict/adjudication"
)

func TestGradesByItem(t *testing.T) {
	cg := func(item, target string) ConsensusGrade {
		return ConsensusGrade{Field: adjudication.Field{Item: item, Kind: adjudication.KindClaim, Target: target}, Value: adjudication.ValueSupported}
	}
	sorted := []ConsensusGrade{cg("I1", "C1"), cg("I1", "C2"), cg("I2", "C1")}
	m := gradesByItem(sorted)
	if len(m) != 2 || len(m["I1"]) != 2 || len(m["I2"]) != 1 || &m["I1"][0] != &sorted[0] {
		t.Fatalf("contiguous groups: %+v", m)
	}
	if cap(m["I1"]) != 2 {
		t.Fatalf("group I1 has cap %d: an append would overwrite I2's grade", cap(m["I1"]))
	}
	mixed := []ConsensusGrade{cg("I2", "C1"), cg("I1", "C2"), cg("I2", "C3"), cg("I1", "C1")}
	m = gradesByItem(mixed)
	if len(m) != 2 || len(m["I2"]) != 2 || m["I2"][1].Field.Target != "C3" || m["I1"][0].Field.Target != "C2" || m["I1"][1].Field.Target != "C1" {
		t.Fatalf("non-contiguous groups: %+v", m)
	}
	if mixed[0].Field.Item != "I2" || mixed[1].Field.Item != "I1" {
		t.Fatal("gradesByItem reordered its input")
	}
}
