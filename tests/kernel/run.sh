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
    # bookworm-backports is configured by scripts/install-deps.sh (install_tools).
    local suite=()
    grep -q '^VERSION_CODENAME=bookworm' /etc/os-release 2>/dev/null && suite=(-t bookworm-backports)
    quiet "apt-get update" apt-get update -qq
    quiet "apt-get install kernel build packages" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
        --no-install-recommends "${suite[@]}" "$KERNEL_SOURCE_PKG" build-essential bc bison flex libelf-dev \
        libssl-dev xz-utils cpio
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
    # t_perm runs as another user from a guest tmpfs (possibly setuid), so it
    # carries the library: static archive, only glibc shared.
    quiet "build t_perm" gcc "${cflags[@]}" -I"$REPO/include" -o "$OUT/bin/t_perm" "$HERE/src/t_perm.c" \
        "$lib/libeventheader_tracepoint.a" -lpthread -ldl -lm
    : >"$OUT/identity.list"
    build_tracelogging
    build_hardening
    quiet "build benchmark programs" bash "$REPO/benches/c/build.sh" "$OUT/bench-c" "$lib"
    quiet "build ehkv" env CARGO_TARGET_DIR="$OUT/verify" \
        cargo build --release --locked --manifest-path "$HERE/verify/Cargo.toml"
    EHKV=$OUT/verify/release/ehkv
}

# Programs whose events must reach perf byte-identical to their capture-mode
# output are listed in OUT/identity.list as "NAME COMMAND...".
# The TraceLogging byte-identity program (issue 4): c-tests/tracelogging, mode
# "reference" writes the 260 TraceLogging events of the reference suite.
build_tracelogging() {
    local dir=$REPO/c-tests/tracelogging objs=() f o
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
}

# The hardening programs (c-tests/hardening, as tests/hardening.rs builds them),
# run here in their "kernel" mode: h_stress, h_fork, h_dlclose_loop and the
# library it loads, libdlprov.so.
build_hardening() {
    local dir=$REPO/c-tests/hardening lib=$REPO/target/release p
    local cflags=(-std=c11 -O2 -g -Wall -Wextra -Werror -I"$REPO/include")
    local link=(-L"$lib" -Wl,-rpath,"$lib" -leventheader_tracepoint -lpthread -ldl)
    for p in stress fork dlclose_loop; do
        quiet "build $p" gcc "${cflags[@]}" -o "$OUT/bin/h_$p" "$dir/$p.c" "${link[@]}"
    done
    quiet "build libdlprov.so" gcc "${cflags[@]}" -fPIC -shared -o "$OUT/bin/libdlprov.so" \
        "$dir/dlprov.c" "${link[@]}"
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
    sed 's/^/guest seconds: /' "$OUT/results/times" >>"$LOG" 2>/dev/null
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
        pass "$name: $(grep -h "^[a-z_()]*: [0-9]* checks" "$(R "$name.log")" | sed 's/^[^:]*: //' | paste -sd' ')"
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

# check_fields NAME FIELDS AWK: NAME.perf.data's samples as `ehkv fields` lines
# (NAME.fields: "TRACEPOINT EVENT PID TID FIELDS..."), then AWK over NAME.log
# (the program's output) and NAME.fields. AWK prints "ok SUMMARY" when every
# check held, else what failed.
check_fields() {
    local name=$1 fields=$2 prog=$3 out
    judge_recorded "$name" || return
    # shellcheck disable=SC2086
    if ! "$EHKV" fields "$(R "$name.perf.data")" $fields >"$(R "$name.fields")" 2>"$(R "$name.verify")"; then
        fail "$name: ehkv fields" "$(R "$name.verify")"
        return
    fi
    out=$(awk "$prog" "$(R "$name.log")" "$(R "$name.fields")" 2>&1)
    local st=$?
    printf '%s\n' "$out" >"$(R "$name.check")"
    if [ "$st" != 0 ] || [ "${out#ok }" = "$out" ] || [ "$(grep -c . <<<"$out")" != 1 ]; then
        fail "$name: perf.data vs the program's counts" "$(R "$name.check")"
        sed 's/^/    log: /' "$(R "$name.log")" | tail -n 20 >&2
        return
    fi
    pass "$name: ${out#ok }"
}

# stress: 8 writers, each on its own HardStress_L5K1 state (event Stable,
# a = writer, b = its sequence number, c = 0) and on one of 4 churn events
# (event Churn, c = 1) that churner A keeps moving between HardStress_L4K2 and
# HardStressAlt_L4K2, disconnecting and reconnecting. perf must have exactly one
# sample per successful write: per writer, as many Stable samples as its
# stable_ok and Churn samples as its churn_ok, no (writer, seq) twice.
STRESS_AWK='
FILENAME == ARGV[1] {
    if ($1 == "writer") { w[$2] = 1; sok[$2] = $4; cok[$2] = $6; ceb += $8 }
    if ($1 == "churnerA") ca = $3
    if ($1 == "churnerB") { cb = $3; tr = $5; raw = $7 }
    if ($1 == "total_ok") total = $2
    next
}
{
    if ($1 == "HardStress_L5K1" && $2 == "Stable" && $7 == 0) { k = "s" }
    else if (($1 == "HardStress_L4K2" || $1 == "HardStressAlt_L4K2") && $2 == "Churn" && $7 == 1) { k = "c" }
    else { if (bad++ < 5) print "unexpected sample: " $0; next }
    if (!($5 in w)) { if (bad++ < 5) print "sample of unknown writer: " $0; next }
    if ((k, $5, $6) in seen) { if (bad++ < 5) print "landed twice: " $0; next }
    seen[k, $5, $6] = 1
    n[k, $5]++; tot[k]++; tp[$1]++; pids[$3] = 1
}
END {
    if (length(w) != 8) { print "the program printed " length(w) " writer lines, not 8"; bad++ }
    for (i in w) {
        if (n["s", i] + 0 != sok[i]) { print "writer " i ": " n["s", i] + 0 " Stable samples, stable_ok " sok[i]; bad++ }
        if (n["c", i] + 0 != cok[i]) { print "writer " i ": " n["c", i] + 0 " Churn samples, churn_ok " cok[i]; bad++ }
        ssum += sok[i]; csum += cok[i]
    }
    if (length(pids) > 1) { print "samples from " length(pids) " processes"; bad++ }
    if (ssum + csum + tr + raw != total) { print "the program'"'"'s total_ok " total " is not the sum of its counts"; bad++ }
    if (ssum == 0 || csum == 0) { print "no stable or no churn write succeeded"; bad++ }
    if (bad) exit 1
    printf "ok %d HardStress_L5K1 samples = sum of stable_ok, %d HardStress_L4K2 + %d HardStressAlt_L4K2 = %d = sum of churn_ok, each write once; %d churn writes EBADF; churner A %d cycles, churner B %d cycles (%d + %d writes to its unrecorded tracepoints)\n",
        tot["s"], tp["HardStress_L4K2"], tp["HardStressAlt_L4K2"], tot["c"], ceb, ca, cb, tr, raw
}'

# fork kernel busy (HARDENING_EXPECT_ENABLED=1): the parent writes Parent once
# (c = 0), the child 50 times (c = 1) and Child once (c = 3, HardFork_L5K2),
# the parent 50 more (c = 2); then 200 children forked while another thread
# connects and disconnects write Child once each (c = 4, b = fork index).
# Field a is the writer's pid: it must equal the sample's pid and tid.
FORK_AWK='
FILENAME == ARGV[1] {
    if ($1 == "parent") parent = $2
    if ($1 == "child") child = $2
    if ($1 == "fdcheck") fd = $2
    if ($1 == "busy") { forks = $3; hung = $5 }
    if ($1 == "done") done = 1
    next
}
{
    if (!($5 == $3 && $3 == $4)) { if (bad++ < 5) print "field a is not the sample pid/tid: " $0 }
    ok = ($1 == "HardFork_L5K1" && $2 == "Parent" && $7 <= 2) || ($1 == "HardFork_L5K2" && $2 == "Child" && ($7 == 3 || $7 == 4))
    if (!ok) { if (bad++ < 5) print "unexpected sample: " $0; next }
    want = ($7 == 0 || $7 == 2) ? parent : ($7 == 1 || $7 == 3) ? child : ""
    if (want != "" && $5 != want) { if (bad++ < 5) print "c = " $7 " from pid " $5 ", expected " want ": " $0 }
    if (($7, $6) in seen) { if (bad++ < 5) print "landed twice: " $0 }
    seen[$7, $6] = 1
    c[$7]++; tp[$1]++
    if ($7 == 4) busypid[$5] = 1
}
END {
    if (parent == "" || child == "" || fd != "ok" || !done) { print "program output incomplete (parent, child, fdcheck ok, done)"; bad++ }
    if (forks != 200 || hung != 0) { print "busy forks " forks " hung " hung ", expected 200 and 0"; bad++ }
    split("1 50 50 1 200", want_c)
    for (i = 0; i <= 4; i++) if (c[i] + 0 != want_c[i + 1]) { print "c = " i ": " c[i] + 0 " samples, expected " want_c[i + 1]; bad++ }
    if (tp["HardFork_L5K1"] != 101 || tp["HardFork_L5K2"] != 201) { print "HardFork_L5K1 " tp["HardFork_L5K1"] + 0 " (expected 101), HardFork_L5K2 " tp["HardFork_L5K2"] + 0 " (expected 201)"; bad++ }
    if (length(busypid) != 200) { print length(busypid) " distinct busy-child pids, expected 200"; bad++ }
    if (bad) exit 1
    printf "ok %d HardFork_L5K1 + %d HardFork_L5K2 samples (parent 51, child 51, 200 busy children, each its own pid), field a = sample pid = tid in all; %d forks while another thread held the library lock, %d hung; fdcheck ok\n",
        tp["HardFork_L5K1"], tp["HardFork_L5K2"], forks, hung
}'

# dlclose_loop LIB 1000 kernel: each round dlopens libdlprov.so (its
# constructor registers HardDl), writes Loop with i = round, dlcloses it (the
# destructor unregisters). perf must have i = 0..999, each once.
DLCLOSE_AWK='
FILENAME == ARGV[1] {
    if ($1 == "rounds") { rounds = $2; fd1 = $4; fd2 = $5; rss1 = $7; rss2 = $8 }
    if ($1 == "done") done = 1
    next
}
{
    if ($1 != "HardDl_L5K1" || $2 != "Loop" || $5 == "-" || $3 != $4) { if (bad++ < 5) print "unexpected sample: " $0; next }
    if ($5 in seen) { if (bad++ < 5) print "landed twice: " $0; next }
    seen[$5] = 1; n++; pids[$3] = 1
}
END {
    if (rounds != 1000 || !done) { print "program output incomplete (rounds " rounds ", done " done + 0 ")"; bad++ }
    for (i = 0; i < 1000; i++) if (!(i in seen)) { if (missing++ < 5) print "no sample with i = " i; bad++ }
    if (n != 1000) { print n + 0 " HardDl_L5K1 samples, expected 1000"; bad++ }
    if (length(pids) != 1) { print "samples from " length(pids) " processes"; bad++ }
    if (bad) exit 1
    printf "ok %d dlopen/dlclose rounds, %d HardDl_L5K1 samples with i = 0..999; descriptors %d -> %d, VmRSS %d -> %d KiB\n", rounds, n, fd1, fd2, rss1, rss2
}'

# benches/run-callgrind.sh --user-events in the VM: Ir per iteration (library,
# syscall floor); the disabled path must stay within BENCH_DISABLED_MAX.
BENCH_DISABLED_MAX=10
judge_bench() {
    local st rows dis
    st=$(status_of bench)
    rows=$(awk -F'\t' '$1 == "disabled" || $1 == "enabled5" || $1 == "empty"' "$(R bench.tsv)" 2>/dev/null | grep -c .)
    if [ "$st" != 0 ] || [ "$rows" != 3 ]; then
        fail "bench (status '${st:-missing}', $rows of 3 rows in bench.tsv)" "$(R bench.log)"
        return
    fi
    dis=$(awk -F'\t' '$1 == "disabled" { print $2 }' "$(R bench.tsv)")
    if ! awk -v d="$dis" -v m="$BENCH_DISABLED_MAX" 'BEGIN { exit !(d + 0 <= m) }'; then
        fail "bench: the disabled path costs $dis instructions per iteration (at most $BENCH_DISABLED_MAX)" "$(R bench.log)"
        return
    fi
    pass "bench: callgrind Ir per iteration with user_events, $(sed -n 's/^callgrind Ir per iteration.*\(N = [0-9]* vs [0-9]*\).*/\1/p' "$(R bench.log)"): disabled $dis <= $BENCH_DISABLED_MAX"
    while IFS= read -r line; do
        SUMMARY+=("    $line")
    done < <(awk '$1 == "mode" || $1 == "disabled" || $1 == "enabled5" || $1 == "empty"' "$(R bench.log)")
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
    judge_run perm_denied
    judge_run perm_granted
    judge_run suid
    while read -r name _; do
        [ -z "$name" ] || judge_compare "$name" "$(R "$name.cap")"
    done <"$OUT/identity.list"
    check_fields stress "a b c" "$STRESS_AWK"
    check_fields fork_busy "a b c" "$FORK_AWK"
    check_fields dlclose "i" "$DLCLOSE_AWK"
    judge_bench
    say "$(cat "$(R kernel)") ($KERNEL_ORIGIN, $ACCEL), boot $(cat "$(R boot-seconds)") s to the first command," \
        "VM run $VM_SECONDS s, total $(elapsed "$T0") s"
    say "byte-identical under perf: ${BYTE_COUNTS[*]:-none}"
    printf '  %s\n' "${SUMMARY[@]}"
    [ "${EHK_VERBOSE:-0}" != 1 ] || cat "$LOG"
    echo "kernel: $PASSED passed, $FAILED failed"
    [ "$FAILED" -eq 0 ] && [ "$PASSED" -gt 0 ]
}

main "$@"
