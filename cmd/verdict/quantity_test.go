package main

import (
	"encoding/json"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTaskMediansAreExactHalves: with two repetitions per task the task
// median of complete-workflow time is the exact mean of the two pairs'
// times, written in report.json as an exact fraction of nanoseconds
// ("…/2" with a ".5" decimal) and in report.md as that exact value
// rounded to whole seconds with its units ("1m41s"); the aggregate sums
// those medians exactly (CONTRACT §4 task medians, §5
// exact accounting). Runs `verdict demo --tasks 8 --repetitions 2`.
func TestTaskMediansAreExactHalves(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "demo")
	if code, out := chkRunCaptured(t, "demo", "--tasks", "8", "--repetitions", "2", "--out", dir); code != 0 && code != 1 {
		t.Fatalf("demo exit %d\n%s", code, out)
	}
	data, err := os.ReadFile(filepath.Join(dir, "report", "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	type frac struct {
		Known   bool   `json:"known"`
		Exact   string `json:"exact"`
		Decimal string `json:"decimal"`
	}
	var rep struct {
		Scorecard struct {
			Accounting struct {
				Pairs []struct {
					Task string `json:"task"`
					A    struct {
						Time int64 `json:"time_ns"`
					} `json:"a"`
				} `json:"pairs"`
				Tasks []struct {
					Task        string `json:"task"`
					MedianTimeA frac   `json:"median_time_a_ns"`
				} `json:"tasks"`
				SumTimeA frac `json:"sum_median_time_a_ns"`
			} `json:"accounting"`
		} `json:"scorecard"`
	}
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	md, err := os.ReadFile(filepath.Join(dir, "report", "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	acct := rep.Scorecard.Accounting
	rat := func(s string) *big.Rat {
		r, ok := new(big.Rat).SetString(s)
		if !ok {
			t.Fatalf("not an exact number: %q", s)
		}
		return r
	}
	sum, halves := new(big.Rat), 0
	for _, task := range acct.Tasks {
		want := new(big.Rat)
		n := 0
		for _, p := range acct.Pairs {
			if p.Task == task.Task {
				want.Add(want, big.NewRat(p.A.Time, 1))
				n++
			}
		}
		want.Quo(want, big.NewRat(int64(n), 1))
		m := task.MedianTimeA
		if n != 2 || !m.Known || rat(m.Exact).Cmp(want) != 0 || rat(m.Decimal).Cmp(want) != 0 {
			t.Fatalf("%s: median time A %+v, want the mean of %d pair times %s", task.Task, m, n, want.RatString())
		}
		if strings.HasSuffix(m.Exact, "/2") {
			halves++
			if !strings.HasSuffix(m.Decimal, ".5") {
				t.Errorf("%s: half nanosecond written as %q", task.Task, m.Decimal)
			}
		}
		secs := new(big.Rat).Quo(want, big.NewRat(1_000_000_000, 1))
		whole, ok := new(big.Int).SetString(secs.FloatString(0), 10) // rounds half away from zero
		if !ok || whole.Int64() < 60 || whole.Int64() >= 3600 {
			t.Fatalf("%s: median %ss outside the minutes this test reads", task.Task, secs.FloatString(10))
		}
		shown := fmt.Sprintf("%dm%02ds", whole.Int64()/60, whole.Int64()%60)
		if !strings.Contains(string(md), "| "+shown+" |") {
			t.Errorf("%s: report.md has no median %s (exact %ss)", task.Task, shown, secs.FloatString(10))
		}
		sum.Add(sum, want)
	}
	if halves == 0 {
		t.Fatal("no task median fell on half a nanosecond: the test would not test halves")
	}
	if !acct.SumTimeA.Known || rat(acct.SumTimeA.Exact).Cmp(sum) != 0 {
		t.Fatalf("sum of task medians %+v, want %s", acct.SumTimeA, sum.RatString())
	}
}
