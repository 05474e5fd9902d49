#!/usr/bin/env bash
# Inside a user_events VM, as root: runs the programs build.sh made, with
# the kernel, under perf record, and saves what tests/tpp.rs
# (kernel_results_decode_to_the_written_values, TPP_KERNEL_RESULTS=RESULTS_DIR)
# checks on the host.
#
#   c-tests/tpp/vm/guest.sh BIN_DIR RESULTS_DIR
#
# For each program P (tpp_all, tpp_layouts, tpp_custom), in RESULTS_DIR/P/:
#   regs.log        "STRING => ok INDEX" | "STRING => err ERRNO": uev_raw's
#                   answer to each pre-registration of BIN_DIR/P.regs
#   format/NAME     tracefs events/user_events/NAME/format of each registered one
#   program.log     P's output (it registers its own strings, then writes)
#   perf.data, perf.log   the recording (the checker reads the samples' raw
#                   data from perf.data itself: perf 6.1's python scripting
#                   crashes on a u8[] field whose bytes end in 0 but are not
#                   UTF-8, e.g. the reference's blob de ad be ef 00)
#   perf-script.txt perf script's own decoding (libtraceevent), in time order
# RESULTS_DIR/status: "P program_rc perf_rc regs_rc script_rc" per program
# (regs_rc: a format file could not be read), and "tpp_multi rc" for
# tpp_multi plain (registration with the kernel, nobody listening: every
# write disabled, nothing evaluated), its output in RESULTS_DIR/tpp_multi.log;
# RESULTS_DIR/done when everything ran.
#
# Recording: uev_raw pre-registers the names (perf can only open events that
# exist), perf record starts with events disabled (-D -1 --control fifo), the
# program runs only after perf acknowledged "enable" (perf sets the enable bit
# when it opens the event, before it records), and perf gets SIGINT after the
# program exited. Every recording has several events, so samples carry IDs.
set -u
[ $# -eq 2 ] || { echo "usage: $0 BIN_DIR RESULTS_DIR" >&2; exit 2; }
B=$1
R=$2
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TRACEFS=/sys/kernel/tracing
TMP=$(mktemp -d)
: >"$R/status"
rm -f "$R/done"
uname -r >"$R/kernel"
[ -w "$TRACEFS/user_events_data" ] || echo "no writable $TRACEFS/user_events_data" >"$R/guest_env"

run_program() {
    local prog=$1 out=$R/$1 regs=$B/$1.regs
    local events=() line n i=0 regs_rc=0 rc prc src reply
    rm -rf "$out"
    mkdir -p "$out/format"

    # Pre-register with uev_raw (a coprocess that holds the registrations).
    # regs.log: "STRING => ok INDEX" or "=> err ERRNO" (the checker knows which
    # strings the kernel rejects); perf records the registered ones.
    coproc UEV { "$B/uev_raw" serve 2>>"$out/uev_raw.log"; }
    while IFS= read -r line; do
        [ -n "$line" ] || continue
        echo "reg $i $line" >&"${UEV[1]}"
        read -r reply <&"${UEV[0]}" || reply="no answer"
        echo "$line => $reply" >>"$out/regs.log"
        n=${line%% *}
        if [ "${reply%% *}" = ok ]; then
            events+=(-e "user_events:$n")
            cp "$TRACEFS/events/user_events/$n/format" "$out/format/$n" 2>>"$out/uev_raw.log" || regs_rc=1
        fi
        i=$((i + 1))
    done <"$regs"

    local ctl=$TMP/$prog.ctl ack=$TMP/$prog.ack
    mkfifo "$ctl" "$ack"
    perf record -q --no-buildid --no-buildid-cache --control="fifo:$ctl,$ack" -D -1 \
        -o "$out/perf.data" "${events[@]}" >"$out/perf.log" 2>&1 &
    local perf=$!
    exec 7<>"$ctl" 8<>"$ack"
    echo enable >&7
    if read -r -t 60 -u 8 _; then
        "$B/$prog" >"$out/program.log" 2>&1
        rc=$?
    else
        echo "perf did not acknowledge 'enable'" >>"$out/program.log"
        rc=1
    fi
    kill -INT "$perf"
    wait "$perf"
    prc=$?
    exec 7>&- 8>&-
    echo quit >&"${UEV[1]}"
    wait "$UEV_PID" 2>/dev/null

    perf script -i "$out/perf.data" >"$out/perf-script.txt" 2>"$out/perf-script.log"
    src=$?
    echo "$prog $rc $prc $regs_rc $src" >>"$R/status"
}

run_program tpp_all
run_program tpp_layouts
run_program tpp_custom
"$B/tpp_multi" plain >"$R/tpp_multi.log" 2>&1
echo "tpp_multi $?" >>"$R/status"
echo done >"$R/done"
