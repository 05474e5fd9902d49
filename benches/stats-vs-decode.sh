#!/usr/bin/env bash
# `eventheader stats` against `eventheader decode --format jsonl` (to /dev/null) on
# the same 10^6-event recordings, in the same run, alternating: events per
# second of each (10^6 over the median wall time of R runs) and their
# ratio, for a capture file and a perf.data. Both from the cargo profile
# `cli` (the optimized build the CMake install ships).
#
#   benches/stats-vs-decode.sh [-r R] [--no-build]
#
# Recordings, written by testkit (bench_recording of benches/common.sh; the
# same bytes on every machine, made when missing): cli_writer's burst (event
# Burst of CliBurst_L5K1, one u32 field), 10^6 events, as a capture file
# (target/stats-bench/burst-1e6.dat, `testkit synth-capture`) and as a
# perf.data (decode-side-by-side.sh's target/decode-bench/burst-1e6.data,
# `testkit synth-perf`: id, pid/tid, time, cpu and the raw event per sample).
#
# Exit status 1 when a ratio is below 4 (the speed stats promises).
set -euo pipefail
export LC_ALL=C

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=benches/common.sh
source "$REPO/benches/common.sh"
RUNS=3
BUILD=1
while [ $# -gt 0 ]; do
    case $1 in
        -r) RUNS=$2; shift 2 ;;
        --no-build) BUILD=0; shift ;;
        *) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2 ;;
    esac
done

if [ "$BUILD" = 1 ]; then
    cargo build --quiet --locked --manifest-path "$REPO/Cargo.toml" --profile cli -p eventheader-cli
    cargo build --quiet --locked --manifest-path "$REPO/Cargo.toml" -p testkit
fi
OURS=$REPO/target/cli/eventheader
TESTKIT=$REPO/target/debug/testkit
for p in "$OURS" "$TESTKIT"; do
    [ -x "$p" ] || { echo "stats-vs-decode: no $p (run without --no-build)" >&2; exit 1; }
done

COUNT=1000000
CAPTURE=$REPO/target/stats-bench/burst-1e6.dat
PERF=$REPO/target/decode-bench/burst-1e6.data
bench_recording "$TESTKIT" "$(dirname "$CAPTURE")" "$(basename "$CAPTURE")" "$COUNT" burst capture
bench_recording "$TESTKIT" "$(dirname "$PERF")" "$(basename "$PERF")" "$COUNT" burst perf

# wall FILE COMMAND...: wall seconds of one run (output discarded).
wall() {
    local t
    TIMEFORMAT='%3R'
    t=$({ time "$@" >/dev/null 2>&1; } 2>&1)
    echo "$t"
}

status=0
printf '%-16s %10s %12s %10s %12s %7s\n' recording decode_s decode_ev/s stats_s stats_ev/s ratio
for file in "$CAPTURE" "$PERF"; do
    rec=$(basename "$file")
    # Both must agree on the count before their speed means anything.
    got=$("$OURS" stats --format json "$file" | awk -F'"count": ' '/"total"/ { split($2, a, ","); print a[1]; exit }')
    [ "$got" = "$COUNT" ] || { echo "stats-vs-decode: stats counted $got events in $rec, not $COUNT" >&2; exit 1; }
    d=() s=()
    for ((i = 0; i < RUNS; i++)); do
        d+=("$(wall "$OURS" decode --format jsonl --no-progress -o /dev/null "$file")")
        s+=("$(wall "$OURS" stats --no-progress "$file")")
    done
    dm=$(printf '%s\n' "${d[@]}" | bench_median)
    sm=$(printf '%s\n' "${s[@]}" | bench_median)
    awk -v r="$rec" -v n="$COUNT" -v d="$dm" -v s="$sm" 'BEGIN {
        de = (d > 0 ? n / d : 0); se = (s > 0 ? n / s : 0)
        printf "%-16s %10.3f %12.0f %10.3f %12.0f %7.2f\n", r, d, de, s, se, (de > 0 ? se / de : 0)
        exit (de > 0 && se / de >= 4) ? 0 : 1 }' || status=1
done
echo "(median of $RUNS runs each; ratio = stats events/s over decode --format jsonl events/s, at least 4)"
exit "$status"
