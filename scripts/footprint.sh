#!/usr/bin/env bash
# What the library costs a program that links it, measured on the CMake
# install (release), and the proof that it has no panic path.
#
#   bash scripts/footprint.sh [--keep DIR]
#
# Builds and installs the library (CMAKE_BUILD_TYPE=Release,
# TRACEPOINT_INSTALL_DEBUG=ON) into a temporary prefix
# (scripts/install-prefix.sh), then measures:
#   - the static-program delta of a TraceLogging program: the benchmark
#     program benches/c/bench.c (TraceLogging API, gcc -O2), linked
#     statically against our .a and stripped, minus the same program linked
#     against our shared library and stripped. Both contain the same program
#     code and the same (dynamic) C library; the shared-linked one only adds
#     PLT entries and dynamic symbols for the library's functions, so the
#     difference is what the library's code and data add to a static program
#     (a few hundred bytes underestimated, never over). Program files grow in
#     4 KiB steps (the text and read-only segments start on page
#     boundaries), so this moves by whole pages;
#   - the same delta of a program with runtime-defined events
#     (benches/c/dynamic.cpp, the C and C++ APIs, g++ -O2);
#   - the installed shared library (installed stripped, checked to carry no
#     .debug_* section) and the size `strip` leaves of it;
#   - the installed static archive (and each member) and the separate debug
#     file.
# The static programs link only the archive members they call: the capture
# backend is linked for capture mode with -Wl,-u,tracepoint_set_capture_file
# (a third build of bench.c, which must capture its event).
# It also counts (callgrind, the iteration difference of
# benches/run-callgrind.sh) the instructions of one enabled 5-field event of
# the shared bench program in capture mode, in the reference's record layout
# and in the timed one (TRACEPOINT_CAPTURE_LAYOUT=timed, docs/format.md §7).
# It prints a table and fails (exit 1) when the TraceLogging program's static
# delta exceeds 12 KiB, the capture write exceeds its bound in either layout, the stripped .so exceeds 96 KiB, a debug section is
# installed in the .so, or `nm` finds Rust panic machinery in the installed
# .so (dynamic symbols), its debug file (full symbol table of the same
# build) or the .a (every member).
#
# Environment: CC (default gcc), CXX (default g++); FOOTPRINT_CARGO_TARGET_DIR
# (default <repo>/target/footprint, reused between runs so a rerun only
# relinks).
set -euo pipefail
export LC_ALL=C

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
KEEP=
while [ $# -gt 0 ]; do
    case $1 in
    --keep) KEEP=$2; shift ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "footprint.sh: unknown option $1" >&2; exit 2 ;;
    esac
    shift
done

STATIC_DELTA_MAX=$((12 * 1024))
SO_STRIPPED_MAX=$((96 * 1024))
# Instructions per enabled 5-field event in capture mode (bench-shared
# enabled5): the reference's layout, and the timed layout (a clock read
# through the vDSO, the cached pid and tid, 16 more bytes of head).
CAPTURE_WRITE_MAX=235
CAPTURE_TIMED_MAX=340
CC=${CC:-gcc}
CXX=${CXX:-g++}
for tool in cmake "$CC" "$CXX" strip nm readelf size ar; do
    command -v "$tool" >/dev/null || { echo "footprint.sh: $tool is not installed" >&2; exit 1; }
done

if [ -n "$KEEP" ]; then
    WORK=$KEEP
    rm -rf "$WORK"
    mkdir -p "$WORK"
else
    WORK=$(mktemp -d)
    trap 'rm -rf "$WORK"' EXIT
fi
# shellcheck source=lib/quiet.sh
source "$REPO/scripts/lib/quiet.sh"
QUIET_LOG=$WORK/build.log

prefix=$(bash "$REPO/scripts/install-prefix.sh" "$WORK/build" "$WORK/prefix" -DCMAKE_BUILD_TYPE=Release \
    -DTRACEPOINT_INSTALL_DEBUG=ON -DTRACEPOINT_CARGO_FLAGS=--locked \
    -DTRACEPOINT_CARGO_TARGET_DIR="${FOOTPRINT_CARGO_TARGET_DIR:-$REPO/target/footprint}")

archive=$(find "$prefix" -name libeventheader_tracepoint.a -type f)
lib=$(dirname "$archive")
so=$(find "$lib" -maxdepth 1 -name 'libeventheader_tracepoint.so.*.*.*' -type f)
debug=$lib/.debug/$(basename "$so").debug
[ -f "$so" ] && [ -f "$debug" ] || { echo "footprint.sh: the install has no $so or $debug" >&2; exit 1; }
native_libs=$(sed -n 's/^Libs.private: //p' "$lib/pkgconfig/tracepoint.pc")

# Each program twice, from the same source with the same flags: against the
# shared and against the static library (NAME-shared, NAME-static).
link_both() { # name compiler flags... -- source [static-only flags...]
    local name=$1 compiler=$2 flags=() source
    shift 2
    while [ "$1" != -- ]; do flags+=("$1"); shift; done
    source=$2
    shift 2
    quiet "link $name against the shared library" "$compiler" "${flags[@]}" -o "$WORK/$name-shared" \
        "$source" -L"$lib" -Wl,-rpath,"$lib" -leventheader-tracepoint -ltracepoint
    # shellcheck disable=SC2086 # native_libs is a list of -l flags
    quiet "link $name against the static library" "$compiler" "${flags[@]}" -o "$WORK/$name-static" \
        "$source" -L"$lib" -Wl,-Bstatic -leventheader-tracepoint -ltracepoint -Wl,-Bdynamic \
        $native_libs "$@"
    if readelf -d "$WORK/$name-static" | grep -q 'eventheader_tracepoint'; then
        echo "footprint.sh: the static $name needs the shared library" >&2
        exit 1
    fi
    readelf -d "$WORK/$name-shared" | grep -q 'NEEDED.*libeventheader_tracepoint' ||
        { echo "footprint.sh: the shared $name does not need the shared library" >&2; exit 1; }
}
cflags=(-std=gnu11 -O2 -Wall -Wextra -Werror -I"$prefix/include")
# The TraceLogging-only program: bench.c without the thread activity id of
# TraceLoggingActivity.h's classes (BENCH_TRACELOGGING_ONLY); "activity" is
# bench.c with it.
link_both bench "$CC" "${cflags[@]}" -DBENCH_TRACELOGGING_ONLY -- "$REPO/benches/c/bench.c"
link_both activity "$CC" "${cflags[@]}" -- "$REPO/benches/c/bench.c"
link_both dynamic "$CXX" -std=c++17 -O2 -Wall -Wextra -Werror -I"$prefix/include" -- \
    "$REPO/benches/c/dynamic.cpp"
link_both capture "$CC" "${cflags[@]}" -DBENCH_TRACELOGGING_ONLY -- "$REPO/benches/c/bench.c" \
    -Wl,-u,tracepoint_set_capture_file
# The TraceLogging program links neither the capture backend, nor the
# runtime-defined events, nor the activity ids and their thread-local slot;
# the activity program links the activity ids.
# (nm's output to a file first: with pipefail, grep -q's early exit would
# fail the pipeline through nm's SIGPIPE.)
nm "$WORK/activity-static" >"$WORK/activity-static.nm"
nm "$WORK/bench-static" >"$WORK/bench-static.nm"
grep -q ' _eventheader_tlg_thread_activity_set$' "$WORK/activity-static.nm" ||
    { echo "footprint.sh: the static activity program lacks the thread activity id" >&2; exit 1; }
for sym in tracepoint_set_capture_file ehd_builder_new _eventheader_tlg_thread_activity_set _eventheader_tlg_thread_slot; do
    if grep -q " $sym\$" "$WORK/bench-static.nm"; then
        echo "footprint.sh: the static TraceLogging program has $sym" >&2
        exit 1
    fi
done
# They work: one enabled event each, in capture mode (the static one with
# the capture backend linked).
for p in bench-shared capture-static; do
    TRACEPOINT_CAPTURE_FILE=$WORK/$p.dat quiet "running $p" "$WORK/$p" enabled5 1
    [ -s "$WORK/$p.dat" ] || { echo "footprint.sh: $p wrote no event" >&2; exit 1; }
done
strip "$WORK"/{bench,activity,dynamic,capture}-{shared,static}
strip -o "$WORK/so-stripped" "$so"

size() { stat -c %s "$1"; }
shared_prog=$(size "$WORK/bench-shared")
static_prog=$(size "$WORK/bench-static")
delta=$((static_prog - shared_prog))
dynamic_delta=$(($(size "$WORK/dynamic-static") - $(size "$WORK/dynamic-shared")))
capture_delta=$(($(size "$WORK/capture-static") - $(size "$WORK/capture-shared")))
activity_delta=$(($(size "$WORK/activity-static") - $(size "$WORK/activity-shared")))
so_installed=$(size "$so")
so_stripped=$(size "$WORK/so-stripped")
archive_size=$(size "$archive")
# Each member's code and data (size's "dec": text + data + bss).
member_sizes=$(command size "$archive" 2>/dev/null | awk 'NR > 1 { printf "%s%s %s", sep, $6, $4; sep = ", " }')
debug_size=$(size "$debug")

# The no-panic check. Each pattern is a symbol (demangled by nm -C) that
# exists only if some code can panic or unwind:
#   core::panicking::          every panic entry point: panic, panic_fmt,
#                              panic_bounds_check, panic_nounwind,
#                              panic_const_*, assert_failed
#   rust_begin_unwind          the panic handler (ours or std's), kept only if
#                              a panic can reach it
#   rust_panic, __rust_start_panic, __rust_panic_cleanup, rust_eh_personality,
#   __rust_foreign_exception   std's panic runtime and unwinding glue
#   _Unwind_                   the unwinder (_Unwind_Resume of landing pads,
#                              _Unwind_RaiseException)
#   unwrap_failed, expect_failed, _fail (slice_index_order_fail,
#   slice_end_index_len_fail, len_mismatch_fail, slice_error_fail, ...),
#   panic_already_borrowed     failure paths that live outside core::panicking
#   core::fmt::                formatting, reached only from panic messages or
#                              Debug/Display, neither of which the library uses
#   std::, alloc::, __rust_alloc, __rdl_, __rg_, __rust_no_alloc_shim
#                              the standard library and Rust's allocator
#                              (the library uses core and libc only)
panic_re='core::panicking::|rust_begin_unwind|rust_panic|__rust_start_panic|__rust_panic_cleanup|rust_eh_personality|__rust_foreign_exception|_Unwind_|unwrap_failed|expect_failed|_fail\b|panic_already_borrowed|core::fmt::|\bstd::|\balloc::|__rust_alloc|__rdl_|__rg_|__rust_no_alloc_shim'
panic_hits=$WORK/panic-symbols.txt
: >"$panic_hits"
check_symbols() { # label nm-args...
    local label=$1
    shift
    nm -C "$@" 2>/dev/null | grep -E "$panic_re" | sed "s|^|$label: |" >>"$panic_hits" || true
}
check_symbols "$(basename "$so") (dynamic symbols)" -D "$so"
check_symbols "$(basename "$debug") (symbol table)" "$debug"
check_symbols "$(basename "$archive") (all members)" "$archive"
# The checks above must see symbols at all (a stripped or empty file would pass).
[ "$(nm -D "$so" | grep -c ' T ')" -ge 12 ] && [ "$(nm "$debug" | wc -l)" -ge 12 ] &&
    [ "$(nm "$archive" 2>/dev/null | grep -c ' T tracepoint_write$')" = 1 ] ||
    { echo "footprint.sh: the installed files have fewer symbols than the library exports" >&2; exit 1; }

status=0
# Sets <name>_verdict to "ok" or "OVER" (and status to 1 when over); not a
# command substitution, whose subshell would lose the status.
verdict() { # name value limit
    if [ "$2" -le "$3" ]; then printf -v "$1_verdict" ok; else printf -v "$1_verdict" OVER; status=1; fi
}
verdict delta "$delta" "$STATIC_DELTA_MAX"
verdict so "$so_stripped" "$SO_STRIPPED_MAX"
# shellcheck source=benches/common.sh
. "$REPO/benches/common.sh"
capture_ir() { # layout: instructions per enabled5 event, rounded
    local n totals=()
    for n in 1000 2000; do
        TRACEPOINT_CAPTURE_FILE=$WORK/capture.$1 TRACEPOINT_CAPTURE_LAYOUT=$1 \
            quiet "bench-shared enabled5 $n under callgrind ($1 layout)" valgrind --tool=callgrind \
            --callgrind-out-file="$WORK/callgrind.$1.$n" "$WORK/bench-shared" enabled5 "$n"
        totals+=("$(callgrind_total "$WORK/callgrind.$1.$n")")
    done
    printf '%.0f' "$(callgrind_per_iteration "${totals[0]}" "${totals[1]}" 1000)"
}
capture_ref=$(capture_ir reference)
capture_timed=$(capture_ir timed)
# The timed run must have written timed records (the size field's top bit).
[ "$(od -An -tx1 -j3 -N1 "$WORK/capture.timed" | tr -d ' ')" = 80 ] ||
    { echo "footprint.sh: the timed capture run wrote no timed record" >&2; exit 1; }
verdict capture_ref "$capture_ref" "$CAPTURE_WRITE_MAX"
verdict capture_timed "$capture_timed" "$CAPTURE_TIMED_MAX"
debug_sections=$(readelf -S "$so" | grep -c '\.debug_' || true)
[ "$debug_sections" = 0 ] || status=1

echo "footprint: $("$CC" --version | head -n 1), -O2, release CMake install, commit $(git -C "$REPO" rev-parse --short HEAD 2>/dev/null || echo unknown)"
echo
printf '| %s | %s | %s |\n' what bytes goal
printf '|---|--:|--:|\n'
printf '| %s | %s | %s |\n' \
    "bench program, static against our .a, stripped" "$static_prog" "" \
    "bench program, shared against our .so, stripped" "$shared_prog" "" \
    "**bytes the library adds to the static program**" "**$delta**" "<= $STATIC_DELTA_MAX ($delta_verdict)" \
    "bytes it adds to a static program with runtime-defined events (benches/c/dynamic.cpp, g++)" "$dynamic_delta" "" \
    "bytes it adds to the static bench program with the capture backend (-Wl,-u,tracepoint_set_capture_file)" "$capture_delta" "" \
    "bytes it adds to the static bench program with the thread activity id of TraceLoggingActivity.h" "$activity_delta" "" \
    "shared library as installed (no debug info: $debug_sections .debug_* sections)" "$so_installed" "" \
    "shared library stripped (\`strip\`)" "$so_stripped" "<= $SO_STRIPPED_MAX ($so_verdict)" \
    "static archive as installed (members, each linked only when called; text + data + bss: $member_sizes)" "$archive_size" "" \
    "separate debug file (TRACEPOINT_INSTALL_DEBUG=ON)" "$debug_size" ""
echo
printf '| %s | %s | %s |\n' "capture write (callgrind, shared bench program)" "instructions per event" goal
printf '|---|--:|--:|\n'
printf '| %s | %s | %s |\n' \
    "enabled 5-field event, reference layout" "$capture_ref" "<= $CAPTURE_WRITE_MAX ($capture_ref_verdict)" \
    "enabled 5-field event, timed layout (TRACEPOINT_CAPTURE_LAYOUT=timed)" "$capture_timed" "<= $CAPTURE_TIMED_MAX ($capture_timed_verdict)"
echo
if [ -s "$panic_hits" ]; then
    echo "no-panic check: FAILED, Rust panic machinery in the installed library:"
    sed 's/^/  /' "$panic_hits"
    status=1
else
    echo "no-panic check: ok (no panic, unwinding, formatting, std or allocator symbol in the .so, its debug file or the .a)"
fi
[ "$debug_sections" = 0 ] || echo "debug info check: FAILED, the installed .so has $debug_sections .debug_* sections"
[ "$status" = 0 ] || echo "footprint.sh: FAILED (see above)"
exit $status
