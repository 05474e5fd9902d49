#!/usr/bin/env bash
# Real-kernel suite: boots a Linux kernel with CONFIG_USER_EVENTS under QEMU
# (virtme-ng), runs the tests of tests/kernel/ inside it against the library's
# user_events backend, verifies what perf recorded, and exits non-zero on any
# failure. Quiet on success (a few summary lines), loud on failure.
#
# Environment (all optional):
#   EHK_KERNEL_IMAGE   use this bzImage as is (skips lookup and build)
#   EHK_SHARED_KERNEL  directory of a prebuilt kernel (default: <repo>/../shared/kernel); used when
#                      its config-fragment equals ours and its SHA256SUMS verify
#   EHK_KERNEL_CACHE   where built kernels are kept (default: ~/.cache/eventheader-tracepoint/kernel)
#   EHK_VENV           virtualenv for virtme-ng (default: ~/.cache/eventheader-tracepoint/venv)
#   EHK_OUT            build and result directory (default: tests/kernel/target)
#   EHK_KVM            auto (default: probe /dev/kvm with a short timeout) | 0 (TCG) | 1 (KVM)
#   EHK_VERBOSE=1      print the full logs
set -uo pipefail
export LC_ALL=C

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
OUT=${EHK_OUT:-$HERE/target}
CACHE_ROOT=${XDG_CACHE_HOME:-$HOME/.cache}/eventheader-tracepoint
KCACHE=${EHK_KERNEL_CACHE:-$CACHE_ROOT/kernel}
VENV=${EHK_VENV:-$CACHE_ROOT/venv}
SHARED_KERNEL=${EHK_SHARED_KERNEL:-$REPO/../shared/kernel}
VIRTME_NG_VERSION=1.42
KERNEL_SOURCE_PKG=linux-source-6.12
REF_DAT=${EHK_REFERENCE_DAT:-$REPO/../shared/testdata/reference/EventHeaderInterceptorLE64.dat}
LOG=$OUT/run.log
T0=$(date +%s.%N)

mkdir -p "$OUT"
: >"$LOG"

say() { printf 'kernel suite: %s\n' "$*"; }
die() {
    printf 'kernel suite: FAILED: %s\n' "$*" >&2
    printf -- '--- last 60 lines of %s ---\n' "$LOG" >&2
    tail -n 60 "$LOG" >&2
    exit 1
}
# Runs a command with its output in the log; dies with a message on failure.
quiet() {
    local what=$1
    shift
    echo "+ $*" >>"$LOG"
    "$@" >>"$LOG" 2>&1 || die "$what (exit $?)"
}
elapsed() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'; }

# --- 1. tools ---------------------------------------------------------------
apt_ready=
apt_prepare() {
    [ -n "$apt_ready" ] && return
    if [ -r /etc/os-release ] && grep -q '^VERSION_CODENAME=bookworm' /etc/os-release &&
        ! grep -rqs 'bookworm-backports' /etc/apt/sources.list /etc/apt/sources.list.d/; then
        printf 'Types: deb\nURIs: http://deb.debian.org/debian\nSuites: bookworm-backports\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
            >/etc/apt/sources.list.d/bookworm-backports.sources || die "cannot add bookworm-backports"
    fi
    quiet "apt-get update" apt-get update -qq
    apt_ready=1
}
apt_install() { # [-t suite] packages...
    apt_prepare
    quiet "apt-get install $*" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@"
}
backports_opt() { grep -q '^VERSION_CODENAME=bookworm' /etc/os-release 2>/dev/null && echo "-t bookworm-backports"; }

install_tools() {
    local missing=()
    command -v gcc >/dev/null || missing+=(gcc libc6-dev)
    command -v g++ >/dev/null || missing+=(g++)
    command -v perf >/dev/null || missing+=(linux-perf)
    command -v taskset >/dev/null || missing+=(util-linux)
    command -v sha256sum >/dev/null || missing+=(coreutils)
    [ ${#missing[@]} -eq 0 ] || apt_install "${missing[@]}"
    if ! command -v qemu-system-x86_64 >/dev/null; then
        # bookworm's own qemu-system conflicts with the backports qemu-utils these machines carry.
        # shellcheck disable=SC2046
        apt_install $(backports_opt) qemu-system-x86
    fi
    command -v cargo >/dev/null || die "cargo not found (install Rust first)"
    if [ ! -x "$VENV/bin/vng" ] || [ "$("$VENV/bin/vng" --version 2>/dev/null)" != "virtme-ng $VIRTME_NG_VERSION" ]; then
        if ! python3 -m venv "$VENV" >>"$LOG" 2>&1; then
            apt_install python3-venv
            quiet "python3 -m venv" python3 -m venv "$VENV"
        fi
        quiet "pip install virtme-ng" "$VENV/bin/pip" install -q "virtme-ng==$VIRTME_NG_VERSION"
    fi
    export PATH="$VENV/bin:$PATH" # vng runs virtme-run from PATH
}

# --- 2. kernel --------------------------------------------------------------
KERNEL_ORIGIN=
find_kernel() {
    if [ -n "${EHK_KERNEL_IMAGE:-}" ]; then
        [ -r "$EHK_KERNEL_IMAGE" ] || die "EHK_KERNEL_IMAGE=$EHK_KERNEL_IMAGE is not readable"
        KERNEL=$EHK_KERNEL_IMAGE
        KERNEL_ORIGIN="EHK_KERNEL_IMAGE"
        return
    fi
    local img=$SHARED_KERNEL/bzImage-6.12-user-events
    if [ -r "$img" ] && cmp -s "$SHARED_KERNEL/config-fragment" "$HERE/config-fragment" &&
        (cd "$SHARED_KERNEL" && sha256sum --quiet -c SHA256SUMS) >>"$LOG" 2>&1; then
        KERNEL=$img
        KERNEL_ORIGIN="prebuilt $SHARED_KERNEL"
        return
    fi
    echo "no usable prebuilt kernel at $SHARED_KERNEL (missing, other fragment, or checksum)" >>"$LOG"
    build_kernel
}

build_kernel() {
    local t0 key src ver
    t0=$(date +%s.%N)
    # shellcheck disable=SC2046
    apt_install $(backports_opt) "$KERNEL_SOURCE_PKG" build-essential bc bison flex libelf-dev libssl-dev xz-utils cpio
    ver=$(dpkg-query -W -f '${Version}' "$KERNEL_SOURCE_PKG") || die "no $KERNEL_SOURCE_PKG"
    key=$( (cat "$HERE/config-fragment"; echo "$ver") | sha256sum | cut -c1-16)
    KERNEL=$KCACHE/bzImage-$key
    KERNEL_ORIGIN="cache $KCACHE ($KERNEL_SOURCE_PKG $ver)"
    [ -r "$KERNEL" ] && return
    src=$KCACHE/build-$key
    rm -rf "$src"
    mkdir -p "$src"
    quiet "unpack kernel source" tar -C "$src" --strip-components=1 -xf "/usr/src/$KERNEL_SOURCE_PKG.tar.xz"
    quiet "make tinyconfig" make -C "$src" -s tinyconfig
    quiet "merge fragment" bash -c "cd '$src' && scripts/kconfig/merge_config.sh -m .config '$HERE/config-fragment'"
    quiet "make olddefconfig" make -C "$src" -s olddefconfig
    grep -qx 'CONFIG_USER_EVENTS=y' "$src/.config" || die "CONFIG_USER_EVENTS did not survive olddefconfig"
    quiet "build kernel" make -C "$src" -s -j"$(nproc)" bzImage
    cp "$src/arch/x86/boot/bzImage" "$KERNEL.tmp" && mv "$KERNEL.tmp" "$KERNEL" || die "copy bzImage"
    cp "$src/.config" "$KERNEL.config"
    rm -rf "$src"
    say "built kernel in $(elapsed "$t0") s -> $KERNEL"
    KERNEL_ORIGIN="built into $KCACHE"
}

# --- 3. what runs inside ----------------------------------------------------
build_tests() {
    quiet "cargo build --release (library)" cargo build --release --manifest-path "$REPO/Cargo.toml"
    local lib=$REPO/target/release
    [ -r "$lib/libeventheader_tracepoint.so" ] || die "no $lib/libeventheader_tracepoint.so"
    mkdir -p "$OUT/bin"
    local cflags=(-std=gnu11 -O2 -g -Wall -Wextra -Werror)
    quiet "build uev_raw" gcc "${cflags[@]}" -o "$OUT/bin/uev_raw" "$HERE/src/uev_raw.c"
    for t in t_basic t_coexist t_replay t_fork t_writer t_many; do
        quiet "build $t" gcc "${cflags[@]}" -I"$REPO/include" -o "$OUT/bin/$t" "$HERE/src/$t.c" \
            -L"$lib" -Wl,-rpath,"$lib" -leventheader_tracepoint
    done
    : >"$OUT/identity.list"
    build_tracelogging
    quiet "build ehkv" env CARGO_TARGET_DIR="$OUT/verify" \
        cargo build --release --locked --manifest-path "$HERE/verify/Cargo.toml"
    EHKV=$OUT/verify/release/ehkv
}

# Programs whose events must reach perf byte-identical to their capture-mode
# output are listed in OUT/identity.list as "NAME COMMAND...".
# The TraceLogging byte-identity program (issue 4): c-tests/tracelogging, mode
# "reference" writes the 260 TraceLogging events of the reference suite.
TL_STATE="not present"
build_tracelogging() {
    local dir=$REPO/c-tests/tracelogging objs=() f o
    if [ ! -r "$REPO/include/eventheader/TraceLoggingProvider.h" ] || [ ! -r "$dir/tl_main.c" ]; then
        echo "TraceLogging tests not present: skipped" >>"$LOG"
        return
    fi
    mkdir -p "$OUT/obj"
    # The sources of the tl_test program (as tests/tracelogging.rs builds it);
    # other files in the directory are separate programs.
    for f in "$dir"/tl_c.c "$dir"/tl_main.c "$dir"/tl_cpp.cpp; do
        o=$OUT/obj/$(basename "$f").o
        case $f in
        *.c) quiet "build $f" gcc -std=gnu11 -O1 -g -I"$REPO/include" -I"$dir" -c "$f" -o "$o" ;;
        *) quiet "build $f" g++ -std=c++17 -O1 -g -I"$REPO/include" -I"$dir" -c "$f" -o "$o" ;;
        esac
        objs+=("$o")
    done
    quiet "link tl_test" g++ -o "$OUT/bin/tl_test" "${objs[@]}" -L"$REPO/target/release" \
        -Wl,-rpath,"$REPO/target/release" -leventheader_tracepoint
    echo "tracelogging $OUT/bin/tl_test reference" >>"$OUT/identity.list"
    TL_STATE="built"
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
    vm 600 --rwdir "$GUEST_RESULTS=$OUT/results" \
        --exec "bash '$HERE/guest.sh' '$OUT' '$GUEST_RESULTS' '$REF_DAT' > $GUEST_RESULTS/guest.log 2>&1" \
        >"$OUT/vm.log" 2>&1
    VM_SECONDS=$(elapsed "$t0")
    cat "$OUT/vm.log" "$OUT/results/guest.log" >>"$LOG" 2>/dev/null
    [ -s "$OUT/results/done" ] || die "the VM did not finish the suite (see $OUT/vm.log, $OUT/results/guest.log)"
}

# --- 5. verdicts ------------------------------------------------------------
PASSED=0
FAILED=0
SUMMARY=()
pass() { PASSED=$((PASSED + 1)); SUMMARY+=("$1"); echo "PASS $1" >>"$LOG"; }
fail() {
    FAILED=$((FAILED + 1))
    printf 'kernel suite: FAIL %s\n' "$1" >&2
    [ $# -lt 2 ] || [ ! -r "$2" ] || sed 's/^/    /' "$2" | tail -n 40 >&2
}
status_of() { awk -v n="$1" '$1 == n { $1 = ""; sub(/^ /, ""); print }' "$OUT/results/status"; }
R() { echo "$OUT/results/$1"; }

# A test program run: status "NAME rc".
judge_run() {
    local name=$1 st
    st=$(status_of "$name")
    if [ "$st" = "0" ]; then
        pass "$name: $(grep -h "^[a-z()]*: [0-9]* checks" "$(R "$name.log")" | sed 's/^[^:]*: //' | paste -sd' ')"
    else
        fail "$name (status '${st:-missing}')" "$(R "$name.log")"
    fi
}

# A perf-recorded run: status "NAME rc perf_rc hold_rc", then a check on perf.data.
judge_recorded() {
    local name=$1 st rc prc hrc
    st=$(status_of "$name")
    read -r rc prc hrc <<<"$st"
    if [ "${rc:-x}" != 0 ] || [ "${hrc:-x}" != 0 ] || { [ "${prc:-x}" != 0 ] && [ "${prc:-x}" != 130 ]; }; then
        fail "$name (program $rc, perf ${prc:-?}, holder ${hrc:-?})" "$(R "$name.log")"
        sed 's/^/    perf: /' "$(R "$name.perf.log")" 2>/dev/null | tail -n 10 >&2
        return 1
    fi
}

judge_summary() { # name: ehkv summary of NAME.perf.data must equal NAME.expect (sorted)
    local name=$1 detail=$2
    judge_recorded "$name" || return
    if ! "$EHKV" summary "$(R "$name.perf.data")" >"$(R "$name.summary")" 2>"$(R "$name.verify")"; then
        fail "$name: ehkv summary" "$(R "$name.verify")"
        return
    fi
    if ! diff <(sort -k1,1 -k2,2n "$(R "$name.expect")") "$(R "$name.summary")" >"$(R "$name.diff")"; then
        fail "$name: perf saw other events than expected (< expected, > recorded)" "$(R "$name.diff")"
        return
    fi
    pass "$name: $detail ($(awk '{ n += $3 } END { print n }' "$(R "$name.summary")") events in perf.data)"
}

judge_compare() { # name capture [reference]: byte identity perf vs capture
    local name=$1 cap=$2 ref=${3:-}
    judge_recorded "$name" || return
    if [ "$(status_of "$name.capture")" != 0 ]; then
        fail "$name: capture-mode run (status '$(status_of "$name.capture")')" "$(R "$name.capture.log")"
        return
    fi
    if "$EHKV" compare "$(R "$name.perf.data")" "$cap" ${ref:+"$ref"} >"$(R "$name.verify")" 2>&1; then
        pass "$name: $(cat "$(R "$name.verify")")"
        BYTE_COUNTS+=("$name $(sed -n 's/.* \([0-9]*\) byte-identical.*/\1/p' "$(R "$name.verify")")/$(sed -n 's/.*, \([0-9]*\) capture records.*/\1/p' "$(R "$name.verify")")")
    else
        fail "$name: perf payloads vs capture" "$(R "$name.verify")"
    fi
}

main() {
    install_tools
    find_kernel
    build_tests
    choose_accel
    run_vm
    BYTE_COUNTS=()
    [ -z "$(status_of guest_env)" ] && grep -q . "$(R kernel)" || fail "guest: no writable user_events_data" "$(R guest.log)"
    judge_run basic_program
    judge_summary basic "perf toggled both words; EBADF when disabled; no kernel updates after unregister"
    judge_run coexist
    judge_compare replay "$(R replay.cap)" "$REF_DAT"
    judge_summary fork "child events carry the child's pid"
    judge_summary multi "two writer processes on one tracepoint"
    judge_summary many "50 level/keyword tracepoints, all enabled"
    while read -r name _; do
        [ -z "$name" ] || judge_compare "$name" "$(R "$name.cap")"
    done <"$OUT/identity.list"
    say "$(cat "$(R kernel)") ($KERNEL_ORIGIN, $ACCEL), boot $(cat "$(R boot-seconds)") s to the first command," \
        "VM run $VM_SECONDS s, total $(elapsed "$T0") s"
    say "byte-identical under perf: ${BYTE_COUNTS[*]:-none} (TraceLogging program: $TL_STATE)"
    printf '  %s\n' "${SUMMARY[@]}"
    [ "${EHK_VERBOSE:-0}" != 1 ] || cat "$LOG"
    echo "kernel: $PASSED passed, $FAILED failed"
    [ "$FAILED" -eq 0 ] && [ "$PASSED" -gt 0 ]
}

main "$@"
