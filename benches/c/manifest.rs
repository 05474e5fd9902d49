//! The benchmark programs (`benches/c/`), part of the test-program manifest
//! (`tests/testkit/src/manifest.rs`): built by `build.sh`, run by
//! `tests/bench_smoke.rs` and, in the VM suite, by `tests/kernel/bench.sh`.

use super::*;

pub(super) static PROGRAMS: &[Program] = &[
    // The VM runs benches/run-callgrind.sh against user_events.
    Program {
        name: "bench",
        sources: &["benches/c/bench.c"],
        standards: GNU11,
        vm: &[VmRun {
            name: "bench",
            args: &["{path:floor}", "{path:dynamic}", "{path:exporter}"],
            check: VmCheck::Script {
                script: "tests/kernel/bench.sh",
                judge: Some(checks::bench),
            },
            ..VM
        }],
        ..BASE
    },
    // Runtime-defined events beside bench's TraceLoggingWrite modes (run by
    // benches/run-callgrind.sh, modes dynamic*; in the VM by bench.sh).
    Program {
        name: "dynamic",
        sources: &["benches/c/dynamic.cpp"],
        standards: GNU11,
        ..BASE
    },
    // A model of the OpenTelemetry user_events logs exporter's record, with a
    // new and with a reused builder (benches/run-callgrind.sh, modes
    // exporter_*; in the VM by bench.sh).
    Program {
        name: "exporter",
        sources: &["benches/c/exporter.cpp"],
        standards: GNU11,
        ..BASE
    },
    Program {
        name: "floor",
        sources: &["benches/c/floor.c"],
        standards: GNU11,
        link: Link::None,
        compilers: Compilers::Gcc,
        ..BASE
    },
    // The disabled-cost benchmark of a provider handle beside the provider
    // symbol (benches/run-callgrind.sh modes handle-*, symbol-*).
    Program {
        name: "handles",
        sources: &["benches/c/handles.c"],
        standards: GNU11,
        ..BASE
    },
];
