#!/usr/bin/env bash
# Builds the C benchmark programs as the test-program manifest describes them
# (benches/c/programs.toml: -std=gnu11 -O2, the strict warning flags):
# bench (the library through the public TraceLogging API), floor (the same
# writev calls, no library), dynamic (runtime-defined events through the C
# and C++ APIs, C++17), exporter (a logs exporter's record as a
# runtime-defined event, C++17) and handles (provider symbol beside provider
# handle).
#
#   benches/c/build.sh [OUT_DIR [LIB_DIR]]
#
# OUT_DIR defaults to <repo>/target/bench-c; LIB_DIR (where
# libeventheader_tracepoint.so is) to <repo>/target/release, which is built
# with `cargo build --release` if LIB_DIR is not given. CC: gcc (default) or
# clang.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
OUT=${1:-$REPO/target/bench-c}
if [ $# -ge 2 ]; then
    LIB=$2
else
    LIB=$REPO/target/release
    cargo build --release --quiet --manifest-path "$REPO/Cargo.toml"
fi
[ -r "$LIB/libeventheader_tracepoint.so" ] || { echo "build.sh: no $LIB/libeventheader_tracepoint.so" >&2; exit 1; }
cargo build --quiet --locked --manifest-path "$REPO/Cargo.toml" -p testkit
"$REPO/target/debug/testkit" build --flavour optimized --toolchain "${CC:-gcc}" --lib "$LIB" --out "$OUT" \
    bench floor dynamic exporter handles
