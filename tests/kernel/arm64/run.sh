#!/usr/bin/env bash
# The arm64 real-kernel suite: boots an arm64 Linux 6.12 kernel with
# user_events under qemu-system-aarch64 (TCG) with a busybox initramfs, runs
# aarch64 builds of the library, its test programs and the `eventheader` CLI
# inside it (guest.sh), and judges the results on the host. Exits non-zero on
# any failure; quiet on success (a few summary lines), the log on failure.
# Never skipped: a missing tool or package is a failure.
#
#   bash tests/kernel/arm64/run.sh
#
# Environment (all optional; the kernel lookup is tests/kernel/kernel.sh's):
#   EHK_KERNEL_IMAGE   use this arm64 Image as is
#   EHK_SHARED_KERNEL  directory of prebuilt kernels (default: <repo>/../shared/kernel); its
#                      Image-6.12-arm64-user-events is used when its config-fragment-arm64
#                      equals ours and its SHA256SUMS verify
#   EHK_KERNEL_CACHE   where built kernels are kept (default: ~/.cache/eventheader-tracepoint/kernel)
#   EHK_OUT            build and result directory (default: tests/kernel/target/arm64)
#   EHK_VM_TIMEOUT     seconds the VM may take (default 600)
#   EHK_VERBOSE=1      print the full log
#   REFERENCE_PREFIX   install prefix(es) of an aarch64 build of another implementation,
#                      separated by ':' (as for benches/side-by-side.sh): its bench programs are
#                      measured beside ours (not judged). Without it, ours alone (one line says so).
set -uo pipefail
export LC_ALL=C

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../../.." && pwd)
OUT=${EHK_OUT:-$REPO/tests/kernel/target/arm64}
CACHE_ROOT=${XDG_CACHE_HOME:-$HOME/.cache}/eventheader-tracepoint
KCACHE=${EHK_KERNEL_CACHE:-$CACHE_ROOT/kernel}
SHARED_KERNEL=${EHK_SHARED_KERNEL:-$REPO/../shared/kernel}
KERNEL_SOURCE_PKG=linux-source-6.12
REF_DAT=$REPO/tests/data/reference/EventHeaderInterceptorLE64.dat
CROSS_TARGET_DIR=$REPO/target/cross
LOG=$OUT/run.log
T0=$(date +%s.%N)

mkdir -p "$OUT"
: >"$LOG"

SUITE="arm64 kernel suite"
. "$REPO/tests/kernel/log.sh"

# --- 1. tools ---------------------------------------------------------------
# scripts/install-deps.sh installs qemu-system-arm (bookworm-backports), cpio
# and the arm64 cross toolchain (scripts/cross/install.sh); this only checks.
install_tools() {
    quiet "scripts/install-deps.sh" bash "$REPO/scripts/install-deps.sh"
    local t
    for t in qemu-system-aarch64 cpio dpkg apt-get cargo aarch64-linux-gnu-strip arm-linux-gnueabihf-gcc; do
        command -v "$t" >/dev/null || die "$t not found after scripts/install-deps.sh"
    done
    # shellcheck source=../../../scripts/cross/env.sh
    . "$REPO/scripts/cross/env.sh"
    (cross_env arm64) || die "arm64 cross toolchain: $(cross_env arm64; echo "$CROSS_WHY")"
}

# --- 2. kernel --------------------------------------------------------------
. "$REPO/tests/kernel/kernel.sh"
kernel_arch arm64

# --- 3. what runs inside ----------------------------------------------------
# SHARE (the guest's read-only 9p share): bin/ with the library, the test
# programs (the manifest's, built by testkit with gcc, linked to the library
# found beside them) and the CLI, all built for aarch64; guest.sh with
# guest-lib.sh; the reference capture and its tracepoint names.
SHARE=$OUT/share
# The test programs guest.sh runs (with uev_raw, which t_basic's run names).
ARM64_PROGRAMS="t_basic t_coexist t_replay t_enable t_compat32"
build() {
    local t0
    t0=$(date +%s.%N)
    # The host's testkit and eventheader judge and decode (as in run.sh).
    quiet "build testkit and eventheader" cargo build --locked --manifest-path "$REPO/Cargo.toml" \
        -p testkit -p eventheader-cli
    TESTKIT=$REPO/target/debug/testkit
    HOST_EH=$REPO/target/debug/eventheader
    (
        cross_env arm64 || exit 1
        echo "+ cargo build --release --target $CROSS_RUST_TARGET (library, eventheader)" >>"$LOG"
        CARGO_TARGET_DIR=$CROSS_TARGET_DIR "$CROSS_CARGO" build --locked --release \
            --manifest-path "$REPO/Cargo.toml" --target "$CROSS_RUST_TARGET" \
            -p eventheader_tracepoint -p eventheader-cli >>"$LOG" 2>&1
    ) || die "cargo build for aarch64"
    local rel=$CROSS_TARGET_DIR/aarch64-unknown-linux-gnu/release
    rm -rf "$SHARE"
    mkdir -p "$SHARE/bin"
    cp "$rel/libeventheader_tracepoint.so" "$SHARE/bin/" || die "no aarch64 libeventheader_tracepoint.so"
    quiet "strip eventheader" aarch64-linux-gnu-strip -o "$SHARE/bin/eventheader" "$rel/eventheader"
    # The manifest's programs (tests/kernel/programs.toml), built by testkit
    # for aarch64 beside the library they find through $ORIGIN; t_compat32
    # with the 32-bit triple its entry names.
    (
        cross_env arm64 || exit 1
        export TESTKIT_TARGET=aarch64-linux-gnu TESTKIT_RUN="$CROSS_RUN" TESTKIT_LIB_DIR=$SHARE/bin
        # shellcheck disable=SC2086 # one program per word
        "$TESTKIT" build --flavour optimized --toolchain gcc --lib "$SHARE/bin" --out "$SHARE/bin" \
            $ARM64_PROGRAMS
    ) >>"$LOG" 2>&1 || die "testkit build of the test programs for aarch64"
    build_bench
    cp "$HERE/guest.sh" "$SHARE/guest.sh"
    cp "$REPO/tests/kernel/guest-lib.sh" "$SHARE/guest-lib.sh"
    cp "$REF_DAT" "$SHARE/reference.dat"
    "$TESTKIT" names "$REF_DAT" >"$SHARE/replay.names" 2>>"$LOG" || die "testkit names $REF_DAT"
    BUILD_SECONDS=$(elapsed "$t0")
}

# The bench check's programs (benches/c, the manifest's bench, floor, dynamic
# and exporter, built by testkit in cross mode as benches/c/build.sh builds
# them for the x86_64 VM) in SHARE/bench, the builds of REFERENCE_PREFIX's
# implementations beside them (PROGRAM.ref[N]-static / -shared, their shared
# libraries in SHARE/bench/lib), and the plan: one "PROGRAM MODE" per line.
BENCH_N=2000
build_bench() {
    local b=$SHARE/bench
    mkdir -p "$b/lib"
    (
        cross_env arm64 || exit 1
        export TESTKIT_TARGET=aarch64-linux-gnu TESTKIT_RUN="$CROSS_RUN" TESTKIT_LIB_DIR=$SHARE/bin
        "$TESTKIT" build --flavour optimized --toolchain gcc --lib "$SHARE/bin" --out "$b" \
            bench floor dynamic exporter
    ) >>"$LOG" 2>&1 || die "testkit build of the bench programs for aarch64"
    echo "$BENCH_N" >"$b/n"
    local m
    BENCH_BUILDS=ours
    {
        for m in $BENCH_C_MODES; do echo "bench $m"; done
        for m in $BENCH_DYNAMIC_MODES; do echo "dynamic $m"; done
        for m in $BENCH_EXPORTER_MODES; do echo "exporter $m"; done
        for m in $BENCH_C_MODES; do echo "floor $m"; done
    } >"$b/plan"
    [ -n "${REFERENCE_PREFIX:-}" ] || return 0
    local refs ref i=0 tag c=(aarch64-linux-gnu-gcc -std=gnu11 -O2) cxx=(aarch64-linux-gnu-g++ -std=c++17 -O2)
    IFS=: read -r -a refs <<<"$REFERENCE_PREFIX"
    for ref in "${refs[@]}"; do
        [ -d "$ref/include" ] && [ -d "$ref/lib" ] || die "REFERENCE_PREFIX $ref has no include/ and lib/"
        tag=ref
        [ "${#refs[@]}" = 1 ] || tag=ref$((i += 1))
        local kinds=() k link
        [ -e "$ref/lib/libeventheader-tracepoint.a" ] && kinds+=(static)
        [ -e "$ref/lib/libeventheader-tracepoint.so" ] && kinds+=(shared)
        [ "${#kinds[@]}" != 0 ] || die "no libeventheader-tracepoint.a or .so in $ref/lib"
        for k in "${kinds[@]}"; do
            if [ "$k" = static ]; then
                link=(-L"$ref/lib" -Wl,-Bstatic -leventheader-tracepoint -ltracepoint -Wl,-Bdynamic -lpthread)
            else
                link=(-L"$ref/lib" -leventheader-tracepoint -ltracepoint)
                # Every shared library of the prefix, under each of its names
                # (the programs ask for the sonames).
                cp -L "$ref"/lib/*.so* "$b/lib/" ||
                    die "copy the shared libraries of $ref"
            fi
            quiet "build bench against $ref ($k)" "${c[@]}" -I"$ref/include" "$REPO/benches/c/bench.c" \
                -o "$b/bench.$tag-$k" "${link[@]}"
            quiet "build dynamic against $ref ($k)" "${cxx[@]}" -I"$ref/include" "$REPO/benches/c/dynamic.cpp" \
                -o "$b/dynamic.$tag-$k" "${link[@]}"
            quiet "build exporter against $ref ($k)" "${cxx[@]}" -O3 -I"$ref/include" \
                "$REPO/benches/c/exporter.cpp" -o "$b/exporter.$tag-$k" "${link[@]}"
            BENCH_BUILDS+=" $tag-$k"
            {
                for m in $BENCH_C_MODES; do echo "bench.$tag-$k $m"; done
                for m in $BENCH_DYNAMIC_MODES; do echo "dynamic.$tag-$k $m"; done
                for m in $BENCH_EXPORTER_MODES; do echo "exporter.$tag-$k $m"; done
            } >>"$b/plan"
        done
    done
}

# The initramfs: Debian's static busybox for arm64 (the .deb kept in the
# cache), init, and the C runtime the dynamically linked programs load.
initramfs() {
    local debs=$CACHE_ROOT/arm64 root=$OUT/initramfs deb
    mkdir -p "$debs"
    deb=$(ls "$debs"/busybox-static_*_arm64.deb 2>/dev/null | tail -n 1)
    if [ -z "$deb" ]; then
        # apt-get download needs the arm64 index: update once if it fails.
        (cd "$debs" && apt-get download busybox-static:arm64) >>"$LOG" 2>&1 ||
            { quiet "apt-get update" apt-get update -qq &&
                (cd "$debs" && apt-get download busybox-static:arm64) >>"$LOG" 2>&1; } ||
            die "apt-get download busybox-static:arm64"
        deb=$(ls "$debs"/busybox-static_*_arm64.deb | tail -n 1)
    fi
    rm -rf "$root" "$OUT/busybox"
    quiet "unpack busybox-static" dpkg -x "$deb" "$OUT/busybox"
    mkdir -p "$root/bin" "$root/lib"
    cp "$OUT/busybox/bin/busybox" "$root/bin/" || die "no busybox in $deb"
    ln -s busybox "$root/bin/sh"
    cp "$HERE/init" "$root/init"
    local l
    for l in ld-linux-aarch64.so.1 libc.so.6 libm.so.6 libgcc_s.so.1 libstdc++.so.6; do
        cp -L "/usr/aarch64-linux-gnu/lib/$l" "$root/lib/" || die "no /usr/aarch64-linux-gnu/lib/$l"
    done
    (cd "$root" && find . | cpio -o -H newc --quiet) >"$OUT/initramfs.cpio" || die "cpio"
}

# Debian's perf for arm64 with the shared libraries it loads (the library
# packages of its dependency closure, as apt resolves it; not perl's or
# python's programs), unpacked into PERF_ROOT, the guest's /perf; Debian's
# valgrind for arm64 likewise into VALGRIND_ROOT, the guest's /valgrind
# (without libc6-dbg, debug symbols callgrind's counts do not need). Kept in
# the cache; the guest runs perf through the root's own loader, and valgrind's
# launcher through its own C runtime (the tool itself is static).
PERF_PKG=linux-perf:arm64
VALGRIND_PKG=valgrind:arm64
# deb_root PKG NAME PROGRAM: PKG's closure unpacked into $CACHE_ROOT/arm64/NAME-root,
# which must then have PROGRAM; its .complete holds PKG's version.
deb_root() {
    local pkg=$1 root=$CACHE_ROOT/arm64/$2-root debs=$CACHE_ROOT/arm64/$2-debs pkgs
    [ -x "$root/$3" ] && [ -e "$root/.complete" ] && return
    pkgs=$(apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks \
        --no-replaces --no-enhances --no-pre-depends "$pkg" 2>>"$LOG" | grep -v '^ ' | grep ':arm64$' |
        grep -vE '^(dpkg|install-info|tar|perl|perl-base|python3(\.[0-9]+)?(-minimal)?|libpython3(\.[0-9]+)?-(stdlib|minimal)|libc6-dbg):' |
        sort -u)
    grep -qx "$pkg" <<<"$pkgs" || die "apt-cache depends $pkg: no such package (see $LOG)"
    rm -rf "$debs" "$root"
    mkdir -p "$debs"
    # shellcheck disable=SC2086 # one package per word
    (cd "$debs" && apt-get download $pkgs) >>"$LOG" 2>&1 || die "apt-get download $pkg and its libraries"
    local d
    for d in "$debs"/*.deb; do
        dpkg -x "$d" "$root" || die "dpkg -x $d"
    done
    [ -x "$root/$3" ] || die "no $3 in $pkg"
    dpkg-deb -f "$(ls "$debs/${pkg%%:*}"_*.deb)" Version >"$root/.complete" || die "no ${pkg%%:*} .deb"
    rm -rf "$debs"
}
perf_root() {
    deb_root "$PERF_PKG" perf usr/bin/perf
    PERF_ROOT=$CACHE_ROOT/arm64/perf-root
    deb_root "$VALGRIND_PKG" valgrind usr/bin/valgrind.bin
    VALGRIND_ROOT=$CACHE_ROOT/arm64/valgrind-root
}

# --- 4. boot ----------------------------------------------------------------
run_vm() {
    rm -rf "$OUT/results"
    mkdir -p "$OUT/results"
    local t0 cmd
    t0=$(date +%s.%N)
    cmd=(qemu-system-aarch64 -M virt -cpu max -smp 2 -m 1G -nographic -no-reboot
        -kernel "$KERNEL" -initrd "$OUT/initramfs.cpio"
        -append "console=ttyAMA0 rdinit=/init panic=-1 quiet"
        -virtfs "local,path=$SHARE,mount_tag=share,security_model=none,readonly=on"
        -virtfs "local,path=$OUT/results,mount_tag=results,security_model=none"
        -virtfs "local,path=$PERF_ROOT,mount_tag=perf,security_model=none,readonly=on"
        -virtfs "local,path=$VALGRIND_ROOT,mount_tag=valgrind,security_model=none,readonly=on")
    echo "+ ${cmd[*]}" >>"$LOG"
    timeout --kill-after=10 "${EHK_VM_TIMEOUT:-600}" "${cmd[@]}" </dev/null >"$OUT/vm.log" 2>&1
    echo "qemu exit status $?" >>"$OUT/vm.log"
    VM_SECONDS=$(elapsed "$t0")
    cat "$OUT/vm.log" "$OUT/results/guest.log" >>"$LOG" 2>/dev/null
    sed 's/^/guest seconds: /' "$OUT/results/times" >>"$LOG" 2>/dev/null
    [ -s "$OUT/results/done" ] || die "the VM did not finish (see $OUT/vm.log, $OUT/results/guest.log)"
}

# --- 5. verdicts ------------------------------------------------------------
FAILED=0
fail() {
    printf 'arm64 kernel suite: FAIL %s\n' "$*" | tee -a "$LOG" >&2
    FAILED=$((FAILED + 1))
}
# status NAME: the guest's exit status of step NAME (empty if it did not run).
status() { awk -v n="$1" '$1 == n { print $2 }' "$OUT/results/status"; }
expect_ok() {
    local s
    s=$(status "$1")
    [ "$s" = 0 ] || fail "$1: guest exit status '${s:-none}' (see $OUT/results/$1*.log)"
}

# The checks of the guest's results but the bench check's: testkit's
# arm64-judge (tests/testkit/src/kernel/arm64.rs, the x86_64 suite's judges
# where the check is the same). Its passed checks go to results/verdicts, its
# failures to standard error and the log.
judge() {
    local r=$OUT/results n
    if ! "$TESTKIT" arm64-judge --reference "$REF_DAT" --eventheader "$HOST_EH" "$r" \
        >"$r/verdicts" 2>"$r/verdicts.err"; then
        tee -a "$LOG" <"$r/verdicts.err" >&2
        n=$(sed -n 's/^arm64: [0-9]* passed, \([0-9]*\) failed$/\1/p' "$r/verdicts")
        [ "${n:-0}" != 0 ] || n=1
        FAILED=$((FAILED + n))
    fi
    judge_bench
}

# --- 6. the bench check on aarch64 -------------------------------------------
# The x86_64 VM's bench check (tests/testkit/src/checks/bench.rs) with
# aarch64's own bounds (the aarch64 column of benches/bounds.txt): callgrind Ir
# per iteration with user_events, N vs 2N (benches/run-callgrind.sh's
# iteration-difference method). The modes: the list "arm64" of
# benches/modes.txt, per program.
# shellcheck source=benches/common.sh
. "$REPO/benches/common.sh"
BENCH_C_MODES=$(bench_modes arm64 bench)
BENCH_DYNAMIC_MODES=$(bench_modes arm64 dynamic)
BENCH_EXPORTER_MODES=$(bench_modes arm64 exporter)

# The guest's bench.totals judged by testkit (checks/bench_totals.rs): the
# table (with a column per build of REFERENCE_PREFIX, whose runs that exit 3,
# no API for the mode, are "-"), bench.tsv, and the bounds' verdict.
judge_bench() {
    local r=$OUT/results out line
    expect_ok bench
    # shellcheck disable=SC2086 # one build per word
    out=$("$TESTKIT" bench-totals aarch64 "$r" "$BENCH_N" ${BENCH_BUILDS#ours} 2>"$r/bench.verdict") ||
        while read -r line; do
            [ "$line" = "testkit: FAIL" ] || fail "bench: $line"
        done <"$r/bench.verdict"
    BENCH_SUMMARY=$(head -n 1 <<<"$out")
    BENCH_TABLE=$(tail -n +2 <<<"$out")
}

main() {
    install_tools
    find_kernel
    build
    initramfs
    perf_root
    run_vm
    judge
    say "$(cat "$OUT/results/kernel") aarch64 ($KERNEL_ORIGIN, TCG), boot $(cat "$OUT/results/boot-seconds") s," \
        "build $BUILD_SECONDS s, VM run $VM_SECONDS s, total $(elapsed "$T0") s"
    [ "${EHK_VERBOSE:-0}" != 1 ] || cat "$LOG"
    if [ "$FAILED" != 0 ]; then
        printf -- '--- last 60 lines of %s ---\n' "$LOG" >&2
        tail -n 60 "$LOG" >&2
        say "$FAILED failed"
        return 1
    fi
    local line
    while read -r line; do say "$line"; done < <(sed -n 's/^  //p' "$OUT/results/verdicts")
    say "perf: $(cat "$PERF_ROOT/.complete") (replay.perf)"
    say "$BENCH_SUMMARY"
    [ -n "${REFERENCE_PREFIX:-}" ] ||
        say "REFERENCE_PREFIX is not set: the bench programs measured ours alone (set it to an aarch64 install of another implementation to compare)"
    printf '%s\n' "$BENCH_TABLE"
    say "passed"
}

main "$@"
