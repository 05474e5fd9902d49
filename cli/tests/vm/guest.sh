#!/usr/bin/env bash
# Guest script of the VM run `cli` (manifest program cli_writer; started by
# tests/kernel/guest.sh as root in the user_events VM): exercises the
# eventheader CLI against the real kernel and records what happened. It
# judges nothing: testkit's checks::cli does, on the host
# (`testkit kernel-judge`, run by tests/kernel/run.sh).
#
#   guest.sh CLI_WRITER EVENTHEADER REFERENCE_DAT
#
# CLI_WRITER: cli_writer.c's build; EVENTHEADER: the CLI (built by run.sh);
# REFERENCE_DAT: the reference capture file, whose directory holds the
# tracepoint-provider.h reference data (tpp/). Results go to the directory
# $RESULT (set by tests/kernel/guest.sh): status gets one line "NAME RC" per
# step, times "NAME SECONDS"; each step's output is in NAME.*; done marks the
# end. Exits 0 once every step ran (whatever their statuses), 1 if it cannot
# start.
set -u
W=$1
EH=$2
TPP=$(dirname "$3")/tpp
R=$RESULT
TRACEFS=/sys/kernel/tracing
EV=$TRACEFS/events/user_events
T=$(mktemp -d)
export LC_ALL=C
[ -r "$TPP/tpp_all.cmd" ] || { echo "cli guest: no $TPP/tpp_all.cmd (the reference data)" >&2; exit 1; }
# shellcheck source=tests/kernel/guest-lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../../tests/kernel/guest-lib.sh"
guest_start cli "$W" "$EH"

# wait_lines FILE N PID: until FILE has N lines or PID exited (at most 30 s).
wait_lines() {
    for _ in $(seq 300); do
        [ "$(grep -c . "$1" 2>/dev/null)" -ge "$2" ] && return 0
        kill -0 "$3" 2>/dev/null || return 1
        sleep 0.1
    done
    return 1
}

if [ -w "$TRACEFS/user_events_data" ]; then note "env 0"; else note "env 1"; fi

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
"$EH" register -i "$T/eh.defs" -i "$T/tpp.defs" >"$R/register.names" 2>"$R/register.err" &
reg=$!
wait_lines "$R/register.names" "$(grep -c . "$R/register.defs")" "$reg"
ls "$EV" >"$R/register.tracefs" 2>&1
cat "$EV/CliTest_L4K1/format" >"$R/register.format" 2>&1
cat "$EV/dotnet_event_C/format" >"$R/register.dotnet.format" 2>&1
writers="'$W' eh 50 && CLI_WRITER_EXPECT_ENABLED=1 '$W' tpp '$T/tpp.cmd' '$TPP/tpp_all.dat'"
# On one CPU, so that time order is write order.
step collect out collect taskset -c 0 "$EH" collect -o "$R/collect.data" \
    'CliTest_*' '*_C' '*_CPP' -- sh -c "$writers"
kill -TERM "$reg"
wait "$reg"
note "register $?"
ls "$EV" >"$R/register.after" 2>&1
step capture out capture env TRACEPOINT_CAPTURE_FILE="$R/capture.dat" taskset -c 0 sh -c "$writers"
meta=id,version,level,keyword,opcode,tag,activity,related
step collect.decode out collect.decode "$EH" decode --jsonl --meta "$meta" "$R/collect.data"
step capture.decode out capture.decode "$EH" decode --jsonl --meta "$meta" "$R/capture.dat"
step collect.decode-json out collect.decode-json "$EH" decode "$R/collect.data"
step collect.perf-script out collect.perf-script perf script -i "$R/collect.data"

# 2. a single-event perf record (samples without ids), normal and pipe mode.
"$EH" register CliSingle_L5K1 >"$R/single.names" 2>"$R/single.register.err" &
reg=$!
wait_lines "$R/single.names" 1 "$reg"
step single.record out single.record perf record -q --no-buildid --no-buildid-cache \
    -e user_events:CliSingle_L5K1 -o "$R/single.data" -- "$W" single 100
step single-pipe.record perf record -q --no-buildid --no-buildid-cache \
    -e user_events:CliSingle_L5K1 -o - -- sh -c "'$W' single 100 >'$R/single-pipe.record.out'" \
    >"$R/single-pipe.data" 2>"$R/single-pipe.record.err"
kill -TERM "$reg"
wait "$reg"
note "single.register $?"
step single.decode out single.decode "$EH" decode --jsonl "$R/single.data"
step single-pipe.decode out single-pipe.decode "$EH" decode --jsonl "$R/single-pipe.data"

# 3. --persist outlives the tool; without it the tracepoint goes with the tool.
step persist out persist "$EH" register --persist CliPersist_L5K1
ls "$EV" >"$R/persist.after" 2>&1
cat "$EV/CliPersist_L5K1/format" >"$R/persist.format" 2>&1
step gone out gone "$EH" register --nowait CliGone_L5K1
ls "$EV" >"$R/gone.after" 2>&1

# 4. 10^5 events in a burst, with the default buffers and with 8 KiB buffers
#    (collect registers CliBurst_L5K1 itself). The host decodes the files:
#    samples + reported losses must add up to what the writer wrote.
step burst out burst "$EH" collect -o "$R/burst.data" CliBurst_L5K1 \
    -- "$W" burst 100000
step burst-small out burst-small "$EH" collect -b 8 -o "$R/burst-small.data" CliBurst_L5K1 \
    -- "$W" burst 100000

# 5. errors: no user_events (tracefs and debugfs unmounted in a private mount
#    namespace), no permission (an unprivileged user), bad names, bad usage.
cp "$EH" "$T/eventheader"
chmod 755 "$T" "$T/eventheader"
hide="umount $TRACEFS; umount /sys/kernel/debug 2>/dev/null; exec \"\$@\""
step err.nouser.register out err.nouser.register unshare -m sh -c "$hide" sh \
    "$T/eventheader" register CliNo_L5K1
step err.nouser.collect out err.nouser.collect unshare -m sh -c "$hide" sh \
    "$T/eventheader" collect -d 1 -o "$T/x.data" CliNo_L5K1
nobody=(setpriv --reuid=nobody --regid=nogroup --clear-groups)
step err.perm.register out err.perm.register "${nobody[@]}" "$T/eventheader" register CliNo_L5K1
step err.perm.collect out err.perm.collect "${nobody[@]}" "$T/eventheader" collect -d 1 -o /dev/null CliTest_L4K1
step err.badname out err.badname "$EH" register Bad_L
step err.nosuch out err.nosuch "$EH" collect -d 1 -o "$T/x.data" NoSuchPlainTracepoint
step err.usage out err.usage "$EH" register
# collect's command fails (7), or cannot be started (7); CliPersist_L5K1 persists from step 3.
step err.cmdfail out err.cmdfail "$EH" collect -o "$T/x.data" CliPersist_L5K1 -- false
step err.nocmd out err.nocmd "$EH" collect -o "$T/x.data" CliPersist_L5K1 -- /nonexistent/program

# 6. collect --live: the events of `cli_writer eh 50` as they arrive (and
#    recorded with -o), compared with capture mode (step 1) on the host.
#    (The CliTest tracepoints are no longer registered: collect registers
#    them by their EventHeader names.)
step live out live taskset -c 0 "$EH" collect --live --meta "$meta" -o "$R/live.data" \
    CliTest_L4K1 CliTest_L5K2 -- "$W" eh 50
#    Filters, on live output: level, keyword, event name, provider.
step live.level out live.level "$EH" collect --live --meta none --level 4 CliTest_L4K1 CliTest_L5K2 -- "$W" eh 50
step live.keyword out live.keyword "$EH" collect --live --meta none --keyword 0x2 CliTest_L4K1 CliTest_L5K2 -- "$W" eh 50
step live.event out live.event "$EH" collect --live --meta none --provider CliTest --event Hello \
    CliTest_L4K1 CliTest_L5K2 -- "$W" eh 50
#    pid (a kernel filter): a writer started outside collect, released by
#    collect's command, which also writes (another pid) and waits for it.
rm -f "$T/go"
sh -c "while [ ! -e '$T/go' ]; do sleep 0.05; done; exec '$W' eh 50" >"$R/live.pid.writer" 2>&1 &
other=$!
echo "$other" >"$R/live.pid.wanted"
step live.pid out live.pid "$EH" collect --live --meta pid --pid "$other" CliTest_L4K1 CliTest_L5K2 -- \
    sh -c "'$W' eh 50 >/dev/null; touch '$T/go'; while kill -0 $other 2>/dev/null; do sleep 0.05; done"
wait "$other"
#    Filters that leave no tracepoint: status 3.
step err.nofilter out err.nofilter "$EH" collect --live --level 1 -d 1 CliTest_L4K1
#    A burst into 8 KiB buffers: losses reported in the stream, status 6.
step live.burst out live.burst "$EH" collect --live --meta none -b 8 CliBurst_L5K1 \
    -- "$W" burst 100000

# 7. Pipes: collect -o - into decode -, and perf record -o - into decode -.
step pipe.collect bash -o pipefail -c "'$EH' collect -o - CliTest_L4K1 CliTest_L5K2 -- '$W' eh 50 \
    2>'$R/pipe.collect.err' | tee '$R/pipe.data' | \
    '$EH' decode --jsonl --meta '$meta' - >'$R/pipe.decode.out' 2>'$R/pipe.decode.err'"
step pipe.perf-script out pipe.perf-script perf script -i "$R/pipe.data"
"$EH" register CliSingle_L5K1 >"$R/pipe.single.names" 2>&1 &
reg=$!
wait_lines "$R/pipe.single.names" 1 "$reg"
step pipe.perf bash -o pipefail -c "perf record -q --no-buildid --no-buildid-cache \
    -e user_events:CliSingle_L5K1 -o - -- sh -c \"'$W' single 100 >/dev/null\" \
    2>'$R/pipe.perf.record.err' | '$EH' decode --jsonl - >'$R/pipe.perf.out' 2>'$R/pipe.perf.err'"
kill -TERM "$reg"
wait "$reg"

# 8. collect ends its command when it stops first (-d 1, SIGINT): SIGTERM,
#    and SIGKILL 2 s later for a command that ignores SIGTERM; neither is the
#    command failing (status 0). (CliPersist_L5K1 persists from step 3.)
step cmd.term out cmd.term "$EH" collect -d 1 -o "$T/x.data" CliPersist_L5K1 -- sleep 20
step cmd.kill out cmd.kill "$EH" collect -d 1 -o "$T/x.data" CliPersist_L5K1 \
    -- sh -c "trap '' TERM; exec sleep 20"
# SIGINT once the command runs (collect handles SIGINT by then).
collect_then_sigint() {
    rm -f "$T/started"
    "$EH" collect -o "$T/x.data" CliPersist_L5K1 -- sh -c "touch '$T/started'; exec sleep 20" &
    local pid=$!
    for _ in $(seq 300); do
        [ -e "$T/started" ] && break
        sleep 0.1
    done
    kill -INT "$pid"
    wait "$pid"
}
step cmd.int out cmd.int collect_then_sigint

# 9. 3,000 tracepoints (registered by collect) on every CPU with a soft
#    descriptor limit of 1024: collect raises its soft limit and records them
#    all (-v lists them). With a hard limit of 1024 it may not raise (no
#    CAP_SYS_RESOURCE), it says how many descriptors it needs: status 1.
seq -f 'CliMany%g_L5K1' 3000 >"$T/many.defs"
{ ulimit -Sn; ulimit -Hn; nproc; } >"$R/many.limits"
step many out many bash -c "ulimit -Sn 1024 && exec '$EH' collect -v -d 1 -o '$T/many.data' -i '$T/many.defs'"
step many.hard out many.hard bash -c "ulimit -n 1024 && exec setpriv --bounding-set=-sys_resource \
    '$EH' collect -d 1 -o '$T/x.data' -i '$T/many.defs'"

# 10. The README's live view of a wildcard: it matches existing tracepoints
#     only, so with none registered it finds none (status 3); with `register`
#     running in the background, as the README shows, it records.
step readme.none out readme.none "$EH" collect --live -d 1 'CliReadme_*'
"$EH" register CliReadme_L4K1 >"$R/readme.names" 2>"$R/readme.register.err" &
reg=$!
wait_lines "$R/readme.names" 1 "$reg"
step readme.live out readme.live "$EH" collect --live -d 1 'CliReadme_*'
kill -TERM "$reg"
wait "$reg"

rm -rf "$T"
echo done >"$R/done"
