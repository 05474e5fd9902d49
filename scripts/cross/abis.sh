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
#      with g++; dyn_reference, in C and C++, the same events; the programs
#      and their builds: scripts/cross/programs.sh) in capture mode under
#      qemu-user, decoded here by `eventheader decode` and compared with the
#      reference's events by
#      scripts/cross/compare_events.py: the same events, apart from the
#      fields this ABI legitimately changes, with the header flags of ARCH's
#      pointer size and byte order. tests/data/reference has only x86_64's
#      bytes (EventHeaderInterceptorLE64.dat), so this is field by field;
#   4. the same programs built again by gcc and clang as C11/gnu11 and
#      C++11/17/20, at -O0 and -O2, warnings denied: their captures are
#      byte-identical to step 3's.
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
. scripts/cross/programs.sh
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

        # Links DIR's objects (scripts/cross/programs.sh) with the library
        # (and its run path) and runs them in capture mode: DIR/tl.dat,
        # DIR/dyn.dat and, where it was built, DIR/dyncpp.dat.
        link=(-L "$lib" "-Wl,-rpath,$lib" -leventheader_tracepoint)
        run_programs() { # DIR
            $CROSS_CXX "$1"/tl_c.o "$1"/tl_main.o "$1"/tl_cpp.o -o "$1/tl_test" "${link[@]}"
            $CROSS_CC "$1/dyn.o" -o "$1/dyn_reference" "${link[@]}"
            TRACEPOINT_CAPTURE_FILE=$1/tl.dat $CROSS_RUN "$1/tl_test" reference
            TRACEPOINT_CAPTURE_FILE=$1/dyn.dat $CROSS_RUN "$1/dyn_reference"
            if [ -f "$1/dyncpp.o" ]; then
                $CROSS_CXX "$1/dyncpp.o" -o "$1/dyn_reference_cpp" "${link[@]}"
                TRACEPOINT_CAPTURE_FILE=$1/dyncpp.dat $CROSS_RUN "$1/dyn_reference_cpp"
            fi
        }
        # -g, as the manifest builds them.
        read -r comp cstd xstd opt <<<"$CROSS_BUILD"
        cross_programs "$CROSS_TRIPLE" "$comp" "$cstd" "$xstd" "$opt" "$dir" -g
        run_programs "$dir"
        cmp "$dir/dyncpp.dat" "$dir/dyn.dat"
        "$decode" decode --jsonl --meta all "$dir/tl.dat" "$dir/dyn.dat" >"$dir/events.jsonl"
        python3 scripts/cross/compare_events.py "$abi" "$out/reference.jsonl" "$dir/events.jsonl" \
            >"$dir/compare.txt" || { cat "$dir/compare.txt"; exit 1; }
        echo "cross: $arch ($abi): $(tail -n 1 "$dir/compare.txt") (each: $dir/compare.txt)"

        # The other builds: one architecture and one library, so their events
        # are byte-identical to the first build's.
        for v in "${CROSS_MORE_BUILDS[@]}"; do
            read -r comp cstd xstd opt <<<"$v"
            vd=$dir/$comp-$cstd-$xstd$opt
            cross_programs "$CROSS_TRIPLE" "$comp" "$cstd" "$xstd" "$opt" "$vd" -g
            run_programs "$vd" >/dev/null
            cmp "$vd/tl.dat" "$dir/tl.dat"
            cmp "$vd/dyn.dat" "$dir/dyn.dat"
            [ ! -f "$vd/dyncpp.o" ] || cmp "$vd/dyncpp.dat" "$dir/dyn.dat"
        done
        echo "cross: $arch: the same events, byte for byte, from ${#CROSS_MORE_BUILDS[@]} more builds ($CROSS_CC, $CROSS_CLANG; C11, gnu11, C++11, C++17, C++20; -O0 and -O2)"
    )
    rc=$?
    set -e
    [ "$rc" = 0 ] || failed+=("$arch")
done

if [ ${#failed[@]} -gt 0 ]; then
    echo "cross: FAILED: ${failed[*]}"
    exit 1
fi
