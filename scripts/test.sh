#!/usr/bin/env bash
# The whole test suite: formatting, lints, the Rust and C/C++ tests (cargo
# test), then the real-kernel suite in a QEMU VM (tests/kernel/run.sh).
# Set SKIP_KERNEL=1 to skip the VM suite.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/install-deps.sh

step() { printf '\n=== %s\n' "$*"; }

step "cargo fmt --check"
cargo fmt --all -- --check

step "cargo clippy"
cargo clippy --all-targets --locked -- -D warnings

step "cargo test"
REQUIRE_CLANG=1 cargo test --locked

if [ "${SKIP_KERNEL:-0}" != 1 ] && [ -x tests/kernel/run.sh ]; then
    step "real-kernel suite (QEMU)"
    tests/kernel/run.sh
fi
