#!/usr/bin/env bash
# Guest script of the VM run bench (manifest program bench): instruction
# counts of the benchmark with user_events, N = 500 vs 1000; last in the
# suite, because it leaves its tracepoint enabled in tracefs. Each valgrind
# run costs 3-9 s under TCG (12 runs), so the three modes run in parallel, one
# run-callgrind.sh each: callgrind counts the process's own instructions,
# whatever else runs.
#
#   bench.sh BENCH FLOOR     (both in one directory; $RESULT.tsv gets the rows)
#
# Prints the joined table; testkit's checks::bench judges it.
set -u
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BIN=$(dirname "$1")
[ "$(dirname "$2")" = "$BIN" ] || { echo "bench.sh: $1 and $2 are not in one directory" >&2; exit 2; }
MODES="disabled enabled5 empty"
WORK=${TMP:-$(mktemp -d)}
pids=()
rc=0
for m in $MODES; do
    bash "$REPO/benches/run-callgrind.sh" --user-events --no-build --bin-dir "$BIN" \
        --modes "$m" -n 500 --tsv "$WORK/bench.$m.tsv" >"$WORK/bench.$m.log" 2>&1 &
    pids+=($!)
done
for p in "${pids[@]}"; do
    wait "$p" || rc=1
done
: >"$RESULT.tsv"
# shellcheck disable=SC2086
set -- $MODES
head -n 2 "$WORK/bench.$1.log" # the title and the column names
for m in $MODES; do
    tail -n +3 "$WORK/bench.$m.log"
    cat "$WORK/bench.$m.tsv" >>"$RESULT.tsv" 2>/dev/null
done
exit "$rc"
