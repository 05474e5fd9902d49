#!/usr/bin/env bash
# Sanitizer runs of the C/C++ test programs: every host run of the
# manifest (each suite's programs.toml; `testkit suites` lists them) under
# ASan+UBSan, TSan (the runs with threads) and valgrind memcheck; exits
# non-zero on any report. What each pass does: `testkit sanitize`
# (tests/testkit/src/sanitize.rs).
#
#   bash tests/sanitizers.sh                     # all three passes
#   SAN_PASSES="asan tsan" bash tests/sanitizers.sh
#   bash tests/sanitizers.sh --list              # only list the runs
#
# ASan and TSan run against the library instrumented by rustc too
# (-Zsanitizer, a test-only build with RUSTC_BOOTSTRAP=1 in
# $SAN_OUT/rust-asan and rust-tsan, made by `testkit sanitize`); valgrind
# against the library of `cargo build --release` (target/release), built here
# if missing or stale. Work files go to $SAN_OUT (default target/sanitizers).
# SAN_RUN_TIMEOUT, SAN_STRESS_SECONDS, VG_STRESS_SECONDS, DL_LOOPS and
# VG_DL_LOOPS tune the runs; REQUIRE_CLANG=1 fails instead of using gcc.
set -euo pipefail
cd "$(dirname "$0")/.."
list=
if [ "${1:-}" = --list ]; then
    list=--list
else
    cargo build --release --quiet --lib
fi
cargo build --quiet --locked -p testkit
# shellcheck disable=SC2086
exec target/debug/testkit sanitize $list --lib target/release --out "${SAN_OUT:-target/sanitizers}" \
    ${SAN_PASSES:-asan tsan valgrind}
