//! Event filters for `decode`, `stats` and `collect` (`--live`, and
//! `--snapshot-on`): provider name, event name, level at most N, keyword
//! mask, process id, thread id, CPU, process name, and field terms
//! (`--where`, [`terms`], evaluated by [`fields`]). Each given filter must
//! match (and, within one filter given several times, one of its values;
//! every field term).
//!
//! - EventHeader events: provider and event are the event's own names,
//!   level and keyword its tracepoint's.
//! - Other tracepoints: the provider is the tracepoint's system
//!   (`user_events`, `sched`), the event its name; they have no level or
//!   keyword, which filters do not apply to.
//! - The pid, tid and CPU are the sample's (perf.data and live); capture
//!   files carry none (the timed layout carries pid and tid), so with
//!   `--pid`, `--tid` or `--cpu` none of their events match.
//! - The process name is the one the recording's COMM records give the
//!   thread (or its process); capture files carry none.
//!
//! `collect` pushes what it can into the kernel: it records only the
//! tracepoints whose names can match (EventHeader names carry the provider,
//! level and keyword), and hands the pid and tid filters to the kernel's
//! tracepoint filter (`common_pid == N`: the kernel's pid of a task is its
//! thread id).

pub mod fields;
pub mod line;
pub mod terms;

use clap::Args;

use crate::spec;
pub use fields::Matcher;
pub use terms::FieldTerm;

#[derive(Args, Debug, Clone, Default)]
pub struct FilterArgs {
    /// Only events of this provider (EventHeader), or of this tracepoint
    /// system (others). May be repeated.
    #[arg(long, value_name = "NAME", help_heading = "Filters")]
    pub provider: Vec<String>,

    /// Only events of this name (EventHeader event name, or tracepoint
    /// name). May be repeated.
    #[arg(long, value_name = "NAME", help_heading = "Filters")]
    pub event: Vec<String>,

    /// Only EventHeader events of level N or lower (1 critical .. 5 verbose).
    #[arg(long, value_name = "N", value_parser = parse_level, allow_negative_numbers = true,
          help_heading = "Filters")]
    pub level: Option<u8>,

    /// Only EventHeader events with a keyword bit of MASK (hex, 0x optional).
    #[arg(long, value_name = "MASK", value_parser = parse_mask, allow_negative_numbers = true,
          help_heading = "Filters")]
    pub keyword: Option<u64>,

    /// Only events of this process id. May be repeated.
    #[arg(long, value_name = "PID", value_parser = parse_pid, allow_negative_numbers = true,
          help_heading = "Filters")]
    pub pid: Vec<u32>,

    /// Only events of this thread id. May be repeated.
    #[arg(long, value_name = "TID", value_parser = parse_pid, allow_negative_numbers = true,
          help_heading = "Filters")]
    pub tid: Vec<u32>,

    /// Only events recorded on this CPU (0, 1, ...). May be repeated.
    #[arg(long, value_name = "CPU", value_parser = parse_cpu, allow_negative_numbers = true,
          help_heading = "Filters")]
    pub cpu: Vec<u32>,

    /// The filters `decode` and `stats` add (not `collect`'s options: a
    /// recording keeps every event of its tracepoints; `--snapshot-on`
    /// takes them as terms).
    #[arg(skip)]
    pub matching: MatchArgs,
}

/// The process-name and field filters of `decode` and `stats`.
#[derive(Args, Debug, Clone, Default)]
pub struct MatchArgs {
    /// Only events of a process of this name, as `--meta comm` shows it
    /// (from the COMM records of a perf.data file; capture files carry no
    /// names). May be repeated.
    #[arg(long, value_name = "NAME", help_heading = "Filters")]
    pub comm: Vec<String>,

    /// Only events whose field satisfies EXPR: NAME=VALUE (a string exactly,
    /// a number by value), NAME<N, NAME>N, NAME<=N, NAME>=N; nested fields
    /// as a.b. May be repeated: all must hold.
    #[arg(long = "where", value_name = "EXPR", value_parser = terms::parse_field_term,
          help_heading = "Filters")]
    pub where_: Vec<FieldTerm>,
}

/// The largest process id a kernel can give (PID_MAX_LIMIT).
const PID_MAX_LIMIT: u32 = 1 << 22;

/// A process id: 0 (the idle task) to PID_MAX_LIMIT, in decimal.
pub fn parse_pid(s: &str) -> Result<u32, String> {
    s.parse::<u32>()
        .ok()
        .filter(|p| *p <= PID_MAX_LIMIT && s.bytes().all(|b| b.is_ascii_digit()))
        .ok_or_else(|| format!("'{s}' is not a process id (0 to {PID_MAX_LIMIT}, decimal)"))
}

/// The most CPUs a kernel can have (NR_CPUS is at most 8192).
const CPU_MAX: u32 = 8191;

/// A CPU number: 0 to CPU_MAX, in decimal.
pub fn parse_cpu(s: &str) -> Result<u32, String> {
    s.parse::<u32>()
        .ok()
        .filter(|c| *c <= CPU_MAX && s.bytes().all(|b| b.is_ascii_digit()))
        .ok_or_else(|| format!("'{s}' is not a CPU number (0 to {CPU_MAX}, decimal)"))
}

/// A level: 1 (critical) to 255.
pub fn parse_level(s: &str) -> Result<u8, String> {
    s.parse::<u8>()
        .ok()
        .filter(|l| *l >= 1 && s.bytes().all(|b| b.is_ascii_digit()))
        .ok_or_else(|| format!("'{s}' is not a level (1 critical .. 5 verbose, up to 255)"))
}

/// A keyword mask: hexadecimal, `0x` optional, not 0.
pub fn parse_mask(s: &str) -> Result<u64, String> {
    let hex = s
        .strip_prefix("0x")
        .or_else(|| s.strip_prefix("0X"))
        .unwrap_or(s);
    match u64::from_str_radix(hex, 16) {
        Ok(0) => Err("a keyword mask of 0 matches nothing".into()),
        Ok(v) => Ok(v),
        Err(_) => Err(format!("not a hexadecimal keyword mask: {s}")),
    }
}

/// What an event offers to the filters.
pub struct Subject<'a> {
    pub provider: &'a str,
    /// The event name's bytes (EventHeader names need not be UTF-8).
    pub event: &'a [u8],
    /// Level and keyword (EventHeader events only).
    pub level_keyword: Option<(u8, u64)>,
    pub pid: Option<u32>,
    pub tid: Option<u32>,
    pub cpu: Option<u32>,
    /// The process name (perf.data with COMM records).
    pub comm: Option<&'a str>,
}

/// The filters of one command.
#[derive(Clone, Debug, Default)]
pub struct Filter {
    args: FilterArgs,
}

impl Filter {
    pub fn new(args: &FilterArgs) -> Filter {
        Filter { args: args.clone() }
    }

    /// No filter given.
    pub fn is_empty(&self) -> bool {
        let a = &self.args;
        a.provider.is_empty()
            && a.event.is_empty()
            && a.level.is_none()
            && a.keyword.is_none()
            && a.pid.is_empty()
            && a.tid.is_empty()
            && a.cpu.is_empty()
            && a.matching.comm.is_empty()
            && a.matching.where_.is_empty()
    }

    /// The field terms (`--where`).
    pub fn field_terms(&self) -> &[FieldTerm] {
        &self.args.matching.where_
    }

    /// Filters on the process name (`--comm`).
    pub fn has_comm(&self) -> bool {
        !self.args.matching.comm.is_empty()
    }

    /// Needs the event's own name (EventHeader events: in their payload).
    pub fn needs_event_name(&self) -> bool {
        !self.args.event.is_empty()
    }

    fn level_keyword_match(&self, level: u8, keyword: u64) -> bool {
        self.args.level.map_or(true, |max| level <= max)
            && self.args.keyword.map_or(true, |mask| keyword & mask != 0)
    }

    /// Does the event pass every filter?
    pub fn matches(&self, s: &Subject<'_>) -> bool {
        let a = &self.args;
        (a.provider.is_empty() || a.provider.iter().any(|p| p == s.provider))
            && (a.event.is_empty() || a.event.iter().any(|e| e.as_bytes() == s.event))
            && s.level_keyword
                .map_or(true, |(l, k)| self.level_keyword_match(l, k))
            && (a.pid.is_empty() || s.pid.is_some_and(|p| a.pid.contains(&p)))
            && (a.tid.is_empty() || s.tid.is_some_and(|t| a.tid.contains(&t)))
            && (a.cpu.is_empty() || s.cpu.is_some_and(|c| a.cpu.contains(&c)))
            && (a.matching.comm.is_empty()
                || s.comm
                    .is_some_and(|c| a.matching.comm.iter().any(|n| n == c)))
    }

    /// Can events of the tracepoint `system:name` pass (decided from its
    /// name: the provider, level and keyword of an EventHeader name, the
    /// system of another)? `collect` records only those.
    pub fn tracepoint_may_match(&self, system: &str, name: &str) -> bool {
        let a = &self.args;
        if system == spec::USER_EVENTS {
            if let Some((provider, level, keyword)) = spec::split_eventheader_name(name) {
                return (a.provider.is_empty() || a.provider.iter().any(|p| p == provider))
                    && self.level_keyword_match(level, keyword);
            }
        }
        a.provider.is_empty() || a.provider.iter().any(|p| p == system)
    }

    /// The kernel tracepoint filter for the pid and tid filters, if any:
    /// `common_pid == 1 || common_pid == 2`, and with both
    /// `(common_pid == 1) && (common_pid == 3)`.
    pub fn kernel_filter(&self) -> Option<String> {
        let any_of = |ids: &[u32]| {
            ids.iter()
                .map(|p| format!("common_pid == {p}"))
                .collect::<Vec<String>>()
                .join(" || ")
        };
        match (self.args.pid.is_empty(), self.args.tid.is_empty()) {
            (true, true) => None,
            (false, true) => Some(any_of(&self.args.pid)),
            (true, false) => Some(any_of(&self.args.tid)),
            (false, false) => Some(format!(
                "({}) && ({})",
                any_of(&self.args.pid),
                any_of(&self.args.tid)
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn filter(args: &[&str]) -> Filter {
        #[derive(clap::Parser)]
        struct Cli {
            #[command(flatten)]
            f: FilterArgs,
        }
        let mut all = vec!["x"];
        all.extend_from_slice(args);
        Filter::new(&<Cli as clap::Parser>::try_parse_from(all).unwrap().f)
    }

    fn eh<'a>(provider: &'a str, event: &'a str, level: u8, keyword: u64, pid: u32) -> Subject<'a> {
        Subject {
            provider,
            event: event.as_bytes(),
            level_keyword: Some((level, keyword)),
            pid: Some(pid),
            tid: Some(pid + 1),
            cpu: Some(pid % 4),
            comm: Some("app"),
        }
    }

    #[test]
    fn every_filter_must_match() {
        assert!(filter(&[]).is_empty());
        assert!(filter(&[]).matches(&eh("P", "E", 5, 1, 7)));
        let f = filter(&["--provider", "P", "--provider", "Q", "--level", "4"]);
        assert!(f.matches(&eh("Q", "E", 4, 1, 7)));
        assert!(!f.matches(&eh("Q", "E", 5, 1, 7)));
        assert!(!f.matches(&eh("R", "E", 1, 1, 7)));
        let f = filter(&["--keyword", "0x6", "--event", "E", "--pid", "7"]);
        assert!(f.matches(&eh("P", "E", 5, 2, 7)));
        assert!(!f.matches(&eh("P", "E", 5, 1, 7)));
        assert!(!f.matches(&eh("P", "F", 5, 2, 7)));
        assert!(!f.matches(&eh("P", "E", 5, 2, 8)));
        // No pid (a capture file): --pid matches nothing.
        let s = Subject {
            pid: None,
            ..eh("P", "E", 5, 2, 7)
        };
        assert!(!f.matches(&s));
        // Plain tracepoints: no level or keyword to filter on.
        let plain = Subject {
            provider: "sched",
            event: b"sched_switch",
            level_keyword: None,
            pid: Some(1),
            tid: None,
            cpu: None,
            comm: None,
        };
        assert!(filter(&["--level", "1", "--keyword", "8"]).matches(&plain));
        assert!(filter(&["--provider", "sched"]).matches(&plain));
        // Thread and CPU (eh(): tid pid + 1, CPU pid % 4).
        let f = filter(&["--tid", "8", "--tid", "9", "--cpu", "3"]);
        assert!(!f.is_empty());
        assert!(f.matches(&eh("P", "E", 5, 2, 7)));
        assert!(!f.matches(&eh("P", "E", 5, 2, 8)));
        assert!(!filter(&["--cpu", "2"]).matches(&eh("P", "E", 5, 2, 7)));
        // Without them (a capture file): nothing matches.
        assert!(!filter(&["--tid", "1"]).matches(&plain));
        assert!(!filter(&["--cpu", "0"]).matches(&plain));
        // Process names: absent (a capture file) matches none.
        let comm = |names: &[&str]| {
            let mut args = FilterArgs::default();
            args.matching.comm = names.iter().map(|n| n.to_string()).collect();
            Filter::new(&args)
        };
        assert!(!comm(&["app"]).is_empty());
        assert!(comm(&["x", "app"]).matches(&eh("P", "E", 5, 2, 7)));
        assert!(!comm(&["ap"]).matches(&eh("P", "E", 5, 2, 7)));
        assert!(!comm(&["app"]).matches(&plain));
    }

    #[test]
    fn tracepoints_chosen_by_name() {
        let f = filter(&["--provider", "P", "--level", "4", "--keyword", "2"]);
        assert!(f.tracepoint_may_match("user_events", "P_L4K2"));
        assert!(f.tracepoint_may_match("user_events", "P_L3K3Gg"));
        assert!(!f.tracepoint_may_match("user_events", "P_L5K2"));
        assert!(!f.tracepoint_may_match("user_events", "P_L4K1"));
        assert!(!f.tracepoint_may_match("user_events", "Q_L4K2"));
        assert!(!f.tracepoint_may_match("sched", "sched_switch"));
        assert!(filter(&["--level", "1"]).tracepoint_may_match("sched", "sched_switch"));
        assert_eq!(filter(&[]).kernel_filter(), None);
        assert_eq!(
            filter(&["--pid", "3", "--pid", "9"])
                .kernel_filter()
                .unwrap(),
            "common_pid == 3 || common_pid == 9"
        );
        assert_eq!(
            filter(&["--tid", "4"]).kernel_filter().unwrap(),
            "common_pid == 4"
        );
        assert_eq!(
            filter(&["--pid", "3", "--tid", "4", "--tid", "5"])
                .kernel_filter()
                .unwrap(),
            "(common_pid == 3) && (common_pid == 4 || common_pid == 5)"
        );
    }

    #[test]
    fn bad_values_are_usage_errors() {
        #[derive(clap::Parser, Debug)]
        struct Cli {
            #[command(flatten)]
            f: FilterArgs,
        }
        for args in [
            &["x", "--level", "0"][..],
            &["x", "--keyword", "0"],
            &["x", "--keyword", "xyz"],
            &["x", "--pid", "-1"],
            &["x", "--tid", "x"],
            &["x", "--cpu", "8192"],
            &["x", "--cpu", "-1"],
        ] {
            assert!(
                <Cli as clap::Parser>::try_parse_from(args).is_err(),
                "{args:?}"
            );
        }
        // A negative number is a bad value of its option, not an unknown
        // option, and the message names the option and the value.
        for (args, says) in [
            (
                &["x", "--pid", "-1"][..],
                "for '--pid <PID>': '-1' is not a process id",
            ),
            (
                &["x", "--level", "-1"],
                "for '--level <N>': '-1' is not a level",
            ),
            (
                &["x", "--keyword", "-1"],
                "for '--keyword <MASK>': not a hexadecimal",
            ),
            (&["x", "--pid", "+5"], "'+5' is not a process id"),
            (
                &["x", "--cpu", "-1"],
                "for '--cpu <CPU>': '-1' is not a CPU number",
            ),
            (&["x", "--tid", "0x5"], "for '--tid <TID>': '0x5' is not"),
        ] {
            let e = <Cli as clap::Parser>::try_parse_from(args)
                .unwrap_err()
                .to_string();
            assert!(e.contains(says), "{args:?}: {e}");
        }
        assert_eq!(parse_pid("0"), Ok(0));
        assert_eq!(parse_pid("4194304"), Ok(4194304));
        assert!(parse_pid("4194305").is_err());
        assert_eq!(parse_level("5"), Ok(5));
    }
}
