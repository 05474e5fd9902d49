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
OUT=$REPO/target/bench-vm
# shellcheck source=benches/common.sh
. "$REPO/benches/common.sh"
bench_vm_ready run-in-vm.sh

bash "$REPO/benches/c/build.sh" "$REPO/target/bench-c"
q() { printf '%q ' "$@"; }
extra=
[ $# -eq 0 ] || extra=$(q "$@")
inner="cd $(q "$REPO") && bash benches/run-callgrind.sh --user-events --no-build --keep $(q "$OUT/callgrind") $extra"
[ "$WALL" = 0 ] || inner+="; bash benches/run-wallclock.sh --user-events --no-build -n 20000 -r 5"
bench_vm run-in-vm.sh "$OUT" "$inner"
