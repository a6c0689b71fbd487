#!/usr/bin/env bash
# End-to-end check of `verdict rate` with the real binary in tmux:
# rate a bundle of the embedded SYNTHETIC campaign (the default input of
# `verdict blind`), kill -9 the process mid-item, start again, and find every
# grade the screen showed as saved. Then `verdict ledger` with no argument
# must show the embedded campaign, and `verdict adjudicate` on the demo's
# frozen sheets must keep a decision it showed as saved across a kill -9.
# Usage: scripts/tmux-e2e.sh [VERDICT_BINARY]   (builds ./cmd/verdict if absent)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
sess="verdict-e2e-$$"
# A tmux server of its own, kept alive by a holder session: killing the
# work session between steps then never stops the server (starting a new
# session while the last one's server exits races: "server exited
# unexpectedly"). The holder's name must not start with the work
# session's name, and the work session is killed by its exact name
# (-t "=NAME"): tmux matches a session target by prefix when no session
# has the exact name, so `kill-session -t verdict-e2e-N` after the work
# session ended killed a holder named verdict-e2e-N-hold, the server
# exited, and the next new-session raced with its exit.
sock="verdict-e2e-$$"
tmux() { command tmux -L "$sock" "$@"; }
cleanup() { tmux kill-server 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
tmux new-session -d -s "hold-$$" "sleep 900"
end_session() { # end the work session; the holder (and the server) must live on
  tmux kill-session -t "=$sess" 2>/dev/null || true
  if ! tmux has-session -t "=hold-$$" 2>/dev/null; then
    echo "FAIL: ending the work session ended the holder session" >&2; exit 1
  fi
}

bin="${1:-}"
if [ -z "$bin" ]; then
  bin="$work/verdict"
  (cd "$root" && go build -o "$bin" ./cmd/verdict)
fi

cd "$work"
"$bin" blind --out bl --item-key "$(printf '%064d' 7)" >/dev/null
bundle="bl/bundle-rater-1.json"
journal="$work/j.jsonl"

wait_for() { # wait_for TEXT: poll the pane until TEXT shows (30 s: a loaded 2-core machine)
  for _ in $(seq 600); do
    if tmux capture-pane -p -t "$sess" | grep -qF -- "$1"; then return 0; fi
    sleep 0.05
  done
  echo "FAIL: screen never showed: $1" >&2
  tmux capture-pane -p -t "$sess" >&2
  return 1
}

start() {
  end_session
  tmux new-session -d -s "$sess" -x 80 -y 24 "exec env NO_COLOR=1 '$bin' rate '$bundle' --journal '$journal'"
}

start
wait_for "Task of item 1/"
tmux send-keys -t "$sess" Enter
wait_for " graded"
keys=(1 2 1 1 2 1 1)
for k in "${keys[@]}"; do tmux send-keys -t "$sess" "$k"; sleep 0.05; done
n=${#keys[@]}
wait_for "$n/"
total=$(tmux capture-pane -p -t "$sess" | grep -oE "^ [0-9]+/[0-9]+ fields" | head -1 | cut -d/ -f2 | cut -d' ' -f1)
wait_for " $n/$total fields · 0/"
wait_for "saved ✓"

pid=$(tmux display-message -p -t "$sess" '#{pane_pid}')
kill -9 "$pid"
sleep 0.2

saved=$(($(wc -l < "$journal") - 1))
if [ "$saved" -ne "$n" ]; then
  echo "FAIL: $saved grades in the journal after kill -9, want $n" >&2; exit 1
fi

start
wait_for "Task of item 1/"
tmux send-keys -t "$sess" Enter
wait_for " $n/$total fields"
wait_for "partial · $n/"
# Resumed at the first ungraded field: the selected row has no value.
if ! tmux capture-pane -p -t "$sess" | grep -E "^›" | grep -q "·"; then
  echo "FAIL: not resumed at an ungraded field" >&2
  tmux capture-pane -p -t "$sess" >&2; exit 1
fi
# Grading continues after the restart.
tmux send-keys -t "$sess" 1
wait_for " $((n + 1))/$total fields"
wait_for "saved ✓"
if [ "$(($(wc -l < "$journal") - 1))" -ne "$((n + 1))" ]; then
  echo "FAIL: grade after restart not in the journal" >&2; exit 1
fi
tmux send-keys -t "$sess" q

# The protocol checker's ledger defaults to the embedded campaign too.
end_session
tmux new-session -d -s "$sess" -x 80 -y 24 "exec env NO_COLOR=1 '$bin' ledger"
wait_for "SYNTHETIC · verdict ledger"
tmux send-keys -t "$sess" q

# Adjudication: decide one dispute, kill -9, restart, the decision is there.
"$bin" demo --out demo >/dev/null
r=demo/ratings
adj() {
  end_session
  tmux new-session -d -s "$sess" -x 80 -y 24 "exec env NO_COLOR=1 '$bin' adjudicate $r/bundle-ann.json $r/sheet-ann.json $r/sheet-bob.json --allowed-signers $r/allowed_signers --key demo/keys/adjudicator-cho --name cho --out '$work/adj.json'"
}
adj
wait_for "Task of item-"
tmux send-keys -t "$sess" Enter
wait_for "dispute 1/"
wait_for " 0/"
disputes=$(tmux capture-pane -p -t "$sess" | grep -oE "^ 0/[0-9]+ disputes" | cut -d/ -f2 | cut -d' ' -f1)
tmux send-keys -t "$sess" 2
wait_for " 1/$disputes disputes resolved · saved ✓"
pid=$(tmux display-message -p -t "$sess" '#{pane_pid}')
kill -9 "$pid"
sleep 0.2
if [ "$(($(wc -l < "$work/adj.decisions.jsonl") - 1))" -ne 1 ]; then
  echo "FAIL: the saved decision is not in the decision log after kill -9" >&2; exit 1
fi
adj
wait_for "Task of item-"
tmux send-keys -t "$sess" Enter
wait_for " 1/$disputes disputes resolved"
wait_for "dispute 2/$disputes"
tmux send-keys -t "$sess" q
echo "ok: $n grades of the embedded campaign's bundle saved before kill -9 and found after restart ($total fields in the bundle); ledger shows the embedded campaign; 1 of $disputes adjudication decisions kept across kill -9"
