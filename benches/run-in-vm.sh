#!/usr/bin/env bash
# Runs the benchmarks against real user_events: boots the real-kernel suite's
# kernel (Linux 6.12 with CONFIG_USER_EVENTS, see tests/kernel/README.md) under
# QEMU with virtme-ng and runs benches/run-callgrind.sh --user-events (and,
# with --wallclock, benches/run-wallclock.sh --user-events) inside it. The
# programs are built on the host first; the host filesystem is shared.
#
#   benches/run-in-vm.sh [--wallclock] [-- extra run-callgrind.sh options]
#
# Needs what tests/kernel/run.sh installs (qemu-system-x86_64, virtme-ng in
# its virtualenv); run that suite once first. Environment: EHK_KERNEL_IMAGE,
# EHK_SHARED_KERNEL, EHK_VENV as for tests/kernel/run.sh; EHK_KVM=1 to use KVM
# (default TCG: instruction counts do not depend on it, wall clock does).
# Results: printed, and kept in target/bench-vm/ (out.txt, callgrind files).
set -euo pipefail
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
WALL=0
if [ "${1:-}" = --wallclock ]; then
    WALL=1
    shift
fi
[ "${1:-}" != -- ] || shift
CACHE_ROOT=${XDG_CACHE_HOME:-$HOME/.cache}/eventheader-tracepoint
VENV=${EHK_VENV:-$CACHE_ROOT/venv}
KERNEL=${EHK_KERNEL_IMAGE:-${EHK_SHARED_KERNEL:-$REPO/../shared/kernel}/bzImage-6.12-user-events}
OUT=$REPO/target/bench-vm
[ -r "$KERNEL" ] || { echo "run-in-vm.sh: no kernel at $KERNEL (see tests/kernel/README.md)" >&2; exit 1; }
[ -x "$VENV/bin/vng" ] || { echo "run-in-vm.sh: no virtme-ng in $VENV (run tests/kernel/run.sh once)" >&2; exit 1; }
export PATH="$VENV/bin:$PATH"

bash "$REPO/benches/c/build.sh" "$REPO/target/bench-c"
rm -rf "$OUT"
mkdir -p "$OUT"
KVM=(--disable-kvm)
[ "${EHK_KVM:-0}" != 1 ] || KVM=()
q() { printf '%q ' "$@"; }
extra=
[ $# -eq 0 ] || extra=$(q "$@")
inner="cd $(q "$REPO") && { bash benches/run-callgrind.sh --user-events --no-build --keep $(q "$OUT/callgrind") $extra;"
[ "$WALL" = 0 ] || inner+=" bash benches/run-wallclock.sh --user-events --no-build -n 20000 -r 5;"
inner+=" } > $(q "$OUT/out.txt") 2>&1; echo \$? > $(q "$OUT/rc")"
timeout --kill-after=10 3000 vng "${KVM[@]}" -r "$KERNEL" --cpus 2 --memory 1G --rwdir "$OUT" \
    --exec "$inner" </dev/null >"$OUT/vm.log" 2>&1 || true
cat "$OUT/out.txt" 2>/dev/null || { echo "run-in-vm.sh: the VM produced no output (see $OUT/vm.log)" >&2; exit 1; }
[ "$(cat "$OUT/rc" 2>/dev/null)" = 0 ]
