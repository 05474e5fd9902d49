#!/usr/bin/env bash
# Real-kernel suite: boots a Linux kernel with CONFIG_USER_EVENTS under QEMU
# (virtme-ng), runs the VM runs of the test-program manifest inside it against
# the library's user_events backend, verifies what perf recorded, and exits
# non-zero on any failure. Quiet on success (a few summary lines), loud on failure.
#
# Environment (all optional):
#   EHK_KERNEL_IMAGE   use this bzImage as is (skips lookup and build)
#   EHK_SHARED_KERNEL  directory of a prebuilt kernel (default: <repo>/../shared/kernel); used when
#                      its config-fragment equals ours and its SHA256SUMS verify
#   EHK_KERNEL_CACHE   where built kernels are kept (default: ~/.cache/eventheader-tracepoint/kernel)
#   EHK_VENV           virtualenv for virtme-ng (default: ~/.cache/eventheader-tracepoint/venv)
#   EHK_OUT            build and result directory (default: tests/kernel/target)
#   EHK_KVM            auto (default: probe /dev/kvm with a short timeout) | 0 (TCG) | 1 (KVM)
#   EHK_VM_TIMEOUT     seconds the VM may take for the whole suite (default 1200: 80 s on an
#                      idle machine, 342 s before the benchmark at a load average of 15 on 2 cores)
#   EHK_VERBOSE=1      print the full logs
#   EHK_ONLY           comma-separated VM run names: only those (e.g. EHK_ONLY=cli)
set -uo pipefail
export LC_ALL=C

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
OUT=${EHK_OUT:-$HERE/target}
CACHE_ROOT=${XDG_CACHE_HOME:-$HOME/.cache}/eventheader-tracepoint
KCACHE=${EHK_KERNEL_CACHE:-$CACHE_ROOT/kernel}
VENV=${EHK_VENV:-$CACHE_ROOT/venv}
SHARED_KERNEL=${EHK_SHARED_KERNEL:-$REPO/../shared/kernel}
KERNEL_SOURCE_PKG=linux-source-6.12
REF_DAT=${EHK_REFERENCE_DAT:-$REPO/tests/data/reference/EventHeaderInterceptorLE64.dat}
LOG=$OUT/run.log
T0=$(date +%s.%N)

mkdir -p "$OUT"
: >"$LOG"

SUITE="kernel suite"
. "$HERE/log.sh"

# --- 1. tools ---------------------------------------------------------------
# scripts/install-deps.sh installs everything (qemu-system-x86 from
# bookworm-backports, derived from the machine's own apt source; virtme-ng in
# a venv); this only checks.
install_tools() {
    quiet "scripts/install-deps.sh" env EHK_VENV="$VENV" bash "$REPO/scripts/install-deps.sh"
    local t
    for t in gcc g++ perf taskset setpriv sha256sum valgrind qemu-system-x86_64 cargo; do
        command -v "$t" >/dev/null || die "$t not found after scripts/install-deps.sh"
    done
    [ -x "$VENV/bin/vng" ] || die "no virtme-ng in $VENV after scripts/install-deps.sh"
    export PATH="$VENV/bin:$PATH" # vng runs virtme-run from PATH
}

# --- 2. kernel --------------------------------------------------------------
# tests/kernel/kernel.sh: the prebuilt image, the cached one, or a build.
. "$HERE/kernel.sh"
kernel_arch x86_64

# --- 3. what runs inside ----------------------------------------------------
# The programs and runs come from the manifest (each suite's programs.toml,
# read by tests/testkit/src/manifest.rs; `testkit suites` lists them):
# `testkit build --vm` builds every program the VM suite needs (optimized,
# gcc, linked to the release library), `testkit kernel-plan` writes the plan
# guest.sh executes. The command-line tool (cli/, run by the VM run `cli`) is
# built with testkit, in the dev profile (the build `cargo test` already made;
# the workspace optimizes the tool and its decoding crates in that profile):
# testkit finds it beside itself.
build_tests() {
    quiet "cargo build --release (library)" cargo build --release --manifest-path "$REPO/Cargo.toml"
    local lib=$REPO/target/release
    [ -r "$lib/libeventheader_tracepoint.so" ] || die "no $lib/libeventheader_tracepoint.so"
    quiet "build testkit and eventheader" cargo build --locked --manifest-path "$REPO/Cargo.toml" \
        -p testkit -p eventheader-cli
    TESTKIT=$REPO/target/debug/testkit
    rm -rf "$OUT/bin"
    quiet "build the programs" "$TESTKIT" build --vm --lib "$lib" --out "$OUT/bin"
    "$TESTKIT" kernel-plan --bin "$OUT/bin" --reference "$REF_DAT" >"$OUT/plan" 2>>"$LOG" ||
        die "testkit kernel-plan"
    cat "$OUT/plan" >>"$LOG"
}

# --- 4. boot ----------------------------------------------------------------
# The results directory appears at this path in the guest. virtme-ng lays
# throw-away overlays over /tmp, /home, /var, ... in the guest, which would
# swallow writes to a --rwdir below them, so it is not mapped to its host path.
GUEST_RESULTS=/mnt
vm() { # timeout, then vng arguments
    local limit=$1
    shift
    timeout --kill-after=10 "$limit" vng "${VNG_KVM[@]}" -r "$KERNEL" --cpus 2 --memory 1G "$@" </dev/null
}

choose_accel() {
    VNG_KVM=(--disable-kvm)
    ACCEL=TCG
    case "${EHK_KVM:-auto}" in
    0) return ;;
    1) VNG_KVM=(); ACCEL=KVM; return ;;
    esac
    [ -w /dev/kvm ] || return
    # Nested KVM is known to hang at "Decompressing Linux" on some hosts: probe briefly.
    rm -f "$OUT/probe/ok"
    mkdir -p "$OUT/probe"
    local save=("${VNG_KVM[@]}")
    VNG_KVM=()
    vm 12 --rwdir "$GUEST_RESULTS=$OUT/probe" --exec "echo ok > $GUEST_RESULTS/ok" >>"$LOG" 2>&1
    if [ "$(cat "$OUT/probe/ok" 2>/dev/null)" = ok ]; then
        ACCEL=KVM
    else
        VNG_KVM=("${save[@]}")
        echo "KVM probe failed: using TCG" >>"$LOG"
    fi
}

run_vm() {
    rm -rf "$OUT/results"
    mkdir -p "$OUT/results"
    local t0
    t0=$(date +%s.%N)
    echo "+ vng ${VNG_KVM[*]} -r $KERNEL --exec guest.sh" >>"$LOG"
    vm "${EHK_VM_TIMEOUT:-1200}" --rwdir "$GUEST_RESULTS=$OUT/results" \
        --exec "bash '$HERE/guest.sh' '$OUT' '$GUEST_RESULTS' '$TESTKIT' > $GUEST_RESULTS/guest.log 2>&1" \
        >"$OUT/vm.log" 2>&1
    VM_SECONDS=$(elapsed "$t0")
    cat "$OUT/vm.log" "$OUT/results/guest.log" >>"$LOG" 2>/dev/null
    sed 's/^/guest seconds: /' "$OUT/results/times" >>"$LOG" 2>/dev/null
    [ -s "$OUT/results/done" ] || die "the VM did not finish the suite (see $OUT/vm.log, $OUT/results/guest.log)"
}

# --- 5. verdicts ------------------------------------------------------------
# testkit kernel-judge (tests/testkit/src/kernel.rs, checks.rs) judges every
# run of the plan from the results directory: self-checking programs by their
# exit status, recordings by `perf record`'s and the pre-registration's status
# and then byte identity with the capture-mode run, sample counts against the
# program's expectation, or the samples' fields against the program's output.
main() {
    install_tools
    find_kernel
    build_tests
    choose_accel
    run_vm
    say "$(cat "$OUT/results/kernel" 2>/dev/null) ($KERNEL_ORIGIN, $ACCEL), boot $(cat "$OUT/results/boot-seconds" 2>/dev/null) s to the first command," \
        "VM run $VM_SECONDS s, total $(elapsed "$T0") s"
    "$TESTKIT" kernel-judge --reference "$REF_DAT" "$OUT/results" 2>&1 | tee -a "$LOG"
    local rc=${PIPESTATUS[0]}
    [ "${EHK_VERBOSE:-0}" != 1 ] || cat "$LOG"
    return "$rc"
}

main "$@"
