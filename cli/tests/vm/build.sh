#!/usr/bin/env bash
# Builds what cli/tests/vm/guest.sh runs in the user_events VM, into OUT_DIR:
#   eventheader                   the CLI (release build of cli/)
#   libeventheader_tracepoint.so  the library (release build of the repository root)
#   cli_writer                    cli/tests/vm/cli_writer.c, linked to that library
#                                 (rpath $ORIGIN: OUT_DIR is self-contained)
#
#   cli/tests/vm/build.sh OUT_DIR
#
# CC defaults to gcc; CARGO_TARGET_DIR is honoured by cargo as usual.
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: $0 OUT_DIR" >&2; exit 2; }
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CLI=$(cd "$HERE/../.." && pwd)
REPO=$(cd "$CLI/.." && pwd)
OUT=$1
mkdir -p "$OUT"
CC=${CC:-gcc}

cargo build --release --quiet --manifest-path "$REPO/Cargo.toml" --lib
lib_dir=$(cargo metadata --format-version 1 --no-deps --manifest-path "$REPO/Cargo.toml" |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')/release
cargo build --release --quiet --manifest-path "$CLI/Cargo.toml" --bin eventheader
cli_dir=$(cargo metadata --format-version 1 --no-deps --manifest-path "$CLI/Cargo.toml" |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')/release

cp "$lib_dir/libeventheader_tracepoint.so" "$OUT/"
cp "$cli_dir/eventheader" "$OUT/"
"$CC" -std=gnu11 -O2 -g -Wall -Wextra -Werror -I"$REPO/include" -o "$OUT/cli_writer" \
    "$HERE/cli_writer.c" -L"$OUT" -Wl,-rpath,'$ORIGIN' -leventheader_tracepoint
echo "built $OUT/eventheader, $OUT/cli_writer, $OUT/libeventheader_tracepoint.so"
