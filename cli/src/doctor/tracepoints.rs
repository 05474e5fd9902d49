//! The tracepoints of a provider (or of a program file): which are
//! registered, and which enabled and by whom. user_events_status lists
//! every registered user_events tracepoint with what enabled it (ftrace,
//! perf, other); without read access to it, the tracepoints' directories
//! and their `enable` files (ftrace's switch) say less.

use std::collections::{BTreeSet, HashSet};
use std::path::Path;

use super::parse::{self, StatusEntry};
use super::report::Check;
use super::system::Sys;
use crate::exit::Status;
use crate::plural;
use crate::spec::{glob_match, split_eventheader_name};

/// The registered user_events tracepoints and what is known of their users.
pub struct Registered {
    pub entries: Vec<StatusEntry>,
    /// False when user_events_status could not be read: users come from the
    /// `enable` files alone (ftrace's), perf's are unknown.
    pub complete: bool,
}

pub fn registered(sys: &Sys, tracefs: &Path) -> Registered {
    if let Ok(text) = sys.read_text(&tracefs.join("user_events_status")) {
        return Registered {
            entries: parse::user_events_status(&text),
            complete: true,
        };
    }
    let dir = sys.path(&tracefs.join("events/user_events"));
    let mut entries = Vec::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if !entry.path().join("id").exists() {
            continue;
        }
        let enable = std::fs::read_to_string(entry.path().join("enable")).unwrap_or_default();
        let users = if enable.trim() == "1" {
            vec!["ftrace".to_string()]
        } else {
            Vec::new()
        };
        entries.push(StatusEntry { name, users });
    }
    entries.sort_by(|a, b| a.name.cmp(&b.name));
    Registered {
        entries,
        complete: false,
    }
}

/// The provider of a tracepoint name: an EventHeader name's provider, else
/// the name itself (a plain tracepoint is its own provider here).
fn provider_of(name: &str) -> &str {
    split_eventheader_name(name).map_or(name, |(p, _, _)| p)
}

/// Finds, among the strings of a program file, the providers of
/// registered tracepoints (TraceLogging and tracepoint-provider.h keep the
/// provider name, a plain tracepoint's registration command, as a C
/// string). It keeps only those names, so its memory is the registered
/// list's whatever the file holds.
pub struct ProgramProviders {
    wanted: HashSet<String>,
    found: BTreeSet<String>,
    strings: parse::CStrings,
}

impl ProgramProviders {
    pub fn new(reg: &Registered) -> ProgramProviders {
        ProgramProviders {
            wanted: reg
                .entries
                .iter()
                .map(|e| provider_of(&e.name).to_string())
                .collect(),
            found: BTreeSet::new(),
            strings: parse::CStrings::new(1),
        }
    }

    /// Scans the file's next bytes.
    pub fn feed(&mut self, bytes: &[u8]) {
        let (wanted, found) = (&self.wanted, &mut self.found);
        self.strings.feed(bytes, |s| {
            for candidate in [s, s.split(' ').next().unwrap_or(s)] {
                if wanted.contains(candidate) && !found.contains(candidate) {
                    found.insert(candidate.to_string());
                }
            }
        });
    }

    /// The providers found, sorted.
    pub fn found(self) -> Vec<String> {
        self.found.into_iter().collect()
    }
}

/// The providers of registered tracepoints named among `bytes`' strings.
#[cfg(test)]
pub fn providers_of_program(bytes: &[u8], reg: &Registered) -> Vec<String> {
    let mut p = ProgramProviders::new(reg);
    p.feed(bytes);
    p.found()
}

/// One line per tracepoint of `provider` (a name, or a pattern with `*`
/// and `?`), and a line for the provider: failing when none is registered
/// (status 3) or none enabled (status 9).
pub fn check_provider(provider: &str, reg: &Registered) -> Vec<Check> {
    let name = format!("provider {provider}");
    let mine: Vec<&StatusEntry> = reg
        .entries
        .iter()
        .filter(|e| glob_match(provider, provider_of(&e.name)))
        .collect();
    if mine.is_empty() {
        return vec![Check::fail(
            Status::BadTracepoint,
            name,
            format!(
                "no tracepoint registered ({} registered, none of this provider)",
                plural::count(reg.entries.len() as u64, "user_events tracepoint")
            ),
            format!(
                "start the program that writes them and check that its TraceLoggingRegister \
                 (or tracepoint_open_provider) returns 0; or register them ahead of it: \
                 eventheader register {provider}_L5K1 (one per level and keyword)"
            ),
        )];
    }
    let enabled = mine.iter().filter(|e| !e.users.is_empty()).count();
    let mut checks = Vec::new();
    let unknown = if reg.complete {
        ""
    } else {
        " (perf users unknown: user_events_status is not readable)"
    };
    if enabled == 0 && reg.complete {
        checks.push(Check::fail(
            Status::NotEnabled,
            name,
            format!(
                "{} registered, none enabled: no collector listens, their events are dropped",
                plural::count(mine.len() as u64, "tracepoint")
            ),
            format!("start a collector: eventheader collect -o trace.data '{provider}_*' (or the levels and keywords you want)"),
        ));
    } else if enabled == 0 {
        checks.push(Check::warn(
            name,
            format!(
                "{} registered, none enabled by ftrace{unknown}",
                plural::count(mine.len() as u64, "tracepoint")
            ),
            Some("run doctor as root to see perf's users".into()),
        ));
    } else {
        checks.push(Check::ok(
            name,
            format!(
                "{} registered, {enabled} enabled{unknown}",
                plural::count(mine.len() as u64, "tracepoint")
            ),
        ));
    }
    for e in mine {
        let what = match split_eventheader_name(&e.name) {
            Some((_, level, keyword)) => format!(" (level {level}, keyword 0x{keyword:x})"),
            None => String::new(),
        };
        let tp = format!("  {}", e.name);
        if e.users.is_empty() {
            checks.push(Check::warn(
                tp,
                format!("registered, not enabled{what}: its events are dropped"),
                None,
            ));
        } else {
            checks.push(Check::ok(
                tp,
                format!("registered, enabled by {}", e.users.join(", ")),
            ));
        }
    }
    checks
}

/// The processes with perf events open (`anon_inode:[perf_event]` among
/// their descriptors): (pid, command name), by pid. The kernel does not say
/// which tracepoint a perf event is on, so these are the candidates for
/// "enabled by perf"; other users' processes are visible to root only.
pub fn perf_users(sys: &Sys) -> Vec<(u32, String)> {
    let mut out = Vec::new();
    let Ok(procs) = std::fs::read_dir(sys.path(Path::new("/proc"))) else {
        return out;
    };
    for entry in procs.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|n| n.parse::<u32>().ok())
        else {
            continue;
        };
        let Ok(fds) = std::fs::read_dir(entry.path().join("fd")) else {
            continue;
        };
        let has_perf = fds.flatten().any(|fd| {
            std::fs::read_link(fd.path()).is_ok_and(|t| t.as_os_str() == "anon_inode:[perf_event]")
        });
        if has_perf {
            let comm = sys
                .read_text(&Path::new("/proc").join(pid.to_string()).join("comm"))
                .unwrap_or_default();
            out.push((pid, comm.trim().chars().take(64).collect()));
        }
    }
    out.sort();
    out
}

/// The "perf users" line: which processes may have enabled the
/// tracepoints that perf enabled.
pub fn check_perf_users(sys: &Sys) -> Check {
    let users = perf_users(sys);
    if users.is_empty() {
        return Check::warn(
            "perf users",
            "no process with perf events open is visible to this user",
            Some("run doctor as root to see other users' processes".into()),
        );
    }
    let shown: Vec<String> = users
        .iter()
        .take(10)
        .map(|(pid, comm)| format!("{pid} ({comm})"))
        .collect();
    let more = match users.len() {
        n if n > 10 => format!(" and {} more", n - 10),
        _ => String::new(),
    };
    Check::ok(
        "perf users",
        format!(
            "processes with perf events open: {}{more}",
            shown.join(", ")
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::doctor::report::State;

    fn reg(text: &str) -> Registered {
        Registered {
            entries: parse::user_events_status(text),
            complete: true,
        }
    }

    #[test]
    fn provider_states() {
        let r = reg("P_L5K1 # Used by perf\nP_L4K1\nPx_L5K1\nQ_L5K1\nplain\n\nActive: 5\n");
        let c = check_provider("P", &r);
        assert_eq!(c.len(), 3, "{c:?}");
        assert_eq!(c[0].state, State::Ok);
        assert!(c[0].found.contains("2 tracepoints registered, 1 enabled"));
        assert_eq!(c[1].state, State::Ok);
        assert!(c[1].found.contains("enabled by perf"));
        assert_eq!(c[2].state, State::Warn);
        assert!(c[2].found.contains("level 4, keyword 0x1"));
        let c = check_provider("Px", &r);
        assert!(
            c[0].found
                .starts_with("1 tracepoint registered, none enabled"),
            "{c:?}"
        );
        let c = check_provider("Q", &r);
        assert_eq!((c[0].state, c[0].status), (State::Fail, Status::NotEnabled));
        let c = check_provider("R", &r);
        assert_eq!(
            (c[0].state, c[0].status),
            (State::Fail, Status::BadTracepoint)
        );
        assert!(c[0]
            .fix
            .as_ref()
            .unwrap()
            .contains("eventheader register R_L5K1"));
        assert_eq!(check_provider("plain", &r).len(), 2);
        assert_eq!(check_provider("P*", &r).len(), 4);
    }

    #[test]
    fn program_strings_name_providers() {
        let r = reg("P_L5K1\nplain\nOther_L1K1\n");
        let bytes = b"\x7fELF\0P\0plain u32 a; u8 b\0Oth\0";
        assert_eq!(providers_of_program(bytes, &r), ["P", "plain"]);
        assert!(providers_of_program(b"", &r).is_empty());
    }
}
