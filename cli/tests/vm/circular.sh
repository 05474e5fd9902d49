#!/usr/bin/env bash
# Guest script of the VM run `cli_circular` (manifest program cli_writer;
# started by tests/kernel/guest.sh as root in the user_events VM):
# `eventheader collect --circular` against the real kernel. It judges
# nothing: testkit's checks::cli_circular does, on the host.
#
#   circular.sh CLI_WRITER EVENTHEADER
#
# Results go to $RESULT: status gets "NAME RC" per step, times "NAME
# SECONDS"; each step's output is in NAME.out / NAME.err; the snapshot files
# keep their names; done marks the end.
set -u
W=$1
EH=$2
R=$RESULT
export LC_ALL=C
# shellcheck source=tests/kernel/guest-lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../../tests/kernel/guest-lib.sh"
guest_start circular "$W" "$EH"

# The command after `--` runs under collect: its $PPID is collect. Snapshot
# files exist once the rings were copied (resumed). At most 30 s.
wait_file='i=0; while [ ! -e "$1" ] && [ $i -lt 600 ]; do sleep 0.05; i=$((i + 1)); done'
nproc >"$R/cpus"

# 1. SIGUSR1: 30000 events, a snapshot, 20000 more, the command exits (the
#    final snapshot). Each file holds its own burst, no event twice.
step signal out signal "$EH" collect -c -b 8M -o "$R/sig.data" CliBurst_L5K1 -- sh -c "
    '$W' burst 30000 >'$R/signal.w1' || exit 1
    kill -USR1 \$PPID
    set -- '$R/sig.0001.data'; $wait_file
    '$W' burst 20000 >'$R/signal.w2'"
ls "$R" | grep '^sig\.[0-9]' >"$R/signal.files"
step signal.perf-script out signal.perf-script perf script -i "$R/sig.0001.data"

# 2. A snapshot on an event: 10^5 verbose events (more than 4 MiB per CPU
#    holds), then one critical one; the snapshot holds it and the last
#    verbose events before it.
step trigger out trigger "$EH" collect -c -b 4M --snapshot-on level=1 -o "$R/crit.data" \
    CliCrit_L5K1 CliCrit_L1K1 -- "$W" crit 100000 0
ls "$R" | grep '^crit\.[0-9]' >"$R/trigger.files"
step trigger.decode out trigger.decode "$EH" decode --jsonl --meta level "$R/crit.0001.data"

#    --after 1: what follows the critical event too (500 more verbose ones,
#    then the command waits 2 s: the snapshot comes before it exits).
step after out after "$EH" collect -c -b 8M --snapshot-on 'level=1,provider=CliCrit' --after 1 \
    -o "$R/after.data" CliCrit_L5K1 CliCrit_L1K1 -- sh -c "'$W' crit 20000 500 && sleep 2"
ls "$R" | grep '^after\.[0-9]' >"$R/after.files"

# 3. --max-snapshots 2: five snapshots of 100, 200, ... 500 events; a file
#    of an earlier run (mx.0007.data) is neither overwritten nor deleted and
#    numbering continues after it.
echo "an earlier run" >"$R/mx.0007.data"
step max out max "$EH" collect -c -b 1M --max-snapshots 2 -o "$R/mx.data" CliBurst_L5K1 -- sh -c "
    for k in 1 2 3 4 5; do
        '$W' burst \$((k * 100)) >/dev/null || exit 1
        kill -USR1 \$PPID
        set -- \"\$(printf '%s/mx.%04d.data' '$R' \$((7 + k)))\"; $wait_file
    done"
ls "$R" | grep '^mx\.[0-9]' >"$R/max.files"

# 4. Memory: 6 x 10^5 events through 8 MiB and 1 MiB buffers per CPU, a
#    snapshot after each 150000 (each wraps the buffers); the maximum RSS
#    (time -v).
for kib in 8192 1024; do
    step "rss.$kib" out "rss.$kib" /usr/bin/time -v "$EH" collect -c -b "$kib" -o "$R/rss$kib.data" \
        CliBurst_L5K1 -- sh -c "
        for k in 1 2 3 4; do
            '$W' burst 150000 >/dev/null || exit 1
            kill -USR1 \$PPID
            set -- \"\$(printf '%s/rss$kib.%04d.data' '$R' \$k)\"; $wait_file
        done"
    rm -f "$R"/rss"$kib".*.data
done

# 5. Refused: --circular with --live, -o -, and a buffer over 2 GiB.
step err.live out err.live "$EH" collect -c --live -d 1 CliBurst_L5K1
step err.pipe out err.pipe "$EH" collect -c -o - -d 1 CliBurst_L5K1
step err.size out err.size "$EH" collect -c -b 3G -d 1 CliBurst_L5K1
step err.trigger out err.trigger "$EH" collect -c --snapshot-on level=1 -d 1 -o "$R/none.data" CliBurst_L5K1

echo done >"$R/done"
