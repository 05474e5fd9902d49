# Sourced by scripts/test.sh: its steps, each timed.
#
#   step NAME...   # starts step N: prints "=== step N: NAME"
#
# Starting a step (and the end of the script) prints how long the previous
# one took, "=== step N done in S s: NAME"; the end (an EXIT trap, so also a
# failing run) prints a table of every step's seconds, the exit status and
# the total, for a run's closing note to quote.
step_no=0 step_name= step_start=$SECONDS steps_table=
step_done() {
    [ "$step_no" = 0 ] && return
    local took=$((SECONDS - step_start))
    printf '=== step %d done in %d s: %s\n' "$step_no" "$took" "$step_name"
    steps_table+=$(printf '%4d %6d s  %s' "$step_no" "$took" "$step_name")$'\n'
}
step() {
    step_done
    step_no=$((step_no + 1)) step_name="$*" step_start=$SECONDS
    printf '\n=== step %d: %s\n' "$step_no" "$*"
}
steps_summary() {
    local rc=$?
    step_done
    step_no=0
    printf '\n=== step times (exit status %d)\n%s' "$rc" "$steps_table"
    printf '=== total %d s\n' "$SECONDS"
}
trap steps_summary EXIT
