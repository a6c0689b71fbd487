package main

import (
	"bytes"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"verdict/fixtures"
	"verdict/pipeline"
)

// BenchmarkScoreCampaign measures the whole `verdict score` pipeline
// (load, record verification, consensus, scoring, report) on a generated
// SYNTHETIC passing campaign of 40 tasks × 3 repetitions (360 sessions),
// prepared once by the demo chain. VERDICT_BENCH_DIR=DIR scores an existing
// demo output directory instead (e.g. one written by scripts/bench.sh).
// Each round reads the campaign as the command does (pipeline.DirFS) and
// scores under the command's memory limit (limitScoreMemory).
func BenchmarkScoreCampaign(b *testing.B) {
	dir := os.Getenv("VERDICT_BENCH_DIR")
	if dir == "" {
		dir = b.TempDir()
		fsys, key, err := fixtures.GenerateWithKey(fixtures.Options{Passing: true, Tasks: 40, Repetitions: 3})
		if err != nil {
			b.Fatal(err)
		}
		var log bytes.Buffer
		if _, err := runChain(&app{stdout: &log, stderr: &log}, fsys, key, dir); err != nil {
			b.Fatalf("%v\n%s", err, log.String())
		}
	}
	camp, ratings := filepath.Join(dir, "campaign"), filepath.Join(dir, "ratings")
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		// As the command runs it: the campaign through pipeline.DirFS and
		// scoring under the command's memory limit.
		afterLoad, restore := limitScoreMemory()
		run, err := pipeline.Score(pipeline.DirFS(camp), pipeline.RatingsIn(ratings, fixtures.RatingsAllowedSigners(ratings)), pipeline.ScoreOptions{AfterLoad: afterLoad})
		restore()
		if err != nil {
			b.Fatal(err)
		}
		if err := run.WriteJSON(io.Discard); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCheckCampaign measures `verdict check` (strict load, admission,
// structural findings, report) on the campaign of VERDICT_BENCH_DIR
// (DIR/campaign, e.g. written by scripts/bench.sh); without it, on a
// generated SYNTHETIC passing campaign of 40 tasks × 3 repetitions.
func BenchmarkCheckCampaign(b *testing.B) {
	var fsys fs.FS
	if dir := os.Getenv("VERDICT_BENCH_DIR"); dir != "" {
		fsys = pipeline.DirFS(filepath.Join(dir, "campaign"))
	} else {
		gen, err := fixtures.Generate(fixtures.Options{Passing: true, Tasks: 40, Repetitions: 3})
		if err != nil {
			b.Fatal(err)
		}
		fsys = gen
	}
	b.ReportAllocs()
	for b.Loop() {
		rep := buildCheckReport(fsys, "bench")
		if err := rep.writeJSON(io.Discard); err != nil {
			b.Fatal(err)
		}
	}
}
