#!/usr/bin/env bash
# Wall-clock nanoseconds per event: each program runs R times (default 7) with
# N iterations and the median of the runs' ns/iteration is reported. Relative
# figures only: they depend on the machine, its load and (in the VM) on QEMU's
# TCG emulation. Use benches/run-callgrind.sh for deterministic counts.
#
#   benches/run-wallclock.sh [options]
#
# Options:
#   --user-events     write to the kernel's user_events (needs root, tracefs,
#                     CONFIG_USER_EVENTS; tracepoints are enabled through tracefs).
#                     Default: capture mode, TRACEPOINT_CAPTURE_FILE=/dev/null.
#   --modes "M ..."   bench.c's modes in benches/modes.txt (default: those of
#                     its list "wallclock")
#   -n N              iterations per run (default 200000; register: N/2000, at least 10)
#   -r R              runs per program and mode (default 7)
#   --no-build        use the programs already built in --bin-dir
#   --bin-dir DIR     where the programs are (default target/bench-c)
#
# Environment: CC, BENCH_LIB_DIR as for run-callgrind.sh.
set -euo pipefail
export LC_ALL=C

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=benches/common.sh
. "$REPO/benches/common.sh"
MODES=$(bench_modes wallclock)
N=200000
RUNS=7
BUILD=1
BACKEND=capture
BIN=$REPO/target/bench-c
while [ $# -gt 0 ]; do
    case $1 in
    --user-events) BACKEND=user_events ;;
    --capture) BACKEND=capture ;;
    --modes) MODES=$2; shift ;;
    -n) N=$2; shift ;;
    -r) RUNS=$2; shift ;;
    --no-build) BUILD=0 ;;
    --bin-dir) BIN=$2; shift ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "run-wallclock.sh: unknown option $1" >&2; exit 2 ;;
    esac
    shift
done
LIB=${BENCH_LIB_DIR:-$REPO/target/release}
if [ "$BUILD" = 1 ]; then
    bash "$REPO/benches/c/build.sh" "$BIN" ${BENCH_LIB_DIR:+"$LIB"}
fi
[ -x "$BIN/bench" ] && [ -x "$BIN/floor" ] || { echo "run-wallclock.sh: no programs in $BIN (build first)" >&2; exit 1; }

bench_backend run-wallclock.sh "$BACKEND"

median() { sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) print "-"; else if (NR % 2) print v[(NR + 1) / 2]; else printf "%.2f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# Median ns/iteration of prog mode over RUNS runs; for register, also the
# medians of the register-only and unregister-only lines (as "a b c").
measure() { # prog mode
    local n=$N out i
    [ "$2" != register ] || { n=$((N / 2000)); [ "$n" -ge 10 ] || n=10; }
    out=$(mktemp)
    for ((i = 0; i < RUNS; i++)); do
        "$1" "$2" "$n" "${BENCH_EXTRA[@]}" >>"$out" || { rm -f "$out"; return 1; }
    done
    if [ "$2" = register ]; then
        echo "$(awk '$1 == "register" { print $3 }' "$out" | median)" \
            "$(awk '$1 == "register_only" { print $3 }' "$out" | median)" \
            "$(awk '$1 == "unregister_only" { print $3 }' "$out" | median)"
    else
        awk -v m="$2" '$1 == m { print $3 }' "$out" | median
    fi
    rm -f "$out"
}

echo "wall clock ns per iteration (median of $RUNS runs), backend: $BACKEND, N = $N"
printf '%-10s %12s %12s %12s\n' mode library floor overhead
for m in $MODES; do
    if [ "$m" = register ]; then
        read -r cyc reg unreg <<<"$(measure "$BIN/bench" register)"
        printf '%-10s %12s %12s %12s   (register %s ns + unregister %s ns, 1000 events)\n' \
            register "$cyc" - - "$reg" "$unreg"
        continue
    fi
    lib=$(measure "$BIN/bench" "$m")
    floor=$(measure "$BIN/floor" "$m")
    over=$(awk -v a="$lib" -v b="$floor" 'BEGIN { printf "%+.2f", a - b }')
    printf '%-10s %12s %12s %12s\n' "$m" "$lib" "$floor" "$over"
done
