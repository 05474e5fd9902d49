#!/usr/bin/env bash
# Runs inside the user_events VM, as root: records the porting suite's events
# with perf, after capturing them in capture mode. tests/windows_port.rs
# (WINPORT_VM_RESULTS=RESULTS_DIR) checks the results on the host.
#
#   c-tests/windows-port/vm/guest.sh BIN_DIR RESULTS_DIR
#
# For each program P of BIN_DIR/programs (built by build.sh):
# 1. capture mode: TRACEPOINT_CAPTURE_FILE=RESULTS_DIR/P.cap P;
# 2. the tracepoint names of that capture (P names P.cap);
# 3. P kernel READY GO: the program registers its providers (and asks
#    TraceLoggingProviderEnabled for the level/keyword of its handle call sites,
#    which registers their tracepoints), creates READY and waits for GO;
# 4. perf record on every name (at least two, so samples carry ids; perf fails
#    if a name is not registered yet: the program registered it before its
#    first write), started with events disabled and enabled through its
#    control fifo; GO is created once perf acknowledged, so every write is
#    recorded; then perf stops.
# RESULTS_DIR/status gets "P CAPTURE_RC KERNEL_RC PERF_RC" per program (perf's
# 130 after the SIGINT that stops it counts as 0); the logs are
# RESULTS_DIR/P.{capture,kernel,perf}.log; RESULTS_DIR/done marks the end.
set -u
B=${1:?usage: guest.sh BIN_DIR RESULTS_DIR}
R=${2:?usage: guest.sh BIN_DIR RESULTS_DIR}
mkdir -p "$R"
TMP=$(mktemp -d)
: >"$R/status"
[ -w /sys/kernel/tracing/user_events_data ] || echo "guest.sh: no writable /sys/kernel/tracing/user_events_data" >&2

for p in $(cat "$B/programs"); do
    TRACEPOINT_CAPTURE_FILE=$R/$p.cap taskset -c 0 "$B/$p" >"$R/$p.capture.log" 2>&1
    crc=$?
    "$B/$p" names "$R/$p.cap" >"$TMP/$p.names" 2>>"$R/$p.capture.log" || crc=1

    events=()
    while read -r n; do
        [ -n "$n" ] && events+=(-e "user_events:$n")
    done <"$TMP/$p.names"
    if [ "${#events[@]}" -lt 4 ]; then
        echo "guest.sh: fewer than two tracepoint names in $p.cap" >>"$R/$p.capture.log"
        crc=1
    fi

    ready=$TMP/$p.ready go=$TMP/$p.go ctl=$TMP/$p.ctl ack=$TMP/$p.ack
    taskset -c 0 "$B/$p" kernel "$ready" "$go" >"$R/$p.kernel.log" 2>&1 &
    prog=$!
    for _ in $(seq 600); do
        [ -s "$ready" ] && break
        kill -0 "$prog" 2>/dev/null || break
        sleep 0.1
    done
    mkfifo "$ctl" "$ack"
    perf record -q --no-buildid --no-buildid-cache --control="fifo:$ctl,$ack" -D -1 \
        -o "$R/$p.perf.data" "${events[@]}" >"$R/$p.perf.log" 2>&1 &
    perf=$!
    exec 7<>"$ctl" 8<>"$ack"
    echo enable >&7
    if ! read -r -t 60 -u 8 _; then
        echo "guest.sh: perf did not acknowledge 'enable'" >>"$R/$p.perf.log"
    fi
    touch "$go"
    wait "$prog"
    krc=$?
    kill -INT "$perf" 2>/dev/null
    wait "$perf"
    prc=$?
    [ "$prc" = 130 ] && prc=0 # perf's status after the SIGINT that stops it
    exec 7>&- 8>&-
    echo "$p $crc $krc $prc" >>"$R/status"
done
rm -rf "$TMP"
echo done >"$R/done"
