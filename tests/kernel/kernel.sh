# Sourced by the real-kernel suites (run.sh for x86_64, arm64/run.sh): finds
# or builds the user_events kernel of an architecture.
#
#   kernel_arch x86_64|arm64   selects the architecture (the variables below)
#   find_kernel                sets KERNEL (the image) and KERNEL_ORIGIN
#
# The caller defines say, die, quiet and elapsed, and sets LOG, KCACHE (built
# kernels), SHARED_KERNEL (a directory of prebuilt ones) and KERNEL_SOURCE_PKG;
# EHK_KERNEL_IMAGE overrides the lookup. In order of preference: the image
# named by EHK_KERNEL_IMAGE; the prebuilt one in SHARED_KERNEL when its
# fragment equals ours and its SHA256SUMS verify; the one built before into
# KCACHE for this fragment and source version; otherwise it is built there
# from Debian's linux-source-6.12 (tinyconfig, the fragment merged,
# olddefconfig), cross-compiled for another architecture than the host's.

_kernel_here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

kernel_arch() {
    case "$1" in
    x86_64)
        K_FRAGMENT=$_kernel_here/config-fragment
        K_SHARED_IMAGE=bzImage-6.12-user-events
        K_SHARED_FRAGMENT=config-fragment
        K_MAKE=(make)
        K_TARGET=bzImage
        K_BUILT=arch/x86/boot/bzImage
        K_CACHE_PREFIX=bzImage
        K_PACKAGES=()
        ;;
    arm64)
        K_FRAGMENT=$_kernel_here/config-fragment-arm64
        K_SHARED_IMAGE=Image-6.12-arm64-user-events
        K_SHARED_FRAGMENT=config-fragment-arm64
        K_MAKE=(make ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-)
        K_TARGET=Image
        K_BUILT=arch/arm64/boot/Image
        K_CACHE_PREFIX=Image-arm64
        K_PACKAGES=(gcc-aarch64-linux-gnu)
        ;;
    *) die "kernel_arch: unknown architecture $1" ;;
    esac
}

KERNEL_ORIGIN=
find_kernel() {
    if [ -n "${EHK_KERNEL_IMAGE:-}" ]; then
        [ -r "$EHK_KERNEL_IMAGE" ] || die "EHK_KERNEL_IMAGE=$EHK_KERNEL_IMAGE is not readable"
        KERNEL=$EHK_KERNEL_IMAGE
        KERNEL_ORIGIN="EHK_KERNEL_IMAGE"
        return
    fi
    local img=$SHARED_KERNEL/$K_SHARED_IMAGE
    if [ -r "$img" ] && cmp -s "$SHARED_KERNEL/$K_SHARED_FRAGMENT" "$K_FRAGMENT" &&
        grep -q " $K_SHARED_IMAGE\$" "$SHARED_KERNEL/SHA256SUMS" 2>/dev/null &&
        (cd "$SHARED_KERNEL" && sha256sum --quiet -c SHA256SUMS) >>"$LOG" 2>&1; then
        KERNEL=$img
        KERNEL_ORIGIN="prebuilt $SHARED_KERNEL"
        return
    fi
    echo "no usable prebuilt kernel at $SHARED_KERNEL/$K_SHARED_IMAGE (missing, other fragment, or checksum)" >>"$LOG"
    build_kernel
}

build_kernel() {
    local t0 key src ver
    t0=$(date +%s.%N)
    # bookworm-backports is configured by scripts/install-deps.sh.
    local suite=()
    grep -q '^VERSION_CODENAME=bookworm' /etc/os-release 2>/dev/null && suite=(-t bookworm-backports)
    quiet "apt-get update" apt-get update -qq
    quiet "apt-get install kernel build packages" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
        --no-install-recommends "${suite[@]}" "$KERNEL_SOURCE_PKG" build-essential bc bison flex libelf-dev \
        libssl-dev xz-utils cpio "${K_PACKAGES[@]}"
    ver=$(dpkg-query -W -f '${Version}' "$KERNEL_SOURCE_PKG") || die "no $KERNEL_SOURCE_PKG"
    key=$( (cat "$K_FRAGMENT"; echo "$ver") | sha256sum | cut -c1-16)
    KERNEL=$KCACHE/$K_CACHE_PREFIX-$key
    KERNEL_ORIGIN="cache $KCACHE ($KERNEL_SOURCE_PKG $ver)"
    [ -r "$KERNEL" ] && return
    src=$KCACHE/build-$K_CACHE_PREFIX-$key
    rm -rf "$src"
    mkdir -p "$src"
    quiet "unpack kernel source" tar -C "$src" --strip-components=1 -xf "/usr/src/$KERNEL_SOURCE_PKG.tar.xz"
    quiet "make tinyconfig" "${K_MAKE[@]}" -C "$src" -s tinyconfig
    quiet "merge fragment" env "${K_MAKE[@]:1}" bash -c "cd '$src' && scripts/kconfig/merge_config.sh -m .config '$K_FRAGMENT'"
    quiet "make olddefconfig" "${K_MAKE[@]}" -C "$src" -s olddefconfig
    grep -qx 'CONFIG_USER_EVENTS=y' "$src/.config" || die "CONFIG_USER_EVENTS did not survive olddefconfig"
    quiet "build kernel" "${K_MAKE[@]}" -C "$src" -s -j"$(nproc)" "$K_TARGET"
    cp "$src/$K_BUILT" "$KERNEL.tmp" && mv "$KERNEL.tmp" "$KERNEL" || die "copy $K_TARGET"
    cp "$src/.config" "$KERNEL.config"
    rm -rf "$src"
    say "built kernel in $(elapsed "$t0") s -> $KERNEL"
    KERNEL_ORIGIN="built into $KCACHE"
}
