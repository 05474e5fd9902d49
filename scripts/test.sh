#!/usr/bin/env bash
# The whole test suite: formatting, lints, the Rust and C/C++ tests (cargo
# test, with a 30 s stress run), the same C/C++ suites cross-built for aarch64
# under qemu (scripts/cross/test.sh), the 32-bit and big-endian checks
# (scripts/cross/abis.sh), the headers compiled for riscv64, ppc64el and
# mips64el (scripts/cross/headers.sh), sanitizers (ASan+UBSan, TSan, valgrind),
# fuzzing (bounded), then the real-kernel suites in QEMU VMs (x86_64, arm64).
#
# Environment: SKIP_KERNEL=1 skips the VM suites; QUICK=1 skips sanitizers and
# fuzzing and keeps the stress run short; FUZZ_SECONDS (default 30 per target);
# HARDENING_STRESS_SECONDS (default 30, 3 with QUICK=1).
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=lib/steps.sh
source scripts/lib/steps.sh
quick=${QUICK:-0}

step "install what the suite needs, then check that every tool works"
bash scripts/install-deps.sh
bash scripts/preflight.sh

# Tests that need an optional tool or privilege fail instead of skipping.
export REQUIRE_CLANG=1 REQUIRE_VALGRIND=1 REQUIRE_UNSHARE=1 REQUIRE_DOC_TOOLS=1

step "front door: the README's first command from an empty target directory"
bash scripts/front-door.sh

step "docs: every relative link and #anchor in the Markdown files resolves"
bash scripts/check-links.sh

step "cargo fmt --check"
cargo fmt --all -- --check
cargo fmt --manifest-path fuzz/Cargo.toml -- --check

step "cargo clippy"
cargo clippy --workspace --all-targets --locked -- -D warnings

step "cargo test"
stress_default=30
[ "$quick" = 1 ] && stress_default=3
HARDENING_STRESS_SECONDS=${HARDENING_STRESS_SECONDS:-$stress_default} \
    cargo test --workspace --locked

step "aarch64: cargo check of every cfg branch, the C/C++ suites and the install under qemu-aarch64"
bash scripts/cross/test.sh arm64

step "the optimized CLI (cargo profile cli) over damaged recordings"
cargo test --locked --profile cli -p eventheader-cli --test mutation

step "footprint: static-program delta, stripped .so, no panic path"
bash scripts/footprint.sh

step "32-bit and big-endian: i386 (natively), armhf and s390x (qemu), as far as Debian's packages install"
bash scripts/cross/abis.sh i386 armhf s390x

step "the headers on riscv64, ppc64el and mips64el (compiled, no library there)"
bash scripts/cross/headers.sh riscv64 ppc64el mips64el

if [ "$quick" != 1 ]; then
    step "sanitizers (ASan+UBSan, TSan, valgrind memcheck)"
    bash tests/sanitizers.sh

    step "fuzzing (${FUZZ_SECONDS:-30} s per target)"
    bash fuzz/run.sh "${FUZZ_SECONDS:-30}"
fi

if [ "${SKIP_KERNEL:-0}" != 1 ]; then
    step "real-kernel suite (QEMU)"
    bash tests/kernel/run.sh

    step "arm64 real-kernel suite (qemu-system-aarch64)"
    bash tests/kernel/arm64/run.sh
fi
