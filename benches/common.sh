# Sourced by the benchmark scripts (run-callgrind.sh, run-wallclock.sh,
# side-by-side.sh, run-in-vm.sh, decode-side-by-side.sh, stats-vs-decode.sh):
# what they share. Each function takes the
# calling script's name for its messages.

# bench_backend SCRIPT BACKEND: sets up the backend the programs write to and
# sets BENCH_EXTRA, the programs' extra arguments. capture:
# TRACEPOINT_CAPTURE_FILE=$BENCH_CAPTURE_FILE (default /dev/null). user_events: the kernel's (needs root,
# tracefs and CONFIG_USER_EVENTS); each program enables its tracepoint through
# tracefs (--tracefs-enable) so that enabled events have a listener.
bench_backend() {
    BENCH_EXTRA=()
    if [ "$2" = capture ]; then
        export TRACEPOINT_CAPTURE_FILE=${BENCH_CAPTURE_FILE:-/dev/null}
    else
        unset TRACEPOINT_CAPTURE_FILE
        [ -w /sys/kernel/tracing/user_events_data ] || {
            echo "$1: no writable /sys/kernel/tracing/user_events_data (need root and CONFIG_USER_EVENTS)" >&2
            exit 1
        }
        BENCH_EXTRA=(--tracefs-enable)
    fi
}

# callgrind_short_n MODE N1: the iterations of a mode's short callgrind run
# (register: N1 / 100 cycles, at least 5; the long run does twice as many).
callgrind_short_n() {
    local n=$2
    [ "$1" != register ] || { n=$(($2 / 100)); [ "$n" -ge 5 ] || n=5; }
    echo "$n"
}

# callgrind_total FILE: the total Ir of a callgrind output file.
callgrind_total() {
    awk '$1 == "totals:" || $1 == "summary:" { print $2; exit }' "$1"
}

# callgrind_per_iteration A B N: (B - A) / N with 2 decimals.
callgrind_per_iteration() {
    awk -v a="$1" -v b="$2" -v n="$3" 'BEGIN { printf "%.2f", (b - a) / n }'
}

# bench_vm_ready SCRIPT: fails, saying why, unless the real-kernel suite's
# kernel (Linux 6.12 with user_events) and virtme-ng are there; sets
# BENCH_KERNEL and BENCH_VENV. Environment: EHK_KERNEL_IMAGE,
# EHK_SHARED_KERNEL, EHK_VENV as for tests/kernel/run.sh.
bench_vm_ready() {
    local repo
    repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
    BENCH_VENV=${EHK_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/eventheader-tracepoint/venv}
    BENCH_KERNEL=${EHK_KERNEL_IMAGE:-${EHK_SHARED_KERNEL:-$repo/../shared/kernel}/bzImage-6.12-user-events}
    [ -r "$BENCH_KERNEL" ] || { echo "$1: no kernel at $BENCH_KERNEL (see tests/kernel/README.md)" >&2; return 1; }
    [ -x "$BENCH_VENV/bin/vng" ] || { echo "$1: no virtme-ng in $BENCH_VENV (run tests/kernel/run.sh once)" >&2; return 1; }
}

# bench_vm SCRIPT OUT COMMAND: runs the shell COMMAND as root in that kernel
# under QEMU with virtme-ng (TCG; EHK_KVM=1 for KVM), the host's file system
# shared and OUT (emptied first) writable. COMMAND's output goes to
# OUT/out.txt, which is printed, and its status to OUT/rc, which is returned.
bench_vm() {
    local script=$1 out=$2 command=$3
    bench_vm_ready "$script" || return 1
    local kvm=(--disable-kvm)
    [ "${EHK_KVM:-0}" != 1 ] || kvm=()
    rm -rf "$out"
    mkdir -p "$out"
    PATH="$BENCH_VENV/bin:$PATH" timeout --kill-after=10 3000 vng "${kvm[@]}" -r "$BENCH_KERNEL" --cpus 2 --memory 1G \
        --rwdir "$out" --exec "{ $command; } > $(printf '%q' "$out/out.txt") 2>&1; echo \$? > $(printf '%q' "$out/rc")" \
        </dev/null >"$out/vm.log" 2>&1 || true
    cat "$out/out.txt" 2>/dev/null || { echo "$script: the VM produced no output (see $out/vm.log)" >&2; return 1; }
    [ "$(cat "$out/rc" 2>/dev/null)" = 0 ]
}

# The mode list (benches/modes.txt).
BENCH_MODES_FILE=$(dirname "${BASH_SOURCE[0]}")/modes.txt

# bench_modes LIST [PROGRAM]: the modes of LIST (and of PROGRAM), one line,
# space-separated, in the file's order.
bench_modes() {
    awk -v l="$1" -v p="${2:-}" '
        /^#/ || NF < 3 || (p != "" && $2 != p) { next }
        { n = split($3, a, ","); for (i = 1; i <= n; i++) if (a[i] == l) { printf "%s%s", s, $1; s = " " } }
        END { print "" }' "$BENCH_MODES_FILE"
}

# bench_mode_what MODE: the mode's WHAT column.
bench_mode_what() {
    awk -v m="$1" '!/^#/ && $1 == m { $1 = $2 = $3 = ""; sub(/^ +/, ""); print; exit }' "$BENCH_MODES_FILE"
}

# bench_recording TESTKIT DIR NAME COUNT KIND [perf|capture]: makes the
# synthetic recording DIR/NAME with testkit (`synth-perf` by default,
# `synth-capture`) of COUNT events of KIND (burst, reference) unless it is
# there: the same bytes on every machine, so the decoding benchmarks
# (decode-side-by-side.sh, stats-vs-decode.sh) share their files.
bench_recording() {
    local testkit=$1 dir=$2 name=$3 count=$4 kind=$5 as=${6:-perf}
    mkdir -p "$dir"
    [ -s "$dir/$name" ] || "$testkit" "synth-$as" "$dir/$name" "$count" "$kind"
}

# bench_median: the median of the numbers on stdin, one a line.
bench_median() {
    sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}
