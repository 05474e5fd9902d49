#!/usr/bin/env bash
# Builds the C benchmark programs: bench (the library through the public
# TraceLogging API), floor (the same writev calls, no library) and handles
# (provider symbol beside provider handle).
#
#   benches/c/build.sh [OUT_DIR [LIB_DIR]]
#
# OUT_DIR defaults to <repo>/target/bench-c; LIB_DIR (where
# libeventheader_tracepoint.so is) to <repo>/target/release, which is built
# with `cargo build --release` if LIB_DIR is not given. CC defaults to gcc.
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
CC=${CC:-gcc}
CFLAGS=(-std=gnu11 -O2 -g -Wall -Wextra -Werror)
mkdir -p "$OUT"
"$CC" "${CFLAGS[@]}" -I"$REPO/include" -o "$OUT/bench" "$HERE/bench.c" \
    -L"$LIB" -Wl,-rpath,"$LIB" -leventheader_tracepoint
"$CC" "${CFLAGS[@]}" -o "$OUT/floor" "$HERE/floor.c"
"$CC" "${CFLAGS[@]}" -I"$REPO/include" -o "$OUT/handles" "$HERE/handles.c" \
    -L"$LIB" -Wl,-rpath,"$LIB" -leventheader_tracepoint
