# Runs inside the arm64 VM (busybox sh, started by init): the checks of
# tests/kernel/arm64/run.sh, recorded in RESULTS for the host to judge.
#
#   sh guest.sh SHARE RESULTS
#
# SHARE (read-only) holds bin/ (the aarch64 programs and `eventheader`), the
# reference capture and its tracepoint names. RESULTS/status gets one line
# "NAME rc" per step; RESULTS/times one line "NAME SECONDS".
S=$1
R=$2
B=$S/bin
T=$(mktemp -d)
# shellcheck source=tests/kernel/guest-lib.sh
. "$S/guest-lib.sh"
results_init
uname -m >"$R/machine"
echo "Linux $(uname -r)" >"$R/kernel"
cut -d' ' -f1 /proc/uptime >"$R/boot-seconds"

# wait_file FILE PID: up to 60 s for FILE to exist while PID runs.
wait_file() {
    i=0
    while [ ! -e "$1" ] && [ "$i" -lt 600 ] && kill -0 "$2" 2>/dev/null; do
        sleep 0.1
        i=$((i + 1))
    done
    [ -e "$1" ]
}

if [ -w /sys/kernel/tracing/user_events_data ]; then note "env 0"; else note "env 1"; fi

# perf: Debian's arm64 perf and its libraries in /perf, run through their own
# loader; on PATH for the programs that start it themselves (t_basic).
mkdir -p "$T/bin"
cat >"$T/bin/perf" <<'PERF'
#!/bin/sh
exec /perf/lib/ld-linux-aarch64.so.1 --library-path /perf/lib/aarch64-linux-gnu:/perf/usr/lib/aarch64-linux-gnu \
    /perf/usr/bin/perf "$@"
PERF
chmod +x "$T/bin/perf"
export PATH="$T/bin:$PATH"

# 0. The x86_64 suite's registration tests (tests/kernel/src), self-checking:
#    basic (registration, tracefs and perf enabling, unregistration; its
#    recording judged by the host against basic.expect) and coexist (the
#    reference's registration strings from another process, uev_raw).
t0=$(now)
"$B/t_basic" "$B/uev_raw" "$T" >"$R/basic.log" 2>&1 </dev/null
note "basic $?"
cp "$T/basic.perf.data" "$T/basic.expect" "$T/basic.perf.log" "$R/" 2>>"$R/basic.log"
took basic "$t0"
t0=$(now)
"$B/t_coexist" "$B/uev_raw" >"$R/coexist.log" 2>&1 </dev/null
note "coexist $?"
took coexist "$t0"

# 1. Registration and the enable bit: t_enable registers; collect enables
#    and, once it records, runs a command that creates GO and waits for
#    t_enable's three writes (ENABLED); then collect stops and the bit clears.
t0=$(now)
"$B/t_enable" "$T/ready" "$T/go" "$T/enabled" >"$R/enable.log" 2>&1 &
prog=$!
if wait_file "$T/ready" "$prog"; then
    "$B/eventheader" collect -o "$R/enable.data" EhkArmEnable_L5K1 -- sh -c \
        'touch "$1"; i=0; while [ ! -e "$2" ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done' \
        sh "$T/go" "$T/enabled" >"$R/enable.collect.log" 2>&1
    note "enable.collect $?"
else
    echo "guest: t_enable did not create $T/ready" >>"$R/enable.collect.log"
    note "enable.collect 1"
fi
wait "$prog"
note "enable $?"
took enable "$t0"

# 2. The reference replay: capture mode, then the same program under collect
#    on the reference's tracepoints (collect registers them before the program
#    runs, so every tracepoint is enabled from the program's first write).
t0=$(now)
TRACEPOINT_CAPTURE_FILE=$R/replay.cap taskset -c 0 "$B/t_replay" "$S/reference.dat" \
    >"$R/replay.capture.log" 2>&1
note "replay.capture $?"
took replay.capture "$t0"
t0=$(now)
# shellcheck disable=SC2046 # one tracepoint name per line, no blanks
"$B/eventheader" collect -o "$R/replay.data" $(cat "$S/replay.names") -- \
    taskset -c 0 env EHK_EXPECT_ENABLED=1 "$B/t_replay" "$S/reference.dat" >"$R/replay.log" 2>&1
note "replay $?"
took replay "$t0"

# 2b. The same under perf record: `eventheader register` holds the
#     tracepoints so that perf can open them before the program runs.
t0=$(now)
# shellcheck disable=SC2046
"$B/eventheader" register $(cat "$S/replay.names") >"$T/registered" 2>"$R/replay.register.log" &
reg=$!
want=$(grep -c . "$S/replay.names")
i=0
while [ "$(grep -c . "$T/registered" 2>/dev/null)" != "$want" ] && [ "$i" -lt 600 ] && kill -0 "$reg" 2>/dev/null; do
    sleep 0.1
    i=$((i + 1))
done
events=$(sed 's/^/-e user_events:/' "$S/replay.names")
# shellcheck disable=SC2086 # one "-e user_events:NAME" per word
perf record -q --no-buildid --no-buildid-cache -o "$R/replay.perf.data" $events -- \
    taskset -c 0 env EHK_EXPECT_ENABLED=1 "$B/t_replay" "$S/reference.dat" >"$R/replay.perf.log" 2>&1
note "replay.perf $?"
kill -TERM "$reg"
wait "$reg"
note "replay.register $?"
took replay.perf "$t0"

# 3. A 32-bit process (AArch32, COMPAT) registering with raw ioctls.
t0=$(now)
"$B/t_compat32" >"$R/compat32.log" 2>&1
note "compat32 $?"
took compat32 "$t0"

# 4. Instruction counts (callgrind, Debian's arm64 valgrind in /valgrind, run
#    through the guest's own loader) of the bench programs with user_events,
#    each program enabling its tracepoint through tracefs (last: that stays
#    enabled). bench/plan has one "PROGRAM MODE" per line; each runs with N
#    and 2N iterations, in two lanes (callgrind counts the process's own
#    instructions, whatever else runs). bench.totals gets
#    "PROGRAM MODE ITERATIONS TOTAL_IR STATUS" per run for the host to judge.
t0=$(now)
n=$(cat "$S/bench/n")
: >"$T/bench.totals"
bench_run() { # PROGRAM MODE ITERATIONS
    out=$T/cg.$1.$2.$3
    VALGRIND_LIB=/valgrind/usr/libexec/valgrind GLIBCXX_FORCE_NEW=1 LD_LIBRARY_PATH="$S/bench/lib:$B" \
        /valgrind/usr/bin/valgrind.bin --tool=callgrind --callgrind-out-file="$out" \
        "$S/bench/$1" "$2" "$3" --tracefs-enable >"$out.log" 2>&1
    rc=$?
    [ "$rc" = 0 ] || cp "$out.log" "$R/bench.$1.$2.$3.log"
    echo "$1 $2 $3 $(awk '$1 == "totals:" || $1 == "summary:" { print $2; exit }' "$out" 2>/dev/null) $rc" \
        >>"$T/bench.totals"
    rm -f "$out" "$out.log"
}
bench_lane() { # LANE: every other line of the plan
    grep -v '^$' "$S/bench/plan" | awk -v l="$1" 'NR % 2 == l' | while read -r prog mode; do
        bench_run "$prog" "$mode" "$n"
        bench_run "$prog" "$mode" $((2 * n))
    done
}
bench_lane 0 &
lane=$!
bench_lane 1
wait "$lane"
cp "$T/bench.totals" "$R/bench.totals"
note "bench 0"
took bench "$t0"

echo done >"$R/done"
