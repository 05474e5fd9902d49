#!/usr/bin/env bash
# Host side of the tracepoint-provider.h real-kernel check: builds the programs
# guest.sh runs against the release library (build it first: cargo build
# --release) into OUT_DIR.
#
#   c-tests/tpp/vm/build.sh OUT_DIR
#
# OUT_DIR gets:
#   tpp_all       the reference data's program (../shared/testdata/reference/tpp),
#                 unchanged: C with gcc, C++ with g++
#   tpp_layouts   c-tests/tpp/layouts.c: the client layouts
#   tpp_custom    c-tests/tpp/custom.c: the TPP_CUSTOM_ kinds in kernel-accepted spellings
#   tpp_multi     c-tests/tpp/multi_*: providers over C and C++ files (run in "plain" mode)
#   uev_raw       tests/kernel/src/uev_raw.c: registers strings with raw ioctls
#   tpp_all.regs, tpp_layouts.regs, tpp_custom.regs   what uev_raw
#                 pre-registers, so perf can attach before the programs start:
#                 the reference's own registration strings (tpp_all.cmd), the
#                 clients' exact strings (layouts.regs), custom.regs; the
#                 programs then register ours, which the kernel must find
#                 identical
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: $0 OUT_DIR" >&2; exit 2; }
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../../.." && pwd)
OUT=$1
LIB=$REPO/target/release
ORACLE=${TPP_REFERENCE_DIR:-$REPO/../shared/testdata/reference/tpp}
[ -e "$LIB/libeventheader_tracepoint.so" ] || { echo "$LIB/libeventheader_tracepoint.so missing: run cargo build --release" >&2; exit 1; }
[ -r "$ORACLE/tpp_all.cmd" ] || { echo "no reference data in $ORACLE" >&2; exit 1; }
mkdir -p "$OUT/obj"
CFLAGS=(-O2 -g -Wall -Wextra -Werror -I"$REPO/include")
LINK=(-L"$LIB" -Wl,-rpath,"$LIB" -leventheader_tracepoint)

gcc -std=gnu11 "${CFLAGS[@]}" -c "$ORACLE/tpp_all_c.c" -o "$OUT/obj/tpp_all_c.o"
gcc -std=gnu11 "${CFLAGS[@]}" -c "$ORACLE/tpp_all_main.c" -o "$OUT/obj/tpp_all_main.o"
g++ -std=c++17 "${CFLAGS[@]}" -c "$ORACLE/tpp_all_cpp.cpp" -o "$OUT/obj/tpp_all_cpp.o"
g++ -o "$OUT/tpp_all" "$OUT/obj/tpp_all_c.o" "$OUT/obj/tpp_all_main.o" "$OUT/obj/tpp_all_cpp.o" "${LINK[@]}"
gcc -std=c11 "${CFLAGS[@]}" -o "$OUT/tpp_layouts" "$REPO/c-tests/tpp/layouts.c" "${LINK[@]}"
gcc -std=c11 "${CFLAGS[@]}" -c "$REPO/c-tests/tpp/multi_a.c" -o "$OUT/obj/multi_a.o"
gcc -std=c11 "${CFLAGS[@]}" -c "$REPO/c-tests/tpp/multi_main.c" -o "$OUT/obj/multi_main.o"
g++ -std=c++17 "${CFLAGS[@]}" -c "$REPO/c-tests/tpp/multi_b.cpp" -o "$OUT/obj/multi_b.o"
g++ -o "$OUT/tpp_multi" "$OUT/obj/multi_a.o" "$OUT/obj/multi_main.o" "$OUT/obj/multi_b.o" "${LINK[@]}"
gcc -std=c11 "${CFLAGS[@]}" -o "$OUT/tpp_custom" "$REPO/c-tests/tpp/custom.c" "${LINK[@]}"
gcc -std=gnu11 -O2 -Wall -Wextra -Werror -o "$OUT/uev_raw" "$REPO/tests/kernel/src/uev_raw.c"

cut -f2 "$ORACLE/tpp_all.cmd" >"$OUT/tpp_all.regs"
grep -v '^#' "$HERE/layouts.regs" >"$OUT/tpp_layouts.regs"
grep -v '^#' "$HERE/custom.regs" >"$OUT/tpp_custom.regs"
echo "built tpp_all, tpp_layouts, tpp_custom, tpp_multi, uev_raw in $OUT"
