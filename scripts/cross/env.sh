# Sourced: sets up cargo, rustc and the C/C++ compilers to build for another
# architecture with the toolchain scripts/cross/install.sh installed.
#
#   . scripts/cross/env.sh
#   cross_env arm64 || echo "arm64: $CROSS_WHY"
#   "$CROSS_CARGO" build --target "$CROSS_RUST_TARGET" ...
#   $CROSS_RUN ./program         # runs a target binary under qemu-user (i386
#                                # on x86_64: natively, see below)
#
# cross_env ARCH exports RUSTC/RUSTDOC (Debian's), the target's linker and
# runner for cargo (CARGO_TARGET_<TRIPLE>_LINKER/_RUNNER), and sets
# CROSS_CARGO, CROSS_CC, CROSS_CXX, CROSS_CLANG (clang --target=...), CROSS_RUN,
# CROSS_SYSROOT. For an architecture install.sh gave a private toolchain
# ($CROSS_STATE/ARCH.toolchain) these are that toolchain's. It returns 1, with the reason in CROSS_WHY, when the
# architecture is not installed.
_cross_here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$_cross_here/targets.sh"

cross_env() {
    CROSS_WHY=
    if ! cross_target "$1"; then
        CROSS_WHY="unknown architecture $1"
        return 1
    fi
    if [ -f "$CROSS_STATE/$1.unavailable" ]; then
        CROSS_WHY=$(cat "$CROSS_STATE/$1.unavailable")
        return 1
    fi
    # Debian's rustc-web, or the private toolchain install.sh unpacked when
    # Debian has no standard library for this architecture in rustc-web's
    # version (its cargo ignores the crate's rust-version: see install.sh).
    local bin=/usr/bin libdir
    if [ -f "$CROSS_STATE/$1.toolchain" ]; then
        bin=$(cat "$CROSS_STATE/$1.toolchain")/bin
    fi
    libdir=$("$bin/rustc" --print target-libdir --target "$CROSS_RUST_TARGET" 2>/dev/null) || libdir=
    if [ -z "$libdir" ] || ! ls "$libdir"/libcore-*.rlib >/dev/null 2>&1; then
        CROSS_WHY="no Rust standard library for $CROSS_RUST_TARGET (bash scripts/cross/install.sh $1)"
        return 1
    fi
    if ! command -v "$CROSS_TRIPLE-gcc" >/dev/null || ! command -v "$CROSS_QEMU" >/dev/null; then
        CROSS_WHY="$CROSS_TRIPLE-gcc or $CROSS_QEMU missing (bash scripts/cross/install.sh $1)"
        return 1
    fi
    local t
    t=$(printf '%s' "$CROSS_RUST_TARGET" | tr 'a-z-' 'A-Z_')
    export RUSTC=$bin/rustc RUSTDOC=$bin/rustdoc
    export "CARGO_TARGET_${t}_LINKER=$CROSS_TRIPLE-gcc"
    CROSS_SYSROOT=/usr/$CROSS_TRIPLE
    # The target's C library at run time: the architecture's own libc6:ARCH
    # when installed (libstd-rust-web-dev:ARCH depends on it; its dynamic
    # loader is /lib/ld-linux-*.so), else the cross compiler's sysroot. Not
    # both: with -L SYSROOT, qemu takes the sysroot's loader, which then finds
    # the multiarch libc.so.6 first, another build of glibc, and the mix
    # spins forever in the first pthread_create.
    if dpkg-query -W -f='${Status}' "libc6:$1" 2>/dev/null | grep -q "install ok installed"; then
        CROSS_RUN=$CROSS_QEMU
    else
        CROSS_RUN="$CROSS_QEMU -L $CROSS_SYSROOT"
    fi
    # i386 on an x86_64 kernel that runs 32-bit programs (IA32 emulation):
    # natively, through the sysroot's dynamic loader. Under qemu-i386 with the
    # sysroot (no libc6:i386 installed), a multi-threaded program (a Rust test
    # binary) hangs in a futex wait.
    if [ "$1" = i386 ] && [ "$(uname -m)" = x86_64 ] \
        && "$CROSS_SYSROOT/lib/ld-linux.so.2" --help >/dev/null 2>&1; then
        CROSS_RUN="$CROSS_SYSROOT/lib/ld-linux.so.2 --library-path $CROSS_SYSROOT/lib"
    fi
    export "CARGO_TARGET_${t}_RUNNER=$CROSS_RUN"
    CROSS_CARGO=$bin/cargo
    CROSS_CC=$CROSS_TRIPLE-gcc
    CROSS_CXX=$CROSS_TRIPLE-g++
    CROSS_CLANG="clang --target=$CROSS_TRIPLE"
    export CROSS_TRIPLE CROSS_RUST_TARGET CROSS_QEMU CROSS_SYSROOT CROSS_RUN CROSS_CARGO CROSS_CC \
        CROSS_CXX CROSS_CLANG
}
