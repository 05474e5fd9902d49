#!/usr/bin/env bash
# Guest script of the VM runs perm_denied, perm_granted and suid (manifest
# program t_perm): the bad-input rows that need a second user.
#
#   perm.sh T_PERM denied|granted|suid
#
# denied:  user_events_data without permission (tracefs 0700, user_events_data
#          0600, root's): every open returns EACCES.
# granted: permission through a group (0710/0660 with a group nobody is
#          given): opens and registrations succeed.
# suid:    TRACEPOINT_CAPTURE_FILE ignored by a setuid program.
# t_perm is copied to a tmpfs of its own (the host tree may not be readable by
# nobody, and a setuid bit needs a mount that honours it); it carries the
# library. The permissions are restored on exit.
set -u
T_PERM=$1
MODE=$2
NOBODY=65534
PERM_GID=4242
P=/tmp/ehk-perm
TRACEFS=/sys/kernel/tracing
UED=$TRACEFS/user_events_data
as_nobody() { setpriv --reuid=$NOBODY --regid=$NOBODY "$@"; }

tracefs_mode=$(stat -c '%a %g' "$TRACEFS")
ued_mode=$(stat -c '%a %g' "$UED")
restore() {
    local m g
    read -r m g <<<"$tracefs_mode" && chmod "$m" "$TRACEFS" && chgrp "$g" "$TRACEFS"
    read -r m g <<<"$ued_mode" && chmod "$m" "$UED" && chgrp "$g" "$UED"
    umount "$P" 2>/dev/null
}
trap restore EXIT
mkdir -m 0755 -p "$P" && mount -t tmpfs -o mode=1777 ehkperm "$P" || exit 1
cp "$T_PERM" "$P/t_perm" && chmod 0755 "$P/t_perm" || exit 1

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

case $MODE in
denied)
    chmod 0700 "$TRACEFS" && chmod 0600 "$UED" && chgrp 0 "$TRACEFS" "$UED" || exit 1
    as_nobody --clear-groups "$P/t_perm" denied
    ;;
granted)
    chgrp "$PERM_GID" "$TRACEFS" "$UED" && chmod 0710 "$TRACEFS" && chmod 0660 "$UED" || exit 1
    as_nobody --groups="$PERM_GID" "$P/t_perm" granted
    ;;
suid) suid_check ;;
*)
    echo "perm.sh: unknown mode $MODE" >&2
    exit 2
    ;;
esac
