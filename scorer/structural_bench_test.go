package scorer

import (
	"fmt"
	"testing"

	"verdict/campaign"
)

// BenchmarkValidateCampaign validates a generated SYNTHETIC campaign of
// 1,002 sessions (334 runs of D, A and B) and reports sessions per second.
func BenchmarkValidateCampaign(b *testing.B) {
	c := &campaign.Campaign{Tasks: []*campaign.Task{{Entry: campaign.TaskEntry{ID: "T1"}, Packet: *testPacket()}}}
	for i := range 334 {
		run := campaign.Run{Task: "T1", Repetition: i + 1, Order: campaign.OrderAFirst}
		for j, role := range []campaign.Role{campaign.RoleDraft, campaign.RoleReviewA, campaign.RoleReviewB} {
			r := validResponse()
			if role != campaign.RoleReviewB {
				r.Reconciliation = nil
			}
			if i%10 == 0 {
				r.Final.Citations[0].EndLine = 13 // some findings, as in a real campaign
			}
			c.Sessions = append(c.Sessions, &campaign.Session{ID: fmt.Sprintf("S%d", 3*i+j+1), Role: role, Run: run, Response: r})
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if fs := ValidateCampaign(c); len(fs) != 102 {
			b.Fatalf("got %d findings", len(fs))
		}
	}
	b.ReportMetric(float64(len(c.Sessions)*b.N)/b.Elapsed().Seconds(), "sessions/s")
}
