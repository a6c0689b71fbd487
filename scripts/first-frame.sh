#!/usr/bin/env bash
# First frame of `verdict rate` on a SYNTHETIC bundle of 100 maximum-size
# items (scripts/maxbundle), measured as a whole process on a terminal of
# 120x40. Two ways (MODE):
#   pty (default): the command runs on a pseudo-terminal of script(1), whose
#     output is read as it comes (a blocking read, nothing polls): from the
#     start until the first frame's bytes arrive (its footer, "N/100
#     items"). The time script(1) needs to start a command and pass its
#     output (measured the same way with printf) is subtracted.
#   tmux: from starting the command in an existing tmux window until the
#     pane shows the first item's task, polling the pane every 2 ms; the
#     time tmux needs to run a command and show its output (measured the
#     same way) is subtracted. The polling starts a tmux client every few
#     milliseconds, which takes a large part of one of the two cores of a
#     small machine from the command measured.
# Also reads the CPU time (user + system, every thread) the process used up
# to that frame from /proc, which a loaded machine does not inflate as it
# does wall time (it is read in clock ticks: 10 ms at 100 ticks/s). Prints
# every run, the medians in ms and the load average before and after.
# FRAME_TEXT sets the text that marks the first frame in tmux mode
# (default: the first item's task panel; "fields" for builds that open on
# the grading screen); FRAME_RE the extended regular expression that marks
# it in the raw output in pty mode (default: the footer's item count).
# RESUME=1 measures a resumed session instead: before each run (not
# timed) `verdict grade --from` fills the journal with every field of the
# first 50 items (13,250 grades), and the frame is item 51's task.
# Usage: RUNS=9 scripts/first-frame.sh [VERDICT_BINARY]   (builds ./cmd/verdict if absent)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
runs="${RUNS:-9}"
work="$(mktemp -d)"
sess="verdict-ff-$$"
sock="verdict-ff-$$"
tmux() { command tmux -L "$sock" "$@"; }
cleanup() { tmux kill-server 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
bin="${1:-}"
if [ -z "$bin" ]; then
  bin="$work/verdict"
  (cd "$root" && go build -o "$bin" ./cmd/verdict)
fi
(cd "$root" && go run ./scripts/maxbundle -out "$work/bundle.json" -items 100 -grades "$work/grades.json" -graded 50) >&2
frame="${FRAME_TEXT:-Task of item 1/100}"
if [ -n "${RESUME:-}" ]; then
  frame="${FRAME_TEXT:-Task of item 51/100}"
fi

now_ms() { date +%s%3N; }
# time_until CMD TEXT: start CMD in a fresh window, wait for TEXT, print ms.
# One session for every run (killing the last session stops the server,
# and starting another at once can race with its exit).
mode="${MODE:-pty}"
frame_re="${FRAME_RE:-[0-9]+/100 items}"
if [ "$mode" = tmux ]; then
tmux new-session -d -s "$sess" -x 120 -y 40 "sleep 600"
fi
# pty_until CMD RE: run CMD on a 120x40 pseudo-terminal (script(1)), read
# its output until RE matches, print ms and the CPU time (user, sys) of
# the process CMD execs into, taken at that moment. Standard input is a
# pipe that stays open, as a terminal's would (not an end of file the
# command would read at once); script(1), the command and the sleep
# behind standard input are stopped once the frame is in.
pty_until() {
  local t0 t1 fifo="$work/pty.fifo" spid kid cpu="0 0"
  rm -f "$fifo"
  mkfifo "$fifo"
  exec 3<>"$fifo"
  t0=$(now_ms)
  script -qfec "stty cols 120 rows 40; exec $1" /dev/null < <(exec sleep 60) >&3 2>/dev/null &
  spid=$!
  grep -a -m1 -qE -- "$2" <&3 || true
  t1=$(now_ms)
  kid=$(pgrep -n -P "$spid" || true) # the pty's child, started after the sleep
  if [ -n "$kid" ] && [ -r "/proc/$kid/stat" ]; then
    cpu=$(awk -v hz="$(getconf CLK_TCK)" '{print int($14 * 1000 / hz), int($15 * 1000 / hz)}' "/proc/$kid/stat")
  fi
  pkill -P "$spid" 2>/dev/null || true # the command and the sleep
  kill "$spid" 2>/dev/null || true
  wait "$spid" 2>/dev/null || true
  exec 3>&-
  echo "$((t1 - t0)) $cpu"
}
time_until() {
  tmux respawn-pane -k -t "$sess" "clear; sleep 600"
  tmux clear-history -t "$sess"
  sleep 0.3
  local t0 t1
  t0=$(now_ms)
  tmux respawn-pane -k -t "$sess" "$1"
  while ! tmux capture-pane -p -t "$sess" | grep -qF -- "$2"; do
    if [ $(( $(now_ms) - t0 )) -gt 10000 ]; then echo "FAIL: $2 not shown" >&2; tmux capture-pane -p -t "$sess" >&2; exit 1; fi
    sleep 0.002
  done
  t1=$(now_ms)
  local pid cpu="0 0"
  pid=$(tmux display-message -p -t "$sess" '#{pane_pid}')
  if [ -r "/proc/$pid/stat" ]; then
    # utime and stime (fields 14 and 15) of the whole process, every
    # thread, in clock ticks.
    cpu=$(awk -v hz="$(getconf CLK_TCK)" '{print int($14 * 1000 / hz), int($15 * 1000 / hz)}' "/proc/$pid/stat")
  fi
  echo "$((t1 - t0)) $cpu"
}
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

if [ "$mode" = tmux ]; then
  base=$(for i in $(seq "$runs"); do time_until "printf 'tmux-ready'; sleep 30" "tmux-ready" | cut -d' ' -f1; done | median)
else
  base=$(for i in $(seq "$runs"); do pty_until "printf 'pty-ready\n'; exec sleep 60" "pty-ready" | cut -d' ' -f1; done | median)
fi
echo "$mode start-up median: ${base} ms" >&2
frames=()
cpus=()
users=()
syss=()
load0=$(cut -d' ' -f1-3 /proc/loadavg)
for i in $(seq "$runs"); do
  j="$work/journal-$i.jsonl"
  if [ -n "${RESUME:-}" ]; then
    "$bin" grade "$work/bundle.json" --journal "$j" --from "$work/grades.json" >/dev/null
  fi
  if [ "$mode" = tmux ]; then
    read -r ms user sys < <(time_until "exec env NO_COLOR=1 ${FF_ENV:-} '$bin' rate '$work/bundle.json' --journal '$j'" "$frame")
  else
    read -r ms user sys < <(pty_until "env NO_COLOR=1 ${FF_ENV:-} '$bin' rate '$work/bundle.json' --journal '$j'" "$frame_re")
  fi
  frames+=($((ms - base)))
  cpus+=($((user + sys)))
  users+=("$user")
  syss+=("$sys")
  echo "run $i: $ms ms wall ($((ms - base)) ms after $mode start-up), $((user + sys)) ms CPU (user $user + sys $sys)" >&2
done
med=$(printf '%s\n' "${frames[@]}" | median)
cmed=$(printf '%s\n' "${cpus[@]}" | median)
umed=$(printf '%s\n' "${users[@]}" | median)
smed=$(printf '%s\n' "${syss[@]}" | median)
echo "first frame${RESUME:+ (resumed, 13,250 grades in the journal)} median: ${med} ms wall ($mode start-up subtracted), ${cmed} ms CPU (user+sys; medians user ${umed}, sys ${smed}; ${CLK_TCK:-$(getconf CLK_TCK)} ticks/s); ${runs} runs; load average ${load0} before, $(cut -d' ' -f1-3 /proc/loadavg) after"
