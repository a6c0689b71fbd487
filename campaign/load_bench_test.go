package campaign_test

import (
	"testing"

	. "verdict/campaign"
	"verdict/internal/campaigntest"
)

// BenchmarkLoad loads and validates a generated SYNTHETIC campaign of
// 8 tasks × 42 repetitions = 336 runs = 1,008 sessions (responses,
// receipts, packets, truth and source files all bound by SHA-256).
// MB/s is over the campaign's total file bytes; cpu-ns/op is the process
// CPU time per Load (Load runs on GOMAXPROCS goroutines).
func BenchmarkLoad(b *testing.B) {
	fsys := campaigntest.Campaign(b, campaigntest.Options{}, 8, 42)
	var total int64
	for _, f := range fsys {
		total += int64(len(f.Data))
	}
	c, err := Load(fsys)
	if err != nil {
		b.Fatal(err)
	}
	if len(c.Sessions) < 1000 {
		b.Fatalf("only %d sessions", len(c.Sessions))
	}
	b.SetBytes(total)
	b.ReportAllocs()
	b.ResetTimer()
	cpu := cpuTime()
	for b.Loop() {
		if _, err := Load(fsys); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, cpu)
}
