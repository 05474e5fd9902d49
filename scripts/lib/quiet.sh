# Sourced by the scripts that build quietly (scripts/install-prefix.sh,
# scripts/footprint.sh, benches/side-by-side.sh, and through
# tests/kernel/log.sh the real-kernel suites): one definition of the step
# that keeps a command's output out of sight unless it fails.
#
#   QUIET_LOG=FILE   # where the output goes (appended, after a "+ COMMAND" line)
#   QUIET_WHO=NAME   # how the failure message starts (default: the script's name)
#   quiet WHAT COMMAND...
#
# Runs COMMAND with stdout and stderr appended to QUIET_LOG. When it fails,
# prints "NAME: WHAT failed (exit N; ...)" and the log's last 40 lines on
# stderr and exits 1: a build step that fails ends the script, with what
# went wrong.
quiet() {
    local what=$1 rc=0
    shift
    echo "+ $*" >>"$QUIET_LOG"
    "$@" >>"$QUIET_LOG" 2>&1 || rc=$?
    [ "$rc" = 0 ] && return 0
    echo "${QUIET_WHO:-${0##*/}}: $what failed (exit $rc; the last 40 lines of $QUIET_LOG):" >&2
    tail -n 40 "$QUIET_LOG" >&2
    exit 1
}
