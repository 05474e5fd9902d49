#!/usr/bin/env bash
# Runs the README's first command (the Quick start's demo) the way a new user
# does: from an empty cargo target directory. Checks that it printed decoded
# events: the count line and as many event lines, and field values the sample
# writes (samples/c/sample.c run with the arguments "alpha beta").
set -euo pipefail
cd "$(dirname "$0")/.."

# The first indented command line of the Quick start section that runs cargo.
cmd=$(awk '/^## Quick start/ { q = 1; next } /^## / { q = 0 } q && /^    .*cargo run/ { sub(/^    /, ""); print; exit }' README.md)
[ -n "$cmd" ] || { echo "front door: no 'cargo run' command in the README's Quick start" >&2; exit 1; }
# Its other command is the whole test suite: the one CI runs (.ci/run), which is running it now.
suite=$(awk '/^## Quick start/ { q = 1; next } /^## / { q = 0 } q && /^    bash scripts\/test\.sh/ { sub(/^    /, ""); print; exit }' README.md)
[ -n "$suite" ] && grep -qxF "$suite" .ci/run ||
    { echo "front door: the README's Quick start does not name the command .ci/run runs (bash scripts/test.sh)" >&2; exit 1; }

target=$(mktemp -d)
out=$(mktemp)
trap 'rm -rf "$target" "$out"' EXIT
echo "front door: CARGO_TARGET_DIR=$target (empty) $cmd"
if ! CARGO_TARGET_DIR=$target bash -c "$cmd" >"$out" 2>&1; then
    cat "$out"
    echo "front door: FAILED: the README's first command exited non-zero" >&2
    exit 1
fi
count=$(sed -n 's/^== \([0-9][0-9]*\) events in .*/\1/p' "$out")
lines=$(grep -c '^[A-Za-z0-9_]*: { "n": ' "$out" || true)
fail=
[ -n "$count" ] && [ "$count" -gt 0 ] || fail="no '== N events' line with N > 0"
[ -z "$fail" ] && [ "$lines" != "$count" ] && fail="$count events announced, $lines event lines printed"
[ -z "$fail" ] && ! grep -q '"n": "MySample_C:Argument", "index": 2, "value": "beta"' "$out" && fail="no decoded Argument event with index 2 and value \"beta\""
[ -z "$fail" ] && ! grep -q '"result": { "code": 0, "text": "ok" }' "$out" && fail="no decoded struct field result { code 0, text ok }"
if [ -n "$fail" ]; then
    cat "$out"
    echo "front door: FAILED: $fail" >&2
    exit 1
fi
echo "front door: ok, $count decoded events printed"
