#!/usr/bin/env bash
# `eventheader collect` on a burst, against `perf record`, in the real-kernel
# suite's VM (Linux 6.12 with user_events, QEMU; see tests/kernel/README.md):
# cli_writer (cli/tests/vm) writes N events of CliBurst_L5K1 as fast as it
# can, R rounds, alternating
#   - eventheader collect -b 1024 (its default: 1 MiB per CPU),
#   - perf record -m 256 (256 pages: 1 MiB per CPU),
# and prints per round the events each recorded and lost and the recorder's
# own CPU time (user + system, from getrusage through /usr/bin/time: the
# recorder's total less the writer's, measured around the writer) per
# recorded event, then each recorder's mean over the rounds; then collect's
# system calls while it drains the ring buffers and writes the file (strace
# -f on collect's threads, not on the writer it starts), in total and per
# recorded event.
#
#   benches/collect-in-vm.sh [-n N] [-r R] [--no-build]
#
# Needs what tests/kernel/run.sh installs (run it once first). Environment:
# EHK_KERNEL_IMAGE, EHK_SHARED_KERNEL, EHK_VENV, EHK_KVM as for
# benches/run-in-vm.sh. Results: printed, and kept in target/collect-vm/.
set -euo pipefail
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT=$REPO/target/collect-vm
N=${N:-100000}
ROUNDS=${ROUNDS:-3}
BUILD=1
while [ $# -gt 0 ]; do
    case $1 in
        -n) N=$2; shift 2 ;;
        -r) ROUNDS=$2; shift 2 ;;
        --no-build) BUILD=0; shift ;;
        --inside) shift; break ;;
        *) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2 ;;
    esac
done
EH=$REPO/target/cli/eventheader
W=$REPO/target/collect-vm-bin/cli_writer

if [ "${1:-}" = inner ]; then
    # In the VM, as root.
    T=$(mktemp -d)
    recorded() { # FILE: (samples lost) as decode counts them
        "$EH" decode --jsonl --meta none "$1" 2>"$T/err" | grep -c '"CliBurst:Burst"' || true
    }
    lost_of() { sed -n 's/.*the recording lost \([0-9]*\) events.*/\1/p' "$T/err" | head -n 1; }
    # TIME FILE: user + system seconds that /usr/bin/time wrote there.
    cpu_s() { awk 'NF == 2 { s = $1 + $2 } END { printf "%.2f", s }' "$1"; }
    # REC N: sets PE to REC's own CPU time (its total less the writer's) in
    # microseconds per recorded event (N), and adds it to REC's totals.
    declare -A cpu_sum=() n_sum=()
    per_event() {
        local own
        own=$(awk -v a="$(cpu_s "$T/rec.time")" -v b="$(cpu_s "$T/writer.time")" 'BEGIN { printf "%.2f", a - b }')
        cpu_sum[$1]=$(awk -v a="${cpu_sum[$1]:-0}" -v b="$own" 'BEGIN { print a + b }')
        n_sum[$1]=$((${n_sum[$1]:-0} + $2))
        PE=$(awk -v c="$own" -v n="$2" 'BEGIN { printf "%.1f", (n > 0 ? c * 1e6 / n : 0) }')
    }
    writer=(/usr/bin/time -f '%U %S' -o "$T/writer.time" "$W" burst "$N")
    printf '%-6s %-26s %10s %10s %12s\n' round recorder recorded lost 'cpu us/event'
    for ((r = 1; r <= ROUNDS; r++)); do
        /usr/bin/time -f '%U %S' -o "$T/rec.time" \
            "$EH" collect -o "$T/c.data" CliBurst_L5K1 -- "${writer[@]}" >/dev/null 2>&1 || true
        n=$(recorded "$T/c.data")
        per_event collect "$n"
        printf '%-6s %-26s %10s %10s %12s\n' "$r" "eventheader collect -b 1024" "$n" "$(lost_of)" "$PE"
        "$EH" register CliBurst_L5K1 >"$T/names" 2>/dev/null &
        reg=$!
        for _ in $(seq 100); do [ -s "$T/names" ] && break; sleep 0.1; done
        /usr/bin/time -f '%U %S' -o "$T/rec.time" \
            perf record -q -m 256 --no-buildid --no-buildid-cache -e user_events:CliBurst_L5K1 \
            -o "$T/p.data" -- "${writer[@]}" >/dev/null 2>&1 || true
        kill -TERM "$reg"
        wait "$reg" || true
        n=$(recorded "$T/p.data")
        per_event perf "$n"
        printf '%-6s %-26s %10s %10s %12s\n' "$r" "perf record -m 256" "$n" "$(lost_of)" "$PE"
    done
    echo
    echo "recorder CPU time (user + system, less the writer's) per recorded event, all rounds:"
    for rec in collect perf; do
        awk -v rec="$rec" -v c="${cpu_sum[$rec]:-0}" -v n="${n_sum[$rec]:-0}" \
            'BEGIN { printf "  %-8s %8.2f s for %10d events: %6.2f us per event\n", rec, c, n, (n > 0 ? c * 1e6 / n : 0) }'
    done
    # Every thread of collect (-f, one file per thread: -ff), not the
    # command it starts: the writer's file (the one that executes it) is
    # left out, and its user_events writes (writev) are not traced at all
    # (--seccomp-bpf: an untraced call does not stop it), so that it runs
    # at its own speed.
    mkdir "$T/st"
    strace -f -ff --seccomp-bpf -e trace=execve,read,write,poll,wait4,futex,ioctl,openat \
        -o "$T/st/t" "$EH" collect -o "$T/s.data" CliBurst_L5K1 -- "$W" burst "$N" \
        >/dev/null 2>"$T/collect.err" || true
    n=$(recorded "$T/s.data")
    echo
    echo "collect's system calls (strace -f, its threads only; execve, read, write, poll, wait4, futex, ioctl, openat) for $n recorded events:"
    for f in "$T"/st/t.*; do
        grep -q "^execve(\"$W\"" "$f" || sed -n 's/^\([a-z_0-9]*\)(.*/\1/p' "$f"
    done | sort | uniq -c | awk -v n="$n" '
        { sys[$2] = $1; total += $1 }
        END {
            for (s in sys) printf "  %-20s %8d  %.4f per event\n", s, sys[s], sys[s] / (n > 0 ? n : 1)
            printf "  %-20s %8d  %.4f per event\n", "all", total, total / (n > 0 ? n : 1)
        }' | sort -k2 -n -r
    rm -rf "$T"
    exit 0
fi

# shellcheck source=benches/common.sh
. "$REPO/benches/common.sh"
bench_vm_ready collect-in-vm.sh
if [ "$BUILD" = 1 ]; then
    cargo build --quiet --locked --manifest-path "$REPO/Cargo.toml" --release --lib
    cargo build --quiet --locked --manifest-path "$REPO/Cargo.toml" --profile cli -p eventheader-cli
    cargo build --quiet --locked --manifest-path "$REPO/Cargo.toml" -p testkit
    "$REPO/target/debug/testkit" build --lib "$REPO/target/release" --out "$(dirname "$W")" cli_writer
fi
[ -x "$EH" ] && [ -x "$W" ] || { echo "collect-in-vm: build first (no --no-build)" >&2; exit 1; }
q() { printf '%q ' "$@"; }
bench_vm collect-in-vm.sh "$OUT" "ROUNDS=$ROUNDS N=$N bash $(q "$REPO/benches/collect-in-vm.sh") --inside inner"
