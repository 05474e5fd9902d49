#!/usr/bin/env bash
# Guest script of the VM run `cli_doctor` (manifest program cli_writer;
# started by tests/kernel/guest.sh as root in the user_events VM): runs
# `eventheader doctor` on a machine where all is well, then in the states
# that make events go nowhere, and records its output and status with what
# the kernel says (user_events_status, modes). It judges nothing: testkit's
# checks::cli_doctor does, on the host.
#
#   doctor.sh CLI_WRITER EVENTHEADER
#
# Results go to $RESULT (set by tests/kernel/guest.sh): status gets one
# line "NAME RC" per step, times "NAME SECONDS"; each step's output is in
# NAME.out and NAME.err;
# done marks the end. Exits 0 once every step ran, 1 if it cannot start.
set -u
W=$1
EH=$2
R=$RESULT
TRACEFS=/sys/kernel/tracing
T=$(mktemp -d)
export LC_ALL=C
# shellcheck source=tests/kernel/guest-lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../../tests/kernel/guest-lib.sh"
guest_start doctor "$W" "$EH"

# wait_for FILE PATTERN: until FILE has a line matching PATTERN (at most 30 s).
wait_for() {
    for _ in $(seq 300); do
        grep -q "$2" "$1" 2>/dev/null && return 0
        sleep 0.1
    done
    return 1
}

# 1. All well, as root.
step well out well "$EH" doctor

# 2. A provider nobody registered (3); registered, nothing enabled (9);
#    one of its two tracepoints enabled by a collector (0).
step noreg out noreg "$EH" doctor --provider CliDoc
"$EH" register CliDoc_L5K1 CliDoc_L4K2 >"$T/names" 2>&1 &
reg=$!
wait_for "$T/names" CliDoc_L4K2
step idle out idle "$EH" doctor --provider CliDoc
cat "$TRACEFS/user_events_status" >"$R/idle.status"
"$EH" collect -o "$T/x.data" CliDoc_L5K1 >"$T/collect.out" 2>&1 &
col=$!
wait_for "$TRACEFS/user_events_status" "^CliDoc_L5K1 .*perf"
step enabled out enabled "$EH" doctor -p CliDoc
echo "$col" >"$R/enabled.collect-pid"
cat "$TRACEFS/user_events_status" >"$R/enabled.status"
kill -INT "$col"
wait "$col"
kill -TERM "$reg"
wait "$reg"

# 3. A program: cli_writer declares CliTest, CliSingle, CliBurst and CliCrit;
#    CliTest is registered here, the others are not.
"$EH" register CliTest_L4K1 CliTest_L5K2 >"$T/names" 2>&1 &
reg=$!
wait_for "$T/names" CliTest_L5K2
step program out program "$EH" doctor "$W"
kill -TERM "$reg"
wait "$reg"

# 4. Access removed: an unprivileged user (tracefs as the kernel made it);
#    then with the fix applied (a group given access to tracefs and
#    user_events_data), the next failure: collecting (paranoid, no caps).
cp "$EH" "$T/eventheader"
chmod 755 "$T" "$T/eventheader"
nobody=(setpriv --reuid=nobody --regid=nogroup --clear-groups)
stat -c '%U:%G %a %n' "$TRACEFS" "$TRACEFS/user_events_data" "$TRACEFS/events" >"$R/nobody.modes"
step nobody out nobody "${nobody[@]}" "$T/eventheader" doctor
saved=$(stat -c '%g %a' "$TRACEFS" "$TRACEFS/user_events_data" "$TRACEFS/events" | tr '\n' ' ')
chgrp nogroup "$TRACEFS" "$TRACEFS/user_events_data" "$TRACEFS/events"
chmod g+rx "$TRACEFS" "$TRACEFS/events"
chmod g+rw "$TRACEFS/user_events_data"
cat /proc/sys/kernel/perf_event_paranoid >"$R/granted.paranoid"
step granted out granted "${nobody[@]}" "$T/eventheader" doctor
set -- $saved
chgrp "$1" "$TRACEFS" && chmod "$2" "$TRACEFS"
chgrp "$3" "$TRACEFS/user_events_data" && chmod "$4" "$TRACEFS/user_events_data"
chgrp "$5" "$TRACEFS/events" && chmod "$6" "$TRACEFS/events"
stat -c '%U:%G %a %n' "$TRACEFS" "$TRACEFS/user_events_data" "$TRACEFS/events" >"$R/restored.modes"

# 5. No tracefs (unmounted in a private mount namespace): 4.
hide="umount $TRACEFS; umount /sys/kernel/debug 2>/dev/null; exec \"\$@\""
step notracefs out notracefs unshare -m sh -c "$hide" sh "$EH" doctor

rm -rf "$T"
echo done >"$R/done"
