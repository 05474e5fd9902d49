//! What `doctor` prints: one line per check (its state, its name, what was
//! found), a fix under each failing one, and the verdict with its status.

use std::fmt::Write;

use super::files::escape;
use crate::exit::Status;

/// What to do where user_events is missing: write events to a file.
pub const CAPTURE_MODE: &str = "without user_events, capture mode records events to a file \
(docs/capture-mode.md): run the program with TRACEPOINT_CAPTURE_FILE=events.dat, \
then eventheader decode events.dat";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum State {
    Ok,
    Warn,
    Fail,
    /// Not checked: an earlier check failed that it depends on.
    Skip,
}

#[derive(Clone, Debug)]
pub struct Check {
    pub state: State,
    pub name: String,
    pub found: String,
    /// What to do about it, in plain words (failing and warning checks).
    pub fix: Option<String>,
    /// The exit status a failing check stands for.
    pub status: Status,
}

impl Check {
    pub fn ok(name: impl Into<String>, found: impl Into<String>) -> Check {
        Check {
            state: State::Ok,
            name: name.into(),
            found: found.into(),
            fix: None,
            status: Status::Success,
        }
    }

    pub fn fail(
        status: Status,
        name: impl Into<String>,
        found: impl Into<String>,
        fix: impl Into<String>,
    ) -> Check {
        Check {
            state: State::Fail,
            name: name.into(),
            found: found.into(),
            fix: Some(fix.into()),
            status,
        }
    }

    pub fn warn(name: impl Into<String>, found: impl Into<String>, fix: Option<String>) -> Check {
        Check {
            state: State::Warn,
            name: name.into(),
            found: found.into(),
            fix,
            status: Status::Success,
        }
    }

    pub fn skip(name: impl Into<String>, why: impl Into<String>) -> Check {
        Check {
            state: State::Skip,
            name: name.into(),
            found: why.into(),
            fix: None,
            status: Status::Success,
        }
    }
}

/// The status of a set of checks: the first of 4, 5, 8, 3, 9, 1 that a
/// failing check stands for (the order of the exit status table), else 0.
pub fn status(checks: &[Check]) -> Status {
    checks
        .iter()
        .filter(|c| c.state == State::Fail)
        .fold(Status::Success, |s, c| s.worst(c.status))
}

/// The verdict line for a status.
pub fn verdict(status: Status) -> &'static str {
    match status {
        Status::Success => "all well: events written on this machine can reach a collector",
        Status::NoUserEvents => {
            "events written on this machine go nowhere: user_events is not available"
        }
        Status::PermissionDenied => {
            "programs run as this user cannot write events: they are dropped"
        }
        Status::CollectNotPermitted => "events can be written, but this user may not collect them",
        Status::BadTracepoint => "the tracepoints asked about are not registered",
        Status::NotEnabled => {
            "the tracepoints asked about are registered, but no collector has enabled them"
        }
        _ => "a check could not be done",
    }
}

/// The report as printed: one line per check (`ok`, `warn`, `FAIL`, `-`),
/// `fix:` lines under it, then the verdict with the exit status (after a
/// `capture mode` line when user_events is missing). What came from the
/// system (paths, names) is printed [`escape`]d: one line stays one line.
pub fn render(checks: &[Check]) -> String {
    let mut out = String::new();
    let checks: Vec<Check> = checks
        .iter()
        .map(|c| Check {
            name: escape(&c.name),
            found: escape(&c.found),
            fix: c.fix.as_deref().map(escape),
            ..c.clone()
        })
        .collect();
    let width = checks
        .iter()
        .map(|c| c.name.chars().count())
        .max()
        .unwrap_or(0);
    for c in &checks {
        let state = match c.state {
            State::Ok => "ok",
            State::Warn => "warn",
            State::Fail => "FAIL",
            State::Skip => "-",
        };
        let _ = writeln!(out, "{state:<4}  {:<width$}  {}", c.name, c.found);
        if let Some(fix) = &c.fix {
            let _ = writeln!(out, "      {:<width$}  fix: {fix}", "");
        }
    }
    let s = status(&checks);
    if s == Status::NoUserEvents {
        let _ = writeln!(out, "note  {CAPTURE_MODE}");
    }
    let _ = writeln!(out, "{} (exit status {})", verdict(s), s as u8);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_is_the_first_in_the_table_order() {
        let checks = [
            Check::fail(Status::NotEnabled, "a", "x", "y"),
            Check::fail(Status::CollectNotPermitted, "b", "x", "y"),
            Check::warn("c", "x", None),
        ];
        assert_eq!(status(&checks), Status::CollectNotPermitted);
        let checks = [
            Check::fail(Status::PermissionDenied, "a", "x", "y"),
            Check::fail(Status::NoUserEvents, "b", "x", "y"),
        ];
        assert_eq!(status(&checks), Status::NoUserEvents);
        assert_eq!(status(&[Check::warn("c", "x", None)]), Status::Success);
        assert_eq!(
            status(&[
                Check::fail(Status::NotEnabled, "a", "x", "y"),
                Check::fail(Status::BadTracepoint, "b", "x", "y")
            ]),
            Status::BadTracepoint
        );
    }

    #[test]
    fn rendering() {
        let text = render(&[
            Check::ok("kernel", "fine"),
            Check::fail(Status::PermissionDenied, "access", "no", "grant it"),
            Check::skip("tracepoints", "needs access"),
        ]);
        let expected = [
            "ok    kernel       fine",
            "FAIL  access       no",
            "                   fix: grant it",
            "-     tracepoints  needs access",
            "programs run as this user cannot write events: they are dropped (exit status 5)",
            "",
        ];
        assert_eq!(text, expected.join("\n"));
    }

    #[test]
    fn rendering_escapes_and_names_capture_mode() {
        let text = render(&[Check::fail(
            Status::NoUserEvents,
            "tracefs\x1b[2J",
            "mounted at /mnt/a\nok    forged",
            "x\ty",
        )]);
        let expected = [
            "FAIL  tracefs\\e[2J  mounted at /mnt/a\\nok    forged",
            "                    fix: x\\ty",
            &format!("note  {CAPTURE_MODE}"),
            "events written on this machine go nowhere: user_events is not available (exit status 4)",
            "",
        ];
        assert_eq!(text, expected.join("\n"));
        assert!(CAPTURE_MODE.contains("TRACEPOINT_CAPTURE_FILE"));
    }
}
