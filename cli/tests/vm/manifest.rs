//! The command-line tool's program in the real-kernel suite, part of the
//! test-program manifest (`tests/testkit/src/manifest.rs`): its VM runs are
//! driven by the guest scripts here and judged by `checks/`.

use super::*;

pub(super) static PROGRAMS: &[Program] = &[
    // The guest script drives `eventheader` (register, collect, decode, perf
    // record and script, the error cases) with this writer; checks::cli
    // judges what it left in RESULTS/cli/.
    Program {
        name: "cli_writer",
        sources: &["cli/tests/vm/cli_writer.c"],
        vm: &[
            VmRun {
                name: "cli",
                args: &["{eventheader}", "{reference}"],
                check: VmCheck::Script {
                    script: "cli/tests/vm/guest.sh",
                    judge: Some(checks::cli::judge),
                },
                ..VM
            },
            VmRun {
                name: "cli_circular",
                args: &["{eventheader}"],
                check: VmCheck::Script {
                    script: "cli/tests/vm/circular.sh",
                    judge: Some(checks::cli_circular::judge),
                },
                ..VM
            },
            // perf's own tools (script, report --stats, evlist, data
            // convert --to-json) on collect's normal, pipe-mode and circular
            // files; checks::cli_perf judges RESULTS/cli_perf/.
            VmRun {
                name: "cli_perf",
                args: &["{eventheader}"],
                check: VmCheck::Script {
                    script: "cli/tests/vm/perf_tools.sh",
                    judge: Some(checks::cli_perf::judge),
                },
                ..VM
            },
            // `eventheader doctor`: all well, then the states that make events
            // go nowhere; checks::cli_doctor judges RESULTS/cli_doctor/.
            VmRun {
                name: "cli_doctor",
                args: &["{eventheader}"],
                check: VmCheck::Script {
                    script: "cli/tests/vm/doctor.sh",
                    judge: Some(checks::cli_doctor::judge),
                },
                ..VM
            },
        ],
        ..KERNEL
    },
];
