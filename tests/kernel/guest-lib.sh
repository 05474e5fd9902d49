# The VM guest scripts' start and result recording, sourced by tests/kernel/guest.sh,
# tests/kernel/arm64/guest.sh (busybox sh: this file is POSIX sh plus
# `local`) and cli/tests/vm/{guest,circular,doctor,perf_tools}.sh. In the
# x86_64 VM the host's file system is shared and the scripts source this
# file in place; the arm64 VM gets a copy in its share
# (tests/kernel/arm64/run.sh).
#
# R is the results directory: R/status holds one line "NAME RC ..." per step,
# R/times one line "NAME SECONDS"; the host judges both.

# results_init: empty status and times.
results_init() {
    : >"$R/status"
    : >"$R/times"
}
# guest_start WHO PROGRAM...: a guest script's start: exits 1 (saying so
# as WHO) unless every PROGRAM is executable; then R is made anew, empty.
guest_start() {
    local who="$1" f
    shift
    for f in "$@"; do
        [ -x "$f" ] || { echo "$who guest: $f is not executable" >&2; exit 1; }
    done
    rm -rf "$R"
    mkdir -p "$R"
    results_init
}
# note NAME RC...: one line in R/status.
note() { echo "$*" >>"$R/status"; }
# now: seconds since boot.
now() { cut -d' ' -f1 /proc/uptime; }
# took NAME START: R/times gets "NAME SECONDS" (from START, a `now`).
took() { awk -v n="$1" -v a="$2" -v b="$(now)" 'BEGIN { printf "%s %.1f\n", n, b - a }' >>"$R/times"; }
# step NAME CMD...: runs CMD; notes "NAME RC" and its time; returns RC.
step() {
    local name="$1" t0 rc
    shift
    t0=$(now)
    "$@"
    rc=$?
    note "$name $rc"
    took "$name" "$t0"
    return "$rc"
}
# out NAME CMD...: CMD with stdout to R/NAME.out, stderr to R/NAME.err.
out() {
    local name="$1"
    shift
    "$@" >"$R/$name.out" 2>"$R/$name.err"
}
