#!/usr/bin/env bash
# Runs inside the VM (started by run.sh): executes the real-kernel tests and
# records what happened in OUT/results (the VM's --rwdir). run.sh judges.
#
#   guest.sh OUT RESULTS REFERENCE_DAT
#
# OUT holds the programs (read-only here); RESULTS is the writable mapping of
# OUT/results. RESULTS/status gets one line per run: "NAME rc" for plain programs,
# "NAME rc perf_rc holder_rc" for perf-recorded ones.
set -u
OUT=$1
R=$2
REF=$3
B=$OUT/bin
TMP=$(mktemp -d)
cut -d' ' -f1 /proc/uptime >"$R/boot-seconds"
echo "Linux $(uname -r)" >"$R/kernel"
: >"$R/status"

note() { echo "$*" >>"$R/status"; }

[ -w /sys/kernel/tracing/user_events_data ] || {
    echo "no /sys/kernel/tracing/user_events_data in the guest" >&2
    note "guest_env 1"
}

# run NAME cmd...: a self-checking program.
run() {
    local name=$1
    shift
    "$@" >"$R/$name.log" 2>&1
    note "$name $?"
}

# record NAME NAMES_FILE cmd...: pre-registers the tracepoint names with the
# reference's registration string (uev_raw hold), starts perf record on them
# with events disabled, enables through perf's control fifo and waits for the
# acknowledgement, so every event the program writes is captured; then runs
# the program with EHK_EXPECT_ENABLED=1 and stops perf.
record() {
    local name=$1 names=$2
    shift 2
    local ready=$TMP/$name.ready ctl=$TMP/$name.ctl ack=$TMP/$name.ack
    local events=() n rc prc hrc hold perf
    # perf writes samples without IDs when it records a single event, and
    # decoders then cannot attribute them: always record at least two.
    [ "$(grep -c . "$names")" -ge 2 ] || echo EhkSuiteSecond_L5K1 >>"$names"
    while read -r n; do
        [ -n "$n" ] && events+=(-e "user_events:$n")
    done <"$names"
    # shellcheck disable=SC2046
    "$B/uev_raw" hold "$ready" $(cat "$names") >"$R/$name.hold.log" 2>&1 &
    hold=$!
    for _ in $(seq 300); do [ -s "$ready" ] && break; sleep 0.1; done
    if [ "$(cat "$ready" 2>/dev/null)" != ok ]; then
        echo "pre-registration failed" >>"$R/$name.log"
        kill -TERM "$hold" 2>/dev/null
        wait "$hold"
        note "$name 1 - $?"
        return
    fi
    mkfifo "$ctl" "$ack"
    perf record -q --no-buildid --no-buildid-cache --control="fifo:$ctl,$ack" -D -1 \
        -o "$R/$name.perf.data" "${events[@]}" >"$R/$name.perf.log" 2>&1 &
    perf=$!
    exec 7<>"$ctl" 8<>"$ack"
    echo enable >&7
    if read -r -t 60 -u 8 _; then
        EHK_EXPECT_ENABLED=1 EHK_EXPECT_FILE=$R/$name.expect "$@" >"$R/$name.log" 2>&1
        rc=$?
    else
        echo "perf did not acknowledge 'enable'" >>"$R/$name.log"
        rc=1
    fi
    kill -INT "$perf"
    wait "$perf"
    prc=$?
    exec 7>&- 8>&-
    kill -TERM "$hold"
    wait "$hold"
    hrc=$?
    note "$name $rc $prc $hrc"
}

two_writers() {
    local a b ra rb
    "$B/t_writer" 500 &
    a=$!
    "$B/t_writer" 500 &
    b=$!
    wait "$a"
    ra=$?
    wait "$b"
    rb=$?
    return $((ra | rb))
}

# 1. registration, enablement, unregistration
run basic_program "$B/t_basic" "$B/uev_raw" "$R"
note "basic $(awk '$1 == "basic_program" { print $2 }' "$R/status") 0 0"
# 3. coexistence with raw-ioctl registrations
run coexist "$B/t_coexist" "$B/uev_raw"
# 2. byte identity: the reference suite's events through eventheader_write,
#    capture mode and perf, pinned to one CPU so time order is write order
run replay.capture env TRACEPOINT_CAPTURE_FILE="$R/replay.cap" taskset -c 0 "$B/t_replay" "$REF"
"$B/t_replay" "$REF" --names >"$TMP/replay.names"
record replay "$TMP/replay.names" taskset -c 0 "$B/t_replay" "$REF"
# 4. fork, two writers, many tracepoints
"$B/t_fork" --names >"$TMP/fork.names"
record fork "$TMP/fork.names" "$B/t_fork"
"$B/t_writer" --names >"$TMP/multi.names"
record multi "$TMP/multi.names" two_writers
"$B/t_many" --names >"$TMP/many.names"
record many "$TMP/many.names" "$B/t_many"

# 2. byte identity for further suites (run.sh lists them in OUT/identity.list as
#    "NAME COMMAND..."): capture mode first, its tracepoint names then recorded
while read -r name cmd; do
    [ -n "$name" ] || continue
    # shellcheck disable=SC2086
    run "$name.capture" env TRACEPOINT_CAPTURE_FILE="$R/$name.cap" taskset -c 0 $cmd
    "$OUT/verify/release/ehkv" names "$R/$name.cap" >"$TMP/$name.names" 2>>"$R/$name.capture.log"
    # shellcheck disable=SC2086
    record "$name" "$TMP/$name.names" taskset -c 0 $cmd
done <"$OUT/identity.list"

echo done >"$R/done"
