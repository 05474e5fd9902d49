#!/usr/bin/env bash
# Instruction counts per event, by the iteration-difference method: each
# program runs under `valgrind --tool=callgrind` with N1 and with N2
# iterations, and (Ir(N2) - Ir(N1)) / (N2 - N1) is what one iteration costs in
# user space (start-up, registration and exit cancel out). Deterministic:
# independent of machine load.
#
#   benches/run-callgrind.sh [options]
#
# Options:
#   --user-events     write to the kernel's user_events (needs root, tracefs and
#                     CONFIG_USER_EVENTS; each benchmark enables its tracepoint
#                     through tracefs so enabled events have a listener).
#                     Default: capture mode, TRACEPOINT_CAPTURE_FILE=/dev/null.
#   --capture-file P  capture mode into P instead of /dev/null (a regular file
#                     appended to by every run: its writes need no signal
#                     guard unless RLIMIT_FSIZE is finite)
#   --modes "M ..."   modes of benches/modes.txt (default: those of its list
#                     "callgrind"); bench.c's and handles.c's have a floor,
#                     dynamic.cpp's and exporter.cpp's none
#   -n N1             iterations of the short run (default 2000; register: N1/100,
#                     at least 5); the long run does 2 x N1
#   --no-build        use the programs already built in --bin-dir
#   --build-only      build the programs and stop
#   --bin-dir DIR     where the programs are built (default target/bench-c)
#   --keep DIR        keep the callgrind output files in DIR (for callgrind_annotate)
#   --tsv FILE        also write "mode<TAB>library<TAB>floor" (Ir per iteration) to FILE
#
# Environment: CC (default gcc), BENCH_LIB_DIR (default <repo>/target/release,
# built with `cargo build --release` unless --no-build).
#
# Output: a table of Ir per iteration for the library (bench.c, the public
# TraceLogging API; dynamic.cpp for the dynamic* modes, exporter.cpp for the
# exporter_* modes, handles.c for the
# handle-/symbol- modes), the syscall floor
# (floor.c: the same writev calls from prebuilt iovecs, no library) and the
# difference.
set -euo pipefail
export LC_ALL=C

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=benches/common.sh
. "$REPO/benches/common.sh"
MODES=$(bench_modes callgrind)
N1=2000
BUILD=1
BUILD_ONLY=0
BACKEND=capture
BIN=$REPO/target/bench-c
KEEP=
TSV=
while [ $# -gt 0 ]; do
    case $1 in
    --user-events) BACKEND=user_events ;;
    --capture) BACKEND=capture ;;
    --capture-file) BACKEND=capture; export BENCH_CAPTURE_FILE=$2; shift ;;
    --modes) MODES=$2; shift ;;
    -n) N1=$2; shift ;;
    --no-build) BUILD=0 ;;
    --build-only) BUILD_ONLY=1 ;;
    --bin-dir) BIN=$2; shift ;;
    --keep) KEEP=$2; shift ;;
    --tsv) TSV=$2; shift ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "run-callgrind.sh: unknown option $1" >&2; exit 2 ;;
    esac
    shift
done
LIB=${BENCH_LIB_DIR:-$REPO/target/release}

if [ "$BUILD" = 1 ]; then
    # Without BENCH_LIB_DIR, build.sh runs `cargo build --release` first.
    bash "$REPO/benches/c/build.sh" "$BIN" ${BENCH_LIB_DIR:+"$LIB"}
fi
[ "$BUILD_ONLY" = 1 ] && exit 0
[ -x "$BIN/bench" ] && [ -x "$BIN/floor" ] || { echo "run-callgrind.sh: no programs in $BIN (build first)" >&2; exit 1; }
for need in "handle-:handles" "symbol-:handles" "dynamic:dynamic" "exporter_:exporter"; do
    case " $MODES " in
    *" ${need%%:*}"*)
        [ -x "$BIN/${need#*:}" ] || { echo "run-callgrind.sh: no $BIN/${need#*:} (build first)" >&2; exit 1; } ;;
    esac
done
command -v valgrind >/dev/null || { echo "run-callgrind.sh: valgrind is not installed" >&2; exit 1; }

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
bench_backend run-callgrind.sh "$BACKEND"

# Total Ir of one run: callgrind's "totals:" line.
ir_of() { # prog mode n
    local out=$WORK/$(basename "$1").$2.$3.out
    if ! valgrind --tool=callgrind --callgrind-out-file="$out" "$1" "$2" "$3" "${BENCH_EXTRA[@]}" \
        >"$WORK/run.log" 2>&1; then
        echo "run-callgrind.sh: $1 $2 $3 failed under valgrind:" >&2
        cat "$WORK/run.log" >&2
        return 1
    fi
    if [ -n "$KEEP" ]; then
        mkdir -p "$KEEP"
        cp "$out" "$KEEP/"
    fi
    callgrind_total "$out"
}

# Ir per iteration: prog mode -> number with 2 decimals.
per_iter() { # prog mode
    local n1 a b
    n1=$(callgrind_short_n "$2" "$N1")
    a=$(ir_of "$1" "$2" "$n1") || return 1
    b=$(ir_of "$1" "$2" $((2 * n1))) || return 1
    callgrind_per_iteration "$a" "$b" "$n1"
}

[ -z "$TSV" ] || : >"$TSV"
echo "callgrind Ir per iteration, backend: $BACKEND${TRACEPOINT_CAPTURE_FILE:+ ($TRACEPOINT_CAPTURE_FILE)}, N = $N1 vs $((2 * N1)) (register: cycles of register + unregister)"
printf '%-16s %12s %12s %12s\n' mode library floor overhead
for m in $MODES; do
    # handles.c's modes are "handle-MODE" / "symbol-MODE", with floor.c's MODE as floor.
    case $m in
    dynamic*) prog=$BIN/dynamic ;;
    exporter_*) prog=$BIN/exporter ;;
    handle-* | symbol-*) prog=$BIN/handles floor_mode=${m#*-} ;;
    *) prog=$BIN/bench floor_mode=$m ;;
    esac
    lib=$(per_iter "$prog" "$m")
    if [ "$m" = register ] || [ "$prog" = "$BIN/dynamic" ] || [ "$prog" = "$BIN/exporter" ]; then
        floor=-
        over=-
    else
        floor=$(per_iter "$BIN/floor" "$floor_mode")
        over=$(awk -v a="$lib" -v b="$floor" 'BEGIN { printf "%+.2f", a - b }')
    fi
    printf '%-16s %12s %12s %12s\n' "$m" "$lib" "$floor" "$over"
    [ -z "$TSV" ] || printf '%s\t%s\t%s\n' "$m" "$lib" "$floor" >>"$TSV"
done
