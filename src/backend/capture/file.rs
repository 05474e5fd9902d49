//! What the capture file is, the one word a write reads about it, and one
//! record's `writev` to it without a signal that could kill the host.
//!
//! The record size each kind of file takes (see docs/capture-mode.md):
//! - a FIFO, pipe or socket: up to `PIPE_BUF` bytes, the most a pipe writes
//!   at once (larger writes from several threads or processes interleave,
//!   and the records would be unreadable);
//! - anything else: up to [`MAX_RECORD`] bytes, the largest record
//!   `eventheader decode` reads (`MAX_RECORD` in
//!   `cli/src/perfdata/buffered_input.rs`). Larger records could not be read back,
//!   and a `writev` of 2 GiB or more is always short (the kernel writes at
//!   most 2 GiB - 4 KiB at once), which would leave a torn record.
//!
//! Larger records are refused with E2BIG before anything is written.
//!
//! A write to a pipe or socket whose reader is gone raises SIGPIPE, and a
//! write at the file size limit (`RLIMIT_FSIZE`) raises SIGXFSZ: by default
//! each kills the process. A tracing library must never kill its host, so
//! while a capture write that could raise one is in progress those two
//! signals are blocked on the writing thread, the one the write raised
//! (EPIPE, EFBIG) is taken back unless it was pending already, and the
//! write returns the errno. Which writes could is decided when the file is
//! selected ([`Kind::of`]): a FIFO, pipe or socket's; a regular file's only
//! if `RLIMIT_FSIZE` is finite at that moment. Other writes (a regular file
//! without a size limit, `/dev/null`, a terminal) are one `writev` and no
//! mask change. A program that lowers `RLIMIT_FSIZE` after selecting its
//! capture file selects it again to be guarded (see docs/capture-mode.md).
//!
//! Everything a write needs to know about the file is one word, [`STATE`],
//! read once per write with no lock (see [`super`] for what that promises):
//! the record limit, whether the write is guarded, whether a short write
//! broke the file, and the file's generation.

use core::ffi::c_int;
use core::ptr;
use core::sync::atomic::{AtomicU32, Ordering};

use libc::iovec;

use crate::sys::errno;

/// The largest capture record, with its size field: the largest record
/// `eventheader decode` reads.
pub const MAX_RECORD: u32 = 64 << 20;

/// The largest record a FIFO, pipe or socket takes.
const PIPE_LIMIT: u32 = libc::PIPE_BUF as u32;

/// [`STATE`]'s low bits; the limit, a multiple of 4096, is the rest.
const FLAGS: u32 = 0xfff;
/// Writes may raise SIGPIPE or SIGXFSZ: they are guarded.
const GUARDED: u32 = 1;
/// A short write left a partial record at the end of the file (the limit
/// is 0 then, so every write takes the refusal branch).
const BROKEN: u32 = 2;
/// Records take the timed layout (docs/format.md §7.4). The limit bits are
/// 0 then, so that the reference layout's write, which compares its record
/// with the limit anyway, is the one that pays nothing for the other layout:
/// a timed write takes its refusal branch, and finds its limit in [`SMALL`].
const TIMED: u32 = 4;
/// With [`TIMED`]: the file takes records of up to `PIPE_BUF` bytes (else
/// [`MAX_RECORD`]).
const SMALL: u32 = 8;
/// The generation: counts file switches, so a short write to one file never
/// marks the next one broken.
const GENERATION: u32 = FLAGS & !(GUARDED | BROKEN | TIMED | SMALL);
const ONE_GENERATION: u32 = 16;

const _: () = assert!(PIPE_LIMIT & FLAGS == 0 && MAX_RECORD & FLAGS == 0 && PIPE_LIMIT != 0);

/// The current capture file, as a write sees it: the largest record it
/// takes (0 when [`BROKEN`]) | [`GUARDED`] | [`BROKEN`] | [`TIMED`] | the
/// generation.
/// Changed only by file selection (under the library lock) and by a short
/// write ([`mark_broken`]); read once per write.
static STATE: AtomicU32 = AtomicU32::new(MAX_RECORD | GUARDED);

/// What a capture file is: its record limit, whether its writes may raise
/// a signal, and the layout of its records.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Kind {
    limit: u32,
    guarded: bool,
    timed: bool,
}

impl Kind {
    /// The kind of the file open on `fd`, written in the timed layout if
    /// `timed`. For a regular file, whether its writes are guarded depends
    /// on `RLIMIT_FSIZE` now.
    pub fn of(fd: c_int, timed: bool) -> Result<Kind, c_int> {
        // SAFETY: an all-zero stat is a valid value, overwritten by fstat.
        let mut st: libc::stat = unsafe { core::mem::zeroed() };
        // SAFETY: `st` is a writable stat.
        if unsafe { libc::fstat(fd, &mut st) } != 0 {
            return Err(errno());
        }
        Ok(match st.st_mode & libc::S_IFMT {
            libc::S_IFIFO | libc::S_IFSOCK => Kind {
                limit: PIPE_LIMIT,
                guarded: true,
                timed,
            },
            libc::S_IFREG => Kind {
                limit: MAX_RECORD,
                guarded: file_size_limited(),
                timed,
            },
            _ => Kind {
                limit: MAX_RECORD,
                guarded: false,
                timed,
            },
        })
    }

    fn bits(self) -> u32 {
        with_limit(self.limit, self.timed) | u32::from(self.guarded)
    }
}

/// The state bits of a file taking records of up to `limit` bytes (a file's
/// limit: [`PIPE_LIMIT`] or [`MAX_RECORD`]) in the timed layout or not.
fn with_limit(limit: u32, timed: bool) -> u32 {
    match (timed, limit == PIPE_LIMIT) {
        (false, _) => limit,
        (true, true) => TIMED | SMALL,
        (true, false) => TIMED,
    }
}

/// Whether this process has a finite file size limit (a write at it raises
/// SIGXFSZ). An unreadable limit counts as finite.
fn file_size_limited() -> bool {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: `limit` is a writable rlimit.
    let read = unsafe { libc::getrlimit(libc::RLIMIT_FSIZE, &mut limit) } == 0;
    !read || limit.rlim_cur != libc::RLIM_INFINITY
}

/// The state a write reads, once.
#[inline(always)]
pub fn state() -> u32 {
    STATE.load(Ordering::Acquire)
}

/// The largest record in the reference's layout a write that read `state`
/// may write (0: the file is broken, or takes the timed layout).
#[inline(always)]
pub fn limit(state: u32) -> u32 {
    state & !FLAGS
}

/// Whether a write that read `state` writes the timed layout.
#[inline(always)]
pub fn timed(state: u32) -> bool {
    state & TIMED != 0
}

/// The largest record in the timed layout a write that read `state` (with
/// [`TIMED`]) may write.
#[inline(always)]
pub fn timed_limit(state: u32) -> u32 {
    if state & SMALL != 0 {
        PIPE_LIMIT
    } else {
        MAX_RECORD
    }
}

/// The largest record of either layout the file takes (0 if broken).
fn any_limit(state: u32) -> u32 {
    if timed(state) {
        timed_limit(state)
    } else {
        limit(state)
    }
}

/// Why a record within the u32 size range was refused by [`limit`]: ENOSPC
/// for a broken file (see [`super`]), else E2BIG.
#[cold]
pub fn refusal(state: u32) -> c_int {
    if state & BROKEN != 0 {
        libc::ENOSPC
    } else {
        libc::E2BIG
    }
}

/// Notes that a write that read `state` left a partial record: the file is
/// broken, unless it was switched since (the partial record is then the
/// old file's). Async-signal-safe.
#[cold]
pub fn mark_broken(state: u32) {
    let broken = BROKEN | (state & GENERATION);
    let _ = STATE.compare_exchange(state, broken, Ordering::AcqRel, Ordering::Relaxed);
}

/// A switch of the capture file in progress (see [`begin_switch`]).
pub struct Switch {
    /// The state before the switch.
    old: u32,
    generation: u32,
}

/// Starts a switch to a file of kind `next` (under the library lock): the
/// state becomes what both the current file and the next one take (the
/// smaller limit, guarded if either is, broken if the current file is; the
/// next file's layout, which a reader tells apart record by record),
/// under a new generation, which the switch ends with ([`end_switch`] or
/// [`abandon_switch`]).
pub fn begin_switch(next: Kind) -> Switch {
    let old = STATE.load(Ordering::Acquire);
    let narrowed = narrowed(old, next);
    STATE.store(narrowed, Ordering::Release);
    Switch {
        old,
        generation: narrowed & GENERATION,
    }
}

/// The state during a switch from a file whose state is `old` to one of
/// kind `next`, under the next generation.
fn narrowed(old: u32, next: Kind) -> u32 {
    let generation = old.wrapping_add(ONE_GENERATION) & GENERATION;
    let both = if old & BROKEN != 0 {
        BROKEN
    } else {
        with_limit(any_limit(old).min(next.limit), next.timed) | ((old | next.bits()) & GUARDED)
    };
    both | generation
}

/// Ends a switch: the new file, whole, of kind `next`.
pub fn end_switch(switch: Switch, next: Kind) {
    STATE.store(next.bits() | switch.generation, Ordering::Release);
}

/// Ends a switch that did not happen: the current file stays, as it was
/// (broken if a short write broke it meanwhile).
pub fn abandon_switch(switch: Switch) {
    let was = (switch.old & !GENERATION) | switch.generation;
    let _ = STATE.fetch_update(Ordering::AcqRel, Ordering::Acquire, |now| {
        (now & BROKEN == 0).then_some(was)
    });
}

/// Back to the state before any capture file (the library is unloaded).
pub fn reset() {
    STATE.store(MAX_RECORD | GUARDED, Ordering::Relaxed);
}

/// `writev(fd, vecs)` to the file a write read `state` of, with SIGPIPE and
/// SIGXFSZ kept from the process if that file could raise them (see the
/// module documentation): the bytes written, or the errno.
///
/// # Safety
/// Every buffer of `vecs` must be readable for its length.
#[inline(always)]
pub unsafe fn writev(fd: c_int, vecs: &[iovec], state: u32) -> Result<usize, c_int> {
    if state & GUARDED == 0 {
        // SAFETY: the caller guarantees the buffers.
        return unsafe { plain_writev(fd, vecs) };
    }
    // SAFETY: as above.
    unsafe { guarded_writev(fd, vecs) }
}

/// # Safety
/// As for [`writev`].
#[inline(always)]
unsafe fn plain_writev(fd: c_int, vecs: &[iovec]) -> Result<usize, c_int> {
    // SAFETY: the caller guarantees the buffers; the count is at most
    // 1025 (a C count of at most 1024, and the header).
    let ret = unsafe { libc::writev(fd, vecs.as_ptr(), vecs.len() as c_int) };
    usize::try_from(ret).map_err(|_| errno())
}

/// An empty signal set with `signals` added.
fn set_of(signals: &[c_int]) -> libc::sigset_t {
    // SAFETY: an all-zero sigset_t is a valid value, emptied next.
    let mut set: libc::sigset_t = unsafe { core::mem::zeroed() };
    // SAFETY: `set` is a writable sigset_t.
    unsafe { libc::sigemptyset(&mut set) };
    for &signal in signals {
        // SAFETY: as above; `signal` is a valid signal number.
        unsafe { libc::sigaddset(&mut set, signal) };
    }
    set
}

fn member(set: &libc::sigset_t, signal: c_int) -> bool {
    // SAFETY: `set` is an initialized sigset_t.
    unsafe { libc::sigismember(set, signal) == 1 }
}

/// # Safety
/// As for [`writev`].
#[inline(never)]
unsafe fn guarded_writev(fd: c_int, vecs: &[iovec]) -> Result<usize, c_int> {
    let block = set_of(&[libc::SIGPIPE, libc::SIGXFSZ]);
    let mut old = set_of(&[]);
    // SAFETY: both are initialized sigset_t; only this thread's mask
    // changes, and it is restored below.
    unsafe { libc::pthread_sigmask(libc::SIG_BLOCK, &block, &mut old) };
    // A signal can be pending already only if the thread blocked it.
    let mut before = set_of(&[]);
    if member(&old, libc::SIGPIPE) || member(&old, libc::SIGXFSZ) {
        // SAFETY: `before` is a writable sigset_t.
        unsafe { libc::sigpending(&mut before) };
    }
    // SAFETY: the caller guarantees the buffers.
    let result = unsafe { plain_writev(fd, vecs) };
    let raised = match result {
        Err(libc::EPIPE) => libc::SIGPIPE,
        Err(libc::EFBIG) => libc::SIGXFSZ,
        _ => 0,
    };
    if raised != 0 && !member(&before, raised) {
        let this = set_of(&[raised]);
        let now = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `this` is an initialized set of a blocked signal; a zero
        // timeout polls: it takes the pending signal the write raised, or
        // returns EAGAIN.
        unsafe { libc::sigtimedwait(&this, ptr::null_mut(), &now) };
    }
    // SAFETY: `old` is the mask saved above.
    unsafe { libc::pthread_sigmask(libc::SIG_SETMASK, &old, ptr::null_mut()) };
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    const FIFO: Kind = Kind {
        limit: PIPE_LIMIT,
        guarded: true,
        timed: false,
    };
    const UNLIMITED_FILE: Kind = Kind {
        limit: MAX_RECORD,
        guarded: false,
        timed: false,
    };
    const TIMED_FILE: Kind = Kind {
        limit: MAX_RECORD,
        guarded: false,
        timed: true,
    };

    #[test]
    fn a_switch_narrows_to_what_both_files_take() {
        let file = UNLIMITED_FILE.bits() | 32;
        let during = narrowed(file, FIFO);
        assert_eq!(limit(during), PIPE_LIMIT);
        assert_eq!(during & GUARDED, GUARDED);
        assert_eq!(during & GENERATION, 48);
        assert!(!timed(during));
        // The layout is the next file's; a timed state's limit is in SMALL.
        let during = narrowed(file, TIMED_FILE);
        assert!(timed(during));
        assert_eq!((limit(during), timed_limit(during)), (0, MAX_RECORD));
        let during = narrowed(FIFO.bits(), TIMED_FILE);
        assert_eq!(
            (timed_limit(during), during & GUARDED),
            (PIPE_LIMIT, GUARDED)
        );
        let during = narrowed(TIMED_FILE.bits(), FIFO);
        assert!(!timed(during));
        assert_eq!(limit(during), PIPE_LIMIT);
        let during = narrowed(TIMED_FILE.bits(), UNLIMITED_FILE);
        assert_eq!(limit(during), MAX_RECORD);
        // A broken timed file refuses everything (ENOSPC) until a switch.
        let broken = BROKEN | (TIMED_FILE.bits() & GENERATION);
        assert!(!timed(broken) && limit(broken) == 0);
        assert_eq!(refusal(broken), libc::ENOSPC);
        // From a FIFO to a file: still the FIFO's limit and guard.
        let during = narrowed(FIFO.bits(), UNLIMITED_FILE);
        assert_eq!((limit(during), during & GUARDED), (PIPE_LIMIT, GUARDED));
        // A broken file refuses everything until the switch ends.
        let during = narrowed(BROKEN | 16, UNLIMITED_FILE);
        assert_eq!(limit(during), 0);
        assert_eq!(refusal(during), libc::ENOSPC);
        assert_eq!(refusal(FIFO.bits()), libc::E2BIG);
        // The generation wraps within its bits.
        let during = narrowed(UNLIMITED_FILE.bits() | GENERATION, FIFO);
        assert_eq!(during & GENERATION, 0);
        assert_eq!(limit(during), PIPE_LIMIT);
    }
}
