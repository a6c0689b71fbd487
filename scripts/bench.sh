#!/usr/bin/env bash
# Bench of `verdict check` and `verdict score` at 1x and 10x size, beside a
# schema-only validation of the same response files with the jv command of
# github.com/santhosh-tekuri/jsonschema (v0.7.0, draft 2020-12). Wall time and
# peak memory (maximum resident set size) come from /usr/bin/time -v; every
# command runs BENCH_RUNS times (default 3) and the table shows the median.
#
#   scripts/bench.sh [WORKDIR]
#
# Sizes: 1x is 84 tasks x 4 repetitions x 3 sessions = 1,008 sessions; 10x is
# 840 tasks x 4 repetitions = 10,080 sessions (BENCH_TASKS_1X=N and
# BENCH_REPS=R change them; 10x is always ten times the 1x task count). The
# manifest schema allows at most 1,024 tasks, so 10,000 sessions need more
# than 3 repetitions. Each campaign is generated SYNTHETIC input without
# control specimens (the generator of `verdict fixtures generate --passing`:
# every answer passes its structural checks), taken through the whole chain
# by `verdict demo --tasks N --repetitions R` so that signed ratings exist
# for `verdict score`; WORKDIR keeps them between runs.
#
# These campaigns are NOT admissible, and no campaign of this size can be:
# the contract admits an evaluation of exactly 8 tasks x 3 repetitions in 4
# repositories within its campaign ceilings (120 sessions among them), so
# `verdict check` reports them NOT ADMITTED (about a hundred admission
# failures at 1x, exit 1) and `verdict score` decides execution-invalid
# (failed prerequisites manifest-admission, campaign-ceilings,
# planned-reviews; exit 1). Both still do their whole work (every file
# loaded and checked, every record verified, every task scored), which is
# what is timed; the script ignores their exit codes and prints what each
# decided.
#
# Goals (issue 6): check at 10x at least 2x faster than the schema-only pass;
# time(10x)/time(1x) <= 11 for check and score; peak memory of score at 10x
# <= 200 MB. Goal: score at 10x within 2x the time of check at
# 10x, both timed side by side in each round. Every run records wall time,
# CPU time (user + system) and peak memory; on a shared machine wall time
# follows the load, so the load average is printed before and after and at
# the end of each run. Run it on an otherwise idle machine.
set -euo pipefail
cd "$(dirname "$0")/.."
work=${1:-$(mktemp -d)}
runs=${BENCH_RUNS:-3}
tasks1=${BENCH_TASKS_1X:-84}
reps=${BENCH_REPS:-4}
mkdir -p "$work/bin"
bin=$work/bin
go build -o "$bin/verdict" ./cmd/verdict
# jv v0.7.0 is the command of jsonschema/v6 (draft 2020-12); "@latest" of its
# path resolves to an old draft-7 release, and the proxy has no version list
# for "go install @v0.7.0", so build it from a throwaway module.
if [ ! -x "$bin/jv" ]; then
	jvmod=$work/jvbuild
	mkdir -p "$jvmod"
	(cd "$jvmod" && { [ -f go.mod ] || go mod init jvbuild >/dev/null 2>&1; } &&
		printf 'package main\nimport _ "github.com/santhosh-tekuri/jsonschema/cmd/jv"\n' >tools.go &&
		go get github.com/santhosh-tekuri/jsonschema/cmd/jv@v0.7.0 >/dev/null 2>&1 &&
		go build -o "$bin/jv" github.com/santhosh-tekuri/jsonschema/cmd/jv)
fi
schema=$PWD/campaign/schemas/response.json

# measure NAME CMD... : one run; appends "wall_seconds rss_kB cpu_seconds
# load1" to $work/NAME.runs (cpu = user + system time; load1 = the one-minute
# load average when the run ended).
measure() {
	local name=$1; shift
	local log=$work/$name.time
	/usr/bin/time -v "$@" >"$work/$name.out" 2>"$log" || true
	local wall rss secs cpu
	wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$log")
	rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$log")
	cpu=$(awk -F': ' '/User time \(seconds\)/ {u=$2} /System time \(seconds\)/ {s=$2} END {print u+s}' "$log")
	# h:mm:ss or m:ss.ss -> seconds
	secs=$(echo "$wall" | awk -F: '{ if (NF==3) print $1*3600+$2*60+$3; else print $1*60+$2 }')
	echo "$secs $rss $cpu $(cut -d' ' -f1 /proc/loadavg)" >>"$work/$name.runs"
}

# median NAME COLUMN : median of one column of $work/NAME.runs.
median() {
	sort -g -k"$2","$2" "$work/$1.runs" | awk -v c="$2" '{ v[NR] = $c } END { if (NR % 2) print v[(NR+1)/2]; else print (v[NR/2] + v[NR/2+1]) / 2 }'
}

echo "SYNTHETIC bench; work dir $work; $runs run(s) per command"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for size in 1x 10x; do
	tasks=$tasks1
	[ "$size" = 10x ] && tasks=$((10 * tasks1))
	dir=$work/$size
	if [ ! -f "$dir/ratings/reveal.json" ]; then
		rm -rf "$dir"
		"$bin/verdict" demo --tasks "$tasks" --repetitions "$reps" --out "$dir" >/dev/null
	fi
	rm -f "$work"/*-"$size".runs
	for _ in $(seq "$runs"); do
		measure "check-$size" "$bin/verdict" check "$dir/campaign" --format json
		measure "score-$size" "$bin/verdict" score "$dir/campaign" --ratings "$dir/ratings" --allowed-signers "$dir/ratings/allowed_signers" --format json
		# A refusal (exit 2 with no report) is fast and would be timed as if
		# it were the work: stop instead of printing a ratio of refusals.
		for n in check score; do
			if ! grep -q '"kind": "\|"admitted": ' "$work/$n-$size.out"; then
				echo "bench: $n at $size printed no report; its error output:" >&2
				cat "$work/$n-$size.time" | grep -v '^\s' | head -5 >&2
				head -c 2000 "$work/$n-$size.out" >&2
				exit 1
			fi
		done
		# jv takes every instance on its command line; find batches them like xargs.
		measure "jv-$size" sh -c 'find "$1" -name "*.json" -exec "$2" "$3" {} + >/dev/null' sh "$dir/campaign/responses" "$bin/jv" "$schema"
	done
	echo "$size: $tasks tasks x $reps repetitions = $((tasks * reps * 3)) sessions ($(find "$dir/campaign/responses" -name '*.json' | wc -l) response files);" \
		"check admitted: $(grep -m1 -o '"admitted": [a-z]*' "$work/check-$size.out" | cut -d' ' -f2)," \
		"score decision: $(grep -m1 -o '"kind": "[a-z-]*"' "$work/score-$size.out" | cut -d'"' -f4)" >"$work/size-$size"
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
cat "$work/size-1x" "$work/size-10x"
echo
echo "| command | size | median wall s | median CPU s (user+sys) | median max RSS MB | runs wall s | runs CPU s | load (1 min) at each run |"
echo "|---|---|---|---|---|---|---|---|"
for size in 1x 10x; do
	for cmd in check score jv; do
		n=$cmd-$size
		printf '| %s | %s | %s | %s | %.1f | %s | %s | %s |\n' "$cmd" "$size" "$(median "$n" 1)" "$(median "$n" 3)" \
			"$(echo "$(median "$n" 2)" | awk '{print $1/1024}')" "$(cut -d' ' -f1 "$work/$n.runs" | paste -sd' ')" \
			"$(cut -d' ' -f3 "$work/$n.runs" | paste -sd' ')" "$(cut -d' ' -f4 "$work/$n.runs" | paste -sd' ')"
	done
done
# ratio A B COLUMN : median of A's column over median of B's.
ratio() { awk -v a="$(median "$1" "$3")" -v b="$(median "$2" "$3")" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "undefined" }'; }
echo
echo "check time 10x/1x: wall $(ratio check-10x check-1x 1), CPU $(ratio check-10x check-1x 3) (goal <= 11)"
echo "score time 10x/1x: wall $(ratio score-10x score-1x 1), CPU $(ratio score-10x score-1x 3) (goal <= 11)"
echo "jv/check time at 10x: wall $(ratio jv-10x check-10x 1), CPU $(ratio jv-10x check-10x 3) (goal >= 2)"
echo "score/check time at 10x: wall $(ratio score-10x check-10x 1), CPU $(ratio score-10x check-10x 3) (goal <= 2)"
echo "score peak memory at 10x: $(echo "$(median score-10x 2)" | awk '{printf "%.1f", $1/1024}') MB (goal <= 200)"
