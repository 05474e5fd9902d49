#!/usr/bin/env bash
# Runs inside a VM whose kernel has user_events (as root): exercises the
# eventheader CLI against the real kernel and records what happened in
# RESULTS_DIR. It judges nothing: cli/tests/vm_results.rs does, on the host
# (EVENTHEADER_VM_RESULTS=RESULTS_DIR cargo test --test vm_results).
#
#   guest.sh BIN_DIR RESULTS_DIR
#
# BIN_DIR: what cli/tests/vm/build.sh built (eventheader, cli_writer and the
# library). RESULTS_DIR/status gets one line "NAME RC" per step, RESULTS_DIR/times
# "NAME SECONDS"; each step's output is in RESULTS_DIR/NAME.*; RESULTS_DIR/done
# marks the end. CLI_TPP_DIR: the tracepoint-provider.h reference data (default
# <repo>/../shared/testdata/reference/tpp).
set -u
B=$(cd "$1" && pwd)
R=$2
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TPP=${CLI_TPP_DIR:-$HERE/../../../../shared/testdata/reference/tpp}
TRACEFS=/sys/kernel/tracing
EV=$TRACEFS/events/user_events
T=$(mktemp -d)
export LC_ALL=C
mkdir -p "$R"
: >"$R/status"
: >"$R/times"
rm -f "$R/done"

note() { echo "$*" >>"$R/status"; }
now() { date +%s.%N; }
# step NAME CMD...: runs CMD; RESULTS/status gets "NAME RC", RESULTS/times "NAME SECONDS".
step() {
    local name=$1 t0 rc
    shift
    t0=$(now)
    "$@"
    rc=$?
    note "$name $rc"
    awk -v n="$name" -v a="$t0" -v b="$(now)" 'BEGIN { printf "%s %.1f\n", n, b - a }' >>"$R/times"
    return $rc
}
# wait_lines FILE N PID: until FILE has N lines or PID exited (at most 30 s).
wait_lines() {
    for _ in $(seq 300); do
        [ "$(grep -c . "$1" 2>/dev/null)" -ge "$2" ] && return 0
        kill -0 "$3" 2>/dev/null || return 1
        sleep 0.1
    done
    return 1
}
# out NAME CMD...: CMD with stdout to RESULTS/NAME.out, stderr to RESULTS/NAME.err.
out() {
    local name=$1
    shift
    "$@" >"$R/$name.out" 2>"$R/$name.err"
}

uname -r >"$R/kernel"
if [ -w "$TRACEFS/user_events_data" ] && [ -r "$TPP/tpp_all.cmd" ]; then note "env 0"; else note "env 1"; fi

# 1. register pre-registers; collect records while the programs write; decode
#    prints them; capture mode writes the same events to a file.
printf '%s\n' CliTest_L4K1 CliTest_L5K2 >"$T/eh.defs"
# The tracepoint-provider.h tracepoints with the reference's registration
# strings, except the four "custom" ones (u8[16] and char[] fields), which
# this kernel refuses with EINVAL whoever registers them. A definition
# without fields needs " ;" (a bare name is an EventHeader name).
grep -v custom "$TPP/tpp_all.cmd" >"$T/tpp.cmd"
cut -f2 "$T/tpp.cmd" | awk 'NF == 1 { print $0 " ;"; next } { print }' >"$T/tpp.defs"
cat "$T/eh.defs" "$T/tpp.defs" >"$R/register.defs"
"$B/eventheader" register -i "$T/eh.defs" -i "$T/tpp.defs" >"$R/register.names" 2>"$R/register.err" &
reg=$!
wait_lines "$R/register.names" "$(grep -c . "$R/register.defs")" "$reg"
ls "$EV" >"$R/register.tracefs" 2>&1
cat "$EV/CliTest_L4K1/format" >"$R/register.format" 2>&1
cat "$EV/dotnet_event_C/format" >"$R/register.dotnet.format" 2>&1
writers="'$B/cli_writer' eh 50 && CLI_WRITER_EXPECT_ENABLED=1 '$B/cli_writer' tpp '$T/tpp.cmd' '$TPP/tpp_all.dat'"
# On one CPU, so that time order is write order.
step collect out collect taskset -c 0 "$B/eventheader" collect -o "$R/collect.data" \
    'CliTest_*' '*_C' '*_CPP' -- sh -c "$writers"
kill -TERM "$reg"
wait "$reg"
note "register $?"
ls "$EV" >"$R/register.after" 2>&1
step capture out capture env TRACEPOINT_CAPTURE_FILE="$R/capture.dat" taskset -c 0 sh -c "$writers"
meta=id,version,level,keyword,opcode,tag,activity,related
step collect.decode out collect.decode "$B/eventheader" decode --jsonl --meta "$meta" "$R/collect.data"
step capture.decode out capture.decode "$B/eventheader" decode --jsonl --meta "$meta" "$R/capture.dat"
step collect.decode-json out collect.decode-json "$B/eventheader" decode "$R/collect.data"
step collect.perf-script out collect.perf-script perf script -i "$R/collect.data"

# 2. a single-event perf record (samples without ids), normal and pipe mode.
"$B/eventheader" register CliSingle_L5K1 >"$R/single.names" 2>"$R/single.register.err" &
reg=$!
wait_lines "$R/single.names" 1 "$reg"
step single.record out single.record perf record -q --no-buildid --no-buildid-cache \
    -e user_events:CliSingle_L5K1 -o "$R/single.data" -- "$B/cli_writer" single 100
step single-pipe.record perf record -q --no-buildid --no-buildid-cache \
    -e user_events:CliSingle_L5K1 -o - -- sh -c "'$B/cli_writer' single 100 >'$R/single-pipe.record.out'" \
    >"$R/single-pipe.data" 2>"$R/single-pipe.record.err"
kill -TERM "$reg"
wait "$reg"
note "single.register $?"
step single.decode out single.decode "$B/eventheader" decode --jsonl "$R/single.data"
step single-pipe.decode out single-pipe.decode "$B/eventheader" decode --jsonl "$R/single-pipe.data"

# 3. --persist outlives the tool; without it the tracepoint goes with the tool.
step persist out persist "$B/eventheader" register --persist CliPersist_L5K1
ls "$EV" >"$R/persist.after" 2>&1
cat "$EV/CliPersist_L5K1/format" >"$R/persist.format" 2>&1
step gone out gone "$B/eventheader" register --nowait CliGone_L5K1
ls "$EV" >"$R/gone.after" 2>&1

# 4. 10^5 events in a burst, with the default buffers and with 8 KiB buffers
#    (collect registers CliBurst_L5K1 itself). The host decodes the files:
#    samples + reported losses must add up to what the writer wrote.
step burst out burst "$B/eventheader" collect -o "$R/burst.data" CliBurst_L5K1 \
    -- "$B/cli_writer" burst 100000
step burst-small out burst-small "$B/eventheader" collect -b 8 -o "$R/burst-small.data" CliBurst_L5K1 \
    -- "$B/cli_writer" burst 100000

# 5. errors: no user_events (tracefs and debugfs unmounted in a private mount
#    namespace), no permission (an unprivileged user), bad names, bad usage.
cp "$B/eventheader" "$T/eventheader"
chmod 755 "$T" "$T/eventheader"
hide="umount $TRACEFS; umount /sys/kernel/debug 2>/dev/null; exec \"\$@\""
step err.nouser.register out err.nouser.register unshare -m sh -c "$hide" sh \
    "$T/eventheader" register CliNo_L5K1
step err.nouser.collect out err.nouser.collect unshare -m sh -c "$hide" sh \
    "$T/eventheader" collect -d 1 -o "$T/x.data" CliNo_L5K1
nobody=(setpriv --reuid=nobody --regid=nogroup --clear-groups)
step err.perm.register out err.perm.register "${nobody[@]}" "$T/eventheader" register CliNo_L5K1
step err.perm.collect out err.perm.collect "${nobody[@]}" "$T/eventheader" collect -d 1 -o /dev/null CliTest_L4K1
step err.badname out err.badname "$B/eventheader" register Bad_L
step err.nosuch out err.nosuch "$B/eventheader" collect -d 1 -o "$T/x.data" NoSuchPlainTracepoint
step err.usage out err.usage "$B/eventheader" register
# collect's command fails (7), or cannot run (1); CliPersist_L5K1 persists from step 3.
step err.cmdfail out err.cmdfail "$B/eventheader" collect -o "$T/x.data" CliPersist_L5K1 -- false
step err.nocmd out err.nocmd "$B/eventheader" collect -o "$T/x.data" CliPersist_L5K1 -- /nonexistent/program

rm -rf "$T"
echo done >"$R/done"
