#!/usr/bin/env bash
# Guest script of the VM runs tpp_all, tpp_layouts and tpp_custom (manifest
# programs of the same names, tracepoint-provider.h): plain tracepoints with
# the kernel, under perf record.
#
#   tpp/guest.sh PROGRAM REGS      (REGS: registration strings, relative to the
#                             repository; "flags<TAB>" prefixes and # comments
#                             are skipped)
#
# 1. uev_raw (a coprocess) pre-registers each string of REGS verbatim, so perf
#    can open the tracepoints before the program runs and the program's own
#    registrations must match them exactly (else EADDRINUSE): $RESULT.regs.log
#    gets "STRING => ok INDEX" or "STRING => err ERRNO" (the judge knows which
#    ones the kernel refuses); $RESULT.format/NAME the tracefs format of each
#    accepted one.
# 2. perf record of the accepted ones starts with events disabled (-D -1
#    --control fifo); PROGRAM runs only after perf acknowledged "enable"
#    ($RESULT.out, its exit status in $RESULT.rc); perf gets SIGINT after it
#    exited: $RESULT.perf.data, $RESULT.perf.log.
# 3. perf script's own decoding (libtraceevent): $RESULT.perf-script.txt.
#
# Exits non-zero if any step other than the program failed; testkit's
# checks::tpp judges the files (the program's status included).
set -u
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
PROGRAM=$1
REGS=$REPO/$2
TRACEFS=/sys/kernel/tracing
WORK=${TMP:-$(mktemp -d)}/tpp.$(basename "$RESULT")
rc=0
rm -rf "$WORK" "$RESULT.format"
mkdir -p "$WORK" "$RESULT.format"
: >"$RESULT.regs.log"
[ -r "$REGS" ] || { echo "tpp/guest.sh: no $REGS" >&2; exit 2; }

coproc UEV { "$B/uev_raw" serve 2>>"$WORK/uev_raw.log"; }
uev=$UEV_PID
events=()
i=0
while IFS= read -r line; do
    line=${line#*$'\t'}
    case $line in '' | '#'*) continue ;; esac
    echo "reg $i $line" >&"${UEV[1]}"
    read -r reply <&"${UEV[0]}" || reply="no answer"
    echo "$line => $reply" >>"$RESULT.regs.log"
    name=${line%% *}
    if [ "${reply%% *}" = ok ]; then
        events+=(-e "user_events:$name")
        cp "$TRACEFS/events/user_events/$name/format" "$RESULT.format/$name" || rc=1
    fi
    i=$((i + 1))
done <"$REGS"
[ "${#events[@]}" -ge 2 ] || { echo "tpp/guest.sh: fewer than 2 tracepoints registered" >&2; rc=1; }

mkfifo "$WORK/ctl" "$WORK/ack"
perf record -q --no-buildid --no-buildid-cache --control="fifo:$WORK/ctl,$WORK/ack" -D -1 \
    -o "$RESULT.perf.data" "${events[@]}" >"$RESULT.perf.log" 2>&1 &
perf=$!
exec 7<>"$WORK/ctl" 8<>"$WORK/ack"
echo enable >&7
if read -r -t 60 -u 8 _; then
    "$PROGRAM" >"$RESULT.out" 2>&1 </dev/null
    echo $? >"$RESULT.rc"
else
    echo "tpp/guest.sh: perf did not acknowledge 'enable'" >&2
    rc=1
fi
kill -INT "$perf"
wait "$perf"
prc=$?
exec 7>&- 8>&-
[ "$prc" = 0 ] || [ "$prc" = 130 ] || { echo "tpp/guest.sh: perf record exited $prc" >&2; cat "$RESULT.perf.log" >&2; rc=1; }
echo quit >&"${UEV[1]}"
wait "$uev" || { echo "tpp/guest.sh: uev_raw failed" >&2; cat "$WORK/uev_raw.log" >&2; rc=1; }

perf script -i "$RESULT.perf.data" >"$RESULT.perf-script.txt" 2>"$WORK/perf-script.log" ||
    { echo "tpp/guest.sh: perf script failed" >&2; cat "$WORK/perf-script.log" >&2; rc=1; }
echo "$(basename "$PROGRAM"): exit $(cat "$RESULT.rc" 2>/dev/null), $(grep -c ' => ok' "$RESULT.regs.log") of $i strings registered"
exit "$rc"
