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
			if v, _ := got.Int(); tc.wantKnown && v != tc.wantPico {
				t.Fatalf("pico = %d, want %d", v, tc.wantPico)
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
		"0.0407952":      Of[PicoUSD](40_795_200_000),
		"30.00":          Of[PicoUSD](30 * PicoPerUSD),
		"0.000001":       MicroUSD(1),
		"0.00":           Of[PicoUSD](0),
		"-0.50":          Of[PicoUSD](-PicoPerUSD / 2),
		"unknown":        Unknown[PicoUSD](ReasonMeterMissing),
		"0.000000000001": Of[PicoUSD](1),
	}
	for want, m := range cases {
		if m.String() != want {
			t.Errorf("%+v renders %q, want %q", m, m.String(), want)
		}
	}
	if s := Of[PicoUSD](PicoPerUSD).Add(Unknown[PicoUSD](ReasonTariffMissing)); s.Known || s.Why != ReasonTariffMissing {
		t.Fatalf("known+unknown = %+v", s)
	}
	if s := Unknown[PicoUSD](ReasonMeterMissing).Add(Unknown[PicoUSD](ReasonTariffMissing)); s.Why != ReasonMeterMissing {
		t.Fatalf("the first reason must win: %+v", s)
	}
	if Of[Token](3_000_000).String() != "3,000,000" || Unknown[Token](ReasonMeterMissing).String() != "unknown" || Of[Token](-1234).String() != "-1,234" {
		t.Fatal("tokens rendering")
	}
	if Of[Nanosecond](12_500_000_000).String() != "12.5s" || Of[Nanosecond](240_000_000_000).String() != "240s" {
		t.Fatal(Of[Nanosecond](12_500_000_000).String())
	}
}

// TestExactJSONForms pins the JSON form of every unit, known and unknown,
// and of a Fractional median: report.json keeps these bytes.
func TestExactJSONForms(t *testing.T) {
	frac := func(qs ...int64) Fractional[PicoUSD] {
		var xs []Money
		for _, q := range qs {
			xs = append(xs, Of[PicoUSD](q))
		}
		return Fractional[PicoUSD]{Median(xs)}
	}
	for _, c := range []struct {
		v    any
		want string
	}{
		{Of[PicoUSD](40_795_200_000), `{"known":true,"pico_usd":40795200000,"usd":"0.0407952"}`},
		{Unknown[PicoUSD](ReasonMeterMissing), `{"known":false,"usd":"unknown","why":"meter-missing"}`},
		{Of[Token](931), `931`},
		{Unknown[Token](ReasonMeterMissing), `{"known":false,"why":"meter-missing"}`},
		{Of[Nanosecond](60_000_000_000), `60000000000`},
		{Unknown[Nanosecond](ReasonTimeMissing), `{"known":false,"why":"time-missing"}`},
		{frac(3, 1, 2), `{"known":true,"exact":"2","decimal":"2"}`},
		{frac(1, 2), `{"known":true,"exact":"3/2","decimal":"1.5"}`},
		{frac(2, 4), `{"known":true,"exact":"3","decimal":"3"}`},
		{Fractional[Nanosecond]{Unknown[Nanosecond](ReasonNotDispatched)}, `{"known":false,"why":"not-dispatched"}`},
	} {
		b, err := json.Marshal(c.v)
		if err != nil || string(b) != c.want {
			t.Errorf("%+v: %s %v, want %s", c.v, b, err, c.want)
		}
	}
	// A fractional amount has no whole-unit form: it is an error, never a
	// rounded number.
	half := Median([]Nanos{Of[Nanosecond](1), Of[Nanosecond](2)})
	if _, err := json.Marshal(half); err == nil {
		t.Fatal("a half nanosecond marshalled in the whole-unit form")
	}
	if _, ok := half.Int(); ok || half.Or(-1) != -1 || half.String() != "0.0000000015s" {
		t.Fatalf("half: %+v %s", half, half)
	}
}

// TestExactArithmetic: sums of halves are exact and in lowest terms, so
// equal amounts compare equal; Median and Max give the first unknown's
// reason; Or substitutes only for an unknown amount.
func TestExactArithmetic(t *testing.T) {
	h := Median([]Money{Of[PicoUSD](1), Of[PicoUSD](2)})
	if h.Add(h) != Of[PicoUSD](3) || h.Add(Of[PicoUSD](1)).Rat().RatString() != "5/2" {
		t.Fatalf("halves: %s %s", h.Add(h).Rat(), h.Add(Of[PicoUSD](1)).Rat())
	}
	if h.Cmp(Of[PicoUSD](1)) != 1 || h.Cmp(Of[PicoUSD](2)) != -1 || Of[PicoUSD](2).Cmp(Of[PicoUSD](2)) != 0 {
		t.Fatal("Cmp")
	}
	qs := []Tokens{Of[Token](5), Unknown[Token](ReasonMeterInconsistent), Unknown[Token](ReasonMeterMissing)}
	if m := Median(qs); m.Known || m.Why != ReasonMeterInconsistent {
		t.Fatalf("median %+v", m)
	}
	if m := Max(qs); m.Known || m.Why != ReasonMeterInconsistent {
		t.Fatalf("max %+v", m)
	}
	if m := Max([]Tokens{Of[Token](5), Of[Token](9), Of[Token](7)}); m != Of[Token](9) {
		t.Fatalf("max %+v", m)
	}
	if m := Median[Token](nil); m.Known || m.Why != ReasonRatioUndefined {
		t.Fatalf("empty median %+v", m)
	}
	if Of[Token](0).Or(7) != 0 || Unknown[Token](ReasonMeterMissing).Or(7) != 7 {
		t.Fatal("Or")
	}
	if got := SpecOf[PicoUSD]().Columns("cost"); len(got) != 2 || got[0] != "cost_pico_usd" || got[1] != "cost_usd" {
		t.Fatal(got)
	}
	if got := Of[PicoUSD](40_795_200_000).Parts(); got[0] != "40795200000" || got[1] != "0.0407952" {
		t.Fatal(got)
	}
	if got := Of[Token](90_000).Parts(); len(got) != 1 || got[0] != "90000" {
		t.Fatal(got)
	}
}

func TestRatioExactBounds(t *testing.T) {
	r := func(n, d int64) Ratio { return RatioOf(Of[PicoUSD](n), Of[PicoUSD](d)) }
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
	m := Median([]Nanos{Of[Nanosecond](5), Of[Nanosecond](1), Of[Nanosecond](3)})
	if m.Rat().RatString() != "3" {
		t.Fatal(m.Rat())
	}
	m = Median([]Nanos{Of[Nanosecond](1), Of[Nanosecond](2)})
	if m.Rat().RatString() != "3/2" {
		t.Fatal(m.Rat())
	}
	m = Median([]Nanos{Of[Nanosecond](1), Unknown[Nanosecond](ReasonMeterMissing)})
	if m.Known || m.Why != ReasonMeterMissing {
		t.Fatal("unknown input must give unknown median")
	}
	if r(1, 3).RatString() != "1/3" || r(10873, 10000).Decimal() != "1.087300" || RatioOf(Of[PicoUSD](1), Unknown[PicoUSD](ReasonTariffMissing)).Why != ReasonTariffMissing {
		t.Fatal("ratio forms")
	}
}
