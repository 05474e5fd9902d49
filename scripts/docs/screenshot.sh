#!/usr/bin/env bash
# Makes the timeline picture of docs/cli.md: a recording with nested
# activities on two threads, decoded with `decode --format trace-event` and
# opened in the Performance panel of Chromium's DevTools (a viewer that shows
# every thread of a trace in one picture).
#
#   bash scripts/docs/screenshot.sh [OUT.png]   # default docs/images/trace-event-timeline.png
#
# The recording comes from scripts/docs/two-threads.c, built against this
# checkout's library and run in capture mode with the timed layout (time, pid
# and tid on every event). Chromium runs headless with a profile of its own
# and serves DevTools on a local port; scripts/docs/screenshot.mjs (Node.js)
# drives it. It installs nothing: chromium and node come from
# scripts/packages.txt (bash scripts/install-deps.sh).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
out=$(realpath -m "${1:-docs/images/trace-event-timeline.png}")

need() {
    command -v "$1" >/dev/null 2>&1 && return
    echo "screenshot.sh: $1 is missing: $2 (scripts/packages.txt; run bash scripts/install-deps.sh)" >&2
    exit 1
}
need chromium "the Debian package chromium"
need node "Node.js of the base image"
need cc "the Debian package gcc"

target=$(realpath -m "${CARGO_TARGET_DIR:-$root/target}")
cargo build -q -p eventheader_tracepoint -p eventheader-cli

work=$(mktemp -d)
chromium_pid=
cleanup() {
    if [ -n "$chromium_pid" ]; then
        kill "$chromium_pid" 2>/dev/null || true
        wait "$chromium_pid" 2>/dev/null || true
    fi
    rm -rf "$work"
}
trap cleanup EXIT

cc -std=c11 -Wall -Wextra -Werror -Iinclude scripts/docs/two-threads.c \
    -L"$target/debug" -leventheader_tracepoint -lpthread \
    -Wl,-rpath,"$target/debug" -o "$work/two-threads"
TRACEPOINT_CAPTURE_FILE=$work/events.dat TRACEPOINT_CAPTURE_LAYOUT=timed "$work/two-threads"
"$target/debug/eventheader" decode --format trace-event -o "$work/trace.json" "$work/events.dat"

# Port 0: Chromium picks a free port and writes it to DevToolsActivePort.
chromium --headless --no-sandbox --disable-gpu --no-first-run --disable-extensions \
    --user-data-dir="$work/profile" --remote-debugging-address=127.0.0.1 \
    --remote-debugging-port=0 about:blank >"$work/chromium.log" 2>&1 &
chromium_pid=$!
port=
for _ in $(seq 300); do
    if [ -s "$work/profile/DevToolsActivePort" ]; then
        port=$(head -n 1 "$work/profile/DevToolsActivePort")
        [ -n "$port" ] && break
    fi
    kill -0 "$chromium_pid" 2>/dev/null || break
    sleep 0.1
done
if [ -z "$port" ]; then
    echo "screenshot.sh: chromium did not start its DevTools server:" >&2
    cat "$work/chromium.log" >&2
    exit 1
fi

# Node.js 20 has WebSocket behind a flag; later versions have it on.
node_flags=()
node -e 'process.exit(typeof WebSocket === "function" ? 0 : 1)' || node_flags=(--experimental-websocket)
result=$(node "${node_flags[@]}" scripts/docs/screenshot.mjs "$port" "$work/trace.json" "$out" 1200 600 Demo:Fetch)
echo "$result"
# The panel must have parsed every activity of the recording, on two threads.
for slice in Request Parse Render Layout Query Connect Fetch; do
    grep -q "\"Demo:$slice\"" <<<"$result" || { echo "screenshot.sh: the panel shows no Demo:$slice" >&2; exit 1; }
done
threads=$(grep -o '"Thread [0-9]' <<<"$result" | wc -l)
[ "$threads" -eq 2 ] || { echo "screenshot.sh: the panel shows $threads thread tracks, not 2" >&2; exit 1; }
echo "screenshot.sh: wrote $out ($(stat -c %s "$out") bytes)"
