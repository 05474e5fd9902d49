#!/usr/bin/env bash
# Guest script of the VM run bench (manifest program bench): instruction
# counts of the benchmark with user_events, N = 500 vs 1000; last in the
# suite, because it leaves its tracepoints enabled in tracefs. Modes: the list
# "vm" of benches/modes.txt. Each valgrind run costs 3-9 s under TCG (two per
# mode and build), so the modes run in parallel, one run-callgrind.sh each:
# callgrind counts the process's own instructions, whatever else runs.
#
#   bench.sh BENCH FLOOR DYNAMIC EXPORTER   (all in one directory; $RESULT.tsv gets the rows)
#
# Prints the joined table; testkit's checks::bench judges it.
set -u
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BIN=$(dirname "$1")
for p in "$2" "$3" "$4"; do
    [ "$(dirname "$p")" = "$BIN" ] || { echo "bench.sh: $1 and $p are not in one directory" >&2; exit 2; }
done
# shellcheck source=benches/common.sh
. "$REPO/benches/common.sh"
MODES=$(bench_modes vm)
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
