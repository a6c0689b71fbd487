package main

import (
	"bytes"
	"crypto/sha256"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/go-json-experiment/json/jsontext"

	"verdict/campaign"
)

// BenchmarkCheckFloor times `verdict check --format json` (in process, the
// whole command: load, structural findings, admission, rendering) beside
// its floor, in pairs, on a generated SYNTHETIC passing campaign of
// BENCH_FLOOR_TASKS tasks (default 840) × 4 repetitions = 10,080 sessions.
// The floor is one goroutine reading every file of the campaign, reading
// each .json file token by token with jsontext and nothing else, plus one
// SHA-256 over each session's rendered prompt bytes (the parts verdict
// prompts renders, made before the timing: the hashing is the floor, the
// rendering is check's work). Each iteration runs one pair, in alternating
// order; the metric check/floor is the median of the pairs' ratios (wall),
// the issue-25 goal is at most 1.5.
//
//	go test ./cmd/verdict -run '^$' -bench CheckFloor -benchtime 7x
func BenchmarkCheckFloor(b *testing.B) {
	tasks := 840
	if s := os.Getenv("BENCH_FLOOR_TASKS"); s != "" {
		tasks, _ = strconv.Atoi(s)
	}
	dir := filepath.Join(b.TempDir(), "c")
	if code, _, errs := runCLI(&testing.T{}, "fixtures", "generate", "--passing", "--out", dir, "--tasks", strconv.Itoa(tasks), "--repetitions", "4"); code != 0 {
		b.Fatalf("generate: exit %d: %s", code, errs)
	}
	var files []string
	if err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			files = append(files, p)
		}
		return err
	}); err != nil {
		b.Fatal(err)
	}
	prompts := renderedPrompts(b, dir)
	floor := func() {
		dec := jsontext.NewDecoder(bytes.NewReader(nil))
		for _, p := range files {
			data, err := os.ReadFile(p)
			if err != nil {
				b.Fatal(err)
			}
			if !strings.HasSuffix(p, ".json") {
				continue
			}
			dec.Reset(bytes.NewReader(data))
			for {
				if _, err := dec.ReadToken(); err == io.EOF {
					break
				} else if err != nil {
					b.Fatalf("%s: %v", p, err)
				}
			}
		}
		for _, parts := range prompts {
			h := sha256.New()
			for _, p := range parts {
				h.Write(p.Bytes)
			}
			h.Sum(nil)
		}
	}
	check := func() {
		var out, errb lockedBuffer
		if code := runApp(newApp(strings.NewReader(""), &out, &errb), []string{"check", dir, "--format", "json"}); code > 1 {
			b.Fatalf("check: exit %d: %s", code, errb.String())
		}
	}
	var ratios []float64
	i := 0
	for b.Loop() {
		var tf, tc time.Duration
		if i%2 == 0 {
			tf, tc = timed(floor), timed(check)
		} else {
			tc, tf = timed(check), timed(floor)
		}
		i++
		ratios = append(ratios, float64(tc)/float64(tf))
		b.Logf("floor %v check %v", tf, tc)
	}
	slices.Sort(ratios)
	b.ReportMetric(ratios[len(ratios)/2], "check/floor")
}

// timed runs f and returns its wall time.
func timed(f func()) time.Duration {
	t := time.Now()
	f()
	return time.Since(t)
}

// renderedPrompts returns the parts of every session's rendered prompt
// (campaign.PromptRenderer.Parts) of the campaign in dir.
func renderedPrompts(b *testing.B, dir string) [][]campaign.PromptPart {
	c, err := campaign.Load(os.DirFS(dir))
	if err != nil {
		b.Fatal(err)
	}
	r := campaign.NewPromptRenderer(c.Prompts)
	tasks := map[string]*campaign.Task{}
	for _, t := range c.Tasks {
		tasks[t.Entry.ID] = t
	}
	sessions := map[string]*campaign.Session{}
	for _, s := range c.Sessions {
		sessions[s.ID] = s
	}
	var out [][]campaign.PromptPart
	for _, run := range c.Manifest.Runs {
		draft, err := c.RawResponse(sessions[run.Sessions.Draft])
		if err != nil {
			b.Fatal(err)
		}
		for _, role := range []campaign.Role{campaign.RoleDraft, campaign.RoleReviewA, campaign.RoleReviewB} {
			parts, err := r.Parts(role, tasks[run.Task], draft)
			if err != nil {
				b.Fatal(err)
			}
			out = append(out, parts)
		}
	}
	return out
}
