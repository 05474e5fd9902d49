# Cross build for aarch64 (arm64) Linux on another machine:
#
#   cmake -S . -B build-arm64 --toolchain cmake/toolchains/aarch64-linux-gnu.cmake
#   cmake --build build-arm64
#   cmake --install build-arm64 --prefix /some/arm64/prefix
#
# Needs what `bash scripts/cross/install.sh arm64` installs: Debian's
# aarch64-linux-gnu gcc/g++ and binutils, a Rust toolchain with the
# aarch64-unknown-linux-gnu standard library (Debian's rustc and cargo,
# /usr/bin, with libstd-rust-*-dev:arm64), and qemu-user, which runs the
# cross-built command-line tool once at build time (it writes its man pages
# and shell completions). Override TRACEPOINT_RUSTC and CARGO_EXECUTABLE
# (-D...) for another Rust toolchain that has the target, e.g. rustup's.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
# gcc unless the command line names a compiler (clang with
# -DCMAKE_C_COMPILER_TARGET=aarch64-linux-gnu, say).
if(NOT CMAKE_C_COMPILER)
  set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
endif()
if(NOT CMAKE_CXX_COMPILER)
  set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
endif()

# Libraries and headers from the target's tree only; programs from the host;
# packages from both (a consumer's CMAKE_PREFIX_PATH names a host directory).
set(CMAKE_FIND_ROOT_PATH /usr/aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE BOTH)

# The C library of Debian's arm64 architecture (libc6:arm64) if installed,
# else the cross compiler's: never the loader of one with the other's
# libc.so.6 (see scripts/cross/env.sh).
if(EXISTS /lib/ld-linux-aarch64.so.1)
  set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64-static)
else()
  set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64-static -L /usr/aarch64-linux-gnu)
endif()

# What CMakeLists.txt hands cargo (see there).
set(TRACEPOINT_RUST_TARGET aarch64-unknown-linux-gnu CACHE STRING "Rust target triple")
set(TRACEPOINT_RUSTC /usr/bin/rustc CACHE FILEPATH "rustc with the target's standard library")
set(CARGO_EXECUTABLE /usr/bin/cargo CACHE FILEPATH "cargo, to build the Rust library")
