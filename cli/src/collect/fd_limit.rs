//! `collect`'s file descriptors. Every perf event it opens on a CPU is a
//! descriptor: one per tracepoint and CPU, one per CPU for the process
//! records (the side-band event), and in circular mode with `--snapshot-on`
//! one more per tracepoint and CPU for the trigger. The mode that decides
//! the events counts them per CPU (`recording::events_per_cpu`,
//! `circular::events_per_cpu`). A recording of many tracepoints outgrows
//! the usual soft limit of 1024 descriptors quickly (3,000 tracepoints on 2
//! CPUs need 6,002; on 64 CPUs, 14 tracepoints fill 1024). At start it
//! raises its soft RLIMIT_NOFILE to the hard limit, as perf does, or, when
//! even the hard limit is too low, both to what it needs if it may
//! (CAP_SYS_RESOURCE); otherwise it says how many descriptors it needs and
//! stops (status 1) before opening any perf event. The command it runs gets
//! the limits collect started with.

use std::os::unix::process::CommandExt;
use std::process::Command;

use crate::exit::{Error, Status};

/// Descriptors besides the perf events: the standard streams, the output
/// file, `user_events_data` for the tracepoints collect registers, the
/// tracefs files it reads, the command's standard output, with room to
/// spare.
pub const SLACK: u64 = 64;

/// An RLIMIT_NOFILE value (`RLIM_INFINITY` for none).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limit {
    pub soft: u64,
    pub hard: u64,
}

/// What to do about the limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Plan {
    /// The soft limit is already the hard one, or enough.
    Keep,
    /// Set this limit (raising the hard limit too needs privilege).
    Set(Limit),
}

/// The descriptors `events` perf events on each of `cpus` CPUs need.
pub fn needed(events: usize, cpus: usize) -> u64 {
    (events as u64)
        .saturating_mul(cpus as u64)
        .saturating_add(SLACK)
}

/// The limit to set, from the current one and what is needed: the soft
/// limit up to the hard one (not to "unlimited", which the kernel refuses
/// for descriptors: then just what is needed), and both up to what is
/// needed when the hard limit is lower.
pub fn plan(current: Limit, needed: u64) -> Plan {
    let infinity = libc::RLIM_INFINITY;
    let next = if current.hard == infinity {
        Limit {
            soft: current.soft.max(needed),
            hard: infinity,
        }
    } else if current.hard < needed {
        Limit {
            soft: needed,
            hard: needed,
        }
    } else {
        Limit {
            soft: current.hard,
            hard: current.hard,
        }
    };
    if next == current {
        Plan::Keep
    } else {
        Plan::Set(next)
    }
}

/// The message when the limit cannot be raised far enough.
pub fn too_few(events: usize, cpus: usize, current: Limit) -> String {
    format!(
        "collect needs {} file descriptors (one per perf event and CPU: {events} perf events \
         x {cpus} CPUs, + {SLACK}), but RLIMIT_NOFILE allows {} (hard limit; soft {}): \
         raise the hard limit (as root: ulimit -Hn {}; a service: LimitNOFILE=) or record fewer tracepoints",
        needed(events, cpus),
        show(current.hard),
        show(current.soft),
        needed(events, cpus),
    )
}

fn show(v: u64) -> String {
    if v == libc::RLIM_INFINITY {
        "unlimited".to_string()
    } else {
        v.to_string()
    }
}

fn get() -> std::io::Result<Limit> {
    let mut rl = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes one rlimit into the valid `rl`.
    if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut rl) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(Limit {
        soft: rl.rlim_cur,
        hard: rl.rlim_max,
    })
}

fn set(limit: Limit) -> std::io::Result<()> {
    let rl = libc::rlimit {
        rlim_cur: limit.soft,
        rlim_max: limit.hard,
    };
    // SAFETY: setrlimit reads the valid `rl`; it changes only this
    // process's limit.
    if unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &rl) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(())
}

/// Raises the limit for `events` perf events on each of `cpus` CPUs (see
/// the module's documentation); returns the limit collect started with, for
/// its command. An error (status 1) if the descriptors cannot be had.
pub fn raise(events: usize, cpus: usize) -> Result<Limit, Error> {
    let start = get().map_err(|e| Error::io(&e, "reading RLIMIT_NOFILE"))?;
    let needed = needed(events, cpus);
    if let Plan::Set(next) = plan(start, needed) {
        if set(next).is_err() {
            // The hard limit could not be raised (no privilege, or over
            // fs.nr_open): the soft one up to it at least.
            let capped = Limit {
                soft: start.hard,
                hard: start.hard,
            };
            if start.hard != libc::RLIM_INFINITY {
                let _ = set(capped);
            }
        }
    }
    let now = get().map_err(|e| Error::io(&e, "reading RLIMIT_NOFILE"))?;
    if now.soft != libc::RLIM_INFINITY && now.soft < needed {
        return Err(Error::new(Status::Failure, too_few(events, cpus, now)));
    }
    Ok(start)
}

/// Makes `cmd` start with the soft limit collect started with, not the
/// raised one (programs that use select() break on descriptors over 1023);
/// a hard limit collect raised stays raised.
pub fn restore_for(cmd: &mut Command, start: Limit) {
    // SAFETY: the closure runs in the child between fork and exec and calls
    // only getrlimit and setrlimit, which are async-signal-safe, on values
    // of its own stack.
    unsafe {
        cmd.pre_exec(move || {
            let mut now = libc::rlimit {
                rlim_cur: 0,
                rlim_max: 0,
            };
            if libc::getrlimit(libc::RLIMIT_NOFILE, &mut now) == 0 && now.rlim_cur != start.soft {
                now.rlim_cur = start.soft.min(now.rlim_max);
                libc::setrlimit(libc::RLIMIT_NOFILE, &now);
            }
            Ok(())
        })
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    const INF: u64 = libc::RLIM_INFINITY;

    fn limit(soft: u64, hard: u64) -> Limit {
        Limit { soft, hard }
    }

    #[test]
    fn every_perf_event_of_a_mode_is_counted() {
        use super::super::{circular, recording};
        // A recording: the tracepoints' events and the side-band event of
        // the process records, on each CPU.
        assert_eq!(recording::events_per_cpu(3000), 3001);
        assert_eq!(needed(recording::events_per_cpu(3000), 2), 6002 + SLACK);
        assert_eq!(needed(recording::events_per_cpu(1), 64), 128 + SLACK);
        // Circular: the overwrite rings' events and the side-band event,
        // and with --snapshot-on the trigger's events too.
        assert_eq!(circular::events_per_cpu(3000, false), 3001);
        assert_eq!(circular::events_per_cpu(3000, true), 6001);
        assert_eq!(needed(circular::events_per_cpu(15, true), 4), 124 + SLACK);
    }

    #[test]
    fn needs_one_descriptor_per_perf_event_and_cpu() {
        assert_eq!(needed(3000, 2), 6000 + SLACK);
        assert_eq!(needed(15, 64), 960 + SLACK);
        assert_eq!(needed(0, 4), SLACK);
        assert_eq!(needed(usize::MAX, usize::MAX), u64::MAX);
    }

    #[test]
    fn soft_limit_goes_to_the_hard_one() {
        // The VM's: soft 1024, hard 524288; 3,000 tracepoints on 2 CPUs.
        assert_eq!(
            plan(limit(1024, 524_288), needed(3000, 2)),
            Plan::Set(limit(524_288, 524_288))
        );
        // Raised even when not needed, as perf does.
        assert_eq!(
            plan(limit(1024, 4096), needed(1, 2)),
            Plan::Set(limit(4096, 4096))
        );
        assert_eq!(plan(limit(4096, 4096), needed(1, 2)), Plan::Keep);
        // No hard limit: the soft one to what is needed.
        assert_eq!(plan(limit(1024, INF), 6064), Plan::Set(limit(6064, INF)));
        assert_eq!(plan(limit(8192, INF), 6064), Plan::Keep);
        assert_eq!(plan(limit(INF, INF), 6064), Plan::Keep);
    }

    #[test]
    fn a_low_hard_limit_is_raised_to_what_is_needed() {
        assert_eq!(
            plan(limit(1024, 4096), needed(3000, 2)),
            Plan::Set(limit(6064, 6064))
        );
    }

    #[test]
    fn too_few_says_how_many_are_needed() {
        assert_eq!(
            too_few(3001, 2, limit(1024, 1024)),
            "collect needs 6066 file descriptors (one per perf event and CPU: 3001 perf events \
             x 2 CPUs, + 64), but RLIMIT_NOFILE allows 1024 (hard limit; soft 1024): \
             raise the hard limit (as root: ulimit -Hn 6066; a service: LimitNOFILE=) or record \
             fewer tracepoints"
        );
    }
}
