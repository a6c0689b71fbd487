package blinding

import "testing"

// TestTypedScanCoversBundle: every type a Bundle holds has the shape the
// typed scan walks, so ScanBundles never falls back to encoding.
func TestTypedScanCoversBundle(t *testing.T) {
	if !bundleTyped {
		t.Fatal("a type held by Bundle is not walked by the typed scan")
	}
}
