#!/usr/bin/env bash
# The public headers on architectures CI builds no library for
# (docs/architectures.md): riscv64 (Debian has no Rust standard library for
# it), ppc64el and mips64el (stable Rust has no inline assembly there, which
# the library's tracepoint layer needs). Their C and C++ users still include
# the headers, so the programs of the 32-bit and big-endian checks
# (scripts/cross/abis.sh: the reference's 374 events, runtime-defined events
# in C and C++) are compiled, not linked, by each architecture's gcc/g++ and by
# clang --target, as C11/gnu11 and C++11/17/20, at -O0 and -O2, warnings
# denied: the builds of scripts/cross/programs.sh, and gcc's other code
# models (models_of below). Then every object's
# call-site list (the section _tlgSites, which TraceLoggingRegister walks)
# must hold pointer-sized absolute relocations, each to a symbol the object
# defines: g++'s entries are written by an asm statement whose operand the
# architecture's constraint and modifier must print as that symbol (a
# register name there would assemble into an undefined symbol).
#
#   bash scripts/cross/headers.sh [ARCH...]    # default: riscv64 ppc64el mips64el
#
# The compilers come from scripts/packages.txt (install-deps.sh installs them,
# preflight.sh checks them). Exit status 1 when a build or a check fails.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
root=$PWD
[ $# -gt 0 ] || set -- riscv64 ppc64el mips64el

triple_of() {
    case "$1" in
    riscv64) echo riscv64-linux-gnu ;;
    ppc64el) echo powerpc64le-linux-gnu ;;
    mips64el) echo mips64el-linux-gnuabi64 ;;
    *) return 1 ;;
    esac
}
# The relocation that makes an 8-byte absolute address on each of them.
reloc_of() {
    case "$1" in
    riscv64) echo R_RISCV_64 ;;
    ppc64el) echo R_PPC64_ADDR64 ;;
    mips64el) echo R_MIPS_64 ;;
    esac
}

# The code models of each architecture's gcc beyond its default (riscv64:
# medany; ppc64el: medium; mips64el: the small GOT), built once more each, at
# -O0 and -O2: the call-site entry must print a bare symbol in every one.
models_of() {
    case "$1" in
    riscv64) echo "-mcmodel=medlow" ;;
    ppc64el) echo "-mcmodel=small -mcmodel=large" ;;
    mips64el) echo "-mxgot" ;;
    esac
}

. scripts/cross/programs.sh
out=$root/target/cross/headers
failed=()
for arch in "$@"; do
    triple=$(triple_of "$arch") || { echo "headers: unknown architecture $arch" >&2; exit 2; }
    reloc=$(reloc_of "$arch")
    models=$(models_of "$arch")
    echo "== headers: $arch ($triple)"
    set +e
    (
        set -e
        objects=0 entries=0
        builds=("$CROSS_BUILD" "${CROSS_MORE_BUILDS[@]}")
        for model in $(models_of "$arch"); do
            builds+=("gcc c11 c++17 -O0 $model" "gcc gnu11 c++11 -O2 $model")
        done
        for v in "${builds[@]}"; do
            read -r comp cstd xstd opt model <<<"$v"
            dir=$out/$arch/$comp-$cstd-$xstd$opt$model
            rm -rf "$dir"
            # PIC code, as Debian's gcc builds by default (clang 14 does not):
            # the code in which an asm operand may not be a plain immediate.
            cross_programs "$triple" "$comp" "$cstd" "$xstd" "$opt" "$dir" -fPIE $model
            objects=$((objects + $(find "$dir" -name '*.o' | wc -l)))
            # tl_main.o and the runtime-defined events hold no call sites.
            for o in "$dir/tl_c.o" "$dir/tl_cpp.o"; do
                # The symbols the object defines, and the relocations of its
                # call-site list: OFFSET INFO TYPE VALUE SYMBOL[+ADDEND].
                defined=" $(nm --defined-only "$o" | awk '{ print $3 }' | tr '\n' ' ') "
                relocs=$(readelf -rW "$o" | awk '/^Relocation section .*_tlgSites/ { on = 1; next }
                    /^Relocation section/ { on = 0 } on && /^[0-9a-f]+ / { print $3, $5 }')
                n=0
                while read -r type sym; do
                    [ -n "$type" ] || continue
                    sym=${sym%%+*}
                    case "$type" in "$reloc" | "$reloc/"*) ;; *)
                        echo "headers: $o: a _tlgSites entry with relocation $type, not $reloc" >&2; exit 1 ;;
                    esac
                    case "$sym" in .*) ;; *)
                        case "$defined" in *" $sym "*) ;; *)
                            echo "headers: $o: a _tlgSites entry names $sym, which the object does not define" >&2
                            exit 1 ;;
                        esac ;;
                    esac
                    n=$((n + 1))
                done <<<"$relocs"
                [ "$n" -gt 0 ] || { echo "headers: $o: no _tlgSites entry" >&2; exit 1; }
                entries=$((entries + n))
            done
        done
        echo "headers: $arch: $objects objects compiled (also with ${models:-no other code model}), warnings denied; $entries call-site entries, each an $reloc of a symbol its object defines"
    )
    rc=$?
    set -e
    [ "$rc" = 0 ] || failed+=("$arch")
done

if [ ${#failed[@]} -gt 0 ]; then
    echo "headers: FAILED: ${failed[*]}"
    exit 1
fi
