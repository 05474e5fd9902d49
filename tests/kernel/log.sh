# Sourced by the real-kernel suites (run.sh, arm64/run.sh): their log and the
# messages around it. The caller sets SUITE (the name its messages start
# with) and LOG (the log file) first.
#
#   say TEXT             one line on standard output
#   die TEXT             the failure, the log's last 60 lines, exit 1
#   quiet WHAT CMD...    CMD with its output in the log; fails naming WHAT
#                        (scripts/lib/quiet.sh, with QUIET_LOG=LOG)
#   elapsed START        seconds since START (a date +%s.%N)

say() { printf '%s: %s\n' "$SUITE" "$*"; }
die() {
    printf '%s: FAILED: %s\n' "$SUITE" "$*" >&2
    printf -- '--- last 60 lines of %s ---\n' "$LOG" >&2
    tail -n 60 "$LOG" >&2
    exit 1
}
# shellcheck source=../../scripts/lib/quiet.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../scripts/lib/quiet.sh"
QUIET_LOG=$LOG QUIET_WHO="$SUITE: FAILED"
elapsed() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'; }
