//! The signals `collect` handles: SIGINT and SIGTERM stop it, SIGUSR1 takes
//! a snapshot in circular mode. The binary blocks them before its `main`
//! runs ([`block_at_start`], from an `.init_array` constructor), so that a
//! signal sent while collect starts waits for its handler instead of
//! killing it; [`install`] installs the handlers and unblocks them, and
//! every other subcommand unblocks them at once ([`unblock`]).

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use crate::exit::Error;

/// The signals blocked until collect's handlers are installed.
const HANDLED: [libc::c_int; 3] = [libc::SIGINT, libc::SIGTERM, libc::SIGUSR1];

fn mask(how: libc::c_int) {
    // SAFETY: sigset_t is plain old data; sigemptyset/sigaddset initialise
    // it, and pthread_sigmask only reads it. The signal numbers are valid.
    unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        for sig in HANDLED {
            libc::sigaddset(&mut set, sig);
        }
        libc::pthread_sigmask(how, &set, std::ptr::null_mut());
    }
}

/// Blocks the signals collect handles (the binary's first act, before
/// `main`).
pub fn block_at_start() {
    mask(libc::SIG_BLOCK);
}

/// Blocks them in the calling thread only (a thread of collect's other
/// than the one that waits on the rings, so that a signal wakes that one).
pub fn block_in_this_thread() {
    mask(libc::SIG_BLOCK);
}

/// Unblocks them (a subcommand that installs no handler for them: their
/// default actions apply again, and a signal that arrived meanwhile is
/// delivered now).
pub fn unblock() {
    mask(libc::SIG_UNBLOCK);
}

/// What the signals have asked for.
pub struct Flags {
    /// SIGINT or SIGTERM: stop recording.
    pub stop: Arc<AtomicBool>,
    /// SIGUSR1 (circular mode): take a snapshot.
    pub usr1: Arc<AtomicBool>,
}

/// Installs the handlers (SIGUSR1's only with `circular`: otherwise it
/// keeps its default action), then unblocks the signals: one that arrived
/// since the start is handled now.
pub fn install(circular: bool) -> Result<Flags, Error> {
    let flags = Flags {
        stop: Arc::new(AtomicBool::new(false)),
        usr1: Arc::new(AtomicBool::new(false)),
    };
    let mut handled = vec![(libc::SIGINT, &flags.stop), (libc::SIGTERM, &flags.stop)];
    if circular {
        handled.push((libc::SIGUSR1, &flags.usr1));
    }
    for (sig, flag) in handled {
        signal_hook::flag::register(sig, Arc::clone(flag))
            .map_err(|e| Error::io(&e, "installing signal handlers"))?;
    }
    unblock();
    Ok(flags)
}
