#!/usr/bin/env bash
# Tests the Debian packages of scripts/package.sh in a clean Debian root that
# has no Rust: installs them with apt-get, builds a C and a C++ consumer with
# the root's gcc/g++ through find_package and through pkg-config, runs each
# in capture mode, decodes the capture with the packaged eventheader, then
# purges the packages and checks that no file of theirs is left.
#
#   bash scripts/package/clean-root.sh [SUITE [ARCH]]   # default: bookworm amd64
#
# The root: mmdebstrap from Debian's packages (the mirror is the machine's
# own Debian apt source, as scripts/apt-backports.py derives it), cached as a
# tarball under ~/.cache/eventheader-tracepoint/roots/ and rebuilt when its
# package list ($ROOT_PACKAGES below) changes. Another architecture than the
# machine's runs under qemu-user through qemu-user-static's binfmt entry,
# which this script registers when the kernel has none (binfmt_misc mounted
# on /proc/sys/fs/binfmt_misc, the entry of /usr/lib/binfmt.d/qemu-CPU.conf
# written to its register file: flag F opens the interpreter at once, so it
# also runs inside the chroot); it fails, saying why, when it cannot.
# Needs root (chroot) and target/packages/*_ARCH.deb (bash scripts/package.sh ARCH).
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
suite=${1:-bookworm}
arch=${2:-$(dpkg --print-architecture)}
version=$(sed -n 's/^version *= *"\([0-9.]*\)"$/\1/p' Cargo.toml | head -n 1)
ROOT_PACKAGES="gcc g++ libc6-dev cmake make pkg-config"
# mmdebstrap's options besides the package list: apt and the essential
# packages, and no manuals, translations or documentation in the packages it
# installs (less to unpack, which under qemu-user is most of the time); the
# customize hook removes that dpkg setting again, so that the packages under
# test install and purge every file of theirs.
ROOT_OPTIONS=(--variant=apt
    "--dpkgopt=path-exclude=/usr/share/man/*" "--dpkgopt=path-exclude=/usr/share/locale/*"
    "--dpkgopt=path-exclude=/usr/share/info/*" "--dpkgopt=path-exclude=/usr/share/doc/*"
    "--dpkgopt=path-include=/usr/share/doc/*/copyright"
    "--customize-hook=rm \"\$1/etc/dpkg/dpkg.cfg.d/99mmdebstrap\"")
cache=${EHK_ROOT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/eventheader-tracepoint/roots}
debs=()
for p in libeventheader-tracepoint1 libeventheader-tracepoint-dev eventheader; do
    d=$root/target/packages/${p}_${version}_$arch.deb
    [ -f "$d" ] || { echo "clean-root.sh: $d missing: bash scripts/package.sh $arch" >&2; exit 1; }
    debs+=("$d")
done

triple=$(dpkg-architecture -a"$arch" -qDEB_HOST_GNU_TYPE 2>/dev/null)
archive=$root/target/packages/eventheader-tracepoint-$version-$triple.tar.gz
[ -f "$archive" ] || { echo "clean-root.sh: $archive missing: bash scripts/package.sh $arch" >&2; exit 1; }

# binfmt ARCH: the kernel runs ARCH's programs, natively or through
# qemu-user-static.
binfmt() {
    local cpu dir=/proc/sys/fs/binfmt_misc conf why
    case $1 in
    "$(dpkg --print-architecture)") return 0 ;;
    i386) [ "$(uname -m)" != x86_64 ] || return 0; cpu=i386 ;;
    arm64) cpu=aarch64 ;;
    armhf) cpu=arm ;;
    *) cpu=$1 ;;
    esac
    why="clean-root.sh: $1 programs need qemu-user-static's binfmt entry qemu-$cpu"
    conf=/usr/lib/binfmt.d/qemu-$cpu.conf
    [ -f "$conf" ] || { echo "$why: no $conf (apt-get install qemu-user-static)" >&2; return 1; }
    if [ ! -e "$dir/register" ]; then
        mount -t binfmt_misc binfmt_misc "$dir" ||
            { echo "$why: mount -t binfmt_misc binfmt_misc $dir failed" >&2; return 1; }
    fi
    if [ ! -e "$dir/qemu-$cpu" ]; then
        echo "clean-root.sh: registering $conf in $dir"
        grep -v '^#' "$conf" >"$dir/register" ||
            { echo "$why: writing $conf to $dir/register failed" >&2; return 1; }
    fi
    [ "$(head -n 1 "$dir/qemu-$cpu")" = enabled ] || echo 1 >"$dir/qemu-$cpu" ||
        { echo "$why: $dir/qemu-$cpu is disabled and cannot be enabled" >&2; return 1; }
    grep -q '^flags:.*F' "$dir/qemu-$cpu" ||
        { echo "$why: $dir/qemu-$cpu lacks flag F (its interpreter is not found inside a chroot)" >&2; return 1; }
}
binfmt "$arch"

# The cached root, keyed by suite, architecture, package list and options.
key=$(printf '%s %s %s %s\n' "$suite" "$arch" "$ROOT_PACKAGES" "${ROOT_OPTIONS[*]}" | sha256sum | cut -c1-16)
tarball=$cache/$suite-$arch-$key.tar
if [ ! -f "$tarball" ]; then
    mirror=$(python3 scripts/apt-backports.py "$suite" | sed -n 's/^URIs: *//p' | awk '{ print $1 }' || true)
    # A suite the machine has no entry for: the mirror of its own release.
    [ -n "$mirror" ] || mirror=$(python3 scripts/apt-backports.py "$(. /etc/os-release && echo "$VERSION_CODENAME")" | sed -n 's/^URIs: *//p' | awk '{ print $1 }' || true)
    [ -n "$mirror" ] || { echo "clean-root.sh: no Debian apt source on this machine" >&2; exit 1; }
    mkdir -p "$cache"
    rm -f "$cache/$suite-$arch-"*.tar
    echo "clean-root.sh: making the $suite $arch root ($ROOT_PACKAGES)"
    made=$SECONDS
    mmdebstrap --quiet --format=tar "${ROOT_OPTIONS[@]}" --architectures="$arch" \
        --include="${ROOT_PACKAGES// /,}" "$suite" "$tarball.tmp" "$mirror"
    mv "$tarball.tmp" "$tarball"
    echo "clean-root.sh: the $suite $arch root made in $((SECONDS - made)) s: $tarball"
fi
tested=$SECONDS

work=$(mktemp -d "${TMPDIR:-/tmp}/clean-root.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir "$work/root"
tar -C "$work/root" -xf "$tarball"
mkdir -p "$work/root/test"
cp "${debs[@]}" "$archive" "$work/root/test/"
cp scripts/package/clean-root-test.sh "$work/root/test/"

# In a mount namespace of its own: /proc and /dev for the root go away with it.
unshare -m sh -c '
    mount -t proc proc "$1/proc" && mount --rbind /dev "$1/dev" &&
    exec chroot "$1" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LC_ALL=C.UTF-8 \
        sh /test/clean-root-test.sh "$2"' sh "$work/root" "$version"
echo "clean-root.sh: $suite $arch: passed (the test in the root: $((SECONDS - tested)) s)"
