# The cross targets: Debian architecture, GNU triple, Rust target, qemu-user
# binary. Sourced by install.sh and env.sh.
#
#   cross_target ARCH   sets CROSS_TRIPLE, CROSS_RUST_TARGET, CROSS_QEMU and
#                       CROSS_PACKAGES (the C/C++ cross compilers and the C
#                       library they build against: only a Recommends of the
#                       compilers, which --no-install-recommends leaves out);
#                       returns 1 for an architecture not listed here
cross_target() {
    case "$1" in
    arm64) CROSS_TRIPLE=aarch64-linux-gnu CROSS_RUST_TARGET=aarch64-unknown-linux-gnu CROSS_QEMU=qemu-aarch64-static
        CROSS_PACKAGES="gcc-aarch64-linux-gnu g++-aarch64-linux-gnu libc6-dev-arm64-cross" ;;
    i386) CROSS_TRIPLE=i686-linux-gnu CROSS_RUST_TARGET=i686-unknown-linux-gnu CROSS_QEMU=qemu-i386-static
        CROSS_PACKAGES="gcc-i686-linux-gnu g++-i686-linux-gnu libc6-dev-i386-cross" ;;
    armhf) CROSS_TRIPLE=arm-linux-gnueabihf CROSS_RUST_TARGET=armv7-unknown-linux-gnueabihf CROSS_QEMU=qemu-arm-static
        CROSS_PACKAGES="gcc-arm-linux-gnueabihf g++-arm-linux-gnueabihf libc6-dev-armhf-cross" ;;
    s390x) CROSS_TRIPLE=s390x-linux-gnu CROSS_RUST_TARGET=s390x-unknown-linux-gnu CROSS_QEMU=qemu-s390x-static
        CROSS_PACKAGES="gcc-s390x-linux-gnu g++-s390x-linux-gnu libc6-dev-s390x-cross" ;;
    *) return 1 ;;
    esac
}

# Where install.sh writes why an architecture could not be installed (one
# line, apt's reason), read back by the suites that skip it.
CROSS_STATE=${XDG_CACHE_HOME:-$HOME/.cache}/eventheader-tracepoint/cross
