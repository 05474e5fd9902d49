#!/usr/bin/env bash
# The same benchmark sources, several builds, one run: benches/c/bench.c
# (TraceLogging), benches/c/dynamic.cpp (runtime-defined events) and
# benches/c/exporter.cpp (a logs exporter's record) built against another
# installed implementation of these headers and libraries (optional,
# REFERENCE_PREFIX), against our CMake install (shared and static library),
# and the syscall floor benches/c/floor.c (bench.c's writev calls from
# prebuilt iovecs, no library). Prints, per mode:
#   - callgrind Ir per iteration (iteration-difference method, N vs 2N; for
#     `register`, per register + unregister cycle) and each build's ratio to
#     the first reference (or, without one, to the floor);
#   - wall clock of the enabled events relative to the floor (R rounds, one
#     run of each build per round; the median of the per-round ratios, and
#     their range: ratios only, absolute times under TCG mean nothing).
#
#   benches/side-by-side.sh [options]
#
# Options:
#   --capture         measure in capture mode on this machine
#                     (TRACEPOINT_CAPTURE_FILE=/dev/null). A reference build has
#                     no capture mode, so only ours and the floor run.
#                     Default: real user_events in the real-kernel suite's VM
#                     (QEMU; run tests/kernel/run.sh once first for QEMU and
#                     virtme-ng), each program enabling its tracepoint through
#                     tracefs.
#   --modes "M ..."   callgrind modes of benches/modes.txt (bench.c's,
#                     dynamic.cpp's, exporter.cpp's; default: those of its list
#                     "side"). A build without a mode's API
#                     (the C modes against an implementation without
#                     eventheader-dynamic.h) shows "-"; the ratio of such a row
#                     is then against the first reference's C++ figure of the
#                     same event (dynamic5cpp), marked "*".
#   --wall "M ..."    wall-clock modes, bench.c's only (the floor has no other;
#                     default: the list "side-wall" of benches/modes.txt; ""
#                     for none)
#   -n N              iterations of the short callgrind run (default 2000;
#                     register: N/100 cycles, at least 5)
#   --wall-n N        iterations per wall-clock run (default 20000)
#   -r R              wall-clock rounds per mode (default 11)
#   --no-build        reuse the programs and install of the last run
#   --inside DIR      (internal) measure the programs in DIR here and now
#
# Environment:
#   REFERENCE_PREFIX  install prefix(es) of another implementation, separated by
#                     ':' (e.g. a reference v1.4 build made by hand outside this
#                     repository). Each prefix's lib/libeventheader-tracepoint.a
#                     and .so, whichever exist, give one build each, linked
#                     -leventheader-tracepoint -ltracepoint. Without it, ours
#                     alone (one line says so).
#   CC, CXX           C and C++ compilers (default gcc, g++); all builds use -O2,
#                     C -std=gnu11, C++ -std=c++17.
#   EHK_KERNEL_IMAGE, EHK_SHARED_KERNEL, EHK_VENV, EHK_KVM as for
#                     benches/run-in-vm.sh.
#
# Our library is built and installed with CMake (scripts/install-prefix.sh;
# Release: the shipped LTO build) into target/side-by-side/prefix; programs go to
# target/side-by-side/bin (PROGRAM.BUILD: bench.ours-shared,
# dynamic.ref-static, ...), results to target/side-by-side/out.txt.
set -euo pipefail
export LC_ALL=C

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=benches/common.sh
. "$REPO/benches/common.sh"
WORK=$REPO/target/side-by-side
MODES=$(bench_modes side)
WALL=$(bench_modes side-wall)
N1=2000
WALL_N=20000
RUNS=11
BUILD=1
BACKEND=user_events
INSIDE=
while [ $# -gt 0 ]; do
    case $1 in
    --capture) BACKEND=capture ;;
    --modes) MODES=$2; shift ;;
    --wall) WALL=$2; shift ;;
    -n) N1=$2; shift ;;
    --wall-n) WALL_N=$2; shift ;;
    -r) RUNS=$2; shift ;;
    --no-build) BUILD=0 ;;
    --inside) INSIDE=$2; shift ;;
    --backend) BACKEND=$2; shift ;; # internal, with --inside
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "side-by-side.sh: unknown option $1" >&2; exit 2 ;;
    esac
    shift
done

# ---------------------------------------------------------------------------
# Measuring (here, or inside the VM): DIR has the programs and "columns", one
# "label build" line per build (programs PROGRAM.BUILD), the floor last
# (program floor).

# program_of MODE: the benchmark program of a mode.
program_of() {
    case $1 in
    dynamic*) echo dynamic ;;
    exporter_*) echo exporter ;;
    *) echo bench ;;
    esac
}

# base_mode MODE: the mode whose first-reference figure a row's ratio uses
# when the reference has none for MODE (it has no C API).
base_mode() {
    case $1 in
    dynamic5 | dynamic5?*) echo dynamic5cpp ;; # the C API's 5-field modes (and dynamic5cpp itself)
    *) echo "$1" ;;
    esac
}

measure() {
    local dir=$1 work
    command -v valgrind >/dev/null || { echo "side-by-side.sh: valgrind is not installed" >&2; exit 1; }
    work=$(mktemp -d)
    bench_backend side-by-side.sh "$BACKEND"
    local labels=() builds=() label build
    while read -r label build; do
        labels+=("$label")
        builds+=("$build")
    done <"$dir/columns"
    local ncol=${#labels[@]} floor_col=$((${#labels[@]} - 1))
    # exe COLUMN MODE: the program, or nothing (the floor has only bench's modes).
    exe() {
        if [ "$1" = "$floor_col" ]; then
            [ "$(program_of "$2")" = bench ] && [ "$2" != register ] && echo "$dir/floor"
        else
            echo "$dir/$(program_of "$2").${builds[$1]}"
        fi
    }

    # Every callgrind run, two at a time (callgrind counts each process's own
    # instructions, whatever else runs). A program that exits 3 has no API
    # for the mode: "-".
    local jobs=() m c n1 n
    for m in $MODES; do
        n1=$(callgrind_short_n "$m" "$N1")
        for ((c = 0; c < ncol; c++)); do
            [ -n "$(exe "$c" "$m")" ] || continue
            for n in "$n1" $((2 * n1)); do
                jobs+=("$c $m $n")
            done
        done
    done
    local running=0 job
    for job in "${jobs[@]}"; do
        set -- $job
        (valgrind --tool=callgrind --callgrind-out-file="$work/$1.$2.$3.out" "$(exe "$1" "$2")" "$2" "$3" \
            "${BENCH_EXTRA[@]}" >"$work/$1.$2.$3.log" 2>&1 || echo "$?" >"$work/$1.$2.$3.failed") &
        running=$((running + 1))
        if [ "$running" -ge 2 ]; then
            wait -n || true
            running=$((running - 1))
        fi
    done
    wait
    local failed=0 f
    for f in "$work"/*.failed; do
        [ -e "$f" ] || continue
        if [ "$(cat "$f")" = 3 ]; then
            : >"${f%.failed}.none"
            continue
        fi
        echo "side-by-side.sh: $(basename "$f" .failed) failed under valgrind:" >&2
        cat "${f%.failed}.log" >&2
        failed=1
    done
    [ "$failed" = 0 ] || exit 1
    ir() { callgrind_total "$work/$1.$2.$3.out"; }

    echo "== callgrind Ir per iteration (register: per register + unregister cycle), backend: $BACKEND, N = $N1 vs $((2 * N1))"
    local ref_col=-1
    for ((c = 0; c < floor_col; c++)); do
        case ${labels[$c]} in ours-*) ;; *) [ "$ref_col" != -1 ] || ref_col=$c ;; esac
    done
    local base_name=floor
    [ "$ref_col" = -1 ] || base_name=${labels[$ref_col]}
    printf '%-16s' mode
    for ((c = 0; c < ncol; c++)); do printf ' %18s' "${labels[$c]}"; done
    for ((c = 0; c < floor_col; c++)); do
        [ "$c" != "$ref_col" ] || continue
        printf ' %18s' "${labels[$c]}/$base_name"
    done
    echo
    # per_iteration COLUMN MODE: Ir per iteration, or "-".
    per_iteration() {
        local n1
        n1=$(callgrind_short_n "$2" "$N1")
        if [ -z "$(exe "$1" "$2")" ] || [ -e "$work/$1.$2.$n1.none" ]; then
            echo -
            return
        fi
        callgrind_per_iteration "$(ir "$1" "$2" "$n1")" "$(ir "$1" "$2" $((2 * n1)))" "$n1"
    }
    local v vals base mark marked=0
    for m in $MODES; do
        vals=()
        for ((c = 0; c < ncol; c++)); do
            vals+=("$(per_iteration "$c" "$m")")
        done
        printf '%-16s' "$m"
        for v in "${vals[@]}"; do printf ' %18s' "$v"; done
        base=${vals[$floor_col]}
        mark=
        if [ "$ref_col" != -1 ]; then
            base=${vals[$ref_col]}
            if [ "$base" = - ] && [ "$(base_mode "$m")" != "$m" ]; then
                base=$(per_iteration "$ref_col" "$(base_mode "$m")")
                mark='*'
                marked=1
            fi
        fi
        for ((c = 0; c < floor_col; c++)); do
            [ "$c" != "$ref_col" ] || continue
            printf ' %18s' "$(awk -v a="${vals[$c]}" -v b="$base" -v m="$mark" 'BEGIN { if (a == "-" || b == "-" || b + 0 == 0) print "-"; else printf "%.3f%s", a / b, m }')"
        done
        echo
    done
    [ "$marked" = 0 ] || echo "* against ${labels[$ref_col]}'s dynamic5cpp: the same event through its C++ API (it has no C API)"

    [ -n "$WALL" ] || { rm -rf "$work"; return 0; }
    for m in $WALL; do
        [ "$(program_of "$m")" = bench ] || { echo "side-by-side.sh: wall-clock mode $m: the floor has only bench.c's modes" >&2; exit 2; }
    done
    echo "== wall clock relative to the floor, backend: $BACKEND: $RUNS rounds of one run ($WALL_N iterations) of each build;"
    echo "   per round each build's ns per event / the floor's; median, and in parentheses the lowest and highest round"
    printf '%-16s' mode
    for ((c = 0; c < floor_col; c++)); do printf ' %24s' "${labels[$c]}/floor"; done
    echo
    local r
    for m in $WALL; do
        # Round robin over the builds, so that drift (other load on the
        # machine, the VM's warm-up) falls on all of them alike.
        for ((r = 0; r < RUNS; r++)); do
            for ((c = 0; c < ncol; c++)); do
                "$(exe "$c" "$m")" "$m" "$WALL_N" "${BENCH_EXTRA[@]}" | awk '{ print $3 }' >>"$work/wall.$c.$m"
            done
        done
        printf '%-16s' "$m"
        for ((c = 0; c < floor_col; c++)); do
            printf ' %24s' "$(paste "$work/wall.$c.$m" "$work/wall.$floor_col.$m" | awk '{ print $1 / $2 }' | sort -g |
                awk '{ v[NR] = $1 } END { printf "%.2f (%.2f-%.2f)", v[int((NR + 1) / 2)], v[1], v[NR] }')"
        done
        echo
    done
    rm -rf "$work"
}

if [ -n "$INSIDE" ]; then
    measure "$INSIDE"
    exit 0
fi

# ---------------------------------------------------------------------------
# Building (on the host).
BIN=$WORK/bin
PREFIX=$WORK/prefix
CC=${CC:-gcc}
CXX=${CXX:-g++}
CFLAGS=(-std=gnu11 -O2 -Wall -Wextra)
CXXFLAGS=(-std=c++17 -O2 -Wall -Wextra)
# shellcheck source=../scripts/lib/quiet.sh
source "$REPO/scripts/lib/quiet.sh"
QUIET_LOG=$WORK/build.log

if [ "$BUILD" = 1 ]; then
    mkdir -p "$WORK"
    : >"$QUIET_LOG"
    rm -rf "$BIN" "$PREFIX"
    mkdir -p "$BIN"
    bash "$REPO/scripts/install-prefix.sh" "$WORK/build" "$PREFIX" -DCMAKE_BUILD_TYPE=Release \
        -DEVENTHEADER_BUILD_CLI=OFF -DTRACEPOINT_CARGO_FLAGS=--locked >/dev/null
    lib=$(dirname "$(find "$PREFIX" -name libeventheader_tracepoint.a -type f)")
    native_libs=$(sed -n 's/^Libs.private: //p' "$lib/pkgconfig/tracepoint.pc")
    src=$REPO/benches/c
    columns=()
    # build_all TAG WHAT INCLUDE LINK...: bench, dynamic and exporter of one build.
    build_all() {
        local tag=$1 what=$2 include=$3
        shift 3
        quiet "build bench against $what" "$CC" "${CFLAGS[@]}" -I"$include" "$src/bench.c" -o "$BIN/bench.$tag" "$@"
        quiet "build dynamic against $what" "$CXX" "${CXXFLAGS[@]}" -I"$include" "$src/dynamic.cpp" -o "$BIN/dynamic.$tag" "$@"
        # The exporter's model at -O3, as the exporter's own CMake Release
        # build compiles it (the reference's header inlines more there).
        quiet "build exporter against $what" "$CXX" "${CXXFLAGS[@]}" -O3 -I"$include" "$src/exporter.cpp" -o "$BIN/exporter.$tag" "$@"
        columns+=("$tag $tag")
    }
    # Other implementations first.
    if [ -n "${REFERENCE_PREFIX:-}" ]; then
        IFS=: read -r -a refs <<<"$REFERENCE_PREFIX"
        i=0
        for ref in "${refs[@]}"; do
            [ -d "$ref/include" ] && [ -d "$ref/lib" ] || { echo "side-by-side.sh: REFERENCE_PREFIX $ref has no include/ and lib/" >&2; exit 1; }
            tag=ref
            [ "${#refs[@]}" = 1 ] || tag=ref$((i += 1))
            found=0
            if [ -e "$ref/lib/libeventheader-tracepoint.a" ]; then
                build_all "$tag-static" "$ref (static)" "$ref/include" -L"$ref/lib" \
                    -Wl,-Bstatic -leventheader-tracepoint -ltracepoint -Wl,-Bdynamic -lpthread
                found=1
            fi
            if [ -e "$ref/lib/libeventheader-tracepoint.so" ]; then
                build_all "$tag-shared" "$ref (shared)" "$ref/include" -L"$ref/lib" -Wl,-rpath,"$ref/lib" \
                    -leventheader-tracepoint -ltracepoint
                found=1
            fi
            [ "$found" = 1 ] || { echo "side-by-side.sh: no libeventheader-tracepoint.a or .so in $ref/lib" >&2; exit 1; }
        done
    fi
    build_all ours-shared "ours (shared)" "$PREFIX/include" -L"$lib" -Wl,-rpath,"$lib" \
        -leventheader-tracepoint -ltracepoint
    # A static program has capture mode only when asked for: --capture needs
    # it, and the same programs serve both backends (--no-build); the kernel
    # path is the same with or without it.
    # shellcheck disable=SC2086 # native_libs is a list of flags
    build_all ours-static "ours (static)" "$PREFIX/include" -L"$lib" \
        -Wl,-Bstatic -leventheader-tracepoint -ltracepoint -Wl,-Bdynamic $native_libs \
        -Wl,-u,tracepoint_set_capture_file
    quiet "build floor" "$CC" "${CFLAGS[@]}" "$src/floor.c" -o "$BIN/floor"
    columns+=("floor floor")
    printf '%s\n' "${columns[@]}" >"$BIN/columns"
fi
[ -r "$BIN/columns" ] || { echo "side-by-side.sh: nothing built in $BIN (run without --no-build)" >&2; exit 1; }

if [ -z "${REFERENCE_PREFIX:-}" ]; then
    echo "side-by-side.sh: REFERENCE_PREFIX is not set: measuring ours alone (set it to the install prefix of another implementation to compare)"
elif [ "$BACKEND" = capture ]; then
    echo "side-by-side.sh: capture mode: the other implementation has none, so only ours and the floor run"
    grep -E '^(ours-|floor )' "$BIN/columns" >"$BIN/columns.capture"
fi

args=(--modes "$MODES" --wall "$WALL" -n "$N1" --wall-n "$WALL_N" -r "$RUNS" --backend "$BACKEND")
if [ "$BACKEND" = capture ]; then
    if [ -e "$BIN/columns.capture" ]; then
        tmp=$(mktemp -d)
        trap 'rm -rf "$tmp"' EXIT
        cp "$BIN"/* "$tmp/"
        mv "$tmp/columns.capture" "$tmp/columns"
        bash "$0" "${args[@]}" --inside "$tmp" | tee "$WORK/out.txt"
    else
        bash "$0" "${args[@]}" --inside "$BIN" | tee "$WORK/out.txt"
    fi
    exit "${PIPESTATUS[0]}"
fi

# The VM: the kernel suite's kernel under QEMU, the host's file system shared.
q() { printf '%q ' "$@"; }
bench_vm side-by-side.sh "$WORK/vm" "bash $(q "$0" "${args[@]}" --inside "$BIN")" | tee "$WORK/out.txt"
exit "${PIPESTATUS[0]}"
