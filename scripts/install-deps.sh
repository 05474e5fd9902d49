#!/usr/bin/env bash
# Installs everything the build and the whole test suite use, on a Debian
# bookworm machine that has only the base image (Rust, gcc, python3, perf,
# valgrind, ...). Idempotent: installs only what is missing, and prints one
# line per install it performs. Needs root (or sudo) when something is missing.
#
#   bash scripts/install-deps.sh            # everything (build, tests, VM suite)
#   bash scripts/install-deps.sh --build    # only what building and the demo need
#
# What it installs: the packages of scripts/packages.txt (each with the tool it
# provides and what needs it; scripts/preflight.sh checks the same list), by
# their source:
#   apt            missing Debian packages, with --no-install-recommends
#   backports      from bookworm-backports on bookworm: the entry is derived
#                  from the machine's own Debian apt source (same URIs and
#                  keyring, suite bookworm-backports); no host is named here
#   pip            pinned, in the virtualenv $EHK_VENV
#                  (default ~/.cache/eventheader-tracepoint/venv)
#   npm            pinned, in the directory $EHK_NPM
#                  (default ~/.cache/eventheader-tracepoint/npm)
#   cargo          cargo install --locked, when missing
# and then, for cross-building and running:
#   cross          Debian's Rust toolchain with the arm64 standard library, the
#                  aarch64 gcc/g++ cross compilers and qemu-user-static
#                  (scripts/cross/install.sh); as far as Debian's packages
#                  install, the same for i386, armhf and s390x (scripts/cross/abis.sh)
set -euo pipefail
cd "$(dirname "$0")/.."

only_build=0
[ "${1:-}" = --build ] && only_build=1

VENV=${EHK_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/eventheader-tracepoint/venv}
NPM_DIR=${EHK_NPM:-${XDG_CACHE_HOME:-$HOME/.cache}/eventheader-tracepoint/npm}

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

# The list's packages of the groups asked for, by source (deduplicated).
declare -A wanted
apt_packages=() backports_packages=() pip_packages=() npm_packages=() cargo_packages=()
while read -r tool group source pkgs _; do
    case $tool in '' | '#'*) continue ;; esac
    [ "$only_build" = 0 ] || [ "$group" = build ] || continue
    for p in ${pkgs//,/ }; do
        [ -z "${wanted[$source $p]+set}" ] || continue
        wanted[$source $p]=1
        case $source in
        apt) apt_packages+=("$p") ;;
        backports) backports_packages+=("$p") ;;
        pip) pip_packages+=("$p") ;;
        npm) npm_packages+=("$p") ;;
        cargo) cargo_packages+=("$p") ;;
        image) ;;
        *) echo "install-deps: scripts/packages.txt: $tool: unknown source $source" >&2; exit 1 ;;
        esac
    done
done <scripts/packages.txt

apt_install "${apt_packages[@]}"
[ "$only_build" = 0 ] || exit 0

# bookworm-backports, derived from the machine's own Debian source.
codename=$(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}")
backports=()
if [ ${#backports_packages[@]} -gt 0 ] && [ "$codename" = bookworm ]; then
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
apt_install "${backports[@]}" "${backports_packages[@]}"

# pip packages, NAME==VERSION, in the virtualenv: installed unless that
# version's metadata is there (pip writes NAME-VERSION.dist-info with the
# name's "-" as "_").
for spec in "${pip_packages[@]}"; do
    name=${spec%%==*} version=${spec#*==}
    compgen -G "$VENV/lib/python3*/site-packages/${name//-/_}-$version.dist-info" >/dev/null && continue
    echo "install-deps: pip install $spec into $VENV"
    [ -x "$VENV/bin/pip" ] || python3 -m venv "$VENV"
    "$VENV/bin/pip" install -q "$spec"
done

# npm packages, NAME@VERSION, in $NPM_DIR/node_modules: installed unless
# that version's package.json is there.
for spec in "${npm_packages[@]}"; do
    name=${spec%@*} version=${spec##*@}
    grep -qs "\"version\": \"$version\"" "$NPM_DIR/node_modules/$name/package.json" && continue
    echo "install-deps: npm install $spec into $NPM_DIR"
    mkdir -p "$NPM_DIR"
    npm install --prefix "$NPM_DIR" --no-save --no-audit --no-fund --loglevel=error "$spec" >/dev/null
done

# cargo packages (each installs a program of its name), when that program is missing.
for name in "${cargo_packages[@]}"; do
    command -v "$name" >/dev/null && continue
    echo "install-deps: cargo install $name"
    cargo install "$name" --locked --quiet
done

# Cross-building and running for aarch64 (scripts/cross/install.sh).
bash scripts/cross/install.sh arm64
# i386, armhf and s390x: an architecture that does not install says why and is skipped.
bash scripts/cross/install.sh --optional i386 armhf s390x
