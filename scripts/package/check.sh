#!/usr/bin/env bash
# Every package check in one command, run by hand (not a step of
# scripts/test.sh: from empty caches it takes longer than CI's time leaves):
# the Debian packages and release
# archives of amd64 and arm64 built (scripts/package.sh), then each tested in
# clean Debian roots (scripts/package/clean-root.sh): amd64 natively in
# bookworm and in bullseye (glibc 2.31), arm64 under qemu-user in
# $ARM64_SUITES (default bullseye alone: the older glibc, and the root that
# is made and tested in less time; making an arm64 root runs every
# maintainer script under qemu-user, which is most of this step's time on a
# machine without the cached roots).
#
#   bash scripts/package/check.sh
#   ARM64_SUITES="bookworm bullseye" bash scripts/package/check.sh
#
# Each part prints its seconds; the roots are cached (clean-root.sh), so a
# second run makes none. Needs root (chroot, binfmt_misc).
set -euo pipefail
cd "$(dirname "$0")/../.."
read -r -a arm64_suites <<<"${ARM64_SUITES:-bullseye}"

timed() {
    local start=$SECONDS
    "$@"
    echo "packages: $((SECONDS - start)) s: $*"
}

timed bash scripts/package.sh amd64 arm64
timed bash scripts/package/clean-root.sh bookworm amd64
timed bash scripts/package/clean-root.sh bullseye amd64
for suite in "${arm64_suites[@]}"; do
    timed bash scripts/package/clean-root.sh "$suite" arm64
done
