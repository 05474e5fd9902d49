#!/usr/bin/env bash
# Guest script of the VM run `cli_perf` (manifest program cli_writer;
# started by tests/kernel/guest.sh as root in the user_events VM): perf's
# own tools on collect's three kinds of file (normal, pipe mode, a circular
# snapshot). It judges nothing: testkit's checks::cli_perf does, on the host.
#
#   perf_tools.sh CLI_WRITER EVENTHEADER
#
# Two writers per recording, each under a name of its own (copies of
# cli_writer): `ehlate`, started before collect and released once it
# records (its name reaches the file only through the records collect
# synthesizes from /proc), and `ehwriter`, collect's command (named by the
# kernel's own COMM record). Results go to $RESULT: status gets "NAME RC"
# per step; each step's output is in NAME.out / NAME.err; done marks the end.
set -u
W=$1
EH=$2
R=$RESULT
T=$(mktemp -d)
export LC_ALL=C
# shellcheck source=tests/kernel/guest-lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../../tests/kernel/guest-lib.sh"
guest_start perf_tools "$W" "$EH"
command -v perf >/dev/null || { echo "perf_tools guest: no perf" >&2; exit 1; }
cp "$W" "$T/ehlate"
cp "$W" "$T/ehwriter"

# late: starts `ehlate` waiting for $T/go (collect's command creates it).
late() {
    rm -f "$T/go"
    "$T/ehlate" late "$T/go" 20 >"$R/$1.late.out" 2>&1 &
    echo $! >"$T/late.pid"
}
# The command under collect: releases ehlate, writes, waits for ehlate.
cat >"$T/cmd.sh" <<CMD
touch '$T/go'
'$T/ehwriter' eh 20 >/dev/null
while kill -0 \$(cat '$T/late.pid') 2>/dev/null; do sleep 0.05; done
CMD
tps=(CliTest_L4K1 CliTest_L5K2)

late normal
step normal.collect out normal.collect "$EH" collect -o "$R/normal.data" "${tps[@]}" -- sh "$T/cmd.sh"
wait
late pipe
step pipe.collect bash -c "'$EH' collect -o - ${tps[*]} -- sh '$T/cmd.sh' >'$R/pipe.data' 2>'$R/pipe.collect.err'"
wait
late circular
step circular.collect out circular.collect "$EH" collect -c -o "$R/circ.data" "${tps[@]}" -- sh "$T/cmd.sh"
wait
cp "$R/circ.0001.data" "$R/circular.data" 2>/dev/null

# perf record's own pipe-mode stream, to compare with (perf 6.1's data
# convert crashes on every pipe-mode input: it prints the headers before it
# has read them from the stream).
"$EH" register CliSingle_L5K1 >"$T/single.names" 2>&1 &
reg=$!
for _ in $(seq 300); do grep -q . "$T/single.names" && break; sleep 0.1; done
step record-pipe.record bash -c "perf record -q --no-buildid --no-buildid-cache \
    -e user_events:CliSingle_L5K1 -o - -- '$W' single 20 2>'$R/record-pipe.record.err' \
    >'$R/record-pipe.data'"
kill -TERM "$reg"
wait "$reg"
step record-pipe.json out record-pipe.json perf data convert --to-json "$R/record-pipe.json" \
    -i "$R/record-pipe.data"

for kind in normal pipe circular; do
    f=$R/$kind.data
    step "$kind.script" out "$kind.script" perf script -i "$f"
    step "$kind.report" out "$kind.report" perf report --stats -i "$f"
    step "$kind.evlist" out "$kind.evlist" perf evlist -v -i "$f"
    step "$kind.json" out "$kind.json" perf data convert --to-json "$R/$kind.json" -i "$f"
done

rm -rf "$T"
echo done >"$R/done"
