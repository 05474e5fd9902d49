#!/usr/bin/env bash
# Configures this repository with CMake, builds it and installs it into a
# prefix: the temporary install that scripts/footprint.sh,
# benches/side-by-side.sh and the install test measure or build against.
#
#   bash scripts/install-prefix.sh BUILD_DIR PREFIX [CMAKE_ARG...]
#
# CMAKE_ARG... go to the configure step (-DNAME=VALUE, --toolchain FILE, ...).
# BUILD_DIR is kept, so that a rerun only rebuilds what changed; nothing is
# removed from PREFIX (the callers start from an empty one). The output of the
# three steps goes to BUILD_DIR/install-prefix.log (the install test reads
# the build's native-static-libs line from it) and is shown, its last 40
# lines, only when a step fails; the exit status is 1 then. Prints PREFIX on
# success. Runs with the same BUILD_DIR wait for each other (flock on it), so
# concurrent callers never configure one build directory twice at once.
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: $0 BUILD_DIR PREFIX [CMAKE_ARG...]" >&2; exit 2; }
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=$1 prefix=$2
shift 2

mkdir -p "$build"
exec 9<"$build"
flock 9
# shellcheck source=lib/quiet.sh
source "$repo/scripts/lib/quiet.sh"
QUIET_LOG=$build/install-prefix.log
: >"$QUIET_LOG"
quiet "cmake configure" cmake -S "$repo" -B "$build" "$@"
quiet "cmake build" cmake --build "$build"
quiet "cmake install" cmake --install "$build" --prefix "$prefix"
printf '%s\n' "$prefix"
