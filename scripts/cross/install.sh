#!/usr/bin/env bash
# Installs what cross-building and running for other architectures needs, from
# Debian's own packages: Debian's Rust toolchain (rustc-web, cargo-web: the
# rustup toolchain has no standard library for other targets, and none can be
# fetched) with that architecture's libstd-rust-web-dev, the gcc/g++ cross
# compilers, and qemu-user-static. The x86_64 build keeps the rustup toolchain.
#
#   bash scripts/cross/install.sh arm64                 # fails when arm64 cannot be installed
#   bash scripts/cross/install.sh --optional i386 armhf s390x # says why, and goes on
#
# An architecture whose packages do not install (an index that fails to
# download, unmet dependencies) is removed from dpkg's architectures again, so
# that later `apt-get update`s keep working, and apt's reason is written to
# $CROSS_STATE/ARCH.unavailable (scripts/cross/targets.sh) and printed on one
# line. An installed architecture has that file removed. Needs root or sudo.
#
# When Debian offers ARCH's standard library only in another version than the
# installed rustc-web (bookworm main's, while rustc-web comes from
# bookworm-security), or ARCH's security index does not download but its main
# index does, a private toolchain of the standard library's version takes
# rustc-web's place (private_toolchain below): rustc-web, cargo-web and the
# libraries they need, with libstd-rust-web-dev for ARCH, fetched by exact
# version with `apt-get download` and unpacked with `dpkg -x` into
# $CROSS_STATE/rust-VERSION; nothing of it is installed, and ARCH is removed
# from dpkg's architectures again. $CROSS_STATE/ARCH.toolchain names that
# directory for scripts/cross/env.sh.
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
    rm -f "$CROSS_STATE/$1.toolchain"
    failed=1
}

# The packages PKG=VERSION... depend on (first alternatives) that are not
# installed, and theirs, two levels down: what the unpacked toolchain needs
# besides what this machine has. Virtual packages are left out (what provides
# them here is installed). One apt-cache call per level: each takes seconds.
missing_deps() {
    local level d out seen=" "
    for d in "$@"; do seen="$seen${d%%=*} "; done
    local next=("$@")
    for level in 0 1 2; do
        out=$(apt-cache show --no-all-versions "${next[@]}" 2>/dev/null) || true
        if [ "$level" -gt 0 ]; then
            printf '%s\n' "$out" | sed -n 's/^Package: //p' | sort -u
        fi
        [ "$level" -lt 2 ] || break
        next=()
        for d in $(printf '%s\n' "$out" | sed -n 's/^\(Pre-\)\{0,1\}Depends: //p' | tr ',' '\n' \
            | sed 's/|.*//; s/(.*//; s/:any//; s/ //g' | sort -u); do
            case "$seen" in *" $d "*) continue ;; esac
            seen="$seen$d "
            installed "$d" || next+=("$d")
        done
        [ ${#next[@]} -gt 0 ] || break
    done
}

# Unpacks Debian's Rust toolchain VERSION with ARCH's standard library into
# $CROSS_STATE/rust-VERSION, with bin/ wrappers that find its libraries; sets
# why when that fails. Needs ARCH's package index (the caller added ARCH).
private_toolchain() { # ARCH VERSION
    local arch=$1 v=$2 dir="$CROSS_STATE/rust-$2"
    local major libs out dl deb t
    major=$(printf '%s' "$v" | sed 's/^\([0-9]*\.[0-9]*\).*/\1/')
    if ! apt-cache show "rustc-web=$v" >/dev/null 2>&1 || ! apt-cache show "cargo-web=$v" >/dev/null 2>&1; then
        why="Debian offers libstd-rust-web-dev:$arch $v, but no rustc-web and cargo-web $v"
        return
    fi
    local pkgs=()
    if [ ! -x "$dir/usr/bin/rustc" ] || [ ! -x "$dir/usr/bin/cargo" ]; then
        pkgs=("rustc-web=$v" "cargo-web=$v" "libstd-rust-web-dev=$v" "libstd-rust-web-$major=$v")
        mapfile -t -O ${#pkgs[@]} pkgs < <(missing_deps "${pkgs[@]}")
    fi
    ls "$dir/usr/lib/rustlib/$CROSS_RUST_TARGET/lib"/libcore-*.rlib >/dev/null 2>&1 \
        || pkgs+=("libstd-rust-web-dev:$arch=$v")
    if [ ${#pkgs[@]} -gt 0 ]; then
        echo "cross: $arch: private Rust $v toolchain in $dir: apt-get download ${pkgs[*]}"
        dl=$(mktemp -d)
        if ! (cd "$dl" && apt-get download -qq "${pkgs[@]}") >"$log" 2>&1; then
            why="apt-get download: $(reason)"
            rm -rf "$dl"
            return
        fi
        mkdir -p "$dir"
        for deb in "$dl"/*.deb; do dpkg -x "$deb" "$dir"; done
        rm -rf "$dl"
    fi
    # rustc-web has no run path for its own librustc_driver, and the libraries
    # of missing_deps are unpacked beside it.
    t=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || gcc -dumpmachine)
    libs="$dir/usr/lib/$t:$dir/lib/$t"
    mkdir -p "$dir/bin"
    for t in rustc rustdoc; do
        printf '#!/bin/sh\nLD_LIBRARY_PATH=%s${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} exec %s "$@"\n' \
            "$libs" "$dir/usr/bin/$t" >"$dir/bin/$t"
    done
    # The crate's rust-version (Cargo.toml) is the x86_64 code's: asm goto,
    # stable since 1.87, which no other target compiles. Their code builds with
    # this older compiler, so this cargo ignores the crate's rust-version
    # (docs/architectures.md).
    {
        echo '#!/bin/sh'
        printf 'export LD_LIBRARY_PATH=%s${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}\n' "$libs"
        echo 'case "$1" in'
        printf 'build | check | clippy | test | run | rustc | doc) sub=$1; shift; exec %s "$sub" --ignore-rust-version "$@" ;;\n' \
            "$dir/usr/bin/cargo"
        printf '*) exec %s "$@" ;;\n' "$dir/usr/bin/cargo"
        echo 'esac'
    } >"$dir/bin/cargo"
    chmod 755 "$dir/bin/rustc" "$dir/bin/rustdoc" "$dir/bin/cargo"
    if ! out=$("$dir/bin/rustc" --print target-libdir --target "$CROSS_RUST_TARGET" 2>&1) \
        || ! ls "$out"/libcore-*.rlib >/dev/null 2>&1 || ! out=$("$dir/bin/cargo" -V 2>&1); then
        why="the unpacked Rust $v toolchain does not run: $(printf '%s' "$out" | tr '\n' ' ' | cut -c1-300)"
        return
    fi
    printf '%s\n' "$dir" >"$CROSS_STATE/$arch.toolchain"
}

for arch in "$@"; do
    cross_target "$arch" || { echo "cross: unknown architecture $arch" >&2; exit 2; }
    read -r -a tools <<<"$CROSS_PACKAGES"
    tools+=(qemu-user-static)
    pkgs=(rustc-web cargo-web "libstd-rust-web-dev:$arch" "${tools[@]}")
    missing=()
    for p in "${pkgs[@]}"; do installed "$p" || missing+=("$p"); done
    if [ ${#missing[@]} -eq 0 ]; then
        rm -f "$CROSS_STATE/$arch.unavailable" "$CROSS_STATE/$arch.toolchain"
        continue
    fi
    # A private toolchain unpacked by an earlier run, still complete.
    if [ -f "$CROSS_STATE/$arch.toolchain" ]; then
        tools_missing=0
        for p in "${tools[@]}"; do installed "$p" || tools_missing=1; done
        tc=$(cat "$CROSS_STATE/$arch.toolchain")
        if [ "$tools_missing" = 0 ] && libdir=$("$tc/bin/rustc" --print target-libdir \
            --target "$CROSS_RUST_TARGET" 2>/dev/null) && ls "$libdir"/libcore-*.rlib >/dev/null 2>&1; then
            rm -f "$CROSS_STATE/$arch.unavailable"
            continue
        fi
    fi
    added=0
    if ! dpkg --print-foreign-architectures | grep -qx "$arch"; then
        "${sudo_cmd[@]}" dpkg --add-architecture "$arch"
        added=1
    fi
    echo "cross: $arch: apt-get install ${missing[*]}"
    update_why=
    if ! "${sudo_cmd[@]}" "${apt_env[@]}" apt-get update -qq >"$log" 2>&1 \
        || grep -q '^E: ' "$log"; then
        update_why="apt-get update: $(reason)"
    fi
    why=
    private=0
    std=$(candidate "libstd-rust-web-dev:$arch")
    rustc=$(candidate rustc-web)
    if [ -z "$std" ] || [ "$std" = "(none)" ]; then
        why=${update_why:-"Debian offers no libstd-rust-web-dev:$arch"}
    elif [ -z "$update_why" ] && [ "$std" = "$rustc" ]; then
        if ! "${sudo_cmd[@]}" "${apt_env[@]}" apt-get install -y -qq --no-install-recommends \
            "${missing[@]}" >"$log" 2>&1; then
            why="apt-get install: $(reason)"
        fi
    else
        private=1
        if [ -n "$update_why" ]; then
            echo "cross: $arch: $update_why"
        else
            echo "cross: $arch: Debian offers libstd-rust-web-dev:$arch $std, not rustc-web's $rustc"
        fi
        private_toolchain "$arch" "$std"
        if [ -z "$why" ] && ! "${sudo_cmd[@]}" "${apt_env[@]}" apt-get install -y -qq \
            --no-install-recommends "${tools[@]}" >"$log" 2>&1; then
            why="apt-get install: $(reason)"
        fi
    fi
    if [ -n "$why" ] || [ "$private" = 1 ]; then
        if [ "$added" = 1 ]; then
            "${sudo_cmd[@]}" dpkg --remove-architecture "$arch" 2>/dev/null || true
            "${sudo_cmd[@]}" "${apt_env[@]}" apt-get update -qq >/dev/null 2>&1 || true
        fi
    fi
    if [ -n "$why" ]; then
        unavailable "$arch" "$why"
    else
        rm -f "$CROSS_STATE/$arch.unavailable"
        [ "$private" = 1 ] && echo "cross: $arch: Rust $std toolchain: $(cat "$CROSS_STATE/$arch.toolchain")"
        [ "$private" = 1 ] || rm -f "$CROSS_STATE/$arch.toolchain"
    fi
done

if [ "$failed" = 1 ] && [ "$optional" = 0 ]; then
    exit 1
fi
exit 0
