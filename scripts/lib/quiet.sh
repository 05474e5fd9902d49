# Sourced by the scripts that build quietly (scripts/install-prefix.sh,
# scripts/footprint.sh, benches/side-by-side.sh): one definition of the step
# that keeps a command's output out of sight unless it fails.
#
#   QUIET_LOG=FILE   # where the output goes (appended)
#   quiet WHAT COMMAND...
#
# Runs COMMAND with stdout and stderr appended to QUIET_LOG. When it fails,
# prints "SCRIPT: WHAT failed ..." and the log's last 40 lines on stderr and
# exits 1: a build step that fails ends the script, with what went wrong.
quiet() {
    local what=$1
    shift
    if ! "$@" >>"$QUIET_LOG" 2>&1; then
        echo "${0##*/}: $what failed (the last 40 lines of $QUIET_LOG):" >&2
        tail -n 40 "$QUIET_LOG" >&2
        exit 1
    fi
}
