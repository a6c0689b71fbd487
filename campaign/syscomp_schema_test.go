package campaign_test

import (
	"testing"

	"verdict/campaign"
)

// TestSystemSchemasCompile compiles every system-comparison schema and
// keeps the fixed-evidence digests list unchanged (its output is
// byte-identical).
func TestSystemSchemasCompile(t *testing.T) {
	if n := len(campaign.SystemSchemaDigests()); n != 6 {
		t.Fatalf("%d system schemas, want 6", n)
	}
	if n := len(campaign.SchemaDigests()); n != 5 {
		t.Fatalf("%d fixed-evidence schemas, want 5", n)
	}
}

// TestSystemDecodersRefuseWrongFile feeds each system-comparison decoder
// a file of another kind: each refuses it with a typed reason.
func TestSystemDecodersRefuseWrongFile(t *testing.T) {
	other := []byte(`{"task":"T1","obligations":[]}`)
	for name, dec := range map[string]func([]byte, string) error{
		"manifest": func(b []byte, f string) error { _, err := campaign.DecodeSystemManifest(b, f); return err },
		"truth":    func(b []byte, f string) error { _, err := campaign.DecodeSystemTruth(b, f); return err },
		"receipt":  func(b []byte, f string) error { _, err := campaign.DecodeSystemReceipt(b, f); return err },
		"log":      func(b []byte, f string) error { _, err := campaign.DecodeObservationLog(b, f); return err },
		"packet":   func(b []byte, f string) error { _, err := campaign.DecodeObservationPacket(b, f); return err },
		"setup":    func(b []byte, f string) error { _, err := campaign.DecodeSetup(b, f); return err },
	} {
		if err := dec(other, name+".json"); err == nil {
			t.Errorf("%s: accepted a truth file of the first experiment", name)
		}
	}
	for in, want := range map[string]campaign.Design{`{"contract_version":"x"}`: campaign.DesignFixedEvidence, `{"a":[1,{"design":"x"}],"design":"system-comparison"}`: campaign.DesignSystemComparison} {
		if d, err := campaign.ManifestDesign([]byte(in), "manifest.json"); err != nil || d != want {
			t.Errorf("ManifestDesign(%s) = %q, %v; want %q", in, d, err, want)
		}
	}
	if _, err := campaign.ManifestDesign([]byte(`{"design":"ablation"}`), "manifest.json"); err == nil {
		t.Error("ManifestDesign accepted an unknown design")
	}
	if len(campaign.SystemPermutations()) != 6 {
		t.Error("not six permutations")
	}
}
