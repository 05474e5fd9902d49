#!/usr/bin/env bash
# Runs every fuzz target for SECONDS each (default 60) with cargo-fuzz
# (libFuzzer), starting from the checked-in corpora in
# fuzz/corpus/<target>/ (read-only: new inputs go to a scratch directory),
# and prints each target's executions. Exits non-zero on any crash; the
# crashing input is kept in fuzz/artifacts/<target>/. The decode_* targets
# (the CLI's decoder) are also seeded with the reference recordings
# (`testkit reference-dir`): perf.data, pipe.data and the capture file.
#
#   bash fuzz/run.sh 60              # all targets
#   bash fuzz/run.sh 30 names header # some
#
# Needs cargo-fuzz (installed here with `cargo install
# cargo-fuzz` if missing) and libFuzzer's -Z flags, which the stable
# toolchain accepts with RUSTC_BOOTSTRAP=1 (set for this fuzz crate only; the
# library itself builds on stable without it). Build output goes to
# fuzz/target (its own target dir).
set -euo pipefail
cd "$(dirname "$0")"
seconds=${1:-60}
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    targets=(names header capture_api capture_reader decode_perf_data decode_pipe_data decode_capture circular doctor_parsers)
fi

# The same toolchain everywhere: the machine's stable one (a fresh machine
# may have no other), with its unstable flags unlocked for this crate.
toolchain=+stable
export RUSTC_BOOTSTRAP=1
if ! cargo fuzz --version >/dev/null 2>&1; then
    cargo install cargo-fuzz --locked --quiet
fi

cargo $toolchain fuzz build -O 2>&1 | tail -n 3
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
reference=$(cargo run --quiet --locked --manifest-path ../Cargo.toml -p testkit -- reference-dir)
# seeds TARGET: the reference recording a decode target starts from.
seeds() {
    case $1 in
        decode_perf_data) echo perf.data ;;
        decode_pipe_data) echo pipe.data ;;
        decode_capture) echo EventHeaderInterceptorLE64.dat ;;
    esac
}
status=0
for t in "${targets[@]}"; do
    mkdir -p "$scratch/$t" "corpus/$t" "$scratch/seeds-$t"
    seed=$(seeds "$t")
    if [ -n "$seed" ]; then
        cp "$reference/$seed" "$scratch/seeds-$t/" || { echo "fuzz $t: no seed $reference/$seed"; exit 1; }
    fi
    log="$scratch/$t.log"
    if cargo $toolchain fuzz run -O "$t" "$scratch/$t" "corpus/$t" "$scratch/seeds-$t" -- \
        -max_total_time="$seconds" -rss_limit_mb=2048 -print_final_stats=1 >"$log" 2>&1; then
        execs=$(grep -E '^stat::number_of_executed_units' "$log" | awk '{print $2}')
        echo "fuzz $t: ok, ${execs:-?} executions in ${seconds} s, corpus $(ls "$scratch/$t" | wc -l) new inputs"
    else
        status=1
        echo "fuzz $t: FAILED"
        tail -n 40 "$log"
    fi
done
exit $status
