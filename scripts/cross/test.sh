#!/usr/bin/env bash
# The suites of one cross architecture (scripts/cross/targets.sh), with the
# toolchain scripts/cross/install.sh installed:
#
#   bash scripts/cross/test.sh arm64
#
# 1. Every cfg branch of the target compiles: `cargo check --workspace
#    --all-targets` for the Rust target with Debian's cargo, warnings denied.
#    (Not clippy: Debian's Rust toolchain has none, and rustup's has no
#    standard library for the target.)
# 2. The library for the target (cargo's dev profile, as the host's tests
#    use), then the C and C++ suites in capture mode under qemu-user: the
#    cargo tests that build and run the manifest's programs, in testkit's
#    cross mode (tests/testkit/src/cross.rs: the target's gcc and
#    clang --target, every program run under qemu, judged as on the host).
#    core, tracelogging (the reference's 374 events byte-identical to
#    tests/data/reference), dynamic, tpp, windows_port, interpose, hardening
#    (bad input, fork, dlopen/dlclose), activities; and install: the CMake
#    cross build (cmake/toolchains/TRIPLE.cmake) installed to a prefix, and
#    samples/cmake-consumer (find_package) and samples/pkgconfig-consumer
#    (pkg-config) built against it, shared and static, run under qemu.
#
# Closes with `TRIPLE capture suites: N passed, M failed` (cargo's test
# counts). Exit status 1 if anything failed. An architecture that is not
# installed fails, except with --optional, where one line says why (apt's
# reason, from install.sh) and the script exits 0.
#
# Environment: CROSS_TARGET_DIR (cargo target directory of the target's
# builds, default target/cross), HARDENING_STRESS_SECONDS (default 3).
set -euo pipefail
cd "$(dirname "$0")/../.."
. scripts/cross/env.sh

optional=0
if [ "${1:-}" = --optional ]; then
    optional=1
    shift
fi
[ $# -eq 1 ] || { echo "usage: $0 [--optional] ARCH" >&2; exit 2; }
arch=$1
if ! cross_env "$arch"; then
    if [ "$optional" = 1 ]; then
        echo "cross: $arch: skipped: $CROSS_WHY"
        exit 0
    fi
    echo "cross: $arch: $CROSS_WHY" >&2
    exit 1
fi
target_dir=${CROSS_TARGET_DIR:-target/cross}
started=$SECONDS

echo "=== $arch: cargo check --workspace --all-targets --target $CROSS_RUST_TARGET (-D warnings)"
RUSTFLAGS="-D warnings" "$CROSS_CARGO" check --locked --workspace --all-targets \
    --target "$CROSS_RUST_TARGET" --target-dir "$target_dir"

echo "=== $arch: the library for $CROSS_RUST_TARGET"
"$CROSS_CARGO" build --locked -p eventheader_tracepoint \
    --target "$CROSS_RUST_TARGET" --target-dir "$target_dir"
lib_dir=$(cd "$target_dir/$CROSS_RUST_TARGET/debug" && pwd)

# The host's cargo runs the tests (its own toolchain: RUSTC from env.sh
# would rebuild the host's target directory with Debian's rustc).
export TESTKIT_TARGET=$CROSS_TRIPLE TESTKIT_RUN=$CROSS_RUN TESTKIT_LIB_DIR=$lib_dir
export REQUIRE_CLANG=1
export HARDENING_STRESS_SECONDS=${HARDENING_STRESS_SECONDS:-3}
passed=0
failed=0
broken=()
suite() { # NAME [TEST FILTER ARGS...]
    local name=$1 log status=0
    shift
    echo "=== $arch: cargo test --test $name $*"
    log=$(mktemp)
    env -u RUSTC -u RUSTDOC cargo test --locked --test "$name" -- "$@" 2>&1 | tee "$log" ||
        status=$?
    local p f
    p=$(sed -n 's/^test result: .* \([0-9]*\) passed; \([0-9]*\) failed.*/\1/p' "$log" |
        awk '{ s += $1 } END { print s + 0 }')
    f=$(sed -n 's/^test result: .* \([0-9]*\) passed; \([0-9]*\) failed.*/\2/p' "$log" |
        awk '{ s += $1 } END { print s + 0 }')
    rm -f "$log"
    passed=$((passed + p))
    failed=$((failed + f))
    if [ "$status" != 0 ] && [ "$f" = 0 ]; then
        # It did not get to its tests (a build failure): one failure.
        failed=$((failed + 1))
    fi
    [ "$status" = 0 ] || broken+=("$name")
}

suite core
suite tracelogging
# The Python sample's tests (python_sample_*) load the library into the host's
# python3 with ctypes, which cannot load the target's library.
suite dynamic --skip python_sample_
suite tpp
suite windows_port
suite interpose
suite hardening
suite install cmake_consumer pkgconfig_consumer_shared pkgconfig_consumer_static \
    installs_headers_libraries_and_package_files

echo "$CROSS_TRIPLE: $((SECONDS - started)) s${broken:+, failed: ${broken[*]}}"
echo "$CROSS_TRIPLE capture suites: $passed passed, $failed failed"
[ "$failed" = 0 ] && [ ${#broken[@]} -eq 0 ]
