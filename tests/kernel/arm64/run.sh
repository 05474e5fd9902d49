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
# SHARE (the guest's read-only 9p share): bin/ with the library, t_enable,
# t_replay (gcc, linked to the library found beside them) and the CLI, all
# built for aarch64; the reference capture and its tracepoint names.
SHARE=$OUT/share
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
    local p src
    for p in t_enable:tests/kernel/arm64/t_enable.c t_replay:tests/kernel/src/t_replay.c \
        t_basic:tests/kernel/src/t_basic.c t_coexist:tests/kernel/src/t_coexist.c; do
        src=$REPO/${p#*:}
        quiet "build ${p%%:*}" aarch64-linux-gnu-gcc -std=gnu11 -O2 -Wall -Wextra -Werror \
            -I"$REPO/include" -I"$REPO/tests/kernel/src" "$src" -o "$SHARE/bin/${p%%:*}" \
            -L"$SHARE/bin" -leventheader_tracepoint -Wl,-rpath,'$ORIGIN'
    done
    quiet "build uev_raw" aarch64-linux-gnu-gcc -std=gnu11 -O2 -Wall -Wextra -Werror \
        -I"$REPO/tests/kernel/src" "$REPO/tests/kernel/src/uev_raw.c" -o "$SHARE/bin/uev_raw"
    # The 32-bit program: static, so the guest needs no 32-bit C runtime.
    quiet "build t_compat32" arm-linux-gnueabihf-gcc -std=gnu11 -O2 -Wall -Wextra -Werror -static \
        -I"$REPO/tests/kernel/src" "$HERE/t_compat32.c" -o "$SHARE/bin/t_compat32"
    cp "$HERE/guest.sh" "$SHARE/guest.sh"
    cp "$REF_DAT" "$SHARE/reference.dat"
    "$TESTKIT" names "$REF_DAT" >"$SHARE/replay.names" 2>>"$LOG" || die "testkit names $REF_DAT"
    BUILD_SECONDS=$(elapsed "$t0")
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
    for l in ld-linux-aarch64.so.1 libc.so.6 libm.so.6 libgcc_s.so.1; do
        cp -L "/usr/aarch64-linux-gnu/lib/$l" "$root/lib/" || die "no /usr/aarch64-linux-gnu/lib/$l"
    done
    (cd "$root" && find . | cpio -o -H newc --quiet) >"$OUT/initramfs.cpio" || die "cpio"
}

# Debian's perf for arm64 with the shared libraries it loads (the library
# packages of its dependency closure, as apt resolves it; not perl's or
# python's programs), unpacked into PERF_ROOT, the guest's /perf. Kept in the
# cache; the guest runs it through the root's own loader.
PERF_PKG=linux-perf:arm64
perf_root() {
    PERF_ROOT=$CACHE_ROOT/arm64/perf-root
    [ -x "$PERF_ROOT/usr/bin/perf" ] && [ -e "$PERF_ROOT/.complete" ] && return
    local debs=$CACHE_ROOT/arm64/perf-debs pkgs
    pkgs=$(apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks \
        --no-replaces --no-enhances --no-pre-depends "$PERF_PKG" 2>>"$LOG" | grep -v '^ ' | grep ':arm64$' |
        grep -vE '^(dpkg|install-info|tar|perl|perl-base|python3(\.[0-9]+)?(-minimal)?|libpython3(\.[0-9]+)?-(stdlib|minimal)):' |
        sort -u)
    grep -qx "$PERF_PKG" <<<"$pkgs" || die "apt-cache depends $PERF_PKG: no such package (see $LOG)"
    rm -rf "$debs" "$PERF_ROOT"
    mkdir -p "$debs"
    # shellcheck disable=SC2086 # one package per word
    (cd "$debs" && apt-get download $pkgs) >>"$LOG" 2>&1 || die "apt-get download $PERF_PKG and its libraries"
    local d
    for d in "$debs"/*.deb; do
        dpkg -x "$d" "$PERF_ROOT" || die "dpkg -x $d"
    done
    [ -x "$PERF_ROOT/usr/bin/perf" ] || die "no usr/bin/perf in $PERF_PKG"
    dpkg-deb -f "$(ls "$debs"/linux-perf_*.deb)" Version >"$PERF_ROOT/.complete" || die "no linux-perf .deb"
    rm -rf "$debs"
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
        -virtfs "local,path=$PERF_ROOT,mount_tag=perf,security_model=none,readonly=on")
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

judge() {
    local r=$OUT/results n
    [ "$(cat "$r/machine")" = aarch64 ] || fail "the guest is $(cat "$r/machine"), not aarch64"
    expect_ok env
    # The x86_64 suite's registration tests, and basic's recording.
    local t
    for t in basic coexist; do
        expect_ok "$t"
        grep -q "^$t: [1-9][0-9]* checks, 0 failed\$" "$r/$t.log" || fail "$t: $(tail -n 20 "$r/$t.log")"
    done
    if "$TESTKIT" summary "$r/basic.perf.data" >"$r/basic.summary" 2>&1; then
        sort "$r/basic.summary" | cmp -s - <(sort "$r/basic.expect") ||
            fail "basic: perf recorded $(cat "$r/basic.summary"), want $(cat "$r/basic.expect")"
    else
        fail "basic: testkit summary: $(cat "$r/basic.summary")"
    fi
    # Registration and the enable bit under collect.
    expect_ok enable
    expect_ok enable.collect
    grep -q '^enable: [1-9][0-9]* checks, 0 failed$' "$r/enable.log" || fail "enable: $(cat "$r/enable.log")"
    if "$HOST_EH" decode --jsonl "$r/enable.data" >"$r/enable.jsonl" 2>>"$LOG"; then
        n=$(grep -c '"n": "EhkArmEnable:ArmEvent"' "$r/enable.jsonl")
        [ "$n" = 3 ] || fail "enable: decode of the aarch64 collect's enable.data has $n ArmEvent events, want 3"
        for n in 0 1 2; do
            grep -q "\"seq\": $n," "$r/enable.jsonl" || fail "enable: no event with seq $n in enable.jsonl"
        done
    else
        fail "enable: eventheader decode $r/enable.data"
    fi
    # The same recorded by perf: its samples equal to the capture.
    expect_ok replay.perf
    expect_ok replay.register
    if "$TESTKIT" compare "$r/replay.perf.data" "$r/replay.cap" "$REF_DAT" >"$r/replay.perf.compare" 2>&1; then
        REPLAY_PERF=$(head -n 1 "$r/replay.perf.compare")
    else
        fail "replay.perf: testkit compare: $(head -n 20 "$r/replay.perf.compare")"
    fi
    # A 32-bit process: the kernel refuses its registration (t_compat32.c).
    expect_ok compat32
    COMPAT32=$(grep '^compat32: DIAG_IOCSREG' "$r/compat32.log")
    # The reference replay: capture equal to the reference, collect's samples to the capture.
    expect_ok replay.capture
    expect_ok replay
    if "$TESTKIT" compare "$r/replay.data" "$r/replay.cap" "$REF_DAT" >"$r/replay.compare" 2>&1; then
        REPLAY=$(head -n 1 "$r/replay.compare")
    else
        fail "replay: testkit compare: $(head -n 20 "$r/replay.compare")"
    fi
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
    say "$(grep -h '^basic: \|^coexist: ' "$OUT/results/basic.log" "$OUT/results/coexist.log" | paste -sd' ')," \
        "$(grep -h '^enable: ' "$OUT/results/enable.log")"
    say "replay under collect: ${REPLAY:-}"
    say "replay under perf $(cat "$PERF_ROOT/.complete"): ${REPLAY_PERF:-}"
    say "${COMPAT32#compat32: }"
    say "passed"
}

main "$@"
