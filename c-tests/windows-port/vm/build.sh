#!/usr/bin/env bash
# Builds the porting suite (c-tests/windows-port) for the real-kernel run, on
# the host, against the release library: run `cargo build --release` first.
#
#   c-tests/windows-port/vm/build.sh OUT_DIR
#
# OUT_DIR gets the programs (linked with an rpath to target/release, which the
# guest sees at the same path) and OUT_DIR/programs, their names, one per line,
# for guest.sh: wp_gcc_c (C, gcc -std=c11) and wp_gcc_cpp (the same sources as
# C++, g++ -std=c++17), each compiled with only -I include/windows-compat added.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../../.." && pwd)
OUT=${1:?usage: build.sh OUT_DIR}
LIB=$REPO/target/release
[ -r "$LIB/libeventheader_tracepoint.so" ] || {
    echo "build.sh: no $LIB/libeventheader_tracepoint.so (run cargo build --release first)" >&2
    exit 1
}
SRC=("$REPO/c-tests/windows-port/wp_main.c" "$REPO/c-tests/windows-port/wp_helpers.c"
    "$REPO/c-tests/windows-port/wp_harness.c")
mkdir -p "$OUT"

# build NAME COMPILER STD [FLAGS...]
build() {
    local name=$1 compiler=$2 std=$3
    shift 3
    "$compiler" -std="$std" -Wall -Wextra -Werror -g -O2 \
        -I"$REPO/include/windows-compat" -I"$REPO/include" "$@" "${SRC[@]}" -o "$OUT/$name" \
        -L"$LIB" -Wl,--disable-new-dtags,-rpath,"$LIB" -leventheader_tracepoint
}
build wp_gcc_c gcc c11
build wp_gcc_cpp g++ c++17 -x c++
printf '%s\n' wp_gcc_c wp_gcc_cpp >"$OUT/programs"
