#!/usr/bin/env bash
# Decoding speed side by side: `eventheader decode` (cargo profile
# `cli`, the optimized build the CMake install ships) and, optionally,
# another implementation's perf.data decoder, on the same recordings in the
# same run, alternating. Prints per recording and decoder:
#   - wall, user and system time (seconds, the median of R runs);
#   - maximum resident set size (KiB, one run);
#   - user-space instructions (callgrind Ir, one run; 10^5-event recordings);
#   - read system calls on the input (strace, one run);
# the ratio of our median wall time to the other's; and the read calls both
# make on the reference perf.data and pipe.data (testkit reference-dir).
#
#   benches/decode-side-by-side.sh [-r R] [--formats LIST] [--no-build] [--no-callgrind]
#
# --formats LIST: our output formats to measure, comma-separated (decode
# --format: json, jsonl, text, csv, trace-event; default json), each a
# decoder row of its own ("ours-FORMAT") and its own ratio to the reference.
#
# Recordings, written by `testkit synth-perf` into target/decode-bench/
# (the same bytes on every machine; rewritten when missing):
#   burst-1e5.data, burst-1e6.data  cli_writer's burst (cli/tests/vm): event
#                                   Burst of CliBurst_L5K1, one u32 field, as
#                                   `eventheader collect` records 10^5 and 10^6
#                                   of them
#   mix-1e5.data                    the reference capture's 374 events (every
#                                   field type) cycled to 10^5
# Each sample carries id, pid/tid, time, cpu and the raw event; the files
# give wall-clock offsets, so times decode to dates.
#
# Environment:
#   REFERENCE_PREFIX  install prefix(es) of another implementation, separated
#                     by ':' (e.g. a reference v1.4 build made by hand outside
#                     this repository); the first PREFIX/bin/perf-decode is
#                     measured. Without it, ours alone (one line says so).
set -euo pipefail
export LC_ALL=C

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=benches/common.sh
source "$REPO/benches/common.sh"
WORK=$REPO/target/decode-bench
RUNS=5
BUILD=1
CALLGRIND=1
FORMATS=json
while [ $# -gt 0 ]; do
    case $1 in
        -r) RUNS=$2; shift 2 ;;
        --no-build) BUILD=0; shift ;;
        --no-callgrind) CALLGRIND=0; shift ;;
        --formats) FORMATS=$2; shift 2 ;;
        *) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2 ;;
    esac
done

for tool in strace valgrind /usr/bin/time; do
    command -v "$tool" >/dev/null || { echo "decode-side-by-side: $tool is needed" >&2; exit 1; }
done
if [ "$BUILD" = 1 ]; then
    cargo build --quiet --locked --manifest-path "$REPO/Cargo.toml" --profile cli -p eventheader-cli
    cargo build --quiet --locked --manifest-path "$REPO/Cargo.toml" -p testkit
fi
OURS=$REPO/target/cli/eventheader
TESTKIT=$REPO/target/debug/testkit
[ -x "$OURS" ] || { echo "decode-side-by-side: no $OURS (run without --no-build)" >&2; exit 1; }

REF=
IFS=: read -r -a prefixes <<<"${REFERENCE_PREFIX:-}"
for p in "${prefixes[@]}"; do
    if [ -n "$p" ] && [ -x "$p/bin/perf-decode" ]; then
        REF=$p/bin/perf-decode
        # A shared build's libraries (the reference's install sets no rpath).
        export LD_LIBRARY_PATH=$p/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
        break
    fi
done
if [ -z "$REF" ]; then
    echo "decode-side-by-side: no REFERENCE_PREFIX with bin/perf-decode: measuring ours alone (no comparison)"
fi

bench_recording "$TESTKIT" "$WORK" burst-1e5.data 100000 burst
bench_recording "$TESTKIT" "$WORK" burst-1e6.data 1000000 burst
bench_recording "$TESTKIT" "$WORK" mix-1e5.data 100000 reference

# decoder NAME FILE: the command line that decodes FILE to /dev/null.
decoder() {
    case $1 in
        ours-*) echo "$OURS decode --format ${1#ours-} $2 -o /dev/null" ;;
        reference) echo "$REF -o /dev/null $2" ;;
    esac
}

# reads FILE COMMAND...: read system calls on FILE's descriptor.
reads() {
    local file=$1 log=$WORK/strace.log
    shift
    strace -f -e trace=openat,read,pread64,readv,preadv -o "$log" "$@" >/dev/null 2>&1
    awk -v f="\"$file\"" '
        index($0, "openat(") && index($0, f) { n = split($0, w, "= "); fd = w[n] + 0; open = 1; next }
        open && ($0 ~ "(read|pread64|readv|preadv)\\(" fd ",") { c++ }
        END { print c + 0 }' "$log"
}

IFS=, read -r -a formats <<<"$FORMATS"
decoders=()
for f in "${formats[@]}"; do
    case $f in
        json | jsonl | text | csv | trace-event) decoders+=("ours-$f") ;;
        *) echo "decode-side-by-side: no format $f" >&2; exit 2 ;;
    esac
done
[ -z "$REF" ] || decoders+=(reference)

declare -A median=()
printf '%-16s %-16s %8s %8s %8s %9s %14s %7s\n' recording decoder wall_s user_s sys_s rss_KiB Ir reads
for rec in burst-1e5.data burst-1e6.data mix-1e5.data; do
    file=$WORK/$rec
    declare -A wall=() user=() sys=()
    for ((i = 0; i < RUNS; i++)); do
        for d in "${decoders[@]}"; do
            read -r -a cmd <<<"$(decoder "$d" "$file")"
            TIMEFORMAT='%3R %3U %3S'
            t=$({ time "${cmd[@]}" >/dev/null 2>&1; } 2>&1)
            read -r r u s <<<"$t"
            wall[$d]+="$r "
            user[$d]+="$u "
            sys[$d]+="$s "
        done
    done
    for d in "${decoders[@]}"; do
        read -r -a cmd <<<"$(decoder "$d" "$file")"
        rss=$(/usr/bin/time -f %M "${cmd[@]}" 2>&1 >/dev/null | tail -n 1)
        ir=-
        if [ "$CALLGRIND" = 1 ] && [[ $rec == *1e5* ]]; then
            valgrind --tool=callgrind --callgrind-out-file="$WORK/callgrind.$d.$rec" "${cmd[@]}" >/dev/null 2>&1
            ir=$(awk '$1 == "totals:" || $1 == "summary:" { print $2; exit }' "$WORK/callgrind.$d.$rec")
        fi
        n=$(reads "$file" "${cmd[@]}")
        w=$(tr ' ' '\n' <<<"${wall[$d]}" | grep . | bench_median)
        u=$(tr ' ' '\n' <<<"${user[$d]}" | grep . | bench_median)
        s=$(tr ' ' '\n' <<<"${sys[$d]}" | grep . | bench_median)
        printf '%-16s %-16s %8s %8s %8s %9s %14s %7s\n' "$rec" "$d" "$w" "$u" "$s" "$rss" "$ir" "$n"
        median[$d]=$w
    done
    if [ -n "$REF" ]; then
        for d in "${decoders[@]}"; do
            [ "$d" != reference ] || continue
            awk -v a="${median[$d]}" -v b="${median[reference]}" -v r="$rec" -v d="$d" \
                'BEGIN { printf "%-16s %s/reference wall time: %.2f (median of '"$RUNS"' runs each)\n", r, d, (b > 0 ? a / b : 0) }'
        done
    fi
    unset wall user sys
done

ref_dir=$("$TESTKIT" reference-dir)
for f in perf.data pipe.data; do
    [ -r "$ref_dir/$f" ] || { echo "decode-side-by-side: no $ref_dir/$f" >&2; continue; }
    for d in "${decoders[@]}"; do
        read -r -a cmd <<<"$(decoder "$d" "$ref_dir/$f")"
        printf 'reads of the reference %-9s (%6d bytes): %-16s %5d\n' "$f" "$(stat -c %s "$ref_dir/$f")" "$d" "$(reads "$ref_dir/$f" "${cmd[@]}")"
    done
done
