#!/usr/bin/env bash
# cargo for the CMake build (CARGO_EXECUTABLE) that links every target binary
# with zig against the stubs of an old glibc, so that what it builds needs at
# most that glibc's symbol versions (scripts/package.sh):
#
#   cmake -S . -B build -DCARGO_EXECUTABLE=$PWD/scripts/package/zig-cargo.sh \
#         -DTRACEPOINT_RUST_TARGET=x86_64-unknown-linux-gnu
#
# `cargo build` becomes `cargo-zigbuild zigbuild`, `cargo rustc` becomes
# `cargo-zigbuild rustc`, and `--target T` becomes `--target T.$ZIG_GLIBC`
# (default 2.17): cargo-zigbuild takes the glibc version from the target's
# suffix and puts the artifacts under T, where CMakeLists.txt looks for them.
# The linker CMakeLists.txt sets for the target (the C compiler) is dropped:
# zig links. Other cargo commands run as they are. Needs cargo-zigbuild and
# the ziglang module (scripts/packages.txt, pip) in $EHK_VENV; cargo is the
# one on PATH, with the rustc of RUSTC when set.
set -euo pipefail
venv=${EHK_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/eventheader-tracepoint/venv}
glibc=${ZIG_GLIBC:-2.17}
# cargo-zigbuild runs `python3 -m ziglang` when there is no zig on PATH.
export PATH="$venv/bin:$PATH"

# compat_object ARGS...: glibc-compat.c compiled by zig for the --target of
# ARGS (kept in the cache, rebuilt when the source is newer).
compat_object() {
    local target="" zig_target o src
    src=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/glibc-compat.c
    while [ $# -gt 0 ]; do
        [ "$1" != --target ] || target=$2
        shift
    done
    case ${target%%-*} in
    x86_64) zig_target=x86_64-linux-gnu ;;
    aarch64) zig_target=aarch64-linux-gnu ;;
    i686) zig_target=x86-linux-gnu ;;
    armv7) zig_target=arm-linux-gnueabihf ;;
    s390x) zig_target=s390x-linux-gnu ;;
    *) echo "zig-cargo.sh: no zig target for ${target:-the host}" >&2; return 1 ;;
    esac
    o=${XDG_CACHE_HOME:-$HOME/.cache}/eventheader-tracepoint/zig-compat/$zig_target.$glibc.o
    if [ ! -f "$o" ] || [ "$src" -nt "$o" ]; then
        mkdir -p "$(dirname "$o")"
        "$venv/bin/python3" -m ziglang cc -target "$zig_target.$glibc" -O2 -fPIC -c "$src" -o "$o.tmp"
        mv "$o.tmp" "$o"
    fi
    echo "$o"
}

[ $# -gt 0 ] || exec cargo
sub=$1
shift
case $sub in
build)
    sub=zigbuild
    # The tool's Rust standard library calls gettid and getrandom, which
    # glibc 2.17 lacks: glibc-compat.c defines them as their system calls.
    compat_o=$(compat_object "$@")
    export RUSTFLAGS="${RUSTFLAGS:+$RUSTFLAGS }-C link-arg=$compat_o"
    ;;
rustc) ;;
*) exec cargo "$sub" "$@" ;;
esac
args=()
while [ $# -gt 0 ]; do
    case $1 in
    --target)
        args+=(--target "$2.$glibc")
        shift 2
        ;;
    --)
        args+=("$@")
        break
        ;;
    *)
        args+=("$1")
        shift
        ;;
    esac
done
for var in $(compgen -e); do
    case $var in CARGO_TARGET_*_LINKER) unset "$var" ;; esac
done
exec "$venv/bin/cargo-zigbuild" "$sub" "${args[@]}"
