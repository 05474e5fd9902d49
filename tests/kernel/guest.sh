#!/usr/bin/env bash
# Runs inside the VM (started by run.sh): executes OUT/plan, one run per line
# (written by `testkit kernel-plan` from the manifest; the line format is in
# tests/testkit/src/kernel.rs), and records what happened in RESULTS (the
# VM's --rwdir). run.sh judges (`testkit kernel-judge`).
#
#   guest.sh OUT RESULTS TESTKIT
#
# OUT holds the programs (read-only here); RESULTS is the writable mapping of
# OUT/results. RESULTS/status gets one line per run: "NAME rc" for plain runs,
# "NAME rc perf_rc holder_rc" for perf-recorded ones. Guest scripts that a
# run starts (perm.sh, bench.sh) find RESULTS in $R, the programs in $B, a
# scratch directory in $TMP and the prefix for their own result files in
# $RESULT.
set -u
OUT=$1
R=$2
TESTKIT=$3
B=$OUT/bin
TMP=$(mktemp -d)
export R B TMP
cut -d' ' -f1 /proc/uptime >"$R/boot-seconds"
echo "Linux $(uname -r)" >"$R/kernel"
# shellcheck source=tests/kernel/guest-lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/guest-lib.sh"
results_init

[ -w /sys/kernel/tracing/user_events_data ] || {
    echo "no /sys/kernel/tracing/user_events_data in the guest" >&2
    note "guest_env 1"
}

# with_env ENV cmd...: runs cmd with ENV ("-" or "K=V,K=V") added.
with_env() {
    local envs=$1
    shift
    if [ "$envs" = - ]; then
        "$@"
    else
        local pairs
        IFS=, read -r -a pairs <<<"$envs"
        env "${pairs[@]}" "$@"
    fi
}

# copies N cmd...: N copies of cmd at once; fails if any fails.
copies() {
    local n=$1 pids=() rc=0 i p
    shift
    for ((i = 0; i < n; i++)); do
        "$@" &
        pids+=($!)
    done
    for p in "${pids[@]}"; do
        wait "$p" || rc=1
    done
    return "$rc"
}

# run NAME ENV cmd...: a self-checking program (or a guest script).
run() {
    local name=$1 envs=$2 t0
    shift 2
    t0=$(now)
    RESULT=$R/$name with_env "$envs" "$@" >"$R/$name.log" 2>&1 </dev/null
    note "$name $?"
    took "$name" "$t0"
}

# perf_on NAME NAMES_FILE [PERF_OPTS...]: starts `perf record` of the
# tracepoints named in NAMES_FILE into RESULTS/NAME.perf.data with events
# disabled, enables them through perf's control fifo and waits for the
# acknowledgement (fails without it, at once if perf exited, e.g. on a
# tracepoint that does not exist); PERF is perf's pid.
perf_on() {
    local name=$1 names=$2 tp events=()
    local ctl=$TMP/$name.ctl ack=$TMP/$name.ack
    shift 2
    while read -r tp; do
        [ -n "$tp" ] && events+=(-e "user_events:$tp")
    done <"$names"
    mkfifo "$ctl" "$ack"
    perf record -q --no-buildid --no-buildid-cache --control="fifo:$ctl,$ack" -D -1 "$@" \
        -o "$R/$name.perf.data" "${events[@]}" >"$R/$name.perf.log" 2>&1 &
    PERF=$!
    exec 7<>"$ctl" 8<>"$ack"
    echo enable >&7
    for _ in $(seq 60); do
        read -r -t 1 -u 8 _ && return 0
        kill -0 "$PERF" 2>/dev/null || return 1
    done
    return 1
}

# perf_off: stops the perf of perf_on; returns perf's exit status.
perf_off() {
    local prc
    kill -INT "$PERF" 2>/dev/null
    wait "$PERF"
    prc=$?
    exec 7>&- 8>&-
    return "$prc"
}

# record NAME ENV NAMES PERF_OPTS COPIES cmd...: pre-registers the tracepoint
# names (NAMES: a comma list, a file of names, or "?" for `cmd --names`) with
# the reference's registration string (uev_raw hold), starts perf record on
# them with events disabled, enables through perf's control fifo and waits
# for the acknowledgement, so every event the program writes is captured;
# then runs COPIES copies of the program with EHK_EXPECT_ENABLED=1 and stops
# perf. PERF_OPTS ("-" or comma-separated) adds perf record options.
record() {
    local name=$1 envs=$2 names_spec=$3 opts_spec=$4 n=$5 t0
    shift 5
    t0=$(now)
    local names=$TMP/$name.names ready=$TMP/$name.ready
    local opts=() rc prc hrc hold
    case $names_spec in
    \?) "$1" --names >"$names" ;;
    /*) cp "$names_spec" "$names" ;;
    *) tr , '\n' <<<"$names_spec" >"$names" ;;
    esac
    [ "$opts_spec" = - ] || IFS=, read -r -a opts <<<"$opts_spec"
    # perf writes samples without IDs when it records a single event, and
    # decoders then cannot attribute them: always record at least two.
    [ "$(grep -c . "$names")" -ge 2 ] || echo EhkSuiteSecond_L5K1 >>"$names"
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
    if perf_on "$name" "$names" "${opts[@]}"; then
        EHK_EXPECT_ENABLED=1 EHK_EXPECT_FILE=$R/$name.expect copies "$n" with_env "$envs" "$@" \
            >"$R/$name.log" 2>&1 </dev/null
        rc=$?
    else
        echo "perf did not acknowledge 'enable'" >>"$R/$name.log"
        rc=1
    fi
    perf_off
    prc=$?
    kill -TERM "$hold"
    wait "$hold"
    hrc=$?
    note "$name $rc $prc $hrc"
    took "$name" "$t0"
}

# identity NAME ENV cmd...: capture mode first (NAME.capture, NAME.cap), then
# a recording of the tracepoint names it captured; both pinned to one CPU so
# time order is write order.
identity() {
    local name=$1 envs=$2
    shift 2
    run "$name.capture" "$envs" env TRACEPOINT_CAPTURE_FILE="$R/$name.cap" taskset -c 0 "$@"
    "$TESTKIT" names "$R/$name.cap" >"$TMP/$name.capture.names" 2>>"$R/$name.capture.log"
    record "$name" "$envs" "$TMP/$name.capture.names" - 1 taskset -c 0 "$@"
}

# identity_registered NAME ENV cmd...: like identity, but nothing is
# pre-registered: the program runs with EHK_READY_FILE and EHK_GO_FILE,
# registers its providers, creates READY and waits for GO; perf then starts
# on the tracepoints of the capture-mode run (and fails if one of them does
# not exist yet), and GO lets the program write. Status "NAME rc perf_rc 0".
identity_registered() {
    local name=$1 envs=$2 t0 prog rc prc
    shift 2
    local names=$TMP/$name.capture.names ready=$TMP/$name.ready go=$TMP/$name.go
    run "$name.capture" "$envs" env TRACEPOINT_CAPTURE_FILE="$R/$name.cap" taskset -c 0 "$@"
    "$TESTKIT" names "$R/$name.cap" >"$names" 2>>"$R/$name.capture.log"
    t0=$(now)
    if [ "$(grep -c . "$names")" -lt 2 ]; then
        # perf writes samples without IDs when it records a single event.
        echo "fewer than two tracepoints in $name.cap" >"$R/$name.log"
        note "$name 1 - 0"
        return
    fi
    with_env "$envs" env EHK_READY_FILE="$ready" EHK_GO_FILE="$go" taskset -c 0 "$@" \
        >"$R/$name.log" 2>&1 </dev/null &
    prog=$!
    for _ in $(seq 600); do
        [ -e "$ready" ] && break
        kill -0 "$prog" 2>/dev/null || break
        sleep 0.1
    done
    if [ ! -e "$ready" ]; then
        echo "guest: the program did not create $ready" >>"$R/$name.perf.log"
    elif ! perf_on "$name" "$names"; then
        echo "guest: perf did not acknowledge 'enable'" >>"$R/$name.perf.log"
    fi
    touch "$go"
    wait "$prog"
    rc=$?
    perf_off
    prc=$?
    note "$name $rc $prc 0"
    took "$name" "$t0"
}

# The plan: KIND NAME ENV NAMES PERF_OPTS COPIES COMMAND..., tab-separated.
while IFS=$'\t' read -r -u 3 -a f; do
    [ "${#f[@]}" -ge 7 ] || continue
    cmd=("${f[@]:6}")
    cmd=("${cmd[@]//\{results\}/$R}")
    case ${f[0]} in
    run) run "${f[1]}" "${f[2]}" "${cmd[@]}" ;;
    identity) identity "${f[1]}" "${f[2]}" "${cmd[@]}" ;;
    identity-registered) identity_registered "${f[1]}" "${f[2]}" "${cmd[@]}" ;;
    record) record "${f[1]}" "${f[2]}" "${f[3]}" "${f[4]}" "${f[5]}" "${cmd[@]}" ;;
    *)
        echo "unknown kind in plan line: ${f[*]}" >>"$R/${f[1]}.log"
        note "${f[1]} 1"
        ;;
    esac
done 3<"$OUT/plan"

echo done >"$R/done"
