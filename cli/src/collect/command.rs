//! The end of `collect`'s command. When collect stops first (the duration
//! elapsed, SIGINT or SIGTERM, its output closed), it ends the command: SIGTERM,
//! then, if the command is still running after [`GRACE`], SIGKILL, so that a
//! command that ignores SIGTERM cannot keep collect running. Its death by
//! collect's signals, or by the SIGINT or SIGTERM that stopped collect too
//! (a Ctrl-C reaches the whole process group), is not the command failing.

use std::ops::{Deref, DerefMut};
use std::os::unix::process::ExitStatusExt;
use std::process::{Child, ExitStatus};
use std::time::{Duration, Instant};

/// How long a command has to exit after SIGTERM before SIGKILL.
pub const GRACE: Duration = Duration::from_secs(2);

/// Ends `child`, which collect is done with: SIGTERM, then SIGKILL after
/// `grace`. Returns how it ended (None if it could not be waited for).
pub fn end(child: &mut Child, grace: Duration) -> Option<ExitStatus> {
    if let Ok(Some(st)) = child.try_wait() {
        return Some(st);
    }
    signal(child, libc::SIGTERM);
    let deadline = Instant::now() + grace;
    while Instant::now() < deadline {
        match child.try_wait() {
            Ok(Some(st)) => return Some(st),
            Ok(None) => std::thread::sleep(Duration::from_millis(10)),
            Err(_) => return None,
        }
    }
    // Still running: Child::kill sends SIGKILL.
    let _ = child.kill();
    child.wait().ok()
}

/// The command collect runs (if any). Dropped while the command still
/// runs, as when an error ends collect (a failed write, a full disk), it
/// ends the command as [`end`] does: collect never leaves it orphaned.
pub struct Running(pub Option<Child>);

impl Deref for Running {
    type Target = Option<Child>;
    fn deref(&self) -> &Option<Child> {
        &self.0
    }
}

impl DerefMut for Running {
    fn deref_mut(&mut self) -> &mut Option<Child> {
        &mut self.0
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        if let Some(c) = self.0.as_mut() {
            end(c, GRACE);
        }
    }
}

fn signal(child: &Child, sig: libc::c_int) {
    // SAFETY: kill has no memory-safety preconditions; the pid is our
    // child's, not yet reaped (try_wait found it running).
    unsafe { libc::kill(child.id() as libc::pid_t, sig) };
}

/// Whether the command's end is its failure (status 7). `collect_stopped`:
/// collect ended the recording before the command ended (and then ended the
/// command, or a Ctrl-C or SIGTERM reached both): a death by SIGINT, SIGTERM
/// or SIGKILL, or a shell's exit status for one (128 + the signal), is then
/// collect's doing, not the command's failure.
pub fn failed(status: ExitStatus, collect_stopped: bool) -> bool {
    if status.success() {
        return false;
    }
    if !collect_stopped {
        return true;
    }
    let ours = [libc::SIGINT, libc::SIGTERM, libc::SIGKILL];
    match (status.signal(), status.code()) {
        (Some(sig), _) => !ours.contains(&sig),
        (None, Some(code)) => !ours.iter().any(|&sig| code == 128 + sig),
        (None, None) => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::Command;

    fn status_of(script: &str) -> ExitStatus {
        Command::new("sh")
            .args(["-c", script])
            .status()
            .expect("running sh")
    }

    #[test]
    fn a_command_that_ignores_sigterm_is_killed_after_the_grace_period() {
        let mut child = Command::new("sh")
            .args(["-c", "trap '' TERM; exec sleep 20"])
            .spawn()
            .expect("running sh");
        std::thread::sleep(Duration::from_millis(200));
        let started = Instant::now();
        let st = end(&mut child, Duration::from_millis(500)).expect("ended");
        let took = started.elapsed();
        assert_eq!(st.signal(), Some(libc::SIGKILL), "{st:?}");
        assert!(
            took >= Duration::from_millis(500) && took < Duration::from_secs(5),
            "{took:?}"
        );
        assert!(!failed(st, true));
    }

    #[test]
    fn a_command_that_obeys_sigterm_ends_at_once() {
        let mut child = Command::new("sleep").arg("20").spawn().expect("sleep");
        let started = Instant::now();
        let st = end(&mut child, GRACE).expect("ended");
        assert!(started.elapsed() < Duration::from_secs(1));
        assert_eq!(st.signal(), Some(libc::SIGTERM), "{st:?}");
        // Before, this was reported as "sleep signal: 15", status 7.
        assert!(!failed(st, true));
    }

    #[test]
    fn a_running_command_is_ended_when_collect_gives_up() {
        let child = Command::new("sleep").arg("20").spawn().expect("sleep");
        let pid = child.id() as libc::pid_t;
        let started = Instant::now();
        drop(Running(Some(child)));
        assert!(started.elapsed() < Duration::from_secs(1));
        // Reaped: no such process any more.
        // SAFETY: kill with signal 0 only checks that the process exists.
        assert_eq!(unsafe { libc::kill(pid, 0) }, -1);
    }

    #[test]
    fn a_command_that_already_ended_is_left_alone() {
        let mut child = Command::new("true").spawn().expect("true");
        std::thread::sleep(Duration::from_millis(200));
        let st = end(&mut child, GRACE).expect("ended");
        assert!(st.success());
    }

    #[test]
    fn failures_are_the_commands_own() {
        // The command ended by itself first: any failure is its own, a
        // signal included.
        assert!(failed(status_of("exit 1"), false));
        assert!(failed(status_of("kill -TERM $$"), false));
        assert!(!failed(status_of("exit 0"), false));
        // collect stopped first: its signals (and a shell's status for them)
        // are not failures; other exits still are.
        assert!(!failed(status_of("kill -TERM $$"), true));
        assert!(!failed(status_of("kill -INT $$"), true));
        assert!(!failed(status_of("kill -KILL $$"), true));
        assert!(!failed(status_of("exit 143"), true));
        assert!(!failed(status_of("exit 130"), true));
        assert!(failed(status_of("exit 1"), true));
        assert!(failed(status_of("kill -SEGV $$"), true));
    }
}
