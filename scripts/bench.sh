#!/usr/bin/env bash
# Bench of verdict check and verdict score at 1x and 10x size, beside a
# schema-only validation of the same response files with the jv command of
# github.com/santhosh-tekuri/jsonschema. Peak memory from /usr/bin/time -v.
#
#   scripts/bench.sh [WORKDIR]
#
# 1x is 334 tasks x 3 repetitions (1,002 sessions), 10x is 3,334 tasks x 3
# repetitions (10,002 sessions) of a generated SYNTHETIC passing campaign.
# Goals (issue 6): check at 10x at least 2x faster than the schema-only pass;
# time(10x)/time(1x) <= 11 for check and score; peak memory of score at 10x
# <= 200 MB. All campaigns here are SYNTHETIC.
set -euo pipefail
cd "$(dirname "$0")/.."
work=${1:-$(mktemp -d)}
mkdir -p "$work/bin"
bin=$work/bin
go build -o "$bin/verdict" ./cmd/verdict
GOBIN=$bin go install github.com/santhosh-tekuri/jsonschema/cmd/jv@latest
schema=$(ls campaign/schemas/response*.json | head -n1)

# measure NAME CMD... : wall seconds and peak RSS (kB) of one run.
measure() {
	local name=$1; shift
	local log=$work/$name.time
	/usr/bin/time -v "$@" >"$work/$name.out" 2>"$log" || true
	local wall rss
	wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$log")
	rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$log")
	# h:mm:ss or m:ss.ss -> seconds
	secs=$(echo "$wall" | awk -F: '{ if (NF==3) print $1*3600+$2*60+$3; else print $1*60+$2 }')
	printf '%-14s %10.2f s %10d kB\n' "$name" "$secs" "$rss"
	echo "$secs" >"$work/$name.secs"
}

echo "SYNTHETIC bench; work dir $work"
for size in 1x 10x; do
	tasks=334
	[ "$size" = 10x ] && tasks=3334
	dir=$work/$size
	if [ ! -d "$dir/campaign" ]; then
		"$bin/verdict" demo --tasks "$tasks" --repetitions 3 --out "$dir" >/dev/null
	fi
	measure "check-$size" "$bin/verdict" check "$dir/campaign" --format json
	measure "score-$size" "$bin/verdict" score "$dir/campaign" --ratings "$dir/ratings" --format json
	measure "jv-$size" "$bin/jv" "$schema" "$dir"/campaign/responses/*.json
done
ratio() { awk -v a="$(cat "$work/$1.secs")" -v b="$(cat "$work/$2.secs")" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "undefined" }'; }
echo "check 10x/1x: $(ratio check-10x check-1x) (goal <= 11)"
echo "score 10x/1x: $(ratio score-10x score-1x) (goal <= 11)"
echo "jv/check at 10x: $(ratio jv-10x check-10x) (goal >= 2)"
