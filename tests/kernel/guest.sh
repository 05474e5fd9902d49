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
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
TMP=$(mktemp -d)
cut -d' ' -f1 /proc/uptime >"$R/boot-seconds"
echo "Linux $(uname -r)" >"$R/kernel"
: >"$R/status"

note() { echo "$*" >>"$R/status"; }
now() { date +%s.%N; }
# took NAME START: RESULTS/times gets "NAME SECONDS" (for run.log)
took() { awk -v n="$1" -v a="$2" -v b="$(now)" 'BEGIN { printf "%s %.1f\n", n, b - a }' >>"$R/times"; }
: >"$R/times"

[ -w /sys/kernel/tracing/user_events_data ] || {
    echo "no /sys/kernel/tracing/user_events_data in the guest" >&2
    note "guest_env 1"
}

# run NAME cmd...: a self-checking program.
run() {
    local name=$1 t0
    shift
    t0=$(now)
    "$@" >"$R/$name.log" 2>&1
    note "$name $?"
    took "$name" "$t0"
}

# record NAME NAMES_FILE cmd...: pre-registers the tracepoint names with the
# reference's registration string (uev_raw hold), starts perf record on them
# with events disabled, enables through perf's control fifo and waits for the
# acknowledgement, so every event the program writes is captured; then runs
# the program with EHK_EXPECT_ENABLED=1 and stops perf. PERF_OPTS (a variable,
# split on spaces) adds perf record options.
record() {
    local name=$1 names=$2 t0
    shift 2
    t0=$(now)
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
    # shellcheck disable=SC2086
    perf record -q --no-buildid --no-buildid-cache --control="fifo:$ctl,$ack" -D -1 ${PERF_OPTS:-} \
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
    took "$name" "$t0"
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

# 5. the hardening programs of c-tests/hardening under real user_events, with
#    perf listening on their tracepoints for the whole run
#    stress: 10 s; each writer at most 500 writes per second per event (the
#    program's default, 2000, makes up to 32000 samples per second, more than
#    perf drains under TCG: it lost a third of them), larger perf buffers
printf '%s\n' HardStress_L5K1 HardStress_L4K2 HardStressAlt_L4K2 >"$TMP/stress.names"
PERF_OPTS="-m 4M" record stress "$TMP/stress.names" "$B/h_stress" 10 kernel 500
printf '%s\n' HardFork_L5K1 HardFork_L5K2 >"$TMP/fork_busy.names"
# HARDENING_FORK_ALARM: the deadlock alarm of each busy child (default 5 s), longer under TCG
record fork_busy "$TMP/fork_busy.names" \
    env HARDENING_EXPECT_ENABLED=1 HARDENING_FORK_ALARM=20 "$B/h_fork" kernel busy
echo HardDl_L5K1 >"$TMP/dlclose.names" # record adds the second event
record dlclose "$TMP/dlclose.names" \
    env HARDENING_EXPECT_ENABLED=1 "$B/h_dlclose_loop" "$B/libdlprov.so" 1000 kernel

# 7. the bad-input rows that need a second user: user_events_data without
#    permission (EACCES, then granted through a group), and
#    TRACEPOINT_CAPTURE_FILE ignored by a setuid program. t_perm is copied to
#    a tmpfs of its own (the host tree may not be readable by nobody, and a
#    setuid bit needs a mount that honours it); it carries the library.
NOBODY=65534
PERM_GID=4242
P=/tmp/ehk-perm
TRACEFS=/sys/kernel/tracing
UED=$TRACEFS/user_events_data
as_nobody() { setpriv --reuid=$NOBODY --regid=$NOBODY "$@"; }
mkdir -m 0755 -p "$P" && mount -t tmpfs -o mode=1777 ehkperm "$P"
cp "$B/t_perm" "$P/t_perm" && chmod 0755 "$P/t_perm"
tracefs_mode=$(stat -c '%a %g' "$TRACEFS")
ued_mode=$(stat -c '%a %g' "$UED")
chmod 0700 "$TRACEFS" && chmod 0600 "$UED" && chgrp 0 "$TRACEFS" "$UED"
run perm_denied as_nobody --clear-groups "$P/t_perm" denied
chgrp "$PERM_GID" "$TRACEFS" "$UED" && chmod 0710 "$TRACEFS" && chmod 0660 "$UED"
run perm_granted as_nobody --groups="$PERM_GID" "$P/t_perm" granted
read -r m g <<<"$tracefs_mode" && chmod "$m" "$TRACEFS" && chgrp "$g" "$TRACEFS"
read -r m g <<<"$ued_mode" && chmod "$m" "$UED" && chgrp "$g" "$UED"
suid_check() {
    local n=0 bad=0
    cp "$P/t_perm" "$P/t_suid" && chown 0:0 "$P/t_suid" && chmod 4755 "$P/t_suid"
    local out_suid out_plain
    out_suid=$(as_nobody --clear-groups env TRACEPOINT_CAPTURE_FILE="$P/suid.dat" "$P/t_suid" suid 2>&1)
    out_plain=$(as_nobody --clear-groups env TRACEPOINT_CAPTURE_FILE="$P/plain.dat" "$P/t_perm" suid 2>&1)
    printf 'setuid run:\n%s\nplain run:\n%s\n' "$out_suid" "$out_plain"
    ls -l "$P"
    check() { n=$((n + 1)); if eval "$1"; then :; else bad=$((bad + 1)); echo "FAIL suid: $2"; fi; }
    check '[[ "$out_suid" == *"ruid $NOBODY euid 0"* ]]' "the setuid copy did not run as ruid nobody, euid root"
    check '[[ "$out_plain" == *"ruid $NOBODY euid $NOBODY"* ]]' "the plain copy did not run as nobody"
    check '[ ! -e "$P/suid.dat" ]' "the setuid-root run created $P/suid.dat"
    check '[ -s "$P/plain.dat" ]' "the plain run as nobody wrote no $P/plain.dat"
    check '[ "$(stat -c %u "$P/plain.dat" 2>/dev/null)" = $NOBODY ]' "plain.dat is not owned by nobody"
    check 'grep -qa EhkPerm_L5K0 "$P/plain.dat"' "plain.dat has no EhkPerm_L5K0 record"
    echo "suid: $n checks, $bad failed"
    [ "$bad" = 0 ]
}
run suid suid_check
umount "$P"

# 6. instruction counts of the benchmark (benches/c, built by run.sh) with
#    user_events, N = 500 vs 1000; last, because it leaves its tracepoint
#    enabled in tracefs. Each valgrind run costs 3-9 s under TCG (12 runs), so
#    the three modes run in parallel, one run-callgrind.sh each: callgrind
#    counts the process's own instructions, whatever else runs.
BENCH_MODES="disabled enabled5 empty"
bench() {
    local m pids=() rc=0
    for m in $BENCH_MODES; do
        bash "$REPO/benches/run-callgrind.sh" --user-events --no-build --bin-dir "$OUT/bench-c" \
            --modes "$m" -n 500 --tsv "$TMP/bench.$m.tsv" >"$TMP/bench.$m.log" 2>&1 &
        pids+=($!)
    done
    for m in "${pids[@]}"; do
        wait "$m" || rc=1
    done
    : >"$R/bench.tsv"
    # shellcheck disable=SC2086
    set -- $BENCH_MODES
    head -n 2 "$TMP/bench.$1.log" # the title and the column names
    for m in $BENCH_MODES; do
        tail -n +3 "$TMP/bench.$m.log"
        cat "$TMP/bench.$m.tsv" >>"$R/bench.tsv" 2>/dev/null
    done
    return "$rc"
}
run bench bench

echo done >"$R/done"
