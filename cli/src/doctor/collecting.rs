//! May this user collect? The kernel gives tracepoint data (PERF_SAMPLE_RAW)
//! of a whole CPU only to a process with CAP_PERFMON or CAP_SYS_ADMIN,
//! unless perf_event_paranoid is -1; and a collector reads the tracepoints'
//! ids and formats from tracefs.

use std::path::Path;

use super::parse;
use super::report::Check;
use super::system::{describe_mode, euid, user_name, Sys};
use crate::exit::Status;

const CAP_SYS_ADMIN: u32 = 21;
const CAP_PERFMON: u32 = 38;

/// What the process may do, from /proc/self/status and perf_event_paranoid.
pub struct Privileges {
    pub cap_eff: Option<u64>,
    /// None: the file is missing (a kernel without perf events); Some(None):
    /// there but not a number.
    pub paranoid: Option<Option<i32>>,
}

pub fn privileges(sys: &Sys) -> Privileges {
    let status = sys
        .read_text(Path::new("/proc/self/status"))
        .unwrap_or_default();
    Privileges {
        cap_eff: parse::cap_eff(&status),
        paranoid: sys
            .read_text(Path::new("/proc/sys/kernel/perf_event_paranoid"))
            .ok()
            .map(|t| parse::paranoid(&t)),
    }
}

const FIX: &str = "collect as root (sudo eventheader collect ...), or give the collector \
CAP_PERFMON (setcap cap_perfmon+ep on its file) and read access to tracefs, or let every user \
record tracepoint data: sysctl kernel.perf_event_paranoid=-1 (this weakens the machine's isolation)";

pub fn check_perf(p: &Privileges) -> Check {
    let name = "collecting";
    let has = |cap: u32| p.cap_eff.is_some_and(|c| c & (1u64 << cap) != 0);
    let who = format!("uid {} ({})", euid(), user_name(euid()));
    let paranoid = match p.paranoid {
        None => {
            return Check::fail(
                Status::CollectNotPermitted,
                name,
                "no /proc/sys/kernel/perf_event_paranoid: the kernel has no perf events",
                "boot a kernel built with CONFIG_PERF_EVENTS=y",
            )
        }
        Some(None) => "perf_event_paranoid unreadable".to_string(),
        Some(Some(n)) => format!("perf_event_paranoid {n}"),
    };
    if has(CAP_PERFMON) {
        Check::ok(
            name,
            format!("{who} has CAP_PERFMON ({paranoid} does not apply)"),
        )
    } else if has(CAP_SYS_ADMIN) {
        Check::ok(
            name,
            format!("{who} has CAP_SYS_ADMIN ({paranoid} does not apply)"),
        )
    } else if p.paranoid == Some(Some(-1)) || p.paranoid.is_some_and(|n| n.is_some_and(|n| n < -1))
    {
        Check::ok(
            name,
            format!("{paranoid}: every user may record tracepoint data"),
        )
    } else if p.cap_eff.is_none() {
        Check::warn(
            name,
            format!("{paranoid}; capabilities unknown (no CapEff in /proc/self/status)"),
            Some(FIX.to_string()),
        )
    } else {
        Check::fail(
            Status::CollectNotPermitted,
            name,
            format!(
                "{paranoid} and {who} has neither CAP_PERFMON nor CAP_SYS_ADMIN: the kernel \
                 refuses to record tracepoint data (collect and perf record are refused)"
            ),
            FIX,
        )
    }
}

/// A collector reads `events/` (ids, formats, the list of tracepoints).
pub fn check_tracefs_read(sys: &Sys, tracefs: &Path) -> Check {
    let events = tracefs.join("events");
    match sys.access(&events, libc::R_OK | libc::X_OK) {
        Ok(()) => Check::ok(
            "tracefs read",
            format!(
                "{} readable: a collector finds the tracepoints",
                events.display()
            ),
        ),
        Err(e) => {
            // The directory in the way: events/, or tracefs itself when
            // events/ cannot even be looked at.
            let mode = match sys.metadata(&events) {
                Ok(m) => format!(" ({})", describe_mode(&m)),
                Err(_) => sys
                    .metadata(tracefs)
                    .map(|m| format!(" ({}: {})", tracefs.display(), describe_mode(&m)))
                    .unwrap_or_default(),
            };
            Check::fail(
                Status::CollectNotPermitted,
                "tracefs read",
                format!("{} not readable{mode}: {e}", events.display()),
                format!(
                    "collect as root, or as root give a group of the collecting user read access: \
                     chgrp -R tracing {t}; chmod -R g+rX {t} (or mount tracefs with gid=tracing)",
                    t = tracefs.display()
                ),
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::doctor::report::State;

    fn p(cap: Option<u64>, paranoid: Option<Option<i32>>) -> Privileges {
        Privileges {
            cap_eff: cap,
            paranoid,
        }
    }

    #[test]
    fn capabilities_and_paranoid() {
        let perfmon = 1u64 << CAP_PERFMON;
        let admin = 1u64 << CAP_SYS_ADMIN;
        assert_eq!(
            check_perf(&p(Some(perfmon), Some(Some(2)))).state,
            State::Ok
        );
        assert_eq!(check_perf(&p(Some(admin), Some(Some(4)))).state, State::Ok);
        assert_eq!(check_perf(&p(Some(0), Some(Some(-1)))).state, State::Ok);
        let c = check_perf(&p(Some(0), Some(Some(2))));
        assert_eq!(
            (c.state, c.status),
            (State::Fail, Status::CollectNotPermitted)
        );
        assert!(c.found.contains("perf_event_paranoid 2"), "{}", c.found);
        assert!(c.fix.unwrap().contains("CAP_PERFMON"));
        assert_eq!(check_perf(&p(Some(0), Some(Some(0)))).state, State::Fail);
        assert_eq!(check_perf(&p(None, Some(Some(2)))).state, State::Warn);
        assert_eq!(check_perf(&p(Some(0), Some(None))).state, State::Fail);
        let c = check_perf(&p(Some(perfmon), None));
        assert_eq!(c.state, State::Fail);
        assert!(c.fix.unwrap().contains("CONFIG_PERF_EVENTS"));
    }
}
