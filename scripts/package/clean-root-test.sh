#!/bin/sh
# Runs inside the clean root of scripts/package/clean-root.sh, from /test
# (the three .deb files beside it): install, build (find_package and
# pkg-config, C and C++), run in capture mode, decode, purge; then the
# release archive (eventheader-tracepoint-*.tar.gz beside them) unpacked
# under /opt: the same builds, run and decode.
set -eu
version=$1
cd /test
step() { echo "== $*"; }

snapshot() {
    find / -xdev \( -path /proc -o -path /test -o -path /tmp -o -path /var/lib/dpkg \
        -o -path /var/cache -o -path /var/log -o -path /var/lib/apt -o -path /root \) -prune \
        -o -print | LC_ALL=C sort
}
snapshot >/tmp/before.txt

step "install: apt-get install ./*.deb"
apt-get install -y -q --no-install-recommends ./libeventheader-tracepoint1_*.deb \
    ./libeventheader-tracepoint-dev_*.deb ./eventheader_*.deb
dpkg-query -W libeventheader-tracepoint1 libeventheader-tracepoint-dev eventheader
ldd /usr/bin/eventheader | sed 's/ (0x.*//'

mkdir -p /tmp/consumer
cd /tmp/consumer
sources() {
cat >hello.c <<'EOF'
#include <eventheader/TraceLoggingProvider.h>

TRACELOGGING_DEFINE_PROVIDER(CleanRoot, "CleanRoot",
    (0x2f9e7a41, 0x6c1d, 0x5b3e, 0x8a, 0x27, 0x90, 0x4e, 0x11, 0xc5, 0x3d, 0x68));

int main(void)
{
    int err = TraceLoggingRegister(CleanRoot);
    TraceLoggingWrite(CleanRoot, "HelloC",
        TraceLoggingLevel(event_level_information),
        TraceLoggingKeyword(0x1),
        TraceLoggingString("C", "language"),
        TraceLoggingInt32(42, "answer"));
    TraceLoggingUnregister(CleanRoot);
    return err;
}
EOF
cat >hello.cpp <<'EOF'
#include <eventheader/TraceLoggingProvider.h>
#include <string>

TRACELOGGING_DEFINE_PROVIDER(CleanRootCpp, "CleanRootCpp",
    (0x2f9e7a41, 0x6c1d, 0x5b3e, 0x8a, 0x27, 0x90, 0x4e, 0x11, 0xc5, 0x3d, 0x69));

int main()
{
    std::string language = "C++";
    int err = TraceLoggingRegister(CleanRootCpp);
    TraceLoggingWrite(CleanRootCpp, "HelloCpp",
        TraceLoggingLevel(event_level_information),
        TraceLoggingKeyword(0x1),
        TraceLoggingString(language.c_str(), "language"),
        TraceLoggingInt32(43, "answer"));
    TraceLoggingUnregister(CleanRootCpp);
    return err;
}
EOF
cat >CMakeLists.txt <<EOF
cmake_minimum_required(VERSION 3.16)
project(clean-root-consumer LANGUAGES C CXX)
find_package(eventheader-tracepoint $version REQUIRED)
add_executable(hello-c hello.c)
target_link_libraries(hello-c PRIVATE eventheader-tracepoint tracepoint)
add_executable(hello-cpp hello.cpp)
target_link_libraries(hello-cpp PRIVATE eventheader-tracepoint tracepoint)
EOF
}

# build_run_decode: the four consumers built, run in capture mode, decoded.
build_run_decode() {
sources

step "build: find_package (cmake $(cmake --version | head -n 1 | cut -d' ' -f3), gcc $(gcc -dumpfullversion))"
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build
step "build: pkg-config ($(pkg-config --cflags --libs eventheader-tracepoint))"
gcc -Wall -Wextra -Werror hello.c $(pkg-config --cflags --libs eventheader-tracepoint) -o hello-c-pc
g++ -Wall -Wextra -Werror hello.cpp $(pkg-config --cflags --libs eventheader-tracepoint) -o hello-cpp-pc
for p in build/hello-c build/hello-cpp hello-c-pc hello-cpp-pc; do
    echo "$p: $(readelf -d "$p" | sed -n 's/.*NEEDED.*\[\(libevent[^]]*\)\].*/\1/p')"
done

step "run: capture mode (TRACEPOINT_CAPTURE_FILE)"
for p in build/hello-c build/hello-cpp hello-c-pc hello-cpp-pc; do
    TRACEPOINT_CAPTURE_FILE=/tmp/consumer/events.dat "./$p"
done
ls -l events.dat

step "decode: eventheader decode events.dat"
eventheader decode events.dat >events.json
cat events.json
for want in HelloC HelloCpp '"C++"' 42 43; do
    grep -q -- "$want" events.json || { echo "decode: $want missing" >&2; exit 1; }
done
[ "$(grep -o HelloC events.json | grep -c .)" -ge 4 ] || { echo "decode: fewer than 4 events" >&2; exit 1; }
}
build_run_decode

step "purge: apt-get purge"
cd /
rm -rf /tmp/consumer
apt-get purge -y -q libeventheader-tracepoint1 libeventheader-tracepoint-dev eventheader
snapshot >/tmp/after.txt
if ! diff /tmp/before.txt /tmp/after.txt; then
    echo "purge: files left behind (above)" >&2
    exit 1
fi
echo "purge: no file left behind"

step "archive: $(ls /test/*.tar.gz) unpacked under /opt"
tar -C /opt -xzf /test/eventheader-tracepoint-*.tar.gz
prefix=$(echo /opt/eventheader-tracepoint-*)
mkdir -p /tmp/consumer
cd /tmp/consumer
export CMAKE_PREFIX_PATH="$prefix" PKG_CONFIG_PATH="$prefix/lib/pkgconfig" LD_LIBRARY_PATH="$prefix/lib"
export PATH="$prefix/bin:$PATH"
build_run_decode
