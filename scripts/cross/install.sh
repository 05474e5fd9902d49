#!/usr/bin/env bash
# Installs what cross-building and running for other architectures needs, from
# Debian's own packages: Debian's Rust toolchain (rustc-web, cargo-web: the
# rustup toolchain has no standard library for other targets, and none can be
# fetched) with that architecture's libstd-rust-web-dev, the gcc/g++ cross
# compilers, and qemu-user-static. The x86_64 build keeps the rustup toolchain.
#
#   bash scripts/cross/install.sh arm64                 # fails when arm64 cannot be installed
#   bash scripts/cross/install.sh --optional i386 s390x # says why, and goes on
#
# An architecture whose packages do not install (an index that fails to
# download, a standard library of another Rust version than rustc-web's, unmet
# dependencies) is removed from dpkg's architectures again, so that later
# `apt-get update`s keep working, and apt's reason is written to
# $CROSS_STATE/ARCH.unavailable (scripts/cross/targets.sh) and printed on one
# line. An installed architecture has that file removed. Needs root or sudo.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/targets.sh"

optional=0
if [ "${1:-}" = --optional ]; then
    optional=1
    shift
fi
[ $# -gt 0 ] || { echo "usage: $0 [--optional] ARCH..." >&2; exit 2; }

sudo_cmd=()
[ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
apt_env=(env DEBIAN_FRONTEND=noninteractive)
mkdir -p "$CROSS_STATE"
log=$(mktemp)
trap 'rm -f "$log"' EXIT

installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
candidate() { apt-cache policy "$1" 2>/dev/null | awk '/Candidate:/ { print $2 }'; }
# apt's own reason: its error lines, joined on one line.
reason() { grep -E '^(E|W): |Err:|unexpected size|unmet|Depends:' "$log" | tr -s ' \n' ' ' | cut -c1-600; }

failed=0
unavailable() { # ARCH REASON
    echo "cross: $1: not installed: $2"
    printf '%s\n' "$2" >"$CROSS_STATE/$1.unavailable"
    failed=1
}

for arch in "$@"; do
    cross_target "$arch" || { echo "cross: unknown architecture $arch" >&2; exit 2; }
    pkgs=(rustc-web cargo-web "libstd-rust-web-dev:$arch" "gcc-$CROSS_TRIPLE" "g++-$CROSS_TRIPLE" qemu-user-static)
    missing=()
    for p in "${pkgs[@]}"; do installed "$p" || missing+=("$p"); done
    if [ ${#missing[@]} -eq 0 ]; then
        rm -f "$CROSS_STATE/$arch.unavailable"
        continue
    fi
    added=0
    if ! dpkg --print-foreign-architectures | grep -qx "$arch"; then
        "${sudo_cmd[@]}" dpkg --add-architecture "$arch"
        added=1
    fi
    echo "cross: $arch: apt-get install ${missing[*]}"
    if ! "${sudo_cmd[@]}" "${apt_env[@]}" apt-get update -qq >"$log" 2>&1 \
        || grep -q '^E: ' "$log"; then
        why="apt-get update: $(reason)"
    else
        why=
        std=$(candidate "libstd-rust-web-dev:$arch")
        rustc=$(candidate rustc-web)
        if [ -z "$std" ] || [ "$std" = "(none)" ]; then
            why="Debian offers no libstd-rust-web-dev:$arch"
        elif [ "$std" != "$rustc" ]; then
            why="Debian offers libstd-rust-web-dev:$arch $std, not rustc-web's $rustc"
        elif ! "${sudo_cmd[@]}" "${apt_env[@]}" apt-get install -y -qq --no-install-recommends \
            "${missing[@]}" >"$log" 2>&1; then
            why="apt-get install: $(reason)"
        fi
    fi
    if [ -n "$why" ]; then
        if [ "$added" = 1 ]; then
            "${sudo_cmd[@]}" dpkg --remove-architecture "$arch" 2>/dev/null || true
            "${sudo_cmd[@]}" "${apt_env[@]}" apt-get update -qq >/dev/null 2>&1 || true
        fi
        unavailable "$arch" "$why"
    else
        rm -f "$CROSS_STATE/$arch.unavailable"
    fi
done

if [ "$failed" = 1 ] && [ "$optional" = 0 ]; then
    exit 1
fi
exit 0
