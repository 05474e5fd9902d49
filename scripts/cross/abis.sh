#!/usr/bin/env bash
# The 32-bit and big-endian checks (docs/architectures.md), for each ARCH that
# scripts/cross/install.sh installed (default: i386 armhf s390x):
#
#   1. the library builds for ARCH, warnings denied (scripts/cross/env.sh's
#      toolchain);
#   2. its struct layouts: tests/abi-layout for ARCH, run under qemu-user
#      (bindgen's view of the headers for ARCH against the Rust types, and,
#      with 4-byte pointers, against the reference's layouts typed in);
#   3. the reference's 374-event suite (tl_test reference: C with gcc, C++
#      with g++; dyn_reference) in capture mode under qemu-user, decoded here
#      by `eventheader decode` and compared with the reference's events by
#      scripts/cross/compare_events.py: the same events, apart from the
#      fields this ABI legitimately changes, with the header flags of ARCH's
#      pointer size and byte order. tests/data/reference has only x86_64's
#      bytes (EventHeaderInterceptorLE64.dat), so this is field by field;
#   4. the same programs, and dyn_reference.cpp (EventHeaderDynamic.h), built
#      again by gcc and clang as C11/gnu11 and C++11/17/20, at -O0 and -O2,
#      warnings denied: their captures are byte-identical to step 3's.
#
#   bash scripts/cross/abis.sh [ARCH...]
#
# An architecture that is not installed gets one line with apt's reason
# ($CROSS_STATE/ARCH.unavailable) and the others still run; the exit status
# is 1 when a check of an installed one fails.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
root=$PWD
[ $# -gt 0 ] || set -- i386 armhf s390x

# The host's decoder, built before cross_env points cargo at another rustc.
cargo build -q --locked -p eventheader-cli
decode=$root/target/debug/eventheader
reference=$root/tests/data/reference/EventHeaderInterceptorLE64.dat
out=$root/target/cross/abis
mkdir -p "$out"
"$decode" decode --jsonl --meta all "$reference" >"$out/reference.jsonl"

. scripts/cross/env.sh
failed=()
for arch in "$@"; do
    echo "== cross: $arch"
    if ! (cross_env "$arch"); then
        (cross_env "$arch" || echo "cross: $arch: not installed: $CROSS_WHY")
        continue
    fi
    # Not `if ! ( ... )`: errexit does not apply in a condition.
    set +e
    (
        set -e
        cross_env "$arch"
        case "$arch" in
        i386 | armhf) abi=ilp32 ;;
        s390x) abi=be64 ;;
        *) echo "cross: $arch: no ABI check for this architecture" >&2; exit 1 ;;
        esac
        dir=$out/$arch
        rm -rf "$dir"
        mkdir -p "$dir"
        # Warnings denied: these are the library's only builds of ARCH's cfg branches.
        "$CROSS_CARGO" rustc -q --locked --lib --target "$CROSS_RUST_TARGET" --target-dir target/cross \
            -- -D warnings
        lib=$root/target/cross/$CROSS_RUST_TARGET/debug
        "$CROSS_CARGO" test -q --locked -p abi-layout --target "$CROSS_RUST_TARGET" --target-dir target/cross

        # The flags the manifest gives these programs (tests/testkit: STRICT,
        # -g), with the library's run path; TL_OTHER_ABI lets tl_test build
        # where long or pointers are not 8 bytes (c-tests/tracelogging/tl_test.h).
        flags=(-Wall -Wextra -Werror -g -I "$root/include" -DTL_OTHER_ABI)
        link=(-L "$lib" "-Wl,-rpath,$lib" -leventheader_tracepoint)
        t=$root/c-tests/tracelogging
        $CROSS_CC -std=c11 "${flags[@]}" -c "$t/tl_c.c" -o "$dir/tl_c.o"
        $CROSS_CC -std=c11 "${flags[@]}" -c "$t/tl_main.c" -o "$dir/tl_main.o"
        $CROSS_CXX -std=c++17 "${flags[@]}" -c "$t/tl_cpp.cpp" -o "$dir/tl_cpp.o"
        $CROSS_CXX "$dir"/tl_c.o "$dir"/tl_main.o "$dir"/tl_cpp.o -o "$dir/tl_test" "${link[@]}"
        $CROSS_CC -std=c11 "${flags[@]}" "$root/c-tests/dynamic/dyn_reference.c" -o "$dir/dyn_reference" "${link[@]}"
        TRACEPOINT_CAPTURE_FILE=$dir/tl.dat $CROSS_RUN "$dir/tl_test" reference
        TRACEPOINT_CAPTURE_FILE=$dir/dyn.dat $CROSS_RUN "$dir/dyn_reference"
        "$decode" decode --jsonl --meta all "$dir/tl.dat" "$dir/dyn.dat" >"$dir/events.jsonl"
        python3 scripts/cross/compare_events.py "$abi" "$out/reference.jsonl" "$dir/events.jsonl" \
            >"$dir/compare.txt" || { cat "$dir/compare.txt"; exit 1; }
        echo "cross: $arch ($abi): $(tail -n 1 "$dir/compare.txt") (each: $dir/compare.txt)"

        # The same programs as the other C and C++ standards, by gcc and
        # clang, optimized and not, warnings denied: one architecture and one
        # library, so their events are byte-identical to the ones above. The
        # optimization level decides how g++ hands the call-site entry's
        # address to its asm statement (docs/architectures.md).
        variants=0
        for v in "gcc c11 c++11 -O2" "gcc gnu11 c++20 -O2" "gcc gnu11 c++11 -O0" \
            "clang c11 c++17 -O2" "clang gnu11 c++20 -O0"; do
            read -r comp cstd xstd opt <<<"$v"
            if [ "$comp" = gcc ]; then
                cc=$CROSS_CC cxx=$CROSS_CXX
            else
                cc=$CROSS_CLANG cxx="clang++ --target=$CROSS_TRIPLE"
            fi
            vd=$dir/$comp-$cstd-$xstd$opt
            mkdir -p "$vd"
            $cc -std="$cstd" "${flags[@]}" "$opt" -c "$t/tl_c.c" -o "$vd/tl_c.o"
            $cc -std="$cstd" "${flags[@]}" "$opt" -c "$t/tl_main.c" -o "$vd/tl_main.o"
            $cxx -std="$xstd" "${flags[@]}" "$opt" -c "$t/tl_cpp.cpp" -o "$vd/tl_cpp.o"
            $CROSS_CXX "$vd"/tl_c.o "$vd"/tl_main.o "$vd"/tl_cpp.o -o "$vd/tl_test" "${link[@]}"
            $cc -std="$cstd" "${flags[@]}" "$opt" -c "$root/c-tests/dynamic/dyn_reference.c" -o "$vd/dyn.o"
            $CROSS_CC "$vd/dyn.o" -o "$vd/dyn_reference" "${link[@]}"
            TRACEPOINT_CAPTURE_FILE=$vd/tl.dat $CROSS_RUN "$vd/tl_test" reference >/dev/null
            TRACEPOINT_CAPTURE_FILE=$vd/dyn.dat $CROSS_RUN "$vd/dyn_reference" >/dev/null
            cmp "$vd/tl.dat" "$dir/tl.dat"
            cmp "$vd/dyn.dat" "$dir/dyn.dat"
            # EventHeaderDynamic.h is C++17's and later.
            if [ "$xstd" != c++11 ]; then
                $cxx -std="$xstd" "${flags[@]}" "$opt" -c "$root/c-tests/dynamic/dyn_reference.cpp" -o "$vd/dyncpp.o"
                $CROSS_CXX "$vd/dyncpp.o" -o "$vd/dyn_reference_cpp" "${link[@]}"
                TRACEPOINT_CAPTURE_FILE=$vd/dyncpp.dat $CROSS_RUN "$vd/dyn_reference_cpp" >/dev/null
                cmp "$vd/dyncpp.dat" "$dir/dyn.dat"
            fi
            variants=$((variants + 1))
        done
        echo "cross: $arch: the same events, byte for byte, from $variants more builds ($CROSS_CC, $CROSS_CLANG; C11, gnu11, C++11, C++17, C++20; -O0 and -O2)"
    )
    rc=$?
    set -e
    [ "$rc" = 0 ] || failed+=("$arch")
done

if [ ${#failed[@]} -gt 0 ]; then
    echo "cross: FAILED: ${failed[*]}"
    exit 1
fi
