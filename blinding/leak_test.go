package blinding_test

import (
	"testing"

	"verdict/blinding"
	"verdict/internal/synth"
)

// TestNoLeaksInSyntheticBundles scans every bundle of the synthetic test
// campaign for every forbidden field name and revealing token.
func TestNoLeaksInSyntheticBundles(t *testing.T) {
	res := build(t)
	if len(res.Findings) != 0 {
		t.Fatalf("findings: %v", res.Findings)
	}
}

func TestScanFindsPlantedLeaks(t *testing.T) {
	c := synth.Campaign()
	c.Sessions[1].Response.Final.Claims[0].Text = "As the Review-B ledger shows, synthetic-model-x1 agrees (see S3)."
	res, err := blinding.Build(c, blinding.Options{Key: synth.Key, Raters: []string{"r1"}})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, f := range res.Findings {
		if f.Kind != blinding.FindingToken || f.Item == "" {
			t.Errorf("unexpected finding %v", f)
		}
		got[f.Token] = true
	}
	for _, want := range []string{"review-b", "ledger", "synthetic-model-x1", "s3"} {
		if !got[want] {
			t.Errorf("token %q not found; findings %v", want, res.Findings)
		}
	}
	fs := blinding.NewScanner(nil).ScanJSON("r1", []byte(`{"items":[{"id":"item-1","Reconciliation":null,"final":{"x":"harmless charm"}}]}`))
	if len(fs) != 1 || fs[0].Kind != blinding.FindingField || fs[0].Pointer != "/items/0/Reconciliation" || fs[0].Item != "item-1" {
		t.Fatalf("field scan: %v", fs)
	}
	if fs := blinding.NewScanner([]string{"arm"}).ScanJSON("r", []byte(`{"a":"harm, alarm, arms"}`)); len(fs) != 0 {
		t.Fatalf("word boundary: %v", fs)
	}
}

func TestScanExemptsSharedInputs(t *testing.T) {
	doc := `{"items":[{"id":"item-1","task_text":"Explain the ledger module.","evidence":[{"excerpt":"review-b"}],"final":{"claims":[{"text":"The ledger rounds; see review-b and the reconciliation."}]}},
	{"id":"item-2","task_text":"Explain rounding.","final":{"claims":[{"text":"The ledger rounds."}]}}]}`
	fs := blinding.NewScanner([]string{"ledger", "review-b", "reconciliation"}).ScanJSON("r", []byte(doc))
	if len(fs) != 2 || fs[0].Item != "item-1" || fs[0].Token != "reconciliation" || fs[1].Item != "item-2" || fs[1].Token != "ledger" {
		t.Fatalf("findings %v", fs)
	}
}
