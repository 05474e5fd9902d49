#!/usr/bin/env bash
# Builds the Debian packages and release archives of the library and the
# eventheader tool, for each Debian architecture named (default: every
# architecture the cross suites build the library for), into target/packages/:
#
#   bash scripts/package.sh                 # amd64 arm64 i386 armhf
#   bash scripts/package.sh amd64 arm64
#
#   libeventheader-tracepoint1_VERSION_ARCH.deb     the shared library
#   libeventheader-tracepoint-dev_VERSION_ARCH.deb  headers, static library,
#                                                   pkg-config files, CMake packages
#   eventheader_VERSION_ARCH.deb                    the tool, man pages, completions
#   eventheader-tracepoint-VERSION-TRIPLE.tar.gz    the install tree, relocatable
#   SHA256SUMS                                      of every file above
#
# Each architecture: one CMake build (Release) whose cargo steps link with zig
# against glibc 2.17's symbols (scripts/package/zig-cargo.sh); a staging
# `cmake --install --prefix /usr` split into the three packages
# (scripts/package/debian.sh); a second install with lib/ as the library
# directory for the archive. It fails when a packaged binary needs a glibc
# symbol version above 2.17, or the static library calls a function glibc
# 2.17 lacks (scripts/package/glibc.sh), or a packaged binary has no
# PT_GNU_RELRO segment, or lintian reports an error.
# Other architectures than the machine's need scripts/cross/install.sh's
# toolchain (bash scripts/install-deps.sh installs it).
#
# i386 and armhf get the library packages and an archive without the tool:
# the tool's decoder crate (tracepoint_decode 0.5) passes an i64 where libc
# declares time_t, which is 32 bits on those glibc targets, and does not
# compile there ("error[E0308]: mismatched types ... expected `*const i32`,
# found `&i64`" at libc::gmtime_r). libc's 64-bit time_t on them would need
# glibc 2.34's __gmtime64_r, above the 2.17 baseline.
#
# s390x is not in the default list: zig 0.13 (scripts/packages.txt) fails
# to build its compiler-rt for s390x when it links the library ("LLVM
# ERROR: Cannot select: ... i32 = fp_to_fp16 ... In function: __fixhfsi").
# `bash scripts/package.sh s390x` shows it.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
out=$root/target/packages
work=$root/target/pkg
. scripts/cross/env.sh
. scripts/package/glibc.sh
. scripts/package/debian.sh

archs=("$@")
[ ${#archs[@]} -gt 0 ] || archs=(amd64 arm64 i386 armhf)
version=$(sed -n 's/^version *= *"\([0-9.]*\)"$/\1/p' Cargo.toml | head -n 1)
[ -n "$version" ] || { echo "package.sh: no version in Cargo.toml" >&2; exit 1; }
host_arch=$(dpkg --print-architecture)
# Reproducible archives and packages: every file dated by the last commit.
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}
mkdir -p "$out" "$work"

# arch_setup ARCH: sets triple (GNU), rust_target, cpu, bin (binutils prefix)
# and the cmake flags of the architecture's build.
arch_setup() {
    cmake_flags=()
    tool=1
    case $1 in i386 | armhf) tool=0 cmake_flags=(-DEVENTHEADER_BUILD_CLI=OFF) ;; esac
    if [ "$1" = "$host_arch" ]; then
        triple=$(gcc -dumpmachine)
        triple=${triple/-pc-/-}
        triple=${triple/-unknown-/-}
        rust_target=$(rustc -vV | sed -n 's/^host: //p')
        bin=
        return
    fi
    cross_env "$1" || { echo "package.sh: $1: $CROSS_WHY" >&2; return 1; }
    triple=$CROSS_TRIPLE
    rust_target=$CROSS_RUST_TARGET
    bin=$CROSS_TRIPLE-
    local cpu=${CROSS_TRIPLE%%-*}
    [ "$1" != armhf ] || cpu=armv7l
    # The cross suites' toolchain: Debian's rustc/cargo with the target's
    # standard library (cargo from PATH: zig-cargo.sh runs cargo-zigbuild,
    # which runs it).
    PATH=$(dirname "$CROSS_CARGO"):$PATH
    cmake_flags+=(-DCMAKE_SYSTEM_NAME=Linux "-DCMAKE_SYSTEM_PROCESSOR=$cpu"
        "-DCMAKE_C_COMPILER=$CROSS_CC" "-DCMAKE_CROSSCOMPILING_EMULATOR=${CROSS_RUN// /;}"
        "-DTRACEPOINT_RUSTC=$RUSTC")
}

# The debug info is split off with llvm-objcopy: GNU objcopy 2.40, removing
# rustc's allocated .debug_gdb_scripts section from the tool (CMakeLists.txt),
# drops the zig-linked tool's PT_GNU_RELRO (lintian: hardening-no-relro).
objcopy=$(command -v llvm-objcopy) ||
    { echo "package.sh: no llvm-objcopy (apt-get install llvm)" >&2; exit 1; }

# check_relro BINUTILS_PREFIX FILE...: each FILE has a PT_GNU_RELRO segment.
check_relro() {
    local prefix=$1 f
    shift
    for f in "$@"; do
        "${prefix}readelf" -lW "$f" | grep -q '^ *GNU_RELRO ' ||
            { echo "package.sh: $f has no PT_GNU_RELRO segment" >&2; return 1; }
    done
}

# configure BUILD LIBDIR: (re)configures the architecture's build.
configure() {
    nice -n 10 cmake -S "$root" -B "$1" -DCMAKE_BUILD_TYPE=Release "-DCMAKE_OBJCOPY=$objcopy" \
        "-DCARGO_EXECUTABLE=$root/scripts/package/zig-cargo.sh" \
        "-DTRACEPOINT_RUST_TARGET=$rust_target" -DTRACEPOINT_CARGO_FLAGS=--locked \
        "-DCMAKE_INSTALL_LIBDIR=$2" "${cmake_flags[@]}" >"$1.configure.log" 2>&1 ||
        { cat "$1.configure.log" >&2; return 1; }
}

package_arch() {
    local arch=$1
    (
        arch_setup "$arch"
        local multiarch build=$work/$arch/build
        multiarch=$(dpkg-architecture -a"$arch" -qDEB_HOST_MULTIARCH 2>/dev/null)
        mkdir -p "$work/$arch"
        echo "== $arch ($triple, Rust $rust_target)"

        configure "$build" "lib/$multiarch"
        nice -n 10 cmake --build "$build" >"$build.log" 2>&1 || { tail -n 40 "$build.log" >&2; exit 1; }

        # The packages: the install tree under /usr.
        local tree=$work/$arch/usr-tree
        rm -rf "$tree"
        DESTDIR=$tree cmake --install "$build" --prefix /usr >/dev/null
        local bins=()
        if [ "$tool" = 1 ]; then
            "${bin}strip" --strip-all --remove-section=.comment --remove-section=.note "$tree/usr/bin/eventheader"
            bins=("$tree/usr/bin/eventheader")
        fi
        check_glibc "$arch" "$bin" "$tree/usr/lib/$multiarch/libeventheader_tracepoint.so.$version" "${bins[@]}"
        check_relro "$bin" "$tree/usr/lib/$multiarch/libeventheader_tracepoint.so.$version" "${bins[@]}"
        check_static_glibc "$arch" "$tree/usr/lib/$multiarch/libeventheader_tracepoint.a" "$work/$arch"
        debian_packages "$arch" "$multiarch" "$version" "$tree" "$work/$arch/deb" "$out"

        # The archive: the install tree under any prefix, lib/ as library
        # directory, pkg-config files whose prefix is where they are.
        local name=eventheader-tracepoint-$version-$triple
        local atree=$work/$arch/archive/$name
        configure "$build" lib
        rm -rf "$work/$arch/archive"
        cmake --install "$build" --prefix "$atree" >/dev/null
        [ "$tool" = 0 ] || "${bin}strip" --strip-all --remove-section=.comment --remove-section=.note "$atree/bin/eventheader"
        sed -i 's|^prefix=.*|prefix=${pcfiledir}/../..|' "$atree"/lib/pkgconfig/*.pc
        tar -C "$work/$arch/archive" --sort=name --owner=0 --group=0 --numeric-owner \
            --mtime="@$SOURCE_DATE_EPOCH" -cf - "$name" | gzip -9n >"$out/$name.tar.gz"
        echo "$arch: $out/$name.tar.gz"
    )
}

for arch in "${archs[@]}"; do
    package_arch "$arch"
done

(cd "$out" && rm -f SHA256SUMS && sha256sum -- *.deb *.tar.gz >SHA256SUMS.new && mv SHA256SUMS.new SHA256SUMS)
echo "package.sh: $out:"
(cd "$out" && ls -l --time-style=+ -- *.deb *.tar.gz SHA256SUMS | awk '{print $5, $NF}')
