package scorer

import (
	"encoding/json"
	"testing"

	"verdict/campaign"
	"verdict/verr"
)

func TestReferenceCostTable(t *testing.T) {
	card := ContractPriceCard()
	cases := []struct {
		name      string
		m         *campaign.Meter
		wantPico  int64
		wantUSD   string
		wantKnown bool
		wantWhy   verr.Reason
	}{
		{"worked case: input includes cached", &campaign.Meter{InputTokens: 20212, CachedInputTokens: 16298, OutputTokens: 931, InputIncludesCached: true, OutputIncludesReasoning: true}, 40_795_200_000, "0.0407952", true, ""},
		{"worked case: cached reported separately", &campaign.Meter{InputTokens: 3914, CachedInputTokens: 16298, OutputTokens: 931, OutputIncludesReasoning: true}, 40_795_200_000, "0.0407952", true, ""},
		{"reasoning included is not added twice", &campaign.Meter{InputTokens: 1000, OutputTokens: 500, ReasoningTokens: 300, InputIncludesCached: true, OutputIncludesReasoning: true}, 1000*4_000_000 + 500*20_000_000, "0.014", true, ""},
		{"reasoning excluded is added once", &campaign.Meter{InputTokens: 1000, OutputTokens: 500, ReasoningTokens: 300, InputIncludesCached: true}, 1000*4_000_000 + 800*20_000_000, "0.02", true, ""},
		{"one uncached token", &campaign.Meter{InputTokens: 1, InputIncludesCached: true}, 4_000_000, "0.000004", true, ""},
		{"one cached token", &campaign.Meter{InputTokens: 1, CachedInputTokens: 1, InputIncludesCached: true}, 400_000, "0.0000004", true, ""},
		{"per-session worst case", &campaign.Meter{InputTokens: 90000, OutputTokens: 8000, InputIncludesCached: true, OutputIncludesReasoning: true}, 520_000_000_000, "0.52", true, ""},
		{"campaign token ceilings", &campaign.Meter{InputTokens: 3_000_000, OutputTokens: 600_000, InputIncludesCached: true, OutputIncludesReasoning: true}, 24 * PicoPerUSD, "24.00", true, ""},
		{"zero usage is a known zero", &campaign.Meter{InputIncludesCached: true, OutputIncludesReasoning: true}, 0, "0.00", true, ""},
		{"missing meter is unknown", nil, 0, "unknown", false, ReasonMeterMissing},
		{"cached above included total", &campaign.Meter{InputTokens: 10, CachedInputTokens: 11, InputIncludesCached: true}, 0, "unknown", false, ReasonMeterInconsistent},
		{"reasoning above included output", &campaign.Meter{OutputTokens: 10, ReasoningTokens: 11, OutputIncludesReasoning: true}, 0, "unknown", false, ReasonMeterInconsistent},
		{"negative count", &campaign.Meter{InputTokens: -1}, 0, "unknown", false, ReasonMeterInconsistent},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := ReferenceCost(tc.m, &card)
			if got.Known != tc.wantKnown || got.String() != tc.wantUSD || got.Why != tc.wantWhy {
				t.Fatalf("got %+v %q, want known=%v %q why=%q", got, got.String(), tc.wantKnown, tc.wantUSD, tc.wantWhy)
			}
			if tc.wantKnown && got.PicoUSD != tc.wantPico {
				t.Fatalf("pico = %d, want %d", got.PicoUSD, tc.wantPico)
			}
		})
	}
	if got := ReferenceCost(cases[0].m, nil); got.Known || got.Why != ReasonTariffMissing || got.String() != "unknown" {
		t.Fatalf("missing card: %+v", got)
	}
}

func TestDeriveTokensWorkedCase(t *testing.T) {
	tk, err := DeriveTokens(&campaign.Meter{InputTokens: 20212, CachedInputTokens: 16298, OutputTokens: 931, InputIncludesCached: true, OutputIncludesReasoning: true})
	if err != nil {
		t.Fatal(err)
	}
	if tk != (MeterTokens{InputTotal: 20212, Uncached: 3914, Cached: 16298, BilledOutput: 931}) {
		t.Fatalf("%+v", tk)
	}
}

func TestMoneyRenderingAndUnknown(t *testing.T) {
	cases := map[string]Money{
		"0.0407952":      Pico(40_795_200_000),
		"30.00":          USD(30),
		"0.000001":       MicroUSD(1),
		"0.00":           Pico(0),
		"-0.50":          Pico(-PicoPerUSD / 2),
		"unknown":        UnknownMoney(ReasonMeterMissing),
		"0.000000000001": Pico(1),
	}
	for want, m := range cases {
		if m.String() != want {
			t.Errorf("%+v renders %q, want %q", m, m.String(), want)
		}
	}
	if s := USD(1).Add(UnknownMoney(ReasonTariffMissing)); s.Known || s.Why != ReasonTariffMissing {
		t.Fatalf("known+unknown = %+v", s)
	}
	b, _ := json.Marshal(UnknownMoney(ReasonMeterMissing))
	if string(b) != `{"known":false,"usd":"unknown","why":"meter-missing"}` {
		t.Fatal(string(b))
	}
	b, _ = json.Marshal(Pico(40_795_200_000))
	if string(b) != `{"known":true,"pico_usd":40795200000,"usd":"0.0407952"}` {
		t.Fatal(string(b))
	}
	if KnownTokens(3_000_000).String() != "3,000,000" || UnknownTokens(ReasonMeterMissing).String() != "unknown" {
		t.Fatal("tokens rendering")
	}
	if KnownNanos(12_500_000_000).String() != "12.5s" || KnownNanos(240_000_000_000).String() != "240s" {
		t.Fatal(KnownNanos(12_500_000_000).String())
	}
}

func TestRatioExactBounds(t *testing.T) {
	r := func(n, d int64) Ratio { return RatioOf(exactInt(n), exactInt(d)) }
	if !r(110, 100).AtMost(11, 10) {
		t.Fatal("1.10 exactly must pass ≤ 1.10")
	}
	if r(1_100_000_000_001, 1_000_000_000_000).AtMost(11, 10) {
		t.Fatal("just above 1.10 must fail")
	}
	if !r(1_099_999_999_999, 1_000_000_000_000).AtMost(11, 10) {
		t.Fatal("just below 1.10 must pass")
	}
	if r(1, 0).Known || r(1, 0).Why != ReasonRatioUndefined {
		t.Fatal("zero denominator must be undefined")
	}
	if l := r(10873, 10000).Label("cost"); l != "increased cost by 8.73%" {
		t.Fatal(l)
	}
	if r(1, 1).Label("cost") != "" {
		t.Fatal("ratio 1 is not an increase")
	}
	m := Median([]int64{5, 1, 3}, []bool{true, true, true}, make([]verr.Reason, 3))
	if m.Rat().RatString() != "3" {
		t.Fatal(m.Rat())
	}
	m = Median([]int64{1, 2}, []bool{true, true}, make([]verr.Reason, 2))
	if m.Rat().RatString() != "3/2" {
		t.Fatal(m.Rat())
	}
	m = Median([]int64{1, 2}, []bool{true, false}, []verr.Reason{"", ReasonMeterMissing})
	if m.Known || m.Why != ReasonMeterMissing {
		t.Fatal("unknown input must give unknown median")
	}
}
