#!/usr/bin/env bash
# Checks, before the suite starts, that every tool it needs actually works,
# and names the missing package in one line per problem (install them all
# with `bash scripts/install-deps.sh`), and that the disk has room for the
# build. Exits 1 if anything is missing.
#
#   bash scripts/preflight.sh            # what scripts/test.sh needs
#   SKIP_KERNEL=1 QUICK=1 bash scripts/preflight.sh   # without the VM / fuzz / sanitizer tools
#
# The packages come from scripts/packages.txt, the list install-deps.sh
# installs: each check below names its tool there, and the check fails when
# the list has no line for it (install-deps.sh would not install it) or a
# line of the list has no check here. The list's group of a tool decides
# whether QUICK=1 (group full) or SKIP_KERNEL=1 (group kernel) skips it.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
problems=0
problem() {
    printf 'preflight: %s\n' "$*" >&2
    problems=$((problems + 1))
}

declare -A group source packages
while read -r tool grp src pkgs _; do
    case $tool in '' | '#'*) continue ;; esac
    [ -z "${group[$tool]+set}" ] || problem "scripts/packages.txt lists $tool twice"
    group[$tool]=$grp source[$tool]=$src packages[$tool]=${pkgs//,/ }
done <"$here/packages.txt"

checked=" "
# need TOOL COMMAND...: TOOL works when COMMAND succeeds.
need() {
    local tool=$1
    shift
    checked="$checked$tool "
    if [ -z "${group[$tool]+set}" ]; then
        problem "$tool has no line in scripts/packages.txt: install-deps.sh does not install it"
        return
    fi
    case ${group[$tool]} in
    full) [ "${QUICK:-0}" = 1 ] && return ;;
    kernel) [ "${SKIP_KERNEL:-0}" = 1 ] && return ;;
    esac
    "$@" >"$tmp/log" 2>&1 && return
    case ${source[$tool]} in
    image) problem "$tool does not work: ${packages[$tool]} belongs to the base image" ;;
    *) problem "$tool does not work: install ${packages[$tool]} (${source[$tool]}; bash scripts/install-deps.sh)" ;;
    esac
}

printf 'int main(void) { return 0; }\n' >"$tmp/t.c"
printf '#include <vector>\nint main() { std::vector<int> v(1); return v[0]; }\n' >"$tmp/t.cpp"
venv=${EHK_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/eventheader-tracepoint/venv}
npm_dir=${EHK_NPM:-${XDG_CACHE_HOME:-$HOME/.cache}/eventheader-tracepoint/npm}
# bindgen (the ABI layout test) loads libclang at run time.
has_libclang() {
    compgen -G '/usr/lib/llvm-*/lib/libclang.so' || compgen -G '/usr/lib/*/libclang-*.so'
}

need gcc gcc "$tmp/t.c" -o "$tmp/a"
need g++ g++ "$tmp/t.cpp" -o "$tmp/b"
need make make --version
need cmake cmake --version
need pkg-config pkg-config --version
need python3 python3 --version
need cargo cargo --version
need clang clang "$tmp/t.c" -o "$tmp/c"
need clang++ clang++ "$tmp/t.cpp" -o "$tmp/d"
need ld.lld gcc -fuse-ld=lld "$tmp/t.c" -o "$tmp/l"
need riscv64-linux-gnu-g++ riscv64-linux-gnu-g++ -c "$tmp/t.cpp" -o "$tmp/r.o"
need powerpc64le-linux-gnu-g++ powerpc64le-linux-gnu-g++ -c "$tmp/t.cpp" -o "$tmp/p.o"
need mips64el-linux-gnuabi64-g++ mips64el-linux-gnuabi64-g++ -c "$tmp/t.cpp" -o "$tmp/m.o"
need libclang has_libclang
need python3-venv python3 -c 'import venv, ensurepip'
need valgrind valgrind --version
need unshare unshare --version
need man man --version
need groff groff --version
need zsh zsh --version
need fish fish --version
need strace strace -V
need npm npm --version
need chromium chromium --version
need speedscope test -f "$npm_dir/node_modules/speedscope/dist/release/index.html"
need dpkg-shlibdeps dpkg-shlibdeps --version
need lintian lintian --version
need llvm-objcopy llvm-objcopy --version
need mmdebstrap mmdebstrap --version
need arch-test arch-test "$(dpkg --print-architecture)"
need zig "$venv/bin/python3" -m ziglang version
need cargo-zigbuild "$venv/bin/cargo-zigbuild" --version
need conan "$venv/bin/conan" --version
need lychee "$venv/bin/lychee" --version
need sanitizers clang -fsanitize=address,undefined "$tmp/t.c" -o "$tmp/e"
need tsan clang -fsanitize=thread "$tmp/t.c" -o "$tmp/f"
need cargo-fuzz cargo fuzz --version
need perf perf --version
need qemu-system-x86_64 qemu-system-x86_64 --version
need vng "$venv/bin/vng" --version
need setpriv setpriv --version
need taskset taskset --version
need qemu-system-aarch64 qemu-system-aarch64 --version
need cpio cpio --version
need arm-linux-gnueabihf-gcc arm-linux-gnueabihf-gcc -static "$tmp/t.c" -o "$tmp/g"

# Disk space, before anything is built: a run of scripts/test.sh leaves about
# 7 GB in target/ and fuzz/target/ (6.3 and 0.6 GB measured), and the front
# door builds in an empty directory under $TMPDIR (0.5 GB). Without the
# room, the suite would fail later with rustc's "No space left on device".
need_space() { # DIR GB WHAT
    local avail
    avail=$(df -Pk "$1" | awk 'NR == 2 { print int($4 / 1048576) }')
    [ "$avail" -ge "$2" ] \
        || problem "$avail GB free on the file system of $1; the suite needs about $2 GB there ($3)"
}
need_space "$(dirname "$here")" 9 "target/ and fuzz/target/ grow to about 7 GB"
need_space "${TMPDIR:-/tmp}" 1 "the front door's empty target directory"

for tool in "${!group[@]}"; do
    case $checked in *" $tool "*) ;; *) problem "scripts/packages.txt lists $tool, which scripts/preflight.sh does not check" ;; esac
done

if [ "$problems" -ne 0 ]; then
    echo "preflight: $problems problem(s); nothing was run" >&2
    exit 1
fi
echo "preflight: all tools work"
