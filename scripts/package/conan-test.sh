#!/usr/bin/env bash
# Tests the Conan recipe (conanfile.py) offline: a Conan home of its own in a
# temporary directory with no remote, `conan profile detect`, `conan create`
# of the recipe for each of shared=False and shared=True, then a consumer
# with a C and a C++ program built by CMake through CMakeDeps and
# CMakeToolchain (find_package(eventheader-tracepoint), the targets
# eventheader-tracepoint and tracepoint), each run in capture mode and the
# capture decoded by the workspace's eventheader (cargo run).
#
#   bash scripts/package/conan-test.sh [static|shared ...]   # default: both
#
# Runs on the host: the recipe builds from source with cargo, and the
# project's Rust (rust-version 1.87) is newer than any rustc Debian's
# bookworm or bullseye packages give a clean root. Needs conan
# (scripts/packages.txt: pip, in $EHK_VENV), cmake, gcc, g++ and cargo.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
venv=${EHK_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/eventheader-tracepoint/venv}
conan=$venv/bin/conan
[ -x "$conan" ] || { echo "conan-test.sh: no $conan (bash scripts/install-deps.sh)" >&2; exit 1; }
kinds=("$@")
[ ${#kinds[@]} -gt 0 ] || kinds=(static shared)
version=$(sed -n 's/^version *= *"\([0-9.]*\)"$/\1/p' Cargo.toml | head -n 1)

work=$(mktemp -d "${TMPDIR:-/tmp}/conan-test.XXXXXX")
trap 'rm -rf "$work"' EXIT
export CONAN_HOME=$work/home
"$conan" remote list --format=json >/dev/null
for r in $("$conan" remote list --format=json | python3 -c 'import json,sys; print(" ".join(r["name"] for r in json.load(sys.stdin)))'); do
    "$conan" remote remove "$r" >/dev/null
done
"$conan" profile detect >/dev/null 2>&1
echo "conan-test.sh: $("$conan" --version), home $CONAN_HOME, remotes: $("$conan" remote list | wc -l)"

cargo build --locked -q -p eventheader-cli
decoder=$root/target/debug/eventheader

mkdir -p "$work/consumer"
cd "$work/consumer"
cat >conanfile.txt <<EOF
[requires]
eventheader-tracepoint/$version

[generators]
CMakeDeps
CMakeToolchain
EOF
cat >hello.c <<'EOF'
#include <eventheader/TraceLoggingProvider.h>

TRACELOGGING_DEFINE_PROVIDER(ConanC, "ConanC",
    (0x5a0c3e11, 0x2b7d, 0x5f41, 0x9c, 0x1e, 0x37, 0x84, 0x60, 0xaf, 0x12, 0x5d));

int main(void)
{
    int err = TraceLoggingRegister(ConanC);
    TraceLoggingWrite(ConanC, "HelloConanC", TraceLoggingInt32(44, "answer"));
    TraceLoggingUnregister(ConanC);
    return err;
}
EOF
cat >hello.cpp <<'EOF'
#include <eventheader/TraceLoggingProvider.h>
#include <string>

TRACELOGGING_DEFINE_PROVIDER(ConanCpp, "ConanCpp",
    (0x5a0c3e11, 0x2b7d, 0x5f41, 0x9c, 0x1e, 0x37, 0x84, 0x60, 0xaf, 0x12, 0x5e));

int main()
{
    std::string language = "C++";
    int err = TraceLoggingRegister(ConanCpp);
    TraceLoggingWrite(ConanCpp, "HelloConanCpp", TraceLoggingString(language.c_str(), "language"),
        TraceLoggingInt32(45, "answer"));
    TraceLoggingUnregister(ConanCpp);
    return err;
}
EOF
cat >CMakeLists.txt <<'EOF'
cmake_minimum_required(VERSION 3.16)
project(conan-consumer LANGUAGES C CXX)
find_package(eventheader-tracepoint REQUIRED)
foreach(t tracepoint eventheader-tracepoint tracepoint-headers eventheader-headers)
  if(NOT TARGET ${t})
    message(FATAL_ERROR "find_package(eventheader-tracepoint) defined no target ${t}")
  endif()
endforeach()
add_executable(hello-c hello.c)
target_link_libraries(hello-c PRIVATE eventheader-tracepoint tracepoint)
add_executable(hello-cpp hello.cpp)
target_link_libraries(hello-cpp PRIVATE eventheader-tracepoint tracepoint)
EOF

for kind in "${kinds[@]}"; do
    case $kind in
    static) shared=False ;;
    shared) shared=True ;;
    *) echo "conan-test.sh: $kind: static or shared" >&2; exit 2 ;;
    esac
    opt="eventheader-tracepoint/*:shared=$shared"
    echo "== conan create ($kind)"
    (cd "$root" && nice -n 10 "$conan" create . -o "$opt" --build=missing) >"$work/create-$kind.log" 2>&1 ||
        { tail -n 60 "$work/create-$kind.log" >&2; exit 1; }
    grep -E "Package '[0-9a-f]+' created|package\(\): Packaged" "$work/create-$kind.log" || true

    echo "== consumer ($kind): conan install, CMakeDeps, CMakeToolchain"
    rm -rf build
    "$conan" install . -o "$opt" --output-folder=build >"$work/install-$kind.log" 2>&1 ||
        { cat "$work/install-$kind.log" >&2; exit 1; }
    cmake -S . -B build -DCMAKE_TOOLCHAIN_FILE=build/conan_toolchain.cmake -DCMAKE_BUILD_TYPE=Release \
        >"$work/cmake-$kind.log" 2>&1 || { cat "$work/cmake-$kind.log" >&2; exit 1; }
    cmake --build build
    for p in build/hello-c build/hello-cpp; do
        needed=$(readelf -d "$p" | sed -n 's/.*NEEDED.*\[\(libevent[^]]*\)\].*/\1/p')
        echo "$p: NEEDED ${needed:-(no libeventheader_tracepoint: static)}"
        if [ "$kind" = shared ] && [ -z "$needed" ]; then
            echo "conan-test.sh: $p is not linked to the shared library" >&2
            exit 1
        fi
        if [ "$kind" = static ] && [ -n "$needed" ]; then
            echo "conan-test.sh: $p needs $needed in the static build" >&2
            exit 1
        fi
    done

    echo "== run ($kind): capture mode, decoded"
    rm -f events.dat
    # conanrun.sh (Conan's VirtualRunEnv): LD_LIBRARY_PATH has the
    # package's library directory.
    for p in build/hello-c build/hello-cpp; do
        (. build/conanrun.sh && TRACEPOINT_CAPTURE_FILE=$PWD/events.dat "./$p")
    done
    "$decoder" decode events.dat >events.json
    for want in HelloConanC HelloConanCpp '"C++"' 44 45; do
        grep -q -- "$want" events.json || { echo "conan-test.sh: $kind: $want missing from the decoded capture" >&2; cat events.json >&2; exit 1; }
    done
    echo "$kind: $(grep -o 'HelloConanC[a-z]*' events.json | sort | uniq -c | tr '\n' ' ')"
done
echo "conan-test.sh: passed (${kinds[*]})"
