//! The real-kernel suite's own programs (`tests/kernel/src/`), part of the
//! test-program manifest (`tests/testkit/src/manifest.rs`).

use super::*;

/// The permission rows: `tests/kernel/perm.sh T_PERM MODE`.
const PERM: VmCheck = VmCheck::Script {
    script: "tests/kernel/perm.sh",
    judge: None,
};

pub(super) static PROGRAMS: &[Program] = &[
    Program {
        name: "uev_raw",
        sources: &["tests/kernel/src/uev_raw.c"],
        link: Link::None,
        ..KERNEL
    },
    Program {
        name: "t_basic",
        sources: &["tests/kernel/src/t_basic.c"],
        vm: &[VmRun {
            name: "basic_program",
            args: &["{path:uev_raw}", "{results}"],
            check: VmCheck::SelfCheck {
                perf_summary: Some((
                    "basic",
                    "perf toggled both words; EBADF when disabled; no kernel updates after unregister",
                )),
            },
            ..VM
        }],
        ..KERNEL
    },
    Program {
        name: "t_coexist",
        sources: &["tests/kernel/src/t_coexist.c"],
        vm: &[VmRun {
            name: "coexist",
            args: &["{path:uev_raw}"],
            check: SELF_CHECK,
            ..VM
        }],
        ..KERNEL
    },
    Program {
        name: "t_replay",
        sources: &["tests/kernel/src/t_replay.c"],
        vm: &[VmRun {
            name: "replay",
            args: &["{reference}"],
            check: VmCheck::Identity { reference: true },
            ..VM
        }],
        ..KERNEL
    },
    Program {
        name: "t_fork",
        sources: &["tests/kernel/src/t_fork.c"],
        vm: &[VmRun {
            name: "fork",
            args: &[],
            check: VmCheck::Summary {
                detail: "child events carry the child's pid",
                instances: 1,
            },
            ..VM
        }],
        ..KERNEL
    },
    Program {
        name: "t_writer",
        sources: &["tests/kernel/src/t_writer.c"],
        vm: &[VmRun {
            name: "multi",
            args: &["500"],
            check: VmCheck::Summary {
                detail: "two writer processes on one tracepoint",
                instances: 2,
            },
            ..VM
        }],
        ..KERNEL
    },
    Program {
        name: "t_many",
        sources: &["tests/kernel/src/t_many.c"],
        vm: &[VmRun {
            name: "many",
            args: &[],
            check: VmCheck::Summary {
                detail: "50 level/keyword tracepoints, all enabled",
                instances: 1,
            },
            ..VM
        }],
        ..KERNEL
    },
    // Runs as another user from a guest tmpfs (possibly setuid), so it
    // carries the library.
    Program {
        name: "t_perm",
        sources: &["tests/kernel/src/t_perm.c"],
        link: Link::Static,
        vm: &[
            VmRun {
                name: "perm_denied",
                args: &["denied"],
                check: PERM,
                ..VM
            },
            VmRun {
                name: "perm_granted",
                args: &["granted"],
                check: PERM,
                ..VM
            },
            VmRun {
                name: "suid",
                args: &["suid"],
                check: PERM,
                ..VM
            },
        ],
        ..KERNEL
    },
];
