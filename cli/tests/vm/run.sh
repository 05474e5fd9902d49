#!/usr/bin/env bash
# Builds the CLI's real-kernel checks, runs them in a user_events VM and judges
# the results on the host: build.sh, guest.sh in the VM, then
# `cargo test --test vm_results` with EVENTHEADER_VM_RESULTS set.
#
#   cli/tests/vm/run.sh [OUT_DIR]      (default: cli/target/vm)
#
# Environment: EHK_KERNEL_IMAGE (default ../shared/kernel/bzImage-6.12-user-events),
# EHK_VENV (virtme-ng's virtualenv, default ~/.cache/eventheader-tracepoint/venv),
# EHK_KVM=1 to use KVM (default: TCG).
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CLI=$(cd "$HERE/../.." && pwd)
REPO=$(cd "$CLI/.." && pwd)
OUT=$(mkdir -p "${1:-$CLI/target/vm}" && cd "${1:-$CLI/target/vm}" && pwd)
KERNEL=${EHK_KERNEL_IMAGE:-$REPO/../shared/kernel/bzImage-6.12-user-events}
VENV=${EHK_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/eventheader-tracepoint/venv}
[ -r "$KERNEL" ] || { echo "run.sh: no kernel image at $KERNEL (set EHK_KERNEL_IMAGE)" >&2; exit 1; }
[ -x "$VENV/bin/vng" ] || { echo "run.sh: no virtme-ng at $VENV/bin/vng (set EHK_VENV; tests/kernel/run.sh installs it)" >&2; exit 1; }
export PATH="$VENV/bin:$PATH"
kvm=(--disable-kvm)
[ "${EHK_KVM:-0}" = 1 ] && kvm=()

bash "$HERE/build.sh" "$OUT/bin"
rm -rf "$OUT/results"
mkdir -p "$OUT/results"
# The results directory is /mnt in the guest (virtme-ng overlays /tmp, /home, ...).
t0=$(date +%s)
timeout --kill-after=10 900 vng "${kvm[@]}" -r "$KERNEL" --cpus 2 --memory 1G \
    --rwdir "/mnt=$OUT/results" \
    --exec "bash '$HERE/guest.sh' '$OUT/bin' /mnt > /mnt/guest.log 2>&1" </dev/null >"$OUT/vm.log" 2>&1 || true
echo "run.sh: VM run $(($(date +%s) - t0)) s; results in $OUT/results"
[ -e "$OUT/results/done" ] || { echo "run.sh: the guest did not finish (see $OUT/vm.log, $OUT/results/guest.log)" >&2; exit 1; }
EVENTHEADER_VM_RESULTS="$OUT/results" cargo test --quiet --manifest-path "$CLI/Cargo.toml" --test vm_results -- --nocapture
