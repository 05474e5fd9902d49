#!/usr/bin/env bash
# Sanitizer runs of the C/C++ tests (issue 7). Exits non-zero on any report.
#
#   bash tests/sanitizers.sh            # all three passes
#   SAN_PASSES="asan tsan" bash tests/sanitizers.sh
#
# Passes:
#   asan      c-tests/core, c-tests/tracelogging, c-tests/hardening built with
#             -fsanitize=address,undefined -fno-sanitize-recover=all (clang;
#             gcc, said so, if clang is missing and REQUIRE_CLANG is unset) and run in the modes the cargo
#             tests use. The Rust library is not instrumented (stable Rust has
#             no -Zsanitizer), but its allocations go through the
#             interposed malloc, so ASan still sees heap misuse across the
#             boundary, and LeakSanitizer sees leaks of the whole process.
#   tsan      the concurrency tests (core/threads.c, hardening/stress.c,
#             hardening/fork.c busy) built with -fsanitize=thread. Only the
#             C side is instrumented: the library's own synchronization
#             (a pthread mutex, Rust atomics) is invisible to TSan except for
#             the mutex, whose lock/unlock TSan intercepts; the C programs
#             only share state through atomics and pthread_join. One
#             suppression (tests/tsan.supp) covers the library's copy of a
#             name it publishes through a OnceLock, which TSan cannot see.
#   valgrind  the same C programs, plain builds, under valgrind memcheck
#             (--error-exitcode, definite leaks are errors).
#
# Uses the library of `cargo build --release` (target/release), built here
# if missing or stale. Work files go to $SAN_OUT (default target/sanitizers).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
out=${SAN_OUT:-$root/target/sanitizers}
passes=${SAN_PASSES:-asan tsan valgrind}
stress_seconds=${SAN_STRESS_SECONDS:-3}
mkdir -p "$out"

cargo build --release --quiet --lib
lib=$root/target/release
test -f "$lib/libeventheader_tracepoint.so"

if command -v clang >/dev/null && command -v clang++ >/dev/null; then
    cc=clang cxx=clang++
elif [ -n "${REQUIRE_CLANG:-}" ]; then
    echo "sanitizers: REQUIRE_CLANG is set but clang/clang++ are not installed" >&2
    exit 1
else
    echo "sanitizers: clang not installed: building with gcc (set REQUIRE_CLANG=1 to fail instead)"
    cc=gcc cxx=g++
fi
strict=(-Wall -Wextra -Werror -g -O1 -fno-omit-frame-pointer -I "$root/include")
link=(-L "$lib" "-Wl,-rpath,$lib" -leventheader_tracepoint -lpthread -ldl)

failures=0
reports=0
runs=0

note() { printf '%s\n' "$*"; }

# build NAME FLAGS... -- SOURCES...: builds $out/NAME (C or C++ by extension).
build() {
    local name=$1; shift
    local flags=()
    while [ "$1" != -- ]; do flags+=("$1"); shift; done
    shift
    local objs=()
    for src in "$@"; do
        local obj="$out/$name.$(basename "$src").o"
        case $src in
            *.cpp) $cxx -std=c++17 "${strict[@]}" "${flags[@]}" -c "$src" -o "$obj" ;;
            *) $cc -std=c11 "${strict[@]}" "${flags[@]}" -c "$src" -o "$obj" ;;
        esac
        objs+=("$obj")
    done
    $cxx "${flags[@]}" "${objs[@]}" -o "$out/$name" "${link[@]}"
}

# run LABEL LOG CAPTURE? CMD...: runs CMD (TRACEPOINT_CAPTURE_FILE=CAPTURE
# unless CAPTURE is "-"), counts it as a failure if it exits non-zero or its
# log has a sanitizer/valgrind report.
run() {
    local label=$1 log=$2 capture=$3; shift 3
    runs=$((runs + 1))
    local status=0
    # A hung run fails (exit 124) instead of stalling the whole job.
    local limit=(timeout --kill-after=10 "${SAN_RUN_TIMEOUT:-300}")
    if [ "$capture" = - ]; then
        "${limit[@]}" env -u TRACEPOINT_CAPTURE_FILE "$@" >"$log" 2>&1 || status=$?
    else
        rm -f "$capture"
        "${limit[@]}" env TRACEPOINT_CAPTURE_FILE="$capture" "$@" >"$log" 2>&1 || status=$?
    fi
    local n
    n=$(grep -cE 'ERROR: (Address|Leak|Thread|UndefinedBehavior)Sanitizer|WARNING: ThreadSanitizer|runtime error:|ERROR SUMMARY: [1-9]|definitely lost: [1-9]' "$log" || true)
    reports=$((reports + n))
    if [ "$status" -ne 0 ] || [ "$n" -ne 0 ]; then
        failures=$((failures + 1))
        note "FAIL $label (exit $status, $n report lines): $log"
        sed -n 1,60p "$log"
    else
        note "ok   $label"
    fi
}

core_tests=(abi_layout activity dedup encodings errors oracle threads)

# The programs in the modes the cargo tests run them. $1 = pass, $2 = prefix
# command (e.g. valgrind ...), builds come from $out/$1-*.
run_all() {
    local pass=$1; shift
    local pre=("$@")
    local d="$out/$pass"
    for t in abi_layout activity dedup encodings oracle threads; do
        run "$pass core/$t" "$d-$t.log" "$d-$t.dat" "${pre[@]}" "$out/$pass-$t"
    done
    run "$pass core/errors capture" "$d-errors-c.log" "$d-errors-c.dat" "${pre[@]}" "$out/$pass-errors" capture
    rm -f "$d-set1.dat" "$d-set2.dat"
    run "$pass core/errors nokernel" "$d-errors-n.log" - "${pre[@]}" "$out/$pass-errors" nokernel "$d-set1.dat" "$d-set2.dat"
    for m in reference lifecycle cvalues; do
        run "$pass tracelogging $m" "$d-tl-$m.log" "$d-tl-$m.dat" "${pre[@]}" "$out/$pass-tl" "$m"
    done
    run "$pass hardening/stress" "$d-stress.log" "$d-stress.dat" "${pre[@]}" "$out/$pass-stress" "$stress_seconds" capture 500
    run "$pass hardening/stress nokernel" "$d-stress-n.log" - "${pre[@]}" "$out/$pass-stress" 0.5 any
    run "$pass hardening/fork" "$d-fork.log" "$d-fork.dat" "${pre[@]}" "$out/$pass-fork" capture
    # fork "busy" forks while another thread takes the library lock in a
    # tight loop. valgrind runs one thread at a time and lets the looping
    # thread re-take the lock slice after slice, so the forking thread can
    # wait for minutes: the mode is covered by the ASan, TSan, cargo test and
    # real-kernel runs instead.
    if [ "$pass" != vg ]; then
        run "$pass hardening/fork busy" "$d-forkb.log" "$d-forkb.dat" "${pre[@]}" "$out/$pass-fork" capture busy
    fi
    run "$pass hardening/dlclose" "$d-dl.log" "$d-dl.dat" "${pre[@]}" "$out/$pass-dlclose_loop" "$out/$pass-libdlprov.so" "${DL_LOOPS:-1000}" capture
    run "$pass hardening/dlclose forget" "$d-dlf.log" "$d-dlf.dat" "${pre[@]}" "$out/$pass-dlclose_loop" "$out/$pass-libdlforget.so" "${DL_LOOPS:-1000}" capture forget
    run "$pass hardening/badinput capture" "$d-bad.log" "$d-bad.dat" "${pre[@]}" "$out/$pass-badinput" capture
    run "$pass hardening/badinput nokernel" "$d-badn.log" - "${pre[@]}" "$out/$pass-badinput" nokernel
    run "$pass hardening/badinput full" "$d-badf.log" - "${pre[@]}" "$out/$pass-badinput" writefail /dev/full
    rm -f "$d-fe.dat"
    run "$pass hardening/badinput fdexhaust" "$d-badx.log" - "${pre[@]}" "$out/$pass-badinput" fdexhaust "$d-fe.dat"
}

build_all() {
    local pass=$1; shift
    for t in "${core_tests[@]}"; do
        build "$pass-$t" "$@" -- "$root/c-tests/core/$t.c"
    done
    build "$pass-tl" "$@" -- "$root/c-tests/tracelogging/tl_c.c" "$root/c-tests/tracelogging/tl_main.c" "$root/c-tests/tracelogging/tl_cpp.cpp"
    for t in stress fork dlclose_loop badinput; do
        build "$pass-$t" "$@" -- "$root/c-tests/hardening/$t.c"
    done
    $cc -std=c11 "${strict[@]}" "$@" -fPIC -shared "$root/c-tests/hardening/dlprov.c" -o "$out/$pass-libdlprov.so" "${link[@]}"
    $cc -std=c11 "${strict[@]}" "$@" -fPIC -shared -DHARDENING_FORGET "$root/c-tests/hardening/dlprov.c" -o "$out/$pass-libdlforget.so" "${link[@]}"
}

start=$(date +%s)
for pass in $passes; do
    case $pass in
        asan)
            note "=== asan+ubsan ($cc)"
            build_all asan -fsanitize=address,undefined -fno-sanitize-recover=all
            # Leak checking covers the whole process (the Rust library too).
            # dlclose: keep the library mapped for symbolization of leaks.
            ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:detect_stack_use_after_return=1 \
            UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
                run_all asan
            ;;
        tsan)
            note "=== tsan ($cc, C side only)"
            for t in threads; do build "tsan-$t" -fsanitize=thread -- "$root/c-tests/core/$t.c"; done
            build tsan-stress -fsanitize=thread -- "$root/c-tests/hardening/stress.c"
            build tsan-fork -fsanitize=thread -- "$root/c-tests/hardening/fork.c"
            export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:suppressions=$root/tests/tsan.supp"
            run "tsan core/threads" "$out/tsan-threads.log" "$out/tsan-threads.dat" "$out/tsan-threads"
            run "tsan hardening/stress" "$out/tsan-stress.log" "$out/tsan-stress.dat" "$out/tsan-stress" "$stress_seconds" capture 500
            run "tsan hardening/fork busy" "$out/tsan-fork.log" "$out/tsan-fork.dat" "$out/tsan-fork" capture busy
            unset TSAN_OPTIONS
            ;;
        valgrind)
            note "=== valgrind memcheck"
            # valgrind 3.19 cannot read clang's DWARF 5.
            build_all vg -gdwarf-4
            DL_LOOPS=${VG_DL_LOOPS:-200} stress_seconds=${VG_STRESS_SECONDS:-2} \
                run_all vg valgrind -q --error-exitcode=99 --leak-check=full \
                --errors-for-leak-kinds=definite --trace-children=no
            ;;
        *) echo "unknown pass $pass" >&2; exit 2 ;;
    esac
done
note "sanitizers: $runs runs, $reports reports, $failures failed, $(( $(date +%s) - start )) s"
note "sanitizers: $((runs - failures)) passed, $failures failed"
[ "$failures" -eq 0 ]
