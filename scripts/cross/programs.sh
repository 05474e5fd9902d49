# The C and C++ programs the cross checks build for another architecture
# (scripts/cross/abis.sh links and runs them, scripts/cross/headers.sh checks
# their objects), and the builds they make of them. Sourced.
#
#   cross_programs TRIPLE COMPILER CSTD CXXSTD OPT DIR [FLAG...]
#       compiles into DIR, with TRIPLE's gcc/g++ (COMPILER gcc) or clang
#       --target=TRIPLE (COMPILER clang), as CSTD and CXXSTD at OPT:
#       tl_c.o, tl_main.o, tl_cpp.o (c-tests/tracelogging: the reference's
#       374 events), dyn.o (c-tests/dynamic/dyn_reference.c) and, C++17 and
#       later (EventHeaderDynamic.h's), dyncpp.o (dyn_reference.cpp).
#       Warnings denied, as the manifest builds them (tests/testkit: STRICT);
#       TL_OTHER_ABI lets tl_test build where long or pointers are not 8
#       bytes (c-tests/tracelogging/tl_test.h).
#
# CROSS_BUILD is the first build, CROSS_MORE_BUILDS the others (COMPILER CSTD
# CXXSTD OPT each): every C and C++ standard, by gcc and clang, optimized and
# not. The optimization level decides how g++ hands the call-site entry's
# address to its asm statement (docs/architectures.md).
CROSS_BUILD="gcc c11 c++17 -O0"
CROSS_MORE_BUILDS=(
    "gcc c11 c++11 -O0" "gcc c11 c++11 -O2" "gcc gnu11 c++11 -O0" "gcc gnu11 c++17 -O2"
    "gcc c11 c++20 -O2" "gcc gnu11 c++20 -O2" "clang c11 c++17 -O2" "clang gnu11 c++20 -O0"
)

cross_programs() {
    local triple=$1 comp=$2 cstd=$3 xstd=$4 opt=$5 dir=$6
    shift 6
    local root cc cxx
    root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
    if [ "$comp" = gcc ]; then
        cc=$triple-gcc cxx=$triple-g++
    else
        cc="clang --target=$triple" cxx="clang++ --target=$triple"
    fi
    local flags=(-Wall -Wextra -Werror -I "$root/include" -DTL_OTHER_ABI "$opt" "$@")
    local t=$root/c-tests/tracelogging d=$root/c-tests/dynamic
    mkdir -p "$dir"
    $cc -std="$cstd" "${flags[@]}" -c "$t/tl_c.c" -o "$dir/tl_c.o"
    $cc -std="$cstd" "${flags[@]}" -c "$t/tl_main.c" -o "$dir/tl_main.o"
    $cxx -std="$xstd" "${flags[@]}" -c "$t/tl_cpp.cpp" -o "$dir/tl_cpp.o"
    $cc -std="$cstd" "${flags[@]}" -c "$d/dyn_reference.c" -o "$dir/dyn.o"
    if [ "$xstd" != c++11 ]; then
        $cxx -std="$xstd" "${flags[@]}" -c "$d/dyn_reference.cpp" -o "$dir/dyncpp.o"
    fi
}
