package campaign_test

import (
	"testing"

	. "verdict/campaign"
)

// BenchmarkResponseRulesClean runs the response rules alone on a clean
// maximum-size response (maxResponse).
func BenchmarkResponseRulesClean(b *testing.B) {
	v := maxResponse()
	b.ReportAllocs()
	for b.Loop() {
		if err := ResponseRulesErr(v, RoleReviewB); err != nil {
			b.Fatal(err)
		}
	}
}
